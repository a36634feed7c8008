//! The integration tests, one module per subject, built as one test binary (one link instead of
//! forty: the suite compiles in a fraction of the time). Tests that need `../shared/data` or the
//! unpacked bench caches (`bench/unpack.sh`) are ignored, with the reason, when those are absent
//! (`build.rs` sets the `shared_data` and `bench_data` cfgs).

mod common;
mod eval_util;

mod architecture;
mod arena_match;
mod arena_rules;
mod arena_stats;
mod avatar_files;
mod estimate_formulas;
mod estimate_game_model;
mod estimate_ipr;
mod estimate_likelihood;
mod estimate_names;
mod estimate_pgn;
mod estimate_plies;
mod estimate_refit;
mod eval_config;
mod eval_symmetry;
mod eval_terms;
mod eval_tune;
mod eval_values;
mod golden_moves;
mod human_maia3;
mod human_model;
mod human_time;
mod humanlike_e2e;
mod humanlike_stats;
mod ladder_deep;
mod ladder_file;
mod one_search;
mod perft;
mod policy_choose;
mod policy_prior;
mod profile_files;
mod profile_manifest;
mod profile_search;
mod profile_seed;
mod search;
mod search_threads;
mod strength_mate;
mod strength_uci;
mod style;
mod tablebase_path;
mod tablebase_play;
mod tablebase_probe;
mod tablebase_root;
mod tablebase_score;
mod uci_abuse;
mod uci_client;
mod uci_opponent;
mod uci_session;

//! The tools around the sparring engine, each a subcommand of the `sparring` binary (`cli.rs`), one
//! folder (or file) per subcommand named after it: `bench`, `solve`, `tune`, `match` (the match
//! runner), `strength` (the estimator), `humanlike` (the human-likeness bench), `calibrate` (the
//! ladder fit), `model` (the human-model trainer), `clock` (human time use), `style` (fingerprints),
//! `avatar` (avatars fitted to players). What they share is in `common/`: the one UCI
//! engine-process driver and `info` parser, the oracle, move quality, the scored-position records,
//! rating bands and their statistics, the split, the game reader, the fingerprint's parts and the
//! optimiser. A tool uses only `common/` and the engine crate (`sparring`) — except that
//! `calibrate` plays its self-play steps through `match`'s library (`run_match`); nothing here is
//! part of the engine's own move path.

pub mod avatar;
pub mod bench;
pub mod calibrate;
pub mod cli;
pub mod clock;
pub mod common;
pub mod humanlike;
pub mod r#match;
pub mod model;
pub mod solve;
pub mod strength;
pub mod style;
pub mod tune;

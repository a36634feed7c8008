//! `sparring strength`: playing strength (Elo) from move quality, after Regan & Haworth's scaled
//! error (SPEC section 8).
//!
//! For every eligible ply the oracle values the position and the move played; the centipawn loss
//! becomes a scaled error `ln(1 + min(cpLoss, 300)/100)`; a game side's mean scaled error (ASE)
//! maps linearly to Elo through the calibration model (`calibration/strength-model.json`); a
//! player's last 10 eligible games are combined with inverse-variance weights.
//!
//! - [`pgn`]: reading games (main line, FEN starts, bad games reported by number).
//! - the oracles (the `Oracle` trait, the internal search and UCI engines): `common::oracle`.
//! - [`analyse`]: per-ply values, loss, eligibility; parallel workers and the result cache.
//! - [`model`]: scaled error, per-side statistics, Elo and its standard error, rolling aggregate.
//! - [`refit`]: weighted least-squares refit and the held-out evaluation.
//! - [`ipr`], [`ipr_cli`]: the position-difficulty-aware rating (Regan-Haworth move-choice model) on
//!   all-move oracle files, `sparring strength ipr calibrate|rate`.
//! - [`game_model`], [`train`]: the default model (every feature of one analysed game, 90 %
//!   intervals checked on held-out people) and `sparring strength train`, which fits it.
//! - [`likelihood`]: a side's log-likelihood under the human move model v7 (Maia-3) at a grid of
//!   ratings, its best rating and curvature (the reading estimator v3 builds on).
//! - [`models`]: the named models of `--model` (`game`, `refit`, `pawnbook`, or a file).
//! - [`report`], [`cli`]: output and command line.

pub mod analyse;
pub mod cli;
pub mod game_model;
pub mod ipr;
pub mod ipr_cli;
pub mod likelihood;
pub mod model;
pub mod models;
pub mod pgn;
pub mod refit;
pub mod report;
pub mod train;

/// `sparring strength ...` (arguments after the subcommand name).
pub fn main(args: &[String]) -> std::process::ExitCode {
    cli::run(args)
}

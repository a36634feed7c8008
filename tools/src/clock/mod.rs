//! `sparring clock`: human time use from real clocks, and the time model the `Human Time` option
//! plays with (`sparring::human_time`).
//!
//! - `extract`: the timed moves of rated games with `[%clk]` comments (the FIDE online file), each
//!   with the difficulty look of its position, into a CSV ([`rows`]); resumable.
//! - `fit`: the model's coefficients from the even-numbered games (game index in file order),
//!   written as a parameter file (`profiles/human/time-vN.toml`).
//! - `check`: the model against people on the odd-numbered games: fraction of the clock per move
//!   (mean, KS) and time against difficulty, per 200-point band and blitz/rapid.
//! - `curves`: per-game time-use curves of a `sparring match` PGN (each move's time is recorded).
//! - `controls`: each game's time control and FIDE category (blitz/rapid) as CSV, for benches that
//!   split a population by clock (`bench/fide/`).

pub mod check;
mod cli;
pub mod curves;
pub mod extract;
pub mod fit;
pub mod rows;
pub mod time_control;

pub use cli::{Args, main};

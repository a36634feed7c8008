//! `sparring humanlike`: how human-like is an engine setting?
//!
//! 1. `sample`: positions from rated human games, stratified by the mover's 200-point rating band.
//! 2. `oracle`: every legal move of every position scored once by a full-strength oracle at a
//!    fixed depth (a resumable cache).
//! 3. `measure`: any UCI engine setting (or the humans themselves) picks a move in each eligible
//!    position; per band: move-match rate with the human move, top-move rate, mean capped
//!    centipawn loss, mean scaled error, ≥ 50/100/300 cp rates and the Kolmogorov–Smirnov distance
//!    between the setting's and the humans' loss distributions.
//! 4. `report`: a markdown report of the CSV results (charts: `bench/py.sh bench/plot.py humanlike`).
//!
//! Eligibility follows the strength-estimation source document: not forced, best score not a
//! mate, |best evaluation from White's view| ≤ 600. The per-band statistics themselves are
//! `common::bands` (the ladder calibration, `calibrate/`, fits to the same numbers).

mod cli;
pub mod engine;
pub mod measure;
pub mod report;
pub mod sample;

pub use crate::common::bands::{BandStats, ks_distance, measure_with};
pub use crate::common::scored::{OracleMove, OraclePosition, SampledPosition};
pub use cli::main;

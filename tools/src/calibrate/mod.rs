//! `sparring calibrate`: the UCI_Elo ladder's calibration — each point fitted to the humans of its
//! rating band per move (on the fit part of the bench positions, against the humans' loss curve and
//! both oracles) and spaced by the Elo formula in self-play games.
//!
//! - `curve`: the humans' loss curve against rating, each point's per-move target on it.
//! - `model-fit`: each point's λ, β, slip rate (and deeper-look probability) with the human move
//!   model, the per-move half on the fit part and, with `--step-games`, the game half in self-play
//!   (`model_fit.rs`); `model-check`: each point's exact expected figures on one part (`model_check.rs`).
//! - `repair`: moves fitted points one notch at a time until every self-play step fits the Elo
//!   formula (`repair.rs`); `steps`: the self-play steps between neighbouring points (`steps.rs`,
//!   played in process by the match runner's library, `r#match::run_match`).
//! - `fit`, `prior-fit`, `check`: the value-only fit of the early ladders, the human move prior's fit
//!   and the in-process check of a ladder's points (`fit.rs`, `prior_fit.rs`).
//!
//! Positions, oracles and per-band statistics are `common::` (shared with `humanlike`); the fit
//! never sees a test-part game (`common::split`).

mod cli;
pub mod curve;
pub mod fit;
pub mod model_check;
pub mod model_fit;
pub mod prior_fit;
pub mod repair;
pub mod steps;

pub use cli::main;

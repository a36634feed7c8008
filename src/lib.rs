//! sparring: a UCI chess engine that plays at the strength and in the style you ask for,
//! reproducibly, plus an engine-vs-engine match runner and a move-quality strength estimator.
//!
//! See `ARCHITECTURE.md` for the data flow between the modules.

pub mod board;
pub mod eval;
pub mod human;
pub mod human_time;
pub mod player;
pub mod policy;
pub mod profile;
pub mod score;
pub mod search;
pub mod seed;
pub mod tablebase;
pub mod uci;

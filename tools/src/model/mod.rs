//! `sparring model`: the human move model's own tools — `train` (v4-v6 on the fit part of a PGN's
//! rated games, the validation part picking the pass; `train.rs`), `eval` (per-band top-1 and
//! log-likelihood on the test part) and `grid` (Maia-3, v7, asked at a grid of rating inputs with v6
//! beside it, for the rating map and the side-by-side evaluation; `grid.rs`). The engine's side of
//! the model is `sparring::human`.

mod cli;
pub mod grid;
pub mod train;

pub use cli::main;

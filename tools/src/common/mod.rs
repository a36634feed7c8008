//! What the tools share (a tool uses only this and the engine): `process` (the one UCI engine
//! process driver), `info` (the one `info` parser), `oracle` (scoring positions with an engine),
//! `quality` (loss, scaled error, eligibility), `scored` (cache records), `games` (the one reader of
//! game PGNs: tags, FEN starts, moves, clocks, move times), `optimize` (derivative-free minimisers), `split` (the one fit/validation/test split of a games file), `stats` (Elo formula, erf, mean),
//! `bands` (rating bands and per-band move statistics), `command_line` (a tool's clap parse), `fingerprint` (the style fingerprint's sources, rates
//! and table, for `style` and `avatar`).

pub mod bands;
pub mod command_line;
pub mod fingerprint;
pub mod games;
pub mod info;
pub mod optimize;
pub mod oracle;
pub mod process;
pub mod quality;
pub mod scored;
pub mod split;
pub mod stats;

//! The tools around the engine, each a subcommand of the `sparring` binary (`cli.rs`): the bench
//! signature, test suites, the evaluator tuner, the match runner, the strength estimator and the
//! human-likeness bench; and the building blocks they share: one UCI engine-process driver and one
//! `info` parser, one oracle module, one move-quality module, the scored-position records and small
//! numeric helpers. Nothing here is part of the engine's own move path.

pub mod arena;
pub mod bench;
pub mod cli;
pub mod clock;
pub mod estimate;
pub mod games;
pub mod humanlike;
pub mod info;
pub mod optimize;
pub mod oracle;
pub mod process;
pub mod quality;
pub mod scored;
pub mod solve;
pub mod style;
pub mod tune;

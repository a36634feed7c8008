//! The tools around the engine, each a subcommand of the `sparring` binary (`cli.rs`): the bench
//! signature, test suites, the evaluator tuner, and the building blocks they share.

pub mod bench;
pub mod cli;
pub mod solve;
pub mod tune;

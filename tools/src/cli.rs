//! The command line of the tools: `sparring <tool> [ARGS]`, parsed with clap. Every tool's
//! arguments are a clap parser of its own (the match runner's cutechess-style `-engine key=value`
//! options keep their table-driven parser, `arena::cli`); `--help` prints to stdout and exits 0, a
//! usage error prints to stderr and exits 2, a failed run exits 1.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "sparring",
    version,
    about = "A UCI chess engine that plays at the strength and in the style you ask for, reproducibly.",
    after_help = "Without a subcommand (or with `uci`) sparring speaks UCI on stdin/stdout: load it in a GUI."
)]
struct Cli {
    #[command(subcommand)]
    tool: Tool,
}

/// Arguments handed through unparsed to a tool with a parser of its own.
#[derive(clap::Args, Debug)]
struct Passed {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum Tool {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Search the fixed bench positions; prints '<nodes> nodes <nps> nps' (the behaviour signature).
    Bench(crate::bench::Args),
    /// Run an EPD test suite (bm/am) at a fixed time or depth per position.
    Solve(crate::solve::Args),
    /// Fit the evaluator to reference scores of quiet positions.
    Tune(crate::tune::Args),
    /// Engine-vs-engine matches, cutechess-cli style (see 'sparring match --help').
    #[command(disable_help_flag = true)]
    Match(Passed),
    /// Elo from the move quality of PGN games (see 'sparring strength --help').
    #[command(disable_help_flag = true)]
    Strength(Passed),
    /// Human-likeness per rating band: sample, oracle, measure, report (see 'sparring humanlike --help').
    #[command(disable_help_flag = true)]
    Humanlike(Passed),
    /// The UCI_Elo ladder's calibration: curve, model-fit, model-check, repair, steps (see 'sparring calibrate --help').
    #[command(disable_help_flag = true)]
    Calibrate(Passed),
    /// The human move model: train, eval, grid (see 'sparring model --help').
    #[command(disable_help_flag = true)]
    Model(Passed),
    /// Human time use from real clocks: the model behind the `Human Time` option (extract, fit, check, curves).
    Clock(crate::clock::Args),
    /// The style fingerprint: move rates with intervals of a PGN's moves or an engine's (see 'sparring style --help').
    Style(crate::style::Args),
    /// Avatars fitted to a player's games: 'sparring avatar fit|eval' (see 'sparring avatar --help').
    Avatar(crate::avatar::Args),
}

pub use crate::common::command_line::parse;

/// The spellings of the calibration and model commands from before they left `humanlike`
/// (`humanlike model fit` is now `calibrate model-fit`, …): the old words, the new ones.
pub const MOVED: &[(&[&str], &[&str])] = &[
    (&["humanlike", "model", "fit"], &["calibrate", "model-fit"]),
    (&["humanlike", "model", "check"], &["calibrate", "model-check"]),
    (&["humanlike", "model", "repair"], &["calibrate", "repair"]),
    (&["humanlike", "model", "train"], &["model", "train"]),
    (&["humanlike", "model", "eval"], &["model", "eval"]),
    (&["humanlike", "model", "grid"], &["model", "grid"]),
    (&["humanlike", "fit"], &["calibrate", "fit"]),
    (&["humanlike", "prior-fit"], &["calibrate", "prior-fit"]),
    (&["humanlike", "check"], &["calibrate", "check"]),
    (&["humanlike", "curve"], &["calibrate", "curve"]),
    (&["humanlike", "steps"], &["calibrate", "steps"]),
];

/// `args` with an old spelling ([`MOVED`]) replaced by the new one, so that scripts written
/// before the move keep working (a note on stderr names the new spelling).
pub fn respell(args: &[String]) -> Vec<String> {
    for (old, new) in MOVED {
        if args.len() >= old.len() && args.iter().zip(old.iter()).all(|(a, o)| a == o) {
            eprintln!("note: 'sparring {}' is now 'sparring {}'", old.join(" "), new.join(" "));
            return new.iter().map(|w| w.to_string()).chain(args[old.len()..].iter().cloned()).collect();
        }
    }
    args.to_vec()
}

/// Runs the tool named by `args[0]` (`uci` runs the engine, as no arguments at all do).
pub fn main(args: &[String]) -> ExitCode {
    let args = respell(args);
    let cli = match parse::<Cli>("sparring", &args) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match cli.tool {
        Tool::Uci => sparring::uci::run_stdio(),
        Tool::Bench(a) => crate::bench::main(a),
        Tool::Solve(a) => crate::solve::main(a),
        Tool::Tune(a) => crate::tune::main(a),
        Tool::Match(p) => crate::r#match::main(&p.args),
        Tool::Strength(p) => crate::strength::main(&p.args),
        Tool::Humanlike(p) => crate::humanlike::main(&p.args),
        Tool::Calibrate(p) => crate::calibrate::main(&p.args),
        Tool::Model(p) => crate::model::main(&p.args),
        Tool::Clock(a) => crate::clock::main(a),
        Tool::Style(a) => crate::style::main(a),
        Tool::Avatar(a) => crate::avatar::main(a),
    }
}

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
    /// Human-likeness per rating band and the ladder fit (see 'sparring humanlike --help').
    #[command(disable_help_flag = true)]
    Humanlike(Passed),
    /// Human time use from real clocks: the model behind the `Human Time` option (extract, fit, check, curves).
    Clock(crate::clock::Args),
    /// The style fingerprint: move rates with intervals of a PGN's moves or an engine's (see 'sparring style --help').
    Style(crate::style::Args),
    /// Avatars fitted to a player's games: 'sparring avatar fit|eval' (see 'sparring avatar --help').
    Avatar(crate::style::avatar::Args),
}

/// Parses `args` (without the program name) for the tool called `name` with clap. Help and version
/// requests print and give `Err(0)`, usage errors print and give `Err(2)`.
pub fn parse<T: Parser>(name: &str, args: &[String]) -> Result<T, ExitCode> {
    T::try_parse_from(std::iter::once(name.to_string()).chain(args.iter().cloned())).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS }
    })
}

/// Runs the tool named by `args[0]` (`uci` runs the engine, as no arguments at all do).
pub fn main(args: &[String]) -> ExitCode {
    let cli = match parse::<Cli>("sparring", args) {
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
        Tool::Clock(a) => crate::clock::main(a),
        Tool::Style(a) => crate::style::main(a),
        Tool::Avatar(a) => crate::style::avatar::main(a),
    }
}

//! Parsing a tool's arguments with clap, the same way for every tool.

use clap::Parser;
use std::process::ExitCode;

/// Parses `args` (without the program name) for the tool called `name` with clap. Help and version
/// requests print and give `Err(0)`, usage errors print and give `Err(2)`.
pub fn parse<T: Parser>(name: &str, args: &[String]) -> Result<T, ExitCode> {
    T::try_parse_from(std::iter::once(name.to_string()).chain(args.iter().cloned())).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS }
    })
}

/// A tool's `main`: parses `args` as `T` ([`parse`]) and runs it; a failed run prints
/// `NAME: error` on stderr and exits 1.
pub fn run_tool<T: Parser>(name: &str, args: &[String], run: impl FnOnce(T) -> Result<ExitCode, String>) -> ExitCode {
    match parse::<T>(name, args) {
        Ok(parsed) => run(parsed).unwrap_or_else(|e| {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }),
        Err(code) => code,
    }
}

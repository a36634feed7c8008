//! The `sparring` binary: UCI on stdin/stdout without arguments, else a tool (`tools::cli`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() { sparring::uci::run_stdio() } else { sparring::tools::cli::main(&args) }
}

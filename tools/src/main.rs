//! The `sparring` binary: UCI on stdin/stdout without arguments (the engine crate's loop), else a
//! tool (`sparring_tools::cli`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() { sparring::uci::run_stdio() } else { sparring_tools::cli::main(&args) }
}

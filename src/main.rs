//! `sparring-engine`: the engine crate's own binary, the UCI engine on stdin/stdout and nothing else
//! (the user-facing `sparring` binary of the tools crate speaks the same UCI without arguments).

use std::process::ExitCode;

fn main() -> ExitCode {
    sparring::uci::run_stdio()
}

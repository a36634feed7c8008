//! The `sparring` binary: UCI on stdin/stdout by default, or one of the subcommands.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rest = if args.is_empty() { &[][..] } else { &args[1..] };
    match args.first().map(String::as_str) {
        None | Some("uci") => sparring::uci::run_stdio(),
        Some("bench") => sparring::uci::bench::main(rest),
        Some("solve") => sparring::uci::solve::main(rest),
        Some("match") => sparring::arena::main(rest),
        Some("strength") => sparring::estimate::main(rest),
        Some("humanlike") => sparring::humanlike::main(rest),
        Some("tune") => sparring::eval::tune::main(rest),
        Some("-h" | "--help" | "help") => {
            print_usage();
            ExitCode::SUCCESS
        }
        Some("-V" | "--version" | "version") => {
            println!("sparring {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("sparring: unknown subcommand '{other}'\n");
            print_usage();
            ExitCode::from(2)
        }
    }
}

fn print_usage() {
    println!(
        "sparring {} — a UCI chess engine with honest, reproducible weaker play\n\n\
         USAGE:\n  \
         sparring                 speak UCI on stdin/stdout (load this in a GUI)\n  \
         sparring bench [DEPTH]   search the fixed bench positions; prints '<nodes> nodes <nps> nps'\n  \
         sparring solve FILE.epd  run a test suite (bm/am) at --movetime MS or --depth D per position\n  \
         sparring match ...       engine-vs-engine matches (cutechess-cli style; see 'sparring match --help')\n  \
         sparring strength ...    Elo from move quality of PGN games (see 'sparring strength --help')\n  \
         sparring humanlike ...   human-likeness bench and ladder fit (see 'sparring humanlike --help')\n  \
         sparring tune FILE       fit the evaluator's group weights to scored positions (see 'sparring tune --help')",
        env!("CARGO_PKG_VERSION")
    );
}

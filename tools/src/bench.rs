//! `sparring bench`: the search's behaviour signature from the command line (`search::bench`).

use clap::Parser;
use sparring::search::SEARCH_GENERATION;
use sparring::search::bench::{DEFAULT_DEPTH, run};
use std::process::ExitCode;

/// Searches the 32 fixed bench positions from a clean table and prints `<nodes> nodes <nps> nps`;
/// the node count is the behaviour signature of the search and evaluation.
#[derive(Parser, Debug)]
#[command(name = "sparring bench")]
pub struct Args {
    /// Search depth of every position.
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
}

pub fn main(args: Args) -> ExitCode {
    eprintln!("info string bench depth {} search generation {SEARCH_GENERATION}", args.depth);
    let r = run(args.depth, |l| eprintln!("{l}"));
    println!("{} nodes {} nps", r.nodes, r.nps);
    ExitCode::SUCCESS
}

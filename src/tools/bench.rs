//! `sparring bench`: the search's behaviour signature from the command line (`search::bench`).

use crate::search::Generation;
use crate::search::bench::{DEFAULT_DEPTH, run};
use clap::Parser;
use std::process::ExitCode;

/// Searches the 32 fixed bench positions from a clean table and prints `<nodes> nodes <nps> nps`;
/// the node count is the behaviour signature of the search and evaluation.
#[derive(Parser, Debug)]
#[command(name = "sparring bench")]
pub struct Args {
    /// Search depth of every position.
    #[arg(default_value_t = DEFAULT_DEPTH, value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: i32,
    /// Search generation (default: the newest, which full-strength play runs).
    #[arg(long, value_parser = parse_generation)]
    pub generation: Option<Generation>,
}

/// A generation number that exists (1 or the newest; 2-5 are retired).
fn parse_generation(s: &str) -> Result<Generation, String> {
    let n: u32 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    Generation::from_number(n).ok_or_else(|| {
        let why = if (2..Generation::LATEST.number()).contains(&n) { "retired" } else { "unknown" };
        format!("generation {n} is {why} (known: {})", Generation::known())
    })
}

pub fn main(args: Args) -> ExitCode {
    let generation = args.generation.unwrap_or(Generation::LATEST);
    eprintln!("info string bench depth {} search generation {}", args.depth, generation.number());
    let r = run(args.depth, generation, |l| eprintln!("{l}"));
    println!("{} nodes {} nps", r.nodes, r.nps);
    ExitCode::SUCCESS
}

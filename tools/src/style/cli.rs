//! The command line of `sparring style`.

use super::*;
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "sparring style",
    about = "The style fingerprint: move rates with 95 % intervals, of a PGN's moves or of an engine's moves on a fixed position set.",
    after_help = "Examples:\n  sparring style games.pgn --player NAME\n  sparring style fics.pgn --option UCI_LimitStrength=true --option UCI_Elo=1500 --record plain.tsv\n  sparring style fics.pgn --option UCI_LimitStrength=true --option UCI_Elo=1500 --option \"Avatar File=avatars/attacker.avt\" --record attacker.tsv --compare plain.tsv\nRates are defined in bench/results/style.md."
)]
pub struct Args {
    /// A PGN (its moves, or positions sampled from it for an engine) or a FEN/EPD file (positions).
    pub file: PathBuf,
    /// Only this player's moves: case-insensitive, a unique part of the name is enough; an
    /// unknown or ambiguous name is refused with the closest names.
    #[arg(long, conflicts_with = "side")]
    pub player: Option<String>,
    /// Only this side's moves: white or black.
    #[arg(long)]
    pub side: Option<String>,
    /// With --player: only the first or the second half of their games (in file order, the split
    /// `sparring avatar fit` and `eval` use).
    #[arg(long, value_enum, default_value_t = Part::All, requires = "player")]
    pub part: Part,
    /// Ask a UCI engine for its move on the position set (without a command: this engine).
    #[arg(long, num_args = 0..=1, default_missing_value = "")]
    pub engine: Option<String>,
    /// UCI option for the engine, NAME=VALUE (repeatable; implies --engine).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// The `go` arguments sent for every position.
    #[arg(long, default_value = "nodes 1000000")]
    pub go: String,
    /// Positions sampled from the PGN.
    #[arg(long, default_value_t = 1000)]
    pub positions: usize,
    /// Sampling seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Earliest ply a sampled position comes from (0 = the first move).
    #[arg(long, default_value_t = 8)]
    pub min_ply: usize,
    /// Sample only positions whose mover is rated LO-HI.
    #[arg(long, value_name = "LO-HI")]
    pub band: Option<String>,
    /// On positions sampled from a PGN: the players' own moves there instead of an engine's
    /// (with --record, a record that engine runs on the same positions can --compare against).
    #[arg(long, conflicts_with_all = ["engine", "options"])]
    pub humans: bool,
    /// Record file of the engine's moves (appended as they come; a rerun resumes).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Another setting's record on the same positions: print the paired difference (this − that).
    #[arg(long)]
    pub compare: Option<PathBuf>,
    /// Also write each position's classified move as TSV (a header line, then per position its
    /// index, its game and each rate's 1 / 0, or - where the position is outside the rate's
    /// denominator), for analyses of several records beyond --compare (bench/style_fit_report.py).
    #[arg(long, value_name = "FILE.tsv")]
    pub facts_out: Option<PathBuf>,
    /// Engine processes run at once.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Output CSV.
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
    /// Output JSON.
    #[arg(long)]
    pub json: bool,
}

/// `sparring style`.
pub fn main(mut args: Args) -> ExitCode {
    // `--player` by the one rule of every tool (`games::resolve_player`): the exact name from then on.
    if let (Some(query), true) = (args.player.clone(), is_pgn(&args.file)) {
        let resolved = read_games(&args.file).and_then(|games| {
            let name = crate::common::games::resolve_player(
                &query,
                games.iter().flat_map(|g| [g.white.as_str(), g.black.as_str()]),
            )?;
            let n = games.iter().filter(|g| g.white.trim() == name || g.black.trim() == name).count();
            eprintln!("sparring style: player '{name}' (--player '{query}'): {n} of {} games", games.len());
            Ok(name)
        });
        match resolved {
            Ok(name) => args.player = Some(name),
            Err(e) => {
                eprintln!("sparring style: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let format = format_of(args.csv, args.json);
    let engine_mode = args.engine.is_some()
        || args.humans
        || !args.options.is_empty()
        || args.record.is_some()
        || args.compare.is_some()
        || args.facts_out.is_some()
        || !is_pgn(&args.file);
    let result = if engine_mode { run_engine(&args, format) } else { run_games(&args, format) };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sparring style: {e}");
            ExitCode::FAILURE
        }
    }
}

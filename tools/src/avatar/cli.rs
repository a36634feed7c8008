//! The command line of `sparring avatar fit|eval`.

use super::*;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "sparring avatar", about = "Avatars fitted to a player's games, and how well avatars predict them.")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(clap::Args, Debug)]
pub struct Common {
    /// The PGN with the player's games.
    pub pgn: PathBuf,
    /// The player: case-insensitive, a unique part of the name is enough; an unknown or
    /// ambiguous name is refused with the closest names.
    #[arg(long)]
    pub player: String,
    /// The rating whose nearest ladder point models the moves (default: the player's mean rating).
    #[arg(long)]
    pub elo: Option<f64>,
    /// Which of the player's games.
    #[arg(long, value_enum, default_value_t = Part::All)]
    pub part: Part,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Fit the 26 mg/eg weights (and, at model-led points, leans towards kinds of move) to the
    /// player's moves and write an .avt file.
    Fit {
        #[command(flatten)]
        common: Common,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Pull towards the centre (100 % without --centre): the objective loses pull · Σ((w −
        /// centre)/100)² (default: chosen by two-fold cross-validation over the player's games
        /// among 0 and 0.0005-1).
        #[arg(long)]
        pull: Option<f64>,
        /// An avatar the fit may start from instead of the plain point (repeatable; e.g. each
        /// shipped one): the fit then moves both sides of each of the chosen one's groups alike,
        /// pulled towards it, and two-fold cross-validation over the player's games chooses it, or
        /// the plain point, together with the pull. A centre's leans are not kept (the fit fits
        /// its own).
        #[arg(long = "centre", value_name = "AVT")]
        centres: Vec<PathBuf>,
        /// What the weights maximise: the likelihood of the player's moves, or the expected match
        /// (how often the point would play them).
        #[arg(long, value_enum, default_value_t = fit::Objective::Likelihood)]
        objective: fit::Objective,
        /// Style hold: the objective loses hold · Σ over the fingerprint rates of (the model's
        /// expected rate − its target)², rates as fractions (0: no hold); the target is the
        /// player's rate, or with --engine-style / --measure-gap the model's plain rate less the
        /// engine's gap to the player.
        #[arg(long, default_value_t = HOLD)]
        hold: f64,
        /// The plain point's fingerprint against the player's on the same part, as `sparring style
        /// --json --compare PLAYER.tsv` writes it: the hold then moves each rate by the engine's
        /// gap to the player instead of towards the player's rate (repeatable: runs under other
        /// engine seeds, averaged).
        #[arg(long, conflicts_with = "measure_gap")]
        engine_style: Vec<PathBuf>,
        /// Measure that gap here: this engine at the plain point (`go nodes 1000000`, Seeds 1 to
        /// --gap-seeds, averaged) on every position of the fitted part (from ply 8), against the
        /// player's moves there.
        #[arg(long)]
        measure_gap: bool,
        /// Engine seeds --measure-gap averages over.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
        gap_seeds: u32,
        /// Engine processes for --measure-gap.
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Fit only the 26 weights. By default, at a point that chooses with the human move model,
        /// the fit then adds leans towards kinds of move (`lean.KIND` in the file: captures,
        /// checks, castling, ...; their pull chosen by two-fold cross-validation), which move the
        /// model's term directly where the weights reach it only through the style tilt.
        #[arg(long)]
        no_leans: bool,
    },
    /// Expected and top-1 match of the player's moves under the plain point and each avatar.
    Eval {
        #[command(flatten)]
        common: Common,
        /// Avatar files to compare with the plain point (repeatable).
        #[arg(long = "avt")]
        avatars: Vec<PathBuf>,
        /// Compare with this avatar instead of the plain point (paired: avatar − base).
        #[arg(long)]
        base: Option<PathBuf>,
        /// Output JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `sparring avatar`.
pub fn main(mut args: Args) -> ExitCode {
    let resolved = match &mut args.command {
        Command::Fit { common, .. } | Command::Eval { common, .. } => resolve_common(common),
    };
    if let Err(e) = resolved {
        eprintln!("sparring avatar: {e}");
        return ExitCode::FAILURE;
    }
    let result = match &args.command {
        Command::Fit {
            common,
            out,
            pull,
            objective,
            hold,
            centres: centre_files,
            engine_style,
            measure_gap,
            gap_seeds,
            jobs,
            no_leans,
        } => {
            let gap = engine_style
                .iter()
                .map(|f| read_gap(f))
                .collect::<Result<Vec<_>, _>>()
                .map(|g| (!g.is_empty()).then(|| mean_gap(&g)));
            gap.and_then(|gap| {
                let centres = centres(centre_files)?;
                prepare(common, MIN_GAMES).and_then(|p| {
                    let gap = if *measure_gap { Some(measure(common, &p, *jobs, *gap_seeds)?) } else { gap };
                    let s = fit::Settings {
                        objective: *objective,
                        pull: pull.unwrap_or(0.0),
                        hold: *hold,
                        gap,
                        base: fit::PLAIN,
                    };
                    write_out(out.as_deref(), &fit_text(common, &p, *pull, s, !*no_leans, &centres))
                })
            })
        }
        Command::Eval { common, avatars, base, json } => prepare(common, 1)
            .and_then(|p| eval_table(common, &p, avatars, base.as_deref(), *json))
            .and_then(|t| write_out(None, &t)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sparring avatar: {e}");
            ExitCode::FAILURE
        }
    }
}

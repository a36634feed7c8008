//! The command line of `sparring model`: train, eval, grid.
use super::{grid, train};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "sparring model",
    about = "The human move model: train v4-v6, evaluate, ask Maia-3 (v7) at a grid of ratings"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Train on the fit part of a PGN's rated games (validation part picks the pass); write the file.
    Train(TrainArgs),
    /// Per-band top-1 and log-likelihood on the test part (and against the best-move baseline).
    Eval {
        #[arg(long, default_value = "profiles/human/model-v6.bin")]
        model: PathBuf,
        #[arg(long, default_value = "../shared/data/human/fics-blitz-dev.pgn")]
        pgn: PathBuf,
        /// Oracle cache of the humanlike bench, for the best-move baseline.
        #[arg(long)]
        oracle: Option<PathBuf>,
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        /// Also write the report here.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Maia-3 (the human move model v7) asked about sampled positions at a grid of rating inputs,
    /// with v6 beside it: one CSV row per position (tools/src/humanlike/model_grid.rs), for the
    /// rating map and the side-by-side evaluation (bench/human-model/maia3_eval.py).
    Grid {
        /// Positions files (`humanlike sample` output), read in order.
        #[arg(long = "positions", required = true, num_args = 1..)]
        positions: Vec<PathBuf>,
        #[arg(long, default_value = "../shared/data/human/fics-blitz-dev.pgn")]
        pgn: PathBuf,
        /// The model's rating inputs (Lichess blitz scale), comma-separated (default
        /// 800,1000,…,2800 unless a --map is given).
        #[arg(long, value_delimiter = ',')]
        ratings: Vec<i64>,
        /// NAME=A,B: also ask at the mapped ratings A + B·rating (repeatable; e.g. identity=0,1).
        #[arg(long = "map", value_name = "NAME=A,B")]
        maps: Vec<String>,
        /// Only positions of this part's games (fit, validation, test; default all).
        #[arg(long, value_enum)]
        part: Option<crate::common::split::Part>,
        /// At most this many positions a band, the first in file order (0: all).
        #[arg(long, default_value_t = 0)]
        per_band: usize,
        /// Also ask with the position alone (no game history).
        #[arg(long)]
        fen_alone: bool,
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        #[arg(long)]
        out: PathBuf,
    },
}

/// `sparring model ARGS…`.
pub fn main(args: &[String]) -> ExitCode {
    crate::common::command_line::run_tool::<Cli>("sparring model", args, |cli| run(cli.cmd))
}

#[derive(clap::Args, Debug)]
struct TrainArgs {
    #[arg(long, default_value = "../shared/data/human/fics-blitz-dev.pgn")]
    pgn: PathBuf,
    #[arg(long, default_value = "profiles/human/model-v6.bin")]
    out: PathBuf,
    /// Version written into the file's header. The shipped v6 was trained with these defaults
    /// and `--mirror --extra-pgn ../shared/data/human/fide-online-dev.pgn`.
    #[arg(long, default_value_t = 6)]
    version: u32,
    #[arg(long, default_value_t = 3)]
    passes: usize,
    #[arg(long, default_value_t = 0.05)]
    rate: f64,
    #[arg(long, default_value_t = 1e-5)]
    l2: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads for feature extraction (the weights do not depend on it).
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// Units of the hidden layer over the move features and the board (0: a linear model, as
    /// v4 was trained: --hidden 0 --passes 5 --rate 0.1 --version 4; v5: --hidden 64 --passes 2).
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Also fit on the file-mirrored copy of each fit-part position in which neither side may
    /// castle (the validation and test parts stay as played).
    #[arg(long)]
    mirror: bool,
    /// Another population's games (e.g. ../shared/data/human/fide-online-dev.pgn): their fit
    /// part joins the fit part, at ratings mapped onto the main file's scale by a rating map
    /// fitted first (maximum likelihood per 200-point band under --map-model).
    #[arg(long)]
    extra_pgn: Option<PathBuf>,
    /// The model that fits the extra population's rating map (default: the newest built-in).
    #[arg(long, requires = "extra_pgn")]
    map_model: Option<PathBuf>,
    /// Percent (1-100) of the main file's fit-part games to learn from, spread over the file
    /// (a smaller share's games are a subset of a larger one's; --extra-pgn's join whole): for
    /// learning curves, and for a model that leaves the other fit games unseen.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100))]
    fit_share: u32,
}

fn model_train_cmd(args: TrainArgs) -> Result<ExitCode, String> {
    let TrainArgs { pgn, out, version, passes, rate, l2, seed, jobs, hidden, mirror, extra_pgn, map_model, fit_share } =
        args;
    if passes == 0 || !(rate > 0.0 && rate.is_finite()) || !(l2 >= 0.0 && l2.is_finite()) {
        return Err("--passes must be >= 1, --rate > 0 and --l2 >= 0".into());
    }
    if hidden > sparring::human::v6::MAX_HIDDEN {
        return Err(format!("--hidden {hidden}: at most {}", sparring::human::v6::MAX_HIDDEN));
    }
    let extra = match extra_pgn {
        None => None,
        Some(pgn) => {
            let map_model = match map_model {
                Some(p) => sparring::profile::human_model::load(&p)?,
                None => sparring::profile::human_model::builtin(sparring::profile::human_model::LATEST)?,
            };
            Some(train::Extra { pgn, map_model })
        }
    };
    let cfg = train::TrainConfig { passes, rate, l2, seed, jobs: jobs.max(1), hidden, mirror, extra, fit_share };
    train::run_train(&pgn, &out, version, &cfg)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs one subcommand.
fn run(cmd: Cmd) -> Result<ExitCode, String> {
    match cmd {
        Cmd::Train(a) => model_train_cmd(a),
        Cmd::Grid { positions, pgn, mut ratings, maps, part, per_band, fen_alone, jobs, out } => {
            let maps = maps.iter().map(|m| grid::parse_map(m)).collect::<Result<Vec<_>, _>>()?;
            if ratings.is_empty() && maps.is_empty() {
                ratings = (800..=2800).step_by(200).collect();
            }
            grid::run(&grid::GridArgs { positions, pgn, ratings, maps, part, per_band, fen_alone, jobs, out })?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Eval { model: path, pgn, oracle, jobs, out } => {
            let report = train::run_eval(&path, &pgn, oracle.as_deref(), jobs.max(1))?;
            print!("{report}");
            if let Some(o) = out {
                std::fs::write(&o, &report).map_err(|e| format!("{}: {e}", o.display()))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

//! `sparring humanlike`: how human-like is an engine setting?
//!
//! 1. `sample`: positions from rated human games, stratified by the mover's 200-point rating band.
//! 2. `oracle`: every legal move of every position scored once by a full-strength oracle at a
//!    fixed depth (a resumable cache).
//! 3. `measure`: any UCI engine setting (or the humans themselves) picks a move in each eligible
//!    position; per band: move-match rate with the human move, top-move rate, mean capped
//!    centipawn loss, mean scaled error, ≥ 50/100/300 cp rates and the Kolmogorov–Smirnov distance
//!    between the setting's and the humans' loss distributions.
//! 4. `report`: a markdown report of the CSV results (charts: `bench/py.sh bench/plot.py humanlike`).
//!
//! Eligibility follows the strength-estimation source document: not forced, best score not a
//! mate, |best evaluation from White's view| ≤ 600.

pub mod curve;
pub mod engine;
pub mod fit;
pub mod model;
pub mod model_check;
pub mod model_fit;
pub mod model_grid;
pub mod prior_fit;
pub mod repair;
pub mod report;
pub mod sample;
pub mod stats;
pub mod steps;
pub mod types;

pub use stats::{BandStats, ks_distance, measure_with};
pub use types::{OracleMove, OraclePosition, SampledPosition, Score};

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "sparring humanlike", about = "Human-likeness bench: engine settings vs rated human players")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Sample positions (before the human's move) from rated games, per rating band.
    Sample(SampleArgs),
    /// Score every legal move of each position with a full-strength oracle (cached, resumable).
    Oracle(OracleArgs),
    /// Ask an engine setting (or the humans) for a move in every eligible position; report per band.
    Measure {
        #[arg(long)]
        oracle: PathBuf,
        /// UCI engine command (program and arguments, split on whitespace).
        #[arg(long, required_unless_present = "humans")]
        engine: Option<String>,
        /// Measure the humans' own moves instead of an engine.
        #[arg(long)]
        humans: bool,
        /// UCI option NAME=VALUE (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// The go command's arguments, e.g. "nodes 20000" or "movetime 100".
        #[arg(long, default_value = "movetime 100")]
        go: String,
        /// Row label in the CSV (default: humans, or the engine command and options).
        #[arg(long)]
        label: Option<String>,
        /// The setting's nominal Elo for plots (default: the UCI_Elo option if given).
        #[arg(long)]
        elo: Option<u32>,
        /// CSV to write; rows with the same label are replaced, others kept.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Measure only the first N eligible positions of each band (quick checks).
        #[arg(long)]
        limit: Option<usize>,
        /// Cache of this setting's answers (JSON lines): answers found there are reused, new
        /// ones appended, so an interrupted run continues.
        #[arg(long)]
        cache: Option<PathBuf>,
    },
    /// Ask an engine setting for its move in every sampled position, into a cache file, without
    /// an oracle yet (so engine answers can be collected while the oracle still runs).
    Moves {
        #[arg(long)]
        positions: PathBuf,
        #[arg(long)]
        engine: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[arg(long, default_value = "movetime 100")]
        go: String,
        #[arg(long)]
        cache: PathBuf,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Fit the UCI_Elo ladder to the humans of each band (writes a ladder file and a CSV).
    Fit {
        /// Oracle cache (JSON lines) from `oracle`.
        #[arg(long)]
        oracle: PathBuf,
        /// Eligible positions per band used by the fit (the first ones in file order).
        #[arg(long, default_value_t = 600)]
        per_band: usize,
        /// Version number written into the ladder file.
        #[arg(long)]
        version: u32,
        #[arg(long, default_value = "profiles/ladder.toml")]
        ladder_out: PathBuf,
        #[arg(long, default_value = "bench/results/humanlike-fit.csv")]
        csv_out: PathBuf,
        /// Bands searched in parallel.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Fit a ladder point's human move prior on its band's positions (prints the ladder lines).
    PriorFit {
        #[arg(long)]
        oracle: PathBuf,
        #[arg(long, default_value = "profiles/ladder.toml")]
        ladder: PathBuf,
        /// BAND:ELO pairs, e.g. 1800:1900 2000:2100.
        #[arg(long, num_args = 1.., required = true)]
        points: Vec<String>,
        /// L2 penalty on the weights (per weight, in units of the match rate).
        #[arg(long, default_value_t = 0.003)]
        l2: f64,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        #[arg(long, default_value = "bench/results/humanlike-prior-fit.csv")]
        csv_out: PathBuf,
    },
    /// Measure a ladder file's points against the humans of their bands, in process.
    Check {
        #[arg(long)]
        oracle: PathBuf,
        #[arg(long, default_value = "profiles/ladder.toml")]
        ladder: PathBuf,
        /// BAND:ELO pairs (e.g. 1200:1350); default: every band at its middle.
        #[arg(long, num_args = 0..)]
        points: Vec<String>,
        /// Leave out the first N eligible positions of every band: the ones `fit --per-band N`
        /// fitted on, so that what remains is a held-out check.
        #[arg(long, default_value_t = 0)]
        skip_first: usize,
        #[arg(long)]
        out: PathBuf,
        /// Also write every chosen move (JSON lines: fen, band, game, elo, mv), for paired
        /// comparisons with another setting's moves on the same positions.
        #[arg(long)]
        moves_out: Option<PathBuf>,
        /// The players' match seed (their moves are drawn from it; 777 for the published tables).
        #[arg(long, default_value_t = fit::VERIFY_SEED)]
        seed: u64,
        /// The PGN the positions come from: leaves out computer accounts' moves and replays each
        /// position's game, so the player knows the last move (the human move model uses it).
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// With --pgn: only the human move model's test part (games with index mod 10 in 8, 9).
        #[arg(long, requires = "pgn")]
        test_part: bool,
    },
    /// The humans' loss curve against rating (mean and quantiles, game-bootstrap intervals) beside
    /// the raw band values, and each ladder point's target on it.
    Curve(CurveArgs),
    /// Self-play steps between neighbouring ladder points (resumable CSV: higher,lower,gap,games,score,...).
    Steps(StepsArgs),
    /// Train or evaluate the human move model (`src/human/v6/`).
    Model {
        #[command(subcommand)]
        cmd: ModelCmd,
    },
    /// A markdown report from measure CSVs (charts: bench/py.sh bench/plot.py humanlike CSV...).
    Report {
        /// CSV files written by `measure`.
        #[arg(long, num_args = 1.., required = true)]
        csv: Vec<PathBuf>,
        #[arg(long, default_value = "bench/results")]
        out_dir: PathBuf,
    },
}

/// The ladder, the games its bench positions come from, and the points asked about.
#[derive(clap::Args, Debug)]
struct LadderPoints {
    #[arg(long, default_value = "profiles/ladder.toml")]
    ladder: PathBuf,
    #[arg(long, default_value = "../shared/data/human/fics-blitz-dev.pgn")]
    pgn: PathBuf,
    /// BAND:ELO pairs, e.g. 1000:1100 1200:1300.
    #[arg(long, num_args = 1.., required = true)]
    points: Vec<String>,
}

#[derive(Subcommand, Debug)]
enum ModelCmd {
    /// Train on the fit part of a PGN's rated games (validation part picks the pass); write the file.
    Train(TrainArgs),
    /// Fit each ladder point's lambda, beta and slip rate with the model (bench positions, fit part).
    Fit(FitArgs),
    /// Each ladder point's exact expected figures (mean loss, KS, match with the human's move) on
    /// one part's positions, judged by each oracle given (see tools/src/humanlike/model_check.rs).
    Check {
        /// NAME=FILE (repeatable), e.g. internal=bench/humanlike/oracle.jsonl.
        #[arg(long = "oracle", value_name = "NAME=FILE", required = true)]
        oracles: Vec<String>,
        #[command(flatten)]
        target: LadderPoints,
        /// Whose games: test (held out from every fit; default), validation or fit.
        #[arg(long, value_enum, default_value = "test")]
        part: model::Part,
        #[arg(long, default_value_t = 2)]
        jobs: usize,
        #[arg(long)]
        out: PathBuf,
        /// Every decision as CSV (oracle, band, elo, game, ply, expected_loss, human_loss, p_human).
        #[arg(long)]
        decisions_out: Option<PathBuf>,
        /// Every decision's per-move view as JSON lines: both searches' scores against the best,
        /// slip gates, ln P_human, the oracle's losses, the human's move (for analysis elsewhere).
        #[arg(long)]
        moves_out: Option<PathBuf>,
        /// What the mean loss is held against: the humans' curve at the point's Elo (each oracle's
        /// own, fitted on the same part) or the band's people on the same positions.
        #[arg(long, value_enum, default_value = "curve")]
        mean_target: model_fit::Target,
    },
    /// Move a fitted ladder's points one notch at a time (slip rate or lambda) until every self-play
    /// step between them fits the Elo formula, each point staying inside the per-move limits (against
    /// the humans' curve at its Elo) on its band's fit part (tools/src/humanlike/repair.rs).
    Repair(RepairArgs),
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
        part: Option<model::Part>,
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

pub fn main(args: &[String]) -> ExitCode {
    let argv = std::iter::once("sparring humanlike".to_string()).chain(args.iter().cloned());
    let cli = match Cli::try_parse_from(argv) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match run(cli.cmd) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("sparring humanlike: {e}");
            ExitCode::FAILURE
        }
    }
}

#[derive(clap::Args, Debug)]
struct SampleArgs {
    #[arg(long)]
    pgn: PathBuf,
    #[arg(long)]
    out: PathBuf,
    /// Positions wanted per band.
    #[arg(long, default_value_t = 1000)]
    per_band: usize,
    /// Per-band count overriding --per-band, BAND=N (repeatable), e.g. 800=1500.
    #[arg(long = "band-count", value_name = "BAND=N")]
    band_counts: Vec<String>,
    /// Bands as LO-HI (200-point bands from LO up to below HI).
    #[arg(long, default_value = "800-2400")]
    bands: String,
    /// Skip the opening: only positions with at least this many half-moves played.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// At most this many positions from one player's side of one game.
    #[arg(long, default_value_t = 16)]
    max_per_game: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rate a named player, NAME=ELO (repeatable; overrides the PGN's Elo tags), e.g. to sample an
    /// engine's own games: --player elo1700=1700. With any --player, only the listed players are sampled.
    #[arg(long = "player", value_name = "NAME=ELO")]
    players: Vec<String>,
    /// Only games of this part of the file: fit, validation or test (game index mod 10: 0-6, 7, 8-9).
    #[arg(long, value_enum)]
    part: Option<model::Part>,
    /// A positions file this sample extends: its (game, ply) pairs are never taken again.
    #[arg(long)]
    exclude: Option<PathBuf>,
    /// Leave out the moves of known computer accounts (the human targets never use them).
    #[arg(long)]
    people: bool,
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

#[derive(clap::Args, Debug)]
struct FitArgs {
    #[arg(long, default_value = "bench/humanlike/oracle.jsonl")]
    oracle: PathBuf,
    /// A second oracle's cache (e.g. bench/humanlike/oracle-sf15-d12.jsonl): settings must keep
    /// inside the per-move limits by both (where it has scored 100+ of a band's fit part).
    #[arg(long)]
    also_oracle: Option<PathBuf>,
    #[command(flatten)]
    target: LadderPoints,
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    #[arg(long, default_value = "bench/results/humanlike-model-fit.csv")]
    csv_out: PathBuf,
    /// Write the fitted ladder (the input with the fitted points' lambda, beta, slip_p and, with --deep-p, deep_p) here.
    #[arg(long)]
    ladder_out: Option<PathBuf>,
    /// Version written into --ladder-out (default: the input's).
    #[arg(long)]
    version: Option<u32>,
    /// Self-play half: games per candidate against the fitted point below (0 = off).
    #[arg(long, default_value_t = 0)]
    step_games: usize,
    /// Games played at once in the self-play matches.
    #[arg(long, default_value_t = 1)]
    step_concurrency: usize,
    #[arg(long, default_value = "../shared/data/openings/8moves_v3.pgn")]
    openings: PathBuf,
    /// Candidate ladders and step games go here.
    #[arg(long, default_value = "target/ladder-fit")]
    work: PathBuf,
    /// Deeper-look probabilities to fit (0-1, e.g. 0.5 0.75 1) for the points that have a
    /// deeper look; their per-move frontier then spans these too (default: each point's own).
    #[arg(long, num_args = 1..)]
    deep_p: Vec<f64>,
    /// What the mean loss is held against: the humans' curve at the point's Elo (each oracle's
    /// own, fitted on the same part) or the band's people on the same positions.
    #[arg(long, value_enum, default_value = "curve")]
    mean_target: model_fit::Target,
}

#[derive(clap::Args, Debug)]
struct RepairArgs {
    #[arg(long, default_value = "bench/humanlike/oracle.jsonl")]
    oracle: PathBuf,
    #[arg(long, default_value = "profiles/ladder.toml")]
    ladder: PathBuf,
    #[arg(long, default_value = "../shared/data/human/fics-blitz-dev.pgn")]
    pgn: PathBuf,
    /// BAND:ELO pairs of the chain, e.g. 800:900 1000:1100 1200:1300.
    #[arg(long, num_args = 2.., required = true)]
    points: Vec<String>,
    #[arg(long, default_value_t = 2)]
    jobs: usize,
    /// Games per step (paired: each opening twice).
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Most moves tried.
    #[arg(long, default_value_t = 12)]
    max_trials: usize,
    /// Percentage points inside its window a step must end to count as repaired (0: the
    /// window itself). A step chosen on one match seed loses some of its score on another
    /// (session 28: 2-16 points), so a margin leaves room for that.
    #[arg(long, default_value_t = 0.0)]
    margin: f64,
    /// The steps' match seed (openings order, game seeds); check a repair on another one.
    #[arg(long, default_value_t = steps::STEP_SRAND)]
    srand: u64,
    #[arg(long, default_value = "../shared/data/openings/8moves_v3.pgn")]
    openings: PathBuf,
    /// Candidate ladders go here.
    #[arg(long, default_value = "target/ladder-repair")]
    work: PathBuf,
    /// The repaired ladder.
    #[arg(long)]
    ladder_out: PathBuf,
    /// Version written into --ladder-out (default: the input's).
    #[arg(long)]
    version: Option<u32>,
    /// The repaired chain's steps (the `humanlike steps` CSV).
    #[arg(long, default_value = "target/ladder-repair/steps.csv")]
    csv_out: PathBuf,
    /// What the per-move limits hold each point's mean loss to: the humans' curve at its Elo
    /// (fitted on the fit part of --oracle) or the band's people on the same positions.
    #[arg(long, value_enum, default_value = "curve")]
    mean_target: model_fit::Target,
}

#[derive(clap::Args, Debug)]
struct OracleArgs {
    #[arg(long)]
    positions: PathBuf,
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 9)]
    depth: i32,
    /// `internal` or a UCI engine command (run with MultiPV 500).
    #[arg(long, default_value = "internal")]
    engine: String,
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Score only the first N positions (for timing).
    #[arg(long)]
    limit: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct CurveArgs {
    #[arg(long, default_value = "bench/humanlike/oracle.jsonl")]
    oracle: PathBuf,
    #[arg(long, default_value = "../shared/data/human/fics-blitz-dev.pgn")]
    pgn: PathBuf,
    /// Which games: fit (fit + validation parts, what a ladder fit may use), test, or all.
    #[arg(long, default_value = "fit", value_parser = ["fit", "test", "all"])]
    part: String,
    /// Elo values to give targets for (default: the built-in ladder's points).
    #[arg(long, num_args = 0..)]
    points: Vec<i32>,
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct StepsArgs {
    /// The ladder file (default: the built-in one, written out first).
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// The points, ascending (default: every point of the ladder).
    #[arg(long, num_args = 0..)]
    points: Vec<i32>,
    #[arg(long, default_value_t = 200)]
    games: usize,
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    #[arg(long, default_value = "../shared/data/openings/8moves_v3.pgn")]
    openings: PathBuf,
    /// The match seed (openings order, game seeds): a choice made on one seed is checked on another.
    #[arg(long, default_value_t = steps::STEP_SRAND)]
    srand: u64,
    #[arg(long, default_value = "bench/results/ladder-steps.csv")]
    out: PathBuf,
    /// Keep each step's games here (step-H-vs-L.pgn).
    #[arg(long)]
    pgn_dir: Option<PathBuf>,
}

/// `BAND:ELO` pairs of `--points`.
fn parse_points(points: &[String]) -> Result<Vec<(u32, i32)>, String> {
    points
        .iter()
        .map(|p| {
            let parsed = p.split_once(':').and_then(|(b, e)| Some((b.parse().ok()?, e.parse().ok()?)));
            parsed.ok_or_else(|| format!("--points '{p}': expected BAND:ELO"))
        })
        .collect()
}

/// Runs one subcommand: one match arm each, the longer ones in a function of their own.
fn run(cmd: Cmd) -> Result<ExitCode, String> {
    match cmd {
        Cmd::Check { oracle, ladder, points, skip_first, out, moves_out, seed, pgn, test_part } => {
            let pairs = parse_points(&points)?;
            let history = pgn.as_deref().map(|p| (p, test_part));
            let run = fit::CheckRun { moves_out: moves_out.as_deref(), seed, history };
            fit::check(&oracle, &ladder, &pairs, skip_first, &out, &run)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::PriorFit { oracle, ladder, points, l2, jobs, csv_out } => {
            if !(l2.is_finite() && l2 >= 0.0) {
                return Err(format!("--l2 {l2} must be a number >= 0"));
            }
            prior_fit::run(&oracle, &ladder, &parse_points(&points)?, l2, jobs, &csv_out)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Fit { oracle, per_band, version, ladder_out, csv_out, jobs } => {
            fit::run(&oracle, per_band, version, &ladder_out, &csv_out, jobs)?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Sample(a) => sample_cmd(a),
        Cmd::Oracle(a) => oracle_cmd(a),
        Cmd::Measure { oracle, engine, humans, options, go, label, elo, out, jobs, limit, cache } => {
            let opts = stats::MeasureArgs { engine, humans, options, go, label, elo, jobs, limit, cache };
            stats::measure_cli(&oracle, &opts, out.as_deref())
        }
        Cmd::Moves { positions, engine, options, go, cache, jobs } => {
            let all: Vec<SampledPosition> = types::read_jsonl(&positions)?;
            let fens: Vec<String> = all.iter().map(|p| p.fen.clone()).collect();
            let opts = stats::parse_options(&options)?;
            stats::cached_engine_moves(&fens, &engine, &opts, &go, jobs, Some(&cache))?;
            println!("{} answers in {}", fens.len(), cache.display());
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Model { cmd: ModelCmd::Train(a) } => model_train_cmd(a),
        Cmd::Curve(a) => curve_cmd(a),
        Cmd::Steps(a) => steps_cmd(a),
        Cmd::Model {
            cmd: ModelCmd::Check { oracles, target, part, jobs, out, decisions_out, moves_out, mean_target },
        } => {
            let oracles = oracles.iter().map(|o| model_check::parse_oracle(o)).collect::<Result<Vec<_>, _>>()?;
            model_check::run(&model_check::CheckArgs {
                ladder: &target.ladder,
                oracles,
                pgn: &target.pgn,
                pairs: parse_points(&target.points)?,
                part,
                jobs: jobs.max(1),
                out: &out,
                decisions_out: decisions_out.as_deref(),
                moves_out: moves_out.as_deref(),
                mean_target,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Model { cmd: ModelCmd::Fit(a) } => model_fit_cmd(a),
        Cmd::Model { cmd: ModelCmd::Repair(a) } => model_repair_cmd(a),
        Cmd::Model {
            cmd: ModelCmd::Grid { positions, pgn, mut ratings, maps, part, per_band, fen_alone, jobs, out },
        } => {
            let maps = maps.iter().map(|m| model_grid::parse_map(m)).collect::<Result<Vec<_>, _>>()?;
            if ratings.is_empty() && maps.is_empty() {
                ratings = (800..=2800).step_by(200).collect();
            }
            model_grid::run(&model_grid::GridArgs {
                positions,
                pgn,
                ratings,
                maps,
                part,
                per_band,
                fen_alone,
                jobs,
                out,
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Model { cmd: ModelCmd::Eval { model: path, pgn, oracle, jobs, out } } => {
            let report = model::run_eval(&path, &pgn, oracle.as_deref(), jobs.max(1))?;
            print!("{report}");
            if let Some(o) = out {
                std::fs::write(&o, &report).map_err(|e| format!("{}: {e}", o.display()))?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Report { csv, out_dir } => {
            report::run(&csv, &out_dir)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn sample_cmd(args: SampleArgs) -> Result<ExitCode, String> {
    let SampleArgs {
        pgn,
        out,
        per_band,
        band_counts,
        bands,
        min_ply,
        max_per_game,
        seed,
        players,
        part,
        exclude,
        people,
    } = args;
    let mut counts = std::collections::BTreeMap::new();
    for bc in &band_counts {
        let parsed = bc.split_once('=').and_then(|(b, n)| Some((b.trim().parse().ok()?, n.trim().parse().ok()?)));
        let (b, n): (u32, usize) = parsed.ok_or_else(|| format!("--band-count '{bc}': expected BAND=N"))?;
        counts.insert(b, n);
    }
    let cfg = sample::SampleConfig {
        bands: types::parse_bands(&bands)?,
        per_band,
        band_counts: counts.clone(),
        min_ply,
        max_per_game,
        seed,
        part,
        exclude: match &exclude {
            Some(path) => {
                let old: Vec<SampledPosition> = types::read_jsonl(path)?;
                old.iter().map(|p| (p.game, p.ply)).collect()
            }
            None => Default::default(),
        },
        people_only: people,
    };
    let mut named = std::collections::BTreeMap::new();
    for p in &players {
        let (name, elo) = sample::parse_player_rating(p)?;
        named.insert(name, elo);
    }
    let mut games = sample::read_games(&pgn)?;
    if !named.is_empty() {
        for g in &mut games {
            g.white_elo = None;
            g.black_elo = None;
            g.assign_ratings(&named);
        }
    }
    eprintln!("{} games read from {}", games.len(), pgn.display());
    if let Some(note) = crate::common::games::unread_note(&pgn, &games) {
        eprintln!("{note}");
    }
    let chosen = sample::choose(&games, &cfg);
    let positions = sample::build_positions(&games, &chosen);
    types::write_jsonl(&out, &positions)?;
    println!("band  positions  player-games  max/player-game");
    for (band, n, groups, max) in sample::summary(&positions) {
        let want = counts.get(&band).copied().unwrap_or(per_band);
        let short = if n < want { "  (short of the count asked for)" } else { "" };
        println!("{band:>4}  {n:>9}  {groups:>12}  {max:>15}{short}");
    }
    println!("{} positions written to {}", positions.len(), out.display());
    Ok(ExitCode::SUCCESS)
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
            Some(model::Extra { pgn, map_model })
        }
    };
    let cfg = model::TrainConfig { passes, rate, l2, seed, jobs: jobs.max(1), hidden, mirror, extra, fit_share };
    model::run_train(&pgn, &out, version, &cfg)?;
    Ok(ExitCode::SUCCESS)
}

fn model_fit_cmd(args: FitArgs) -> Result<ExitCode, String> {
    let FitArgs {
        oracle,
        also_oracle,
        target,
        jobs,
        csv_out,
        ladder_out,
        version,
        step_games,
        step_concurrency,
        openings,
        work,
        deep_p,
        mean_target,
    } = args;
    if let Some(p) = deep_p.iter().find(|p| !(0.0..=1.0).contains(*p)) {
        return Err(format!("--deep-p {p}: a probability must lie in 0..=1"));
    }
    let steps = (step_games > 0)
        .then(|| {
            steps::StepConfig::this_binary(openings.clone(), step_games, step_concurrency, steps::STEP_SRAND, None)
        })
        .transpose()?;
    model_fit::run(&model_fit::FitArgs {
        oracle: &oracle,
        second: also_oracle.as_deref(),
        ladder: &target.ladder,
        pgn: &target.pgn,
        pairs: parse_points(&target.points)?,
        jobs: jobs.max(1),
        csv_out: &csv_out,
        ladder_out: ladder_out.as_deref(),
        version,
        steps,
        work: &work,
        deep_ps: deep_p,
        target: mean_target,
    })?;
    Ok(ExitCode::SUCCESS)
}

fn model_repair_cmd(args: RepairArgs) -> Result<ExitCode, String> {
    let RepairArgs {
        oracle,
        ladder,
        pgn,
        points,
        jobs,
        games,
        concurrency,
        max_trials,
        margin,
        srand,
        openings,
        work,
        ladder_out,
        version,
        csv_out,
        mean_target,
    } = args;
    if let Some(dir) = csv_out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    repair::run(&repair::RepairArgs {
        oracle: &oracle,
        ladder: &ladder,
        pgn: &pgn,
        pairs: parse_points(&points)?,
        jobs: jobs.max(1),
        steps: steps::StepConfig::this_binary(openings, games, concurrency, srand, None)?,
        max_trials,
        margin: if (0.0..=20.0).contains(&margin) {
            margin
        } else {
            return Err(format!("--margin {margin}: must be 0 to 20 percentage points"));
        },
        work: &work,
        ladder_out: &ladder_out,
        version,
        csv_out: &csv_out,
        mean_target,
    })?;
    Ok(ExitCode::SUCCESS)
}

fn oracle_cmd(args: OracleArgs) -> Result<ExitCode, String> {
    let OracleArgs { positions, out, depth, engine, jobs, limit } = args;
    let mut all: Vec<SampledPosition> = types::read_jsonl(&positions)?;
    if let Some(n) = limit {
        all.truncate(n);
    }
    crate::common::oracle::run(&all, &out, depth, &crate::common::oracle::OracleChoice::parse(&engine), jobs)?;
    let scored = types::load_oracle(&out)?;
    let eligible = scored.iter().filter(|p| p.is_eligible()).count();
    println!("{} positions in {}, {eligible} eligible", scored.len(), out.display());
    println!("band  scored  eligible  mate  decided  other");
    let mut per: std::collections::BTreeMap<u32, [usize; 5]> = Default::default();
    for p in &scored {
        let c = per.entry(p.pos.band).or_default();
        c[0] += 1;
        match p.eligibility() {
            Ok(()) => c[1] += 1,
            Err(types::Ineligible::Mate) => c[2] += 1,
            Err(types::Ineligible::Decided) => c[3] += 1,
            Err(_) => c[4] += 1,
        }
    }
    for (band, c) in per {
        println!("{band:>4}  {:>6}  {:>8}  {:>4}  {:>7}  {:>5}", c[0], c[1], c[2], c[3], c[4]);
    }
    Ok(ExitCode::SUCCESS)
}

fn curve_cmd(args: CurveArgs) -> Result<ExitCode, String> {
    let CurveArgs { oracle, pgn, part, points, out } = args;
    let games = crate::common::games::read_games(&pgn)?;
    let all = types::load_oracle(&oracle)?;
    let part = match part.as_str() {
        "fit" => Some(model::Part::Fit),
        "test" => Some(model::Part::Test),
        _ => None,
    };
    let c = curve::build(&all, &games, part)?;
    let points = if points.is_empty() {
        sparring::profile::Ladder::builtin().points.iter().map(|p| p.elo).collect()
    } else {
        points
    };
    let (csv, text) = curve::table(&c, &points);
    std::fs::write(&out, csv).map_err(|e| format!("{}: {e}", out.display()))?;
    print!("{text}");
    println!("CSV: {}", out.display());
    Ok(ExitCode::SUCCESS)
}

fn steps_cmd(args: StepsArgs) -> Result<ExitCode, String> {
    let StepsArgs { ladder, points, games, concurrency, openings, srand, out, pgn_dir } = args;
    let path = match ladder {
        Some(p) => p,
        None => {
            let p = std::env::temp_dir().join(format!("sparring-ladder-{}.toml", std::process::id()));
            std::fs::write(&p, sparring::profile::Ladder::builtin_text())
                .map_err(|e| format!("{}: {e}", p.display()))?;
            p
        }
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let l = sparring::profile::Ladder::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let points = if points.is_empty() { l.points.iter().map(|p| p.elo).collect() } else { points };
    let cfg = steps::StepConfig::this_binary(openings, games, concurrency, srand, pgn_dir)?;
    eprintln!("steps of {} ({}), {games} games each, match seed {srand}", path.display(), l.tag());
    steps::run(&path, &points, &cfg, &out)?;
    println!("{}", std::fs::read_to_string(&out).unwrap_or_default());
    Ok(ExitCode::SUCCESS)
}

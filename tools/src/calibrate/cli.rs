//! The command line of `sparring calibrate`: the ladder's fit and its checks.
use super::{curve, fit, model_check, model_fit, prior_fit, repair, steps};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "sparring calibrate",
    about = "Calibrate the UCI_Elo ladder: fit its points to the humans per move and in games, check them"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
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
        #[arg(long, default_value = "target/calibrate/fit.csv")]
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
        #[arg(long, default_value = "target/calibrate/prior-fit.csv")]
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
    /// Fit each ladder point's lambda, beta and slip rate with the model (bench positions, fit part).
    ModelFit(FitArgs),
    /// Each ladder point's exact expected figures (mean loss, KS, match with the human's move) on
    /// one part's positions, judged by each oracle given (see tools/src/humanlike/model_check.rs).
    ModelCheck {
        /// NAME=FILE (repeatable), e.g. internal=bench/humanlike/oracle.jsonl.
        #[arg(long = "oracle", value_name = "NAME=FILE", required = true)]
        oracles: Vec<String>,
        #[command(flatten)]
        target: LadderPoints,
        /// Whose games: test (held out from every fit; default), validation or fit.
        #[arg(long, value_enum, default_value = "test")]
        part: crate::common::split::Part,
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
}

/// `sparring calibrate ARGS…`.
pub fn main(args: &[String]) -> ExitCode {
    crate::common::command_line::run_tool::<Cli>("sparring calibrate", args, |cli| run(cli.cmd))
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
    #[arg(long, default_value = "target/calibrate/model-fit.csv")]
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
    /// A v7 ladder: also try the model's rating input this far from each point's own (comma-
    /// separated, e.g. -600,-400,-200); a chosen offset is written as the point's `model_elo`.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    model_offsets: Vec<f64>,
}

#[derive(clap::Args, Debug)]
struct RepairArgs {
    #[arg(long, default_value = "bench/humanlike/oracle.jsonl")]
    oracle: PathBuf,
    /// A second oracle's cache (e.g. bench/humanlike/oracle-sf15-d12.jsonl): a move must keep the
    /// point inside the per-move limits by both (where it has scored 100+ of the band's fit part).
    #[arg(long)]
    also_oracle: Option<PathBuf>,
    /// A v7 ladder: the model rating offsets (from each point's own input) a point may move to, one
    /// notch at a time (comma-separated, e.g. -226,-113,113,226); a higher input plays stronger.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    model_offsets: Vec<f64>,
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
    #[arg(long, default_value = "target/calibrate/steps.csv")]
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
        model_offsets,
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
        model_offsets,
        target: mean_target,
    })?;
    Ok(ExitCode::SUCCESS)
}

fn model_repair_cmd(args: RepairArgs) -> Result<ExitCode, String> {
    let RepairArgs {
        oracle,
        also_oracle,
        model_offsets,
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
    if model_offsets.iter().any(|o| !o.is_finite() || o.abs() > 1500.0) {
        return Err(format!("--model-offsets {model_offsets:?}: each must be within ±1500 rating points"));
    }
    repair::run(&repair::RepairArgs {
        oracle: &oracle,
        second: also_oracle.as_deref(),
        model_offsets,
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

fn curve_cmd(args: CurveArgs) -> Result<ExitCode, String> {
    let CurveArgs { oracle, pgn, part, points, out } = args;
    let games = crate::common::games::read_games(&pgn)?;
    let all = crate::common::scored::load_oracle(&oracle)?;
    let part = match part.as_str() {
        "fit" => Some(crate::common::split::Part::Fit),
        "test" => Some(crate::common::split::Part::Test),
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

/// Creates the folder `path` goes in (the default outputs are under `target/calibrate/`; results
/// worth keeping are copied to `bench/results/` by the bench scripts that make them).
fn parent_dir(path: &std::path::Path) -> Result<(), String> {
    match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display())),
        None => Ok(()),
    }
}

/// Runs one subcommand: one match arm each, the longer ones in a function of their own.
fn run(cmd: Cmd) -> Result<ExitCode, String> {
    match &cmd {
        Cmd::Fit { csv_out, .. } | Cmd::PriorFit { csv_out, .. } | Cmd::ModelFit(FitArgs { csv_out, .. }) => {
            parent_dir(csv_out)?
        }
        Cmd::Steps(StepsArgs { out, .. }) => parent_dir(out)?,
        _ => {}
    }
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
        Cmd::Curve(a) => curve_cmd(a),
        Cmd::Steps(a) => steps_cmd(a),
        Cmd::ModelCheck { oracles, target, part, jobs, out, decisions_out, moves_out, mean_target } => {
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
        Cmd::ModelFit(a) => model_fit_cmd(a),
        Cmd::Repair(a) => model_repair_cmd(a),
    }
}

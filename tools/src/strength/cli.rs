//! `sparring strength FILE.pgn [options]` and `sparring strength refit ...`.

use super::analyse::{self, GameAnalysis, Pairing, RunOptions, RunStats, Settings};
use super::game_model::GameModel;
use super::model::StrengthModel;
use super::models::Model;
use super::pgn::{self, GameError, PgnGame};
use super::refit::{self, Direction, FitPart, Sample, Weighting};
use super::report::{self, Format};
use crate::common::oracle::{Budget, OracleChoice};
use clap::{Args, Parser};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Depth of the internal oracle when neither the command line nor the model says otherwise.
pub const DEFAULT_DEPTH: i32 = 6;

/// Which games of a file a strength tool reads (`--every`, `--offset`, `--limit`), shared by the
/// analysis, refit, train and `strength likelihood`.
#[derive(Args, Debug, Clone)]
pub struct GameSelection {
    /// Only games whose number n (1-based) has n % EVERY == OFFSET.
    #[arg(long, default_value_t = 1)]
    pub every: usize,
    #[arg(long, default_value_t = 0)]
    pub offset: usize,
    /// At most this many (selected) games.
    #[arg(long)]
    pub limit: Option<usize>,
}

impl GameSelection {
    /// Whether game number `n` (1-based) is one the selection reads (`--limit` aside).
    pub fn keeps(&self, n: usize) -> bool {
        let every = self.every.max(1);
        n % every == self.offset % every
    }
}

/// Oracle and game-selection options shared by analysis and refit.
#[derive(Args, Debug, Clone)]
pub struct OracleArgs {
    /// `internal` (the engine's own search) or a UCI engine command line, e.g. `/usr/games/stockfish`.
    #[arg(long, default_value = "internal")]
    pub oracle: String,
    /// Oracle search depth in plies [default: the model's depth when the oracle is the model's, else 6].
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<i32>,
    /// Oracle node budget per search instead of a depth.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// How the played move is valued [default: the model's pairing].
    #[arg(long, value_enum)]
    pub pairing: Option<Pairing>,
    /// Parallel workers, each with its own oracle.
    #[arg(short, long, default_value_t = 1)]
    pub jobs: usize,
    /// Hash table per worker, MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Entries of each game's memo of oracle answers (0 disables it).
    #[arg(long, default_value_t = 100_000)]
    pub cache: usize,
    #[command(flatten)]
    pub select: GameSelection,
    /// Model: `v3` (default: the v2 game model's reading of one game plus how likely each side's
    /// moves are under the human move model Maia-3 across ratings, with 90 % intervals; fitted on
    /// FICS blitz; about 20 plies/s a core), `v3-fide` (the same fitted on FIDE-rated players'
    /// online rapid and blitz games), `game` (v2: losses, phases and the v6 human model's
    /// likelihood; FICS blitz; about 400 plies/s), `fide` (v2 fitted on the FIDE games), `refit`
    /// (the scaled-error line refitted on FICS blitz), `pawnbook` (the seed document's
    /// coefficients), or a model file of either kind.
    #[arg(long)]
    pub model: Option<String>,
    /// Never draw a progress bar.
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Parser, Debug)]
#[command(
    name = "sparring strength",
    about = "Estimate playing strength (Elo) from move quality: Regan-Haworth scaled error of each \
             eligible ply against an oracle engine",
    after_help = "Fit the game model: sparring strength train --help\nRefit the scaled-error line: sparring strength refit --help\nDifficulty-aware rating from all-move oracle files: sparring strength ipr --help\nThe human move model v7's likelihood over a rating grid: sparring strength likelihood --help\n\n\
CSV columns (--format csv), one row per game side:\n  \
game, color, player, rating: the game's number in the file, the side, its name and its Elo tag\n  \
n: the side's eligible plies (not forced, not in an already decided position; at least 12\n    \
for an estimate)\n  \
ase: mean scaled error of those plies, ln(1 + loss / 100) of each ply's centipawn loss against\n    \
the oracle's best move (capped at 300); lower is better\n  \
sd: the sample standard deviation (n - 1) of those per-ply scaled errors\n  \
p75_loss: the 75th percentile of the plies' centipawn losses\n  \
strength_elo, strength_se: the side's estimate and its standard error (90 % interval: lo90, hi90)\n  \
rolling_elo, rolling_se, rolling_lo90, rolling_hi90: the player's estimate over their last 10\n    \
games up to this one, and its interval\n\
An interval holds its estimate strictly inside, and reaches no further than the model's fitted\n\
rating range widened by two population standard deviations (never below 100).\n\n\
--player: case-insensitive; a unique part of a name is enough (an unknown or ambiguous name\n\
is refused, with the closest names); only that player's games are analysed."
)]
pub struct AnalyseCli {
    /// PGN file to analyse.
    pub file: PathBuf,
    #[command(flatten)]
    pub oracle: OracleArgs,
    /// Only this player's games: case-insensitive, a unique part of the name is enough (`oparin`
    /// for "Oparin, Grigoriy"); an unknown or ambiguous name is refused with the closest names.
    #[arg(long)]
    pub player: Option<String>,
    #[arg(long, value_enum, default_value = "table")]
    pub format: Format,
    /// Include per-ply detail (table and JSON); with CSV, print one row per ply instead.
    #[arg(long)]
    pub plies: bool,
}

#[derive(Parser, Debug)]
#[command(
    name = "sparring strength refit",
    about = "Fit anchor and slope of the strength model by weighted least squares \
             (rating = a + b*ASE) from game sides with known ratings (at least 20)"
)]
pub struct RefitCli {
    /// PGN with WhiteElo/BlackElo tags to analyse (or use --samples).
    #[arg(required_unless_present = "samples", conflicts_with = "samples")]
    pub file: Option<PathBuf>,
    /// Per-game-side CSV from `sparring strength --format csv` (or --samples-out) instead of a PGN.
    #[arg(long)]
    pub samples: Option<PathBuf>,
    #[command(flatten)]
    pub oracle: OracleArgs,
    /// Which games the fit sees; the others are held out and evaluated.
    #[arg(long, value_enum, default_value = "all")]
    pub fit_part: FitPart,
    #[arg(long, value_enum, default_value = "plies")]
    pub weights: Weighting,
    /// Regression direction: `rating-on-ase` minimises one game's error but shrinks estimates
    /// towards the mean; `ase-on-rating` (inverted) is unbiased when games are pooled.
    #[arg(long, value_enum, default_value = "rating-on-ase")]
    pub direction: Direction,
    /// Express the anchor at this Elo [default: the weighted centroid of the samples].
    #[arg(long)]
    pub anchor_elo: Option<f64>,
    /// Write the fitted model here (else print it).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the analysed samples (CSV) here, for later refits without re-analysis.
    #[arg(long)]
    pub samples_out: Option<PathBuf>,
    /// Write a markdown report of the fit and the held-out evaluation here.
    #[arg(long)]
    pub report: Option<PathBuf>,
}

#[derive(Parser, Debug)]
#[command(
    name = "sparring strength train",
    about = "Fit the game model (the default --model) on a rated PGN: games of index i (0-based) with \
             i % 10 in 0-6 fit, 7 validate, 8-9 test (the human move model's split); prints the held-out evaluation (MAE by band, 90 % interval coverage, error against the \
             number of games)"
)]
pub struct TrainCli {
    /// Rated PGN (WhiteElo/BlackElo); its game numbers define the parts.
    pub file: PathBuf,
    /// Reuse per-ply analyses (`sparring strength FILE --format csv --plies` with the same oracle
    /// flags) instead of analysing; several files are merged.
    #[arg(long)]
    pub plies: Vec<PathBuf>,
    #[command(flatten)]
    pub oracle: OracleArgs,
    /// The rating scale of the file, in words (recorded in the model and printed with estimates).
    #[arg(long, default_value = "FICS blitz")]
    pub scale: String,
    /// Write the fitted model here (else print it).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the markdown report here.
    #[arg(long)]
    pub report: Option<PathBuf>,
    /// Write the error-against-games table (CSV) here.
    #[arg(long)]
    pub by_games: Option<PathBuf>,
    /// Seed of the bootstrap intervals.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also read the difficulty features (the side's maximum-likelihood rating under the human
    /// model, its positions' entropy, ln P of the best move, the error on easy and hard plies).
    #[arg(long)]
    pub difficulty: bool,
    /// Leave out every feature whose name contains this text (repeatable; for ablations).
    #[arg(long, value_name = "TEXT")]
    pub without: Vec<String>,
    /// Write every rated side's features (CSV: game, part, player, rating, then each feature).
    #[arg(long, value_name = "CSV")]
    pub features_out: Option<PathBuf>,
    /// The shipped human move model (version) whose log-likelihoods are features; the model
    /// file records it.
    #[arg(long, default_value_t = sparring::profile::human_model::LATEST)]
    pub human_model: u32,
    /// Also read estimator v3's features: each side's likelihood under Maia-3 over the rating grid
    /// (`sparring strength likelihood`), its maximum and curvature. Games without a row in a
    /// `--likelihood` file are read through Maia-3 here.
    #[arg(long)]
    pub maia: bool,
    /// Reuse `sparring strength likelihood` CSVs (default grid and --from-ply) for --maia; several
    /// files are merged.
    #[arg(long, value_name = "CSV")]
    pub likelihood: Vec<PathBuf>,
    /// Stack on a shipped v2 model (`game` or `fide`): read its single-game score and the Maia-3
    /// features (implies --maia) instead of every feature.
    #[arg(long, value_name = "MODEL", value_parser = ["game", "fide"])]
    pub stack: Option<String>,
    /// Fit nothing: report this model (a name of --model or a file) on the file's test part, the
    /// baseline being this file's fit-part mean (how a model fitted on one population reads another).
    #[arg(long, value_name = "MODEL")]
    pub evaluate: Option<String>,
}

fn run_train(c: TrainCli) -> Result<(), String> {
    let evaluated = match &c.evaluate {
        Some(name) => match Model::named(name)? {
            (Model::Game(m), label) => Some((m, label)),
            _ => return Err(format!("--evaluate {name}: only a game model can be evaluated this way")),
        },
        None => None,
    };
    let maia = c.maia || c.stack.is_some() || evaluated.as_ref().is_some_and(|(m, _)| m.needs_maia());
    let mut setup = resolve_with(&c.oracle, None, "game")?;
    setup.settings.player = None;
    // An evaluated model reads the human move model it was fitted with.
    let human_model = evaluated.as_ref().map_or(c.human_model, |(m, _)| m.human_model);
    sparring::profile::human_model::builtin(human_model)?;
    setup.settings.human_model = Some(human_model);
    setup.settings.maia = maia;
    let (games, analysis) = if c.plies.is_empty() {
        let (games, errors, stats) = load_and_analyse(&c.file, &c.oracle, &mut setup)?;
        let text = format!(
            "analysed {} games ({} skipped), {:.1} plies/s with {} job(s)",
            stats.games,
            errors.len(),
            stats.plies_per_second,
            c.oracle.jobs
        );
        (games, text)
    } else {
        let pgn: Vec<PgnGame> = pgn::read_file(&c.file)
            .map_err(|e| format!("cannot read {}: {e}", c.file.display()))?
            .into_iter()
            .filter_map(Result::ok)
            .collect();
        let mut games = Vec::new();
        for p in &c.plies {
            let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            games.extend(super::train::games_from_plies_csv(&pgn, &text)?);
        }
        games.sort_by_key(|g| g.number);
        let by_number: std::collections::HashMap<usize, &PgnGame> = pgn.iter().map(|g| (g.number, g)).collect();
        super::train::add_human_log_likelihoods(&mut games, &by_number, human_model, c.oracle.jobs);
        if maia {
            let mut cache = std::collections::HashMap::new();
            for p in &c.likelihood {
                let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
                cache.extend(super::likelihood::read_csv(&text).map_err(|e| format!("{}: {e}", p.display()))?);
            }
            super::train::add_maia_readings(&mut games, &by_number, &cache, c.oracle.jobs);
        }
        let n = games.len();
        (games, format!("{n} games from {} per-ply file(s)", c.plies.len()))
    };
    let samples = super::train::samples(&games);
    if let Some((m, label)) = evaluated {
        let fit: Vec<f64> = samples
            .iter()
            .filter(|s| super::train::part_of(s.game) == super::train::Part::Fit)
            .map(|s| s.rating)
            .collect();
        let test: Vec<&super::train::Sample> =
            samples.iter().filter(|s| super::train::part_of(s.game) == super::train::Part::Test).collect();
        if fit.is_empty() || test.is_empty() {
            return Err(format!(
                "--evaluate needs rated sides in the fit part (for the baseline) and the test part: {} and {}",
                fit.len(),
                test.len()
            ));
        }
        let baseline = fit.iter().sum::<f64>() / fit.len() as f64;
        let e = super::train::evaluate(&m, &test, baseline, c.seed);
        let text = super::train::evaluation_report(&m, &label, &e, &c.file.display().to_string(), &analysis);
        print!("{text}");
        if let Some(p) = &c.report {
            std::fs::write(p, &text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        return Ok(());
    }
    let (d, n) = budget_fields(setup.settings.budget);
    let mut template = GameModel::shipped();
    template.scale = c.scale.clone();
    template.oracle = setup.spec.id();
    template.depth = d;
    template.nodes = n;
    template.pairing = setup.settings.pairing.as_str().to_string();
    template.oracle_fingerprint = (template.oracle == "internal").then(crate::common::oracle::internal_fingerprint);
    template.human_model = human_model;
    template.fitted = None;
    if let Some(p) = &c.features_out {
        std::fs::write(p, super::train::features_csv(&samples))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    let names = match &c.stack {
        Some(base) => std::iter::once(format!("base.{base}"))
            .chain(super::game_model::feature_names().into_iter().filter(|n| super::game_model::is_maia_feature(n)))
            .filter(|n| !c.without.iter().any(|w| n.contains(w.as_str())))
            .collect(),
        None => super::game_model::selected_features(c.difficulty, maia, &c.without),
    };
    let mut t = super::train::train(&samples, &template, names, c.seed)?;
    let data = c.file.display().to_string();
    t.model.fitted = Some(serde_json::json!({
        "data": data,
        "analysis": analysis,
        "parts": {"fit": t.parts.0, "validation": t.parts.1, "test": t.parts.2},
        "test": t.test,
    }));
    let text = super::train::report(&t, &data, &analysis);
    eprint!("{text}");
    if let Some(p) = &c.report {
        std::fs::write(p, &text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    if let Some(p) = &c.by_games {
        std::fs::write(p, super::train::by_games_csv(&t.test))
            .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    match &c.out {
        Some(p) => t.model.save(p)?,
        None => println!("{}", serde_json::to_string_pretty(&t.model).map_err(|e| e.to_string())?),
    }
    Ok(())
}

/// Entry point of `sparring strength ...`.
pub fn run(args: &[String]) -> ExitCode {
    let refit = args.first().map(String::as_str) == Some("refit");
    let result = if args.first().map(String::as_str) == Some("ipr") {
        let argv = std::iter::once("sparring strength ipr".to_string()).chain(args[1..].iter().cloned());
        match super::ipr_cli::IprCli::try_parse_from(argv) {
            Ok(c) => super::ipr_cli::run(c),
            Err(e) => return clap_exit(e),
        }
    } else if args.first().map(String::as_str) == Some("train") {
        let argv = std::iter::once("sparring strength train".to_string()).chain(args[1..].iter().cloned());
        match TrainCli::try_parse_from(argv) {
            Ok(c) => run_train(c),
            Err(e) => return clap_exit(e),
        }
    } else if args.first().map(String::as_str) == Some("likelihood") {
        let argv = std::iter::once("sparring strength likelihood".to_string()).chain(args[1..].iter().cloned());
        match super::likelihood::LikelihoodCli::try_parse_from(argv) {
            Ok(c) => super::likelihood::run_cli(c),
            Err(e) => return clap_exit(e),
        }
    } else if refit {
        let argv = std::iter::once("sparring strength refit".to_string()).chain(args[1..].iter().cloned());
        match RefitCli::try_parse_from(argv) {
            Ok(c) => run_refit(c),
            Err(e) => return clap_exit(e),
        }
    } else {
        let argv = std::iter::once("sparring strength".to_string()).chain(args.iter().cloned());
        match AnalyseCli::try_parse_from(argv) {
            Ok(c) => run_analyse(c),
            Err(e) => return clap_exit(e),
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sparring strength: {e}");
            ExitCode::from(1)
        }
    }
}

fn clap_exit(e: clap::Error) -> ExitCode {
    let _ = e.print();
    if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS }
}

/// The oracle setup of a run, resolved against the model's defaults.
struct Setup {
    spec: OracleChoice,
    settings: Settings,
    model: Model,
    /// `--player`: the player (a query, resolved against the file's names when it is read) whose
    /// games alone are analysed.
    games_of: Option<String>,
}

fn resolve(o: &OracleArgs, player: Option<String>) -> Result<Setup, String> {
    resolve_with(o, player, o.model.as_deref().unwrap_or(super::models::DEFAULT))
}

fn resolve_with(o: &OracleArgs, player: Option<String>, default_model: &str) -> Result<Setup, String> {
    let (model, _) = Model::named(o.model.as_deref().unwrap_or(default_model))?;
    let spec = OracleChoice::parse(&o.oracle);
    let (m_oracle, m_depth, m_nodes, m_pairing) = model.oracle_record();
    let budget = match (o.depth, o.nodes) {
        (Some(d), _) if d >= 1 => Budget::Depth(d),
        (Some(d), _) => return Err(format!("--depth must be at least 1 (got {d})")),
        (None, Some(n)) if n >= 1 => Budget::Nodes(n),
        (None, Some(_)) => return Err("--nodes must be at least 1".to_string()),
        // The model's budget is the default only for the oracle it was fitted with.
        (None, None) => match (m_oracle == spec.id(), m_depth, m_nodes) {
            (true, Some(d), _) => Budget::Depth(d),
            (true, None, Some(n)) => Budget::Nodes(n),
            _ => Budget::Depth(DEFAULT_DEPTH),
        },
    };
    let pairing = o.pairing.unwrap_or(if m_pairing == "reuse" { Pairing::Reuse } else { Pairing::Exact });
    let (human_model, maia) = match &model {
        Model::Game(g) => (Some(g.human_model), g.needs_maia()),
        _ => (None, false),
    };
    Ok(Setup { spec, settings: Settings { budget, pairing, player, human_model, maia }, model, games_of: None })
}

fn budget_fields(b: Budget) -> (Option<i32>, Option<u64>) {
    match b {
        Budget::Depth(d) => (Some(d), None),
        Budget::Nodes(n) => (None, Some(n)),
    }
}

/// Reads the PGN, reports unreadable games, applies --every/--offset/--limit, analyses.
fn load_and_analyse(
    file: &Path,
    o: &OracleArgs,
    setup: &mut Setup,
) -> Result<(Vec<GameAnalysis>, Vec<GameError>, RunStats), String> {
    let mut all = pgn::read_file(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    if let Some(query) = setup.games_of.clone() {
        // `--player`: the one rule of every tool (`games::resolve_player`); only their games.
        let names = all.iter().flatten().flat_map(|g| [g.white.as_str(), g.black.as_str()]);
        let name = crate::common::games::resolve_player(&query, names)?;
        let total = all.len();
        all.retain(|g| g.as_ref().is_ok_and(|g| g.white.trim() == name || g.black.trim() == name));
        let numbers: Vec<String> = all.iter().flatten().map(|g| g.number.to_string()).collect();
        eprintln!(
            "sparring strength: player '{name}' (--player '{query}'): {} of {total} games analysed (numbers {})",
            all.len(),
            numbers.join(", ")
        );
        if setup.settings.player.is_some() {
            setup.settings.player = Some(name.clone());
        }
        setup.games_of = Some(name);
    }
    let mut errors = Vec::new();
    let mut games: Vec<PgnGame> = Vec::new();
    for g in all {
        let number = match &g {
            Ok(g) => g.number,
            Err(e) => e.number,
        };
        if !o.select.keeps(number) {
            continue;
        }
        if o.select.limit.is_some_and(|l| games.len() + errors.len() >= l) {
            break;
        }
        match g {
            Ok(g) => games.push(g),
            Err(e) => {
                eprintln!("sparring strength: skipping {e}");
                errors.push(e);
            }
        }
    }
    let (d, n) = budget_fields(setup.settings.budget);
    let fp = (setup.spec == OracleChoice::Internal).then(crate::common::oracle::internal_fingerprint);
    if let Some(w) = setup.model.oracle_mismatch(&setup.spec.id(), d, n, setup.settings.pairing.as_str(), fp.as_deref())
    {
        eprintln!("sparring strength: warning: {w}");
    }
    let opts = RunOptions {
        oracle: &setup.spec,
        jobs: o.jobs,
        hash_mb: o.hash,
        progress: !o.quiet && std::io::stderr().is_terminal(),
        cache_entries: o.cache,
    };
    let (results, stats) = analyse::analyse_all(&games, &setup.settings, &setup.model.ase_line(), &opts)?;
    let mut analysed = Vec::new();
    for r in results {
        match r {
            Ok(a) => analysed.push(a),
            Err(e) => {
                eprintln!("sparring strength: skipping {e}");
                errors.push(e);
            }
        }
    }
    errors.sort_by_key(|e| e.number);
    Ok((analysed, errors, stats))
}

fn run_analyse(c: AnalyseCli) -> Result<(), String> {
    let mut setup = resolve(&c.oracle, c.player.clone())?;
    setup.games_of = c.player.clone();
    // The game model reads the opponent's moves too: analyse both sides, report the player's.
    let game_model = matches!(setup.model, Model::Game(_));
    if game_model {
        setup.settings.player = None;
    }
    let (mut games, errors, stats) = load_and_analyse(&c.file, &c.oracle, &mut setup)?;
    if let (true, Some(p)) = (game_model, &setup.games_of) {
        for g in &mut games {
            for s in &mut g.sides {
                s.analysed = s.player.trim() == p;
            }
        }
    }
    if let Model::Game(m) = &setup.model {
        let ratings: Vec<f64> = games
            .iter()
            .flat_map(|g| g.sides.iter().filter(|s| s.analysed))
            .filter_map(|s| s.rating.map(f64::from))
            .collect();
        if let Some(w) = m.outside(&ratings) {
            eprintln!("sparring strength: warning: {w}");
        }
    }
    let text = match (c.format, c.plies) {
        (Format::Table, p) => report::table(&games, &errors, &stats, &setup.model, p),
        (Format::Csv, false) => report::csv_sides(&report::side_rows(&games, &setup.model).0),
        (Format::Csv, true) => report::csv_plies(&games),
        (Format::Json, p) => {
            let oracle_id = setup.spec.id();
            let provenance = report::Provenance {
                oracle: &oracle_id,
                budget: setup.settings.budget.describe(),
                pairing: setup.settings.pairing.as_str(),
            };
            report::json(&games, &errors, &stats, &setup.model, provenance, p)
        }
    };
    print!("{text}");
    if c.format != Format::Table {
        eprintln!(
            "sparring strength: {} games ({} skipped), {} plies in {:.1} s ({:.1} plies/s)",
            stats.games,
            errors.len(),
            stats.plies,
            stats.seconds,
            stats.plies_per_second
        );
    }
    Ok(())
}

fn run_refit(c: RefitCli) -> Result<(), String> {
    let mut setup = resolve_with(&c.oracle, None, "refit")?;
    let Model::Ase(ase_template) = &setup.model else {
        return Err("refit fits the scaled-error line: give --model refit, pawnbook or such a file \
                    (the game model is fitted with `sparring strength train`)"
            .to_string());
    };
    let ase_template = ase_template.clone();
    let (samples, data, stats) = match (&c.file, &c.samples) {
        (_, Some(path)) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            (refit::read_samples_csv(&text)?, path.display().to_string(), None)
        }
        (Some(file), None) => {
            let (games, errors, stats) = load_and_analyse(file, &c.oracle, &mut setup)?;
            let (rows, _) = report::side_rows(&games, &setup.model);
            if let Some(p) = &c.samples_out {
                std::fs::write(p, report::csv_sides(&rows))
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            }
            eprintln!(
                "sparring strength refit: analysed {} games ({} skipped), {:.1} plies/s",
                stats.games,
                errors.len(),
                stats.plies_per_second
            );
            let samples = rows
                .iter()
                .filter_map(|r| {
                    Some(Sample {
                        game: r.game,
                        color: r.color.to_string(),
                        player: r.player.clone(),
                        rating: r.rating? as f64,
                        n: r.n,
                        ase: r.ase?,
                        sd: r.sd?,
                        p75_loss: r.p75_loss.unwrap_or(f64::NAN),
                    })
                })
                .collect();
            (samples, file.display().to_string(), Some(stats))
        }
        (None, None) => return Err("give a PGN file or --samples".to_string()),
    };
    let max_game = samples.iter().map(|s| s.game).max().unwrap_or(0);
    let (fit_set, held_out) = c.fit_part.split(&samples, max_game);
    let mut template = ase_template;
    if c.samples.is_none() {
        // Fresh analysis: record the oracle actually used.
        let (d, n) = budget_fields(setup.settings.budget);
        template.oracle = setup.spec.id();
        template.depth = d;
        template.nodes = n;
        template.pairing = setup.settings.pairing.as_str().to_string();
    }
    // The samples must come from this build when the oracle is internal (see the bench script).
    template.oracle_fingerprint = (template.oracle == "internal").then(crate::common::oracle::internal_fingerprint);
    let (mut model, fit) = refit::refit_with(&fit_set, c.weights, c.direction, c.anchor_elo, &template)?;
    let baseline = {
        let r: Vec<f64> =
            fit_set.iter().filter(|s| s.n >= super::model::MIN_ELIGIBLE_PLIES).map(|s| s.rating).collect();
        r.iter().sum::<f64>() / r.len().max(1) as f64
    };
    let eval = if held_out.is_empty() { None } else { Some(refit::evaluate(&model, &held_out, baseline)) };
    if let Some(fi) = model.fitted.as_mut() {
        fi.data = data.clone();
        fi.selection = format!(
            "{}; analysed games n with n % {} == {}{}",
            c.fit_part.describe(),
            c.oracle.select.every.max(1),
            c.oracle.select.offset % c.oracle.select.every.max(1),
            c.oracle.select.limit.map(|l| format!(", at most {l} games")).unwrap_or_default()
        );
        fi.held_out = eval.as_ref().and_then(|e| serde_json::to_value(e).ok());
    }
    let text = fit_report(&model, &fit, eval.as_ref(), stats.as_ref(), &data);
    eprint!("{text}");
    if let Some(p) = &c.report {
        std::fs::write(p, &text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
    }
    match &c.out {
        Some(p) => model.save(p)?,
        None => println!("{}", serde_json::to_string_pretty(&model).map_err(|e| e.to_string())?),
    }
    Ok(())
}

fn fit_report(
    m: &StrengthModel,
    fit: &refit::LineFit,
    eval: Option<&refit::Evaluation>,
    stats: Option<&RunStats>,
    data: &str,
) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let _ = writeln!(s, "# Strength model refit\n");
    let _ = writeln!(s, "- data: `{data}`");
    if let Some(f) = &m.fitted {
        let _ = writeln!(s, "- fit part: {}", f.selection);
        let _ = writeln!(s, "- weighting: {}", f.weighting);
        let _ = writeln!(s, "- direction: {}", if f.direction.is_empty() { "rating-on-ase" } else { &f.direction });
    }
    let rmse_unit = match m.fitted.as_ref().map(|f| f.direction.as_str()) {
        Some("ase-on-rating") => "ASE",
        _ => "Elo",
    };
    let _ = writeln!(
        s,
        "- oracle: `{}`, {}, pairing {}",
        m.oracle,
        match (m.depth, m.nodes) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(n)) => format!("nodes {n}"),
            _ => "budget unknown".to_string(),
        },
        m.pairing
    );
    if let Some(st) = stats {
        let _ = writeln!(
            s,
            "- analysis: {} games, {} plies in {:.0} s = {:.1} plies/s; cache {} hits / {} misses",
            st.games, st.plies, st.seconds, st.plies_per_second, st.cache_hits, st.cache_misses
        );
    }
    let _ = writeln!(
        s,
        "\n| coefficient | value |\n|---|---|\n| anchor_elo | {:.1} |\n| anchor_ase | {:.4} |\n| elo_per_ase_unit | {:.1} |\n| samples | {} |\n| weighted R² | {:.4} |\n| weighted RMSE ({rmse_unit}) | {:.4} |",
        m.anchor_elo, m.anchor_ase, m.elo_per_ase_unit, fit.samples, fit.r2, fit.weighted_rmse
    );
    let o = &m.original_calibration;
    let _ = writeln!(
        s,
        "\nOriginal calibration ({}), kept for reference: anchor_elo {}, anchor_ase {}, elo_per_ase_unit {}.",
        o.source, o.anchor_elo, o.anchor_ase, o.elo_per_ase_unit
    );
    if let Some(e) = eval {
        let _ = writeln!(
            s,
            "\n## Held-out evaluation\n\nBaseline: always predict {:.1} (mean rating of the fitting samples).\n\n\
             | measure | count | MAE model | MAE baseline |\n|---|---|---|---|\n\
             | per game side | {} | {:.1} | {:.1} |\n\
             | rolling 10-game, every full window | {} windows / {} players | {:.1} | {:.1} |\n\
             | rolling 10-game, last window per player | {} | {:.1} | {:.1} |\n\n\
             Mean signed error per game (model − rating): {:+.1}.",
            e.baseline_rating,
            e.games,
            e.mae_model,
            e.mae_baseline,
            e.windows,
            e.players,
            e.mae_rolling,
            e.mae_rolling_baseline,
            e.players,
            e.mae_rolling_last,
            e.mae_rolling_last_baseline,
            e.bias_model
        );
    }
    s
}

//! `sparring strength ipr calibrate|rate`: the intrinsic performance rating (`ipr.rs`) on
//! all-move oracle files written by `sparring humanlike oracle`.

use super::ipr::{self, C_RANGE, Decision, IprModel};
use crate::common::scored::{OraclePosition, load_oracle};
use clap::{Parser, Subcommand, ValueEnum};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The shipped calibration, compiled in so that `ipr` works from any directory.
pub const SHIPPED_MODEL_JSON: &str = include_str!("../../../calibration/ipr-model.json");

#[derive(Parser, Debug)]
#[command(
    name = "sparring strength ipr",
    about = "Intrinsic performance rating: Regan-Haworth move-choice model (s, c) fitted by maximum \
             likelihood on positions where every legal move was scored (sparring humanlike oracle), \
             projected on a fixed reference set and mapped to Elo by rated human bands",
    after_help = "A group (a player, a rating, a band, a file) is rated only with at least 30 eligible \
                  decisions (positions after move 8 with two or more legal moves that are not decided), \
                  and each difficulty stratum counts only with 30 of its own; smaller groups are listed \
                  as `skipped:` on stderr and strata without a fit print `-`. Intervals resample whole \
                  games, or single decisions for a group from fewer than 5 games (marked `*`)."
)]
pub struct IprCli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Fit (s, c) per rating band of a human oracle file and the line from projected ASE to Elo.
    Calibrate {
        /// Oracle file of rated human positions (bench/humanlike/oracle.jsonl).
        #[arg(long)]
        oracle: PathBuf,
        /// Reference positions for the projection [default: the calibration file, all games].
        #[arg(long)]
        reference: Option<PathBuf>,
        /// Use only games with game % EVERY == OFFSET (hold the rest out).
        #[arg(long, default_value_t = 1)]
        every: usize,
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// Hold the consistency c at this value for every player (fit s only).
        #[arg(long)]
        consistency: Option<f64>,
        /// Difficulty strata by the number of moves within 50 cp of the best, each calibrated on
        /// its own (`all` = one stratum).
        #[arg(long, default_value = "1,2,3-4,5-")]
        strata: String,
        /// Split every stratum further by whether a depth-1 search finds a best move.
        #[arg(long)]
        shallow_split: bool,
        #[arg(long)]
        out: PathBuf,
    },
    /// Rate the players of a PGN file: their positions are scored once by the internal oracle
    /// (cached) and rated like `rate` (at least 30 eligible decisions per player).
    Pgn(PgnArgs),
    /// Rate groups of decisions in one or more oracle files.
    Rate {
        /// Oracle files (the `human` field of each position is the move that was played).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        common: RatingArgs,
        #[arg(long, value_enum, default_value = "rating")]
        group: Group,
        /// Use only games with game % EVERY == OFFSET.
        #[arg(long, default_value_t = 1)]
        every: usize,
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// Rate an engine's answers instead of the recorded moves: a JSON-lines file of
        /// {fen, game, elo, mv} (`sparring calibrate check --moves-out`, `measure --cache`); each
        /// position with an answer becomes a decision of that `elo`, the others are left out.
        #[arg(long)]
        moves: Option<PathBuf>,
        /// With --moves: the rating of answers that carry no `elo` (e.g. a Stockfish UCI_Elo setting).
        #[arg(long, requires = "moves")]
        elo: Option<u32>,
    },
}

/// One engine answer from a moves file.
#[derive(serde::Deserialize)]
struct Answer {
    fen: String,
    #[serde(default)]
    game: Option<usize>,
    #[serde(default)]
    elo: Option<u32>,
    mv: String,
}

/// Options of `ipr pgn`.
#[derive(clap::Args, Debug)]
struct PgnArgs {
    /// PGN file (games from the standard start position).
    file: PathBuf,
    /// Rate only this player (case-insensitive; a unique part of the name is enough); default:
    /// every player.
    #[arg(long)]
    player: Option<String>,
    /// Positions per player at most (spread evenly over their games), after move 8, not forced.
    #[arg(long, default_value_t = 600)]
    per_player: usize,
    /// Oracle cache (JSON lines, resumable): every legal move of every chosen position, scored by
    /// the internal search at the model's depth.
    #[arg(long)]
    cache: PathBuf,
    /// Oracle workers.
    #[arg(short, long, default_value_t = 1)]
    jobs: usize,
    #[command(flatten)]
    common: RatingArgs,
}

/// Options every rating command shares.
#[derive(clap::Args, Debug)]
struct RatingArgs {
    /// Calibration [default: the shipped calibration/ipr-model.json, compiled in].
    #[arg(long)]
    model: Option<PathBuf>,
    /// Reference positions [default: the path recorded in the model].
    #[arg(long)]
    reference: Option<PathBuf>,
    /// Bootstrap resamples (whole games) for the 95 % interval.
    #[arg(long, default_value_t = 200)]
    bootstrap: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the table as CSV here.
    #[arg(long)]
    csv: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum Group {
    /// The mover's recorded rating (an engine point's set Elo).
    Rating,
    /// The mover's 200-point band.
    Band,
    /// Each input file.
    File,
    /// Everything together.
    All,
}

/// Runs a parsed `sparring strength ipr` command.
pub fn run(cli: IprCli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Calibrate { oracle, reference, every, offset, consistency, strata, shallow_split, out } => {
            let opts = CalibrateOptions { every, offset, consistency, strata, shallow_split };
            calibrate(&oracle, reference.as_deref(), &opts, &out)
        }
        Cmd::Pgn(a) => rate_pgn(&a),
        Cmd::Rate { files, common, group, every, offset, moves, elo } => {
            rate(&files, &common, &RateOptions { group, every, offset, moves, elo })
        }
    }
}

struct RateOptions {
    group: Group,
    every: usize,
    offset: usize,
    moves: Option<PathBuf>,
    elo: Option<u32>,
}

/// A position of a moves file: FEN and, when recorded, the game index.
type AnswerKey = (String, Option<usize>);

/// Replaces each position's played move (and rating) by the engine's answer; positions without
/// an answer are dropped. One position may be answered by several settings (several `elo`s): it
/// is then repeated once per setting; a setting's repeated answer counts once (the last).
fn apply_answers(
    positions: Vec<OraclePosition>,
    path: &Path,
    default_elo: Option<u32>,
) -> Result<Vec<OraclePosition>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut answers: BTreeMap<AnswerKey, Vec<(Option<u32>, String)>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let a: Answer = serde_json::from_str(line).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        // A cache may hold the same answer twice (a rerun); one setting answers a position once.
        let list = answers.entry((a.fen, a.game)).or_default();
        list.retain(|(elo, _)| *elo != a.elo);
        list.push((a.elo, a.mv));
    }
    let mut out = Vec::new();
    for p in positions {
        let hit =
            answers.get(&(p.pos.fen.clone(), Some(p.pos.game))).or_else(|| answers.get(&(p.pos.fen.clone(), None)));
        for (elo, mv) in hit.into_iter().flatten() {
            let mut q = p.clone();
            q.pos.human = mv.clone();
            if let Some(e) = elo.or(default_elo) {
                q.pos.rating = e;
            }
            out.push(q);
        }
    }
    Ok(out)
}

/// Eligible decisions of an oracle file, tagged with the file's number; games filtered by
/// `game % every == offset`. Also returns the oracle label and depth of the file.
fn decisions_of(
    path: &Path,
    source: u32,
    every: usize,
    offset: usize,
    shallow: bool,
) -> Result<(Vec<Decision>, String, i32), String> {
    decisions_with(path, source, every, offset, None, None, shallow)
}

fn decisions_with(
    path: &Path,
    source: u32,
    every: usize,
    offset: usize,
    moves: Option<&Path>,
    default_elo: Option<u32>,
    shallow: bool,
) -> Result<(Vec<Decision>, String, i32), String> {
    if every == 0 || offset >= every {
        return Err(format!("--every {every} --offset {offset}: need EVERY >= 1 and OFFSET < EVERY"));
    }
    let mut positions: Vec<OraclePosition> = load_oracle(path)?;
    if let Some(m) = moves {
        positions = apply_answers(positions, m, default_elo)?;
    }
    // Files are in completion order; sort so that every run sees the same decisions in the same order.
    positions.sort_by(|a, b| {
        (a.pos.band, a.pos.game, a.pos.ply, &a.pos.fen).cmp(&(b.pos.band, b.pos.game, b.pos.ply, &b.pos.fen))
    });
    let label = positions.first().map(|p| (p.oracle.clone(), p.depth)).unwrap_or_else(|| ("?".into(), 0));
    for p in &positions {
        if (p.oracle.as_str(), p.depth) != (label.0.as_str(), label.1) {
            return Err(format!(
                "{}: mixes oracles ({} depth {} and {} depth {})",
                path.display(),
                label.0,
                label.1,
                p.oracle,
                p.depth
            ));
        }
    }
    let mut searcher = if shallow { Some(sparring::search::Searcher::new(1)) } else { None };
    let mut ds = Vec::new();
    for p in positions.iter().filter(|p| p.pos.game % every == offset) {
        if let Some(mut d) = Decision::from_position(p, source) {
            if let Some(s) = searcher.as_mut() {
                d.mark_shallow(p, s)?;
            }
            ds.push(d);
        }
    }
    Ok((ds, label.0, label.1))
}

struct CalibrateOptions {
    every: usize,
    offset: usize,
    consistency: Option<f64>,
    strata: String,
    shallow_split: bool,
}

fn calibrate(oracle: &Path, reference: Option<&Path>, o: &CalibrateOptions, out: &Path) -> Result<(), String> {
    let (every, offset, consistency) = (o.every, o.offset, o.consistency);
    let strata = ipr::parse_strata(&o.strata)?;
    if let Some(c) = consistency
        && !(C_RANGE.0..=C_RANGE.1).contains(&c)
    {
        return Err(format!("--consistency {c}: must lie in [{}, {}]", C_RANGE.0, C_RANGE.1));
    }
    let (cal, label, depth) = decisions_of(oracle, 0, every, offset, o.shallow_split)?;
    let ref_path = reference.unwrap_or(oracle);
    let (refs, ref_label, ref_depth) = decisions_of(ref_path, 0, 1, 0, o.shallow_split)?;
    if (ref_label.as_str(), ref_depth) != (label.as_str(), depth) {
        return Err(format!("reference scored by {ref_label} depth {ref_depth}, calibration by {label} depth {depth}"));
    }
    let cal_refs: Vec<&Decision> = cal.iter().collect();
    let ref_refs: Vec<&Decision> = refs.iter().collect();
    let input = ipr::CalibrationInput {
        calibration: &cal_refs,
        reference: &ref_refs,
        reference_path: &ref_path.display().to_string(),
        oracle: &label,
        depth,
        every,
        offset,
        fixed_c: consistency,
        strata: &strata,
        shallow_split: o.shallow_split,
    };
    let model = ipr::calibrate(&input)?;
    for st in &model.strata {
        println!(
            "stratum {} (moves within 50 cp of the best), {} reference decisions",
            st.stratum.label(),
            st.reference_decisions
        );
        println!("  band  decisions  games  mean rating       s       c  projected ASE");
        for b in &st.bands {
            println!(
                "  {:>4}  {:>9}  {:>5}  {:>11.1}  {:>6.4}  {:>6.3}  {:>13.4}",
                b.band, b.decisions, b.games, b.mean_rating, b.s, b.c, b.projected_ase
            );
        }
        println!(
            "  Elo = {:.1} {:+.1} x projected ASE   (R^2 {:.3}, rmse {:.1} Elo over {} bands)",
            st.intercept,
            st.slope,
            st.r2,
            st.rmse,
            st.bands.len()
        );
    }
    let json = serde_json::to_string_pretty(&model).map_err(|e| e.to_string())?;
    std::fs::write(out, json + "\n").map_err(|e| format!("{}: {e}", out.display()))?;
    println!("model written to {}", out.display());
    Ok(())
}

fn load_model(model_path: Option<&Path>) -> Result<IprModel, String> {
    let (name, text) = match model_path {
        Some(p) => (p.display().to_string(), std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))?),
        None => ("the shipped ipr model".to_string(), SHIPPED_MODEL_JSON.to_string()),
    };
    let model: IprModel = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
    if model.format != ipr::MODEL_FORMAT {
        return Err(format!("{name}: format '{}', expected '{}'", model.format, ipr::MODEL_FORMAT));
    }
    Ok(model)
}

/// The model's reference file: its recorded path as given, else (a relative path) under the
/// source tree this binary was built from, so that a run outside the repository root finds it.
fn reference_path(recorded: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(recorded);
    if p.exists() {
        return Ok(p);
    }
    let in_tree = Path::new(env!("SPARRING_REPO")).join(&p);
    if p.is_relative() && in_tree.exists() {
        return Ok(in_tree);
    }
    Err(format!(
        "the model's reference positions {recorded} are not here (nor at {}): unpack them with \
         bench/unpack.sh in the repository, or give --reference",
        in_tree.display()
    ))
}

/// The positions of a PGN's players: every position before a player's move at ply >= 16 with at
/// least two legal moves, at most `per_player` per player taken evenly spaced over the list. Each
/// position carries the mover's PGN rating and band (0 when the game has no Elo tag), so the
/// cache can be rated again by band; the second list gives each position's player index into the
/// returned names. Players are grouped by [`player_key`](crate::common::games::player_key): an
/// anonymous name (`??`) is one player per game side.
fn pgn_positions(
    games: &[crate::common::games::GameRecord],
    only: Option<&str>,
    per_player: usize,
) -> (Vec<String>, Vec<crate::common::scored::SampledPosition>, Vec<usize>) {
    use crate::common::scored::SampledPosition;
    use sparring::board::notation::{fen as fen_of, uci as uci_of};

    let mut by_name: BTreeMap<String, Vec<(usize, u32)>> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        for (ply, &n) in g.legal_counts.iter().enumerate() {
            let (color, name) = (g.mover(ply), g.mover_name(ply));
            if ply < 16 || n < 2 || only.is_some_and(|o| !o.eq_ignore_ascii_case(name)) {
                continue;
            }
            let key = crate::common::games::player_key(name, gi + 1, color);
            by_name.entry(key).or_default().push((gi, ply as u32));
        }
    }
    let names: Vec<String> = by_name.keys().cloned().collect();
    let mut out = Vec::new();
    let mut owner = Vec::new();
    for (idx, plies) in by_name.values().enumerate() {
        let take = plies.len().min(per_player);
        for k in 0..take {
            let (gi, ply) = plies[k * plies.len() / take];
            let g = &games[gi];
            let pos = g.position(ply as usize).expect("sampled plies are inside the game");
            let rating = g.rating(g.mover(ply as usize)).unwrap_or(0);
            out.push(SampledPosition {
                fen: fen_of(&pos),
                human: uci_of(g.moves[ply as usize]),
                rating,
                band: rating / 200 * 200,
                game: gi,
                ply,
            });
            owner.push(idx);
        }
    }
    (names, out, owner)
}

fn rate_pgn(a: &PgnArgs) -> Result<(), String> {
    let c = &a.common;
    let model = load_model(c.model.as_deref())?;
    if model.oracle != "internal" {
        return Err(format!(
            "{}: calibrated with oracle '{}'; `ipr pgn` scores with the internal one",
            c.model.as_deref().map_or("the model".into(), |p| p.display().to_string()),
            model.oracle
        ));
    }
    let games = crate::common::games::read_games(&a.file)?;
    eprintln!("{} games read from {}", games.len(), a.file.display());
    if let Some(note) = crate::common::games::unread_note(&a.file, &games) {
        eprintln!("{note}");
    }
    // `--player` by the one rule of every tool (`games::resolve_player`).
    let player = match &a.player {
        Some(q) => {
            let name = crate::common::games::resolve_player(
                q,
                games.iter().flat_map(|g| [g.white.as_str(), g.black.as_str()]),
            )?;
            let n = games.iter().filter(|g| g.white.trim() == name || g.black.trim() == name).count();
            eprintln!("player '{name}' (--player '{q}'): {n} of {} games", games.len());
            Some(name)
        }
        None => None,
    };
    let (names, positions, owner) = pgn_positions(&games, player.as_deref(), a.per_player);
    if positions.is_empty() {
        return Err(match &a.player {
            Some(p) => format!("no positions of a player named '{p}' after move 8"),
            None => "no positions after move 8".into(),
        });
    }
    let internal = crate::common::oracle::OracleChoice::Internal;
    crate::common::oracle::run(&positions, &a.cache, model.depth, &internal, a.jobs)?;
    // Only the positions of this run, at the model's depth: the cache may hold others.
    // The cache is keyed by FEN and move (`SampledPosition::key`); a position two players share is
    // counted for the first of them.
    let mut wanted: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (p, &who) in positions.iter().zip(&owner) {
        wanted.entry(p.key()).or_insert(who);
    }
    let (refs, _, _) = load_reference(&model, c.reference.as_deref())?;
    let ref_refs: Vec<&Decision> = refs.iter().collect();
    let mut searcher = if model.shallow_split { Some(sparring::search::Searcher::new(1)) } else { None };
    let mut per: BTreeMap<usize, Vec<Decision>> = BTreeMap::new();
    let mut seen = std::collections::HashSet::new();
    for p in load_oracle(&a.cache)? {
        let Some(&who) = wanted.get(&p.pos.key()) else { continue };
        if p.depth != model.depth || !seen.insert((who, p.pos.game, p.pos.ply)) {
            continue;
        }
        if let Some(mut d) = Decision::from_position(&p, 0) {
            if let Some(s) = searcher.as_mut() {
                d.mark_shallow(&p, s)?;
            }
            per.entry(who).or_default().push(d);
        }
    }
    let mut rows = Vec::new();
    println!("player                      decisions  games  mean loss     ASE     Elo  95 % interval");
    for (idx, ds) in &per {
        let refs: Vec<&Decision> = ds.iter().collect();
        match ipr::rate(&names[*idx], &refs, &ref_refs, &model, c.bootstrap, c.seed) {
            Ok(r) => {
                println!(
                    "{:<27} {:>9}  {:>5}  {:>9.1}  {:>6.4}  {:>6.0}  [{:.0}, {:.0}]{}",
                    r.group,
                    r.decisions,
                    r.games,
                    r.mean_loss,
                    r.ase,
                    r.elo,
                    r.elo_lo,
                    r.elo_hi,
                    if r.resampled == "decisions" { "  *" } else { "" }
                );
                rows.push(r);
            }
            Err(e) => eprintln!("skipped: {e}"),
        }
    }
    if let Some(path) = &c.csv {
        let mut out = String::from("player,decisions,games,mean_loss,ase,elo,elo_lo,elo_hi\n");
        for r in &rows {
            out += &format!(
                "{},{},{},{:.2},{:.4},{:.1},{:.1},{:.1}\n",
                r.group.replace(',', ";"),
                r.decisions,
                r.games,
                r.mean_loss,
                r.ase,
                r.elo,
                r.elo_lo,
                r.elo_hi
            );
        }
        std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// One stratum's table cell: `Elo ± sd (n)`, or `- (n)` when the stratum had too few decisions
/// to be fitted (never `NaN ± NaN`).
pub fn stratum_cell(st: &ipr::StratumRating) -> String {
    match (st.elo.is_finite(), st.sd.is_finite()) {
        (true, true) => format!("{:>5.0} ± {:<4.0} ({})", st.elo, st.sd, st.decisions),
        (true, false) => format!("{:>5.0} ± -    ({})", st.elo, st.decisions),
        _ => format!("{:>5} {:<6} ({})", "-", "", st.decisions),
    }
}

/// A CSV field: the value with one decimal, empty when not finite.
fn finite(x: f64) -> String {
    if x.is_finite() { format!("{x:.1}") } else { String::new() }
}

/// The reference decisions for `model` (the path it records unless overridden), with a warning
/// when they are not the ones it was calibrated on. Also returns their oracle label and depth.
fn load_reference(model: &IprModel, reference: Option<&Path>) -> Result<(Vec<Decision>, String, i32), String> {
    let ref_path = match reference {
        Some(r) => r.to_path_buf(),
        None => reference_path(&model.reference.path)?,
    };
    let (refs, label, depth) = decisions_of(&ref_path, 0, 1, 0, model.shallow_split)?;
    let ref_refs: Vec<&Decision> = refs.iter().collect();
    if refs.len() != model.reference.decisions || ipr::checksum(&ref_refs) != model.reference.checksum {
        eprintln!(
            "warning: reference {} ({} decisions) is not the one the model was calibrated on ({} decisions, {}): Elo values shift",
            ref_path.display(),
            refs.len(),
            model.reference.path,
            model.reference.decisions
        );
    }
    Ok((refs, label, depth))
}

fn rate(files: &[PathBuf], c: &RatingArgs, o: &RateOptions) -> Result<(), String> {
    let model = load_model(c.model.as_deref())?;
    let (refs, ref_label, ref_depth) = load_reference(&model, c.reference.as_deref())?;
    let ref_refs: Vec<&Decision> = refs.iter().collect();
    let mut all = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let (ds, label, depth) =
            decisions_with(f, i as u32, o.every, o.offset, o.moves.as_deref(), o.elo, model.shallow_split)?;
        if (label.as_str(), depth) != (model.oracle.as_str(), model.depth)
            || (ref_label.as_str(), ref_depth) != (label.as_str(), depth)
        {
            eprintln!(
                "warning: {} was scored by {label} depth {depth}; the model by {} depth {}",
                f.display(),
                model.oracle,
                model.depth
            );
        }
        all.extend(ds);
    }
    let mut groups: BTreeMap<(u32, String), Vec<&Decision>> = BTreeMap::new();
    for d in &all {
        let key = match o.group {
            Group::Rating => (d.rating, d.rating.to_string()),
            Group::Band => (d.band, format!("{}-{}", d.band, d.band + 199)),
            Group::File => (d.game.0, files[d.game.0 as usize].display().to_string()),
            Group::All => (0, "all".into()),
        };
        groups.entry(key).or_default().push(d);
    }
    let mut rows = Vec::new();
    let labels: Vec<String> = model.strata.iter().map(|st| st.stratum.label()).collect();
    print!("group            decisions  games  recorded  mean loss     ASE     Elo  95 % interval  ");
    println!("{}", labels.iter().map(|l| format!("  [{l}] Elo ± sd (n)")).collect::<String>());
    for ((_, name), ds) in &groups {
        match ipr::rate(name, ds, &ref_refs, &model, c.bootstrap, c.seed) {
            Ok(r) => {
                print!(
                    "{:<16} {:>9}  {:>5}  {:>8.0}  {:>9.1}  {:>6.4}  {:>6.0}  [{:.0}, {:.0}]",
                    r.group, r.decisions, r.games, r.recorded, r.mean_loss, r.ase, r.elo, r.elo_lo, r.elo_hi
                );
                for st in &r.strata {
                    print!("   {}", stratum_cell(st));
                }
                println!("{}", if r.resampled == "decisions" { "  *" } else { "" });
                rows.push(r);
            }
            Err(e) => eprintln!("skipped: {e}"),
        }
    }
    if let Some(path) = &c.csv {
        let mut out = String::from("group,decisions,games,recorded,mean_loss,ase,elo,elo_lo,elo_hi");
        for l in &labels {
            out += &format!(",elo_{l},sd_{l},n_{l}");
        }
        out += "\n";
        for r in &rows {
            out += &format!(
                "{},{},{},{:.1},{:.2},{:.4},{:.1},{:.1},{:.1}",
                r.group, r.decisions, r.games, r.recorded, r.mean_loss, r.ase, r.elo, r.elo_lo, r.elo_hi
            );
            for st in &r.strata {
                out += &format!(",{},{},{}", finite(st.elo), finite(st.sd), st.decisions);
            }
            out += "\n";
        }
        std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

//! `sparring calibrate fit`: fits the `UCI_Elo` ladder to people (issue 6).
//!
//! For each 200-point band the positions of that band are searched once per candidate node budget
//! with the band's school of evaluation terms, every root move scored (as the player does). Every
//! candidate choice policy (Boltzmann λ, slip probability and gate) is then replayed on those scores
//! with the player's own seeded RNG, and compared with the humans of the band on the oracle's cp
//! losses: mean loss (target ±10 %), Kolmogorov–Smirnov distance (target ≤ 0.08) and the rate of
//! playing the human's move. A dynamic programme picks one candidate per band so that the ladder
//! stays monotone (budget and λ never fall, slips never rise with Elo) and the summed objective
//! is smallest. The result is written as a ladder file and a CSV of the chosen settings.

use crate::common::bands::{LossSummary, ks_distance};
use crate::common::scored::{OraclePosition, read_jsonl};
use sparring::board::Game;
use sparring::board::notation::uci as uci_of;
use sparring::player::{MoveRequest, Searchers};
use sparring::policy::{self, ChoiceSettings};
use sparring::profile::School;
use sparring::search::{Control, Limits, Request, RootMove, Searcher, Silent};
use sparring::seed;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// Node budgets tried, weakest first: (nodes, depth cap).
pub const BUDGETS: [(u64, Option<i32>); 8] = [
    (1500, Some(1)),
    (1500, Some(2)),
    (2000, None),
    (5000, None),
    (12000, None),
    (30000, None),
    (80000, None),
    (200000, None),
];
/// Budgets above this many nodes are only searched for bands from `BIG_BUDGET_MIN_BAND` up.
pub const BIG_BUDGET_NODES: u64 = 30_000;
pub const BIG_BUDGET_MIN_BAND: u32 = 1800;
pub const LAMBDAS: [f64; 10] = [1.5, 2.0, 3.0, 4.0, 5.5, 7.5, 10.0, 14.0, 20.0, 30.0];
pub const SLIP_P: [f64; 9] = [0.0, 0.02, 0.04, 0.07, 0.10, 0.14, 0.19, 0.25, 0.32];
pub const GATES: [(i32, i32); 4] = [(40, 250), (60, 400), (100, 700), (150, 1200)];
/// Tolerances of the acceptance criteria.
pub const MEAN_TOLERANCE: f64 = 0.10;
pub const KS_TOLERANCE: f64 = 0.08;
/// Below this fraction of the tolerances the fit stops improving the error and maximises the
/// move-match rate instead.
pub const COMFORT: f64 = 0.7;

/// What a model of a point's choice expects on a set of its decisions: the mean loss (cp, capped
/// at [`crate::common::quality::LOSS_CAP`]) against the humans' on the same positions, the KS distance of the
/// two loss distributions, and the chance of playing the human's move. `model fit`, `prior fit`
/// and `model repair` judge settings by it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expected {
    pub n: usize,
    pub mean: f64,
    pub human_mean: f64,
    pub ks: f64,
    pub match_rate: f64,
    /// The expected rate of blunders (an uncapped loss of at least
    /// [`crate::common::quality::BLUNDER_CP`]) and the humans' rate on the same decisions; 0 where
    /// the caller does not measure them.
    pub blunder: f64,
    pub human_blunder: f64,
}

impl Expected {
    /// The mean loss's error against the humans', as a fraction of theirs.
    pub fn error(&self) -> f64 {
        (self.mean - self.human_mean) / self.human_mean.max(1.0)
    }
    /// Distance to the acceptance limits (1 = at a limit), as `calibrate fit` measures it.
    pub fn cost(&self) -> f64 {
        (self.error().abs() / MEAN_TOLERANCE).max(self.ks / KS_TOLERANCE)
    }

    /// The expectation over decisions, each given as (the probability of every root move, their
    /// losses, the index of the human's move, the human's loss).
    pub fn over<'a>(decisions: impl Iterator<Item = (Vec<f64>, &'a [i32], usize, i32)>) -> Expected {
        let cap = crate::common::quality::LOSS_CAP;
        let size = cap as usize + 1;
        let (mut ours, mut theirs) = (vec![0.0; size], vec![0.0; size]);
        let (mut n, mut mean, mut human_mean, mut matched) = (0usize, 0.0, 0.0, 0.0);
        for (p, loss, human, human_loss) in decisions {
            for (pi, &l) in p.iter().zip(loss) {
                mean += pi * f64::from(l);
                ours[l.clamp(0, cap) as usize] += pi;
            }
            matched += p[human];
            human_mean += f64::from(human_loss);
            theirs[human_loss.clamp(0, cap) as usize] += 1.0;
            n += 1;
        }
        if n == 0 {
            return Expected::default();
        }
        let nf = n as f64;
        let (mut fm, mut fh, mut ks) = (0.0, 0.0, 0.0f64);
        for (a, b) in ours.iter().zip(&theirs) {
            fm += a / nf;
            fh += b / nf;
            ks = ks.max((fm - fh).abs());
        }
        Expected {
            n,
            mean: mean / nf,
            human_mean: human_mean / nf,
            ks,
            match_rate: matched / nf,
            ..Expected::default()
        }
    }
}
/// Seed of the fit's decisions (the check afterwards uses other seeds).
pub const FIT_SEED: u64 = 20_261_129;

#[derive(Clone, Debug)]
pub struct Candidate {
    pub budget: usize,
    pub choice: ChoiceSettings,
    pub mean: f64,
    pub ks: f64,
    pub match_rate: f64,
    pub objective: f64,
}

struct BandData {
    human_losses: Vec<i32>,
    human_mean: f64,
    /// Per budget, per position: the scored root moves.
    roots: Vec<Vec<Vec<RootMove>>>,
    positions: Vec<OraclePosition>,
}

fn search_band(positions: &[OraclePosition], band: u32) -> Vec<Vec<Vec<RootMove>>> {
    let mut s = Searcher::new(sparring::player::WEAK_HASH_MB);
    let cfg = School::for_elo(band as i32 + 100).eval_config();
    let control = Control::default();
    BUDGETS
        .iter()
        .map(|&(nodes, depth)| {
            if nodes > BIG_BUDGET_NODES && band < BIG_BUDGET_MIN_BAND {
                return Vec::new();
            }
            positions
                .iter()
                .map(|p| {
                    let Ok(chess) = p.chess() else { return Vec::new() };
                    s.clear();
                    let limits =
                        Limits { nodes: Some(nodes), depth, multipv: usize::MAX, min_depth: 1, ..Default::default() };
                    let request = Request { limits, eval: cfg.clone(), ..Default::default() };
                    s.search(&Game::new(chess), &request, &control, &mut Silent).root_moves
                })
                .collect()
        })
        .collect()
}

fn evaluate(data: &BandData, budget: usize, choice: &ChoiceSettings) -> Candidate {
    let mut losses = Vec::with_capacity(data.positions.len());
    let mut matches = 0usize;
    for (p, root) in data.positions.iter().zip(&data.roots[budget]) {
        if root.is_empty() {
            continue;
        }
        let Ok(chess) = p.chess() else { continue };
        let mut rng = seed::decision_rng_for(FIT_SEED, &chess, seed::tags::CHOICE);
        let mv = uci_of(policy::choose(root, choice, &mut rng).mv);
        losses.push(p.loss(&mv).unwrap_or(300));
        matches += usize::from(mv == p.pos.human);
    }
    let mean = LossSummary::of(&losses).mean_loss;
    let ks = ks_distance(&losses, &data.human_losses);
    let match_rate = matches as f64 / losses.len().max(1) as f64;
    let cost = ((mean - data.human_mean).abs() / data.human_mean / MEAN_TOLERANCE).max(ks / KS_TOLERANCE);
    Candidate { budget, choice: choice.clone(), mean, ks, match_rate, objective: cost.max(COMFORT) - match_rate }
}

fn candidates(data: &BandData) -> Vec<Candidate> {
    let mut out = Vec::new();
    for budget in 0..BUDGETS.len() {
        if data.roots[budget].is_empty() {
            continue;
        }
        for &lambda in &LAMBDAS {
            for &p in &SLIP_P {
                for &(lo, hi) in if p == 0.0 { &GATES[..1] } else { &GATES[..] } {
                    let choice = ChoiceSettings {
                        plateau_cp: 0,
                        lambda: Some(lambda),
                        slip_p: p,
                        slip_min_cp: lo,
                        slip_max_cp: hi,
                        boltzmann_max_cp: None,
                        slip_tilt: 0.0,
                    };
                    out.push(evaluate(data, budget, &choice));
                }
            }
        }
    }
    out
}

/// May `hi` sit at the next band up from `lo`?
fn monotone(lo: &Candidate, hi: &Candidate) -> bool {
    lo.budget <= hi.budget
        && lo.choice.lambda <= hi.choice.lambda
        && lo.choice.slip_p >= hi.choice.slip_p
        && (hi.choice.slip_p == 0.0
            || (lo.choice.slip_min_cp >= hi.choice.slip_min_cp && lo.choice.slip_max_cp >= hi.choice.slip_max_cp))
}

/// Picks one candidate per band (bands ascending) minimising the summed objective under `monotone`.
fn choose_path(per_band: &[Vec<Candidate>]) -> Vec<Candidate> {
    let n = per_band.len();
    let mut cost: Vec<Vec<f64>> = per_band.iter().map(|c| vec![f64::INFINITY; c.len()]).collect();
    let mut back: Vec<Vec<usize>> = per_band.iter().map(|c| vec![usize::MAX; c.len()]).collect();
    for (j, c) in per_band[0].iter().enumerate() {
        cost[0][j] = c.objective;
    }
    for b in 1..n {
        for (j, c) in per_band[b].iter().enumerate() {
            for (i, p) in per_band[b - 1].iter().enumerate() {
                if cost[b - 1][i].is_finite() && monotone(p, c) {
                    let v = cost[b - 1][i] + c.objective;
                    if v < cost[b][j] {
                        cost[b][j] = v;
                        back[b][j] = i;
                    }
                }
            }
        }
    }
    let mut j = (0..per_band[n - 1].len()).min_by(|&a, &b| cost[n - 1][a].total_cmp(&cost[n - 1][b])).unwrap_or(0);
    let mut path = vec![per_band[n - 1][j].clone()];
    for b in (1..n).rev() {
        j = back[b][j];
        path.push(per_band[b - 1][j].clone());
    }
    path.reverse();
    path
}

/// Runs the fit; writes the ladder to `ladder_out` and a CSV report to `csv_out`.
pub fn run(
    oracle: &Path,
    per_band: usize,
    version: u32,
    ladder_out: &Path,
    csv_out: &Path,
    jobs: usize,
) -> Result<(), String> {
    let all: Vec<OraclePosition> = read_jsonl(oracle)?;
    let mut by_band: BTreeMap<u32, Vec<OraclePosition>> = BTreeMap::new();
    let mut held_out: BTreeMap<u32, Vec<OraclePosition>> = BTreeMap::new();
    for p in all.into_iter().filter(OraclePosition::is_eligible) {
        let v = by_band.entry(p.pos.band).or_default();
        if v.len() < per_band {
            v.push(p);
        } else {
            held_out.entry(p.pos.band).or_default().push(p);
        }
    }
    let bands: Vec<(u32, Vec<OraclePosition>)> = by_band.into_iter().collect();
    eprintln!("fit: {} bands, searching {} budgets per position", bands.len(), BUDGETS.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results: std::sync::Mutex<BTreeMap<u32, Vec<Candidate>>> = Default::default();
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some((band, positions)) = bands.get(i) else { break };
                    let human_losses: Vec<i32> =
                        positions.iter().map(|p| p.loss(&p.pos.human).unwrap_or(300)).collect();
                    let data = BandData {
                        human_mean: LossSummary::of(&human_losses).mean_loss.max(1.0),
                        human_losses,
                        roots: search_band(positions, *band),
                        positions: positions.clone(),
                    };
                    let c = candidates(&data);
                    eprintln!(
                        "fit: band {band} done ({} positions, human mean {:.1})",
                        positions.len(),
                        data.human_mean
                    );
                    results.lock().unwrap().insert(*band, c);
                }
            });
        }
    });
    let results = results.into_inner().unwrap();
    let band_list: Vec<u32> = results.keys().copied().collect();
    let per_band: Vec<Vec<Candidate>> = results.into_values().collect();
    let path = choose_path(&per_band);

    let mut csv =
        String::from("band,elo,nodes,depth,lambda,slip_p,slip_min_cp,slip_max_cp,mean_loss,ks,match_rate,objective\n");
    let mut toml = format!(
        "# The UCI_Elo ladder, fitted to people (issue 6): each point errs like the FICS players of its\n\
         # 200-point band, on positions from their games (bench/humanlike/), scored by the internal\n\
         # oracle. Written by `sparring calibrate fit` (src/humanlike/fit.rs); see\n\
         # bench/results/humanlike-report.md. Frozen: any change needs a new version and a manifest entry.\n\
         name = \"ladder\"\nversion = {version}\n\
         description = \"Human-fitted UCI_Elo ladder 800-2400 (FICS blitz bands), Boltzmann choice with regret-gated slips, four schools.\"\n\
         tablebases_from_elo = 2000\n"
    );
    let mut points: Vec<(i32, &Candidate, String)> = Vec::new();
    for (band, c) in band_list.iter().zip(&path) {
        points.push((*band as i32 + 100, c, band.to_string()));
    }
    // The ends of the calibrated span take the settings of the outermost bands.
    if let (Some(first), Some(last)) = (points.first().cloned(), points.last().cloned()) {
        points.insert(0, (first.0 - 100, first.1, "end".into()));
        points.push((last.0 + 100, last.1, "end".into()));
    }
    for (elo, c, band) in &points {
        let (nodes, depth) = BUDGETS[c.budget];
        let _ = writeln!(
            csv,
            "{band},{elo},{nodes},{},{:.2},{:.3},{},{},{:.1},{:.4},{:.4},{:.4}",
            depth.map_or(String::new(), |d| d.to_string()),
            c.choice.lambda.unwrap_or(0.0),
            c.choice.slip_p,
            c.choice.slip_min_cp,
            c.choice.slip_max_cp,
            c.mean,
            c.ks,
            c.match_rate,
            c.objective
        );
        let _ = write!(toml, "\n[[point]]\nelo = {elo}\nnodes = {nodes}\n");
        if let Some(d) = depth {
            let _ = writeln!(toml, "depth = {d}");
        }
        let _ = write!(
            toml,
            "plateau_cp = 0\nlambda = {:.2}\nslip_p = {:.3}\nslip_min_cp = {}\nslip_max_cp = {}\n",
            c.choice.lambda.unwrap_or(1.0),
            c.choice.slip_p,
            c.choice.slip_min_cp,
            c.choice.slip_max_cp
        );
    }
    std::fs::write(ladder_out, &toml).map_err(|e| format!("{}: {e}", ladder_out.display()))?;
    std::fs::write(csv_out, csv).map_err(|e| format!("{}: {e}", csv_out.display()))?;

    // Check with the real player and another seed: on every eligible position of each band, and on
    // the positions the fit never saw.
    let ladder =
        sparring::profile::Ladder::parse(&toml).map_err(|e| format!("fitted ladder does not validate: {e}"))?;
    let mut all_positions: BTreeMap<u32, Vec<OraclePosition>> = BTreeMap::new();
    for (band, v) in bands.iter().map(|(b, v)| (*b, v.clone())).chain(held_out.clone()) {
        all_positions.entry(band).or_default().extend(v);
    }
    for (name, set) in [("humanlike-ladder.csv", &all_positions), ("humanlike-ladder-heldout.csv", &held_out)] {
        let path = csv_out.with_file_name(name);
        std::fs::write(&path, verify(&ladder, set)).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// `sparring calibrate check`: the ladder in `ladder_file` at `points` (band:elo pairs; empty = each
/// band's middle) on the eligible positions of those bands, less the first `skip_first` of each
/// (a held-out check after `fit --per-band skip_first`); CSV to `out`, and with `moves_out` every
/// chosen move as JSON lines (`fen`, `band`, `game`, `elo`, `mv`) for paired comparisons.
pub fn check(
    oracle: &Path,
    ladder_file: &Path,
    points: &[(u32, i32)],
    skip_first: usize,
    out: &Path,
    run: &CheckRun,
) -> Result<(), String> {
    let CheckRun { moves_out, seed, history } = *run;
    let text = std::fs::read_to_string(ladder_file).map_err(|e| format!("{}: {e}", ladder_file.display()))?;
    let ladder = sparring::profile::Ladder::parse(&text).map_err(|e| format!("{}: {e}", ladder_file.display()))?;
    let all: Vec<OraclePosition> = read_jsonl(oracle)?;
    let mut sets: BTreeMap<u32, Vec<OraclePosition>> = BTreeMap::new();
    for p in all.into_iter().filter(OraclePosition::is_eligible) {
        sets.entry(p.pos.band).or_default().push(p);
    }
    for v in sets.values_mut() {
        v.drain(..skip_first.min(v.len()));
    }
    // With the games: computer accounts out, optionally only the model's test part, and each
    // position replayed so the player knows the move that led to it.
    let games = match history {
        Some((pgn, test_only)) => {
            let games = crate::common::games::read_games(pgn)?;
            for v in sets.values_mut() {
                v.retain(|p| {
                    let Some(g) = games.get(p.pos.game) else { return false };
                    let name = g.mover_name(p.pos.ply as usize);
                    !crate::common::games::is_computer(name)
                        && (!test_only
                            || crate::common::split::part_of_index(p.pos.game) == crate::common::split::Part::Test)
                });
            }
            Some(games)
        }
        None => None,
    };
    let games = games.as_deref();
    sets.retain(|_, v| !v.is_empty());
    let mut moves = Vec::new();
    let report = if points.is_empty() {
        verify_recording(&ladder, &sets, |band| band as i32 + 100, &mut moves, seed, games)
    } else {
        let mut report = String::new();
        for &(band, elo) in points {
            let one: BTreeMap<u32, Vec<OraclePosition>> =
                sets.get(&band).map(|v| (band, v.clone())).into_iter().collect();
            let part = verify_recording(&ladder, &one, |_| elo, &mut moves, seed, games);
            if report.is_empty() {
                report = part;
            } else {
                report.extend(part.lines().skip(1).map(|l| format!("{l}\n")));
            }
        }
        report
    };
    // The table first: a bad --moves-out path must not cost the measurement.
    std::fs::write(out, report).map_err(|e| format!("{}: {e}", out.display()))?;
    if let Some(path) = moves_out {
        let mut text = String::new();
        for m in &moves {
            let _ = writeln!(text, "{}", serde_json::to_string(m).map_err(|e| e.to_string())?);
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// How `check` runs: where the chosen moves go, the players' seed, and the games the positions come
/// from (with whether to keep only the human move model's test part).
#[derive(Clone, Copy)]
pub struct CheckRun<'a> {
    pub moves_out: Option<&'a Path>,
    pub seed: u64,
    pub history: Option<(&'a Path, bool)>,
}

/// One move a ladder point chose in `check` (`--moves-out`).
#[derive(serde::Serialize)]
pub struct CheckedMove {
    pub fen: String,
    pub band: u32,
    pub game: usize,
    pub elo: i32,
    pub mv: String,
}

/// Per-band numbers of the ladder's points (at each band's middle) against the humans.
pub fn verify(ladder: &sparring::profile::Ladder, sets: &BTreeMap<u32, Vec<OraclePosition>>) -> String {
    verify_at(ladder, sets, |band| band as i32 + 100)
}

/// Per-band numbers of the ladder at `elo_of(band)` against the humans of the band.
pub fn verify_at(
    ladder: &sparring::profile::Ladder,
    sets: &BTreeMap<u32, Vec<OraclePosition>>,
    elo_of: impl Fn(u32) -> i32,
) -> String {
    verify_recording(ladder, sets, elo_of, &mut Vec::new(), VERIFY_SEED, None)
}

/// `verify_at`, also appending every chosen move to `moves`.
fn verify_recording(
    ladder: &sparring::profile::Ladder,
    sets: &BTreeMap<u32, Vec<OraclePosition>>,
    elo_of: impl Fn(u32) -> i32,
    moves: &mut Vec<CheckedMove>,
    seed: u64,
    games: Option<&[crate::common::games::GameRecord]>,
) -> String {
    let mut report = String::from(
        "band,elo,n,mean_loss,human_mean_loss,mean_error_pct,ks,match_rate,human_top_rate,top_rate,rate50,human_rate50,rate100,human_rate100,rate300,human_rate300,scaled,human_scaled\n",
    );
    for (band, positions) in sets {
        let elo = elo_of(*band);
        let player = sparring::player::Player {
            setting: sparring::player::Setting::Level(ladder.at(elo)),
            avatar: sparring::profile::Avatar::neutral(),
        };
        let mut searchers = Searchers::new(1);
        let control = Control::default();
        let stats = crate::common::bands::measure_with(positions, |p| {
            let chess = p.chess().expect("oracle positions are legal");
            let game = match games.and_then(|g| g.get(p.pos.game)) {
                Some(g) if p.pos.ply as usize <= g.moves.len() => {
                    Game::with_moves(g.root.clone(), &g.moves[..p.pos.ply as usize])
                }
                _ => Game::new(chess),
            };
            let mv =
                player.decide_weak(&mut searchers, &MoveRequest::new(&game, seed), &control).mv.expect("a legal move");
            moves.push(CheckedMove { fen: p.pos.fen.clone(), band: p.pos.band, game: p.pos.game, elo, mv: uci_of(mv) });
            mv
        });
        for b in stats {
            let (s, h) = (&b.setting, &b.human);
            let err = 100.0 * (s.mean_loss - h.mean_loss) / h.mean_loss.max(1.0);
            let _ = writeln!(
                report,
                "{},{elo},{},{:.1},{:.1},{:.1},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4}",
                b.band,
                b.n,
                s.mean_loss,
                h.mean_loss,
                err,
                b.ks,
                b.match_rate,
                b.human_top_rate,
                b.top_rate,
                s.rate50,
                h.rate50,
                s.rate100,
                h.rate100,
                s.rate300,
                h.rate300,
                s.mean_scaled,
                h.mean_scaled
            );
            eprintln!(
                "check: band {} n {} mean {:.1} vs humans {:.1} ({err:+.1} %), KS {:.3}, match {:.3}",
                b.band, b.n, s.mean_loss, h.mean_loss, b.ks, b.match_rate
            );
        }
    }
    report
}

/// Seed of the check (different from the fit's); `check --seed` overrides it.
pub const VERIFY_SEED: u64 = 777;

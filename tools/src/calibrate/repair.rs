//! `sparring calibrate repair`: walks a fitted ladder's self-play steps into their windows.
//!
//! `model fit` chooses the points in Elo order, each against the fitted point below, and its
//! self-play half only moves the upper point's λ. A step it leaves outside the Elo formula's window
//! is often better mended by moving the lower point, or by a slip rate (ladder v14 was made from v13
//! that way by hand). This command does that search:
//! 1. every step between neighbouring points of the chain is played;
//! 2. the step farthest outside its window is taken; too low: its upper point one notch stronger or
//!    its lower point one notch weaker; too high: the reverse;
//! 3. a notch is the next slip rate of the fit's grid ([`SLIPS`]; slips fall with Elo, so a point's
//!    rate stays between its neighbours'), the next λ of the grid ([`LAMBDAS`]; larger λ plays
//!    stronger) or, for a v7 point with `--model-offsets`, the next rating input of the human move
//!    model among the offsets given (a higher input plays stronger: ladder v21's 1700 at input
//!    1689 instead of 1463 scored 68.2 % instead of 59.2 % against 1500); each is a candidate;
//! 4. a candidate is allowed only while the point stays inside the per-move limits on its band's fit
//!    part (mean loss within ±[`MEAN_TOLERANCE`] of the humans' curve at its Elo, or of its band's
//!    people with `--mean-target band`; KS ≤ [`KS_TOLERANCE`]), by the second oracle too where one
//!    is given (`--also-oracle`, as in `model fit`); the allowed ones are tried smallest per-move
//!    error first;
//! 5. the moved point's steps are played again; the move is kept when the sum of those steps'
//!    distances outside their windows falls, and is otherwise undone and not tried again while
//!    the point's neighbours keep their settings (a neighbour that moves changes the steps that
//!    judged it).
//!
//! It stops when every step is inside its window, when no candidate is left, or after the most
//! trials allowed. The per-move limits are never traded for a step. With `--margin M` a step
//! counts as inside only M percentage points inside its window: the steps a repair keeps were
//! chosen on one match seed and score less on another, so ending at the window's edge is not enough.
//!
//! Every step played is recorded in the work folder (`repair-N.toml`, `repair-N.result.json`, its
//! games in `repair-N.pgn`); a run started again with the same folder takes the steps it finds
//! there with the same points, match settings and search, so a stopped repair resumes where it was.

use super::fit::{KS_TOLERANCE, MEAN_TOLERANCE};
use super::model_fit::{
    Expected, LAMBDAS, PointFit, PointGrid, SLIPS, Setting3, Target, Targets, curve_targets, fit_point, with_point,
};
use super::steps;
use crate::common::scored::OraclePosition;
use crate::common::split::Part;
use sparring::profile::Ladder;
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// One point of the chain and its current setting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    pub elo: i32,
    pub setting: Setting3,
}

/// What the search asks about the points: their per-move figures and their games.
pub trait Judge {
    /// The expected per-move figures of `chain[i]` with setting `s` on its band's fit part.
    fn per_move(&mut self, i: usize, s: &Setting3) -> Expected;
    /// The match of `chain[upper]` against `chain[upper - 1]`, both as `chain` has them.
    fn step(&mut self, chain: &[Link], upper: usize) -> Result<steps::StepResult, String>;
    /// The same figures by a second oracle, where one binds the point's limits (None: none does).
    fn per_move_second(&mut self, _i: usize, _s: &Setting3) -> Option<Expected> {
        None
    }
    /// The model rating offsets `chain[i]` may take, ascending, 0 among them (empty: none but its own).
    fn model_offsets(&self, _i: usize) -> &[f64] {
        &[]
    }
}

/// How far a score lies outside what its gap asks (0 inside), as [`steps::StepResult::passes`]
/// judges it: the Elo formula's window 200 points apart or more, over 50 % closer than that;
/// with a `margin` (percentage points) the window narrowed by it on each side.
pub fn outside(score: f64, gap: i32, margin: f64) -> f64 {
    if gap < 200 {
        let floor = 50.0 + margin;
        return if score > floor { 0.0 } else { floor - score + 0.1 };
    }
    let (lo, hi) = steps::step_range(gap);
    (lo + margin - score).max(score - (hi - margin)).max(0.0)
}

/// Whether a point's per-move figures are inside the limits.
fn allowed(e: &Expected) -> bool {
    e.error().abs() <= MEAN_TOLERANCE + 1e-12 && e.ks <= KS_TOLERANCE + 1e-12
}

/// The slip rates the chain's ends may not pass: the ladder's point below the chain slips at least
/// as often as the chain's lowest point, the one above it at most as often as the highest.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub most: f64,
    pub least: f64,
}

/// The settings one notch stronger (or weaker) than `chain[i]`'s: the next slip rate of the grid
/// that keeps slips falling with Elo, the next λ of the grid, and the next of the model rating
/// `offsets` (ascending; a higher input is stronger).
pub fn notches(chain: &[Link], bounds: Bounds, i: usize, stronger: bool, offsets: &[f64]) -> Vec<Setting3> {
    let s = chain[i].setting;
    let most = if i > 0 { chain[i - 1].setting.slip_p } else { bounds.most };
    let least = chain.get(i + 1).map_or(bounds.least, |p| p.setting.slip_p);
    let eps = 1e-9;
    let slip = if stronger {
        SLIPS.iter().rev().copied().find(|&x| x < s.slip_p - eps && x >= least - eps)
    } else {
        SLIPS.iter().copied().find(|&x| x > s.slip_p + eps && x <= most + eps)
    };
    let lambda = if stronger {
        LAMBDAS.iter().copied().find(|&l| l > s.lambda + eps)
    } else {
        LAMBDAS.iter().rev().copied().find(|&l| l < s.lambda - eps)
    };
    let offset = if stronger {
        offsets.iter().copied().find(|&o| o > s.model_offset + eps)
    } else {
        offsets.iter().rev().copied().find(|&o| o < s.model_offset - eps)
    };
    slip.map(|x| Setting3 { slip_p: x, ..s })
        .into_iter()
        .chain(lambda.map(|l| Setting3 { lambda: l, ..s }))
        .chain(offset.map(|o| Setting3 { model_offset: o, ..s }))
        .collect()
}

/// One trial of the search, for the log.
#[derive(Clone, Debug)]
pub struct Trial {
    pub elo: i32,
    pub from: Setting3,
    pub to: Setting3,
    /// The point's per-move error (fraction) and KS on the fit part with the new setting.
    pub error: f64,
    pub ks: f64,
    /// The same by the second oracle, where one binds.
    pub second: Option<(f64, f64)>,
    /// The steps played again: (higher, lower, score).
    pub steps: Vec<(i32, i32, f64)>,
    pub kept: bool,
}

/// What the search ends with: the steps of the final chain and the trials.
pub struct Outcome {
    pub steps: Vec<steps::StepResult>,
    pub trials: Vec<Trial>,
}

fn key(s: &Setting3) -> [u64; 5] {
    [s.lambda.to_bits(), s.beta.to_bits(), s.slip_p.to_bits(), s.deep_p.to_bits(), s.model_offset.to_bits()]
}

/// Repairs `chain` in place (see the module documentation); at most `max_trials` moves are tried.
/// A step counts as inside only `margin` percentage points inside its window (0: the window).
pub fn repair(
    chain: &mut [Link],
    bounds: Bounds,
    judge: &mut impl Judge,
    max_trials: usize,
    margin: f64,
    mut on_trial: impl FnMut(&Trial),
) -> Result<Outcome, String> {
    let n = chain.len();
    let mut result: HashMap<usize, steps::StepResult> = HashMap::new();
    for upper in 1..n {
        result.insert(upper, judge.step(chain, upper)?);
    }
    let score = |result: &HashMap<usize, steps::StepResult>, u: usize| result[&u].score;
    let gap = |chain: &[Link], upper: usize| chain[upper].elo - chain[upper - 1].elo;
    // A move undone is not tried again while its point's neighbours keep their settings (their
    // steps are what judged it); once a neighbour moves, it may be tried again.
    let mut rejected: HashSet<(usize, [u64; 5], [[u64; 5]; 2])> = HashSet::new();
    let context = |chain: &[Link], i: usize| {
        let at = |j: Option<usize>| j.and_then(|j| chain.get(j)).map_or([0; 5], |l| key(&l.setting));
        [at(i.checked_sub(1)), at(Some(i + 1))]
    };
    let mut trials = Vec::new();
    'search: while trials.len() < max_trials {
        // Failing steps, farthest outside first.
        let mut failing: Vec<(usize, f64)> =
            (1..n).map(|u| (u, outside(score(&result, u), gap(chain, u), margin))).filter(|&(_, d)| d > 0.0).collect();
        failing.sort_by(|a, b| b.1.total_cmp(&a.1));
        if failing.is_empty() {
            break;
        }
        for &(upper, _) in &failing {
            let low = score(&result, upper) < steps::expected_score(gap(chain, upper));
            // Too low: the upper point stronger or the lower one weaker; too high: the reverse.
            let mut candidates: Vec<(usize, Setting3, Expected, Option<Expected>)> = [(upper, low), (upper - 1, !low)]
                .into_iter()
                .flat_map(|(i, stronger)| {
                    notches(chain, bounds, i, stronger, judge.model_offsets(i)).into_iter().map(move |s| (i, s))
                })
                .collect::<Vec<_>>()
                .into_iter()
                .filter(|(i, s)| !rejected.contains(&(*i, key(s), context(chain, *i))))
                .map(|(i, s)| {
                    let e = judge.per_move(i, &s);
                    let e2 = judge.per_move_second(i, &s);
                    (i, s, e, e2)
                })
                .filter(|(_, _, e, e2)| allowed(e) && e2.as_ref().is_none_or(allowed))
                .collect();
            candidates.sort_by(|a, b| {
                a.2.error().abs().total_cmp(&b.2.error().abs()).then(b.2.match_rate.total_cmp(&a.2.match_rate))
            });
            let Some(&(i, s, e, e2)) = candidates.first() else { continue };
            let from = chain[i].setting;
            let affected: Vec<usize> = [i, i + 1].into_iter().filter(|&u| u >= 1 && u < n).collect();
            let before: f64 = affected.iter().map(|&u| outside(score(&result, u), gap(chain, u), margin)).sum();
            chain[i].setting = s;
            let mut played = Vec::new();
            for &u in &affected {
                played.push((u, judge.step(chain, u)?));
            }
            let after: f64 = played.iter().map(|(u, r)| outside(r.score, gap(chain, *u), margin)).sum();
            let kept = after < before;
            if kept {
                for (u, r) in &played {
                    result.insert(*u, *r);
                }
            } else {
                chain[i].setting = from;
                rejected.insert((i, key(&s), context(chain, i)));
            }
            let trial = Trial {
                elo: chain[i].elo,
                from,
                to: s,
                error: e.error(),
                ks: e.ks,
                second: e2.map(|e2| (e2.error(), e2.ks)),
                steps: played.iter().map(|(_, r)| (r.higher, r.lower, r.score)).collect(),
                kept,
            };
            on_trial(&trial);
            trials.push(trial);
            continue 'search;
        }
        // No failing step has a candidate left.
        break;
    }
    let steps = (1..n).map(|u| result[&u]).collect();
    Ok(Outcome { steps, trials })
}

/// What `model repair` is asked to do.
pub struct RepairArgs<'a> {
    pub oracle: &'a Path,
    /// A second oracle's cache whose per-move limits bind too (where it scored enough of a band).
    pub second: Option<&'a Path>,
    /// Model rating offsets a v7 point may move to (besides its own; empty: none).
    pub model_offsets: Vec<f64>,
    pub ladder: &'a Path,
    pub pgn: &'a Path,
    /// The chain: BAND:ELO pairs (each point's per-move limits are judged on its band).
    pub pairs: Vec<(u32, i32)>,
    pub jobs: usize,
    pub steps: steps::StepConfig,
    pub max_trials: usize,
    /// How far inside its window a step must end (percentage points).
    pub margin: f64,
    /// Candidate ladders go here.
    pub work: &'a Path,
    pub ladder_out: &'a Path,
    pub version: Option<u32>,
    /// The final chain's steps (the `calibrate steps` CSV).
    pub csv_out: &'a Path,
    /// What each point's mean loss is held to (as in `model fit`).
    pub mean_target: Target,
}

/// The engines' side of the search: per-move figures from the fit part's decisions, steps from
/// real matches of candidate ladders (a step depends only on its two points, so each pair of
/// settings is played once).
///
/// Every step played leaves its candidate ladder `repair-N.toml` and its result
/// `repair-N.result.json` in the work folder; a later run with the same work folder, match
/// settings and search takes a step whose two points (and the ladder's other fields) are the
/// same from there instead of playing it again, so a stopped repair resumes.
struct Matches<'a> {
    fits: Vec<PointFit>,
    /// Per point: the model offsets it may take (ascending, 0 among them; empty for a v6 point).
    offsets: Vec<Vec<f64>>,
    base: Ladder,
    cfg: &'a steps::StepConfig,
    work: &'a Path,
    played: HashMap<(i32, [u64; 5], i32, [u64; 5]), steps::StepResult>,
    /// Steps recorded in the work folder: the pair of points as [`pair_text`] writes them.
    recorded: Vec<(String, steps::StepResult)>,
    /// The next free `repair-N` number.
    next: usize,
}

/// What a recorded step must share with the run that reuses it.
#[derive(Debug, PartialEq, serde::Deserialize, serde::Serialize)]
struct StepRecord {
    higher: i32,
    lower: i32,
    games: usize,
    score: f64,
    error95: f64,
    srand: u64,
    openings: String,
    /// [`crate::common::oracle::internal_fingerprint`] of the binary that played it.
    search: String,
}

/// The ladder cut down to the two points of a step (everything else of the file kept): two
/// steps with the same text are the same match.
fn pair_text(l: &Ladder, higher: i32, lower: i32) -> Option<String> {
    let mut l = l.clone();
    l.points.retain(|p| p.elo == higher || p.elo == lower);
    (l.points.len() == 2).then(|| l.to_toml())
}

/// The steps recorded in `work` that were played with `cfg` by this search, and the next free
/// number. A record that does not parse or does not match is ignored (and never overwritten).
fn recorded_steps(work: &Path, cfg: &steps::StepConfig) -> (Vec<(String, steps::StepResult)>, usize) {
    let search = crate::common::oracle::internal_fingerprint();
    let openings = cfg.openings.display().to_string();
    let mut out = Vec::new();
    let mut next = 0;
    let Ok(dir) = std::fs::read_dir(work) else { return (out, 0) };
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(n) =
            name.strip_prefix("repair-").and_then(|r| r.split('.').next()).and_then(|n| n.parse::<usize>().ok())
        else {
            continue;
        };
        next = next.max(n + 1);
        let Some(stem) = name.strip_suffix(".result.json") else { continue };
        let Ok(text) = std::fs::read_to_string(entry.path()) else { continue };
        let Ok(r) = serde_json::from_str::<StepRecord>(&text) else { continue };
        if r.games != cfg.games || r.srand != cfg.srand || r.openings != openings || r.search != search {
            continue;
        }
        let Ok(ladder_text) = std::fs::read_to_string(work.join(format!("{stem}.toml"))) else { continue };
        let Ok(l) = Ladder::parse(&ladder_text) else { continue };
        if let Some(t) = pair_text(&l, r.higher, r.lower) {
            let result = steps::StepResult {
                higher: r.higher,
                lower: r.lower,
                games: r.games,
                score: r.score,
                error95: r.error95,
            };
            out.push((t, result));
        }
    }
    (out, next)
}

/// `base` with every point of `chain` set to its setting.
fn ladder_of(base: &Ladder, chain: &[Link]) -> Result<Ladder, String> {
    let mut l = base.clone();
    for link in chain {
        l = with_point(&l, link.elo, &link.setting, true)?;
    }
    Ok(l)
}

impl Judge for Matches<'_> {
    fn per_move(&mut self, i: usize, s: &Setting3) -> Expected {
        self.fits[i].fit_expected(s)
    }

    fn per_move_second(&mut self, i: usize, s: &Setting3) -> Option<Expected> {
        self.fits[i].second_fit_expected(s)
    }

    fn model_offsets(&self, i: usize) -> &[f64] {
        &self.offsets[i]
    }

    fn step(&mut self, chain: &[Link], upper: usize) -> Result<steps::StepResult, String> {
        let (hi, lo) = (chain[upper], chain[upper - 1]);
        let k = (hi.elo, key(&hi.setting), lo.elo, key(&lo.setting));
        if let Some(r) = self.played.get(&k) {
            return Ok(*r);
        }
        let candidate = ladder_of(&self.base, chain)?;
        let pair = pair_text(&candidate, hi.elo, lo.elo);
        let found = self.recorded.iter().find(|(t, _)| Some(t) == pair.as_ref()).map(|(_, r)| *r);
        let (r, how) = if let Some(r) = found {
            (r, "recorded".to_string())
        } else {
            let path = self.work.join(format!("repair-{}.toml", self.next));
            self.next += 1;
            std::fs::write(&path, candidate.to_toml()).map_err(|e| format!("{}: {e}", path.display()))?;
            let t0 = std::time::Instant::now();
            // Every game is kept (the fault count reads them): `repair-N.pgn` beside its ladder.
            let cfg = steps::StepConfig { pgn_out: Some(path.with_extension("pgn")), ..self.cfg.clone() };
            let r = steps::play_step(&path, hi.elo, lo.elo, &cfg)?;
            let record = StepRecord {
                higher: r.higher,
                lower: r.lower,
                games: r.games,
                score: r.score,
                error95: r.error95,
                srand: self.cfg.srand,
                openings: self.cfg.openings.display().to_string(),
                search: crate::common::oracle::internal_fingerprint(),
            };
            let rpath = path.with_extension("result.json");
            let json = serde_json::to_string_pretty(&record).map_err(|e| format!("{}: {e}", rpath.display()))?;
            std::fs::write(&rpath, json + "\n").map_err(|e| format!("{}: {e}", rpath.display()))?;
            (r, format!("{:.0} s", t0.elapsed().as_secs_f64()))
        };
        eprintln!(
            "  step {} ({}) vs {} ({}): {} games {:.1} % ± {:.1} [{how}]",
            hi.elo,
            show(&hi.setting),
            lo.elo,
            show(&lo.setting),
            r.games,
            r.score,
            r.error95,
        );
        self.played.insert(k, r);
        Ok(r)
    }
}

fn show(s: &Setting3) -> String {
    let model = if s.model_offset == 0.0 { String::new() } else { format!(" model {:+.0}", s.model_offset) };
    format!("lambda {:.2} beta {:.2} slip {:.3}{model}", s.lambda, s.beta, s.slip_p)
}

/// Each point of the chain's per-move decisions on its band (by both oracles where a second is
/// given, at each model offset allowed), the model offsets each may take, and the chain as the
/// ladder has it.
type ChainFit = (Vec<PointFit>, Vec<Vec<f64>>, Vec<Link>);

fn fit_chain(args: &RepairArgs, ladder: &Ladder, pairs: &[(u32, i32)]) -> Result<ChainFit, String> {
    let games = crate::common::games::read_games(args.pgn)?;
    let all = crate::common::scored::load_oracle(args.oracle)?;
    let eligible = crate::common::bands::eligible(&all, None);
    let all2 = args.second.map(crate::common::scored::load_oracle).transpose()?.unwrap_or_default();
    let eligible2 = crate::common::bands::eligible(&all2, None);
    let elos: Vec<i32> = pairs.iter().map(|&(_, e)| e).collect();
    let fit_curve = curve_targets(args.mean_target, &eligible, &games, Part::Fit, &elos)?;
    let fit_curve2 = if args.second.is_some() {
        curve_targets(args.mean_target, &eligible2, &games, Part::Fit, &elos)?
    } else {
        None
    };
    let test_curve = curve_targets(args.mean_target, &eligible, &games, Part::Test, &elos).unwrap_or_else(|e| {
        eprintln!("model repair: no test-part curve ({e}); the held-out rows compare with the band's people");
        None
    });
    let at = |c: &Option<std::collections::BTreeMap<i32, f64>>, elo: i32| c.as_ref().and_then(|m| m.get(&elo).copied());
    let mut fits = Vec::new();
    let mut offsets = Vec::new();
    let mut chain = Vec::new();
    for &(band, elo) in pairs {
        let positions: Vec<OraclePosition> = eligible.iter().filter(|p| p.pos.band == band).cloned().collect();
        let second: Vec<OraclePosition> = eligible2.iter().filter(|p| p.pos.band == band).cloned().collect();
        let point_offsets: Vec<f64> = if !args.model_offsets.is_empty() {
            let mut o: Vec<f64> = std::iter::once(0.0).chain(args.model_offsets.iter().copied()).collect();
            o.sort_by(f64::total_cmp);
            o.dedup();
            o
        } else {
            Vec::new()
        };
        let f = fit_point(
            ladder,
            (band, elo),
            (&positions, args.second.map(|_| &second[..])),
            &games,
            PointGrid {
                max_slip: 1.0,
                deep_ps: &[],
                model_offsets: &point_offsets,
                targets: Targets {
                    fit: [at(&fit_curve, elo), at(&fit_curve2, elo)],
                    test: [at(&test_curve, elo), None],
                },
            },
            args.jobs,
        )?;
        offsets.push(point_offsets);
        // The first row is the point as the ladder has it.
        chain.push(Link { elo, setting: f.rows[0].2 });
        fits.push(f);
    }
    Ok((fits, offsets, chain))
}

fn log_trial(t: &Trial) {
    let steps: Vec<String> = t.steps.iter().map(|(h, l, s)| format!("{h}/{l} {s:.1} %")).collect();
    let second = t.second.map_or(String::new(), |(e, ks)| format!("; second oracle {:+.1} %, KS {ks:.3}", 100.0 * e));
    eprintln!(
        "model repair: {} {} -> {} (fit part error {:+.1} %, KS {:.3}{second}): {} -> {}",
        t.elo,
        show(&t.from),
        show(&t.to),
        100.0 * t.error,
        t.ks,
        steps.join(", "),
        if t.kept { "kept" } else { "undone" }
    );
}

/// The command: the chain's per-move decisions, the search, the repaired ladder and its steps.
pub fn run(args: &RepairArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(args.ladder).map_err(|e| format!("{}: {e}", args.ladder.display()))?;
    let ladder = Ladder::parse(&text).map_err(|e| format!("{}: {e}", args.ladder.display()))?;
    let mut pairs = args.pairs.clone();
    pairs.sort_by_key(|&(_, elo)| elo);
    if pairs.len() < 2 {
        return Err("a chain needs at least two points".into());
    }
    for &(_, elo) in &pairs {
        if !ladder.points.iter().any(|p| p.elo == elo) {
            return Err(format!("{}: no point {elo}", args.ladder.display()));
        }
    }
    if !args.model_offsets.is_empty() && ladder.human_model != Some(sparring::human::maia3::VERSION) {
        return Err(format!(
            "--model-offsets: {} is not a v7 ladder (human_model = {}); only Maia-3 points have a model rating input",
            args.ladder.display(),
            sparring::human::maia3::VERSION
        ));
    }
    std::fs::create_dir_all(args.work).map_err(|e| format!("{}: {e}", args.work.display()))?;
    let (fits, offsets, mut chain) = fit_chain(args, &ladder, &pairs)?;
    let (lowest, highest) = (pairs[0].1, pairs[pairs.len() - 1].1);
    let bounds = Bounds {
        most: ladder.points.iter().filter(|p| p.elo < lowest).map(|p| p.slip_p).next_back().unwrap_or(1.0),
        least: ladder.points.iter().find(|p| p.elo > highest).map_or(0.0, |p| p.slip_p),
    };
    let (recorded, next) = recorded_steps(args.work, &args.steps);
    let mut judge = Matches {
        fits,
        offsets,
        base: ladder.clone(),
        cfg: &args.steps,
        work: args.work,
        played: HashMap::new(),
        recorded,
        next,
    };
    eprintln!(
        "model repair: {} points, {} games a step ({} steps recorded in {})",
        chain.len(),
        args.steps.games,
        judge.recorded.len(),
        args.work.display()
    );
    let out = repair(&mut chain, bounds, &mut judge, args.max_trials, args.margin, log_trial)?;
    let mut repaired = ladder_of(&ladder, &chain)?;
    if let Some(v) = args.version {
        repaired.version = v;
    }
    std::fs::write(args.ladder_out, repaired.to_toml()).map_err(|e| format!("{}: {e}", args.ladder_out.display()))?;
    let mut csv = format!("{}\n", steps::CSV_HEADER);
    for r in &out.steps {
        csv.push_str(&steps::csv_row(r, args.steps.srand));
        csv.push('\n');
    }
    std::fs::write(args.csv_out, &csv).map_err(|e| format!("{}: {e}", args.csv_out.display()))?;
    println!("point  lambda   beta   slip   model input   fit-part error   KS     match");
    for (link, f) in chain.iter().zip(&judge.fits) {
        let e = f.fit_expected(&link.setting);
        let input = repaired.points.iter().find(|p| p.elo == link.elo).and_then(|p| p.model_elo);
        println!(
            "{:5}  {:6.2}  {:5.2}  {:5.3}   {:>11}   {:+6.1} %        {:.3}  {:.4}",
            link.elo,
            link.setting.lambda,
            link.setting.beta,
            link.setting.slip_p,
            input.map_or("-".to_string(), |m| format!("{m:.0}")),
            100.0 * e.error(),
            e.ks,
            e.match_rate
        );
    }
    print!("{csv}");
    let failing = out.steps.iter().filter(|r| !r.passes()).count();
    println!(
        "{} trials ({} kept); {failing} of {} steps outside their windows; wrote {} and {}",
        out.trials.len(),
        out.trials.iter().filter(|t| t.kept).count(),
        out.steps.len(),
        args.ladder_out.display(),
        args.csv_out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up world: a point's playing strength falls with its slip rate and rises with ln λ;
    /// its per-move error is a linear function of the same, zero at a planted setting per point.
    struct Toy {
        /// The strength (Elo) of each point at slip 0.1, λ 1.
        base: Vec<f64>,
        /// Added to each point's per-move error.
        offset: Vec<f64>,
        steps_played: usize,
    }

    fn toy(base: &[f64]) -> Toy {
        Toy { base: base.to_vec(), offset: vec![0.0; base.len()], steps_played: 0 }
    }

    /// Per-move figures whose mean loss is `error` off the humans' (KS and match fixed).
    fn with_error(error: f64) -> Expected {
        Expected {
            n: 800,
            mean: 100.0 * (1.0 + error),
            human_mean: 100.0,
            ks: 0.03,
            match_rate: 0.4,
            ..Expected::default()
        }
    }

    fn strength(base: f64, s: &Setting3) -> f64 {
        base - 2000.0 * (s.slip_p - 0.1) + 40.0 * s.lambda.ln()
    }

    impl Judge for Toy {
        fn per_move(&mut self, i: usize, s: &Setting3) -> Expected {
            // Mean loss rises with the slip rate: +1 % of the humans' per 0.01 of slip over 0.1.
            let error = self.offset[i] + (s.slip_p - 0.1) + 0.01 * (1.0 - s.lambda).max(0.0);
            with_error(error)
        }
        fn step(&mut self, chain: &[Link], upper: usize) -> Result<steps::StepResult, String> {
            self.steps_played += 1;
            let d = strength(self.base[upper], &chain[upper].setting)
                - strength(self.base[upper - 1], &chain[upper - 1].setting);
            Ok(step_at(chain, upper, d))
        }
    }

    /// The 200-game step of `chain[upper]` over the point below when it is `d` Elo stronger.
    fn step_at(chain: &[Link], upper: usize, d: f64) -> steps::StepResult {
        steps::StepResult {
            higher: chain[upper].elo,
            lower: chain[upper - 1].elo,
            games: 200,
            score: 100.0 / (1.0 + 10f64.powf(-d / 400.0)),
            error95: 5.0,
        }
    }

    const OPEN: Bounds = Bounds { most: 1.0, least: 0.0 };

    fn chain(slips: &[f64]) -> Vec<Link> {
        slips
            .iter()
            .enumerate()
            .map(|(k, &slip_p)| Link {
                elo: 900 + 200 * k as i32,
                setting: Setting3 { lambda: 1.0, beta: 4.0, slip_p, deep_p: 0.0, model_offset: 0.0 },
            })
            .collect()
    }

    #[test]
    fn a_low_and_a_high_step_are_walked_into_their_windows() {
        // Point 1 is too weak against point 0 (65 %: a low step) and point 2 too strong against
        // point 1 (86 %: a high one).
        let mut toy = toy(&[900.0, 1010.0, 1330.0, 1500.0]);
        let mut c = chain(&[0.10, 0.10, 0.10, 0.10]);
        let mut seen = 0;
        let out = repair(&mut c, OPEN, &mut toy, 20, 0.0, |_| seen += 1).unwrap();
        for r in &out.steps {
            assert!(r.passes(), "step {}/{} at {:.1} % is outside its window", r.higher, r.lower, r.score);
        }
        assert_eq!(seen, out.trials.len());
        // By hand: point 1 takes λ 1.5 (its step from 65.0 % to 67.3 %, the one above from 86.4 %
        // to 85.4 %), then λ 2 (the step above is still high: 84.7 %, and its own 69.0 %).
        let moves: Vec<(i32, f64, bool)> = out.trials.iter().map(|t| (t.elo, t.to.lambda, t.kept)).collect();
        assert_eq!(moves, vec![(1100, 1.5, true), (1100, 2.0, true)]);
        assert_eq!(c.iter().map(|l| l.setting.lambda).collect::<Vec<_>>(), vec![1.0, 2.0, 1.0, 1.0]);
        // Slips still fall with Elo, and every kept setting is inside the per-move limits.
        for w in c.windows(2) {
            assert!(w[1].setting.slip_p <= w[0].setting.slip_p + 1e-12);
        }
        for (i, l) in c.iter().enumerate() {
            assert!(allowed(&toy.per_move(i, &l.setting)));
        }
    }

    #[test]
    fn the_per_move_limits_are_never_traded_for_a_step() {
        // Point 1 would need to slip far less than the limits allow: the search stops short.
        let mut toy = toy(&[900.0, 200.0]);
        let mut c = chain(&[0.10, 0.10]);
        let out = repair(&mut c, OPEN, &mut toy, 50, 0.0, |_| {}).unwrap();
        assert!(!out.steps[0].passes());
        for (i, l) in c.iter().enumerate() {
            assert!(allowed(&toy.per_move(i, &l.setting)), "{l:?}");
        }
        assert!(out.trials.iter().filter(|t| t.kept).all(|t| t.error.abs() <= MEAN_TOLERANCE));
    }

    #[test]
    fn a_move_that_leaves_the_steps_further_out_is_undone() {
        // Step 1 just inside (67.1 %), step 2 low (66.4 %). Point 1 one λ notch weaker (the
        // smallest per-move error) mends step 2 but pushes step 1 further out (65.6 %): undone (it
        // may not slip more than point 0); point 2 slipping less (its λ notch errs more) mends
        // step 2 alone.
        let mut toy = toy(&[900.0, 1024.0, 1142.0]);
        toy.offset[2] = 0.05;
        let mut c = chain(&[0.10, 0.10, 0.10]);
        let out = repair(&mut c, OPEN, &mut toy, 10, 0.0, |_| {}).unwrap();
        let moves: Vec<(i32, f64, f64, bool)> =
            out.trials.iter().map(|t| (t.elo, t.to.lambda, t.to.slip_p, t.kept)).collect();
        assert_eq!(moves, vec![(1100, 0.75, 0.10, false), (1300, 1.0, 0.08, true)]);
        assert_eq!(
            c[1].setting,
            Setting3 { lambda: 1.0, beta: 4.0, slip_p: 0.10, deep_p: 0.0, model_offset: 0.0 },
            "undone moves leave no trace"
        );
        assert!(out.steps.iter().all(|r| r.passes()));
    }

    /// Measured scores as a table of the λ of points 1 and 2 (what noisy 200-game steps can give):
    /// every λ notch of points 1 and 2 weaker is allowed per move, nothing else.
    struct Scripted;

    impl Judge for Scripted {
        fn per_move(&mut self, i: usize, s: &Setting3) -> Expected {
            let ok = (i == 1 || i == 2) && s.lambda < 1.0 && s.slip_p == 0.10;
            let error = if ok { 0.0 } else { 0.5 };
            with_error(error)
        }
        fn step(&mut self, chain: &[Link], upper: usize) -> Result<steps::StepResult, String> {
            let weak = |i: usize| chain[i].setting.lambda < 1.0;
            let score = match (upper, weak(1), weak(2)) {
                (1, false, _) => 80.0,
                (1, true, _) => 74.0,
                (2, false, false) => 64.0,
                (2, false, true) => 61.0,
                (2, true, false) => 70.0,
                (2, true, true) => 68.0,
                (3, _, false) => 58.0,
                (3, false, true) => 60.0,
                (3, true, true) => 68.0,
                _ => unreachable!(),
            };
            Ok(steps::StepResult {
                higher: chain[upper].elo,
                lower: chain[upper - 1].elo,
                games: 200,
                score,
                error95: 6.0,
            })
        }
    }

    #[test]
    fn an_undone_move_is_tried_again_once_a_neighbour_has_moved() {
        // Steps 80, 64, 58 %. Point 2 weaker first (61 / 60 %: worse in sum, undone); then point 1
        // weaker for the 64 % step (70 / 74 %: kept); point 2 weaker again, now beside a weaker
        // point 1: 68 / 68 %, kept, and every step passes. Were an undone move barred for good,
        // the search would stop with the last step at 58 %.
        let mut c = chain(&[0.10, 0.10, 0.10, 0.10]);
        let out = repair(&mut c, OPEN, &mut Scripted, 10, 0.0, |_| {}).unwrap();
        let moves: Vec<(i32, bool)> = out.trials.iter().map(|t| (t.elo, t.kept)).collect();
        assert_eq!(moves, vec![(1300, false), (1100, true), (1300, true)]);
        assert!(out.steps.iter().all(|r| r.passes()), "{:?}", out.steps);
        assert_eq!((c[1].setting.lambda, c[2].setting.lambda), (0.75, 0.75));
    }

    #[test]
    fn a_margin_walks_a_step_at_the_edge_of_its_window_further_in() {
        // 125 Elo apart: 67.3 %, just inside 67-85 %. Without a margin it is left alone; with
        // 4 points it must end at 71 % or more.
        let mut c = chain(&[0.10, 0.10]);
        let out = repair(&mut c, OPEN, &mut toy(&[900.0, 1025.0]), 10, 0.0, |_| {}).unwrap();
        assert!(out.trials.is_empty() && out.steps[0].passes());
        let out = repair(&mut c, OPEN, &mut toy(&[900.0, 1025.0]), 10, 4.0, |_| {}).unwrap();
        assert!(!out.trials.is_empty());
        assert!(out.steps[0].score >= 71.0, "{:.1} %", out.steps[0].score);
        assert!(out.trials.iter().all(|t| t.kept));
        assert_eq!(outside(72.0, 200, 4.0), 0.0);
        // 200 apart: 75.97 % ± 9, narrowed to [70.97, 80.97].
        assert!((outside(69.0, 200, 4.0) - 1.97).abs() < 0.01);
        assert!((outside(83.0, 200, 4.0) - 2.03).abs() < 0.01);
        assert!(outside(53.0, 100, 4.0) > 0.0 && outside(55.0, 100, 4.0) == 0.0);
    }

    #[test]
    fn a_chain_inside_its_windows_is_left_alone() {
        let mut toy = toy(&[900.0, 1100.0, 1300.0]);
        let mut c = chain(&[0.10, 0.10, 0.10]);
        let start = c.clone();
        let out = repair(&mut c, OPEN, &mut toy, 10, 0.0, |_| {}).unwrap();
        assert!(out.trials.is_empty());
        assert_eq!(c, start);
        assert_eq!(toy.steps_played, 2);
    }

    #[test]
    fn notches_keep_slips_between_the_neighbours() {
        let c = chain(&[0.12, 0.08, 0.05]);
        let up = notches(&c, OPEN, 1, false, &[]);
        assert_eq!(up[0].slip_p, 0.10);
        assert_eq!(up[1].lambda, 0.75);
        let down = notches(&c, OPEN, 1, true, &[]);
        assert_eq!(down[0].slip_p, 0.06);
        assert_eq!(down[1].lambda, 1.5);
        // Held by both neighbours: only λ can move.
        let c = chain(&[0.08, 0.08, 0.08]);
        assert!(notches(&c, OPEN, 1, true, &[]).iter().all(|s| s.slip_p == 0.08));
        assert!(notches(&c, OPEN, 1, false, &[]).iter().all(|s| s.slip_p == 0.08));
        // The ladder's points beyond the chain hold its ends the same way.
        let c = chain(&[0.08, 0.04]);
        let held = Bounds { most: 0.08, least: 0.04 };
        assert!(notches(&c, held, 0, false, &[]).iter().all(|s| s.slip_p == 0.08));
        assert!(notches(&c, held, 1, true, &[]).iter().all(|s| s.slip_p == 0.04));
        // The top of the chain may slip down to 0; a point at 0 only moves λ to be stronger.
        let c = chain(&[0.02, 0.0]);
        assert_eq!(notches(&c, OPEN, 1, true, &[]).len(), 1);
        assert_eq!(notches(&c, OPEN, 1, true, &[])[0].lambda, 1.5);
    }

    #[test]
    fn a_v7_point_moves_its_model_input_one_offset_at_a_time() {
        let offsets = [-226.0, -113.0, 0.0, 113.0];
        let mut c = chain(&[0.12, 0.08, 0.05]);
        let stronger = notches(&c, OPEN, 1, true, &offsets);
        assert_eq!(
            stronger.iter().filter(|s| s.model_offset != 0.0).map(|s| s.model_offset).collect::<Vec<_>>(),
            [113.0]
        );
        let weaker = notches(&c, OPEN, 1, false, &offsets);
        assert_eq!(
            weaker.iter().filter(|s| s.model_offset != 0.0).map(|s| s.model_offset).collect::<Vec<_>>(),
            [-113.0]
        );
        // Each candidate moves one thing: the offset notch keeps λ and the slip rate.
        let moved = stronger.iter().find(|s| s.model_offset != 0.0).unwrap();
        assert_eq!((moved.lambda, moved.slip_p), (c[1].setting.lambda, c[1].setting.slip_p));
        // At the end of the offsets given there is no further notch that way; without offsets none.
        c[1].setting.model_offset = 113.0;
        assert!(notches(&c, OPEN, 1, true, &offsets).iter().all(|s| s.model_offset == 113.0));
        assert_eq!(notches(&c, OPEN, 1, false, &offsets).iter().filter(|s| s.model_offset == 0.0).count(), 1);
        c[1].setting.model_offset = 0.0;
        assert!(notches(&c, OPEN, 1, true, &[]).iter().all(|s| s.model_offset == 0.0));
    }

    /// The toy world with a model input that plays stronger (+0.5 Elo per rating point of offset)
    /// and leaves the per-move error alone, and λ notches that a second oracle forbids.
    struct WithModel {
        toy: Toy,
        offsets: Vec<f64>,
        second_forbids_lambda: bool,
    }

    impl Judge for WithModel {
        fn per_move(&mut self, i: usize, s: &Setting3) -> Expected {
            self.toy.per_move(i, s)
        }
        fn per_move_second(&mut self, i: usize, s: &Setting3) -> Option<Expected> {
            let mut e = self.toy.per_move(i, s);
            if self.second_forbids_lambda && s.lambda != 1.0 {
                e.mean = 150.0;
            }
            Some(e)
        }
        fn model_offsets(&self, _i: usize) -> &[f64] {
            &self.offsets
        }
        fn step(&mut self, chain: &[Link], upper: usize) -> Result<steps::StepResult, String> {
            let strength = |i: usize| {
                let s = &chain[i].setting;
                strength(self.toy.base[i], s) + 0.5 * s.model_offset
            };
            self.toy.steps_played += 1;
            let d = strength(upper) - strength(upper - 1);
            Ok(step_at(chain, upper, d))
        }
    }

    #[test]
    fn a_second_oracle_binds_the_repair_and_the_model_input_mends_the_step() {
        // Point 1 is 110 Elo above point 0 (65 %); both points' slips are held by the ladder around
        // the chain, and λ notches would err 50 % by the second oracle: the model input is what is
        // left, and point 1's +113 (+56 Elo) mends the step (72.3 %).
        let held = Bounds { most: 0.10, least: 0.10 };
        let mut judge = WithModel {
            toy: toy(&[900.0, 1010.0]),
            offsets: vec![-113.0, 0.0, 113.0, 226.0],
            second_forbids_lambda: true,
        };
        let mut c = chain(&[0.10, 0.10]);
        let out = repair(&mut c, held, &mut judge, 10, 0.0, |_| {}).unwrap();
        assert!(out.steps[0].passes(), "{:.1} %", out.steps[0].score);
        assert!(out.trials.iter().all(|t| t.to.lambda == 1.0), "a λ move the second oracle forbids was tried");
        assert!(out.trials.iter().all(|t| t.second.is_some()));
        assert_eq!(out.trials.len(), 1);
        assert_eq!(c[1].setting.model_offset, 113.0);
        assert_eq!(c[0].setting, chain(&[0.10])[0].setting, "the lower point was not needed");
        // Without the second oracle λ is allowed again and the smaller per-move error wins it.
        let mut judge = WithModel { second_forbids_lambda: false, ..judge };
        let mut c = chain(&[0.10, 0.10]);
        let out = repair(&mut c, held, &mut judge, 10, 0.0, |_| {}).unwrap();
        assert!(out.trials.iter().any(|t| t.to.lambda != 1.0));
    }

    #[test]
    fn a_recorded_step_is_reused_only_by_the_same_match_settings_and_points() {
        let dir = std::env::temp_dir().join(format!("sparring-repair-record-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let base = Ladder::builtin();
        let (hi, lo) = (base.points[2].elo, base.points[1].elo);
        std::fs::write(dir.join("repair-3.toml"), base.to_toml()).unwrap();
        let cfg = steps::StepConfig {
            engine: "sparring".into(),
            openings: "book.pgn".into(),
            games: 200,
            concurrency: 2,
            srand: 7,
            pgn_out: None,
        };
        let record = StepRecord {
            higher: hi,
            lower: lo,
            games: 200,
            score: 71.5,
            error95: 5.9,
            srand: 7,
            openings: "book.pgn".into(),
            search: crate::common::oracle::internal_fingerprint(),
        };
        std::fs::write(dir.join("repair-3.result.json"), serde_json::to_string(&record).unwrap()).unwrap();
        let (found, next) = recorded_steps(&dir, &cfg);
        assert_eq!(next, 4, "new steps must not overwrite repair-3");
        assert_eq!(found.len(), 1);
        assert_eq!(Some(&found[0].0), pair_text(&base, hi, lo).as_ref());
        assert_eq!((found[0].1.score, found[0].1.games), (71.5, 200));
        // Another point changed elsewhere in the ladder: still the same step.
        let mut other = base.clone();
        let far = other.points.len() - 1;
        other.points[far].slip_p = 0.0;
        assert_eq!(pair_text(&other, hi, lo), pair_text(&base, hi, lo));
        // One of the two points changed: another step.
        let mut moved = base.clone();
        moved.points[2].slip_p += 0.01;
        assert_ne!(pair_text(&moved, hi, lo), pair_text(&base, hi, lo));
        // Another seed, game count or search: not reused.
        for changed in [steps::StepConfig { srand: 8, ..cfg.clone() }, steps::StepConfig { games: 100, ..cfg.clone() }]
        {
            assert!(recorded_steps(&dir, &changed).0.is_empty());
        }
        let stale = StepRecord { search: "0000000000000000".into(), ..record };
        std::fs::write(dir.join("repair-3.result.json"), serde_json::to_string(&stale).unwrap()).unwrap();
        assert!(recorded_steps(&dir, &cfg).0.is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

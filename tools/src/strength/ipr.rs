//! Intrinsic performance rating (Regan & Haworth's move-choice model), for positions where every
//! legal move has been scored (the `sparring humanlike oracle` files).
//!
//! The per-game ASE model (`model.rs`) treats every position alike, so a player who meets easy
//! positions looks strong. Here each decision is weighed against the moves that were on offer:
//! a move losing `δ` (scaled error, `ln(1 + min(loss, 300)/100)`) is chosen with probability
//! proportional to `exp(-(δ/s)^c)`, where `s` (sensitivity) and `c` (consistency) describe the
//! player. `(s, c)` are fitted by maximum likelihood over a player's decisions; the fitted player's
//! *projected* average scaled error on one fixed reference set of positions (the same yardstick
//! for everybody, whatever positions they met) is mapped to Elo by a straight line fitted on the
//! rated human bands. Intervals come from resampling whole games.
//!
//! The projection alone does not remove the effect of difficulty: on the FICS positions, bands
//! rated only on positions with one or two moves within 50 cp of the best compress towards the
//! middle (800-999 at 960, 2200-2399 at 2180) and bands rated on positions with many good moves
//! spread out (630 and 2570). So decisions are split into difficulty strata by that count
//! (default `1, 2, 3-4, 5+`), each stratum has its own reference subset and its own line to Elo,
//! and a player's strata are combined with inverse-variance weights.

use crate::common::quality::{LOSS_CAP, scaled_error};
use crate::common::scored::OraclePosition;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use sparring::board::notation::uci as uci_of;
use sparring::board::{Game, parse_fen};
use sparring::search::{Limits, Searcher};
use std::collections::BTreeMap;

/// Search range of the sensitivity `s` (scaled-error units) and the consistency `c`.
pub const S_RANGE: (f64, f64) = (0.002, 20.0);
pub const C_RANGE: (f64, f64) = (0.15, 6.0);
/// Golden-section steps of the inner (ln s) and outer (c) searches.
const INNER_STEPS: usize = 40;
const OUTER_STEPS: usize = 24;
/// Coarse grid over c before the outer golden-section search (the profile is not always unimodal).
const C_GRID: usize = 12;
/// A group needs at least this many decisions to be fitted.
pub const MIN_DECISIONS: usize = 30;
/// A group from fewer games than this is resampled by decision rather than by whole game: the
/// bootstrap over one game's resamples is that game every time, an interval of zero width.
pub const MIN_RESAMPLE_GAMES: usize = 5;

/// One decision: the losses of all legal moves (as a histogram) and the loss of the move chosen.
#[derive(Clone, Debug)]
pub struct Decision {
    /// (loss in cp, number of legal moves with that loss), loss 0 present (the best move).
    pub losses: Vec<(u16, u16)>,
    pub chosen: u16,
    /// Which game it came from: (source file, game index), for resampling.
    pub game: (u32, u32),
    /// The mover's rating and band as recorded in the position.
    pub rating: u32,
    pub band: u32,
    /// Whether a [`SHALLOW_DEPTH`] search already finds a best move (None: not computed).
    pub shallow: Option<bool>,
}

impl Decision {
    /// An eligible oracle position with the move that was played (its `human` field). `None` when
    /// the position is not eligible or the move is not in the table.
    pub fn from_position(p: &OraclePosition, source: u32) -> Option<Decision> {
        if !p.is_eligible() {
            return None;
        }
        let chosen = p.loss(&p.pos.human)? as u16;
        let mut hist: BTreeMap<u16, u16> = BTreeMap::new();
        for m in &p.moves {
            *hist.entry(p.loss(&m.uci)? as u16).or_default() += 1;
        }
        Some(Decision {
            losses: hist.into_iter().collect(),
            chosen,
            game: (source, p.pos.game as u32),
            rating: p.pos.rating,
            band: p.pos.band,
            shallow: None,
        })
    }

    /// Marks whether the search at [`SHALLOW_DEPTH`]
    /// chooses a move the oracle scores as best.
    pub fn mark_shallow(&mut self, p: &OraclePosition, searcher: &mut Searcher) -> Result<(), String> {
        let chess = parse_fen(&p.pos.fen)?;
        searcher.clear();
        let r = searcher.analyse(&Game::new(chess), &Limits { depth: Some(SHALLOW_DEPTH), ..Default::default() });
        let mv = r.best.ok_or_else(|| format!("no move at depth {SHALLOW_DEPTH} in {}", p.pos.fen))?;
        self.shallow = Some(p.loss(&uci_of(mv)) == Some(0));
        Ok(())
    }
}

/// Depth of the search that decides whether a position's best move is visible at a glance.
pub const SHALLOW_DEPTH: i32 = 1;

/// The fitted player: sensitivity and consistency.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub s: f64,
    pub c: f64,
}

/// `scaled_error(loss)` for every loss 0..=LOSS_CAP, computed once (the same values).
fn scaled_errors() -> &'static [f64] {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..=LOSS_CAP).map(scaled_error).collect())
}

/// `exp(-(δ(loss)/s)^c)` for every loss 0..=LOSS_CAP.
fn weights(fit: Fit) -> Vec<f64> {
    scaled_errors().iter().map(|&se| (-(se / fit.s).powf(fit.c)).exp()).collect()
}

/// Negative log-likelihood of the decisions under `fit`.
pub fn nll(decisions: &[&Decision], fit: Fit) -> f64 {
    nll_of(&Prepared::new(decisions), fit)
}

/// A list of decisions as the likelihood reads it: each distinct decision once (a bootstrap
/// resample holds whole games several times), and the list's order as indices into them.
struct Prepared<'a> {
    distinct: Vec<&'a Decision>,
    order: Vec<u32>,
}

impl<'a> Prepared<'a> {
    fn new(decisions: &[&'a Decision]) -> Prepared<'a> {
        let mut index: std::collections::HashMap<*const Decision, u32> = std::collections::HashMap::new();
        let mut distinct = Vec::new();
        let order = decisions
            .iter()
            .map(|&d| {
                *index.entry(std::ptr::from_ref(d)).or_insert_with(|| {
                    distinct.push(d);
                    (distinct.len() - 1) as u32
                })
            })
            .collect();
        Prepared { distinct, order }
    }
}

/// [`nll`] of prepared decisions: each distinct decision's term is computed once and the terms
/// are summed in the list's order, so the sum is the same number, bit for bit.
fn nll_of(p: &Prepared, fit: Fit) -> f64 {
    let g: Vec<f64> = scaled_errors().iter().map(|&se| (se / fit.s).powf(fit.c)).collect();
    let e: Vec<f64> = g.iter().map(|x| (-x).exp()).collect();
    let terms: Vec<f64> = p
        .distinct
        .iter()
        .map(|d| {
            let z: f64 = d.losses.iter().map(|&(l, n)| f64::from(n) * e[l as usize]).sum();
            g[d.chosen as usize] + z.ln()
        })
        .collect();
    p.order.iter().map(|&i| terms[i as usize]).sum()
}

/// Probability of each move class of one decision under `fit` (same order as `losses`).
pub fn probabilities(d: &Decision, fit: Fit) -> Vec<f64> {
    let w = weights(fit);
    let z: f64 = d.losses.iter().map(|&(l, n)| f64::from(n) * w[l as usize]).sum();
    d.losses.iter().map(|&(l, n)| f64::from(n) * w[l as usize] / z).collect()
}

fn golden_min(lo: f64, hi: f64, steps: usize, f: impl Fn(f64) -> f64) -> (f64, f64) {
    let x = crate::common::optimize::golden_section(lo, hi, steps, &f);
    (x, f(x))
}

/// Maximum-likelihood `(s, c)`: for each c the best ln s by golden section; c by a coarse grid and
/// then golden section around the best grid point. With `fixed_c`, only s is fitted.
pub fn fit(decisions: &[&Decision], fixed_c: Option<f64>) -> Fit {
    let (ls_lo, ls_hi) = (S_RANGE.0.ln(), S_RANGE.1.ln());
    let prepared = Prepared::new(decisions);
    let best_s = |c: f64| golden_min(ls_lo, ls_hi, INNER_STEPS, |ls| nll_of(&prepared, Fit { s: ls.exp(), c }));
    if let Some(c) = fixed_c {
        return Fit { s: best_s(c).0.exp(), c };
    }
    let step = (C_RANGE.1 - C_RANGE.0) / C_GRID as f64;
    let mut best = (C_RANGE.0, f64::INFINITY);
    for i in 0..=C_GRID {
        let c = C_RANGE.0 + step * i as f64;
        let (_, v) = best_s(c);
        if v < best.1 {
            best = (c, v);
        }
    }
    let (lo, hi) = ((best.0 - step).max(C_RANGE.0), (best.0 + step).min(C_RANGE.1));
    let (c, _) = golden_min(lo, hi, OUTER_STEPS, |c| best_s(c).1);
    let (ls, _) = best_s(c);
    Fit { s: ls.exp(), c }
}

/// Expected scaled error of a player with `fit` over `reference` (every decision's moves weighed by
/// the model's probabilities): the yardstick that makes players who met different positions
/// comparable.
pub fn projected_ase(reference: &[&Decision], fit: Fit) -> f64 {
    let w = weights(fit);
    let se = scaled_errors();
    let total: f64 = reference
        .iter()
        .map(|d| {
            let z: f64 = d.losses.iter().map(|&(l, n)| f64::from(n) * w[l as usize]).sum();
            let num: f64 = d.losses.iter().map(|&(l, n)| f64::from(n) * w[l as usize] * se[l as usize]).sum();
            num / z
        })
        .sum();
    total / reference.len().max(1) as f64
}

/// Moves within this many cp of the best count as "near-best": the difficulty measure of a decision.
pub const NEAR_BEST_CP: u16 = 50;

impl Decision {
    /// Number of legal moves within [`NEAR_BEST_CP`] of the best (1 = only one good move).
    pub fn near_best(&self) -> u32 {
        self.losses.iter().filter(|&&(l, _)| l <= NEAR_BEST_CP).map(|&(_, n)| u32::from(n)).sum()
    }
}

/// A difficulty stratum: decisions with `lo <= near_best <= hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stratum {
    pub lo: u32,
    pub hi: u32,
    /// Only decisions whose best move a shallow search finds (`Some(true)`), or misses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shallow: Option<bool>,
}

impl Stratum {
    pub fn contains(&self, d: &Decision) -> bool {
        (self.lo..=self.hi).contains(&d.near_best()) && (self.shallow.is_none() || self.shallow == d.shallow)
    }
    pub fn label(&self) -> String {
        let range = match (self.lo, self.hi) {
            (a, b) if a == b => format!("{a}"),
            (a, u32::MAX) => format!("{a}-"),
            (a, b) => format!("{a}-{b}"),
        };
        match self.shallow {
            None => range,
            Some(true) => format!("{range}s"),
            Some(false) => format!("{range}h"),
        }
    }
}

/// Each stratum split in two: best move found by the shallow search (`s`) or hidden from it (`h`).
pub fn split_shallow(strata: &[Stratum]) -> Vec<Stratum> {
    strata
        .iter()
        .flat_map(|st| [Stratum { shallow: Some(true), ..*st }, Stratum { shallow: Some(false), ..*st }])
        .collect()
}

/// Parses `1,2,3-4,5-` (near-best counts; `all` = one stratum).
pub fn parse_strata(text: &str) -> Result<Vec<Stratum>, String> {
    if text.trim() == "all" {
        return Ok(vec![Stratum { lo: 1, hi: u32::MAX, shallow: None }]);
    }
    let mut out: Vec<Stratum> = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let num = |t: &str| t.trim().parse::<u32>().map_err(|_| format!("strata '{text}': bad count '{t}'"));
        let st = match part.split_once('-') {
            Some((a, "")) => Stratum { lo: num(a)?, hi: u32::MAX, shallow: None },
            Some((a, b)) => Stratum { lo: num(a)?, hi: num(b)?, shallow: None },
            None => Stratum { lo: num(part)?, hi: num(part)?, shallow: None },
        };
        let expected = out.last().map_or(1, |p| p.hi.saturating_add(1));
        if st.lo != expected || st.hi < st.lo {
            return Err(format!("strata '{text}': must be consecutive ranges from 1 up, e.g. 1,2,3-4,5-"));
        }
        out.push(st);
    }
    if out.last().is_none_or(|s| s.hi != u32::MAX) {
        return Err(format!("strata '{text}': the last range must be open, e.g. 5-"));
    }
    Ok(out)
}

/// One calibration band in one stratum: the humans of a rating band, fitted.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BandFit {
    pub band: u32,
    pub decisions: usize,
    pub games: usize,
    pub mean_rating: f64,
    pub s: f64,
    pub c: f64,
    pub projected_ase: f64,
}

/// The calibration of one difficulty stratum: Elo = intercept + slope × projected ASE, the
/// projection taken over the reference decisions of the same stratum.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StratumFit {
    pub stratum: Stratum,
    pub reference_decisions: usize,
    pub bands: Vec<BandFit>,
    pub intercept: f64,
    pub slope: f64,
    pub r2: f64,
    pub rmse: f64,
}

impl StratumFit {
    pub fn elo(&self, projected_ase: f64) -> f64 {
        self.intercept + self.slope * projected_ase
    }
}

/// The reference set the projections were computed on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reference {
    /// Path as given at calibration (relative to the repository root when run there).
    pub path: String,
    pub decisions: usize,
    /// blake3 of the reference decisions (losses and chosen loss, in file order).
    pub checksum: String,
}

/// `calibration/ipr-model.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IprModel {
    pub format: String,
    pub oracle: String,
    pub depth: i32,
    pub reference: Reference,
    /// Which games of the calibration file were used (game % every == offset).
    pub every: usize,
    pub offset: usize,
    /// The consistency c held fixed for every player (one-parameter model), or fitted per player.
    #[serde(default)]
    pub fixed_c: Option<f64>,
    /// The strata also split by whether a depth-[`SHALLOW_DEPTH`] search finds the best move.
    #[serde(default)]
    pub shallow_split: bool,
    pub strata: Vec<StratumFit>,
}

pub const MODEL_FORMAT: &str = "sparring-ipr-2";

pub fn checksum(reference: &[&Decision]) -> String {
    let mut h = blake3::Hasher::new();
    for d in reference {
        for &(l, n) in &d.losses {
            h.update(&l.to_le_bytes());
            h.update(&n.to_le_bytes());
        }
        h.update(&[0xff, 0xff]);
        h.update(&d.chosen.to_le_bytes());
    }
    h.finalize().to_hex()[..16].to_string()
}

/// Ordinary least squares y = a + b x; returns (a, b, r², rmse).
pub fn line_fit(points: &[(f64, f64)]) -> (f64, f64, f64, f64) {
    let n = points.len() as f64;
    let mx = points.iter().map(|p| p.0).sum::<f64>() / n;
    let my = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let syy: f64 = points.iter().map(|p| (p.1 - my).powi(2)).sum();
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    let a = my - b * mx;
    let sse: f64 = points.iter().map(|p| (p.1 - a - b * p.0).powi(2)).sum();
    let r2 = if syy > 0.0 { 1.0 - sse / syy } else { 0.0 };
    (a, b, r2, (sse / n).sqrt())
}

/// Distinct games of a set of decisions, with each game's decisions.
pub fn by_game<'a>(decisions: &[&'a Decision]) -> Vec<Vec<&'a Decision>> {
    let mut map: BTreeMap<(u32, u32), Vec<&Decision>> = BTreeMap::new();
    for d in decisions {
        map.entry(d.game).or_default().push(d);
    }
    map.into_values().collect()
}

fn in_stratum<'a>(ds: &[&'a Decision], st: Stratum) -> Vec<&'a Decision> {
    ds.iter().copied().filter(|d| st.contains(d)).collect()
}

/// What a calibration is fitted from.
pub struct CalibrationInput<'a> {
    pub calibration: &'a [&'a Decision],
    pub reference: &'a [&'a Decision],
    pub reference_path: &'a str,
    pub oracle: &'a str,
    pub depth: i32,
    pub every: usize,
    pub offset: usize,
    pub fixed_c: Option<f64>,
    /// Near-best strata (split further when `shallow_split`; decisions must then be marked).
    pub strata: &'a [Stratum],
    pub shallow_split: bool,
}

/// Fits the calibration: per stratum, one `(s, c)` per band of the calibration decisions, each
/// band's projected ASE on the stratum's reference decisions, and the line from projected ASE to
/// the band's mean rating.
pub fn calibrate(input: &CalibrationInput) -> Result<IprModel, String> {
    if input.shallow_split && input.calibration.iter().chain(input.reference).any(|d| d.shallow.is_none()) {
        return Err("the shallow split needs every decision marked (Decision::mark_shallow)".into());
    }
    let all_strata = if input.shallow_split { split_shallow(input.strata) } else { input.strata.to_vec() };
    let mut strata = Vec::new();
    for &st in &all_strata {
        let refs = in_stratum(input.reference, st);
        let mut per_band: BTreeMap<u32, Vec<&Decision>> = BTreeMap::new();
        for d in in_stratum(input.calibration, st) {
            per_band.entry(d.band).or_default().push(d);
        }
        let mut bands = Vec::new();
        for (band, ds) in &per_band {
            if ds.len() < MIN_DECISIONS {
                continue;
            }
            let f = fit(ds, input.fixed_c);
            bands.push(BandFit {
                band: *band,
                decisions: ds.len(),
                games: by_game(ds).len(),
                mean_rating: ds.iter().map(|d| f64::from(d.rating)).sum::<f64>() / ds.len() as f64,
                s: f.s,
                c: f.c,
                projected_ase: projected_ase(&refs, f),
            });
        }
        if bands.len() < 2 || refs.is_empty() {
            return Err(format!(
                "stratum {}: needs reference decisions and at least two bands with >= {MIN_DECISIONS} decisions",
                st.label()
            ));
        }
        let points: Vec<(f64, f64)> = bands.iter().map(|b| (b.projected_ase, b.mean_rating)).collect();
        let (intercept, slope, r2, rmse) = line_fit(&points);
        strata.push(StratumFit { stratum: st, reference_decisions: refs.len(), bands, intercept, slope, r2, rmse });
    }
    Ok(IprModel {
        format: MODEL_FORMAT.into(),
        oracle: input.oracle.into(),
        depth: input.depth,
        reference: Reference {
            path: input.reference_path.into(),
            decisions: input.reference.len(),
            checksum: checksum(input.reference),
        },
        every: input.every,
        offset: input.offset,
        fixed_c: input.fixed_c,
        shallow_split: input.shallow_split,
        strata,
    })
}

/// One stratum's part of a rating.
#[derive(Clone, Debug, Serialize)]
pub struct StratumRating {
    pub stratum: String,
    pub decisions: usize,
    pub elo: f64,
    /// Bootstrap standard deviation (NaN when the stratum had too few decisions to fit).
    pub sd: f64,
}

/// A rated group of decisions.
#[derive(Clone, Debug, Serialize)]
pub struct Rating {
    pub group: String,
    pub decisions: usize,
    pub games: usize,
    /// Mean recorded rating of the movers (the set Elo for engine points).
    pub recorded: f64,
    /// The decisions' own mean capped loss and mean scaled error (not difficulty-adjusted).
    pub mean_loss: f64,
    pub ase: f64,
    /// Inverse-variance weighted over the strata.
    pub elo: f64,
    /// 95 % interval from resampling whole games (decisions when there are fewer than
    /// [`MIN_RESAMPLE_GAMES`] games; see `resampled`).
    pub elo_lo: f64,
    pub elo_hi: f64,
    /// What the bootstrap resampled: `games` or `decisions`.
    pub resampled: &'static str,
    pub strata: Vec<StratumRating>,
}

/// Elo of each stratum for one set of decisions (None where a stratum has too few);
/// `refs[k]`: the reference decisions of the model's stratum k.
fn stratum_elos(decisions: &[&Decision], refs: &[Vec<&Decision>], model: &IprModel) -> Vec<Option<f64>> {
    model
        .strata
        .iter()
        .zip(refs)
        .map(|(st, refs)| {
            let ds = in_stratum(decisions, st.stratum);
            if ds.len() < MIN_DECISIONS {
                return None;
            }
            Some(st.elo(projected_ase(refs, fit(&ds, model.fixed_c))))
        })
        .collect()
}

fn weighted(elos: &[Option<f64>], weights: &[f64]) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    for (e, w) in elos.iter().zip(weights) {
        if let Some(e) = e {
            num += e * w;
            den += w;
        }
    }
    if den > 0.0 { num / den } else { f64::NAN }
}

/// Rates one group: per stratum a maximum-likelihood fit, projection and Elo; the strata combined
/// with inverse-variance weights (variances from resampling whole games), and a 95 % interval
/// from the same resamples.
pub fn rate(
    group: &str,
    decisions: &[&Decision],
    reference: &[&Decision],
    model: &IprModel,
    bootstrap: usize,
    seed: u64,
) -> Result<Rating, String> {
    if decisions.len() < MIN_DECISIONS {
        return Err(format!("group {group}: {} decisions, need at least {MIN_DECISIONS}", decisions.len()));
    }
    // The reference decisions of each stratum, once for the point estimate and every resample.
    let refs: Vec<Vec<&Decision>> = model.strata.iter().map(|st| in_stratum(reference, st.stratum)).collect();
    let refs = &refs;
    let point = stratum_elos(decisions, refs, model);
    if point.iter().all(Option::is_none) {
        return Err(format!("group {group}: no difficulty stratum has {MIN_DECISIONS} decisions"));
    }
    let games = by_game(decisions);
    let per_decision: Vec<Vec<&Decision>>;
    let (units, resampled) = if games.len() >= MIN_RESAMPLE_GAMES {
        (&games, "games")
    } else {
        per_decision = decisions.iter().map(|&d| vec![d]).collect();
        (&per_decision, "decisions")
    };
    // The resamples are drawn up front from one seeded stream, then fitted on all cores: the result
    // does not depend on the number of threads.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let draws: Vec<Vec<usize>> = (0..bootstrap.max(2))
        .map(|_| (0..units.len()).map(|_| (rng.next_u64() % units.len() as u64) as usize).collect())
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(draws.len());
    let chunk = draws.len().div_ceil(threads).max(1);
    let boot: Vec<Vec<Option<f64>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = draws
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|draw| {
                            let sample: Vec<&Decision> = draw.iter().flat_map(|&g| units[g].iter().copied()).collect();
                            stratum_elos(&sample, refs, model)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("bootstrap worker")).collect()
    });
    // Per-stratum bootstrap variance; a stratum fitted in the sample but missing from some
    // resamples keeps the resamples it has.
    let sds: Vec<f64> = (0..model.strata.len())
        .map(|k| {
            let xs: Vec<f64> = boot.iter().filter_map(|b| b[k]).collect();
            if point[k].is_none() || xs.len() < 2 {
                return f64::NAN;
            }
            let m = xs.iter().sum::<f64>() / xs.len() as f64;
            (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64).sqrt()
        })
        .collect();
    let weights: Vec<f64> =
        sds.iter().map(|sd| if sd.is_finite() && *sd > 0.0 { 1.0 / (sd * sd) } else { 0.0 }).collect();
    let elo = weighted(&point, &weights);
    let mut combined: Vec<f64> = boot.iter().map(|b| weighted(b, &weights)).filter(|x| x.is_finite()).collect();
    combined.sort_by(f64::total_cmp);
    let q = |p: f64| {
        if combined.is_empty() { f64::NAN } else { combined[((combined.len() - 1) as f64 * p).round() as usize] }
    };
    let n = decisions.len() as f64;
    Ok(Rating {
        group: group.into(),
        decisions: decisions.len(),
        games: games.len(),
        recorded: decisions.iter().map(|d| f64::from(d.rating)).sum::<f64>() / n,
        mean_loss: decisions.iter().map(|d| f64::from(d.chosen)).sum::<f64>() / n,
        ase: decisions.iter().map(|d| scaled_error(i32::from(d.chosen))).sum::<f64>() / n,
        elo,
        elo_lo: q(0.025),
        elo_hi: q(0.975),
        resampled,
        strata: model
            .strata
            .iter()
            .zip(point.iter().zip(&sds))
            .map(|(st, (e, sd))| StratumRating {
                stratum: st.stratum.label(),
                decisions: in_stratum(decisions, st.stratum).len(),
                elo: e.unwrap_or(f64::NAN),
                sd: *sd,
            })
            .collect(),
    })
}

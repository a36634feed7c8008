//! Rating bands and the per-band statistics of a move chooser against an oracle and the humans
//! (match, top move, loss summary, the two-sample Kolmogorov–Smirnov distance): what the
//! human-likeness bench reports and what the ladder calibration fits to.

use crate::common::quality::{LOSS_CAP, scaled_error};
use crate::common::scored::OraclePosition;
use shakmaty::Move;
use sparring::board::notation::uci as uci_of;
use std::collections::BTreeMap;

/// Rating bands `lo, lo+200, …` below `hi`, from text like `800-2400`.
pub fn parse_bands(text: &str) -> Result<Vec<u32>, String> {
    let (a, b) = text.split_once('-').ok_or_else(|| format!("bands '{text}': expected LO-HI"))?;
    let lo: u32 = a.trim().parse().map_err(|_| format!("bad band start '{a}'"))?;
    let hi: u32 = b.trim().parse().map_err(|_| format!("bad band end '{b}'"))?;
    if !lo.is_multiple_of(200) || !hi.is_multiple_of(200) || hi <= lo {
        return Err(format!("bands '{text}': bounds must be multiples of 200 with LO < HI"));
    }
    Ok((lo..hi).step_by(200).collect())
}

/// The 200-point band of a rating.
pub fn band_of(rating: u32) -> u32 {
    rating / 200 * 200
}

/// Two-sample Kolmogorov–Smirnov statistic: the largest gap between the two empirical CDFs
/// (ties handled exactly: both CDFs are evaluated after every distinct value). 0 when either
/// sample is empty.
pub fn ks_distance(a: &[i32], b: &[i32]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort_unstable();
    b.sort_unstable();
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (mut i, mut j) = (0usize, 0usize);
    let mut d: f64 = 0.0;
    while i < a.len() || j < b.len() {
        let x = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) => x,
            (None, Some(&y)) => y,
            (None, None) => break,
        };
        while i < a.len() && a[i] == x {
            i += 1;
        }
        while j < b.len() && b[j] == x {
            j += 1;
        }
        d = d.max((i as f64 / na - j as f64 / nb).abs());
    }
    d
}

/// Summary of a loss sample.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LossSummary {
    pub mean_loss: f64,
    pub mean_scaled: f64,
    pub rate50: f64,
    pub rate100: f64,
    pub rate300: f64,
}

impl LossSummary {
    pub fn of(losses: &[i32]) -> LossSummary {
        if losses.is_empty() {
            return LossSummary::default();
        }
        let n = losses.len() as f64;
        let rate = |t: i32| losses.iter().filter(|&&l| l >= t).count() as f64 / n;
        LossSummary {
            mean_loss: losses.iter().map(|&l| f64::from(l.min(LOSS_CAP))).sum::<f64>() / n,
            mean_scaled: losses.iter().map(|&l| scaled_error(l)).sum::<f64>() / n,
            rate50: rate(50),
            rate100: rate(100),
            rate300: rate(LOSS_CAP),
        }
    }
}

/// One band's numbers for one setting, with the humans' numbers on the same positions.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BandStats {
    pub band: u32,
    /// Eligible positions measured (errors excluded).
    pub n: usize,
    /// Positions where the chooser gave no move or one that is not legal there.
    pub errors: usize,
    /// Chooser's move == the human's move.
    pub match_rate: f64,
    /// Chooser's move == the oracle's best move.
    pub top_rate: f64,
    pub setting: LossSummary,
    /// Two-sample KS distance between the setting's and the humans' capped losses.
    pub ks: f64,
    pub human_top_rate: f64,
    pub human: LossSummary,
}

/// Per-band statistics from one chosen move (UCI text, `None` = no answer) per position.
/// `positions` should be the eligible ones; ineligible positions are skipped.
pub fn stats_from_moves(positions: &[OraclePosition], moves: &[Option<String>]) -> Vec<BandStats> {
    #[derive(Default)]
    struct Acc {
        losses: Vec<i32>,
        human: Vec<i32>,
        matches: usize,
        tops: usize,
        human_tops: usize,
        errors: usize,
    }
    let mut bands: BTreeMap<u32, Acc> = BTreeMap::new();
    for (p, m) in positions.iter().zip(moves) {
        if !p.is_eligible() {
            continue;
        }
        let acc = bands.entry(p.pos.band).or_default();
        let best = p.best().map(|b| b.uci.as_str()).unwrap_or("");
        let Some(loss) = m.as_deref().and_then(|m| p.loss(m)) else {
            acc.errors += 1;
            continue;
        };
        let m = m.as_deref().unwrap_or("");
        acc.losses.push(loss);
        acc.human.push(p.loss(&p.pos.human).unwrap_or(LOSS_CAP));
        acc.matches += usize::from(m == p.pos.human);
        acc.tops += usize::from(m == best);
        acc.human_tops += usize::from(p.pos.human == best);
    }
    bands
        .into_iter()
        .map(|(band, a)| {
            let n = a.losses.len();
            let frac = |k: usize| if n == 0 { 0.0 } else { k as f64 / n as f64 };
            BandStats {
                band,
                n,
                errors: a.errors,
                match_rate: frac(a.matches),
                top_rate: frac(a.tops),
                setting: LossSummary::of(&a.losses),
                ks: ks_distance(&a.losses, &a.human),
                human_top_rate: frac(a.human_tops),
                human: LossSummary::of(&a.human),
            }
        })
        .collect()
}

/// In-process measurement of a move chooser on the eligible positions of `positions` (the
/// chooser is only asked about eligible ones). A move not in the oracle's table counts as an
/// error and is left out of the band's statistics.
pub fn measure_with(positions: &[OraclePosition], mut choose: impl FnMut(&OraclePosition) -> Move) -> Vec<BandStats> {
    let moves: Vec<Option<String>> =
        positions.iter().map(|p| if p.is_eligible() { Some(uci_of(choose(p))) } else { None }).collect();
    stats_from_moves(positions, &moves)
}

/// The eligible positions, optionally only the first `limit` of each band.
pub fn eligible(positions: &[OraclePosition], limit: Option<usize>) -> Vec<OraclePosition> {
    let mut per: BTreeMap<u32, usize> = BTreeMap::new();
    positions
        .iter()
        .filter(|p| p.is_eligible())
        .filter(|p| {
            let k = per.entry(p.pos.band).or_default();
            *k += 1;
            limit.is_none_or(|l| *k <= l)
        })
        .cloned()
        .collect()
}

//! `sparring calibrate curve`: one smooth, monotone curve of the humans' loss against rating
//! (issue 23), so that a ladder point's per-move target is the curve at its Elo instead of the
//! noisy mean of one thin band.
//!
//! Per band, over the eligible bench positions whose mover is not a computer account: the mean
//! rating of the movers, the mean loss and the loss quantiles (50, 75, 90 %: where KS looks). Each
//! statistic `y` is fitted as `ln(y + 1) = a + b·x + c·x²` with `x = (rating − 1600) / 1000`,
//! weighted by the band's positions; where the quadratic is not falling over 800-2400 the straight
//! line is used. The 95 % intervals come from a bootstrap over games within each band (seeded, so
//! the table is reproducible).
//!
//! Who counts as a person: the named computer accounts ([`crate::common::games::COMPUTER_ACCOUNTS`])
//! are left out, so is any account whose play no person produces in these games (at least
//! [`SUSPECT_MIN_GAMES`] games in a band with a mean loss below [`SUSPECT_LOSS_FACTOR`] of the
//! band's), and no account may make up more than [`MAX_ACCOUNT_SHARE`] of a band's positions (its
//! later games are dropped). The report lists every account so excluded or capped, and why.

use crate::common::games::{GameRecord, is_computer};
use crate::common::scored::OraclePosition;
use crate::common::split::{Part, part_of_index as part_of};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Resamples of the bootstrap.
pub const BOOTSTRAP: usize = 400;
/// Its seed.
pub const CURVE_SEED: u64 = 2323;
/// The statistics fitted: mean, then the quantiles.
pub const QUANTILES: [f64; 3] = [0.5, 0.75, 0.9];
const STATS: usize = 1 + QUANTILES.len();
/// Rating range the curve must fall over.
const RANGE: (f64, f64) = (800.0, 2400.0);
/// Bands with fewer positions are reported but not fitted.
const MIN_POSITIONS: usize = 100;
/// Largest share of a band's positions one account may have.
pub const MAX_ACCOUNT_SHARE: f64 = 0.10;
/// An account with at least this many games in a band ...
pub const SUSPECT_MIN_GAMES: usize = 20;
/// ... and a mean loss below this fraction of the band's plays like no person here: left out.
pub const SUSPECT_LOSS_FACTOR: f64 = 0.4;

/// One band's positions, grouped by game.
struct Band {
    band: u32,
    /// (rating, loss) per position, grouped by game.
    games: Vec<Vec<(f64, f64)>>,
}

/// A band's statistics: mean rating, positions, then mean loss and the quantiles.
#[derive(Clone, Copy, Debug)]
struct BandStats {
    rating: f64,
    n: usize,
    y: [f64; STATS],
}

fn stats_of(rows: &[(f64, f64)]) -> BandStats {
    let n = rows.len();
    let rating = rows.iter().map(|r| r.0).sum::<f64>() / n.max(1) as f64;
    let mut losses: Vec<f64> = rows.iter().map(|r| r.1).collect();
    losses.sort_by(f64::total_cmp);
    let mut y = [0.0; STATS];
    y[0] = losses.iter().sum::<f64>() / n.max(1) as f64;
    for (k, q) in QUANTILES.iter().enumerate() {
        let i = ((n as f64 - 1.0) * q).round() as usize;
        y[k + 1] = losses.get(i).copied().unwrap_or(0.0);
    }
    BandStats { rating, n, y }
}

/// `ln(y + 1) = c0 + c1·x + c2·x²`.
#[derive(Clone, Copy, Debug)]
pub struct Fit {
    pub c: [f64; 3],
}

impl Fit {
    pub fn at(&self, rating: f64) -> f64 {
        let x = (rating - 1600.0) / 1000.0;
        (self.c[0] + self.c[1] * x + self.c[2] * x * x).exp() - 1.0
    }
    fn falls(&self) -> bool {
        let slope = |r: f64| self.c[1] + 2.0 * self.c[2] * (r - 1600.0) / 1000.0;
        slope(RANGE.0) < 0.0 && slope(RANGE.1) < 0.0
    }
}

/// Weighted least squares of `ln(y + 1)` on `x` (and `x²` when `quadratic`).
fn wls(points: &[(f64, f64, f64)], quadratic: bool) -> Option<Fit> {
    let k = if quadratic { 3 } else { 2 };
    let mut a = [[0.0f64; 3]; 3];
    let mut b = [0.0f64; 3];
    for &(r, y, w) in points {
        let x = (r - 1600.0) / 1000.0;
        let f = [1.0, x, x * x];
        let t = (y + 1.0).ln();
        for i in 0..k {
            b[i] += w * f[i] * t;
            for j in 0..k {
                a[i][j] += w * f[i] * f[j];
            }
        }
    }
    // Gaussian elimination on the k×k system.
    for col in 0..k {
        let piv = (col..k).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, piv);
        b.swap(col, piv);
        for row in 0..k {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[row].iter_mut().zip(pivot_row).take(k) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    let mut c = [0.0; 3];
    for i in 0..k {
        c[i] = b[i] / a[i][i];
    }
    Some(Fit { c })
}

/// The monotone fit of one statistic over the bands: quadratic where it falls, else a line.
fn fit_stat(bands: &[BandStats], s: usize) -> Option<Fit> {
    let pts: Vec<(f64, f64, f64)> =
        bands.iter().filter(|b| b.n >= MIN_POSITIONS).map(|b| (b.rating, b.y[s], b.n as f64)).collect();
    if pts.len() < 3 {
        return None;
    }
    wls(&pts, true).filter(Fit::falls).or_else(|| wls(&pts, false))
}

/// A band as reported: its number, statistics and each statistic's 95 % bootstrap interval.
type BandRow = (u32, BandStats, [(f64, f64); STATS]);

/// The humans' curve: a fit per statistic, with bootstrap fits for intervals.
pub struct Curve {
    pub fits: [Fit; STATS],
    boot: Vec<[Fit; STATS]>,
    bands: Vec<BandRow>,
    /// Accounts left out or capped.
    pub excluded: Vec<Excluded>,
}

impl Curve {
    /// The curve's statistic `s` (0 = mean loss, then [`QUANTILES`]) at `rating`, with its 95 %
    /// bootstrap interval.
    pub fn at(&self, s: usize, rating: f64) -> (f64, f64, f64) {
        let mut v: Vec<f64> = self.boot.iter().map(|f| f[s].at(rating)).collect();
        v.sort_by(f64::total_cmp);
        let q = |p: f64| v.get(((v.len() as f64 - 1.0) * p).round() as usize).copied().unwrap_or(f64::NAN);
        (self.fits[s].at(rating), q(0.025), q(0.975))
    }
}

/// An account left out of a band or capped in it, and why.
#[derive(Clone, Debug)]
pub struct Excluded {
    pub band: u32,
    pub account: String,
    pub positions: usize,
    pub games: usize,
    pub mean_loss: f64,
    /// Positions kept (0 when left out).
    pub kept: usize,
    pub why: &'static str,
}

/// (band, game, account, rating, loss) of every eligible position of `part`.
type Row = (u32, usize, String, f64, f64);

fn rows(positions: &[OraclePosition], games: &[GameRecord], part: Option<Part>) -> Vec<Row> {
    let mut out = Vec::new();
    for p in positions.iter().filter(|p| p.is_eligible()) {
        if part.is_some_and(|want| {
            let got = part_of(p.pos.game);
            // "fit" means everything the fit may use: the fit and validation parts.
            if want == Part::Fit { got == Part::Test } else { got != want }
        }) {
            continue;
        }
        let Some(g) = games.get(p.pos.game) else { continue };
        let name = g.mover_name(p.pos.ply as usize);
        let Some(loss) = p.loss(&p.pos.human) else { continue };
        out.push((p.pos.band, p.pos.game, name.to_string(), f64::from(p.pos.rating), f64::from(loss)));
    }
    out
}

/// The people's positions per band, grouped by game, and the accounts left out or capped.
fn collect(positions: &[OraclePosition], games: &[GameRecord], part: Option<Part>) -> (Vec<Band>, Vec<Excluded>) {
    let mut per_band: BTreeMap<u32, Vec<Row>> = BTreeMap::new();
    for r in rows(positions, games, part) {
        per_band.entry(r.0).or_default().push(r);
    }
    let mut bands = Vec::new();
    let mut excluded = Vec::new();
    for (band, rows) in per_band {
        let band_mean = rows.iter().map(|r| r.4).sum::<f64>() / rows.len().max(1) as f64;
        let mut by_account: BTreeMap<&str, Vec<&Row>> = BTreeMap::new();
        for r in &rows {
            by_account.entry(r.2.as_str()).or_default().push(r);
        }
        let mut drop: std::collections::BTreeSet<&str> = Default::default();
        for (&acc, rs) in &by_account {
            let games_n = rs.iter().map(|r| r.1).collect::<std::collections::BTreeSet<_>>().len();
            let mean = rs.iter().map(|r| r.4).sum::<f64>() / rs.len() as f64;
            let why = if is_computer(acc) {
                Some("computer account (named)")
            } else if games_n >= SUSPECT_MIN_GAMES && mean < SUSPECT_LOSS_FACTOR * band_mean {
                Some("plays like no person here (low loss over many games)")
            } else {
                None
            };
            if let Some(why) = why {
                drop.insert(acc);
                excluded.push(Excluded {
                    band,
                    account: acc.to_string(),
                    positions: rs.len(),
                    games: games_n,
                    mean_loss: mean,
                    kept: 0,
                    why,
                });
            }
        }
        let people: usize = by_account.iter().filter(|(a, _)| !drop.contains(*a)).map(|(_, r)| r.len()).sum();
        let cap = ((people as f64) * MAX_ACCOUNT_SHARE).floor().max(1.0) as usize;
        let mut per_game: BTreeMap<usize, Vec<(f64, f64)>> = BTreeMap::new();
        for (&acc, rs) in &by_account {
            if drop.contains(acc) {
                continue;
            }
            // In game order, so that the cap keeps an account's first games.
            let mut rs = rs.clone();
            rs.sort_by_key(|r| r.1);
            let kept = rs.len().min(cap);
            if kept < rs.len() {
                let games_n = rs.iter().map(|r| r.1).collect::<std::collections::BTreeSet<_>>().len();
                excluded.push(Excluded {
                    band,
                    account: acc.to_string(),
                    positions: rs.len(),
                    games: games_n,
                    mean_loss: rs.iter().map(|r| r.4).sum::<f64>() / rs.len() as f64,
                    kept,
                    why: "capped: more than its share of the band",
                });
            }
            for r in &rs[..kept] {
                per_game.entry(r.1).or_default().push((r.3, r.4));
            }
        }
        bands.push(Band { band, games: per_game.into_values().collect() });
    }
    (bands, excluded)
}

/// Builds the curve from the bench positions of `part` (None: all games).
pub fn build(positions: &[OraclePosition], games: &[GameRecord], part: Option<Part>) -> Result<Curve, String> {
    let (bands, excluded) = collect(positions, games, part);
    let stats: Vec<BandStats> = bands.iter().map(|b| stats_of(&b.games.concat())).collect();
    let fit_all = |st: &[BandStats]| -> Option<[Fit; STATS]> {
        let mut out = [Fit { c: [0.0; 3] }; STATS];
        for (s, o) in out.iter_mut().enumerate() {
            *o = fit_stat(st, s)?;
        }
        Some(out)
    };
    let fits = fit_all(&stats).ok_or("too few bands with enough positions for a curve")?;
    let mut rng = ChaCha20Rng::seed_from_u64(CURVE_SEED);
    let mut boot = Vec::with_capacity(BOOTSTRAP);
    let mut band_boot: Vec<Vec<[f64; STATS]>> = vec![Vec::new(); bands.len()];
    for _ in 0..BOOTSTRAP {
        let st: Vec<BandStats> = bands
            .iter()
            .map(|b| {
                let k = b.games.len();
                let mut rows = Vec::new();
                for _ in 0..k {
                    rows.extend_from_slice(&b.games[(rng.next_u64() % k as u64) as usize]);
                }
                stats_of(&rows)
            })
            .collect();
        for (i, s) in st.iter().enumerate() {
            band_boot[i].push(s.y);
        }
        if let Some(f) = fit_all(&st) {
            boot.push(f);
        }
    }
    let bands = bands
        .iter()
        .zip(&stats)
        .zip(&band_boot)
        .map(|((b, s), bb)| {
            let mut ci = [(0.0, 0.0); STATS];
            for (k, c) in ci.iter_mut().enumerate() {
                let mut v: Vec<f64> = bb.iter().map(|y| y[k]).collect();
                v.sort_by(f64::total_cmp);
                let q = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
                *c = (q(0.025), q(0.975));
            }
            (b.band, *s, ci)
        })
        .collect();
    Ok(Curve { fits, boot, bands, excluded })
}

/// CSV header of [`table`].
pub const CSV_HEADER: &str = "kind,band_or_elo,positions,rating,raw_mean,raw_lo,raw_hi,curve_mean,curve_lo,curve_hi,\
raw_q50,curve_q50,raw_q75,curve_q75,raw_q90,curve_q90";

/// The curve beside the raw band values (one row per band at its movers' mean rating), then the
/// curve at each ladder point's Elo: CSV text and a readable table.
pub fn table(curve: &Curve, points: &[i32]) -> (String, String) {
    let mut csv = String::from(CSV_HEADER);
    csv.push('\n');
    let mut text = String::from(
        "band  positions  rating   raw mean [95 %]        curve [95 %]          q50 raw/curve  q75 raw/curve  q90 raw/curve\n",
    );
    for (band, s, ci) in &curve.bands {
        let (m, lo, hi) = curve.at(0, s.rating);
        let q: Vec<(f64, f64)> = (1..STATS).map(|k| (s.y[k], curve.at(k, s.rating).0)).collect();
        let _ = writeln!(
            csv,
            "band,{band},{},{:.0},{:.2},{:.2},{:.2},{:.2},{:.2},{:.2},{:.0},{:.1},{:.0},{:.1},{:.0},{:.1}",
            s.n, s.rating, s.y[0], ci[0].0, ci[0].1, m, lo, hi, q[0].0, q[0].1, q[1].0, q[1].1, q[2].0, q[2].1
        );
        let _ = writeln!(
            text,
            "{band:>4}  {:>9}  {:>6.0}   {:5.1} [{:5.1}, {:5.1}]   {:5.1} [{:5.1}, {:5.1}]   {:4.0} / {:5.1}   {:4.0} / {:5.1}   {:4.0} / {:5.1}{}",
            s.n,
            s.rating,
            s.y[0],
            ci[0].0,
            ci[0].1,
            m,
            lo,
            hi,
            q[0].0,
            q[0].1,
            q[1].0,
            q[1].1,
            q[2].0,
            q[2].1,
            if s.n < MIN_POSITIONS { "  (not fitted: too few)" } else { "" }
        );
    }
    text.push_str(
        "\nladder point targets (the curve at the point's Elo):\n elo   mean [95 %]            q50    q75    q90\n",
    );
    for &elo in points {
        let r = f64::from(elo);
        let (m, lo, hi) = curve.at(0, r);
        let q: Vec<f64> = (1..STATS).map(|k| curve.at(k, r).0).collect();
        let _ = writeln!(csv, "point,{elo},,{elo},,,,{m:.2},{lo:.2},{hi:.2},,{:.1},,{:.1},,{:.1}", q[0], q[1], q[2]);
        let _ = writeln!(text, "{elo:>4}   {m:5.1} [{lo:5.1}, {hi:5.1}]   {:5.1}  {:5.1}  {:5.1}", q[0], q[1], q[2]);
    }
    text.push_str("\naccounts left out or capped (band, account, positions, games, mean loss, kept, why):\n");
    for e in &curve.excluded {
        let _ = writeln!(
            text,
            "{:>4}  {:<18} {:>5} {:>4} {:6.1} {:>5}  {}",
            e.band, e.account, e.positions, e.games, e.mean_loss, e.kept, e.why
        );
    }
    let f = &curve.fits[0];
    let _ = writeln!(
        text,
        "\nmean loss: ln(y + 1) = {:.4} {:+.4}·x {:+.4}·x², x = (rating − 1600)/1000; {} bootstrap resamples over games",
        f.c[0],
        f.c[1],
        f.c[2],
        curve.boot.len()
    );
    (csv, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_log_linear_curve_is_recovered() {
        let bands: Vec<BandStats> = (0..8)
            .map(|i| {
                let r = 900.0 + 200.0 * f64::from(i);
                let y = (4.0 - 0.8 * (r - 1600.0) / 1000.0).exp() - 1.0;
                BandStats { rating: r, n: 500, y: [y; STATS] }
            })
            .collect();
        let f = fit_stat(&bands, 0).unwrap();
        assert!((f.c[0] - 4.0).abs() < 1e-9 && (f.c[1] + 0.8).abs() < 1e-9 && f.c[2].abs() < 1e-9, "{f:?}");
        assert!((f.at(1600.0) - (4f64.exp() - 1.0)).abs() < 1e-6);
    }

    #[test]
    fn a_curve_that_would_rise_is_held_to_a_line() {
        // Falling, then rising at the top: the quadratic would turn up, so the line is used.
        let ys = [90.0, 80.0, 70.0, 62.0, 56.0, 52.0, 51.0, 53.0];
        let bands: Vec<BandStats> = ys
            .iter()
            .enumerate()
            .map(|(i, &y)| BandStats { rating: 900.0 + 200.0 * i as f64, n: 500, y: [y; STATS] })
            .collect();
        let f = fit_stat(&bands, 0).unwrap();
        assert!(f.falls() && f.c[2] == 0.0, "{f:?}");
    }
}

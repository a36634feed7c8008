//! Rates with 95 % intervals: Wilson's score interval for a proportion of independent moves, a
//! percentile bootstrap over clusters (games) where moves come several to a cluster, and a paired
//! bootstrap for the difference between two settings on the same positions. The bootstrap draws
//! from a fixed-seed SplitMix64 stream, so every interval is reproducible.

/// z for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;
/// Bootstrap resamples.
pub const RESAMPLES: usize = 2000;
const SEED: u64 = 0x5354_594c_4520_7631; // "STYLE v1"

/// Wilson score interval of `hits` out of `n`.
pub fn wilson(hits: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let p = hits / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// SplitMix64: a tiny, fixed pseudo-random stream for the bootstrap.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// Percentile bootstrap of `sum(num) / sum(den)` over clusters, each `(num, den)`; `None` when no
/// cluster has a denominator.
pub fn bootstrap_ratio(clusters: &[(f64, f64)]) -> Option<(f64, f64)> {
    if clusters.iter().all(|c| c.1 <= 0.0) {
        return None;
    }
    let mut rng = SplitMix(SEED);
    let mut stats = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let (mut num, mut den) = (0.0, 0.0);
        for _ in 0..clusters.len() {
            let c = clusters[rng.below(clusters.len())];
            num += c.0;
            den += c.1;
        }
        if den > 0.0 {
            stats.push(num / den);
        }
    }
    percentiles(&mut stats)
}

/// 2.5 % and 97.5 % points of `stats`.
fn percentiles(stats: &mut [f64]) -> Option<(f64, f64)> {
    if stats.is_empty() {
        return None;
    }
    stats.sort_by(f64::total_cmp);
    let at = |q: f64| stats[((q * (stats.len() - 1) as f64).round() as usize).min(stats.len() - 1)];
    Some((at(0.025), at(0.975)))
}

/// One cluster of a paired comparison: `(hits of A, hits of B, denominator)`.
pub type Paired = (f64, f64, f64);

/// Paired bootstrap of `sum(b)/sum(n) - sum(a)/sum(n)` over clusters.
pub fn bootstrap_diff(clusters: &[Paired]) -> Option<(f64, f64)> {
    if clusters.iter().all(|c| c.2 <= 0.0) {
        return None;
    }
    let mut rng = SplitMix(SEED ^ 0xd1ff);
    let mut stats = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let (mut a, mut b, mut n) = (0.0, 0.0, 0.0);
        for _ in 0..clusters.len() {
            let c = clusters[rng.below(clusters.len())];
            a += c.0;
            b += c.1;
            n += c.2;
        }
        if n > 0.0 {
            stats.push((b - a) / n);
        }
    }
    percentiles(&mut stats)
}

/// A rate's estimate and interval from its clusters: Wilson when every cluster holds at most one
/// counted move, the cluster bootstrap otherwise.
pub fn rate(clusters: &[(f64, f64)]) -> Estimate {
    let hits: f64 = clusters.iter().map(|c| c.0).sum();
    let n: f64 = clusters.iter().map(|c| c.1).sum();
    if n <= 0.0 {
        return Estimate { value: f64::NAN, lo: f64::NAN, hi: f64::NAN, n, method: "none" };
    }
    let value = hits / n;
    if clusters.iter().all(|c| c.1 <= 1.0) {
        let (lo, hi) = wilson(hits, n);
        Estimate { value, lo, hi, n, method: "wilson" }
    } else {
        let (lo, hi) = bootstrap_ratio(clusters).unwrap_or((f64::NAN, f64::NAN));
        Estimate { value, lo, hi, n, method: "bootstrap" }
    }
}

/// A point estimate with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    /// The denominator (moves, games or game-sides).
    pub n: f64,
    /// `wilson`, `bootstrap` or `none`.
    pub method: &'static str,
}

/// The paired difference B − A with its interval.
pub fn diff(clusters: &[Paired]) -> Estimate {
    let a: f64 = clusters.iter().map(|c| c.0).sum();
    let b: f64 = clusters.iter().map(|c| c.1).sum();
    let n: f64 = clusters.iter().map(|c| c.2).sum();
    if n <= 0.0 {
        return Estimate { value: f64::NAN, lo: f64::NAN, hi: f64::NAN, n, method: "none" };
    }
    let (lo, hi) = bootstrap_diff(clusters).unwrap_or((f64::NAN, f64::NAN));
    Estimate { value: (b - a) / n, lo, hi, n, method: "paired bootstrap" }
}

//! The human time model's parameter file and its distribution.
//!
//! The time `t` (seconds) a person spends on a move is a mixture: with probability
//! `p = σ(a·x)` (logistic) the move is *instant* (`t` uniform in `[0, instant_s]`), otherwise
//! `ln t = b·x + exp(c·x)·z`. `x` is the feature vector of [`super::features::Situation`]; `a`, `b`,
//! `c` are the file's `instant`, `mean` and `ln_sigma` rows. The shape of `z`:
//!
//! - version 1 files: standard normal, conditioned on `t > instant_s`;
//! - files with `residual` (version 2 on): the empirical distribution of the standardised
//!   residuals `(ln t − b·x)/exp(c·x)` of the fit's non-instant moves, as `residual.len()`
//!   quantiles at `(k + ½)/K`, linearly interpolated and held flat beyond the ends, conditioned
//!   on `t > instant_s` like version 1's normal. People's `ln t` is skewed to the left (many quick
//!   moves, a hard upper end); a normal of the same spread puts too much time in the upper tail,
//!   which made version 1 spend too much, most in blitz.
//!
//! A draw takes exactly three `uniform_f64` from the decision's stream, in this order: the
//! instant draw, then the uniform of the time (see [`Prediction::from_uniforms`]), then one
//! spare; all three always drawn.
//!
//! File (TOML, frozen like the profiles: `name`, `version`, a manifest entry):
//!
//! ```toml
//! name = "human-time"
//! version = 1
//! description = "..."
//! features = ["one", "ln_clock", ...]   # must be exactly super::features::NAMES
//! instant_s = 1.0
//! instant = [...]                        # one coefficient per feature
//! mean = [...]
//! ln_sigma = [...]
//! residual = [...]                       # version 2 on: quantiles of the standardised residual
//! [fit]                                  # free text: data, split, counts
//! ```

use super::features::{COUNT, NAMES};
use crate::seed;
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A loaded time model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeModel {
    pub name: String,
    pub version: u32,
    pub description: String,
    pub features: Vec<String>,
    pub instant_s: f64,
    pub instant: Vec<f64>,
    pub mean: Vec<f64>,
    pub ln_sigma: Vec<f64>,
    /// Quantiles of the standardised residual at `(k + ½)/K` (empty: the version 1 normal).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub residual: Vec<f64>,
    #[serde(default)]
    pub fit: BTreeMap<String, String>,
}

/// The fewest quantiles a `residual` table may have.
pub const MIN_RESIDUAL_QUANTILES: usize = 9;

/// The distribution of one move's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction<'a> {
    /// Probability of an instant move.
    pub p_instant: f64,
    /// Location and scale of `ln t` (seconds) for a move that is not instant.
    pub mu: f64,
    pub sigma: f64,
    pub instant_s: f64,
    /// The residual's quantiles (empty: the conditioned normal of version 1).
    pub residual: &'a [f64],
}

fn dot(w: &[f64], x: &[f64; COUNT]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// The logistic function.
pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl TimeModel {
    /// Parses and checks a parameter file: the feature list must be this build's, every row one
    /// finite coefficient per feature, `instant_s` in (0, 10].
    pub fn parse(text: &str) -> Result<TimeModel, String> {
        let m: TimeModel = toml::from_str(text).map_err(|e| e.to_string())?;
        m.check()?;
        Ok(m)
    }

    fn check(&self) -> Result<(), String> {
        if self.features.iter().map(String::as_str).ne(NAMES.iter().copied()) {
            return Err(format!("features {:?} are not this engine's ({:?})", self.features, NAMES));
        }
        for (row, v) in [("instant", &self.instant), ("mean", &self.mean), ("ln_sigma", &self.ln_sigma)] {
            if v.len() != COUNT {
                return Err(format!("`{row}` has {} coefficients, expected {COUNT}", v.len()));
            }
            if v.iter().any(|c| !c.is_finite()) {
                return Err(format!("`{row}` has a coefficient that is not a finite number"));
            }
        }
        if !(self.instant_s > 0.0 && self.instant_s <= 10.0) {
            return Err(format!("instant_s = {} is outside (0, 10]", self.instant_s));
        }
        if !self.residual.is_empty() {
            if self.residual.len() < MIN_RESIDUAL_QUANTILES {
                return Err(format!(
                    "`residual` has {} quantiles, at least {MIN_RESIDUAL_QUANTILES} are needed",
                    self.residual.len()
                ));
            }
            if self.residual.iter().any(|q| !q.is_finite()) || self.residual.windows(2).any(|w| w[1] < w[0]) {
                return Err("`residual` must be finite and non-decreasing".into());
            }
        }
        Ok(())
    }

    /// `name vN`.
    pub fn tag(&self) -> String {
        format!("{} v{}", self.name, self.version)
    }

    /// The distribution for a feature vector.
    pub fn predict(&self, x: &[f64; COUNT]) -> Prediction<'_> {
        Prediction {
            p_instant: sigmoid(dot(&self.instant, x).clamp(-30.0, 30.0)),
            mu: dot(&self.mean, x).clamp(-5.0, 8.0),
            sigma: dot(&self.ln_sigma, x).clamp(-4.0, 1.5).exp(),
            instant_s: self.instant_s,
            residual: &self.residual,
        }
    }
}

/// The value at probability `u` of quantiles tabulated at `(k + ½)/K`: linear between them, flat
/// beyond the first and last.
pub fn interpolate_quantile(table: &[f64], u: f64) -> f64 {
    let k = table.len();
    let pos = (u * k as f64 - 0.5).clamp(0.0, (k - 1) as f64);
    let i = (pos.floor() as usize).min(k - 1);
    let j = (i + 1).min(k - 1);
    let w = pos - i as f64;
    table[i] * (1.0 - w) + table[j] * w
}

/// The inverse of [`interpolate_quantile`]: the probability at which the table reaches `z` (0
/// below its first value, 1 above its last).
pub fn quantile_cdf(table: &[f64], z: f64) -> f64 {
    let k = table.len();
    if z <= table[0] {
        return 0.0;
    }
    if z >= table[k - 1] {
        return 1.0;
    }
    let j = table.partition_point(|&q| q <= z).clamp(1, k - 1);
    let (a, b) = (table[j - 1], table[j]);
    let w = if b > a { (z - a) / (b - a) } else { 0.0 };
    ((j - 1) as f64 + w + 0.5) / k as f64
}

impl Prediction<'_> {
    /// One draw, seconds (see the module documentation for the order of draws).
    pub fn draw(&self, rng: &mut ChaCha20Rng) -> f64 {
        let u0 = seed::uniform_f64(rng);
        let u1 = seed::uniform_f64(rng);
        let u2 = seed::uniform_f64(rng);
        self.from_uniforms(u0, u1, u2)
    }

    /// The draw for three given uniforms in [0, 1): instant (`u0 < p_instant`) is `u1 ·
    /// instant_s`; otherwise, with a residual table, `t = exp(μ + σ Q(F(a) + u1 · (1 − F(a))))` for
    /// the table's quantile function `Q` and its inverse `F`, `a = (ln instant_s − μ)/σ` (at least
    /// `instant_s`); without one (version 1), the log-normal conditioned on
    /// `t > instant_s`, by inversion: `z = Φ⁻¹(Φ(a) + u1 · (1 − Φ(a)))` with `a = (ln instant_s −
    /// μ)/σ`, `t = exp(μ + σ z)` (`u2` is drawn but unused, so the count of draws never changes).
    pub fn from_uniforms(&self, u0: f64, u1: f64, _u2: f64) -> f64 {
        if u0 < self.p_instant {
            return u1 * self.instant_s;
        }
        if !self.residual.is_empty() {
            let lo = quantile_cdf(self.residual, (self.instant_s.ln() - self.mu) / self.sigma);
            let z = interpolate_quantile(self.residual, lo + u1 * (1.0 - lo));
            return (self.mu + self.sigma * z).exp().max(self.instant_s);
        }
        let a = (self.instant_s.ln() - self.mu) / self.sigma;
        let lo = normal_cdf(a);
        let p = (lo + u1 * (1.0 - lo)).clamp(1e-12, 1.0 - 1e-12);
        (self.mu + self.sigma * normal_quantile(p)).exp().max(self.instant_s)
    }

    /// The mean time, seconds (with a residual table: the mean over its quantiles).
    pub fn mean_s(&self) -> f64 {
        let think = if self.residual.is_empty() {
            (self.mu + self.sigma * self.sigma / 2.0).exp().max(self.instant_s)
        } else {
            let k = self.residual.len();
            let lo = quantile_cdf(self.residual, (self.instant_s.ln() - self.mu) / self.sigma);
            (0..k)
                .map(|i| {
                    let u = lo + (i as f64 + 0.5) / k as f64 * (1.0 - lo);
                    (self.mu + self.sigma * interpolate_quantile(self.residual, u)).exp().max(self.instant_s)
                })
                .sum::<f64>()
                / k as f64
        };
        self.p_instant * self.instant_s / 2.0 + (1.0 - self.p_instant) * think
    }
}

/// The standard normal distribution function, `Φ(x) = erfc(−x/√2)/2`, with the complementary error
/// function by its Chebyshev fit (fractional error below 1.2e-7 everywhere).
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The standard normal quantile `Φ⁻¹(p)` for `p` in (0, 1), by a rational approximation in three
/// regions (relative error about 1e-9).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    const LOW: f64 = 0.024_25;
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_normal_functions_invert_each_other() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_963_985) - 0.975).abs() < 1e-6);
        for p in [1e-6, 0.01, 0.2, 0.5, 0.7, 0.99, 1.0 - 1e-6] {
            let x = normal_quantile(p);
            assert!((normal_cdf(x) - p).abs() < 1e-6 * p.max(1e-3), "{p} -> {x}");
        }
    }

    #[test]
    fn draws_respect_the_instant_split() {
        let pr = Prediction { p_instant: 0.25, mu: 1.0, sigma: 0.5, instant_s: 1.0, residual: &[] };
        assert_eq!(pr.from_uniforms(0.1, 0.5, 0.0), 0.5);
        let t = pr.from_uniforms(0.5, 0.0, 0.0);
        assert!((1.0..1.01).contains(&t), "{t}");
        // The median of the conditioned log-normal lies above its unconditioned median e^1.
        assert!(pr.from_uniforms(0.5, 0.5, 0.0) > 1f64.exp());
    }

    #[test]
    fn a_bad_residual_table_is_refused() {
        let text = crate::human_time::builtin_text();
        let line = text.lines().find(|l| l.starts_with("residual = ")).expect("v2 has a table");
        let swap = |new: &str| TimeModel::parse(&text.replace(line, new)).unwrap_err();
        assert!(swap("residual = [3.0, 1.0, 2.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]").contains("non-decreasing"));
        assert!(swap("residual = [1.0, 2.0]").contains("at least 9"));
        assert!(TimeModel::parse(&text.replace(line, "")).unwrap().residual.is_empty(), "a v1-style file parses");
    }

    #[test]
    fn a_residual_table_sets_the_shape() {
        // Quantiles of z at 1/10, 3/10, ..., 9/10; μ = 1, σ = 0.5, so t > 1 s means z > −2.
        let table = [-4.0, -2.0, 0.0, 1.0, 3.0];
        let pr = Prediction { p_instant: 0.0, mu: 1.0, sigma: 0.5, instant_s: 1.0, residual: &table };
        assert_eq!(interpolate_quantile(&table, 0.8), 2.0);
        assert_eq!(quantile_cdf(&table, -2.0), 0.3);
        assert_eq!(quantile_cdf(&table, 2.0), 0.8);
        assert_eq!((quantile_cdf(&table, -9.0), quantile_cdf(&table, 9.0)), (0.0, 1.0));
        // Conditioned on z > −2: u1 = 0 is the threshold, u1 = 2/7 is F = 0.5, the median z = 0.
        assert!((pr.from_uniforms(0.5, 0.0, 0.0) - 1.0).abs() < 1e-12);
        assert!((pr.from_uniforms(0.5, 0.2 / 0.7, 0.0) - 1f64.exp()).abs() < 1e-12);
        // The upper end is held flat.
        assert!((pr.from_uniforms(0.5, 0.999, 0.0) - 2.5f64.exp()).abs() < 1e-12);
        let mean = pr.mean_s();
        assert!(mean > 1f64.exp() && mean < 2.5f64.exp(), "{mean}");
    }
}

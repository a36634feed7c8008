//! The human time model's parameter file and its distribution.
//!
//! The time `t` (seconds) a person spends on a move is a mixture: with probability
//! `p = σ(a·x)` (logistic) the move is *instant* (`t` uniform in `[0, instant_s]`), otherwise
//! `ln t ~ Normal(b·x, exp(c·x))`, at least `instant_s`. `x` is the feature vector of
//! [`super::features::Situation`]; `a`, `b`, `c` are the file's `instant`, `mean` and `ln_sigma`
//! rows. A draw takes exactly three `uniform_f64` from the decision's stream, in this order: the
//! instant draw, then the two uniforms of a Box–Muller normal (`z = √(−2 ln(1−u₁)) · cos(2π u₂)`),
//! all three always drawn.
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
    #[serde(default)]
    pub fit: BTreeMap<String, String>,
}

/// The distribution of one move's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// Probability of an instant move.
    pub p_instant: f64,
    /// Mean and standard deviation of `ln t` (seconds) for a move that is not instant.
    pub mu: f64,
    pub sigma: f64,
    pub instant_s: f64,
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
        Ok(())
    }

    /// `name vN`.
    pub fn tag(&self) -> String {
        format!("{} v{}", self.name, self.version)
    }

    /// The distribution for a feature vector.
    pub fn predict(&self, x: &[f64; COUNT]) -> Prediction {
        Prediction {
            p_instant: sigmoid(dot(&self.instant, x).clamp(-30.0, 30.0)),
            mu: dot(&self.mean, x).clamp(-5.0, 8.0),
            sigma: dot(&self.ln_sigma, x).clamp(-4.0, 1.5).exp(),
            instant_s: self.instant_s,
        }
    }
}

impl Prediction {
    /// One draw, seconds (see the module documentation for the order of draws).
    pub fn draw(&self, rng: &mut ChaCha20Rng) -> f64 {
        let u0 = seed::uniform_f64(rng);
        let u1 = seed::uniform_f64(rng);
        let u2 = seed::uniform_f64(rng);
        self.from_uniforms(u0, u1, u2)
    }

    /// The draw for three given uniforms in [0, 1).
    pub fn from_uniforms(&self, u0: f64, u1: f64, u2: f64) -> f64 {
        if u0 < self.p_instant {
            // Uniform over [0, instant_s), reusing u1.
            return u1 * self.instant_s;
        }
        let z = (-2.0 * (1.0 - u1).ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
        (self.mu + self.sigma * z).exp().max(self.instant_s)
    }

    /// The mean time, seconds.
    pub fn mean_s(&self) -> f64 {
        let think = (self.mu + self.sigma * self.sigma / 2.0).exp().max(self.instant_s);
        self.p_instant * self.instant_s / 2.0 + (1.0 - self.p_instant) * think
    }
}

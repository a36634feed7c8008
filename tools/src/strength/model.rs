//! The calibration model and the statistics of the Regan–Haworth scaled-error method:
//! per-ply scaled error, per-game-side strength with its standard error, and the per-player
//! rolling inverse-variance aggregate.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::path::Path;

/// Format version of `calibration/strength-model.json` this code reads and writes.
pub const MODEL_VERSION: u32 = 1;
pub use crate::common::quality::{DECIDED_CP, LOSS_CAP, scaled_error};
/// Eligible plies a game side needs before it yields a strength sample.
pub const MIN_ELIGIBLE_PLIES: usize = 12;
/// Games in the rolling per-player aggregate.
pub const ROLLING_GAMES: usize = 10;
/// Floor for a standard error (Elo) so that inverse-variance weights stay finite.
pub const MIN_SE: i32 = 1;

/// The shipped model, compiled in so the binary works from any directory.
pub const SHIPPED_MODEL_JSON: &str = include_str!("../../../calibration/strength-model.json");

/// The original pawnbook calibration, kept for reference: anchored to Maia-1600 with Stockfish
/// depth 18–20.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct OriginalCalibration {
    pub source: String,
    pub anchor_elo: f64,
    pub anchor_ase: f64,
    pub elo_per_ase_unit: f64,
    pub note: String,
}

impl Default for OriginalCalibration {
    fn default() -> Self {
        OriginalCalibration {
            source: "pawnbook".to_string(),
            anchor_elo: 1600.0,
            anchor_ase: 0.2638,
            elo_per_ase_unit: 6500.0,
            note: "original calibration: anchored to Maia-1600's measured ASE, Stockfish depth 18-20; \
                   not valid for other oracles or depths"
                .to_string(),
        }
    }
}

/// How the model was fitted (informational).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct FitInfo {
    pub data: String,
    pub selection: String,
    pub samples: usize,
    pub weighting: String,
    /// `rating-on-ase` or `ase-on-rating` (see `refit.rs`); empty in models fitted before the
    /// choice existed, which were `rating-on-ase`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub direction: String,
    pub r2: f64,
    pub weighted_rmse: f64,
    pub held_out: Option<serde_json::Value>,
}

/// `calibration/strength-model.json`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StrengthModel {
    pub version: u32,
    pub anchor_elo: f64,
    pub anchor_ase: f64,
    pub elo_per_ase_unit: f64,
    /// Oracle the coefficients were fitted with: `internal` or the UCI command.
    pub oracle: String,
    /// Fixed depth of the oracle (null when a node budget was used).
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// How the played move was valued: `exact` or `reuse` (see `analyse.rs`).
    pub pairing: String,
    /// For the internal oracle: `oracle::internal_fingerprint()` of the build that was fitted.
    #[serde(default)]
    pub oracle_fingerprint: Option<String>,
    #[serde(default)]
    pub fitted: Option<FitInfo>,
    #[serde(default)]
    pub original_calibration: OriginalCalibration,
}

impl StrengthModel {
    /// The pawnbook coefficients with no oracle record (used by tests and as a fallback).
    pub fn pawnbook() -> StrengthModel {
        let o = OriginalCalibration::default();
        StrengthModel {
            version: MODEL_VERSION,
            anchor_elo: o.anchor_elo,
            anchor_ase: o.anchor_ase,
            elo_per_ase_unit: o.elo_per_ase_unit,
            oracle: "stockfish (pawnbook)".to_string(),
            depth: Some(18),
            nodes: None,
            pairing: "exact".to_string(),
            oracle_fingerprint: None,
            fitted: None,
            original_calibration: o,
        }
    }

    pub fn shipped() -> StrengthModel {
        StrengthModel::from_json(SHIPPED_MODEL_JSON).expect("shipped strength model is valid")
    }

    pub fn from_json(s: &str) -> Result<StrengthModel, String> {
        let m: StrengthModel = serde_json::from_str(s).map_err(|e| format!("bad strength model: {e}"))?;
        if m.version != MODEL_VERSION {
            return Err(format!("strength model version {} not supported (expected {MODEL_VERSION})", m.version));
        }
        if !(m.elo_per_ase_unit.is_finite() && m.anchor_ase.is_finite() && m.anchor_elo.is_finite()) {
            return Err("strength model has non-finite coefficients".to_string());
        }
        Ok(m)
    }

    pub fn load(path: &Path) -> Result<StrengthModel, String> {
        let s = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        StrengthModel::from_json(&s)
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        write_json(self, path)
    }

    /// `anchor_elo − (ase − anchor_ase) × elo_per_ase_unit`, unrounded.
    pub fn elo_f(&self, ase: f64) -> f64 {
        self.anchor_elo - (ase - self.anchor_ase) * self.elo_per_ase_unit
    }

    /// Standard error in Elo of an ASE measured from `n` plies with standard deviation `sd`:
    /// `elo_per_ase_unit × sd / √n`, unrounded.
    pub fn se_f(&self, sd: f64, n: usize) -> f64 {
        if n == 0 {
            return f64::INFINITY;
        }
        self.elo_per_ase_unit.abs() * sd / (n as f64).sqrt()
    }

    /// A human-readable mismatch between this model's oracle and the one in use, if any.
    pub fn oracle_mismatch(
        &self,
        oracle: &str,
        depth: Option<i32>,
        nodes: Option<u64>,
        pairing: &str,
        fingerprint: Option<&str>,
    ) -> Option<String> {
        let mut diffs = Vec::new();
        if let (Some(want), Some(have)) = (self.oracle_fingerprint.as_deref(), fingerprint)
            && self.oracle == oracle
            && want != have
        {
            diffs.push(format!(
                "internal engine fingerprint {have} (model: {want}; the search or evaluation changed since the fit)"
            ));
        }
        if self.oracle != oracle {
            diffs.push(format!("oracle '{oracle}' (model: '{}')", self.oracle));
        }
        if self.depth != depth || self.nodes != nodes {
            diffs.push(format!("budget {} (model: {})", budget_str(depth, nodes), budget_str(self.depth, self.nodes)));
        }
        if self.pairing != pairing {
            diffs.push(format!("pairing '{pairing}' (model: '{}')", self.pairing));
        }
        if diffs.is_empty() {
            None
        } else {
            Some(format!(
                "the strength model was fitted with a different oracle setup: {}; \
                 Elo numbers are not calibrated for this setup",
                diffs.join(", ")
            ))
        }
    }
}

fn budget_str(depth: Option<i32>, nodes: Option<u64>) -> String {
    match (depth, nodes) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(n)) => format!("nodes {n}"),
        (None, None) => "unspecified".to_string(),
    }
}

/// Writes a model file: pretty JSON and a final newline.
pub fn write_json<T: Serialize>(value: &T, path: &Path) -> Result<(), String> {
    let s = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, s + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Summary of the eligible plies of one game side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideStats {
    /// Eligible plies.
    pub n: usize,
    /// Mean scaled error.
    pub ase: f64,
    /// Sample standard deviation (n − 1) of the per-ply scaled errors.
    pub sd: f64,
    /// 75th percentile centipawn loss (linear interpolation between order statistics).
    pub p75_loss: f64,
}

/// Per-game-side strength estimate (integers, as stored by the source method).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Strength {
    pub strength_elo: i32,
    pub strength_se: i32,
}

/// Percentile `q` in [0,1] of unsorted values, linear interpolation (type 7).
pub fn percentile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    let h = (v.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

/// Statistics of the eligible plies given as (cpLoss) values; `None` if there are none.
pub fn side_stats(cp_losses: &[i32]) -> Option<SideStats> {
    let n = cp_losses.len();
    if n == 0 {
        return None;
    }
    let errs: Vec<f64> = cp_losses.iter().map(|&l| scaled_error(l)).collect();
    let ase = errs.iter().sum::<f64>() / n as f64;
    let sd =
        if n > 1 { (errs.iter().map(|e| (e - ase) * (e - ase)).sum::<f64>() / (n - 1) as f64).sqrt() } else { 0.0 };
    let losses: Vec<f64> = cp_losses.iter().map(|&l| l.max(0) as f64).collect();
    Some(SideStats { n, ase, sd, p75_loss: percentile(&losses, 0.75) })
}

/// The strength of a game side, or `None` when it has fewer than 12 eligible plies.
pub fn strength(model: &StrengthModel, s: &SideStats) -> Option<Strength> {
    if s.n < MIN_ELIGIBLE_PLIES {
        return None;
    }
    Some(Strength {
        strength_elo: model.elo_f(s.ase).round() as i32,
        strength_se: (model.se_f(s.sd, s.n).round() as i32).max(MIN_SE),
    })
}

/// Inverse-variance weighted mean of (elo, se) pairs: `Σ(elo/se²) / Σ(1/se²)` and its standard
/// error `1/√Σ(1/se²)`.
pub fn inverse_variance_mean(samples: &[(i32, i32)]) -> Option<(f64, f64)> {
    if samples.is_empty() {
        return None;
    }
    let mut sw = 0.0;
    let mut swx = 0.0;
    for &(elo, se) in samples {
        let se = se.max(MIN_SE) as f64;
        let w = 1.0 / (se * se);
        sw += w;
        swx += w * elo as f64;
    }
    Some((swx / sw, 1.0 / sw.sqrt()))
}

/// One player's rolling aggregate over their last [`ROLLING_GAMES`] eligible games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rolling {
    pub player: String,
    /// Eligible games seen in total.
    pub games: usize,
    /// Games in the window (≤ 10).
    pub window: usize,
    pub rolling_elo: f64,
    pub rolling_se: f64,
    /// Mean of the PGN ratings of the games in the window, where known.
    pub window_rating: Option<f64>,
    /// 90 % interval of the rolling estimate (filled in by the report).
    pub lo90: Option<f64>,
    pub hi90: Option<f64>,
}

/// A player's (eligible games seen, last games as (elo, se, rating)).
type PlayerWindow = (usize, VecDeque<(i32, i32, Option<i32>)>);

/// Feeds game-side strengths in chronological order and keeps each player's last 10.
#[derive(Default)]
pub struct RollingTracker {
    players: HashMap<String, PlayerWindow>,
    order: Vec<String>,
}

impl RollingTracker {
    pub fn new() -> RollingTracker {
        RollingTracker::default()
    }

    /// Adds one eligible game of `player` and returns the player's rolling aggregate after it.
    pub fn push(&mut self, player: &str, s: Strength, rating: Option<i32>) -> Rolling {
        if !self.players.contains_key(player) {
            self.order.push(player.to_string());
        }
        let e = self.players.entry(player.to_string()).or_default();
        e.0 += 1;
        e.1.push_back((s.strength_elo, s.strength_se, rating));
        while e.1.len() > ROLLING_GAMES {
            e.1.pop_front();
        }
        Self::summarise(player, e.0, &e.1)
    }

    fn summarise(player: &str, games: usize, w: &VecDeque<(i32, i32, Option<i32>)>) -> Rolling {
        let pairs: Vec<(i32, i32)> = w.iter().map(|&(e, s, _)| (e, s)).collect();
        let (elo, se) = inverse_variance_mean(&pairs).unwrap_or((f64::NAN, f64::NAN));
        let ratings: Vec<f64> = w.iter().filter_map(|x| x.2.map(f64::from)).collect();
        Rolling {
            player: player.to_string(),
            games,
            window: w.len(),
            rolling_elo: elo,
            rolling_se: se,
            window_rating: if ratings.is_empty() {
                None
            } else {
                Some(ratings.iter().sum::<f64>() / ratings.len() as f64)
            },
            lo90: None,
            hi90: None,
        }
    }

    /// Current aggregate of every player, in order of first appearance.
    pub fn all(&self) -> Vec<Rolling> {
        self.order
            .iter()
            .map(|p| {
                let e = &self.players[p];
                Self::summarise(p, e.0, &e.1)
            })
            .collect()
    }
}

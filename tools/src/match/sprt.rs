//! Generalized sequential probability ratio test (GSPRT), as fastchess and OpenBench compute it.
//!
//! With the hypotheses H0: Elo = elo0 and H1: Elo = elo1 converted to expected scores s0 and s1,
//! and the observed mean score `mu` and per-sample variance `var` over `N` samples (games for the
//! trinomial model, game pairs for the pentanomial one, whose scores are taken per game as
//! 0, ¼, ½, ¾, 1), the log-likelihood ratio is approximated (M. van den Bergh) by
//!
//! `LLR = N · (s1 - s0) · (2 mu - s0 - s1) / (2 var)`.
//!
//! The test accepts H1 when `LLR >= ln((1-beta)/alpha)` and H0 when `LLR <= ln(beta/(1-alpha))`.
//! When every sample is alike (zero variance) the variance is taken from the counts plus 0.001
//! in every category.
//! Model `logistic` (default, as cutechess and OpenBench): `s = 1 / (1 + 10^(-elo/400))`.
//! Model `normalized` (fastchess's default): `s = 1/2 + elo / (800/ln 10) · sigma`, with sigma the
//! observed per-game standard deviation.

use super::stats::{elo_to_score, mean_var, nelo_factor};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    Logistic,
    Normalized,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum SprtDecision {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt { elo0, elo1, alpha, beta, model: SprtModel::Logistic }
    }

    /// (lower, upper) LLR bounds: `ln(beta/(1-alpha))`, `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    fn llr(&self, dist: &[(f64, f64)], pair: bool) -> f64 {
        let Some((n, mu, mut var)) = mean_var(dist) else {
            return 0.0;
        };
        if var <= 0.0 {
            // All samples alike (say, every game won): regularize with a pseudo-count of 0.001
            // in every category so that the test can still decide.
            let reg: Vec<(f64, f64)> = dist.iter().map(|&(s, c)| (s, c + 1e-3)).collect();
            match mean_var(&reg) {
                Some((_, _, v)) if v > 0.0 => var = v,
                _ => return 0.0,
            }
        }
        let (s0, s1) = match self.model {
            SprtModel::Logistic => (elo_to_score(self.elo0), elo_to_score(self.elo1)),
            SprtModel::Normalized => {
                let sigma = if pair { (2.0 * var).sqrt() } else { var.sqrt() };
                let k = nelo_factor();
                (0.5 + self.elo0 / k * sigma, 0.5 + self.elo1 / k * sigma)
            }
        };
        n * (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var)
    }

    /// LLR from per-game results.
    pub fn llr_trinomial(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.llr(&[(1.0, wins as f64), (0.5, draws as f64), (0.0, losses as f64)], false)
    }

    /// LLR from pentanomial pair counts `[LL, LD, DD+WL, WD, WW]`.
    pub fn llr_pentanomial(&self, p: &[u64; 5]) -> f64 {
        let d: Vec<(f64, f64)> = p.iter().enumerate().map(|(i, &c)| (i as f64 / 4.0, c as f64)).collect();
        self.llr(&d, true)
    }

    pub fn decision(&self, llr: f64) -> SprtDecision {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

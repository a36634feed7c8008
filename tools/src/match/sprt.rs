//! Generalized sequential probability ratio test (GSPRT), with the log-likelihood ratio fastchess
//! computes, and a rule for when the test may decide.
//!
//! **The LLR.** The observed outcomes (games: loss, draw, win scored 0, ½, 1; or, for the
//! pentanomial model, game pairs scored per game 0, ¼, ½, ¾, 1) give an empirical distribution
//! `p̂`. Each hypothesis (H0: Elo = elo0, H1: Elo = elo1) fixes the expected score `s` (or, for
//! the normalized model, the normalized score `t = (mu - 1/2) / sigma`); under it the most likely
//! distribution `p` of the same outcomes is found (M. van den Bergh's maximum-likelihood
//! construction: `p_i = p̂_i / (1 + θ φ_i)` with θ the root of `Σ p̂_i φ_i / (1 + θ φ_i) = 0`,
//! `φ_i = a_i - s` for the logistic model; for the normalized model `φ` depends on `p` and the
//! construction is repeated from the uniform distribution until it settles). The LLR is
//! `N · Σ p̂_i ln(p1_i / p0_i)`: the generalized log-likelihood ratio, not the normal approximation
//! `N (s1 - s0)(2 mu - s0 - s1) / (2 var)`, which explodes when the observed variance is small.
//!
//! **Regularisation** (as fastchess): an outcome never observed gets a count of 0.001 (the counts,
//! `N` included, are taken after that), so that every category keeps a positive probability and
//! the constructions stay finite. cutechess instead reports no LLR at all until wins, draws and
//! losses have each been seen.
//!
//! **When it may decide.** Only once the observed variance is defined and positive: at least two
//! samples in at least two different outcome categories ([`Sprt::may_decide`]). Before that the
//! LLR is reported but the test continues, whatever its value; a run of identical outcomes (every
//! game lost by illegal moves, say) therefore never ends a match by SPRT, as with cutechess.
//!
//! The test accepts H1 when `LLR >= ln((1-beta)/alpha)` and H0 when `LLR <= ln(beta/(1-alpha))`.
//! Model `logistic` (default, as cutechess and OpenBench): `s = 1 / (1 + 10^(-elo/400))`.
//! Model `normalized` (fastchess's default): `t = elo / (800/ln 10)` per game (`· sqrt 2` per
//! pair, whose standard deviation is that of two games).

use super::stats::{elo_to_score, nelo_factor};
use serde::Serialize;

/// The count an outcome that was never observed is given (fastchess's value).
pub const UNSEEN_COUNT: f64 = 1e-3;

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

/// Scores of the trinomial outcomes (loss, draw, win) and of the pentanomial ones (pair points / 2).
const TRI: [f64; 3] = [0.0, 0.5, 1.0];
const PENTA: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn mean_var(a: &[f64], p: &[f64]) -> (f64, f64) {
    let mu: f64 = a.iter().zip(p).map(|(a, p)| a * p).sum();
    let var = a.iter().zip(p).map(|(a, p)| p * (a - mu) * (a - mu)).sum();
    (mu, var)
}

/// The distribution closest (in likelihood) to `p_hat` among those `p_i = p_hat_i / (1 + θ φ_i)`
/// with `Σ p_i φ_i = 0`: θ is the root of `Σ p_hat_i φ_i / (1 + θ φ_i)`, which falls strictly
/// between `-1/max φ` and `-1/min φ` (where every `1 + θ φ_i` is positive), found by bisection.
/// `φ` must have both signs.
fn tilt(p_hat: &[f64], phi: &[f64]) -> Vec<f64> {
    let lo_phi = phi.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_phi = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if lo_phi >= 0.0 || hi_phi <= 0.0 {
        return p_hat.to_vec();
    }
    let g = |theta: f64| -> f64 { p_hat.iter().zip(phi).map(|(p, f)| p * f / (1.0 + theta * f)).sum() };
    // g falls from +inf at the left end to -inf at the right end.
    let (mut a, mut b) = (-1.0 / hi_phi, -1.0 / lo_phi);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if m <= a || m >= b {
            break;
        }
        if g(m) > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    let theta = 0.5 * (a + b);
    p_hat.iter().zip(phi).map(|(p, f)| p / (1.0 + theta * f)).collect()
}

/// Most likely distribution with expected score `s`.
fn mle_score(a: &[f64], p_hat: &[f64], s: f64) -> Vec<f64> {
    let phi: Vec<f64> = a.iter().map(|a| a - s).collect();
    tilt(p_hat, &phi)
}

/// Most likely distribution with normalized score `(mu - 1/2) / sigma = t`: the tilt is repeated
/// with `φ_i = a_i - 1/2 - t/2 · sigma · (1 + ((a_i - mu)/sigma)²)` from the current estimate's
/// `mu` and `sigma`, starting from the uniform distribution, until no probability moves by more than
/// 1e-4 (at most 10 rounds).
fn mle_normalized(a: &[f64], p_hat: &[f64], t: f64) -> Vec<f64> {
    let mut p = vec![1.0 / a.len() as f64; a.len()];
    for _ in 0..10 {
        let (mu, var) = mean_var(a, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> =
            a.iter().map(|&x| x - 0.5 - 0.5 * t * sigma * (1.0 + ((x - mu) / sigma) * ((x - mu) / sigma))).collect();
        let next = tilt(p_hat, &phi);
        let moved = next.iter().zip(&p).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        p = next;
        if moved < 1e-4 {
            break;
        }
    }
    p
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        Sprt { elo0, elo1, alpha, beta, model: SprtModel::Logistic }
    }

    /// (lower, upper) LLR bounds: `ln(beta/(1-alpha))`, `ln((1-beta)/alpha)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The LLR of the outcome counts `counts` (scores `a`); 0 before any sample.
    fn llr(&self, a: &[f64], counts: &[u64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let reg: Vec<f64> = counts.iter().map(|&c| if c == 0 { UNSEEN_COUNT } else { c as f64 }).collect();
        let n: f64 = reg.iter().sum();
        let p_hat: Vec<f64> = reg.iter().map(|c| c / n).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => {
                (mle_score(a, &p_hat, elo_to_score(self.elo0)), mle_score(a, &p_hat, elo_to_score(self.elo1)))
            }
            SprtModel::Normalized => {
                // A pair's standard deviation is sqrt 2 times a game's.
                let scale = if a.len() == PENTA.len() { std::f64::consts::SQRT_2 } else { 1.0 };
                let t = |elo: f64| scale * elo / nelo_factor();
                (mle_normalized(a, &p_hat, t(self.elo0)), mle_normalized(a, &p_hat, t(self.elo1)))
            }
        };
        n * p_hat.iter().zip(p0.iter().zip(&p1)).map(|(q, (x0, x1))| q * (x1.ln() - x0.ln())).sum::<f64>()
    }

    /// LLR from per-game results.
    pub fn llr_trinomial(&self, wins: u64, draws: u64, losses: u64) -> f64 {
        self.llr(&TRI, &[losses, draws, wins])
    }

    /// LLR from pentanomial pair counts `[LL, LD, DD+WL, WD, WW]`.
    pub fn llr_pentanomial(&self, p: &[u64; 5]) -> f64 {
        self.llr(&PENTA, p)
    }

    /// May the test decide on these outcome counts? Only when their variance is defined and
    /// positive: at least two outcome categories observed (so at least two samples).
    pub fn may_decide(counts: &[u64]) -> bool {
        counts.iter().filter(|&&c| c > 0).count() >= 2
    }

    /// The decision on per-game results: the LLR against the bounds, once [`Sprt::may_decide`].
    pub fn decide_trinomial(&self, wins: u64, draws: u64, losses: u64) -> (f64, SprtDecision) {
        let llr = self.llr_trinomial(wins, draws, losses);
        let d = if Sprt::may_decide(&[wins, draws, losses]) { self.decision(llr) } else { SprtDecision::Continue };
        (llr, d)
    }

    /// The decision on pentanomial pair counts, once [`Sprt::may_decide`].
    pub fn decide_pentanomial(&self, p: &[u64; 5]) -> (f64, SprtDecision) {
        let llr = self.llr_pentanomial(p);
        let d = if Sprt::may_decide(p) { self.decision(llr) } else { SprtDecision::Continue };
        (llr, d)
    }

    /// The LLR against the bounds alone (callers with outcome counts use `decide_*`).
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

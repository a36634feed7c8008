//! `sparring tune`: fits the evaluator's per-group middlegame/endgame weights (the `EvalConfig`
//! percentages) to reference evaluations of quiet positions, Texel style. With `--values` it fits
//! the values inside the groups instead (`texel.rs`) and writes them as JSON.
//!
//! The evaluation is linear in the group weights: white's score is
//! `sum_g (w_mg[g] * d_mg[g] * phase + w_eg[g] * d_eg[g] * (24 - phase)) / 24 + tempo`, with
//! `d[g]` = white's minus black's value of group `g` at weight 100 %. (Winnable depends on the
//! total it scales; its value at the current weights is taken as fixed, a small approximation.)
//! So each position becomes 26 numbers, and the weights that make `sigmoid(eval)` closest to
//! `sigmoid(alpha * reference)` in the mean square are found by gradient descent (Adam).
//! Material stays at 100 %: it anchors the centipawn scale (the search's margins are set on it),
//! `alpha` maps the reference's scale onto ours, and the two are fitted in turn (`ROUNDS`), so
//! only the balance of the other groups against material moves.
//!
//! Input: one position per line, `FEN<TAB>white centipawns[<TAB>best move in UCI]`, e.g. Stockfish
//! scores of positions from human games (`bench/tune/`). Positions in check, with a capture or
//! promotion as the best move, or scored beyond ±`MAX_ABS_CP`, are left out (not quiet). Every
//! fifth position is held out and its loss reported before and after.

mod cli;
pub mod texel;

pub use crate::common::optimize::golden_section;

pub use cli::{Args, main};
use shakmaty::{Chess, Position};
use sparring::eval::{EvalConfig, MAX_PHASE, TUNED, Term, Weights, trace};

/// Positions scored beyond this are decided; their exact value teaches the weights little.
pub const MAX_ABS_CP: i32 = 1500;
/// Sigmoid scale: `1 / (1 + exp(-cp / SIGMOID_K))` (400/ln 10, the Elo curve).
pub const SIGMOID_K: f64 = 173.7;
/// Weights stay within these percentages.
pub const MIN_WEIGHT: f64 = 10.0;
pub const MAX_WEIGHT: f64 = 300.0;
/// Alternations of the weight fit and the scale fit.
pub const ROUNDS: usize = 4;

/// One quiet position reduced to its features.
pub struct Sample {
    /// `d_mg * phase / 24` and `d_eg * (24 - phase) / 24` per group, centipawns at weight 100 %.
    pub x: [f64; 2 * Term::COUNT],
    /// White's tempo bonus (±).
    pub tempo: f64,
    /// Reference score, white's view.
    pub target: f64,
}

/// Reads the data file into samples; returns them and the number of lines left out.
pub fn load(text: &str) -> (Vec<Sample>, usize) {
    let cfg = EvalConfig::full();
    let (positions, skipped) = load_positions(text);
    (positions.into_iter().map(|p| features(&p.pos, cfg.clone(), p.target)).collect(), skipped)
}

/// Reads the data file into quiet positions with their scores; returns them and the number of
/// lines left out.
pub fn load_positions(text: &str) -> (Vec<texel::Position>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for line in text.lines() {
        let mut f = line.split('\t');
        let (Some(fen), Some(cp)) = (f.next(), f.next()) else {
            skipped += 1;
            continue;
        };
        let best = f.next().map(str::trim).unwrap_or("");
        let (Ok(pos), Ok(cp)) = (sparring::board::parse_fen(fen), cp.trim().parse::<i32>()) else {
            skipped += 1;
            continue;
        };
        if pos.is_check() || cp.abs() > MAX_ABS_CP || !quiet_best(&pos, best) {
            skipped += 1;
            continue;
        }
        out.push(texel::Position { pos, target: cp as f64 });
    }
    (out, skipped)
}

/// True unless `best` (UCI) is a capture or a promotion in `pos`.
fn quiet_best(pos: &Chess, best: &str) -> bool {
    if best.is_empty() {
        return true;
    }
    match sparring::board::notation::parse_uci(pos, best) {
        Ok(m) => !m.is_capture() && !m.is_promotion(),
        Err(_) => false,
    }
}

fn features(pos: &Chess, cfg: EvalConfig, target: f64) -> Sample {
    let t = trace(pos, &cfg);
    let phase = t.phase as f64;
    let mg = phase / MAX_PHASE as f64;
    let eg = 1.0 - mg;
    let mut x = [0.0; 2 * Term::COUNT];
    for g in 0..Term::COUNT {
        let d = t.white[g] - t.black[g];
        x[2 * g] = d.mg as f64 * mg;
        x[2 * g + 1] = d.eg as f64 * eg;
    }
    Sample { x, tempo: t.tempo_white as f64, target }
}

/// The score a centipawn evaluation predicts (the tuner's one sigmoid, `texel` too).
pub(crate) fn sigmoid(cp: f64) -> f64 {
    1.0 / (1.0 + (-cp / SIGMOID_K).exp())
}

/// White's evaluation of a sample under weights `w` (percent).
pub fn predict(s: &Sample, w: &[f64]) -> f64 {
    s.tempo + s.x.iter().zip(w).map(|(x, w)| x * w / 100.0).sum::<f64>()
}

/// Mean squared sigmoid error of `w` against `alpha * target` over `set`.
pub fn loss(set: &[&Sample], w: &[f64], alpha: f64) -> f64 {
    set.iter().map(|s| (sigmoid(predict(s, w)) - sigmoid(alpha * s.target)).powi(2)).sum::<f64>() / set.len() as f64
}

/// The reference scale that best fits the evaluator at `w` (golden-section search on [0.2, 3]).
pub fn fit_alpha(set: &[&Sample], w: &[f64]) -> f64 {
    golden_section(0.2, 3.0, 60, |alpha| loss(set, w, alpha))
}

/// Adam on the weights of the groups not in `fixed`, with a ridge penalty `ridge` towards 100 %;
/// returns the weights.
pub fn fit(set: &[&Sample], alpha: f64, iterations: usize, rate: f64, fixed: &[bool], ridge: f64) -> Vec<f64> {
    let n = 2 * Term::COUNT;
    let mut w = vec![100.0; n];
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    for it in 1..=iterations {
        let mut grad = vec![0.0; n];
        for s in set {
            let p = sigmoid(predict(s, &w));
            // d/dw of (p - y)^2 = 2 (p - y) p (1 - p) / K * x / 100
            let g = 2.0 * (p - sigmoid(alpha * s.target)) * p * (1.0 - p) / SIGMOID_K / 100.0;
            for (gi, xi) in grad.iter_mut().zip(&s.x) {
                *gi += g * xi;
            }
        }
        for i in 0..n {
            if fixed[i] {
                continue;
            }
            let g = grad[i] / set.len() as f64 + ridge * 2.0 * (w[i] - 100.0) / 1e4 / n as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(it as i32));
            let vh = v[i] / (1.0 - b2.powi(it as i32));
            w[i] = (w[i] - rate * mh / (vh.sqrt() + eps)).clamp(MIN_WEIGHT, MAX_WEIGHT);
        }
    }
    w
}

//! `sparring tune --values`: fits the values *inside* the term groups (the whole `Weights` vector:
//! piece values, piece-square tables, mobility, king-danger weights, ...) to reference scores of
//! quiet positions, by Texel's local search.
//!
//! Loss: mean of `(sigmoid(eval) - sigmoid(alpha * reference))^2` over the training positions,
//! with the full evaluator (`trace_with`) at the candidate values. `alpha` maps the reference's
//! centipawns onto ours; it is fitted once, to the starting values (or given), and then held:
//! refitting it as the values move opens a degenerate direction (values and alpha shrinking
//! together lower the loss without fitting anything better; a run that refitted it every pass took
//! alpha from 0.70 to 0.43 in 18 passes). Values under the `anchors` never move. Even with alpha
//! held, a least-squares fit to a noisy reference shrinks the values (attenuation: the fit of
//! generation 4 took the pawn to 47/81 cp); `keep_scale` can scale them back, but in games the
//! shrunken values played better (see `bench/tune/README.md`). Each pass tries every value up and
//! down by its step (a sixteenth of its size, at least 1), keeps a change that lowers the training
//! loss, and halves the step of a value that moved neither way; values that change no evaluation
//! at all in the sample (unused table corners) are dropped after the first pass. Every fifth
//! position is held out; the search stops when a pass no longer lowers the held-out loss, after
//! `--passes`, or when `--minutes` run out, and keeps the values with the best held-out loss.

use serde_json::Value;
use shakmaty::Chess;
use std::time::Instant;

use super::sigmoid;
use sparring::eval::{EvalConfig, Params, Weights, trace_with};

/// One training position: the position and its reference score (White's view, centipawns).
pub struct Position {
    pub pos: Chess,
    pub target: f64,
}

/// A flat view of `Weights`: the JSON pointer of every number and its value.
pub struct Flat {
    template: Value,
    pub paths: Vec<String>,
    pub values: Vec<i64>,
}

fn collect(v: &Value, path: &mut String, paths: &mut Vec<String>, values: &mut Vec<i64>) {
    match v {
        Value::Number(n) => {
            paths.push(path.clone());
            values.push(n.as_i64().unwrap_or(0));
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("/{i}"));
                collect(x, path, paths, values);
                path.truncate(len);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                let len = path.len();
                path.push('/');
                path.push_str(k);
                collect(x, path, paths, values);
                path.truncate(len);
            }
        }
        _ => {}
    }
}

impl Flat {
    pub fn new(w: &Weights) -> Flat {
        let template = serde_json::to_value(w).expect("weights serialise");
        let (mut paths, mut values) = (Vec::new(), Vec::new());
        collect(&template, &mut String::new(), &mut paths, &mut values);
        Flat { template, paths, values }
    }

    /// The weights with the current values.
    pub fn weights(&mut self) -> Weights {
        for (p, v) in self.paths.iter().zip(&self.values) {
            if let Some(slot) = self.template.pointer_mut(p) {
                *slot = Value::from(*v);
            }
        }
        serde_json::from_value(self.template.clone()).expect("flat values rebuild the weights")
    }
}

/// Anchors that keep the material scale: the piece values.
pub const PIECE_VALUES: &[&str] = &["/material/value"];

/// Values never worth trying: pawn squares on the first and last rank, and the unused upper
/// triangle of the imbalance tables.
pub fn frozen(path: &str) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() >= 4 && parts[1] == "material" && parts[2] == "pawn" && (parts[3] == "0" || parts[3] == "7") {
        return true;
    }
    if parts.len() == 5 && parts[1] == "imbalance" {
        let (i, j) = (parts[3].parse::<usize>().unwrap_or(0), parts[4].parse::<usize>().unwrap_or(0));
        return j > i;
    }
    false
}

/// Mean squared sigmoid error of `params` over `set` (on all available cores).
pub fn loss(set: &[&Position], params: &Params, alpha: f64) -> f64 {
    let cfg = EvalConfig::full();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, 16);
    let chunk = set.len().div_ceil(threads).max(1);
    let total: f64 = std::thread::scope(|s| {
        let handles: Vec<_> = set
            .chunks(chunk)
            .map(|part| {
                let cfg = &cfg;
                s.spawn(move || {
                    part.iter()
                        .map(|p| {
                            let e = trace_with(&p.pos, cfg, params).white_eval as f64;
                            (sigmoid(e) - sigmoid(alpha * p.target)).powi(2)
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / set.len().max(1) as f64
}

/// The reference scale that best fits `params` (golden-section search on [0.2, 3]).
pub fn fit_alpha(set: &[&Position], params: &Params) -> f64 {
    super::golden_section(0.2, 3.0, 40, |alpha| loss(set, params, alpha))
}

/// What the search did.
pub struct Outcome {
    pub weights: Weights,
    pub alpha: f64,
    pub train_before: f64,
    pub train_after: f64,
    pub held_before: f64,
    pub held_after: f64,
    pub passes: usize,
    pub changed: usize,
}

/// How the local search runs.
pub struct FitOptions<'a> {
    /// JSON-pointer prefixes of values that never move.
    pub anchors: &'a [&'a str],
    /// The reference scale to hold; `None`: fitted to the starting values.
    pub alpha: Option<f64>,
    pub max_passes: usize,
    /// Wall-clock budget; the best values so far are kept when it runs out.
    pub minutes: f64,
}

/// Texel local search from `start`; `log` receives one line per pass.
pub fn fit(
    train: &[&Position],
    held: &[&Position],
    start: &Weights,
    opts: &FitOptions,
    log: &mut dyn FnMut(&str),
) -> Outcome {
    let FitOptions { anchors, alpha, max_passes, minutes } = *opts;
    let began = Instant::now();
    let mut flat = Flat::new(start);
    let fixed = |p: &str| frozen(p) || anchors.iter().any(|a| !a.is_empty() && p.starts_with(a));
    let params = |flat: &mut Flat| Params::new(0, flat.weights());
    let p0 = params(&mut flat);
    let alpha = alpha.unwrap_or_else(|| fit_alpha(train, &p0));
    let train_before = loss(train, &p0, alpha);
    let held_before = loss(held, &p0, alpha);
    log(&format!(
        "{} values ({} tried), alpha = {alpha:.4}, loss x 1e4: train {:.4}, held out {:.4}",
        flat.values.len(),
        flat.paths.iter().filter(|p| !fixed(p)).count(),
        1e4 * train_before,
        1e4 * held_before
    ));
    let mut active: Vec<bool> = flat.paths.iter().map(|p| !fixed(p)).collect();
    let mut step: Vec<i64> = flat.values.iter().map(|v| (v.abs() / 16).max(1)).collect();
    let mut best = (held_before, flat.values.clone());
    let mut current = train_before;
    let mut passes = 0;
    'outer: for pass in 1..=max_passes {
        let mut moved = 0;
        for i in 0..flat.values.len() {
            if !active[i] {
                continue;
            }
            if began.elapsed().as_secs_f64() > minutes * 60.0 {
                log("time is up");
                break 'outer;
            }
            let orig = flat.values[i];
            let mut improved = false;
            let mut inert = true;
            for dir in [1, -1] {
                flat.values[i] = orig + dir * step[i];
                let l = loss(train, &params(&mut flat), alpha);
                if l != current {
                    inert = false;
                }
                if l < current {
                    current = l;
                    improved = true;
                    break;
                }
            }
            if !improved {
                flat.values[i] = orig;
                step[i] = (step[i] / 2).max(1);
                if pass == 1 && inert {
                    active[i] = false;
                }
            } else {
                moved += 1;
            }
        }
        passes = pass;
        let h = loss(held, &params(&mut flat), alpha);
        log(&format!(
            "pass {pass}: {moved} values moved, loss x 1e4: train {:.4}, held out {:.4} ({:.0} s)",
            1e4 * current,
            1e4 * h,
            began.elapsed().as_secs_f64()
        ));
        if h < best.0 {
            best = (h, flat.values.clone());
        } else {
            log("held-out loss rose: stopping");
            break;
        }
        if moved == 0 {
            break;
        }
    }
    let changed = best.1.iter().zip(&Flat::new(start).values).filter(|(a, b)| a != b).count();
    flat.values = best.1;
    let weights = flat.weights();
    let pf = Params::new(0, weights);
    Outcome {
        weights,
        alpha,
        train_before,
        train_after: loss(train, &pf, alpha),
        held_before,
        held_after: best.0,
        passes,
        changed,
    }
}

/// Paths of the king-danger weights: the danger is squared into the middlegame penalty, so a
/// rescale by `f` scales them by `sqrt(f)`.
fn quadratic(path: &str) -> bool {
    const DANGER: [&str; 11] = [
        "safe_check",
        "attacker_weight",
        "weak_ring",
        "unsafe_check",
        "pinned",
        "adjacent_attack",
        "mobility",
        "no_queen",
        "knight_defender",
        "shelter_per8",
        "offset",
    ];
    let mut parts = path.split('/').skip(1);
    parts.next() == Some("king") && parts.next().is_some_and(|p| DANGER.contains(&p))
}

/// `w` with every value multiplied by `f` (king-danger weights by `sqrt(f)`), rounded: the same
/// judgements on a centipawn scale `f` times larger.
pub fn rescale(w: &Weights, f: f64) -> Weights {
    let mut flat = Flat::new(w);
    for (p, v) in flat.paths.iter().zip(flat.values.iter_mut()) {
        let k = if quadratic(p) { f.sqrt() } else { f };
        *v = (*v as f64 * k).round() as i64;
    }
    flat.weights()
}

/// Rescales `w` so that its fitted reference scale equals `alpha_target` (the scale of the values
/// the search's margins were set on); returns the weights and the factor used.
pub fn keep_scale(set: &[&Position], w: &Weights, alpha_target: f64) -> (Weights, f64) {
    // The fitted scale is not exactly proportional (the sigmoid saturates): a few fixed-point steps.
    let mut f = 1.0;
    for _ in 0..4 {
        let alpha = fit_alpha(set, &Params::new(0, rescale(w, f)));
        f *= alpha_target / alpha;
    }
    (rescale(w, f), f)
}

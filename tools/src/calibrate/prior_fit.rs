//! `sparring calibrate prior-fit`: fits a ladder point's human move prior (issue 6).
//!
//! For each BAND:ELO pair the band's eligible positions are searched exactly as the ladder point
//! at ELO searches them in play ([`Player::search_weak`], every root move scored), and each root
//! move gets its oracle loss and its features ([`sparring::policy::prior::features`]). The point's
//! choice is then a model with no randomness left in it: with probability `slip_p` (when the slip
//! gate is not empty) a uniform slip, otherwise the Boltzmann choice with logits
//! `λ·(score − best)/100 + β·f(move)`. For each λ of a grid, β is fitted by maximum likelihood of
//! the humans' moves under the Boltzmann part (conditional logit, Newton's method, L2 penalty) on
//! the positions of even-numbered games; the expected mean loss, the Kolmogorov–Smirnov distance
//! of the expected loss distribution to the humans', and the expected rate of playing the human's
//! move follow exactly from the model. The λ kept is the one whose fit-set error is comfortably
//! inside the acceptance limits (as `calibrate fit` judges) with the highest expected match;
//! the odd-numbered games are the held-out check, next to the same point without a prior.

use super::fit::{COMFORT, Expected};
use crate::common::quality::LOSS_CAP;
use crate::common::scored::OraclePosition;
use sparring::board::Game;
use sparring::board::notation::uci as uci_of;
use sparring::player::{MoveRequest, Player, Setting, WEAK_HASH_MB};
use sparring::policy::prior::{FEATURE_NAMES, FEATURES, Glance, MovePrior, dot, features};
use sparring::policy::{self, ChoiceSettings};
use sparring::profile::{Avatar, Ladder, LevelSettings};
use sparring::search::{Control, Searcher};
use std::fmt::Write as _;
use std::path::Path;

/// Seed of the searches' deeper-look draws (the same as the ladder fit's decisions).
pub const PRIOR_FIT_SEED: u64 = super::fit::FIT_SEED;
/// Multipliers of the point's λ tried. With a prior a softer choice pays: on 1800-1999's held-out
/// games, λ 7.5 with a prior matched the human move 1.2 points more often than λ 30 without one,
/// λ 15 with a prior only 0.3 points more.
pub const LAMBDA_FACTORS: [f64; 7] = [0.12, 0.17, 0.25, 0.33, 0.5, 0.7, 1.0];
/// Gradient steps of the fit, and their size (Adam).
pub const ADAM_STEPS: usize = 400;
pub const ADAM_RATE: f64 = 0.03;
/// Weight of the squared relative mean-loss error in the fit's objective (a 10 % error costs as
/// much as `LOSS_PENALTY · 0.01` of match rate).
pub const LOSS_PENALTY: f64 = 30.0;
/// Weights are rounded to this many decimals before they are judged and written.
pub const WEIGHT_DECIMALS: i32 = 3;

/// One decision of the point on one human position.
struct Decision {
    /// Per root move: features, (score − best)/100 (None = mated, never a Boltzmann candidate),
    /// oracle loss (capped).
    feats: Vec<[f64; FEATURES]>,
    delta: Vec<Option<f64>>,
    loss: Vec<i32>,
    /// Slip candidates (indices).
    gate: Vec<usize>,
    /// Index of the human's move among the root moves.
    human: usize,
    human_loss: i32,
    held_out: bool,
}

/// The fitted prior of one point.
pub struct PointFit {
    pub band: u32,
    pub elo: i32,
    pub lambda: f64,
    pub weights: [f64; FEATURES],
    /// (label, set, λ, numbers) rows for the report.
    pub rows: Vec<(String, &'static str, f64, Expected)>,
}

fn collect(level: &LevelSettings, positions: &[OraclePosition], jobs: usize) -> Vec<Decision> {
    let player = Player { setting: Setting::Level(level.clone()), avatar: Avatar::neutral() };
    let jobs = jobs.max(1);
    let chunk = positions.len().div_ceil(jobs).max(1);
    let mut out: Vec<Vec<Decision>> = Vec::new();
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                let player = &player;
                scope.spawn(move || {
                    let mut weak = Searcher::new(WEAK_HASH_MB);
                    let control = Control::default();
                    part.iter()
                        .filter_map(|p| {
                            let chess = p.chess().ok()?;
                            let game = Game::new(chess.clone());
                            let glance = player.glance(&mut weak, &game);
                            let res = player.search_weak(&mut weak, &MoveRequest::new(&game, PRIOR_FIT_SEED), &control);
                            decision(p, &chess, &res.root_moves, &level.choice, &glance)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for h in handles {
            out.push(h.join().expect("prior-fit worker"));
        }
    });
    out.into_iter().flatten().collect()
}

fn decision(
    p: &OraclePosition,
    chess: &shakmaty::Chess,
    root: &[sparring::search::RootMove],
    choice: &ChoiceSettings,
    glance: &Glance,
) -> Option<Decision> {
    if root.len() < 2 {
        return None;
    }
    let best = root.iter().map(|r| r.score).max()?;
    if best > sparring::score::MATE_BOUND {
        return None; // the point plays the fastest mate, no choice to model
    }
    if root.iter().all(|r| sparring::score::is_mated(r.score)) {
        return None; // every move loses by force: the plateau rule picks, no choice to model
    }
    let human = root.iter().position(|r| uci_of(r.mv) == p.pos.human)?;
    let delta: Vec<Option<f64>> =
        root.iter().map(|r| (!sparring::score::is_mated(r.score)).then(|| f64::from(r.score - best) / 100.0)).collect();
    Some(Decision {
        feats: root.iter().map(|r| features(chess, r.mv, glance)).collect(),
        delta,
        loss: root.iter().map(|r| p.loss(&uci_of(r.mv)).unwrap_or(LOSS_CAP)).collect(),
        gate: if choice.slip_p > 0.0 { policy::slip_gate(root, choice) } else { Vec::new() },
        human,
        human_loss: p.loss(&p.pos.human).unwrap_or(LOSS_CAP),
        held_out: p.pos.game % 2 == 1,
    })
}

/// The Boltzmann part's probabilities (0 for mated moves).
fn boltzmann(d: &Decision, lambda: f64, beta: &[f64; FEATURES]) -> Vec<f64> {
    let logits: Vec<f64> = d
        .delta
        .iter()
        .zip(&d.feats)
        .map(|(dl, f)| dl.map_or(f64::NEG_INFINITY, |x| lambda * x + dot(beta, f)))
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = logits.iter().map(|l| if l.is_finite() { (l - top).exp() } else { 0.0 }).collect();
    let total: f64 = w.iter().sum();
    w.iter().map(|x| x / total).collect()
}

/// The whole choice's probabilities: slip mixture and Boltzmann part.
fn probabilities(d: &Decision, lambda: f64, beta: &[f64; FEATURES], slip_p: f64) -> Vec<f64> {
    let mut p = boltzmann(d, lambda, beta);
    if !d.gate.is_empty() && slip_p > 0.0 {
        for x in &mut p {
            *x *= 1.0 - slip_p;
        }
        let each = slip_p / d.gate.len() as f64;
        for &i in &d.gate {
            p[i] += each;
        }
    }
    p
}

/// Fits β for a fixed λ: maximises the expected rate of playing the human's move under the whole
/// choice (slips included), `mean P(human move)`, minus `LOSS_PENALTY·(relative error of the
/// expected mean loss)²` so the point keeps erring as much as its people, minus `l2·|β|²`.
/// Gradient ascent with Adam steps from β = 0 (the objective is smooth but not concave; β = 0 is
/// the point without a prior, so the result is never worse than it on the fit set).
fn fit_beta(ds: &[&Decision], lambda: f64, slip_p: f64, target_mean: f64, l2: f64) -> [f64; FEATURES] {
    let n = ds.len().max(1) as f64;
    let mut beta = [0.0; FEATURES];
    let (mut m1, mut m2) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    for step in 1..=ADAM_STEPS {
        let mut g_match = [0.0; FEATURES];
        let mut g_loss = [0.0; FEATURES];
        let mut mean_loss = 0.0;
        for d in ds {
            let keep = if d.gate.is_empty() { 1.0 } else { 1.0 - slip_p };
            let p = boltzmann(d, lambda, &beta);
            let mut ef = [0.0; FEATURES];
            let mut el = 0.0;
            for ((pi, f), &l) in p.iter().zip(&d.feats).zip(&d.loss) {
                el += pi * f64::from(l);
                for k in 0..FEATURES {
                    ef[k] += pi * f[k];
                }
            }
            let ph = p[d.human];
            for k in 0..FEATURES {
                g_match[k] += keep * ph * (d.feats[d.human][k] - ef[k]);
            }
            for ((pi, f), &l) in p.iter().zip(&d.feats).zip(&d.loss) {
                if *pi > 0.0 {
                    for k in 0..FEATURES {
                        g_loss[k] += keep * pi * (f64::from(l) - el) * (f[k] - ef[k]);
                    }
                }
            }
            let gate_loss: f64 = if d.gate.is_empty() {
                0.0
            } else {
                d.gate.iter().map(|&i| f64::from(d.loss[i])).sum::<f64>() / d.gate.len() as f64
            };
            mean_loss += keep * el + (1.0 - keep) * gate_loss;
        }
        mean_loss /= n;
        let rel = (mean_loss - target_mean) / target_mean.max(1.0);
        for k in 0..FEATURES {
            let g =
                g_match[k] / n - LOSS_PENALTY * 2.0 * rel * g_loss[k] / n / target_mean.max(1.0) - 2.0 * l2 * beta[k];
            m1[k] = b1 * m1[k] + (1.0 - b1) * g;
            m2[k] = b2 * m2[k] + (1.0 - b2) * g * g;
            let mh = m1[k] / (1.0 - b1.powi(step as i32));
            let vh = m2[k] / (1.0 - b2.powi(step as i32));
            beta[k] += ADAM_RATE * mh / (vh.sqrt() + eps);
        }
    }
    beta
}

fn expected(ds: &[&Decision], lambda: f64, beta: &[f64; FEATURES], slip_p: f64) -> Expected {
    Expected::over(ds.iter().map(|d| (probabilities(d, lambda, beta, slip_p), &d.loss[..], d.human, d.human_loss)))
}

fn round_weights(w: [f64; FEATURES]) -> [f64; FEATURES] {
    let s = 10f64.powi(WEIGHT_DECIMALS);
    w.map(|x| ((x * s).round() / s).clamp(-sparring::policy::prior::MAX_WEIGHT, sparring::policy::prior::MAX_WEIGHT))
}

/// Fits one point's prior on its band's positions.
pub fn fit_point(
    ladder: &Ladder,
    band: u32,
    elo: i32,
    positions: &[OraclePosition],
    l2: f64,
    jobs: usize,
) -> Result<PointFit, String> {
    let mut level = ladder.at(elo);
    let base_lambda = level.choice.lambda.ok_or_else(|| format!("point {elo} has no lambda: nothing to weight"))?;
    level.prior = None;
    if level.choice.slip_tilt != 0.0 {
        return Err(format!("point {elo} tilts its slips: the prior fit models one slip rate everywhere"));
    }
    let slip_p = level.choice.slip_p;
    let t0 = std::time::Instant::now();
    let ds = collect(&level, positions, jobs);
    let train: Vec<&Decision> = ds.iter().filter(|d| !d.held_out).collect();
    let test: Vec<&Decision> = ds.iter().filter(|d| d.held_out).collect();
    eprintln!(
        "prior-fit: band {band} point {elo}: {} decisions ({} fit, {} held out) searched in {:.0} s",
        ds.len(),
        train.len(),
        test.len(),
        t0.elapsed().as_secs_f64()
    );
    if train.len() < 200 || test.is_empty() {
        return Err(format!("band {band}: only {} fit decisions (need 200) and {} held out", train.len(), test.len()));
    }
    let zero = [0.0; FEATURES];
    let mut rows = vec![
        ("no prior".to_string(), "fit", base_lambda, expected(&train, base_lambda, &zero, slip_p)),
        ("no prior".to_string(), "held-out", base_lambda, expected(&test, base_lambda, &zero, slip_p)),
    ];
    let target = rows[0].3.human_mean;
    let mut best: Option<(f64, [f64; FEATURES], Expected)> = None;
    for f in LAMBDA_FACTORS {
        let lambda = base_lambda * f;
        let beta = round_weights(fit_beta(&train, lambda, slip_p, target, l2));
        let e = expected(&train, lambda, &beta, slip_p);
        eprintln!(
            "  lambda {lambda:6.2}: fit mean {:.1} vs {:.1} ({:+.1} %), KS {:.3}, match {:.4}",
            e.mean,
            e.human_mean,
            100.0 * e.error(),
            e.ks,
            e.match_rate
        );
        rows.push(("prior".to_string(), "fit", lambda, e));
        let better = match &best {
            None => true,
            Some((_, _, b)) => {
                let (ce, cb) = (e.cost().max(COMFORT), b.cost().max(COMFORT));
                ce < cb || (ce == cb && e.match_rate > b.match_rate)
            }
        };
        if better {
            best = Some((lambda, beta, e));
        }
    }
    let (lambda, weights, _) = best.expect("a lambda grid");
    rows.push(("prior (chosen)".to_string(), "held-out", lambda, expected(&test, lambda, &weights, slip_p)));
    Ok(PointFit { band, elo, lambda, weights, rows })
}

/// The command: fits every BAND:ELO pair, prints the ladder lines to paste, writes a CSV.
pub fn run(
    oracle: &Path,
    ladder_path: &Path,
    pairs: &[(u32, i32)],
    l2: f64,
    jobs: usize,
    csv_out: &Path,
) -> Result<(), String> {
    let text = std::fs::read_to_string(ladder_path).map_err(|e| format!("{}: {e}", ladder_path.display()))?;
    let ladder = Ladder::parse(&text).map_err(|e| e.to_string())?;
    let all = crate::common::scored::load_oracle(oracle)?;
    let eligible = crate::common::bands::eligible(&all, None);
    let mut csv = String::from("band,elo,model,set,lambda,n,mean_loss,human_mean_loss,mean_error_pct,ks,match_rate\n");
    let mut fits = Vec::new();
    for &(band, elo) in pairs {
        let positions: Vec<OraclePosition> = eligible.iter().filter(|p| p.pos.band == band).cloned().collect();
        if positions.is_empty() {
            return Err(format!("no eligible positions of band {band} in {}", oracle.display()));
        }
        let fit = fit_point(&ladder, band, elo, &positions, l2, jobs)?;
        for (label, set, lambda, e) in &fit.rows {
            let _ = writeln!(
                csv,
                "{band},{elo},{label},{set},{lambda:.3},{},{:.2},{:.2},{:.2},{:.4},{:.4}",
                e.n,
                e.mean,
                e.human_mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate
            );
        }
        fits.push(fit);
    }
    std::fs::write(csv_out, csv).map_err(|e| format!("{}: {e}", csv_out.display()))?;
    println!("# features: {}", FEATURE_NAMES.join(", "));
    for f in &fits {
        println!("\nband {} point {}:", f.band, f.elo);
        println!("  model           set       lambda     n   mean  humans   error     KS   match");
        for (label, set, lambda, e) in &f.rows {
            println!(
                "  {label:<15} {set:<9} {lambda:6.2} {:5} {:6.1} {:7.1} {:+6.1} % {:.3} {:.4}",
                e.n,
                e.mean,
                e.human_mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate
            );
        }
        let w: Vec<String> = f.weights.iter().map(|&x| format!("{:.3}", if x == 0.0 { 0.0 } else { x })).collect();
        println!("  ladder lines:\n  lambda = {:.2}\n  prior = [{}]", f.lambda, w.join(", "));
        MovePrior::from_slice(&f.weights)?;
    }
    println!("\nCSV: {}", csv_out.display());
    Ok(())
}

//! `sparring humanlike model fit`: fits how each ladder point uses the human move model.
//!
//! A point chooses with `P(a) ∝ exp(λ·(v(a) − best)/100 + β·ln P_human(a | position, Elo))`
//! (slips aside). For each BAND:ELO pair the band's eligible bench positions (movers that are not
//! computer accounts, the position replayed from the PGN so the model sees the last move) are
//! searched exactly as the point searches them in play ([`Player::search_weak`]); each root move
//! gets its oracle loss and its model log-probability. The choice is then a model with no
//! randomness left in it, so the expected rate of playing the human's move, the expected mean loss
//! and the Kolmogorov–Smirnov distance of the expected loss distribution to the humans' follow
//! exactly. A grid over λ (a factor of the point's), β and the slip rate (a factor of the point's)
//! is scored on the fit and validation parts' games; the setting kept is the one with the highest
//! expected match among those comfortably inside the acceptance limits (`humanlike fit`'s
//! `COMFORT`), or the one nearest to them when none is. Points are fitted in Elo order and a
//! point's slip rate may not exceed the one fitted below it (slips fall with Elo, as the ladder's
//! validation requires; without it the fit traded λ for slips and 1100 lost to 900 in self-play). The test part's games are the held-out
//! report, next to the point as it is (β = 0).

use super::fit::{COMFORT, KS_TOLERANCE, MEAN_TOLERANCE};
use super::model::{Part, part_of, replay};
use super::types::{LOSS_CAP, OraclePosition};
use crate::board::notation::uci as uci_of;
use crate::player::{MoveRequest, Player, Setting, WEAK_HASH_MB};
use crate::policy;
use crate::profile::{Avatar, Ladder, LevelSettings};
use crate::search::{Control, Searcher};
use crate::tools::games::{GameRecord, is_computer};
use shakmaty::Move;
use std::fmt::Write as _;
use std::path::Path;

/// Factors of the point's λ tried.
pub const LAMBDA_FACTORS: [f64; 11] = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.45, 0.65, 1.0, 1.5, 2.2];
/// β values tried.
pub const BETAS: [f64; 16] = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 12.0, 20.0];
/// Factors of the point's slip rate tried.
pub const SLIP_FACTORS: [f64; 8] = [3.0, 2.0, 1.5, 1.0, 0.75, 0.5, 0.25, 0.0];
/// Seed of the searches' deeper-look draws.
pub const MODEL_FIT_SEED: u64 = super::fit::FIT_SEED;

/// One decision of the point on one human position.
struct Decision {
    delta: Vec<Option<f64>>,
    logp: Vec<f64>,
    loss: Vec<i32>,
    gate: Vec<usize>,
    human: usize,
    human_loss: i32,
    test: bool,
    /// λ of the point in a decided position, where the model is left out (None: not decided).
    decided: Option<f64>,
}

/// What the model of the choice expects on a set of decisions.
#[derive(Clone, Copy, Debug, Default)]
pub struct Expected {
    pub n: usize,
    pub mean: f64,
    pub human_mean: f64,
    pub ks: f64,
    pub match_rate: f64,
}

impl Expected {
    pub fn error(&self) -> f64 {
        (self.mean - self.human_mean) / self.human_mean.max(1.0)
    }
    pub fn cost(&self) -> f64 {
        (self.error().abs() / MEAN_TOLERANCE).max(self.ks / KS_TOLERANCE)
    }
}

/// A setting of the grid.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setting3 {
    pub lambda: f64,
    pub beta: f64,
    pub slip_p: f64,
}

/// The fit of one point.
pub struct PointFit {
    pub band: u32,
    pub elo: i32,
    pub chosen: Setting3,
    pub rows: Vec<(String, &'static str, Setting3, Expected)>,
}

/// The band's positions the fit may use: eligible, mover not a computer account, replayable.
fn usable<'a>(positions: &'a [OraclePosition], games: &[GameRecord]) -> Vec<&'a OraclePosition> {
    positions
        .iter()
        .filter(|p| {
            let Some(g) = games.get(p.pos.game) else { return false };
            let name = if p.pos.ply % 2 == 0 { &g.white } else { &g.black };
            !is_computer(name)
        })
        .collect()
}

fn collect(level: &LevelSettings, positions: &[&OraclePosition], games: &[GameRecord], jobs: usize) -> Vec<Decision> {
    let player = Player { setting: Setting::Level(level.clone()), avatar: Avatar::neutral() };
    let model = level.human.as_ref().map(|h| (h.model.clone(), h.rating));
    let decided_lambda = level.human.as_ref().map_or(1.0, |h| h.decided_lambda);
    let jobs = jobs.max(1);
    let chunk = positions.len().div_ceil(jobs).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(chunk)
            .map(|part| {
                let (player, model) = (&player, &model);
                scope.spawn(move || {
                    let mut weak = Searcher::new(WEAK_HASH_MB);
                    let control = Control::default();
                    part.iter()
                        .filter_map(|p| {
                            let (game, human) = replay(games, p.pos.game, p.pos.ply)?;
                            if uci_of(human) != p.pos.human {
                                return None;
                            }
                            let res = player.search_weak(&mut weak, &MoveRequest::new(&game, MODEL_FIT_SEED), &control);
                            let root = &res.root_moves;
                            let moves: Vec<Move> = root.iter().map(|r| r.mv).collect();
                            let logp = match model {
                                Some((m, rating)) => m.game_log_probs(&game, &moves, *rating),
                                None => vec![0.0; moves.len()],
                            };
                            decision(p, root, &level.choice, logp, decided_lambda)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("model-fit worker")).collect()
    })
}

fn decision(
    p: &OraclePosition,
    root: &[crate::search::RootMove],
    choice: &policy::ChoiceSettings,
    logp: Vec<f64>,
    decided_lambda: f64,
) -> Option<Decision> {
    if root.len() < 2 {
        return None;
    }
    let best = root.iter().map(|r| r.score).max()?;
    if best > crate::score::MATE_BOUND || root.iter().all(|r| crate::score::is_mated(r.score)) {
        return None;
    }
    let human = root.iter().position(|r| uci_of(r.mv) == p.pos.human)?;
    Some(Decision {
        delta: root
            .iter()
            .map(|r| (!crate::score::is_mated(r.score)).then(|| f64::from(r.score - best) / 100.0))
            .collect(),
        logp,
        loss: root.iter().map(|r| p.loss(&uci_of(r.mv)).unwrap_or(LOSS_CAP)).collect(),
        // The gate does not depend on the slip rate, only on the gate's bounds.
        gate: policy::slip_gate(root, choice),
        human,
        human_loss: p.loss(&p.pos.human).unwrap_or(LOSS_CAP),
        test: part_of(p.pos.game) == Part::Test,
        decided: crate::policy::human::decided(best).then_some(decided_lambda),
    })
}

fn probabilities(d: &Decision, s: &Setting3) -> Vec<f64> {
    // As the player does: in a decided position the model is left out.
    let s = &match d.decided {
        Some(lambda) => Setting3 { lambda, beta: 0.0, ..*s },
        None => *s,
    };
    let logits: Vec<f64> = d
        .delta
        .iter()
        .zip(&d.logp)
        .map(|(dl, lp)| dl.map_or(f64::NEG_INFINITY, |x| s.lambda * x + s.beta * lp))
        .collect();
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let w: Vec<f64> = logits.iter().map(|l| if l.is_finite() { (l - top).exp() } else { 0.0 }).collect();
    let total: f64 = w.iter().sum();
    let mut p: Vec<f64> = w.iter().map(|x| x / total).collect();
    if !d.gate.is_empty() && s.slip_p > 0.0 {
        for x in &mut p {
            *x *= 1.0 - s.slip_p;
        }
        // A slip draws among the gate's moves with weights exp(β·ln P_human), as the policy does
        // (uniformly when β is 0 or the model is left out).
        let top = d.gate.iter().map(|&i| s.beta * d.logp[i]).fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = d.gate.iter().map(|&i| (s.beta * d.logp[i] - top).exp()).collect();
        let total: f64 = w.iter().sum();
        for (&i, wi) in d.gate.iter().zip(&w) {
            p[i] += s.slip_p * wi / total;
        }
    }
    p
}

fn expected(ds: &[&Decision], s: &Setting3) -> Expected {
    let n = ds.len();
    if n == 0 {
        return Expected::default();
    }
    let cap = LOSS_CAP as usize;
    let (mut mh, mut hh) = (vec![0.0; cap + 1], vec![0.0; cap + 1]);
    let (mut mean, mut human_mean, mut matched) = (0.0, 0.0, 0.0);
    for d in ds {
        let p = probabilities(d, s);
        for (pi, &l) in p.iter().zip(&d.loss) {
            mean += pi * f64::from(l);
            mh[l.clamp(0, LOSS_CAP) as usize] += pi;
        }
        matched += p[d.human];
        human_mean += f64::from(d.human_loss);
        hh[d.human_loss.clamp(0, LOSS_CAP) as usize] += 1.0;
    }
    let nf = n as f64;
    let (mut fm, mut fh, mut ks) = (0.0, 0.0, 0.0f64);
    for x in 0..=cap {
        fm += mh[x] / nf;
        fh += hh[x] / nf;
        ks = ks.max((fm - fh).abs());
    }
    Expected { n, mean: mean / nf, human_mean: human_mean / nf, ks, match_rate: matched / nf }
}

/// Fits one point on its band's positions; its slip rate may not exceed `max_slip` (the fitted rate
/// of the point below it, so that the ladder's slips fall with Elo).
pub fn fit_point(
    ladder: &Ladder,
    (band, elo): (u32, i32),
    positions: &[OraclePosition],
    games: &[GameRecord],
    max_slip: f64,
    jobs: usize,
) -> Result<PointFit, String> {
    let level = ladder.at(elo);
    let base_lambda = level.choice.lambda.ok_or_else(|| format!("point {elo} has no lambda"))?;
    let base_slip = level.choice.slip_p;
    // The model is asked about the point's Elo whatever the ladder's beta is.
    let mut level = level;
    level.prior = None;
    if level.human.is_none() {
        let model = crate::profile::human_model::builtin()?;
        level.human = Some(crate::profile::ladder::HumanChoice {
            beta: 0.0,
            decided_lambda: base_lambda,
            rating: f64::from(elo),
            model,
        });
    }
    let t0 = std::time::Instant::now();
    let use_: Vec<&OraclePosition> = usable(positions, games);
    let ds = collect(&level, &use_, games, jobs);
    let fit: Vec<&Decision> = ds.iter().filter(|d| !d.test).collect();
    let test: Vec<&Decision> = ds.iter().filter(|d| d.test).collect();
    eprintln!(
        "model fit: band {band} point {elo}: {} decisions ({} fit, {} test) in {:.0} s",
        ds.len(),
        fit.len(),
        test.len(),
        t0.elapsed().as_secs_f64()
    );
    if fit.len() < 100 || test.is_empty() {
        return Err(format!("band {band}: only {} fit decisions (need 100) and {} test", fit.len(), test.len()));
    }
    let now = Setting3 { lambda: base_lambda, beta: 0.0, slip_p: base_slip };
    let mut rows = vec![
        ("as is".to_string(), "fit", now, expected(&fit, &now)),
        ("as is".to_string(), "test", now, expected(&test, &now)),
    ];
    let mut best: Option<(Setting3, Expected)> = None;
    for lf in LAMBDA_FACTORS {
        for beta in BETAS {
            for sf in SLIP_FACTORS {
                let s = Setting3 { lambda: base_lambda * lf, beta, slip_p: base_slip * sf };
                if s.slip_p > max_slip + 1e-12 {
                    continue;
                }
                let e = expected(&fit, &s);
                let better = match &best {
                    None => true,
                    Some((_, b)) => {
                        let (ce, cb) = (e.cost().max(COMFORT), b.cost().max(COMFORT));
                        ce < cb || (ce == cb && e.match_rate > b.match_rate)
                    }
                };
                if better {
                    best = Some((s, e));
                }
            }
        }
    }
    let (chosen, e) = best.expect("a grid");
    rows.push(("with model".to_string(), "fit", chosen, e));
    rows.push(("with model".to_string(), "test", chosen, expected(&test, &chosen)));
    // The model's own top-1 (β alone, λ → 0) on the same decisions, for the report.
    let alone = Setting3 { lambda: 1e-9, beta: 50.0, slip_p: 0.0 };
    rows.push(("model alone".to_string(), "test", alone, expected(&test, &alone)));
    Ok(PointFit { band, elo, chosen, rows })
}

/// The command: fits every BAND:ELO pair, prints the ladder lines, writes a CSV.
pub fn run(
    oracle: &Path,
    ladder_path: &Path,
    pgn: &Path,
    pairs: &[(u32, i32)],
    jobs: usize,
    csv_out: &Path,
) -> Result<(), String> {
    let text = std::fs::read_to_string(ladder_path).map_err(|e| format!("{}: {e}", ladder_path.display()))?;
    let ladder = Ladder::parse(&text).map_err(|e| e.to_string())?;
    let games = crate::tools::games::read_games(pgn)?;
    let all = super::types::load_oracle(oracle)?;
    let eligible = super::stats::eligible(&all, None);
    let mut csv = String::from(
        "band,elo,model,set,lambda,beta,slip_p,n,mean_loss,human_mean_loss,mean_error_pct,ks,match_rate\n",
    );
    let mut out = String::new();
    let mut pairs = pairs.to_vec();
    pairs.sort_by_key(|&(_, elo)| elo);
    let mut max_slip = 1.0;
    for &(band, elo) in &pairs {
        let positions: Vec<OraclePosition> = eligible.iter().filter(|p| p.pos.band == band).cloned().collect();
        let f = fit_point(&ladder, (band, elo), &positions, &games, max_slip, jobs)?;
        max_slip = f.chosen.slip_p;
        let mut part = String::new();
        let _ = writeln!(
            part,
            "\nband {band} point {elo}:\n  model        set    lambda  beta   slip     n   mean  humans   error     KS   match"
        );
        for (label, set, s, e) in &f.rows {
            let _ = writeln!(
                csv,
                "{band},{elo},{label},{set},{:.3},{:.3},{:.4},{},{:.2},{:.2},{:.2},{:.4},{:.4}",
                s.lambda,
                s.beta,
                s.slip_p,
                e.n,
                e.mean,
                e.human_mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate
            );
            let _ = writeln!(
                part,
                "  {label:<12} {set:<5} {:7.2} {:5.2} {:6.3} {:5} {:6.1} {:7.1} {:+6.1} % {:.3} {:.4}",
                s.lambda,
                s.beta,
                s.slip_p,
                e.n,
                e.mean,
                e.human_mean,
                100.0 * e.error(),
                e.ks,
                e.match_rate
            );
        }
        let _ = writeln!(
            part,
            "  ladder lines: lambda = {:.2}  beta = {:.2}  slip_p = {:.3}",
            f.chosen.lambda, f.chosen.beta, f.chosen.slip_p
        );
        eprint!("{part}");
        out.push_str(&part);
        std::fs::write(csv_out, &csv).map_err(|e| format!("{}: {e}", csv_out.display()))?;
    }
    println!("{out}\nCSV: {}", csv_out.display());
    Ok(())
}

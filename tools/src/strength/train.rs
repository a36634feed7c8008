//! `sparring strength train`: fits the game model (`game_model.rs`) on a rated PGN and evaluates it
//! on games the fit never saw.
//!
//! Games are split by their index i = n − 1 in the file (n the 1-based game number), exactly as the
//! human move model's training split them (`humanlike::model::part_of`), so that the model's
//! log-likelihood features of a test game come from a game that model never saw: i % 10 in 0-6 is
//! the fit part (the regression), 7 the validation part (ridge penalty, the score's spread given a
//! rating, the between-game correlation of a player and the interval's prior width), 8-9 the test
//! part (every number reported). Computer accounts (`games::is_computer`), anonymous names and
//! unrated sides are left out of all three.

use super::analyse::{Exclusion, GameAnalysis, PlyRecord, SideResult};
use super::game_model::{self, Estimate, GameModel, Population, Spread};
use super::pgn::PgnGame;
use crate::common::games::{is_anonymous, is_computer};
use crate::common::optimize::ridge_least_squares;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Ridge penalties tried (times the number of fit samples), the validation part picks one.
pub const RIDGE_GRID: [f64; 6] = [0.001, 0.01, 0.03, 0.1, 0.3, 1.0];
/// Numbers of games in the error-versus-games table.
pub const GAME_COUNTS: [usize; 5] = [1, 2, 5, 10, 20];
/// Games in the rolling per-player window.
pub const WINDOW: usize = 10;
/// Bootstrap resamples (players) for the intervals of the error-versus-games table.
pub const BOOTSTRAP: usize = 400;

/// The one split of a games file (by 1-based game number here): `common::split`.
pub use crate::common::split::{Part, part_of_number as part_of};

/// One rated side of a game with its features.
#[derive(Clone, Debug)]
pub struct Sample {
    pub game: usize,
    pub player: String,
    pub rating: f64,
    pub x: Vec<f64>,
}

/// The samples of analysed games: rated, named, human sides with enough eligible plies.
pub fn samples(games: &[GameAnalysis]) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in games {
        for (s, white) in [(0, true), (1, false)] {
            let side = &g.sides[s];
            let (Some(rating), name) = (side.rating, side.player.trim()) else { continue };
            if is_anonymous(name) || is_computer(name) {
                continue;
            }
            if let Some(x) = game_model::features(g, white) {
                out.push(Sample { game: g.number, player: name.to_string(), rating: f64::from(rating), x });
            }
        }
    }
    out
}

/// Rebuilds analysed games from the PGN and a per-ply CSV of `sparring strength --format csv
/// --plies` (the analysis cache), so a refit needs no new search. Games absent from the CSV are
/// left out.
pub fn games_from_plies_csv(pgn: &[PgnGame], csv: &str) -> Result<Vec<GameAnalysis>, String> {
    let mut lines = csv.lines();
    let header = lines.next().ok_or("empty plies CSV")?;
    let cols: Vec<&str> = header.split(',').collect();
    let col = |name: &str| cols.iter().position(|c| *c == name).ok_or(format!("plies CSV lacks a '{name}' column"));
    let (cg, cp, cc, cm, cl, ce, cx) =
        (col("game")?, col("ply")?, col("color")?, col("played")?, col("cp_loss")?, col("eligible")?, col("excluded")?);
    let cb = cols.iter().position(|c| *c == "best");
    let mut plies: BTreeMap<usize, Vec<PlyRecord>> = BTreeMap::new();
    for (i, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let bad = || format!("plies CSV line {}: cannot read '{line}'", i + 2);
        let game: usize = f.get(cg).and_then(|v| v.parse().ok()).ok_or_else(bad)?;
        let excluded = match f.get(cx).copied().unwrap_or("") {
            "" => None,
            "forced" => Some(Exclusion::Forced),
            "mate" => Some(Exclusion::Mate),
            "decided" => Some(Exclusion::Decided),
            _ => Some(Exclusion::Skipped),
        };
        plies.entry(game).or_default().push(PlyRecord {
            ply: f.get(cp).and_then(|v| v.parse().ok()).ok_or_else(bad)?,
            color: if f.get(cc) == Some(&"white") { "white" } else { "black" },
            played: f.get(cm).unwrap_or(&"").to_string(),
            best: cb.and_then(|c| f.get(c)).filter(|b| !b.is_empty()).map(|b| b.to_string()),
            value: None,
            played_value: None,
            cp_loss: f.get(cl).and_then(|v| v.parse().ok()),
            eligible: f.get(ce) == Some(&"true"),
            excluded,
            scaled_error: None,
        });
    }
    let side = |g: &PgnGame, white: bool| {
        let (player, rating) = g.side(white);
        SideResult {
            color: if white { "white" } else { "black" },
            player: player.to_string(),
            rating,
            analysed: true,
            stats: None,
            strength: None,
        }
    };
    Ok(pgn
        .iter()
        .filter_map(|g| {
            let p = plies.remove(&g.number)?;
            Some(GameAnalysis {
                number: g.number,
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.result.clone(),
                plies: p,
                sides: [side(g, true), side(g, false)],
                human_ll: Vec::new(),
                maia: None,
            })
        })
        .collect())
}

/// Runs `f` on every game, the games split over `jobs` threads (each game's result depends on that
/// game alone, so the split changes nothing).
fn each_game_on_threads(games: &mut [GameAnalysis], jobs: usize, f: impl Fn(&mut GameAnalysis) + Sync) {
    let chunk = games.len().div_ceil(jobs.max(1)).max(1);
    let f = &f;
    std::thread::scope(|scope| {
        for part in games.chunks_mut(chunk) {
            scope.spawn(move || part.iter_mut().for_each(f));
        }
    });
}

/// Scores the moves of games read from a per-ply CSV with the human move model (which the CSV
/// does not hold), on `jobs` threads.
pub fn add_human_log_likelihoods(
    games: &mut [GameAnalysis],
    pgn: &std::collections::HashMap<usize, &PgnGame>,
    version: u32,
    jobs: usize,
) {
    each_game_on_threads(games, jobs, |g| {
        if let Some(p) = pgn.get(&g.number) {
            g.human_ll = game_model::human_scores(version, &p.root, &p.moves, &g.plies);
        }
    });
}

/// Reads each game through Maia-3 for estimator v3's features: from `cache` (rows of `sparring
/// strength likelihood` on the default grid) where both sides are there, else here, on `jobs`
/// threads.
pub fn add_maia_readings(
    games: &mut [GameAnalysis],
    pgn: &std::collections::HashMap<usize, &PgnGame>,
    cache: &std::collections::HashMap<(usize, shakmaty::Color), super::likelihood::SideLikelihood>,
    jobs: usize,
) {
    use shakmaty::Color;
    each_game_on_threads(games, jobs, |g| {
        let cached = (cache.get(&(g.number, Color::White)), cache.get(&(g.number, Color::Black)));
        g.maia = match cached {
            (Some(w), Some(b)) if w.grid == super::likelihood::DEFAULT_GRID && b.grid == w.grid => {
                Some([w.clone(), b.clone()])
            }
            _ => pgn.get(&g.number).and_then(|p| game_model::maia_reading(&p.root, &p.moves)),
        };
    });
}

/// The samples as CSV: game, part, player, rating, then every feature ([`game_model::feature_names`]).
pub fn features_csv(samples: &[Sample]) -> String {
    let mut out = format!("game,part,player,rating,{}\n", game_model::feature_names().join(","));
    for s in samples {
        let part = match part_of(s.game) {
            Part::Fit => "fit",
            Part::Validation => "validation",
            Part::Test => "test",
        };
        let x: Vec<String> =
            s.x.iter().map(|v| if v.is_finite() { format!("{v:.6}") } else { String::new() }).collect();
        out.push_str(&format!("{},{part},{},{},{}\n", s.game, s.player.replace(',', " "), s.rating, x.join(",")));
    }
    out
}

fn mean(xs: &[f64]) -> f64 {
    crate::common::stats::mean(xs.iter().copied()).unwrap_or(0.0)
}

fn mae(pairs: &[(f64, f64)]) -> f64 {
    mean(&pairs.iter().map(|(a, b)| (a - b).abs()).collect::<Vec<_>>())
}

/// Fits the standardisation and the ridge regression on `fit` with penalty `ridge` (× samples).
fn regress(fit: &[&Sample], ridge: f64, template: &GameModel) -> Result<GameModel, String> {
    let mut m = template.clone();
    let k = m.index.len();
    let column = |j: usize| fit.iter().map(|s| s.x[m.index[j]]).filter(|v| v.is_finite()).collect::<Vec<_>>();
    m.mean = (0..k).map(|j| mean(&column(j))).collect();
    m.sd = (0..k)
        .map(|j| {
            let v = column(j);
            let mu = mean(&v);
            let sd = (v.iter().map(|x| (x - mu).powi(2)).sum::<f64>() / v.len().max(1) as f64).sqrt();
            if sd > 1e-9 { sd } else { 1.0 }
        })
        .collect();
    m.weights = vec![0.0; k + 1];
    let rows: Vec<Vec<f64>> = fit.iter().map(|s| m.row(&s.x)).collect();
    let ys: Vec<f64> = fit.iter().map(|s| s.rating).collect();
    m.weights = ridge_least_squares(&rows, &ys, &vec![1.0; rows.len()], ridge * rows.len() as f64)?;
    m.ridge = ridge;
    Ok(m)
}

/// Least-squares line `y = a + b x`.
fn line(points: &[(f64, f64)]) -> (f64, f64) {
    let mx = mean(&points.iter().map(|p| p.0).collect::<Vec<_>>());
    let my = mean(&points.iter().map(|p| p.1).collect::<Vec<_>>());
    let sxy: f64 = points.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = points.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let b = if sxx > 0.0 { sxy / sxx } else { 0.0 };
    (my - b * mx, b)
}

/// The score's spread given the rating on `val`, and the players' between-game correlation on `val`
/// and `fit` together: a subset of a file (estimator v3's Maia-3 caches hold every 80th game) leaves
/// too few players with two validation games to measure it (12 on FICS blitz), and the fit part's
/// residuals keep every player's persistent part, as the regression has no term per player.
fn fit_spread(m: &mut GameModel, val: &[&Sample], fit: &[&Sample]) {
    let pm = m.population.mean;
    let pts: Vec<(f64, f64)> = val.iter().map(|s| (s.rating - pm, m.score(&s.x))).collect();
    let (a, b) = line(&pts);
    // E|e| = σ √(2/π) for a normal residual.
    let abs: Vec<(f64, f64)> =
        pts.iter().map(|&(d, s)| (d, (s - a - b * d).abs() * (std::f64::consts::PI / 2.0).sqrt())).collect();
    let (c, d) = line(&abs);
    m.spread = Spread { a, b, c, d, rho: 0.0 };
    let mut by_player: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for s in val.iter().chain(fit) {
        let (mu, sd) = (a + b * (s.rating - pm), (c + d * (s.rating - pm)).max(game_model::MIN_SPREAD));
        by_player.entry(&s.player).or_default().push((m.score(&s.x) - mu) / sd);
    }
    // Intra-class correlation from pairs of games of one player.
    let (mut cross, mut pairs, mut sq, mut n) = (0.0, 0.0, 0.0, 0.0);
    for z in by_player.values().filter(|z| z.len() >= 2) {
        let sum: f64 = z.iter().sum();
        let ss: f64 = z.iter().map(|x| x * x).sum();
        cross += sum * sum - ss;
        pairs += (z.len() * (z.len() - 1)) as f64;
        sq += ss;
        n += z.len() as f64;
    }
    m.spread.rho = if pairs > 0.0 && sq > 0.0 { ((cross / pairs) / (sq / n)).clamp(0.0, 0.9) } else { 0.0 };
}

/// 200-point band of a rating.
fn band(r: f64) -> i64 {
    (r / 200.0).floor() as i64 * 200
}

/// What the held-out part shows.
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    pub samples: usize,
    pub baseline: f64,
    pub mae: f64,
    pub mae_baseline: f64,
    pub bias: f64,
    pub coverage: f64,
    pub bands: Vec<BandRow>,
    pub rolling_players: usize,
    pub rolling_windows: usize,
    pub rolling_mae: f64,
    pub rolling_mae_baseline: f64,
    pub rolling_coverage: f64,
    /// (games, players, MAE, 95 % low, 95 % high, MAE baseline, coverage).
    pub by_games: Vec<(usize, usize, f64, f64, f64, f64, f64)>,
    /// Correlation of the estimate with the rating.
    pub correlation: f64,
}

fn correlation(pairs: &[(f64, f64)]) -> f64 {
    let (ma, mb) =
        (mean(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()), mean(&pairs.iter().map(|p| p.1).collect::<Vec<_>>()));
    let sab: f64 = pairs.iter().map(|p| (p.0 - ma) * (p.1 - mb)).sum();
    let saa: f64 = pairs.iter().map(|p| (p.0 - ma).powi(2)).sum();
    let sbb: f64 = pairs.iter().map(|p| (p.1 - mb).powi(2)).sum();
    if saa > 0.0 && sbb > 0.0 { sab / (saa * sbb).sqrt() } else { 0.0 }
}

/// Per player, their held-out samples in game order.
fn players<'a>(set: &[&'a Sample]) -> BTreeMap<&'a str, Vec<&'a Sample>> {
    let mut by: BTreeMap<&str, Vec<&Sample>> = BTreeMap::new();
    for s in set {
        by.entry(s.player.as_str()).or_default().push(s);
    }
    for v in by.values_mut() {
        v.sort_by_key(|s| s.game);
    }
    by
}

fn covered(e: &Estimate, r: f64) -> f64 {
    if e.lo <= r && r <= e.hi { 1.0 } else { 0.0 }
}

/// The held-out figures of one 200-point rating band.
#[derive(Clone, Debug, Serialize)]
pub struct BandRow {
    pub band: i64,
    pub sides: usize,
    pub mean_rating: f64,
    pub mean_estimate: f64,
    pub mae: f64,
    pub mae_baseline: f64,
    pub coverage: f64,
}

/// The held-out evaluation of `m` on `test`, with `baseline` the fit part's mean rating.
pub fn evaluate(m: &GameModel, test: &[&Sample], baseline: f64, seed: u64) -> Evaluation {
    let est: Vec<Estimate> = test.iter().map(|s| m.estimate(&[m.score(&s.x)])).collect();
    let pairs: Vec<(f64, f64)> = est.iter().zip(test).map(|(e, s)| (e.elo, s.rating)).collect();
    let base: Vec<(f64, f64)> = test.iter().map(|s| (baseline, s.rating)).collect();
    let mut bands: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
    for (i, s) in test.iter().enumerate() {
        bands.entry(band(s.rating)).or_default().push(i);
    }
    let bands = bands
        .into_iter()
        .map(|(b, idx)| {
            let p: Vec<(f64, f64)> = idx.iter().map(|&i| pairs[i]).collect();
            let q: Vec<(f64, f64)> = idx.iter().map(|&i| base[i]).collect();
            BandRow {
                band: b,
                sides: idx.len(),
                mean_rating: mean(&p.iter().map(|x| x.1).collect::<Vec<_>>()),
                mean_estimate: mean(&p.iter().map(|x| x.0).collect::<Vec<_>>()),
                mae: mae(&p),
                mae_baseline: mae(&q),
                coverage: mean(&idx.iter().map(|&i| covered(&est[i], test[i].rating)).collect::<Vec<_>>()),
            }
        })
        .collect();
    let by_player = players(test);
    // Rolling windows of 10 consecutive held-out games.
    let (mut roll, mut roll_base, mut roll_cov, mut roll_players) = (Vec::new(), Vec::new(), Vec::new(), 0);
    for games in by_player.values().filter(|g| g.len() >= WINDOW) {
        roll_players += 1;
        for w in games.windows(WINDOW) {
            let scores: Vec<f64> = w.iter().map(|s| m.score(&s.x)).collect();
            let truth = mean(&w.iter().map(|s| s.rating).collect::<Vec<_>>());
            let e = m.estimate(&scores);
            roll.push((e.elo, truth));
            roll_base.push((baseline, truth));
            roll_cov.push(covered(&e, truth));
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let by_games = GAME_COUNTS
        .iter()
        .map(|&k| {
            let rows: Vec<(f64, f64, f64)> = by_player
                .values()
                .filter(|g| g.len() >= k)
                .map(|g| {
                    let first = &g[..k];
                    let truth = mean(&first.iter().map(|s| s.rating).collect::<Vec<_>>());
                    let e = m.estimate(&first.iter().map(|s| m.score(&s.x)).collect::<Vec<_>>());
                    ((e.elo - truth).abs(), (baseline - truth).abs(), covered(&e, truth))
                })
                .collect();
            let err: Vec<f64> = rows.iter().map(|r| r.0).collect();
            let mut boots: Vec<f64> = (0..BOOTSTRAP)
                .map(|_| {
                    mean(
                        &(0..err.len())
                            .map(|_| err[(rng.next_u64() % err.len().max(1) as u64) as usize])
                            .collect::<Vec<_>>(),
                    )
                })
                .collect();
            boots.sort_by(f64::total_cmp);
            let q = |p: f64| {
                if boots.is_empty() || err.is_empty() {
                    f64::NAN
                } else {
                    boots[((boots.len() - 1) as f64 * p).round() as usize]
                }
            };
            (
                k,
                rows.len(),
                mean(&err),
                q(0.025),
                q(0.975),
                mean(&rows.iter().map(|r| r.1).collect::<Vec<_>>()),
                mean(&rows.iter().map(|r| r.2).collect::<Vec<_>>()),
            )
        })
        .collect();
    Evaluation {
        samples: test.len(),
        baseline,
        mae: mae(&pairs),
        mae_baseline: mae(&base),
        bias: mean(&pairs.iter().map(|(a, b)| a - b).collect::<Vec<_>>()),
        coverage: mean(&est.iter().zip(test).map(|(e, s)| covered(e, s.rating)).collect::<Vec<_>>()),
        bands,
        rolling_players: roll_players,
        rolling_windows: roll.len(),
        rolling_mae: mae(&roll),
        rolling_mae_baseline: mae(&roll_base),
        rolling_coverage: mean(&roll_cov),
        by_games,
        correlation: correlation(&pairs),
    }
}

/// What a training run produced.
pub struct Trained {
    pub model: GameModel,
    pub validation_mae: Vec<(f64, f64)>,
    pub test: Evaluation,
    pub parts: (usize, usize, usize),
}

/// Fits the game model on `samples` (split by [`part_of`]); `template` carries the oracle record
/// and the scale's name.
/// The model reads the features `names` ([`game_model::selected_features`]).
pub fn train(samples: &[Sample], template: &GameModel, names: Vec<String>, seed: u64) -> Result<Trained, String> {
    let pick = |p: Part| samples.iter().filter(|s| part_of(s.game) == p).collect::<Vec<_>>();
    let (fit, val, test) = (pick(Part::Fit), pick(Part::Validation), pick(Part::Test));
    if fit.len() < 100 || val.len() < 50 || test.is_empty() {
        return Err(format!(
            "too few rated human sides to train: {} fit, {} validation, {} test (need 100, 50 and 1)",
            fit.len(),
            val.len(),
            test.len()
        ));
    }
    let mut ratings: Vec<f64> = fit.iter().map(|s| s.rating).collect();
    ratings.sort_by(f64::total_cmp);
    let pm = mean(&ratings);
    let psd = (ratings.iter().map(|r| (r - pm).powi(2)).sum::<f64>() / ratings.len() as f64).sqrt();
    let mut template = template.clone();
    template.population = Population {
        mean: pm,
        sd: psd,
        p01: super::model::percentile(&ratings, 0.01),
        p99: super::model::percentile(&ratings, 0.99),
        samples: ratings.len(),
    };
    if names.is_empty() {
        return Err("every feature is excluded".to_string());
    }
    template.use_features(names)?;
    let mut best: Option<(f64, GameModel)> = None;
    let mut validation_mae = Vec::new();
    for &ridge in &RIDGE_GRID {
        let m = regress(&fit, ridge, &template)?;
        let e = mae(&val.iter().map(|s| (m.score(&s.x), s.rating)).collect::<Vec<_>>());
        validation_mae.push((ridge, e));
        if best.as_ref().is_none_or(|(b, _)| e < *b) {
            best = Some((e, m));
        }
    }
    let (_, mut model) = best.expect("a ridge value");
    fit_spread(&mut model, &val, &fit);
    let test_eval = evaluate(&model, &test, pm, seed);
    Ok(Trained { model, validation_mae, test: test_eval, parts: (fit.len(), val.len(), test.len()) })
}

/// The markdown report of a training run.
pub fn report(t: &Trained, data: &str, analysis: &str) -> String {
    let m = &t.model;
    let e = &t.test;
    let mut s = String::new();
    let _ = writeln!(s, "# Strength estimator: the game model\n");
    let _ = writeln!(s, "- data: `{data}` ({analysis})");
    let _ = writeln!(
        s,
        "- parts by game index i = n − 1: i % 10 in 0-6 fit ({} sides), 7 validation ({}), 8-9 test ({}); \
         computer accounts, anonymous names and unrated sides left out",
        t.parts.0, t.parts.1, t.parts.2
    );
    let _ = writeln!(
        s,
        "- oracle `{}` {}, pairing {}; scale: {}",
        m.oracle,
        m.depth.map_or("nodes".into(), |d| format!("depth {d}")),
        m.pairing,
        m.scale
    );
    let _ = writeln!(
        s,
        "- ridge {} (validation MAE by ridge: {}); spread: score = {:.1} {:+.3}·(R − {:.0}), sd {:.1} {:+.3}·(R − {:.0}); \
         ρ between one player's games (fit and validation parts) {:.3}; 90 % intervals: confidence intervals from that spread",
        m.ridge,
        t.validation_mae.iter().map(|(r, v)| format!("{r}: {v:.1}")).collect::<Vec<_>>().join(", "),
        m.spread.a,
        m.spread.b,
        m.population.mean,
        m.spread.c,
        m.spread.d,
        m.population.mean,
        m.spread.rho
    );
    s.push_str(&test_section(e, "Test part (never seen by the fit)"));
    s
}

/// The report of an existing model on a file's test part (`train --evaluate`): how a model fitted on
/// one population reads another, or a shipped model next to a new one on the same games.
pub fn evaluation_report(m: &GameModel, name: &str, e: &Evaluation, data: &str, analysis: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Strength estimator: model `{name}` on the test part of a file\n");
    let _ = writeln!(s, "- data: `{data}` ({analysis}); test part: game index i = n − 1 with i % 10 in 8-9");
    let _ = writeln!(
        s,
        "- model `{name}`: scale {}, fitted on {} sides (mean {:.0}); {} features{}",
        m.scale,
        m.population.samples,
        m.population.mean,
        m.features.len(),
        if m.needs_maia() { ", Maia-3's among them" } else { "" }
    );
    let _ = writeln!(
        s,
        "- the baseline answers this file's fit-part mean; the estimates are on the model's scale, so where \
         the scales differ the correlation is the fair reading"
    );
    s.push_str(&test_section(e, "Test part"));
    s
}

/// The held-out section of a report: per side, per band, rolling and by number of games.
fn test_section(e: &Evaluation, heading: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "\n## {heading}\n");
    let _ = writeln!(
        s,
        "Per game side: {} sides, MAE **{:.1}** against {:.1} for always answering the fit part's mean {:.0} \
         ({:+.1} %); bias {:+.1}; correlation with the rating {:.3}; 90 % intervals cover {:.1} %.\n",
        e.samples,
        e.mae,
        e.mae_baseline,
        e.baseline,
        100.0 * (e.mae / e.mae_baseline - 1.0),
        e.bias,
        e.correlation,
        100.0 * e.coverage
    );
    let _ = writeln!(
        s,
        "| band | sides | mean rating | mean estimate | MAE model | MAE baseline | 90 % coverage |\n\
         |---|---|---|---|---|---|---|"
    );
    for r in &e.bands {
        let _ = writeln!(
            s,
            "| {}-{} | {} | {:.0} | {:.0} | {:.1} | {:.1} | {:.1} % |",
            r.band,
            r.band + 199,
            r.sides,
            r.mean_rating,
            r.mean_estimate,
            r.mae,
            r.mae_baseline,
            100.0 * r.coverage
        );
    }
    if e.rolling_windows == 0 {
        let _ = writeln!(s, "\nRolling {WINDOW}-game estimate: no player has {WINDOW} test games.\n");
    } else {
        let _ = writeln!(
            s,
            "\nRolling {WINDOW}-game estimate, every full window of {} players with ≥ {WINDOW} test games ({} \
             windows): MAE **{:.1}** (baseline {:.1}); intervals cover {:.1} %.\n",
            e.rolling_players,
            e.rolling_windows,
            e.rolling_mae,
            e.rolling_mae_baseline,
            100.0 * e.rolling_coverage
        );
    }
    let _ = writeln!(
        s,
        "| games | players | MAE | 95 % (players resampled) | MAE baseline | 90 % coverage |\n|---|---|---|---|---|---|"
    );
    for (k, n, mm, lo, hi, mb, c) in e.by_games.iter().filter(|r| r.1 > 0) {
        let _ = writeln!(s, "| {k} | {n} | {mm:.1} | [{lo:.1}, {hi:.1}] | {mb:.1} | {:.1} % |", 100.0 * c);
    }
    for (k, ..) in e.by_games.iter().filter(|r| r.1 == 0) {
        let _ = writeln!(s, "| {k} | 0 | – | – | – | – |");
    }
    s
}

/// The error-versus-games table as CSV.
pub fn by_games_csv(e: &Evaluation) -> String {
    let mut s = String::from("games,players,mae,mae_lo95,mae_hi95,mae_baseline,coverage90\n");
    for (k, n, m, lo, hi, b, c) in e.by_games.iter().filter(|r| r.1 > 0) {
        let _ = writeln!(s, "{k},{n},{m:.1},{lo:.1},{hi:.1},{b:.1},{c:.3}");
    }
    s
}

//! Refitting the calibration by weighted least squares, and the held-out evaluation.
//!
//! Each sample is one game side with ≥ 12 eligible plies and a known rating. Two fits:
//!
//! - `rating-on-ase` (the original): the weighted regression `rating = α + β·ase`, stored as
//!   `elo_per_ase_unit = −β`. It minimises the error of one game's estimate, and so shrinks every
//!   estimate towards the samples' mean rating: one game's ASE is so noisy (R² ≈ 0.1) that the
//!   slope is attenuated about tenfold, and a player whose true level is far from the mean is
//!   placed near it however many games are pooled.
//! - `ase-on-rating` (calibration, as in Regan–Haworth): the regression `ase = a + b·rating`,
//!   inverted to `elo_per_ase_unit = −1/b`. The noise is in the ASE, which is the regressand here,
//!   so the slope is unbiased: pooled over many games (a player's history, a ladder point's
//!   self-play) the estimate converges to the level whose people err that much. Single-game
//!   estimates spread wider.
//!
//! Either way the anchor is the weighted centroid of the samples (both lines pass through it), or
//! the line's value at a requested `anchor_elo`.

use super::model::{self, FitInfo, ROLLING_GAMES, SideStats, StrengthModel};
use serde::Serialize;
use std::collections::HashMap;

/// Fewest samples a refit accepts.
pub const MIN_SAMPLES: usize = 20;

/// One game side with a known rating.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sample {
    /// Game number in its file (chronological order for the rolling evaluation).
    pub game: usize,
    pub color: String,
    pub player: String,
    pub rating: f64,
    pub n: usize,
    pub ase: f64,
    pub sd: f64,
    pub p75_loss: f64,
}

impl Sample {
    pub fn stats(&self) -> SideStats {
        SideStats { n: self.n, ase: self.ase, sd: self.sd, p75_loss: self.p75_loss }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Weighting {
    /// Weight = number of eligible plies (the ASE's variance falls as 1/n).
    Plies,
    /// Every sample weighs the same.
    Uniform,
}

impl Weighting {
    pub fn weight(self, s: &Sample) -> f64 {
        match self {
            Weighting::Plies => s.n as f64,
            Weighting::Uniform => 1.0,
        }
    }
}

/// Which variable is regressed on which (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// `rating = α + β·ase`: best single-game error, shrunk towards the mean.
    #[default]
    RatingOnAse,
    /// `ase = a + b·rating`, inverted: unbiased for pooled games.
    AseOnRating,
}

impl Direction {
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::RatingOnAse => "rating-on-ase",
            Direction::AseOnRating => "ase-on-rating",
        }
    }
}

/// Result of a weighted straight-line fit `y = intercept + slope·x`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LineFit {
    pub intercept: f64,
    pub slope: f64,
    pub mean_x: f64,
    pub mean_y: f64,
    pub r2: f64,
    pub weighted_rmse: f64,
    pub samples: usize,
}

/// Weighted least squares on (x, y, w) triples. Refuses fewer than [`MIN_SAMPLES`] points or
/// no spread in x.
pub fn wls(points: &[(f64, f64, f64)]) -> Result<LineFit, String> {
    let pts: Vec<_> = points
        .iter()
        .copied()
        .filter(|&(x, y, w)| x.is_finite() && y.is_finite() && w.is_finite() && w > 0.0)
        .collect();
    if pts.len() < MIN_SAMPLES {
        return Err(format!(
            "refusing to refit: {} usable samples, at least {MIN_SAMPLES} are needed \
             (a sample is a game side with ≥ {} eligible plies and a known rating)",
            pts.len(),
            model::MIN_ELIGIBLE_PLIES
        ));
    }
    let sw: f64 = pts.iter().map(|p| p.2).sum();
    let mx = pts.iter().map(|p| p.2 * p.0).sum::<f64>() / sw;
    let my = pts.iter().map(|p| p.2 * p.1).sum::<f64>() / sw;
    let sxx: f64 = pts.iter().map(|p| p.2 * (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = pts.iter().map(|p| p.2 * (p.0 - mx) * (p.1 - my)).sum();
    let syy: f64 = pts.iter().map(|p| p.2 * (p.1 - my) * (p.1 - my)).sum();
    if sxx <= f64::EPSILON * sw {
        return Err("refusing to refit: the samples' ASE values do not vary".to_string());
    }
    let slope = sxy / sxx;
    let intercept = my - slope * mx;
    let sse: f64 = pts
        .iter()
        .map(|p| {
            let r = p.1 - (intercept + slope * p.0);
            p.2 * r * r
        })
        .sum();
    Ok(LineFit {
        intercept,
        slope,
        mean_x: mx,
        mean_y: my,
        r2: if syy > 0.0 { 1.0 - sse / syy } else { 0.0 },
        weighted_rmse: (sse / sw).sqrt(),
        samples: pts.len(),
    })
}

/// Fits the model coefficients to samples. `anchor_elo`: express the anchor at this Elo instead
/// of the weighted centroid. The oracle fields of `template` are kept.
pub fn refit(
    samples: &[Sample],
    weighting: Weighting,
    anchor_elo: Option<f64>,
    template: &StrengthModel,
) -> Result<(StrengthModel, LineFit), String> {
    refit_with(samples, weighting, Direction::RatingOnAse, anchor_elo, template)
}

/// [`refit`] with a choice of regression direction. The returned [`LineFit`] is the regression
/// as fitted (for `ase-on-rating`, x is the rating and y the ASE).
pub fn refit_with(
    samples: &[Sample],
    weighting: Weighting,
    direction: Direction,
    anchor_elo: Option<f64>,
    template: &StrengthModel,
) -> Result<(StrengthModel, LineFit), String> {
    let used = samples.iter().filter(|s| s.n >= model::MIN_ELIGIBLE_PLIES);
    let pts: Vec<(f64, f64, f64)> = match direction {
        Direction::RatingOnAse => used.map(|s| (s.ase, s.rating, weighting.weight(s))).collect(),
        Direction::AseOnRating => used.map(|s| (s.rating, s.ase, weighting.weight(s))).collect(),
    };
    let fit = wls(&pts)?;
    if fit.slope >= 0.0 {
        return Err(format!(
            "refusing to refit: rating does not fall with ASE in these samples (slope {:+.4} for {})",
            fit.slope,
            direction.as_str()
        ));
    }
    // Elo per ASE unit, and the centroid (Elo, ASE) the line passes through.
    let (k, centroid) = match direction {
        Direction::RatingOnAse => (-fit.slope, (fit.mean_y, fit.mean_x)),
        Direction::AseOnRating => (-1.0 / fit.slope, (fit.mean_x, fit.mean_y)),
    };
    let (a_elo, a_ase) = match anchor_elo {
        None => centroid,
        Some(e) => (e, centroid.1 - (e - centroid.0) / k),
    };
    let mut m = template.clone();
    m.version = model::MODEL_VERSION;
    m.anchor_elo = a_elo;
    m.anchor_ase = a_ase;
    m.elo_per_ase_unit = k;
    m.fitted = Some(FitInfo {
        samples: fit.samples,
        weighting: format!("{weighting:?}").to_lowercase(),
        direction: direction.as_str().to_string(),
        r2: fit.r2,
        weighted_rmse: fit.weighted_rmse,
        ..Default::default()
    });
    Ok((m, fit))
}

/// Held-out errors of a model against the trivial baseline.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Evaluation {
    pub baseline_rating: f64,
    pub games: usize,
    pub mae_model: f64,
    pub mae_baseline: f64,
    pub bias_model: f64,
    pub players: usize,
    /// Every full 10-game window of every player with ≥ 10 games.
    pub windows: usize,
    pub mae_rolling: f64,
    pub mae_rolling_baseline: f64,
    /// The last full window of each such player only.
    pub mae_rolling_last: f64,
    pub mae_rolling_last_baseline: f64,
}

fn mean(v: &[f64]) -> f64 {
    crate::common::stats::mean(v.iter().copied()).unwrap_or(f64::NAN)
}

/// Per-game and per-player-rolling mean absolute error of `model` on `held_out`, against always
/// predicting `baseline_rating`. Rolling windows: each player's eligible games in game order, the
/// inverse-variance aggregate of the last 10 compared with the mean rating over those 10 games.
pub fn evaluate(model: &StrengthModel, held_out: &[Sample], baseline_rating: f64) -> Evaluation {
    let mut per_game_err = Vec::new();
    let mut per_game_base = Vec::new();
    let mut bias = Vec::new();
    let mut ordered: Vec<&Sample> = held_out.iter().filter(|s| s.n >= model::MIN_ELIGIBLE_PLIES).collect();
    ordered.sort_by_key(|s| (s.game, s.color.clone()));
    let mut by_player: HashMap<&str, Vec<(i32, i32, f64)>> = HashMap::new();
    for s in &ordered {
        let Some(st) = model::strength(model, &s.stats()) else {
            continue;
        };
        per_game_err.push((st.strength_elo as f64 - s.rating).abs());
        per_game_base.push((baseline_rating - s.rating).abs());
        bias.push(st.strength_elo as f64 - s.rating);
        by_player.entry(&s.player).or_default().push((st.strength_elo, st.strength_se, s.rating));
    }
    let (mut w_err, mut w_base, mut l_err, mut l_base) = (vec![], vec![], vec![], vec![]);
    let mut players = 0;
    let mut names: Vec<&&str> = by_player.keys().collect();
    names.sort();
    for name in names {
        let g = &by_player[*name];
        if g.len() < ROLLING_GAMES {
            continue;
        }
        players += 1;
        for end in ROLLING_GAMES..=g.len() {
            let w = &g[end - ROLLING_GAMES..end];
            let pairs: Vec<(i32, i32)> = w.iter().map(|x| (x.0, x.1)).collect();
            let (est, _) = model::inverse_variance_mean(&pairs).unwrap_or((f64::NAN, 0.0));
            let truth = mean(&w.iter().map(|x| x.2).collect::<Vec<_>>());
            w_err.push((est - truth).abs());
            w_base.push((baseline_rating - truth).abs());
            if end == g.len() {
                l_err.push((est - truth).abs());
                l_base.push((baseline_rating - truth).abs());
            }
        }
    }
    Evaluation {
        baseline_rating,
        games: per_game_err.len(),
        mae_model: mean(&per_game_err),
        mae_baseline: mean(&per_game_base),
        bias_model: mean(&bias),
        players,
        windows: w_err.len(),
        mae_rolling: mean(&w_err),
        mae_rolling_baseline: mean(&w_base),
        mae_rolling_last: mean(&l_err),
        mae_rolling_last_baseline: mean(&l_base),
    }
}

/// Splits CSV fields, honouring double quotes.
pub fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Reads the per-game-side CSV written by `sparring strength --format csv`: rows with a rating
/// and ≥ 1 eligible ply become samples.
pub fn read_samples_csv(text: &str) -> Result<Vec<Sample>, String> {
    let mut lines = text.lines();
    let header = split_csv(lines.next().ok_or("empty samples file")?);
    let col = |name: &str| {
        header.iter().position(|h| h.trim() == name).ok_or_else(|| format!("samples CSV lacks column '{name}'"))
    };
    let (cg, cc, cp, cr, cn, ca, cs, c75) = (
        col("game")?,
        col("color")?,
        col("player")?,
        col("rating")?,
        col("n")?,
        col("ase")?,
        col("sd")?,
        col("p75_loss")?,
    );
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let f = split_csv(line);
        let get = |c: usize| f.get(c).map(|s| s.trim()).unwrap_or("");
        let bad = |what: &str| format!("samples CSV line {}: bad {what}", i + 2);
        let (Ok(rating), Ok(n)) = (get(cr).parse::<f64>(), get(cn).parse::<usize>()) else {
            continue;
        };
        if n == 0 {
            continue;
        }
        out.push(Sample {
            game: get(cg).parse().map_err(|_| bad("game"))?,
            color: get(cc).to_string(),
            player: get(cp).to_string(),
            rating,
            n,
            ase: get(ca).parse().map_err(|_| bad("ase"))?,
            sd: get(cs).parse().map_err(|_| bad("sd"))?,
            p75_loss: get(c75).parse().unwrap_or(f64::NAN),
        });
    }
    Ok(out)
}

/// Which games a refit uses; the rest are held out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FitPart {
    /// Every game (nothing held out).
    All,
    /// Even game numbers fit, odd ones are held out.
    Even,
    /// Odd game numbers fit, even ones are held out.
    Odd,
    /// The first 80 % of game numbers fit, the rest are held out.
    First80,
}

impl FitPart {
    /// Splits samples into (fit, held-out). `max_game` is the largest game number in the file.
    pub fn split(self, samples: &[Sample], max_game: usize) -> (Vec<Sample>, Vec<Sample>) {
        let cut = (max_game as f64 * 0.8).floor() as usize;
        samples.iter().cloned().partition(|s| match self {
            FitPart::All => true,
            FitPart::Even => s.game % 2 == 0,
            FitPart::Odd => s.game % 2 == 1,
            FitPart::First80 => s.game <= cut,
        })
    }

    pub fn describe(self) -> &'static str {
        match self {
            FitPart::All => "all games",
            FitPart::Even => "even-numbered games (odd-numbered held out)",
            FitPart::Odd => "odd-numbered games (even-numbered held out)",
            FitPart::First80 => "first 80% of game numbers (last 20% held out)",
        }
    }
}

//! Self-play steps between ladder points: the games half of the ladder's calibration (issue 23).
//!
//! Two points of one ladder file play a paired match (each opening twice, colours reversed) with
//! the match runner's library (`r#match::run_match`, the one use of another tool's code that the
//! layering allows: the calibration plays its games exactly as `sparring match` does), each engine
//! this binary with `Ladder File`, `UCI_LimitStrength` and its
//! `UCI_Elo`; the points use their own node budgets (`go nodes` only caps them). The higher point's
//! score is what the Elo formula predicts for the gap, within [`STEP_TOLERANCE`] percentage points:
//! 200 points apart 76 % (67-85 %), 100 apart 64 % (55-73 %). `sparring calibrate steps` measures a
//! ladder's steps into a CSV (default `target/calibrate/steps.csv`; resumable: a row already there is kept);
//! `sparring calibrate model-fit --step-games N` uses the same match to choose among the settings that
//! pass the per-move targets.

use crate::r#match::engine::{EngineConfig, TimeControl};
use crate::r#match::openings::BookFormat;
use crate::r#match::{MatchConfig, OpeningOrder, OpeningsConfig, ProgressMode, run_match};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How far (percentage points) a step's score may sit from the Elo formula's expectation.
pub const STEP_TOLERANCE: f64 = 9.0;
/// The per-move node cap given to both engines (each point's own budget is far below it).
const NODE_CAP: u64 = 100_000_000;
/// The match seed of every step (openings order and game seeds).
pub const STEP_SRAND: u64 = 7;

/// The score (%) the Elo formula expects of a player `gap` points above the other.
pub fn expected_score(gap: i32) -> f64 {
    100.0 * crate::common::stats::elo_to_score(f64::from(gap))
}

/// The accepted range of a step's score (%).
pub fn step_range(gap: i32) -> (f64, f64) {
    let e = expected_score(gap);
    (e - STEP_TOLERANCE, e + STEP_TOLERANCE)
}

/// How a step is played.
#[derive(Clone, Debug)]
pub struct StepConfig {
    /// The engine binary (this one by default).
    pub engine: PathBuf,
    /// Opening book (PGN); each opening is played twice.
    pub openings: PathBuf,
    pub games: usize,
    pub concurrency: usize,
    pub srand: u64,
    /// Where the games go (PGN), if anywhere.
    pub pgn_out: Option<PathBuf>,
}

impl StepConfig {
    /// Steps played by this very binary (the fit and the repair play candidate ladders with it).
    pub fn this_binary(
        openings: PathBuf,
        games: usize,
        concurrency: usize,
        srand: u64,
        pgn_out: Option<PathBuf>,
    ) -> Result<StepConfig, String> {
        let engine = std::env::current_exe().map_err(|e| format!("this binary: {e}"))?;
        Ok(StepConfig { engine, openings, games, concurrency: concurrency.max(1), srand, pgn_out })
    }
}

/// What one step measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepResult {
    pub higher: i32,
    pub lower: i32,
    pub games: usize,
    /// The higher point's score, in %.
    pub score: f64,
    /// Half the width of the score's 95 % interval from the game pairs, in %.
    pub error95: f64,
}

impl StepResult {
    pub fn gap(&self) -> i32 {
        self.higher - self.lower
    }
    /// Issue 23's test: points 200 or more apart inside the step range (67-85 % at 200), closer
    /// ones above 50 %.
    pub fn passes(&self) -> bool {
        if self.gap() >= 200 {
            let (lo, hi) = step_range(self.gap());
            (lo..=hi).contains(&self.score)
        } else {
            self.score > 50.0
        }
    }
}

/// One point of `ladder` as a match engine: this binary with `Ladder File`, `UCI_LimitStrength`
/// and its `UCI_Elo`, its own node budget capped by `go nodes`.
fn engine(cfg: &StepConfig, ladder: &Path, elo: i32) -> EngineConfig {
    let option = |name: &str, value: String| (name.to_string(), value);
    EngineConfig {
        name: format!("elo{elo}"),
        cmd: cfg.engine.to_string_lossy().into_owned(),
        options: vec![
            option("Hash", "16".into()),
            option("Ladder File", ladder.display().to_string()),
            option("UCI_LimitStrength", "true".into()),
            option("UCI_Elo", elo.to_string()),
        ],
        tc: TimeControl { nodes: Some(NODE_CAP), ..Default::default() },
        start_timeout: Duration::from_secs(20),
        hang_timeout: Duration::from_secs(60),
        ..Default::default()
    }
}

/// Plays `higher` against `lower`, both points of the ladder file `ladder`: a paired match
/// through the match runner's library ([`run_match`]), read from its typed summary.
pub fn play_step(ladder: &Path, higher: i32, lower: i32, cfg: &StepConfig) -> Result<StepResult, String> {
    // The engines would refuse a bad file and play the built-in ladder instead: refuse it here.
    let text = std::fs::read_to_string(ladder).map_err(|e| format!("{}: {e}", ladder.display()))?;
    sparring::profile::Ladder::parse(&text).map_err(|e| format!("{}: {e}", ladder.display()))?;
    let mut m = MatchConfig::new(engine(cfg, ladder, higher), engine(cfg, ladder, lower));
    m.games = 2;
    m.rounds = cfg.games.div_ceil(2).max(1);
    m.repeat = true;
    m.concurrency = cfg.concurrency.max(1);
    m.srand = cfg.srand;
    m.openings = OpeningsConfig {
        file: Some(cfg.openings.clone()),
        format: BookFormat::Pgn,
        order: OpeningOrder::Random,
        ..Default::default()
    };
    m.pgnout = cfg.pgn_out.clone();
    m.progress = ProgressMode::Quiet;
    let summary = run_match(m).map_err(|e| format!("step {higher} vs {lower}: the match failed: {e}"))?;
    if summary.faults.iter().any(|&f| f > 0) || summary.stopped.is_some() {
        return Err(format!(
            "step {higher} vs {lower}: engine faults {:?}{}",
            summary.faults,
            summary.stopped.map(|s| format!(" ({s})")).unwrap_or_default()
        ));
    }
    let pairs = summary.pentanomial_score.ok_or("a paired match has a pentanomial score")?;
    Ok(StepResult {
        higher,
        lower,
        games: summary.games_played,
        score: 100.0 * summary.score,
        error95: 100.0 * pairs.error95,
    })
}

/// The steps CSV's header.
pub const CSV_HEADER: &str = "higher,lower,gap,games,score,error95,expected,low,high,pass,srand";

/// One CSV row of a step played with match seed `srand`.
pub fn csv_row(r: &StepResult, srand: u64) -> String {
    let (lo, hi) = step_range(r.gap());
    format!(
        "{},{},{},{},{:.1},{:.1},{:.1},{:.1},{:.1},{},{srand}",
        r.higher,
        r.lower,
        r.gap(),
        r.games,
        r.score,
        r.error95,
        expected_score(r.gap()),
        lo,
        hi,
        if r.passes() { "yes" } else { "no" }
    )
}

/// The match seed of a CSV row (rows written before the column existed were played with
/// [`STEP_SRAND`]).
fn row_srand(fields: &[&str]) -> Option<u64> {
    match fields.get(10) {
        Some(s) => s.trim().parse().ok(),
        None => Some(STEP_SRAND),
    }
}

/// `sparring calibrate steps`: every neighbouring pair of `points` (ascending), written to `out`
/// as it goes; pairs already in `out` with at least `games` games and the same match seed are
/// kept, not replayed.
pub fn run(ladder: &Path, points: &[i32], cfg: &StepConfig, out: &Path) -> Result<Vec<StepResult>, String> {
    let mut points = points.to_vec();
    points.sort_unstable();
    points.dedup();
    if points.len() < 2 {
        return Err("steps need at least two points".into());
    }
    let old = std::fs::read_to_string(out).unwrap_or_default();
    let mut rows: Vec<String> = old.lines().skip(1).filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
    let mut results = Vec::new();
    for w in points.windows(2) {
        let (lower, higher) = (w[0], w[1]);
        let done = rows.iter().position(|r| {
            let f: Vec<&str> = r.split(',').collect();
            f.len() >= 4
                && f[0] == higher.to_string()
                && f[1] == lower.to_string()
                && f[3].parse::<usize>().is_ok_and(|g| g >= cfg.games)
                && row_srand(&f) == Some(cfg.srand)
        });
        if let Some(i) = done {
            eprintln!("step {higher} vs {lower}: kept from {}: {}", out.display(), rows[i]);
            continue;
        }
        let t0 = std::time::Instant::now();
        let mut c = cfg.clone();
        if let Some(dir) = &cfg.pgn_out {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            c.pgn_out = Some(dir.join(format!("step-{higher}-vs-{lower}.pgn")));
            let _ = std::fs::remove_file(c.pgn_out.as_ref().expect("set"));
        }
        let r = play_step(ladder, higher, lower, &c)?;
        eprintln!(
            "step {higher} vs {lower}: {} games, {:.1} % ± {:.1} in {:.0} s",
            r.games,
            r.score,
            r.error95,
            t0.elapsed().as_secs_f64()
        );
        rows.retain(|row| !row.starts_with(&format!("{higher},{lower},")));
        rows.push(csv_row(&r, cfg.srand));
        let text = std::iter::once(CSV_HEADER.to_string()).chain(rows.iter().cloned()).collect::<Vec<_>>().join("\n");
        std::fs::write(out, text + "\n").map_err(|e| format!("{}: {e}", out.display()))?;
        results.push(r);
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_elo_formula_sets_the_ranges() {
        assert!((expected_score(200) - 75.97).abs() < 0.01);
        assert!((expected_score(100) - 64.01).abs() < 0.01);
        let (lo, hi) = step_range(200);
        assert!((lo - 66.97).abs() < 0.01 && (hi - 84.97).abs() < 0.01);
        let r = |higher, lower, score| StepResult { higher, lower, games: 200, score, error95: 5.0 };
        assert!(r(1300, 1100, 70.0).passes() && !r(1300, 1100, 61.0).passes() && !r(1300, 1100, 90.0).passes());
        assert!(r(900, 800, 76.0).passes() && !r(900, 800, 49.0).passes());
    }

    #[test]
    fn a_kept_row_must_have_the_same_match_seed() {
        let r = StepResult { higher: 1300, lower: 1100, games: 200, score: 71.2, error95: 5.8 };
        let row = csv_row(&r, 11);
        assert!(row.ends_with(",yes,11"), "{row}");
        let f: Vec<&str> = row.split(',').collect();
        assert_eq!(row_srand(&f), Some(11));
        // A row from before the column: played with the fixed seed.
        let old = "1300,1100,200,200,71.2,5.8,76.0,67.0,85.0,yes";
        assert_eq!(row_srand(&old.split(',').collect::<Vec<_>>()), Some(STEP_SRAND));
        assert_eq!(CSV_HEADER.split(',').count(), f.len());
    }
}

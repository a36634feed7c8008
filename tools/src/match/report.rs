//! Progress display and the end-of-match report.

use super::game::GameRecord;
use super::stats::EloEstimate;
use super::{MatchConfig, MatchSummary, ProgressMode};
use indicatif::{ProgressBar, ProgressStyle};
use std::fmt::Write as _;

fn f(x: Option<f64>, prec: usize) -> String {
    match x {
        Some(v) => format!("{v:.prec$}"),
        None => "inf".to_string(),
    }
}

fn elo_str(e: &EloEstimate) -> String {
    match e.elo {
        Some(v) => format!("{:.2} +/- {}", v + 0.0, f(e.error95, 2)),
        None => "n/a (score 0 % or 100 %)".to_string(),
    }
}

/// The one-line running score, cutechess style.
pub fn score_line(s: &MatchSummary) -> String {
    let r = s.result;
    format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        s.engines[0], s.engines[1], r.wins, r.losses, r.draws, s.score, s.games_played
    )
}

/// The multi-line rating block (Elo, LOS, pentanomial, SPRT).
pub fn rating_block(s: &MatchSummary) -> String {
    let r = s.result;
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Results of {} vs {} ({} vs {}):",
        s.engines[0], s.engines[1], s.time_controls[0], s.time_controls[1]
    );
    let _ = writeln!(t, "Elo: {}, nElo: {}", elo_str(&s.elo), elo_str(&s.nelo));
    if let Some(pe) = &s.pentanomial_elo {
        let _ = writeln!(t, "Elo (pentanomial): {}", elo_str(pe));
    }
    let _ = writeln!(t, "LOS: {:.2} %, DrawRatio: {:.2} %", s.los * 100.0, s.draw_ratio * 100.0);
    let _ = writeln!(
        t,
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
        r.games(),
        r.wins,
        r.losses,
        r.draws,
        r.points(),
        s.score * 100.0
    );
    let _ = writeln!(
        t,
        "{} playing White: {} - {} - {}, playing Black: {} - {} - {}; White vs Black: {} - {} - {}",
        s.engines[0],
        s.as_white.wins,
        s.as_white.losses,
        s.as_white.draws,
        s.as_black.wins,
        s.as_black.losses,
        s.as_black.draws,
        s.white_black.wins,
        s.white_black.losses,
        s.white_black.draws
    );
    if let Some(p) = s.pentanomial {
        let _ = writeln!(t, "Ptnml(0-2): [{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]);
    }
    if let Some(sp) = &s.sprt {
        let _ = writeln!(
            t,
            "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}] {}",
            sp.llr, sp.lower_bound, sp.upper_bound, sp.elo0, sp.elo1, sp.decision
        );
    }
    t
}

/// The final report.
pub fn final_report(s: &MatchSummary) -> String {
    let mut t = String::new();
    t.push_str(&score_line(s));
    t.push('\n');
    t.push_str(&rating_block(s));
    let terms: Vec<String> = s.terminations.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    let _ = writeln!(t, "Terminations: {}", terms.join(", "));
    let _ = writeln!(t, "Faults: {} {}, {} {}", s.engines[0], s.faults[0], s.engines[1], s.faults[1]);
    let _ = writeln!(t, "-srand {}", s.srand);
    if let Some(why) = &s.stopped {
        let _ = writeln!(t, "Match stopped early: {why}");
    }
    let _ = writeln!(t, "{} of {} games finished.", s.games_played, s.games_planned);
    t
}

/// Progress output while a match runs.
pub struct Progress {
    mode: ProgressMode,
    bar: Option<ProgressBar>,
    interval: usize,
}

impl Progress {
    pub fn new(cfg: &MatchConfig) -> Progress {
        let bar = (cfg.progress == ProgressMode::Auto && super::stderr_is_terminal()).then(|| {
            let b = ProgressBar::new(cfg.total_games() as u64);
            b.set_style(
                ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            b
        });
        Progress { mode: cfg.progress, bar, interval: cfg.rating_interval }
    }

    pub fn game_finished(&mut self, g: &GameRecord, s: &MatchSummary, finished: usize) {
        if self.mode == ProgressMode::Quiet {
            return;
        }
        let rating = self.interval > 0 && finished.is_multiple_of(self.interval);
        if let Some(b) = &self.bar {
            b.inc(1);
            b.set_message(format!(
                "{} - {} - {} [{:.3}] Elo {}",
                s.result.wins,
                s.result.losses,
                s.result.draws,
                s.score,
                f(s.elo.elo, 1)
            ));
            if rating {
                b.println(rating_block(s));
            }
        } else {
            println!("Finished game {} ({} vs {}): {} {{{}}}", g.index + 1, g.white, g.black, g.result.pgn(), g.reason);
            println!("{}", score_line(s));
            if rating {
                print!("{}", rating_block(s));
            }
        }
    }

    pub fn finish(&mut self, s: &MatchSummary) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if self.mode != ProgressMode::Quiet {
            print!("{}", final_report(s));
        }
    }
}

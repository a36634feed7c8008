//! Output of an analysis: a text table, CSV (one row per game side, or per ply) or JSON.

use super::analyse::{GameAnalysis, RunStats};
use super::model::{Rolling, RollingTracker, StrengthModel};
use super::pgn::GameError;
use serde::Serialize;
use std::fmt::Write as _;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Table,
    Csv,
    Json,
}

/// One analysed game side with the player's rolling aggregate after it.
#[derive(Clone, Debug, Serialize)]
pub struct SideRow {
    pub game: usize,
    pub color: &'static str,
    pub player: String,
    pub rating: Option<i32>,
    pub n: usize,
    pub ase: Option<f64>,
    pub sd: Option<f64>,
    pub p75_loss: Option<f64>,
    pub strength_elo: Option<i32>,
    pub strength_se: Option<i32>,
    pub rolling_elo: Option<f64>,
    pub rolling_se: Option<f64>,
}

/// Rows for every analysed side, in game order, and the final per-player aggregates.
pub fn side_rows(games: &[GameAnalysis]) -> (Vec<SideRow>, Vec<Rolling>) {
    let mut tracker = RollingTracker::new();
    let mut rows = Vec::new();
    for g in games {
        for s in &g.sides {
            if !s.analysed {
                continue;
            }
            let rolling = s.strength.map(|st| tracker.push(&s.player, st, s.rating));
            rows.push(SideRow {
                game: g.number,
                color: s.color,
                player: s.player.clone(),
                rating: s.rating,
                n: s.stats.as_ref().map_or(0, |x| x.n),
                ase: s.stats.as_ref().map(|x| x.ase),
                sd: s.stats.as_ref().map(|x| x.sd),
                p75_loss: s.stats.as_ref().map(|x| x.p75_loss),
                strength_elo: s.strength.map(|x| x.strength_elo),
                strength_se: s.strength.map(|x| x.strength_se),
                rolling_elo: rolling.as_ref().map(|r| r.rolling_elo),
                rolling_se: rolling.as_ref().map(|r| r.rolling_se),
            });
        }
    }
    (rows, tracker.all())
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn optf(v: Option<f64>, prec: usize) -> String {
    v.filter(|x| x.is_finite()).map(|x| format!("{x:.prec$}")).unwrap_or_default()
}

/// Per-game-side CSV (also the input format of `refit --samples`).
pub fn csv_sides(rows: &[SideRow]) -> String {
    let mut out =
        String::from("game,color,player,rating,n,ase,sd,p75_loss,strength_elo,strength_se,rolling_elo,rolling_se\n");
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{}",
            r.game,
            r.color,
            csv_field(&r.player),
            opt(r.rating),
            r.n,
            optf(r.ase, 6),
            optf(r.sd, 6),
            optf(r.p75_loss, 1),
            opt(r.strength_elo),
            opt(r.strength_se),
            optf(r.rolling_elo, 0),
            optf(r.rolling_se, 0)
        );
    }
    out
}

/// Per-ply CSV.
pub fn csv_plies(games: &[GameAnalysis]) -> String {
    let mut out =
        String::from("game,ply,color,played,best,value,played_value,cp_loss,eligible,excluded,scaled_error\n");
    for g in games {
        for p in &g.plies {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{}",
                g.number,
                p.ply,
                p.color,
                p.played,
                opt(p.best.as_ref()),
                opt(p.value),
                opt(p.played_value),
                opt(p.cp_loss),
                p.eligible,
                p.excluded.map(|e| format!("{e:?}").to_lowercase()).unwrap_or_default(),
                optf(p.scaled_error, 6)
            );
        }
    }
    out
}

/// Human-readable report.
pub fn table(
    games: &[GameAnalysis],
    errors: &[GameError],
    stats: &RunStats,
    model: &StrengthModel,
    plies: bool,
) -> String {
    let (rows, players) = side_rows(games);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>6} {:<5} {:<20} {:>6} {:>4} {:>7} {:>7} {:>6} {:>12}",
        "game", "side", "player", "rating", "n", "ase", "sd", "p75", "strength"
    );
    for r in &rows {
        let strength = match (r.strength_elo, r.strength_se) {
            (Some(e), Some(s)) => format!("{e} ± {s}"),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "{:>6} {:<5} {:<20} {:>6} {:>4} {:>7} {:>7} {:>6} {:>12}",
            r.game,
            r.color,
            truncate(&r.player, 20),
            opt(r.rating),
            r.n,
            optf(r.ase, 4),
            optf(r.sd, 4),
            optf(r.p75_loss, 0),
            strength
        );
    }
    if plies {
        for g in games {
            let _ = writeln!(out, "\ngame {} plies:", g.number);
            for p in &g.plies {
                let _ = writeln!(
                    out,
                    "  {:>3} {:<5} {:<6} best {:<6} value {:>7} played {:>7} loss {:>6} {}",
                    p.ply,
                    p.color,
                    p.played,
                    opt(p.best.as_ref()),
                    opt(p.value),
                    opt(p.played_value),
                    opt(p.cp_loss),
                    match p.excluded {
                        None => "eligible".to_string(),
                        Some(e) => format!("{e:?}").to_lowercase(),
                    }
                );
            }
        }
    }
    let _ = writeln!(out, "\nPlayers (rolling over the last 10 eligible games, inverse-variance weighted):");
    let _ = writeln!(out, "{:<20} {:>6} {:>6} {:>14} {:>10}", "player", "games", "window", "rolling", "rating");
    for p in &players {
        let _ = writeln!(
            out,
            "{:<20} {:>6} {:>6} {:>14} {:>10}",
            truncate(&p.player, 20),
            p.games,
            p.window,
            format!("{:.0} ± {:.0}", p.rolling_elo, p.rolling_se),
            optf(p.window_rating, 0)
        );
    }
    for e in errors {
        let _ = writeln!(out, "skipped {e}");
    }
    let _ = writeln!(
        out,
        "\n{} games ({} skipped), {} plies in {:.1} s ({:.1} plies/s); cache {} hits / {} misses; \
         model: anchor {:.1} Elo at ASE {:.4}, {:.0} Elo per ASE unit",
        stats.games,
        errors.len(),
        stats.plies,
        stats.seconds,
        stats.plies_per_second,
        stats.cache_hits,
        stats.cache_misses,
        model.anchor_elo,
        model.anchor_ase,
        model.elo_per_ase_unit
    );
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[derive(Serialize)]
struct JsonReport<'a> {
    oracle: &'a str,
    budget: String,
    pairing: &'a str,
    model: &'a StrengthModel,
    run: &'a RunStats,
    skipped: Vec<JsonError>,
    sides: Vec<SideRow>,
    players: Vec<Rolling>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games: Option<&'a [GameAnalysis]>,
}

#[derive(Serialize)]
struct JsonError {
    game: usize,
    error: String,
}

/// How the games were analysed, as the JSON report records it.
pub struct Provenance<'a> {
    pub oracle: &'a str,
    pub budget: String,
    pub pairing: &'a str,
}

pub fn json(
    games: &[GameAnalysis],
    errors: &[GameError],
    stats: &RunStats,
    model: &StrengthModel,
    Provenance { oracle, budget, pairing }: Provenance,
    plies: bool,
) -> String {
    let (sides, players) = side_rows(games);
    let r = JsonReport {
        oracle,
        budget,
        pairing,
        model,
        run: stats,
        skipped: errors.iter().map(|e| JsonError { game: e.number, error: e.message.clone() }).collect(),
        sides,
        players,
        games: if plies { Some(games) } else { None },
    };
    serde_json::to_string_pretty(&r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
}

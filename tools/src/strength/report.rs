//! Output of an analysis: a text table, CSV (one row per game side, or per ply) or JSON.

use super::analyse::{GameAnalysis, RunStats};
use super::game_model::GameModel;
use super::model::{Rolling, RollingTracker};
use super::models::Model;
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
    /// 90 % interval of the game's estimate and of the rolling estimate.
    pub lo90: Option<f64>,
    pub hi90: Option<f64>,
    pub rolling_lo90: Option<f64>,
    pub rolling_hi90: Option<f64>,
}

/// z of a two-sided 90 % normal interval (the scaled-error models' standard errors).
pub const Z90: f64 = 1.644_853_626_951_472_2;

/// Rows for every analysed side, in game order, and the final per-player aggregates, under either
/// kind of model. Players are grouped by `games::player_key` (an anonymous `??` is one player per
/// game side).
pub fn side_rows(games: &[GameAnalysis], model: &Model) -> (Vec<SideRow>, Vec<Rolling>) {
    match model {
        Model::Ase(_) => ase_rows(games),
        Model::Game(m) => game_rows(games, m),
    }
}

fn key_of(g: &GameAnalysis, color: &str, player: &str) -> String {
    let c = if color == "white" { shakmaty::Color::White } else { shakmaty::Color::Black };
    crate::common::games::player_key(player, g.number, c)
}

fn base_row(g: &GameAnalysis, s: &super::analyse::SideResult) -> SideRow {
    SideRow {
        game: g.number,
        color: s.color,
        player: s.player.clone(),
        rating: s.rating,
        n: s.stats.as_ref().map_or(0, |x| x.n),
        ase: s.stats.as_ref().map(|x| x.ase),
        sd: s.stats.as_ref().map(|x| x.sd),
        p75_loss: s.stats.as_ref().map(|x| x.p75_loss),
        strength_elo: None,
        strength_se: None,
        rolling_elo: None,
        rolling_se: None,
        lo90: None,
        hi90: None,
        rolling_lo90: None,
        rolling_hi90: None,
    }
}

fn ase_rows(games: &[GameAnalysis]) -> (Vec<SideRow>, Vec<Rolling>) {
    let mut tracker = RollingTracker::new();
    let mut rows = Vec::new();
    for g in games {
        for s in &g.sides {
            if !s.analysed {
                continue;
            }
            let rolling = s.strength.map(|st| tracker.push(&key_of(g, s.color, &s.player), st, s.rating));
            let mut r = base_row(g, s);
            r.strength_elo = s.strength.map(|x| x.strength_elo);
            r.strength_se = s.strength.map(|x| x.strength_se);
            r.lo90 = s.strength.map(|x| f64::from(x.strength_elo) - Z90 * f64::from(x.strength_se));
            r.hi90 = s.strength.map(|x| f64::from(x.strength_elo) + Z90 * f64::from(x.strength_se));
            r.rolling_elo = rolling.as_ref().map(|x| x.rolling_elo);
            r.rolling_se = rolling.as_ref().map(|x| x.rolling_se);
            r.rolling_lo90 = rolling.as_ref().map(|x| x.rolling_elo - Z90 * x.rolling_se);
            r.rolling_hi90 = rolling.as_ref().map(|x| x.rolling_elo + Z90 * x.rolling_se);
            rows.push(r);
        }
    }
    let players = tracker
        .all()
        .into_iter()
        .map(|mut p| {
            p.lo90 = Some(p.rolling_elo - Z90 * p.rolling_se);
            p.hi90 = Some(p.rolling_elo + Z90 * p.rolling_se);
            p
        })
        .collect();
    (rows, players)
}

/// The game model: each side's estimate from its own game, each player's from the scores of
/// their last 10 estimated games.
fn game_rows(games: &[GameAnalysis], model: &GameModel) -> (Vec<SideRow>, Vec<Rolling>) {
    type Window = (usize, std::collections::VecDeque<(f64, Option<i32>)>);
    let mut windows: std::collections::BTreeMap<String, Window> = std::collections::BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    let summarise = |key: &str, w: &Window| {
        let scores: Vec<f64> = w.1.iter().map(|x| x.0).collect();
        let e = model.estimate(&scores);
        let ratings: Vec<f64> = w.1.iter().filter_map(|x| x.1.map(f64::from)).collect();
        Rolling {
            player: key.to_string(),
            games: w.0,
            window: w.1.len(),
            rolling_elo: e.elo,
            rolling_se: (e.hi - e.lo) / (2.0 * Z90),
            window_rating: (!ratings.is_empty()).then(|| ratings.iter().sum::<f64>() / ratings.len() as f64),
            lo90: Some(e.lo),
            hi90: Some(e.hi),
        }
    };
    for g in games {
        for (i, s) in g.sides.iter().enumerate() {
            if !s.analysed {
                continue;
            }
            let mut r = base_row(g, s);
            if let Some(x) = super::game_model::features(g, i == 0) {
                let score = model.score(&x);
                let e = model.estimate(&[score]);
                r.strength_elo = Some(e.elo.round() as i32);
                r.strength_se = Some(((e.hi - e.lo) / (2.0 * Z90)).round() as i32);
                r.lo90 = Some(e.lo);
                r.hi90 = Some(e.hi);
                let key = key_of(g, s.color, &s.player);
                if !windows.contains_key(&key) {
                    order.push(key.clone());
                }
                let w = windows.entry(key.clone()).or_default();
                w.0 += 1;
                w.1.push_back((score, s.rating));
                while w.1.len() > super::model::ROLLING_GAMES {
                    w.1.pop_front();
                }
                let p = summarise(&key, w);
                r.rolling_elo = Some(p.rolling_elo);
                r.rolling_se = Some(p.rolling_se);
                r.rolling_lo90 = p.lo90;
                r.rolling_hi90 = p.hi90;
            }
            rows.push(r);
        }
    }
    let players = order.iter().map(|k| summarise(k, &windows[k])).collect();
    (rows, players)
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
    let mut out = String::from(
        "game,color,player,rating,n,ase,sd,p75_loss,strength_elo,strength_se,rolling_elo,rolling_se,lo90,hi90,rolling_lo90,rolling_hi90\n",
    );
    for r in rows {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
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
            optf(r.rolling_se, 0),
            optf(r.lo90, 0),
            optf(r.hi90, 0),
            optf(r.rolling_lo90, 0),
            optf(r.rolling_hi90, 0)
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
pub fn table(games: &[GameAnalysis], errors: &[GameError], stats: &RunStats, model: &Model, plies: bool) -> String {
    let (rows, players) = side_rows(games, model);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>6} {:<5} {:<20} {:>6} {:>4} {:>7} {:>7} {:>6} {:>20}",
        "game", "side", "player", "rating", "n", "ase", "sd", "p75", "strength [90 %]"
    );
    for r in &rows {
        let strength = match (r.strength_elo, r.lo90, r.hi90) {
            (Some(e), Some(lo), Some(hi)) => format!("{e} [{lo:.0}, {hi:.0}]"),
            _ => "-".to_string(),
        };
        let _ = writeln!(
            out,
            "{:>6} {:<5} {:<20} {:>6} {:>4} {:>7} {:>7} {:>6} {:>20}",
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
    let _ = writeln!(out, "\nPlayers (their last 10 estimated games together):");
    let _ = writeln!(out, "{:<20} {:>6} {:>6} {:>20} {:>10}", "player", "games", "window", "rolling [90 %]", "rating");
    for p in &players {
        let _ = writeln!(
            out,
            "{:<20} {:>6} {:>6} {:>20} {:>10}",
            truncate(&p.player, 20),
            p.games,
            p.window,
            format!("{:.0} [{:.0}, {:.0}]", p.rolling_elo, p.lo90.unwrap_or(f64::NAN), p.hi90.unwrap_or(f64::NAN)),
            optf(p.window_rating, 0)
        );
    }
    for e in errors {
        let _ = writeln!(out, "skipped {e}");
    }
    let _ = writeln!(
        out,
        "\n{} games ({} skipped), {} plies in {:.1} s ({:.1} plies/s); cache {} hits / {} misses; model: {}",
        stats.games,
        errors.len(),
        stats.plies,
        stats.seconds,
        stats.plies_per_second,
        stats.cache_hits,
        stats.cache_misses,
        describe(model)
    );
    out
}

/// One line naming the model and its scale.
pub fn describe(model: &Model) -> String {
    match model {
        Model::Ase(m) => format!(
            "scaled-error line, anchor {:.1} Elo at ASE {:.4}, {:.0} Elo per ASE unit ({})",
            m.anchor_elo,
            m.anchor_ase,
            m.elo_per_ase_unit,
            if m.fitted.is_some() { "refitted" } else { "pawnbook" }
        ),
        Model::Game(m) => format!(
            "{} on the {} scale (fitted on {} rated sides, {:.0}-{:.0}), 90 % intervals",
            if m.needs_maia() { "game model v3 (with Maia-3's likelihood of the moves)" } else { "game model v2" },
            m.scale,
            m.population.samples,
            m.population.p01,
            m.population.p99
        ),
    }
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

#[derive(Serialize)]
struct JsonReport<'a> {
    oracle: &'a str,
    budget: String,
    pairing: &'a str,
    model_name: String,
    model: serde_json::Value,
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
    model: &Model,
    Provenance { oracle, budget, pairing }: Provenance,
    plies: bool,
) -> String {
    let (sides, players) = side_rows(games, model);
    let r = JsonReport {
        oracle,
        budget,
        pairing,
        model_name: describe(model),
        model: match model {
            Model::Ase(m) => serde_json::to_value(m),
            Model::Game(m) => serde_json::to_value(m),
        }
        .unwrap_or_default(),
        run: stats,
        skipped: errors.iter().map(|e| JsonError { game: e.number, error: e.message.clone() }).collect(),
        sides,
        players,
        games: if plies { Some(games) } else { None },
    };
    serde_json::to_string_pretty(&r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}")) + "\n"
}

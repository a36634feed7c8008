//! `sparring avatar fit` (an avatar fitted to a player's games, `fit.rs`) and `sparring avatar
//! eval` (how well avatars predict a player's moves: expected and top-1 match, log-likelihood,
//! paired against the plain point over games).

mod cli;
pub mod fit;

use crate::common::fingerprint::classify::Rate;
use crate::common::fingerprint::source::{Part, player_games};
use crate::common::fingerprint::{progress_bar, stats};
use crate::common::games::{GameRecord, read_games};
pub use cli::{Args, Command, Common, main};

use fit::{Decision, Point};
use sparring::profile::Avatar;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Fewest games of the player a fit accepts.
pub const MIN_GAMES: usize = 30;
/// Default style hold of a fit (see [`fit::Settings::hold`]).
pub const HOLD: f64 = 3.0;

/// The player's mean rating over `games`, if any game rates them.
pub fn mean_rating(games: &[(usize, &GameRecord)], name: &str) -> Option<f64> {
    let r: Vec<f64> = games
        .iter()
        .filter_map(|(_, g)| if g.white == name { g.white_elo } else { g.black_elo })
        .map(f64::from)
        .collect();
    (!r.is_empty()).then(|| r.iter().sum::<f64>() / r.len() as f64)
}

/// What a fit or an evaluation starts from: the point and the player's decisions.
pub struct Prepared {
    pub point: Point,
    pub games: usize,
    pub decisions: Vec<Decision>,
}

/// Reads the PGN, checks the player and the game count (`min_games`), picks the point and
/// collects the decisions.
pub fn prepare(c: &Common, min_games: usize) -> Result<Prepared, String> {
    let games = read_games(&c.pgn).map_err(|e| format!("cannot read the PGN: {e}"))?;
    if let Some(note) = crate::common::games::unread_note(&c.pgn, &games) {
        eprintln!("{note}");
    }
    if games.iter().all(|g| g.moves.is_empty() && g.white.is_empty() && g.black.is_empty()) {
        return Err(format!("{}: no games in the file (is it a PGN?)", c.pgn.display()));
    }
    let mine = player_games(&games, &c.player, c.part);
    let total = games.iter().filter(|g| g.white == c.player || g.black == c.player).count();
    if total == 0 {
        return Err(format!(
            "{}: no player named '{}' (names are exact and case-sensitive)",
            c.pgn.display(),
            c.player
        ));
    }
    if mine.len() < min_games {
        return Err(format!(
            "{}: '{}' has {} games here (part {:?} of {total}); a fit needs at least {min_games}",
            c.pgn.display(),
            c.player,
            mine.len(),
            c.part
        ));
    }
    let elo = match c.elo {
        Some(e) => e,
        None => mean_rating(&mine, &c.player)
            .ok_or_else(|| format!("'{}' has no ratings in {}: give --elo", c.player, c.pgn.display()))?,
    };
    let point = Point::nearest(elo);
    let bar = progress_bar(mine.len(), "games");
    let decisions = fit::decisions(&mine, &c.player, &point, &|| bar.inc(1));
    bar.finish_and_clear();
    if decisions.is_empty() {
        return Err(format!("'{}': no fitted positions (every one decided or forced)", c.player));
    }
    Ok(Prepared { point, games: mine.len(), decisions })
}

/// A fit's candidate centres: the plain point, then each avatar file (name, per-side weights).
pub fn centres(files: &[PathBuf]) -> Result<Vec<(String, fit::SideWeights)>, String> {
    let mut out = vec![("plain point".to_string(), fit::PLAIN)];
    for f in files {
        let a = Avatar::load(f).map_err(|e| format!("--centre: {e}"))?;
        let name = f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into_owned());
        out.push((name, fit::weights_of(&a)));
    }
    Ok(out)
}

/// Held-out scores as the .avt header lists them: "label score, ...".
fn score_list<T: std::fmt::Display>(scores: impl Iterator<Item = (T, f64)>) -> String {
    scores.map(|(q, v)| format!("{q} {v:.5}")).collect::<Vec<_>>().join(", ")
}

/// Where a fit starts and how hard it is pulled there: the index of its centre among `centres`,
/// its pull, and how they were chosen (the header's words; empty where nothing was chosen).
fn choose_start(
    p: &Prepared,
    s: fit::Settings,
    pull: Option<f64>,
    centres: &[(String, fit::SideWeights)],
) -> (usize, f64, String) {
    let model = p.point.model;
    if centres.len() > 1 {
        let per = if pull.is_some() { 1 } else { fit::PULL_GRID.len() };
        let bar = progress_bar(centres.len() * per, "centres × pulls tried");
        let bases: Vec<fit::SideWeights> = centres.iter().map(|x| x.1).collect();
        let (k, x, scores) = fit::choose_centre(&p.decisions, model, s, &bases, pull, &|i| bar.set_position(i as u64));
        bar.finish_and_clear();
        let list = score_list(centres.iter().map(|x| &x.0).zip(scores));
        let how = if pull.is_some() { "the centre" } else { "with the centre" };
        return (
            k,
            x,
            format!(
                " ({how} chosen by two-fold cross-validation over games; held-out {:?} per centre: {list})",
                s.objective
            ),
        );
    }
    let s = fit::Settings { base: centres.first().map_or(fit::PLAIN, |x| x.1), ..s };
    match pull {
        Some(x) => (0, x, String::new()),
        None => {
            let bar = progress_bar(fit::PULL_GRID.len(), "pulls tried");
            let (x, scores) = fit::choose_pull(&p.decisions, model, s, &|i| bar.set_position(i as u64));
            bar.finish_and_clear();
            let list = score_list(scores.into_iter());
            (0, x, format!(" (chosen by two-fold cross-validation over games; held-out {:?}: {list})", s.objective))
        }
    }
}

/// Fits the avatar's leans with its rounded weights held, where `leans` asks for them and the
/// point chooses with the human move model; returns their pull (None where none were fitted) and
/// the header's line.
fn add_leans(p: &Prepared, s: fit::Settings, avatar: &mut Avatar, leans: bool) -> (Option<f64>, String) {
    let model = p.point.model;
    if !leans {
        return (None, "no leans (--no-leans)".to_string());
    }
    if model.lean == 0.0 {
        return (None, "no leans: the point does not choose with the human move model".to_string());
    }
    let held = fit::weights_of(avatar);
    let (pull, scores) = fit::choose_lean_pull(&p.decisions, &held, model, s);
    avatar.lean = fit::lean_percent(&fit::fit_leans(&p.decisions, &held, model, fit::Settings { pull, ..s }));
    let list = score_list(scores.into_iter());
    (Some(pull), format!("leans fitted after the weights, pull {pull} (two-fold cross-validation: {list})"))
}

/// The .avt text of a fit from the first of `centres` ([`centres`]), or with more than one from
/// the one cross-validation chooses.
pub fn fit_text(
    c: &Common,
    p: &Prepared,
    pull: Option<f64>,
    s: fit::Settings,
    leans: bool,
    centres: &[(String, fit::SideWeights)],
) -> String {
    let (centre, pull, chosen) = choose_start(p, s, pull, centres);
    let (centre_name, base) = centres.get(centre).cloned().unwrap_or(("plain point".to_string(), fit::PLAIN));
    let s = fit::Settings { pull, base, ..s };
    let (goal, hold) = (s.objective, s.hold);
    let bar = progress_bar(300, "iterations");
    let w = fit::fit(&p.decisions, p.point.model, s, &|i| bar.set_position(i as u64));
    bar.finish_and_clear();
    let mut avatar = fit::to_avatar(&w, &base, "fitted");
    let model = p.point.model;
    let (lean_pull, lean_note) = add_leans(p, s, &mut avatar, leans);
    let leaned = fit::with_leans(&p.decisions, &fit::leans_of(&avatar), model);
    let before = fit::mean_log_likelihood(&p.decisions, &[100.0; fit::KS], model);
    // The fitted weights and leans rounded as the file holds them (a fit weighs both sides alike).
    let after = fit::mean_log_likelihood(&leaned, &fit::weights_of(&avatar), model);
    let (match0, match1) = (
        100.0 * fit::mean_match(&p.decisions, &[100.0; fit::KS], model),
        100.0 * fit::mean_match(&leaned, &fit::weights_of(&avatar), model),
    );
    let held_out = 100.0 * fit::held_out_match(&p.decisions, model, s, lean_pull);
    let file = c.pgn.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    // The player's fingerprint rates on these decisions and the model's expected ones, plain and fitted.
    let (mine, target, plain, fitted) = (
        fit::player_rates(&p.decisions),
        fit::hold_targets(&p.decisions, model, s.gap.as_ref()),
        fit::expected_rates(&p.decisions, &[100.0; fit::KS], model),
        fit::expected_rates(&leaned, &fit::weights_of(&avatar), model),
    );
    let pct = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{:.1}", 100.0 * v));
    let rates = Rate::ALL
        .iter()
        .map(|&r| {
            let i = r as usize;
            format!("{} {}/{}/{}/{}", r.key(), pct(mine[i]), pct(target[i]), pct(plain[i]), pct(fitted[i]))
        })
        .collect::<Vec<_>>()
        .join(", ");
    let comment = format!(
        "{} — fitted by `sparring avatar fit` to {}'s moves: {} games ({:?} part) of {file},\n\
         {} positions, at ladder point {} (lambda {}, slips {}, human model beta {}, style tilt {}), objective {goal:?}, centre {centre_name}, pull {pull}{chosen}, style hold {hold};\n\
         {lean_note}.\n\
         Mean log-likelihood of the played moves: {before:.5} plain, {after:.5} with these weights;\n\
         expected match {match0:.2} % plain, {match1:.2} % with them (weights and leans);\n\
         held-out expected match of these settings {held_out:.2} % (two folds of the games, each fitted on the other).\n\
         Rates in % (player / hold target{} / model plain / model with them): {rates}.",
        c.player,
        c.player,
        p.games,
        c.part,
        p.decisions.len(),
        p.point.elo,
        model.lambda,
        model.slip,
        p.point.human.as_ref().map_or(0.0, |h| h.0),
        model.tilt,
        if s.gap.is_some() { ": the model's plain rate less the engine's measured gap" } else { ": the player's" }
    );
    avatar.to_text(&comment)
}

fn eval_table(
    c: &Common,
    p: &Prepared,
    avatars: &[PathBuf],
    base: Option<&Path>,
    json: bool,
) -> Result<String, String> {
    let model = p.point.model;
    let (base_w, base_leans) = match base {
        Some(b) => {
            let a = Avatar::load(b).map_err(|e| e.to_string())?;
            (fit::weights_of(&a), fit::leans_of(&a))
        }
        None => ([100.0; fit::KS], [0.0; Rate::COUNT]),
    };
    let base_name = base.map_or("plain point".to_string(), |b| b.display().to_string());
    let plain = fit::per_game(&fit::with_leans(&p.decisions, &base_leans, model), &base_w, model);
    let mut rows = Vec::new();
    for path in avatars {
        let a = Avatar::load(path).map_err(|e| e.to_string())?;
        let theirs =
            fit::per_game(&fit::with_leans(&p.decisions, &fit::leans_of(&a), model), &fit::weights_of(&a), model);
        let mut row = serde_json::Map::new();
        row.insert("avatar".into(), path.display().to_string().into());
        for (i, key) in ["expected_match", "top1_match", "log_likelihood"].iter().enumerate() {
            let cl: Vec<stats::Paired> = plain.iter().map(|(g, x)| (x[i], theirs[g][i], x[3])).collect();
            let d = stats::diff(&cl);
            let n = d.n;
            let v = serde_json::json!({
                "base": plain.values().map(|x| x[i]).sum::<f64>() / n,
                "avatar": theirs.values().map(|x| x[i]).sum::<f64>() / n,
                "diff": d.value, "lo": d.lo, "hi": d.hi,
            });
            row.insert((*key).into(), v);
        }
        rows.push(serde_json::Value::Object(row));
    }
    if json {
        let v = serde_json::json!({
            "player": c.player, "games": p.games, "positions": p.decisions.len(), "point": p.point.elo,
            "base": base_name, "rows": rows
        });
        return Ok(serde_json::to_string_pretty(&v).unwrap_or_default() + "\n");
    }
    let mut s = format!(
        "{}: {} games ({:?} part), {} positions, ladder point {}; per move, avatar − base ({base_name}), 95 % paired bootstrap over games\n",
        c.player,
        p.games,
        c.part,
        p.decisions.len(),
        p.point.elo
    );
    let _ = writeln!(s, "{:<34} {:>22} {:>22} {:>24}", "avatar", "expected match %", "top-1 match %", "log-likelihood");
    for r in &rows {
        let cell = |k: &str, scale: f64| {
            let v = &r[k];
            let f = |x: &serde_json::Value| x.as_f64().unwrap_or(f64::NAN) * scale;
            format!("{:.2} {:+.2} [{:+.2},{:+.2}]", f(&v["avatar"]), f(&v["diff"]), f(&v["lo"]), f(&v["hi"]))
        };
        let _ = writeln!(
            s,
            "{:<34} {:>22} {:>22} {:>24}",
            r["avatar"].as_str().unwrap_or(""),
            cell("expected_match", 100.0),
            cell("top1_match", 100.0),
            cell("log_likelihood", 1.0)
        );
    }
    let n = plain.values().map(|x| x[3]).sum::<f64>();
    let e = plain.values().map(|v| v[0]).sum::<f64>() / n * 100.0;
    let t = plain.values().map(|v| v[1]).sum::<f64>() / n * 100.0;
    let l = plain.values().map(|v| v[2]).sum::<f64>() / n;
    let _ = writeln!(s, "{:<34} {e:>22.2} {t:>22.2} {l:>24.4}", format!("base: {base_name}"));
    Ok(s)
}

/// The engine − player difference per rate from a `sparring style --json --compare` output.
pub fn read_gap(path: &Path) -> Result<fit::Gap, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{}: not a `sparring style --json` output: {e}", path.display()))?;
    let rows = json["rows"]
        .as_array()
        .ok_or_else(|| format!("{}: no \"rows\" (a `sparring style --json` output?)", path.display()))?;
    let mut gap: fit::Gap = [None; 11];
    for r in Rate::ALL {
        let row = rows.iter().find(|x| x["key"] == r.key());
        gap[r as usize] = row.and_then(|x| x["diff"]["value"].as_f64());
    }
    if gap.iter().all(Option::is_none) {
        return Err(format!("{}: no engine − player differences: run `sparring style` with --compare", path.display()));
    }
    Ok(gap)
}

/// The plain point's gap to the player per rate (engine − player), measured by playing this engine
/// at the point on every position of the player's part (`sparring style`'s sample from ply 8).
fn measure(c: &Common, p: &Prepared, jobs: usize, seeds: u32) -> Result<fit::Gap, String> {
    let gaps = (1..=seeds).map(|seed| measure_one(c, p, jobs, seed)).collect::<Result<Vec<_>, _>>()?;
    Ok(mean_gap(&gaps))
}

/// Per rate, the mean of the gaps that all know it.
pub fn mean_gap(gaps: &[fit::Gap]) -> fit::Gap {
    std::array::from_fn(|i| {
        let v: Vec<f64> = gaps.iter().filter_map(|g| g[i]).collect();
        (!v.is_empty() && v.len() == gaps.len()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    })
}

/// [`measure`] under one engine seed.
fn measure_one(c: &Common, p: &Prepared, jobs: usize, seed: u32) -> Result<fit::Gap, String> {
    use crate::common::fingerprint::{classify, engine, report, source};
    let games = read_games(&c.pgn).map_err(|e| format!("cannot read the PGN: {e}"))?;
    let mine: Vec<GameRecord> = player_games(&games, &c.player, c.part).into_iter().map(|(_, g)| g.clone()).collect();
    let spec = source::SampleSpec {
        count: 100_000,
        seed: 1,
        min_ply: 8,
        band: None,
        who: source::Who::Player(c.player.clone()),
    };
    let probes = source::sample(&mine, &spec);
    let engine = engine::EngineSpec {
        command: crate::common::fingerprint::this_engine()?,
        label: "sparring".to_string(),
        options: vec![
            ("UCI_LimitStrength".to_string(), "true".to_string()),
            ("UCI_Elo".to_string(), p.point.elo.to_string()),
            ("Seed".to_string(), seed.to_string()),
        ],
        go: "nodes 1000000".to_string(),
    };
    let bar = progress_bar(probes.len(), &format!("positions (the plain point's gap, seed {seed})"));
    let moves = engine::run(&engine, &probes, &source::probes_hash(&probes), None, jobs, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let mut pairs = Vec::new();
    for (i, mv) in &moves {
        let probe = &probes[*i];
        let Some(played) = probe.played else { continue };
        let m = sparring::board::notation::parse_uci(&probe.pos, mv)?;
        let facts = |m| classify::classify(&probe.pos, probe.prev(), m);
        pairs.push((probe.cluster, facts(played), facts(m)));
    }
    let mut gap: fit::Gap = [None; 11];
    for row in report::diff_rows(&pairs) {
        if let Some(r) = Rate::ALL.iter().find(|r| r.key() == row.key)
            && row.diff.value.is_finite()
        {
            gap[*r as usize] = Some(row.diff.value);
        }
    }
    Ok(gap)
}

fn write_out(out: Option<&Path>, text: &str) -> Result<(), String> {
    match out {
        Some(p) => std::fs::write(p, text).map_err(|e| format!("{}: {e}", p.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// `--player` by the one rule of every tool (`games::resolve_player`): the exact name from then on.
fn resolve_common(c: &mut Common) -> Result<(), String> {
    let games = read_games(&c.pgn).map_err(|e| format!("cannot read the PGN: {e}"))?;
    if games.iter().all(|g| g.white.is_empty() && g.black.is_empty()) {
        // Not a PGN of games: `prepare` says so.
        return Ok(());
    }
    let name = crate::common::games::resolve_player(
        &c.player,
        games.iter().flat_map(|g| [g.white.as_str(), g.black.as_str()]),
    )?;
    let n = games.iter().filter(|g| g.white.trim() == name || g.black.trim() == name).count();
    eprintln!("sparring avatar: player '{name}' (--player '{}'): {n} of {} games", c.player, games.len());
    c.player = name;
    Ok(())
}

//! Who a game side belongs to: anonymous names (`??`) are never pooled into one player, and
//! `ipr pgn` keeps the PGN's ratings in its cache so the cache can be rated by band.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Position};
use sparring::board::Game;
use sparring::search::{Limits, Searcher};
use sparring_tools::common::games::{is_anonymous, player_key};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_sparring")
}

/// A legal game of `plies` half-moves, each chosen by a depth-`depth` search (deterministic), as
/// PGN movetext.
fn movetext(plies: usize, depth: i32) -> String {
    let mut s = Searcher::new(4);
    let mut game = Game::new(Chess::default());
    let mut text = String::new();
    for ply in 0..plies {
        let pos = game.pos().clone();
        if pos.legal_moves().is_empty() {
            break;
        }
        let r = s.analyse(&game, &Limits { depth: Some(depth), ..Default::default() });
        let m = r.best.expect("a move");
        if ply % 2 == 0 {
            text += &format!("{}. ", ply / 2 + 1);
        }
        text += &format!("{} ", SanPlus::from_move(pos, m));
        game.make(m);
    }
    text + "*"
}

fn pgn(games: &[(&str, &str, u32, u32, &str)]) -> String {
    games
        .iter()
        .map(|(w, b, we, be, moves)| {
            format!("[White \"{w}\"]\n[Black \"{b}\"]\n[WhiteElo \"{we}\"]\n[BlackElo \"{be}\"]\n\n{moves}\n\n")
        })
        .collect()
}

#[test]
fn anonymous_names_are_recognised() {
    for n in ["", " ", "?", "??", "-", "NN", "unknown", "Unknown"] {
        assert!(is_anonymous(n), "{n:?}");
    }
    for n in ["Ann", "?x", "N", "nobody"] {
        assert!(!is_anonymous(n), "{n:?}");
    }
    assert_eq!(player_key("Ann", 3, shakmaty::Color::White), "Ann");
    assert_ne!(player_key("??", 3, shakmaty::Color::White), player_key("??", 3, shakmaty::Color::Black));
    assert_ne!(player_key("??", 3, shakmaty::Color::White), player_key("??", 4, shakmaty::Color::White));
}

/// `sparring strength`'s rolling estimate pools a named player's games but not those of `??`.
#[test]
fn rolling_estimate_never_pools_anonymous_players() {
    let a = movetext(70, 2);
    let b = movetext(70, 3);
    let dir = std::env::temp_dir().join(format!("sparring-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(&file, pgn(&[("??", "??", 1500, 1500, &a), ("??", "??", 1500, 1500, &b)])).unwrap();
    let run = || {
        crate::common::command(bin())
            .args(["strength", "--depth", "2", "--format", "csv", "--quiet"])
            .arg(&file)
            .output()
            .unwrap()
    };
    let out = run();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<String>> = text.lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect();
    let rated: Vec<&Vec<String>> = rows.iter().filter(|r| !r[col("strength_elo")].is_empty()).collect();
    assert!(rated.len() >= 3, "need rated sides: {text}");
    for r in &rated {
        // A window of one game: the rolling estimate is the game's own.
        let own: f64 = r[col("strength_elo")].parse().unwrap();
        let rolling: f64 = r[col("rolling_elo")].parse().unwrap();
        assert!((own - rolling).abs() < 1e-6, "pooled: {r:?}");
    }
    // The same games under one real name are pooled.
    std::fs::write(&file, pgn(&[("Ann", "Bo", 1500, 1500, &a), ("Ann", "Bo", 1500, 1500, &b)])).unwrap();
    let text = String::from_utf8_lossy(&run().stdout).to_string();
    let last_ann = text.lines().skip(1).filter(|l| l.contains(",Ann,")).last().unwrap().to_string();
    let f: Vec<&str> = last_ann.split(',').collect();
    assert_ne!(f[col("strength_elo")], f[col("rolling_elo")], "{last_ann}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ipr pgn` writes each position with its mover's PGN rating and band, and rates `??` sides
/// one by one.
#[test]
fn ipr_pgn_cache_keeps_ratings_and_separates_anonymous_sides() {
    let a = movetext(90, 2);
    let dir = std::env::temp_dir().join(format!("sparring-names-ipr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(&file, pgn(&[("??", "Bo", 1650, 2210, &a)])).unwrap();
    let cache = dir.join("cache.jsonl");
    let out = crate::common::command(bin())
        .args(["strength", "ipr", "pgn", "--per-player", "4", "--bootstrap", "2"])
        .arg(&file)
        .arg("--cache")
        .arg(&cache)
        .output()
        .unwrap();
    // Four positions per player are too few to rate; the cache is what this test reads.
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    let text = std::fs::read_to_string(&cache).unwrap_or_else(|e| panic!("{e}: {err}"));
    let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 8, "{text}");
    let mut seen = std::collections::BTreeSet::new();
    for r in &rows {
        let (rating, band) = (r["rating"].as_u64().unwrap(), r["band"].as_u64().unwrap());
        assert!((rating, band) == (1650, 1600) || (rating, band) == (2210, 2200), "{r}");
        seen.insert(rating);
    }
    assert_eq!(seen.len(), 2);
    assert!(err.contains("?? (game 1, white)") || err.contains("skipped"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 59: `strength --player oparin` (a part of "Oparin, Grigoriy") analysed every ply and printed
/// empty tables without a word, `style --player` was exact and case-sensitive while `strength`
/// ignored case. One rule now (`games::resolve_player`): case-insensitive, a unique part of a name
/// matches; an unknown or ambiguous name is refused with the closest names (exit 1); the tool says
/// which games it took.
#[test]
fn player_names_follow_one_rule_in_every_tool() {
    use sparring_tools::common::games::resolve_player;
    let names = ["Oparin, Grigoriy", "Carlsen, Magnus", "carlsen, m", "??", "Bo"];
    let r = |q: &str| resolve_player(q, names.iter().copied());
    assert_eq!(r("oparin").unwrap(), "Oparin, Grigoriy");
    assert_eq!(r("  OPARIN, grigoriy ").unwrap(), "Oparin, Grigoriy");
    assert_eq!(r("bo").unwrap(), "Bo");
    // Exact case wins between names equal but for case; a part shared by two is ambiguous.
    assert_eq!(r("carlsen, m").unwrap(), "carlsen, m");
    let e = r("carlsen").unwrap_err();
    assert!(e.contains("matches 2 players") && e.contains("'Carlsen, Magnus'"), "{e}");
    // Unknown: the closest names; anonymous names never match.
    let e = r("Opari Grigory").unwrap_err();
    assert!(e.contains("closest") && e.contains("'Oparin, Grigoriy'"), "{e}");
    assert!(r("??").is_err());

    let game = movetext(40, 1);
    let dir = std::env::temp_dir().join(format!("sparring-names-rule-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("games.pgn");
    std::fs::write(
        &file,
        pgn(&[
            ("Oparin, Grigoriy", "Bo", 2600, 1500, &game),
            ("Ann", "Bo", 1500, 1500, &game),
            ("Ann", "Cy", 1500, 1500, &game),
        ]),
    )
    .unwrap();
    let run = |args: &[&str]| crate::common::command(bin()).args(args).arg(&file).output().unwrap();
    // style: a part of the name, in any case.
    let out = run(&["style", "--player", "oparin"]);
    let (text, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{err}");
    assert!(text.contains("Oparin, Grigoriy's moves"), "{text}");
    assert!(err.contains("player 'Oparin, Grigoriy' (--player 'oparin'): 1 of 3 games"), "{err}");
    // strength: only the player's games are analysed, and it says which.
    let out = run(&["strength", "--depth", "1", "--quiet", "--player", "OPARIN"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("player 'Oparin, Grigoriy' (--player 'OPARIN'): 1 of 3 games analysed (numbers 1)"), "{err}");
    // Unknown and ambiguous names end every tool with status 1 and the candidates.
    for tool in [&["strength", "--depth", "1", "--quiet"][..], &["style"][..]] {
        let out = run(&[tool, &["--player", "Zed"]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tool:?}: {err}");
        assert!(err.contains("no player named 'Zed'") && err.contains("closest"), "{tool:?}: {err}");
        let out = run(&[tool, &["--player", "n"]].concat());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{tool:?}: {err}");
        assert!(err.contains("'n' matches 2 players"), "{tool:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

//! PGN handling (FEN starts, comments, variations, a malformed game reported and skipped), the
//! command line end to end, the UCI oracle against the project's own binary, and the shared data.

use sparring::score::MATE;
use sparring_tools::common::oracle::{Budget, Oracle, UciOracle, parse_info_score};
use sparring_tools::strength::pgn::read_games;

const THREE_GAMES: &str = r#"[Event "one"]
[White "Ann"]
[Black "Bo"]
[WhiteElo "1500"]
[BlackElo "?"]
[Result "1-0"]

1. e4 {a comment} e5 $1 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 ; rest of line
Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8
10. d4 Nbd7 11. Nbd2 Bb7 12. Bc2 Re8 13. Nf1 Bf8 14. Ng3 g6 15. a4 c5 16. d5 c4 1-0

[Event "broken"]
[White "Cy"]
[Black "Di"]
[Result "*"]

1. e4 e5 2. Ke3 Nc6 *

[Event "from a FEN"]
[White "Ann"]
[Black "Ed"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[Result "*"]

1. e4 Kd7 2. Kd2 Ke6 *

[Event "bad fen"]
[White "X"]
[Black "Y"]
[FEN "this is not a fen"]
[Result "*"]

1. e4 *
"#;

#[test]
fn malformed_games_are_reported_and_skipped() {
    let games = read_games(THREE_GAMES.as_bytes()).unwrap();
    assert_eq!(games.len(), 4);
    let g1 = games[0].as_ref().unwrap();
    assert_eq!(g1.number, 1);
    assert_eq!(g1.moves.len(), 32, "variations and comments must not add moves");
    assert_eq!((g1.white_elo, g1.black_elo), (Some(1500), None));
    let e2 = games[1].as_ref().unwrap_err();
    assert_eq!(e2.number, 2);
    assert!(e2.message.contains("Ke3") && e2.message.contains("ply 3"), "{e2}");
    let g3 = games[2].as_ref().unwrap();
    assert_eq!(g3.number, 3);
    assert_eq!(g3.moves.len(), 4);
    assert_eq!(
        shakmaty::fen::Fen::from_position(&g3.root, shakmaty::EnPassantMode::Legal).to_string(),
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    );
    let e4 = games[3].as_ref().unwrap_err();
    assert_eq!(e4.number, 4);
    assert!(e4.message.contains("FEN"), "{e4}");
}

fn tmp_pgn(name: &str, text: &str) -> std::path::PathBuf {
    let p = std::env::temp_dir().join(format!("sparring-estimate-{}-{name}.pgn", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn cli_reports_bad_games_and_analyses_the_rest() {
    let p = tmp_pgn("cli", THREE_GAMES);
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .args(["strength", p.to_str().unwrap(), "--depth", "3", "--format", "json", "--jobs", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("skipping game 2"), "{stderr}");
    assert!(stderr.contains("skipping game 4"), "{stderr}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let skipped: Vec<u64> = j["skipped"].as_array().unwrap().iter().map(|e| e["game"].as_u64().unwrap()).collect();
    assert_eq!(skipped, vec![2, 4]);
    let games: Vec<u64> = j["sides"].as_array().unwrap().iter().map(|s| s["game"].as_u64().unwrap()).collect();
    assert_eq!(games, vec![1, 1, 3, 3]);
    // Game 1 has 16 plies per side: both sides get an estimate; game 3 is too short.
    let s = &j["sides"][0];
    assert_eq!(s["n"].as_u64().unwrap() >= 12, s["strength_elo"].is_i64());
    assert!(j["sides"][2]["strength_elo"].is_null());
    // Player filter and the CSV format.
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .args(["strength", p.to_str().unwrap(), "--depth", "2", "--format", "csv", "--player", "ann"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let csv = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("game,color,player,rating,n,ase,sd,p75_loss,strength_elo,strength_se"));
    assert_eq!(lines.len(), 3, "{csv}");
    assert!(lines[1].starts_with("1,white,Ann,1500,") && lines[2].starts_with("3,white,Ann,,"));
    let _ = std::fs::remove_file(p);
}

#[test]
fn cli_refit_refuses_too_few_samples() {
    let p = tmp_pgn("refit", THREE_GAMES);
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .args(["strength", "refit", p.to_str().unwrap(), "--depth", "2", "--quiet"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("refusing to refit") && stderr.contains("at least 20"), "{stderr}");
    let _ = std::fs::remove_file(p);
    // Usage errors exit with 2.
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring")).args(["strength", "--bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn uci_info_scores() {
    assert_eq!(parse_info_score("info depth 5 score cp -35 nodes 10 pv e2e4"), Some(-35));
    assert_eq!(parse_info_score("info depth 9 score mate 2 pv a1a8"), Some(MATE - 3));
    assert_eq!(parse_info_score("info depth 9 score mate -1 pv a1a8"), Some(-MATE + 2));
    assert_eq!(parse_info_score("info depth 9 score cp 20 lowerbound"), None);
    assert_eq!(parse_info_score("info depth 9 multipv 2 score cp 20"), None);
    assert_eq!(parse_info_score("info string hello"), None);
}

#[test]
fn uci_oracle_with_the_projects_own_engine() {
    let mut o = UciOracle::spawn(env!("CARGO_BIN_EXE_sparring"), 4).expect("engine starts");
    // Mate in one on the back rank.
    let root: shakmaty::Chess = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(shakmaty::CastlingMode::Standard)
        .unwrap();
    let e = o.evaluate(&root, &[], Budget::Depth(3)).unwrap();
    assert_eq!(e.score, MATE - 1);
    assert_eq!(e.best.unwrap().to_uci(shakmaty::CastlingMode::Standard).to_string(), "a1a8");
    // A queen up after a move list: big positive score for White to move.
    let start = shakmaty::Chess::default();
    let moves: Vec<shakmaty::Move> = {
        let mut pos = start.clone();
        ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qe5"]
            .iter()
            .map(|s| {
                let m = s.parse::<shakmaty::san::San>().unwrap().to_move(&pos).unwrap();
                shakmaty::Position::play_unchecked(&mut pos, m);
                m
            })
            .collect()
    };
    let e = o.evaluate(&start, &moves, Budget::Nodes(5000)).unwrap();
    assert!(e.best.is_some());
    assert!(e.score.abs() < 2000);
}

#[test]
fn cli_with_a_uci_oracle() {
    let p = tmp_pgn("uci", THREE_GAMES);
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .args([
            "strength",
            p.to_str().unwrap(),
            "--oracle",
            env!("CARGO_BIN_EXE_sparring"),
            "--depth",
            "3",
            "--format",
            "csv",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("warning") && stderr.contains("different oracle"), "{stderr}");
    let csv = String::from_utf8_lossy(&out.stdout);
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let _ = std::fs::remove_file(p);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn fics_dev_set_reads_cleanly() {
    let path = concat!(env!("SPARRING_REPO"), "/../shared/data/human/fics-blitz-dev.pgn");
    if !std::path::Path::new(path).exists() {
        println!("skipped: ../shared/data not found");
        return;
    }
    let games = sparring_tools::strength::pgn::read_file(std::path::Path::new(path)).unwrap();
    assert_eq!(games.len(), 12_948);
    assert!(games.iter().all(|g| g.is_ok()));
    let g = games[0].as_ref().unwrap();
    assert_eq!((g.white.as_str(), g.white_elo, g.black_elo, g.moves.len()), ("nossamel", Some(1679), Some(1778), 89));
    assert!(games.iter().all(|g| {
        let g = g.as_ref().unwrap();
        g.white_elo.is_some() && g.black_elo.is_some()
    }));
}

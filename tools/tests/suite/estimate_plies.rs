//! cpLoss and eligibility: the pure verdict on hand-made numbers, and the internal oracle on
//! hand-made positions (forced move, mate, decided position, ordinary move).

use sparring::score::MATE;
use sparring_tools::common::oracle::{Budget, InternalOracle};
use sparring_tools::strength::analyse::{EvalMemo, Exclusion, Pairing, Settings, analyse_game, judge_ply};
use sparring_tools::strength::model::{StrengthModel, scaled_error};
use sparring_tools::strength::pgn::{PgnGame, read_games};

#[test]
fn verdict_forced_move_is_excluded_without_loss() {
    let v = judge_ply(1, 0, -500, false);
    assert_eq!(v.excluded, Some(Exclusion::Forced));
    assert_eq!(v.cp_loss, None);
    assert!(!v.eligible());
}

#[test]
fn verdict_mate_scores_are_excluded() {
    // Side to move mates in 2 (3 plies) / is mated in 2.
    assert_eq!(judge_ply(20, MATE - 3, MATE - 3, true).excluded, Some(Exclusion::Mate));
    assert_eq!(judge_ply(20, -MATE + 4, -MATE + 4, true).excluded, Some(Exclusion::Mate));
}

#[test]
fn verdict_decided_positions_are_excluded_either_colour() {
    assert_eq!(judge_ply(30, 601, 590, false).excluded, Some(Exclusion::Decided));
    assert_eq!(judge_ply(30, -750, -800, false).excluded, Some(Exclusion::Decided));
    // Exactly 600 is still eligible.
    let v = judge_ply(30, 600, 500, false);
    assert!(v.eligible());
    assert_eq!(v.cp_loss, Some(100));
}

#[test]
fn verdict_ordinary_moves() {
    let v = judge_ply(30, 50, -30, false);
    assert!(v.eligible());
    assert_eq!(v.cp_loss, Some(80));
    // The best move loses nothing even if a shallower/deeper look disagrees.
    assert_eq!(judge_ply(30, 50, -30, true).cp_loss, Some(0));
    // A move valued above the position is no loss.
    assert_eq!(judge_ply(30, 50, 90, false).cp_loss, Some(0));
    // Walking into a mate: eligible (the position itself is not a mate), loss capped in the error.
    let v = judge_ply(30, 40, -MATE + 2, false);
    assert!(v.eligible());
    assert_eq!(v.cp_loss, Some(10_040));
    assert!((scaled_error(v.cp_loss.unwrap()) - 4f64.ln()).abs() < 1e-12);
}

#[test]
fn scaled_error_formula() {
    assert_eq!(scaled_error(0), 0.0);
    assert!((scaled_error(100) - 2f64.ln()).abs() < 1e-12);
    assert!((scaled_error(50) - 1.5f64.ln()).abs() < 1e-12);
    assert!((scaled_error(300) - 4f64.ln()).abs() < 1e-12);
    assert_eq!(scaled_error(301), scaled_error(300));
    assert_eq!(scaled_error(-20), 0.0);
}

fn game(pgn: &str) -> PgnGame {
    let mut v = read_games(pgn.as_bytes()).unwrap();
    assert_eq!(v.len(), 1);
    v.pop().unwrap().unwrap()
}

fn analyse(pgn: &str, depth: i32) -> sparring_tools::strength::analyse::GameAnalysis {
    let mut oracle = InternalOracle::new(4);
    let mut cache = EvalMemo::new(1000);
    let settings = Settings {
        budget: Budget::Depth(depth),
        pairing: Pairing::Exact,
        player: None,
        human_model: None,
        maia: false,
    };
    analyse_game(&mut oracle, &mut cache, &game(pgn), &settings, &StrengthModel::pawnbook()).unwrap()
}

#[test]
fn internal_oracle_forced_move() {
    // Ra1 checks Kh1; g1 is covered, h2 is blocked: Kg2 is the only legal move.
    let a = analyse("[FEN \"6k1/8/8/8/8/8/7P/r6K w - - 0 1\"]\n\n1. Kg2 *\n", 4);
    let p = &a.plies[0];
    assert_eq!(p.played, "h1g2");
    assert_eq!(p.excluded, Some(Exclusion::Forced));
    assert!(!p.eligible);
    assert_eq!(p.cp_loss, None);
}

#[test]
fn internal_oracle_mate_position() {
    // Back-rank mate in one is on the board; whatever White plays, the ply is not counted.
    for mv in ["Ra8#", "Kf1"] {
        let a = analyse(&format!("[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]\n\n1. {mv} *\n"), 4);
        let p = &a.plies[0];
        assert!(p.value.unwrap() > sparring::score::MATE_BOUND, "{p:?}");
        assert_eq!(p.excluded, Some(Exclusion::Mate), "{p:?}");
        assert_eq!(p.best.as_deref(), Some("a1a8"));
    }
}

#[test]
fn internal_oracle_decided_position() {
    // White has every piece against a lone king (well beyond 600 cp), Black to move.
    let a = analyse("[FEN \"4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR b KQ - 0 1\"]\n\n1... Kd7 2. e4 *\n", 4);
    for p in &a.plies {
        assert_eq!(p.excluded, Some(Exclusion::Decided), "{p:?}");
        assert!(p.value.unwrap().abs() > 600);
    }
}

#[test]
fn internal_oracle_ordinary_and_blunder() {
    // 1. e4 e5 2. Nf3 are ordinary; 2... Qh4 hangs the queen to Nxh4.
    let a = analyse("1. e4 e5 2. Nf3 Qh4 *\n", 5);
    for p in &a.plies[..3] {
        assert!(p.eligible, "{p:?}");
        assert!(p.cp_loss.unwrap() < 150, "{p:?}");
    }
    let q = &a.plies[3];
    assert_eq!(q.played, "d8h4");
    assert!(q.eligible, "{q:?}");
    assert!(q.cp_loss.unwrap() >= 500, "{q:?}");
    assert!((q.scaled_error.unwrap() - 4f64.ln()).abs() < 1e-12);
}

#[test]
fn player_filter_skips_the_other_side() {
    let mut oracle = InternalOracle::new(4);
    let mut cache = EvalMemo::new(0);
    let g = game("[White \"Ann\"]\n[Black \"Bo\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
    let settings = Settings {
        budget: Budget::Depth(3),
        pairing: Pairing::Reuse,
        player: Some("bo".to_string()),
        human_model: None,
        maia: false,
    };
    let a = analyse_game(&mut oracle, &mut cache, &g, &settings, &StrengthModel::pawnbook()).unwrap();
    assert!(!a.sides[0].analysed && a.sides[1].analysed);
    assert!(a.plies.iter().filter(|p| p.color == "white").all(|p| p.excluded == Some(Exclusion::Skipped)));
    assert!(a.plies.iter().filter(|p| p.color == "black").all(|p| p.cp_loss.is_some()));
}

/// Short games that share openings, so a cache or hash table carried from one game to the next
/// would change what the later games are told.
const SHARED_OPENINGS: [&str; 4] = [
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O *",
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 Qxd1 *",
    "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 5. d4 exd4 6. cxd4 Bb4+ 7. Bd2 Bxd2+ *",
    "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 *",
];

/// A game's analysis does not depend on the games the same oracle analysed before it (the
/// defect: `strength --jobs 2` gave different figures from run to run).
#[test]
fn a_game_is_analysed_the_same_whatever_came_before() {
    let settings =
        Settings { budget: Budget::Depth(5), pairing: Pairing::Exact, player: None, human_model: None, maia: false };
    let model = StrengthModel::pawnbook();
    let alone = {
        let mut oracle = InternalOracle::new(4);
        let mut cache = EvalMemo::new(1000);
        analyse_game(&mut oracle, &mut cache, &game(SHARED_OPENINGS[1]), &settings, &model).unwrap()
    };
    let mut oracle = InternalOracle::new(4);
    let mut cache = EvalMemo::new(1000);
    for pgn in [SHARED_OPENINGS[0], SHARED_OPENINGS[2], SHARED_OPENINGS[3]] {
        analyse_game(&mut oracle, &mut cache, &game(pgn), &settings, &model).unwrap();
    }
    let after = analyse_game(&mut oracle, &mut cache, &game(SHARED_OPENINGS[1]), &settings, &model).unwrap();
    let values = |a: &sparring_tools::strength::analyse::GameAnalysis| {
        a.plies.iter().map(|p| (p.best.clone(), p.value, p.played_value, p.cp_loss)).collect::<Vec<_>>()
    };
    assert_eq!(values(&alone), values(&after));
}

/// Through the binary: one job and three jobs write the same per-ply table, byte for byte.
#[test]
fn jobs_do_not_change_the_analysis() {
    let dir = std::env::temp_dir().join(format!("sparring-jobs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let text: String = SHARED_OPENINGS.iter().cycle().take(8).map(|g| format!("{g}\n\n")).collect();
    std::fs::write(&pgn, text).unwrap();
    let run = |jobs: &str| {
        let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
            .args(["strength", pgn.to_str().unwrap(), "--model", "refit", "--depth", "5", "--plies"])
            .args(["--format", "csv", "--quiet", "--jobs", jobs])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let one = run("1");
    assert!(one.lines().count() > 100, "{one}");
    assert_eq!(one, run("3"));
    std::fs::remove_dir_all(&dir).ok();
}

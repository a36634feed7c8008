//! Human-likeness bench: KS distance, loss lookup, eligibility, scaled error, CSV round trip.

use sparring::score::Score;
use sparring_tools::common::bands::{LossSummary, stats_from_moves};
use sparring_tools::common::quality::scaled_error;
use sparring_tools::common::scored::{Ineligible, OracleMove, OraclePosition, SampledPosition};
use sparring_tools::humanlike::measure::split_csv;
use sparring_tools::humanlike::{ks_distance, measure_with};

fn pos(fen: &str, human: &str, band: u32, moves: &[(&str, Score)]) -> OraclePosition {
    OraclePosition {
        pos: SampledPosition { fen: fen.into(), human: human.into(), rating: band + 50, band, game: 0, ply: 20 },
        oracle: "test".into(),
        search: None,
        depth: 1,
        moves: moves.iter().map(|(m, s)| OracleMove { uci: m.to_string(), score: *s }).collect(),
    }
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const BLACK: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

#[test]
fn ks_on_known_samples() {
    assert_eq!(ks_distance(&[1, 2, 3], &[1, 2, 3]), 0.0);
    assert_eq!(ks_distance(&[0, 0, 0], &[5, 5]), 1.0);
    // F_a jumps to 0.5 at 0 while F_b stays 0 until 10.
    assert!((ks_distance(&[0, 20], &[10, 30]) - 0.5).abs() < 1e-12);
    // Ties across samples: both CDFs are taken after the whole tied value.
    assert!((ks_distance(&[0, 0, 100, 300], &[0, 100, 100, 100]) - 0.25).abs() < 1e-12);
    // Unequal sizes: a = {1,2,3,4}, b = {3,4}; at 2: 0.5 vs 0.
    assert!((ks_distance(&[4, 3, 2, 1], &[4, 3]) - 0.5).abs() < 1e-12);
    assert_eq!(ks_distance(&[], &[1]), 0.0);
    // Symmetric.
    assert_eq!(ks_distance(&[1, 5, 9, 9], &[2, 2, 7]), ks_distance(&[2, 2, 7], &[1, 5, 9, 9]));
}

#[test]
fn scaled_error_follows_the_seed() {
    assert_eq!(scaled_error(0), 0.0);
    assert!((scaled_error(100) - 2f64.ln()).abs() < 1e-12);
    assert!((scaled_error(300) - 4f64.ln()).abs() < 1e-12);
    assert_eq!(scaled_error(900), scaled_error(300));
}

#[test]
fn loss_lookup_caps_and_mates() {
    let p = pos(
        START,
        "g1f3",
        1400,
        &[("e2e4", Score::Cp(40)), ("g1f3", Score::Cp(25)), ("f2f3", Score::Cp(-400)), ("g2g4", Score::Mate(-3))],
    );
    assert_eq!(p.best().unwrap().uci, "e2e4");
    assert_eq!(p.loss("e2e4"), Some(0));
    assert_eq!(p.loss("g1f3"), Some(15));
    assert_eq!(p.loss("f2f3"), Some(300), "capped at 300");
    assert_eq!(p.loss("g2g4"), Some(300), "walking into a mate loses the cap");
    assert_eq!(p.loss("a2a5"), None, "not in the table");
    assert!(p.is_eligible());
}

#[test]
fn eligibility_rules() {
    // Forced: one legal move.
    let forced = pos(START, "e2e4", 1400, &[("e2e4", Score::Cp(0))]);
    assert_eq!(forced.eligibility(), Err(Ineligible::Forced));
    // Best score a mate.
    let mate = pos(START, "e2e4", 1400, &[("d1h5", Score::Mate(2)), ("e2e4", Score::Cp(50))]);
    assert_eq!(mate.eligibility(), Err(Ineligible::Mate));
    // Decided: |eval| > 600 from White's view, either side to move.
    let white_wins = pos(START, "e2e4", 1400, &[("e2e4", Score::Cp(601)), ("d2d4", Score::Cp(500))]);
    assert_eq!(white_wins.eligibility(), Err(Ineligible::Decided));
    let black_to_move_lost = pos(BLACK, "e7e5", 1400, &[("e7e5", Score::Cp(-650)), ("d7d5", Score::Cp(-700))]);
    assert_eq!(black_to_move_lost.white_eval(), Some(650));
    assert_eq!(black_to_move_lost.eligibility(), Err(Ineligible::Decided));
    // Exactly 600 is still eligible.
    let edge = pos(BLACK, "e7e5", 1400, &[("e7e5", Score::Cp(-600)), ("d7d5", Score::Cp(-700))]);
    assert!(edge.is_eligible());
    // A mate among the worse moves does not make the position ineligible.
    let losing_mate = pos(START, "e2e4", 1400, &[("e2e4", Score::Cp(10)), ("g2g4", Score::Mate(-1))]);
    assert!(losing_mate.is_eligible());
}

#[test]
fn oracle_record_json_round_trip() {
    let p = pos(START, "e2e4", 1400, &[("e2e4", Score::Cp(40)), ("g2g4", Score::Mate(-3))]);
    let text = serde_json::to_string(&p).unwrap();
    assert!(text.contains(r##"["g2g4","#-3"]"##), "{text}");
    let back: OraclePosition = serde_json::from_str(&text).unwrap();
    assert_eq!(back.moves, p.moves);
    assert_eq!(back.pos, p.pos);
}

#[test]
fn band_stats_against_humans() {
    let mk = |band, human: &str| {
        pos(START, human, band, &[("e2e4", Score::Cp(40)), ("d2d4", Score::Cp(30)), ("f2f3", Score::Cp(-60))])
    };
    let positions = vec![mk(1400, "e2e4"), mk(1400, "f2f3"), mk(1600, "d2d4"), mk(1600, "d2d4")];
    let moves = vec![Some("d2d4".to_string()), Some("f2f3".to_string()), Some("e2e4".to_string()), None];
    let s = stats_from_moves(&positions, &moves);
    assert_eq!(s.len(), 2);
    let b14 = &s[0];
    assert_eq!((b14.band, b14.n, b14.errors), (1400, 2, 0));
    assert_eq!(b14.match_rate, 0.5);
    assert_eq!(b14.top_rate, 0.0);
    assert_eq!(b14.setting.mean_loss, 55.0); // 10 and 100
    assert_eq!(b14.human.mean_loss, 50.0); // 0 and 100
    assert_eq!(b14.setting.rate50, 0.5);
    assert_eq!(b14.human_top_rate, 0.5);
    assert!((b14.ks - 0.5).abs() < 1e-12);
    let b16 = &s[1];
    assert_eq!((b16.band, b16.n, b16.errors), (1600, 1, 1));
    assert_eq!(b16.top_rate, 1.0);
    assert_eq!(b16.human.mean_loss, 10.0);

    // measure_with asks only about eligible positions and agrees with the move-list path.
    let mut asked = 0;
    let via_fn = measure_with(&positions[..2], |p| {
        asked += 1;
        let c = p.chess().unwrap();
        sparring::board::notation::parse_uci(&c, if asked == 1 { "d2d4" } else { "f2f3" }).unwrap()
    });
    assert_eq!(asked, 2);
    assert_eq!(via_fn[0], s[0]);
    assert_eq!(LossSummary::of(&[]), LossSummary::default());
}

#[test]
fn csv_split_handles_quotes() {
    assert_eq!(split_csv(r#"a,"b,c","d""e",,f"#), vec!["a", "b,c", "d\"e", "", "f"]);
}

#[test]
fn torn_last_line_is_cut_before_appending() {
    use sparring_tools::common::scored::{append_jsonl, open_append, read_jsonl};
    let path = std::env::temp_dir().join(format!("sparring-humanlike-torn-{}.jsonl", std::process::id()));
    std::fs::write(&path, "{\"fen\":\"a\",\"mv\":\"e2e4\"}\n{\"fen\":\"b\",\"mv").unwrap();
    let mut f = open_append(&path).unwrap();
    append_jsonl(&mut f, &sparring_tools::humanlike::measure::CachedMove { fen: "c".into(), mv: "d2d4".into() })
        .unwrap();
    let back: Vec<sparring_tools::humanlike::measure::CachedMove> = read_jsonl(&path).unwrap();
    assert_eq!(back.iter().map(|m| m.fen.as_str()).collect::<Vec<_>>(), ["a", "c"]);
    let _ = std::fs::remove_file(&path);
}

/// The human-model trainer (by 0-based index) and the estimator (by the PGN reader's 1-based game
/// number) put the same games in the same parts of one file: one split, `common::split`.
#[test]
fn the_estimator_and_the_human_model_agree_on_the_test_games() {
    use sparring_tools::common::games::read_from;
    use sparring_tools::common::split::Part;
    let mut pgn = String::new();
    for i in 0..25 {
        // Game 13 is unreadable (a bad FEN): it keeps its number, so later games keep their parts.
        let fen = if i == 12 { "[FEN \"not a position\"]\n" } else { "" };
        pgn.push_str(&format!("[Event \"g{i}\"]\n[White \"a\"]\n[Black \"b\"]\n{fen}\n1. e4 e5 *\n\n"));
    }
    let games = read_from(pgn.as_bytes()).unwrap();
    assert_eq!(games.len(), 25);
    // The estimator's own view of the file numbers the games alike, the unreadable one included.
    let estimator_view = sparring_tools::strength::pgn::read_games(pgn.as_bytes()).unwrap();
    let numbers: Vec<usize> =
        estimator_view.iter().map(|g| g.as_ref().map_or_else(|e| e.number, |g| g.number)).collect();
    assert_eq!(numbers, (1..=25).collect::<Vec<_>>());
    assert!(estimator_view[12].is_err());
    let mut test_games = Vec::new();
    for (index, g) in games.iter().enumerate() {
        assert_eq!(g.number, index + 1);
        let model = sparring_tools::model::train::part_of(index);
        let estimator = sparring_tools::strength::train::part_of(g.number);
        assert_eq!(model, estimator, "game {}", g.number);
        if model == Part::Test {
            test_games.push(g.number);
        }
    }
    assert_eq!(test_games, [9, 10, 19, 20]);
}

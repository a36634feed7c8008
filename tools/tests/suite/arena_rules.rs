//! Game-ending rules, adjudicators, openings and command-line parsing of `sparring match`.

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position};
use sparring::board::zobrist;
use sparring_tools::r#match::adjudicate::*;
use sparring_tools::r#match::openings::{self, BookFormat};
use std::path::Path;

fn pos(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Standard).unwrap()
}

fn play(p: &mut Chess, keys: &mut Vec<u64>, uci: &str) {
    let m = UciMove::from_ascii(uci.as_bytes()).unwrap().to_move(p).unwrap();
    p.play_unchecked(m);
    keys.push(zobrist(p));
}

#[test]
fn checkmate_and_stalemate() {
    // Fool's mate.
    let mut p = Chess::default();
    let mut keys = vec![zobrist(&p)];
    for m in ["f2f3", "e7e5", "g2g4"] {
        play(&mut p, &mut keys, m);
        assert_eq!(rule_end(&p, &keys), None);
    }
    play(&mut p, &mut keys, "d8h4");
    assert_eq!(rule_end(&p, &keys), Some(RuleEnd::Checkmate { winner: Color::Black }));
    let s = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(rule_end(&s, &[zobrist(&s)]), Some(RuleEnd::Stalemate));
}

#[test]
fn threefold_repetition() {
    let mut p = Chess::default();
    let mut keys = vec![zobrist(&p)];
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        play(&mut p, &mut keys, m);
        // The start position occurs for the third time after the 8th ply.
        let expect = if i == 7 { Some(RuleEnd::Repetition) } else { None };
        assert_eq!(rule_end(&p, &keys), expect, "after ply {}", i + 1);
    }
}

#[test]
fn fifty_moves_and_insufficient_material() {
    let p = pos("4k3/8/8/8/8/8/R7/4K3 w - - 100 80");
    assert_eq!(rule_end(&p, &[zobrist(&p)]), Some(RuleEnd::FiftyMoves));
    let p = pos("4k3/8/8/8/8/8/R7/4K3 w - - 99 80");
    assert_eq!(rule_end(&p, &[zobrist(&p)]), None);
    for fen in ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/3NK3 w - - 0 1", "4k3/8/8/8/8/8/8/3BK3 b - - 0 1"] {
        let p = pos(fen);
        assert_eq!(rule_end(&p, &[zobrist(&p)]), Some(RuleEnd::InsufficientMaterial), "{fen}");
    }
    // Mate on the 100th half-move counts as mate.
    let p = pos("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80");
    assert!(matches!(rule_end(&p, &[zobrist(&p)]), Some(RuleEnd::Checkmate { .. })));
}

#[test]
fn draw_and_resign_adjudication() {
    let p = Chess::default();
    let after_move_5 = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 6");
    let mut a = Adjudicator::new(Some(DrawRule { movenumber: 5, movecount: 2, score: 10 }), None);
    // Low scores, but before move 5 is completed: no draw yet.
    for c in [Color::White, Color::Black, Color::White, Color::Black] {
        assert_eq!(a.update(c, Some(5), &p), None);
    }
    assert!(matches!(a.update(Color::White, Some(-3), &after_move_5), Some(Verdict::Draw(_))));
    // A high score resets the count.
    let mut a = Adjudicator::new(Some(DrawRule { movenumber: 0, movecount: 2, score: 10 }), None);
    assert_eq!(a.update(Color::White, Some(0), &after_move_5), None);
    assert_eq!(a.update(Color::Black, Some(50), &after_move_5), None);
    assert_eq!(a.update(Color::White, Some(0), &after_move_5), None);
    assert_eq!(a.update(Color::Black, Some(0), &after_move_5), None);
    assert_eq!(a.update(Color::White, Some(0), &after_move_5), None);
    assert!(a.update(Color::Black, None, &after_move_5).is_none());

    // One-sided resignation after 3 losing moves of White.
    let mut r = Adjudicator::new(None, Some(ResignRule { movecount: 3, score: 500, twosided: false }));
    assert_eq!(r.update(Color::White, Some(-600), &p), None);
    assert_eq!(r.update(Color::Black, Some(0), &p), None);
    assert_eq!(r.update(Color::White, Some(-600), &p), None);
    assert_eq!(r.update(Color::Black, Some(0), &p), None);
    assert_eq!(
        r.update(Color::White, Some(-100_000 + 3), &p),
        Some(Verdict::Win { winner: Color::Black, reason: "White resigns".into() })
    );
    // Two-sided: Black must agree.
    let mut r = Adjudicator::new(None, Some(ResignRule { movecount: 2, score: 500, twosided: true }));
    for _ in 0..3 {
        assert_eq!(r.update(Color::White, Some(-600), &p), None);
        assert_eq!(r.update(Color::Black, Some(100), &p), None);
    }
    assert_eq!(r.update(Color::Black, Some(700), &p), None);
    assert_eq!(r.update(Color::White, Some(-600), &p), None);
    assert_eq!(r.update(Color::Black, Some(700), &p), None);
    assert!(matches!(r.update(Color::White, Some(-600), &p), Some(Verdict::Win { winner: Color::Black, .. })));
}

const TB: &str = concat!(env!("SPARRING_REPO"), "/../shared/data/syzygy/3-4");

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn syzygy_adjudication() {
    if !Path::new(TB).exists() {
        println!("skipped: ../shared/data not found");
        return;
    }
    let tb = TbAdjudicator::open(TB, 0).unwrap();
    // KQ v K: a win for the side with the queen, whoever is to move.
    assert!(matches!(tb.probe(&pos("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")), Some(Verdict::Win { winner: Color::White, .. })));
    assert!(matches!(tb.probe(&pos("8/8/8/4k3/8/8/8/KQ6 b - - 0 1")), Some(Verdict::Win { winner: Color::White, .. })));
    // KR v KR: a draw. K+P v K with the defender in front: a draw.
    assert!(matches!(tb.probe(&pos("8/8/3rk3/8/8/3RK3/8/8 w - - 0 1")), Some(Verdict::Draw(_))));
    assert!(matches!(
        tb.probe(&pos("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1")),
        Some(Verdict::Win { .. }) | Some(Verdict::Draw(_))
    ));
    // Too many pieces: no verdict; tbpieces limits the probe.
    assert_eq!(tb.probe(&Chess::default()), None);
    let tb3 = TbAdjudicator::open(TB, 3).unwrap();
    assert_eq!(tb3.probe(&pos("8/8/3rk3/8/8/3RK3/8/8 w - - 0 1")), None);
}

#[test]
fn builtin_book_is_legal_named_and_large() {
    let b = openings::builtin();
    assert!(b.len() >= 50, "{} lines", b.len());
    for (o, &(eco, name, line)) in b.iter().zip(openings::BUILTIN) {
        assert_eq!(o.moves.len(), line.split_whitespace().count(), "{eco} {name}");
        assert!(eco.len() == 3 && eco.starts_with(['A', 'B', 'C', 'D', 'E']), "{eco}");
        assert!(!name.is_empty());
        let p = o.position();
        assert!(!p.is_game_over(), "{eco} {name} ends the game");
        assert!(o.moves.len() >= 8, "{eco} {name} is short");
    }
    let mut names: Vec<&str> = openings::BUILTIN.iter().map(|x| x.1).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), openings::BUILTIN.len(), "duplicate names");
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn book_files() {
    let dir = concat!(env!("SPARRING_REPO"), "/../shared/data/openings");
    let tmp = std::env::temp_dir().join(format!("arena_book_{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // Small EPD and PGN books written here.
    let epd = tmp.join("b.epd");
    std::fs::write(
        &epd,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
         rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .unwrap();
    let v = openings::load(&epd, BookFormat::Epd, None).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].name.as_deref(), Some("e4"));
    assert_eq!(v[0].root.turn(), Color::Black);
    let pgn = tmp.join("b.pgn");
    std::fs::write(
        &pgn,
        "[Event \"x\"]\n[ECO \"C20\"]\n[Opening \"King's Pawn\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n\
         [Event \"y\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. e4 Kd7 *\n",
    )
    .unwrap();
    let v = openings::load(&pgn, BookFormat::Pgn, Some(3)).unwrap();
    assert_eq!(v.len(), 2);
    assert_eq!(v[0].moves.len(), 3);
    assert_eq!(v[0].eco.as_deref(), Some("C20"));
    assert!(v[1].root_fen.is_some());
    // An illegal move past the plies used does not matter; one within them refuses the book.
    let bad = tmp.join("bad.pgn");
    std::fs::write(&bad, "[Event \"z\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    assert_eq!(openings::load(&bad, BookFormat::Pgn, Some(2)).unwrap()[0].moves.len(), 2);
    let e = openings::load(&bad, BookFormat::Pgn, None).unwrap_err();
    assert!(e.contains("game 1: ply 3: illegal or ambiguous move 'Ke3'"), "{e}");
    // The real books, if present.
    if Path::new(dir).exists() {
        let v = openings::load(&Path::new(dir).join("8moves_v3.pgn"), BookFormat::Pgn, None).unwrap();
        assert_eq!(v.len(), 34_700);
        assert!(v.iter().all(|o| o.moves.len() == 16));
        let v = openings::load(&Path::new(dir).join("noob_3moves.epd"), BookFormat::Epd, None).unwrap();
        assert!(v.len() > 150_000);
    } else {
        println!("skipped: ../shared/data not found");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn command_line() {
    use sparring_tools::r#match::cli::parse;
    let mut a = args(
        "-engine cmd=/bin/a name=A option.Hash=16 option.Threads=1 tc=40/60+0.6 \
         -engine cmd=/bin/b dir=/tmp depth=5 \
         -each tc=10+0.1 timemargin=50 nodes=1000 \
         -games 2 -rounds 3 -repeat -concurrency 2 -srand 42 \
         -openings file=book.pgn order=random plies=8 start=3 \
         -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 twosided=true \
         -maxmoves 200 -tbpieces 5 -pgnout out.pgn -epdout out.epd -jsonout file=out.json \
         -sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 -ratinginterval 20 -recover",
    );
    a.insert(5, "args=--x 1".into());
    let c = parse(&a).unwrap();
    let [e1, e2] = &c.engines;
    assert_eq!(e1.name, "A");
    assert_eq!(e1.args, vec!["--x", "1"]);
    assert_eq!(e1.options, vec![("Hash".into(), "16".into()), ("Threads".into(), "1".into())]);
    let clock = e1.tc.clock.unwrap();
    assert_eq!((clock.moves, clock.base.as_secs_f64(), clock.inc.as_secs_f64()), (40, 60.0, 0.6));
    assert_eq!(e1.tc.pgn_tag(), "40/60+0.6");
    assert_eq!(e2.name, "b");
    assert_eq!(e2.tc.pgn_tag(), "10+0.1");
    assert_eq!((e2.tc.depth, e2.tc.nodes), (Some(5), Some(1000)));
    assert_eq!(e2.timemargin.as_millis(), 50);
    assert_eq!((c.games, c.rounds, c.repeat, c.concurrency, c.srand), (2, 3, true, 2, 42));
    assert_eq!(c.openings.format, BookFormat::Pgn);
    assert_eq!((c.openings.plies, c.openings.start), (Some(8), 3));
    assert_eq!(c.draw, Some(DrawRule { movenumber: 40, movecount: 8, score: 10 }));
    assert_eq!(c.resign, Some(ResignRule { movecount: 3, score: 600, twosided: true }));
    assert_eq!((c.maxmoves, c.tb_pieces, c.rating_interval, c.recover), (Some(200), 5, 20, true));
    assert_eq!(c.jsonout.as_deref(), Some(Path::new("out.json")));
    assert_eq!(c.sprt.unwrap().beta, 0.1);
    // Errors are reported, not panics.
    assert!(parse(&args("-engine cmd=a -games 2")).is_err());
    assert!(parse(&args("-engine cmd=a tc=x -engine cmd=b")).is_err());
    assert!(parse(&args("-engine cmd=a -engine cmd=b -bogus")).is_err());
    assert!(parse(&args("-engine cmd=a -engine cmd=b -sprt elo0=5 elo1=0")).is_err());
    // Time controls.
    use sparring_tools::r#match::engine::TimeControl;
    let t = TimeControl::parse_tc("1:30+1").unwrap().unwrap();
    assert_eq!((t.base.as_secs(), t.inc.as_secs()), (90, 1));
    assert_eq!(TimeControl::parse_tc("inf").unwrap(), None);
    assert!(TimeControl::parse_tc("0").is_err());
}

#[test]
fn help_reads_like_a_manual() {
    let h = sparring_tools::r#match::cli::HELP;
    for key in [
        "-engine",
        "-each",
        "tc=",
        "st=",
        "nodes=",
        "depth=",
        "timemargin=",
        "-games",
        "-rounds",
        "-repeat",
        "-concurrency",
        "-openings",
        "-srand",
        "-draw",
        "-resign",
        "-maxmoves",
        "-tb ",
        "-tbpieces",
        "-pgnout",
        "-epdout",
        "-jsonout",
        "-sprt",
        "-ratinginterval",
        "-recover",
        "Seed",
        "EXAMPLES",
    ] {
        assert!(h.contains(key), "help lacks {key}");
    }
}

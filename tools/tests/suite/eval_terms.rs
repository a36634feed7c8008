//! Each term group fires, with the right sign, on a position built for it; overall scores are sane.

use crate::eval_util;

use eval_util::pos;
use sparring::eval::{EvalConfig, Term, evaluate, evaluate_white, trace};

/// Net raw value (White - Black) of a group, tapered by the position's phase.
fn net(fen: &str, t: Term) -> (i32, i32) {
    let tr = trace(&pos(fen), &EvalConfig::default());
    let d = tr.white[t.index()] - tr.black[t.index()];
    (d.mg, d.eg)
}

fn assert_positive(fen: &str, t: Term) {
    let (mg, eg) = net(fen, t);
    assert!(mg >= 0 && eg >= 0 && mg + eg > 0, "{} should favour White in {fen}: mg {mg} eg {eg}", t.name());
}

fn assert_negative(fen: &str, t: Term) {
    let (mg, eg) = net(fen, t);
    assert!(mg <= 0 && eg <= 0 && mg + eg < 0, "{} should favour Black in {fen}: mg {mg} eg {eg}", t.name());
}

/// The group's middlegame part favours Black, and the tapered sum too.
fn assert_negative_mg(fen: &str, t: Term) {
    let (mg, eg) = net(fen, t);
    assert!(mg < 0 && mg + eg < 0 && eg.abs() < -mg / 4, "{} should favour Black in {fen}: mg {mg} eg {eg}", t.name());
}

#[test]
fn eval_term_material_extra_knight() {
    assert_positive("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Term::Material);
}

#[test]
fn eval_term_imbalance_bishop_pair() {
    assert_positive("2n1kb2/pppppppp/8/8/8/8/PPPPPPPP/2B1KB2 w - - 0 1", Term::Imbalance);
}

#[test]
fn eval_term_pawn_structure_isolated_and_doubled() {
    // White: isolated a-, c- and e-pawns; Black: a healthy a-b-c chain.
    assert_negative("4k3/ppp5/8/8/8/8/P1P1P3/4K3 w - - 0 1", Term::PawnStructure);
    // White doubled on the c-file.
    assert_negative("4k3/pp3ppp/8/8/8/2P5/P1P2PPP/4K3 w - - 0 1", Term::PawnStructure);
}

#[test]
fn eval_term_knight_outpost() {
    // Knight on d5, supported by e4, no black c/e pawns left to chase it.
    let (mg, _) = net("4k3/pp3ppp/8/3N4/4P3/8/PPP2PPP/4K3 w - - 0 1", Term::Knight);
    let (mg_rim, _) = net("4k3/pp3ppp/8/8/4P3/7N/PPP2PPP/4K3 w - - 0 1", Term::Knight);
    assert!(mg > mg_rim + 5, "outpost {mg} vs rim {mg_rim}");
}

#[test]
fn eval_term_bishop_long_diagonal_and_bad_bishop() {
    // b2 sees d4 and e5 (the endgame part is only the king distance, so compare middlegames).
    let (mg, _) = net("4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", Term::Bishop);
    let (mg_off, _) = net("4k3/8/8/8/8/8/2B5/4K3 w - - 0 1", Term::Bishop);
    assert!(mg > 0 && mg > mg_off, "long diagonal {mg} vs {mg_off}");
    // A light-squared bishop hemmed in by its own pawns on light squares.
    assert_negative("4k3/8/8/8/2P1P3/1P1P1P2/4B3/4K3 w - - 0 1", Term::Bishop);
}

#[test]
fn eval_term_rook_open_file_and_seventh() {
    assert_positive("6k1/pppp1ppp/8/8/8/8/PPPP1PPP/4R1K1 w - - 0 1", Term::Rook);
    assert_positive("6k1/1R3ppp/8/8/8/8/5PPP/6K1 w - - 0 1", Term::Rook);
    // Rook boxed in on h1 by the uncastled king on f1 (a middlegame idea: the endgame part is noise).
    assert_negative_mg("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4KNR w kq - 0 1", Term::Rook);
}

#[test]
fn eval_term_queen_weak_queen() {
    // The white queen on e2 stands behind the e4 knight on the black rook's file (a pin: a
    // middlegame idea, the endgame part is noise).
    assert_negative_mg("4r1k1/8/8/8/4N3/8/4Q3/6K1 w - - 0 1", Term::Queen);
}

#[test]
fn eval_term_mobility() {
    // Centralised white queen against a black queen boxed in by its own pawns.
    assert_positive("q3k3/pp6/8/8/3Q4/8/8/4K3 w - - 0 1", Term::Mobility);
}

#[test]
fn eval_term_king_safety_exposed_king() {
    // White king stripped of its pawns, facing queen and rook; Black's king is sheltered.
    assert_negative("3r2k1/5ppp/8/8/7q/8/8/6K1 w - - 0 1", Term::KingSafety);
    // Pawn shelter alone: White keeps f2-g2-h2, Black's pawns are gone.
    let (mg, _) = net("r5k1/8/8/8/8/8/5PPP/R5K1 w - - 0 1", Term::KingSafety);
    assert!(mg > 0, "shelter mg {mg}");
}

#[test]
fn eval_term_threats_pawn_attacks_knight() {
    assert_positive("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", Term::Threats);
    // A hanging black rook attacked by a white bishop.
    assert_positive("4k3/8/8/3r4/8/1B6/8/4K3 w - - 0 1", Term::Threats);
}

#[test]
fn eval_term_passed_pawn_on_seventh() {
    assert_positive("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", Term::PassedPawns);
    let (_, eg7) = net("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", Term::PassedPawns);
    let (_, eg4) = net("4k3/8/8/8/1P6/8/8/4K3 w - - 0 1", Term::PassedPawns);
    assert!(eg7 > eg4, "7th rank {eg7} vs 4th {eg4}");
}

#[test]
fn eval_term_space_central_pawns() {
    assert_positive("rnbqkbnr/pppppppp/8/8/2PPP3/8/PP3PPP/RNBQKBNR w KQkq - 0 1", Term::Space);
    // No space term once the pieces are gone.
    assert_eq!(net("4k3/pppppppp/8/8/2PPP3/8/PP3PPP/4K3 w - - 0 1", Term::Space), (0, 0));
}

#[test]
fn eval_term_winnable_pushes_towards_and_away_from_zero() {
    // Opposite-coloured bishops with one extra pawn: drawish, pulled towards 0.
    let f = "4k3/8/8/3b4/8/8/3B1P2/4K3 w - - 0 1";
    let (_, eg) = net(f, Term::Winnable);
    assert!(eg < 0, "OCB winnable {eg}");
    let mut off = EvalConfig::default();
    off.set_enabled(Term::Winnable, false);
    let with = evaluate_white(&pos(f), &EvalConfig::default());
    let without = evaluate_white(&pos(f), &off);
    assert!(with.abs() < without.abs(), "{with} vs {without}");
    // Knight against bare king: no winning chances at all.
    let kn = "8/8/4k3/8/8/3K4/8/4N3 b - - 0 1";
    assert!(evaluate_white(&pos(kn), &EvalConfig::default()).abs() <= 20);
    // A pawn ending with passers on both flanks: the advantage is amplified.
    let (_, eg) = net("8/pp3k2/6p1/P7/1P3K2/6P1/7P/8 w - - 0 1", Term::Winnable);
    assert!(eg > 0, "pawn ending winnable {eg}");
}

#[test]
fn eval_scores_are_sane() {
    let cfg = EvalConfig::default();
    let start = evaluate(&pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), &cfg);
    assert!((0..=30).contains(&start), "start {start}");
    // A clean extra pawn in simple endings.
    for f in ["6k1/5pp1/8/8/8/8/5PPP/6K1 w - - 0 1", "6k1/5pp1/8/8/8/8/1R3PPP/1r4K1 w - - 0 1"] {
        let v = evaluate_white(&pos(f), &cfg);
        assert!((40..=160).contains(&v), "extra pawn {v} in {f}");
    }
    // A piece up in the middlegame.
    let v = evaluate_white(&pos("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), &cfg);
    assert!((250..=450).contains(&v), "extra knight {v}");
    // Side-to-move view is the negation of White's view when Black moves.
    let p = pos("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(evaluate(&p, &cfg), -evaluate_white(&p, &cfg));
}

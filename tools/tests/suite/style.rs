//! The style fingerprint (`sparring style`) and the avatar fitter (`sparring avatar fit`): the
//! move facts on hand-made positions, their mirror symmetry, the fitter's recovery of planted
//! weights, its determinism, and the messages for bad inputs.

use shakmaty::san::San;
use shakmaty::{Chess, Move, Position, Square};
use sparring::board::{Game, parse_fen};
use sparring::eval::Term;
use sparring::human::maia3::History;
use sparring_tools::avatar::fit::{self, Point};
use sparring_tools::common::fingerprint::stats;
use sparring_tools::style::classify::{Facts, Rate, classify};
use std::path::{Path, PathBuf};

fn pos(fen: &str) -> Chess {
    parse_fen(fen).unwrap()
}

fn mv(p: &Chess, uci: &str) -> Move {
    sparring::board::notation::parse_uci(p, uci).unwrap()
}

fn facts(fen: &str, uci: &str) -> Facts {
    let p = pos(fen);
    let m = mv(&p, uci);
    classify(&p, None, m)
}

fn has(fen: &str, uci: &str, r: Rate) -> Option<bool> {
    facts(fen, uci)[r as usize]
}

/// (FEN, move, rate, expected) on hand-made positions: each rate counted where it should be and
/// not where it should not.
const CASES: &[(&str, &str, Rate, Option<bool>)] = &[
    // A capture and a quiet move.
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", Rate::Capture, Some(true)),
    ("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4e5", Rate::Capture, Some(false)),
    // A check along the back rank; the rook move that does not check.
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8", Rate::Check, Some(true)),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a2", Rate::Check, Some(false)),
    // Into the king zone (f6 is two from g8); c5 is not; a move inside the zone is not "into".
    ("6k1/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4f6", Rate::KingZone, Some(true)),
    ("6k1/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4c5", Rate::KingZone, Some(false)),
    ("6k1/8/4N3/8/8/8/8/4K3 w - - 0 1", "e6f8", Rate::KingZone, Some(false)),
    // Pawn storm: g4 against a king on g8; g3 is not far enough, and a centre king is no target.
    ("6k1/8/8/8/8/8/6P1/4K3 w - - 0 1", "g2g4", Rate::Storm, Some(true)),
    ("6k1/8/8/8/8/8/6P1/4K3 w - - 0 1", "g2g3", Rate::Storm, Some(false)),
    ("4k3/8/8/8/8/8/6P1/4K3 w - - 0 1", "g2g4", Rate::Storm, Some(false)),
    // Sacrifices: Bxf7+ gives a bishop for a pawn; Qb1 leaves the d4 knight en prise to Bb6;
    // Qd3 keeps it defended; Nc3 gives nothing.
    ("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "c4f7", Rate::Sacrifice, Some(true)),
    ("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", "b1c3", Rate::Sacrifice, Some(false)),
    ("4k3/8/1b6/8/3N4/8/7K/3Q4 w - - 0 1", "d1b1", Rate::Sacrifice, Some(true)),
    ("4k3/8/1b6/8/3N4/8/7K/3Q4 w - - 0 1", "d1d3", Rate::Sacrifice, Some(false)),
    // A queen trade on a defended square; taking an undefended queen is no trade.
    ("3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d8", Rate::QueenTrade, Some(true)),
    ("3q3k/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d8", Rate::QueenTrade, Some(false)),
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d8", Rate::QueenTrade, None),
    // A knight trade on a pawn-defended square; an undefended knight is simply won.
    ("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", Rate::PieceTrade, Some(true)),
    ("4k3/8/8/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5", Rate::PieceTrade, Some(false)),
    // Castling, where it is legal; no denominator where it is not.
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", Rate::Castles, Some(true)),
    ("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1d1", Rate::Castles, Some(false)),
    ("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1d1", Rate::Castles, None),
    // fxe3 doubles and isolates the e-pawns; a king move changes nothing.
    ("4k3/8/8/8/8/4n3/4PP2/4K3 w - - 0 1", "f2e3", Rate::StructureDamage, Some(true)),
    ("4k3/8/8/8/8/4n3/4PP2/3K4 w - - 0 1", "d1c1", Rate::StructureDamage, Some(false)),
    // A passed-pawn push; a king move by a side with a passed pawn; no passed pawn, no denominator.
    ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", Rate::PassedPush, Some(true)),
    ("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", "e1d2", Rate::PassedPush, Some(false)),
    ("4k3/2p5/8/3P4/8/8/8/4K3 w - - 0 1", "d5d6", Rate::PassedPush, None),
    // A knight retreat towards its own back rank; a knight move forward is none.
    ("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4d2", Rate::Retreat, Some(true)),
    ("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4c5", Rate::Retreat, Some(false)),
];

#[test]
fn each_rate_counts_its_examples_and_not_the_others() {
    for (fen, uci, rate, want) in CASES {
        assert_eq!(has(fen, uci, *rate), *want, "{rate:?} of {uci} in {fen}");
    }
}

#[test]
fn a_recapture_is_no_voluntary_trade() {
    // Black has just taken on d5 with the knight from c7; Nxd5 back is a recapture.
    let p = pos("4k3/8/2p5/3n4/8/4N3/8/4K3 w - - 0 1");
    let m = mv(&p, "e3d5");
    let prev = Move::Normal {
        role: shakmaty::Role::Knight,
        from: Square::C7,
        to: Square::D5,
        capture: Some(shakmaty::Role::Knight),
        promotion: None,
    };
    assert_eq!(classify(&p, Some(prev), m)[Rate::PieceTrade as usize], Some(false));
    assert_eq!(classify(&p, None, m)[Rate::PieceTrade as usize], Some(true));
}

/// The FEN of the position mirrored: ranks flipped, colours swapped.
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
    let board: Vec<String> = f[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
    let turn = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_string()
    } else {
        let mut c: Vec<char> = f[2].chars().map(swap).collect();
        c.sort_by_key(|c| (c.is_ascii_lowercase(), *c));
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_string()
    } else {
        let b = f[3].as_bytes();
        format!("{}{}", b[0] as char, if b[1] == b'3' { '6' } else { '3' })
    };
    format!("{} {turn} {castling} {ep} {} {}", board.join("/"), f.get(4).unwrap_or(&"0"), f.get(5).unwrap_or(&"1"))
}

fn mirror_move(m: Move, mirrored: &Chess) -> Move {
    let flip = |s: Square| s.flip_vertical();
    mirrored
        .legal_moves()
        .into_iter()
        .find(|x| x.from().map(flip) == m.from() && flip(x.to()) == m.to() && x.promotion() == m.promotion())
        .expect("the mirrored move is legal")
}

/// Positions for the symmetry check: the hand-made ones and some middlegames.
fn symmetry_fens() -> Vec<String> {
    let mut v: Vec<String> = CASES.iter().map(|c| c.0.to_string()).collect();
    v.extend(
        [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "2kr3r/ppp2ppp/2n5/2b1p3/4P1q1/2NP1N2/PPP2PPP/R2QKB1R w KQ - 0 9",
            "8/5pk1/6p1/3P4/3R4/6P1/5PK1/2r5 b - - 0 40",
        ]
        .map(String::from),
    );
    v
}

#[test]
fn the_mirrored_position_classifies_every_move_the_same() {
    for fen in symmetry_fens() {
        let p = pos(&fen);
        let q = pos(&mirror_fen(&fen));
        for m in p.legal_moves() {
            let mm = mirror_move(m, &q);
            assert_eq!(classify(&p, None, m), classify(&q, None, mm), "{} in {fen}", sparring::board::notation::uci(m));
        }
    }
}

#[test]
fn intervals_are_wilson_for_single_moves_and_bootstrap_for_games() {
    let (lo, hi) = stats::wilson(20.0, 100.0);
    assert!((lo - 0.1334).abs() < 1e-3 && (hi - 0.2888).abs() < 1e-3, "{lo} {hi}");
    let single: Vec<(f64, f64)> = (0..100).map(|i| (f64::from(u8::from(i < 20)), 1.0)).collect();
    assert_eq!(stats::rate(&single).method, "wilson");
    // Ten games of ten moves, all hits in two games: clustered, so wider than Wilson's 100 moves.
    let games: Vec<(f64, f64)> = (0..10).map(|i| (if i < 2 { 10.0 } else { 0.0 }, 10.0)).collect();
    let e = stats::rate(&games);
    assert_eq!(e.method, "bootstrap");
    assert!((e.value - 0.2).abs() < 1e-12);
    assert!(e.hi - e.lo > hi - lo, "clustered {:?} vs wilson [{lo}, {hi}]", e);
    // A paired difference with no disagreement has a zero-width interval at zero.
    let same: Vec<stats::Paired> = (0..50).map(|i| (f64::from(i % 2), f64::from(i % 2), 1.0)).collect();
    let d = stats::diff(&same);
    assert_eq!((d.value, d.lo, d.hi), (0.0, 0.0, 0.0));
}

/// SplitMix64 for the synthetic games.
struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The planted weights: material and king safety changed in the middlegame.
fn planted() -> [f64; fit::K] {
    let mut w = [100.0; fit::K];
    w[Term::Material.index()] = 60.0;
    w[Term::KingSafety.index()] = 180.0;
    w
}

/// `games` games in which "Planted" (White in even games, Black in odd ones) draws each move from
/// the point's choice model with the planted weights and "Plain" from it with weights 100, after
/// two opening moves that differ per game; PGN text.
fn synthetic_pgn(point: &Point, games: usize, plies: usize) -> String {
    let mut rng = Rng(7);
    let mut out = String::new();
    let planted = planted();
    for g in 0..games {
        let mut game = Game::new(Chess::default());
        let mut look = sparring::search::Searcher::for_look();
        let mut sans = Vec::new();
        // The game's positions as the fitter hands them to the human move model v7.
        let mut positions = vec![game.pos().clone()];
        for ply in 0..plies {
            let pos = game.pos().clone();
            let history = point.maia3.as_ref().map(|_| History::from_positions(positions.clone()));
            let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
            if legal.is_empty() {
                break;
            }
            let planted_moves = (ply % 2 == 0) == (g % 2 == 0);
            let m = if ply < 2 {
                legal[(g * 7 + ply * 3) % legal.len()]
            } else if let Some(c) = fit::choices(&mut look, &game, point, history.as_ref()) {
                let w = fit::shared(if planted_moves { &planted } else { &[100.0; fit::K] });
                let p = fit::softmax(&fit::logits(&c.moves, &c.offset, &w, point.model));
                // A slip: any legal move alike, as the fitter models it.
                if rng.unit() < point.model.slip {
                    let i = ((rng.unit() * c.legal.len() as f64) as usize).min(c.legal.len() - 1);
                    sans.push(San::from_move(&pos, c.legal[i]).to_string());
                    game.make(c.legal[i]);
                    game.reset_depth();
                    positions.push(game.pos().clone());
                    continue;
                }
                let mut u = rng.unit();
                let mut pick = p.len() - 1;
                for (i, q) in p.iter().enumerate() {
                    if u < *q {
                        pick = i;
                        break;
                    }
                    u -= q;
                }
                c.legal[pick]
            } else {
                legal[0]
            };
            sans.push(San::from_move(&pos, m).to_string());
            game.make(m);
            game.reset_depth();
            positions.push(game.pos().clone());
        }
        let (white, black) = if g % 2 == 0 { ("Planted", "Plain") } else { ("Plain", "Planted") };
        out.push_str(&format!(
            "[Event \"synthetic\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"*\"]\n[WhiteElo \"{elo}\"]\n[BlackElo \"{elo}\"]\n\n",
            elo = point.elo
        ));
        for (i, s) in sans.iter().enumerate() {
            if i % 2 == 0 {
                out.push_str(&format!("{}. ", i / 2 + 1));
            }
            out.push_str(s);
            out.push(' ');
        }
        out.push_str("*\n\n");
    }
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sparring-style-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn sparring(args: &[&str]) -> (i32, String, String) {
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The point that plays the synthetic games: of the built-in ladder's depth-limited (cheap) points
/// the one whose choice weighs the evaluation most (largest λ; the lower on a tie). An avatar's
/// weights change a point's choices in proportion to its λ, so at a point that chooses almost by
/// the human move model alone (λ well below 1) planted weights leave too little trace to fit.
fn synthetic_point() -> Point {
    let ladder = sparring::profile::Ladder::builtin();
    let cheap = ladder.points.iter().map(|p| ladder.at(p.elo)).filter(|l| l.depth.is_some());
    let best = cheap
        .map(|l| (l.choice.lambda.unwrap_or(1.0), -l.elo))
        .max_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .expect("the ladder has depth-limited points");
    assert!(
        best.0 >= 2.0,
        "no depth-limited ladder point weighs the evaluation enough for an avatar (largest λ {})",
        best.0
    );
    Point::nearest(f64::from(-best.1))
}

/// The synthetic PGN of 30 games at [`synthetic_point`], written once per test process.
fn synthetic_file() -> PathBuf {
    static FILE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let dir = temp_dir("synthetic");
        let path = dir.join("planted.pgn");
        std::fs::write(&path, synthetic_pgn(&synthetic_point(), 30, 60)).unwrap();
        path
    })
    .clone()
}

/// The point and the decisions of `name` ("Planted" or "Plain") in the synthetic file.
fn synthetic_decisions(name: &str) -> (Point, Vec<fit::Decision>) {
    let point = synthetic_point();
    let games = sparring_tools::common::games::read_games(&synthetic_file()).unwrap();
    let mine: Vec<(usize, &sparring_tools::common::games::GameRecord)> = games.iter().enumerate().collect();
    let ds = fit::decisions(&mine, name, &point, &|| {});
    (point, ds)
}

#[test]
fn the_fitter_recovers_planted_weights() {
    let (point, ds) = synthetic_decisions("Planted");
    assert!(ds.len() > 600, "{} decisions", ds.len());
    let w = fit::fit(&ds, point.model, fit::Settings::likelihood(0.002), &|_| {});
    let truth = planted();
    let ll = |w: &[f64; fit::K]| fit::mean_log_likelihood(&ds, &fit::shared(w), point.model);
    assert!(ll(&w) > ll(&[100.0; fit::K]) + 0.01, "fit {} vs plain {}", ll(&w), ll(&[100.0; fit::K]));
    for t in [Term::Material, Term::KingSafety] {
        let i = t.index();
        let (got, want) = (w[i], truth[i]);
        assert!(
            (got - want).abs() < 0.5 * (100.0 - want).abs(),
            "{}(mg): fitted {got:.1}, planted {want} (from 100)",
            t.name()
        );
    }
    // The opponent's moves were drawn with weights 100: fitting them stays near 100 on material.
    let (_, theirs) = synthetic_decisions("Plain");
    let w0 = fit::fit(&theirs, point.model, fit::Settings::likelihood(0.002), &|_| {});
    let m = Term::Material.index();
    assert!((w0[m] - 100.0).abs() < 20.0, "plain player's Material(mg) fitted {:.1}", w0[m]);
}

/// The style hold moves the model's expected fingerprint rates towards the player's own: on the
/// planted player's moves, a fit that also holds the rates ends with a smaller squared gap than the
/// same fit without the hold, and the rates the fitter reports are the played moves' shares.
#[test]
fn the_style_hold_brings_the_expected_rates_to_the_players() {
    let (point, ds) = synthetic_decisions("Planted");
    let theirs = fit::player_rates(&ds);
    let captures = ds.iter().filter(|d| d.facts[d.played][Rate::Capture as usize] == Some(true)).count();
    assert_eq!(theirs[Rate::Capture as usize], Some(captures as f64 / ds.len() as f64));
    let gap = |w: &[f64; fit::K]| -> f64 {
        let e = fit::expected_rates(&ds, &fit::shared(w), point.model);
        e.iter().zip(&theirs).filter_map(|(e, t)| Some((e.as_ref()? - t.as_ref()?).powi(2))).sum()
    };
    let free = fit::fit(&ds, point.model, fit::Settings::likelihood(0.002), &|_| {});
    let held = fit::fit(&ds, point.model, fit::Settings { hold: 50.0, ..fit::Settings::likelihood(0.002) }, &|_| {});
    assert!(gap(&held) < 0.9 * gap(&free), "gap held {:.6} vs free {:.6}", gap(&held), gap(&free));
    assert!(gap(&held) < gap(&[100.0; fit::K]), "gap held {:.6} vs plain {:.6}", gap(&held), gap(&[100.0; fit::K]));
}

/// The fitter's model of a sided avatar is the engine's: on the moves from the start (no capture
/// follows any of them, so the quiescence leaf is the position after the move), the model's value
/// under the avatar's per-side weights is the avatar's evaluation there, and its style difference
/// is the engine's tilt ([`sparring::human::v6::style_tilt`]), up to integer rounding.
#[test]
fn the_fit_model_values_a_sided_avatar_as_the_engine_does() {
    let avatar =
        sparring::profile::Avatar::load(PathBuf::from(env!("SPARRING_REPO")).join("avatars/italian.avt")).unwrap();
    assert!(avatar.is_sided(), "italian.avt weighs the two sides alike: pick a sided avatar");
    let point = Point::nearest(1500.0);
    let pos = Chess::default();
    let mut styled = point.eval.clone();
    avatar.apply(&mut styled, shakmaty::Color::White);
    let w = fit::weights_of(&avatar);
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let tilt = sparring::human::v6::style_tilt(&pos, &moves, &styled, &point.eval);
    let mut moved = 0;
    for (i, &m) in moves.iter().enumerate() {
        let (_, v) = fit::move_value(&pos, m, &point.eval);
        let mut after = pos.clone();
        after.play_unchecked(m);
        let engine = -sparring::eval::evaluate(&after, &styled);
        assert!((v.value(&w) - f64::from(engine)).abs() <= 3.0, "{m}: model {:.1}, engine {engine}", v.value(&w));
        let plain = -sparring::eval::evaluate(&after, &point.eval);
        assert!((v.value(&fit::shared(&[100.0; fit::K])) - f64::from(plain)).abs() <= 1.0, "{m}: plain value");
        let d = v.style_diff(&w).clamp(-1.0, 1.0);
        assert!((d - tilt[i]).abs() <= 0.03, "{m}: model Δ {d:.3}, engine tilt {:.3}", tilt[i]);
        moved += usize::from(tilt[i].abs() >= 0.05);
    }
    assert!(moved >= 3, "the avatar moves the tilt of only {moved} opening moves: the check compares zeros");
}

#[test]
fn a_fit_is_deterministic_and_reads_back_as_an_avatar() {
    let pgn = synthetic_file();
    let dir = pgn.parent().unwrap().to_path_buf();
    let (a, b) = (dir.join("a.avt"), dir.join("b.avt"));
    for out in [&a, &b] {
        let (code, _, err) =
            sparring(&["avatar", "fit", pgn.to_str().unwrap(), "--player", "Planted", "--out", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    }
    let (x, y) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(x, y, "two fits of the same games differ");
    let avatar = sparring::profile::Avatar::load(&a).unwrap();
    assert!(avatar.mg[Term::Material.index()] < 100, "{}", avatar.describe());
    let elo = synthetic_point().elo;
    let text = String::from_utf8(x).unwrap();
    assert!(text.contains(&format!("ladder point {elo}")));
    // Without --pull the pull is chosen by cross-validation; the default style hold is recorded.
    assert!(text.contains("chosen by two-fold cross-validation"), "{text}");
    assert!(text.contains(&format!("style hold {}", sparring_tools::avatar::HOLD)), "{text}");
}

/// The pull a fit chooses is one of the grid's, the same on every run, and its score is the best.
#[test]
fn the_pull_is_chosen_on_held_out_games() {
    let (point, ds) = synthetic_decisions("Planted");
    let s = fit::Settings::likelihood(0.0);
    let (a, scores) = fit::choose_pull(&ds, point.model, s, &|_| {});
    let (b, _) = fit::choose_pull(&ds, point.model, s, &|_| {});
    assert_eq!(a, b);
    assert_eq!(scores.len(), fit::PULL_GRID.len());
    let top = scores.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
    assert_eq!(scores.iter().find(|x| x.0 == a).unwrap().1, top, "{scores:?}");
}

/// A fit centred on a sided avatar moves from it and keeps its asymmetry: held hard by the pull it
/// gives the avatar back (every side's weight), and its weights stay within 0-200 on both sides.
#[test]
fn a_centred_fit_starts_from_the_avatar_and_keeps_its_sides() {
    let (point, ds) = synthetic_decisions("Planted");
    let avatar =
        sparring::profile::Avatar::load(PathBuf::from(env!("SPARRING_REPO")).join("avatars/attacker.avt")).unwrap();
    assert!(avatar.is_sided(), "attacker.avt weighs the two sides alike: pick a sided avatar");
    let base = fit::weights_of(&avatar);
    assert_eq!(fit::placed(&[100.0; fit::K], &base), base);
    let s = fit::Settings { base, ..fit::Settings::likelihood(1e6) };
    let held = fit::fit(&ds, point.model, s, &|_| {});
    let back = fit::to_avatar(&held, &base, "x");
    assert_eq!((back.mg, back.eg, back.opp_mg, back.opp_eg), (avatar.mg, avatar.eg, avatar.opp_mg, avatar.opp_eg));
    // Free, it moves towards the planted weights, each side within its bounds.
    let free = fit::fit(&ds, point.model, fit::Settings { base, ..fit::Settings::likelihood(0.002) }, &|_| {});
    let ws = fit::placed(&free, &base);
    assert!(ws.iter().all(|x| (0.0..=200.0).contains(x)), "{ws:?}");
    let m = Term::Material.index();
    assert!(ws[m] < base[m] - 10.0, "Material(mg) {:.1} from the centre's {}", ws[m], base[m]);
    let ll = |w: &fit::SideWeights| fit::mean_log_likelihood(&ds, w, point.model);
    assert!(ll(&ws) > ll(&base) + 0.01, "fit {} vs centre {}", ll(&ws), ll(&base));
}

/// The held-out expected match a fit records: fitted on one fold of the games and scored on the
/// other, the planted player's fit beats the same fit held at the plain point, whose score is the
/// plain point's own match.
#[test]
fn the_held_out_match_rewards_a_fit_that_generalises() {
    let (point, ds) = synthetic_decisions("Planted");
    let free = fit::held_out_match(&ds, point.model, fit::Settings::likelihood(0.002), None);
    let held = fit::held_out_match(&ds, point.model, fit::Settings::likelihood(1e6), None);
    assert!(free > held + 0.005, "held-out match: fit {free:.4}, held at plain {held:.4}");
    let plain = fit::mean_match(&ds, &fit::PLAIN, point.model);
    assert!((held - plain).abs() < 0.01, "held at plain {held:.4}, the plain point's match {plain:.4}");
}

/// `--centre` over the command line: the header names the centre chosen and how.
#[test]
fn a_fit_names_its_centre() {
    let pgn = synthetic_file();
    let attacker = PathBuf::from(env!("SPARRING_REPO")).join("avatars/attacker.avt");
    let args = ["avatar", "fit", pgn.to_str().unwrap(), "--player", "Planted", "--pull", "0.01", "--no-leans"];
    let (code, out, err) = sparring(&[&args[..], &["--centre", attacker.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("the centre chosen by two-fold cross-validation"), "{out}");
    assert!(out.contains("per centre: plain point "), "{out}");
    assert!(out.contains("held-out expected match of these settings "), "{out}");
    let centre = if out.contains("centre attacker.avt,") { "attacker.avt" } else { "plain point" };
    assert!(out.contains(&format!("centre {centre}, pull 0.01")), "{out}");
    sparring::profile::Avatar::parse(&out, "fitted").expect("the fit reads back as an avatar");
    let (code, plain, err) = sparring(&args);
    assert_eq!(code, 0, "{err}");
    assert!(plain.contains("centre plain point, pull 0.01, style hold"), "{plain}");
}

/// Among candidate centres, cross-validation picks the one the moves were drawn from: the planted
/// player's weights win over the plain point and over an avatar that leans the other way.
#[test]
fn the_centre_is_chosen_on_held_out_games() {
    let (point, ds) = synthetic_decisions("Planted");
    let planted = fit::shared(&planted());
    let mut wrong = [100.0; fit::K];
    wrong[Term::Material.index()] = 140.0;
    wrong[Term::KingSafety.index()] = 40.0;
    let centres = [fit::PLAIN, fit::shared(&wrong), planted];
    let s = fit::Settings::likelihood(0.0);
    let (k, pull, scores) = fit::choose_centre(&ds, point.model, s, &centres, Some(1.0), &|_| {});
    assert_eq!((k, pull), (2, 1.0), "{scores:?}");
    assert!(scores[2] > scores[0] && scores[0] > scores[1], "{scores:?}");
    assert_eq!(fit::choose_centre(&ds, point.model, s, &centres, Some(1.0), &|_| {}).0, k);
}

fn expect_failure(args: &[&str], message: &str) {
    let (code, out, err) = sparring(args);
    assert_eq!(code, 1, "{args:?}: exit {code}, stdout {out}, stderr {err}");
    assert!(err.contains(message), "{args:?}: stderr {err:?} lacks {message:?}");
}

#[test]
fn bad_inputs_get_clear_messages() {
    let dir = temp_dir("bad");
    let pgn = synthetic_file();
    let p = pgn.to_str().unwrap();
    expect_failure(&["avatar", "fit", p, "--player", "Nobody"], "no player named 'Nobody'");
    expect_failure(&["avatar", "fit", p, "--player", "Planted", "--part", "first"], "a fit needs at least 30");
    let missing = dir.join("missing.pgn");
    expect_failure(&["avatar", "fit", missing.to_str().unwrap(), "--player", "X"], "cannot read the PGN");
    let garbage = dir.join("garbage.pgn");
    std::fs::write(&garbage, [0xffu8, 0xfe, 0x00, 0x13]).unwrap();
    expect_failure(&["avatar", "fit", garbage.to_str().unwrap(), "--player", "X"], "no games in the file");
    expect_failure(&["style", p, "--player", "Nobody"], "no player named 'Nobody'");
    expect_failure(&["style", missing.to_str().unwrap(), "--player", "X"], "missing.pgn");
    let (code, _, _) = sparring(&["avatar", "fit", p]);
    assert_eq!(code, 2, "a missing --player is a usage error");
    let bad_centre = dir.join("bad-centre.avt");
    std::fs::write(&bad_centre, "Material(mg)=999\n").unwrap();
    expect_failure(&["avatar", "fit", p, "--player", "Planted", "--centre", bad_centre.to_str().unwrap()], "--centre");
    expect_failure(
        &["avatar", "fit", p, "--player", "Planted", "--centre", dir.join("none.avt").to_str().unwrap()],
        "none.avt",
    );
    let fit_with = |style: &std::path::Path| {
        vec!["avatar", "fit", p, "--player", "Planted", "--engine-style", style.to_str().unwrap()]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let args = fit_with(&dir.join("no-style.json"));
    expect_failure(&args.iter().map(String::as_str).collect::<Vec<_>>(), "no-style.json");
    let no_rows = dir.join("no-rows.json");
    std::fs::write(&no_rows, "{\"source\": \"x\"}").unwrap();
    let args = fit_with(&no_rows);
    expect_failure(&args.iter().map(String::as_str).collect::<Vec<_>>(), "no \"rows\"");
    let no_diff = dir.join("no-diff.json");
    std::fs::write(&no_diff, "{\"rows\": [{\"key\": \"capture\", \"estimate\": {\"value\": 0.2}}]}").unwrap();
    let args = fit_with(&no_diff);
    expect_failure(&args.iter().map(String::as_str).collect::<Vec<_>>(), "run `sparring style` with --compare");
    let mut both = fit_with(&no_diff);
    both.push("--measure-gap".to_string());
    let (code, _, err) = sparring(&both.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(code, 2, "--engine-style with --measure-gap is a usage error: {err}");
}

/// With the engine's measured gap to the player, the hold's target is the model's plain rate less
/// that gap (clamped to 0-1), and the player's own rate where no gap is known; read back from a
/// `style --json --compare` output.
#[test]
fn the_engine_gap_sets_the_hold_target() {
    let (point, ds) = synthetic_decisions("Planted");
    let theirs = fit::player_rates(&ds);
    let plain = fit::expected_rates(&ds, &[100.0; fit::KS], point.model);
    let (c, k) = (Rate::Capture as usize, Rate::Check as usize);
    assert_eq!(fit::hold_targets(&ds, point.model, None), theirs);
    let dir = temp_dir("gap");
    let file = dir.join("plain.json");
    std::fs::write(&file, "{\"rows\": [{\"key\": \"capture\", \"diff\": {\"value\": 0.05}}]}").unwrap();
    let gap = sparring_tools::avatar::read_gap(&file).unwrap();
    assert_eq!(gap[c], Some(0.05));
    assert_eq!(gap[k], None);
    let t = fit::hold_targets(&ds, point.model, Some(&gap));
    assert!((t[c].unwrap() - (plain[c].unwrap() - 0.05).clamp(0.0, 1.0)).abs() < 1e-12, "{t:?} {plain:?}");
    assert_eq!(t[k], theirs[k]);
    // Gaps under several engine seeds are averaged where every run knows the rate.
    let mut other = gap;
    other[c] = Some(0.01);
    other[k] = Some(0.02);
    let mean = sparring_tools::avatar::mean_gap(&[gap, other]);
    assert!((mean[c].unwrap() - 0.03).abs() < 1e-12);
    assert_eq!(mean[k], None, "a rate one run lacks has no mean");
}

#[test]
fn a_player_fingerprint_counts_their_moves_and_games() {
    let pgn = synthetic_file();
    let (code, out, err) = sparring(&["style", pgn.to_str().unwrap(), "--player", "Planted", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = v["rows"].as_array().unwrap();
    let row = |k: &str| rows.iter().find(|r| r["key"] == k).unwrap()["estimate"].clone();
    let games = sparring_tools::common::games::read_games(&pgn).unwrap();
    let theirs: usize =
        games.iter().map(|g| if g.white == "Planted" { g.moves.len().div_ceil(2) } else { g.moves.len() / 2 }).sum();
    let length: f64 = games.iter().map(|g| g.moves.len().div_ceil(2) as f64).sum::<f64>() / games.len() as f64;
    assert_eq!(row("capture")["n"], theirs as f64);
    assert_eq!(row("capture")["method"], "bootstrap");
    assert_eq!(row("game_length")["value"], length);
    // Unfinished games ("*") have no result, so no draw rate.
    assert_eq!(row("draw")["n"], 0.0);
}

#[test]
fn an_engine_run_resumes_from_its_record() {
    let dir = temp_dir("record");
    let fens = dir.join("three.epd");
    std::fs::write(
        &fens,
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4\n4k3/8/8/3p4/4P3/8/8/4K3 w - -\n# a comment\n3qk3/8/8/8/8/8/8/3QK3 w - - 0 1\n",
    )
    .unwrap();
    let record = dir.join("rec.tsv");
    let args =
        ["style", fens.to_str().unwrap(), "--engine", "--go", "depth 2", "--record", record.to_str().unwrap(), "--csv"];
    let (code, first, err) = sparring(&args);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(first.contains("capture,3,"), "{first}");
    // Cut the last answer off: the rerun asks only that position and prints the same table.
    let kept: Vec<&str> = text.lines().take(3).collect();
    std::fs::write(&record, kept.join("\n") + "\n").unwrap();
    let (code, second, err) = sparring(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(first, second);
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 4);
    // The record refuses another setting.
    let other = ["style", fens.to_str().unwrap(), "--go", "depth 3", "--record", record.to_str().unwrap()];
    expect_failure(&other, "recorded for another setting");
}

#[test]
fn both_colours_are_read_from_the_pgn_side_filter() {
    let pgn = synthetic_file();
    let white = sparring(&["style", pgn.to_str().unwrap(), "--side", "white", "--csv"]).1;
    let black = sparring(&["style", pgn.to_str().unwrap(), "--side", "black", "--csv"]).1;
    let all = sparring(&["style", pgn.to_str().unwrap(), "--csv"]).1;
    let n = |csv: &str| -> f64 {
        csv.lines().find(|l| l.starts_with("check,")).unwrap().split(',').nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(n(&white) + n(&black), n(&all));
    let games = sparring_tools::common::games::read_games(&pgn).unwrap();
    assert_eq!(n(&white), games.iter().map(|g| g.moves.len().div_ceil(2) as f64).sum::<f64>());
}

/// `--player` (with `--part`) picks the positions an engine is asked about, not only the moves a
/// PGN fingerprint counts: the player's own positions, the half of their games `avatar fit` uses.
#[test]
fn a_players_positions_are_sampled_for_engines_and_split_in_halves() {
    let pgn = synthetic_file();
    let count = |extra: &[&str]| -> (f64, String) {
        let mut args = vec!["style", pgn.to_str().unwrap(), "--humans", "--positions", "10000", "--min-ply", "0"];
        args.extend_from_slice(extra);
        args.push("--json");
        let (code, out, err) = sparring(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        (v["rows"][0]["estimate"]["n"].as_f64().unwrap(), v["source"].as_str().unwrap().to_string())
    };
    // 30 games of 60 plies: 1800 positions, 900 of them before Planted's moves (a few forced).
    let (all, _) = count(&[]);
    let (mine, _) = count(&["--player", "Planted"]);
    let (first, s1) = count(&["--player", "Planted", "--part", "first"]);
    let (second, s2) = count(&["--player", "Planted", "--part", "second"]);
    assert!((1750.0..=1800.0).contains(&all), "{all} positions of both players");
    assert!((880.0..=900.0).contains(&mine), "{mine} positions of Planted");
    assert_eq!(first + second, mine, "the halves split the player's positions");
    assert!((440.0..=450.0).contains(&first) && (440.0..=450.0).contains(&second), "{first} + {second}");
    assert_ne!(s1, s2, "the two halves are different position sets");
    // The PGN fingerprint of the same half counts the same player's moves (forced ones too).
    let (code, out, err) = sparring(&["style", pgn.to_str().unwrap(), "--player", "Planted", "--part", "second"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("15 game sides, 450 moves"), "{out}");
    expect_failure(&["style", pgn.to_str().unwrap(), "--player", "Nobody", "--humans"], "no player named 'Nobody'");
}

/// `dir/one.pgn`: one unfinished game between Ann (1500) and Bob (1520) with these moves.
fn one_game(dir: &Path, moves: &str) -> PathBuf {
    let pgn = dir.join("one.pgn");
    let head = "[White \"Ann\"]\n[Black \"Bob\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1520\"]\n[Result \"*\"]\n";
    std::fs::write(&pgn, format!("{head}\n{moves}\n")).unwrap();
    pgn
}

/// `--facts-out` writes each position's classified move: captures and the check counted where
/// they were played, every row in the rates' denominators agreeing with the printed rates.
#[test]
fn the_facts_file_holds_each_positions_classified_move() {
    let dir = temp_dir("facts");
    let pgn = one_game(&dir, "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ *");
    let (record, facts) = (dir.join("humans.tsv"), dir.join("facts.tsv"));
    let (p, r, f) = (pgn.to_str().unwrap(), record.to_str().unwrap(), facts.to_str().unwrap());
    let args =
        ["style", p, "--humans", "--positions", "100", "--min-ply", "0", "--record", r, "--facts-out", f, "--json"];
    let (code, out, err) = sparring(&args);
    assert_eq!(code, 0, "{err}");
    let moves: std::collections::BTreeMap<String, String> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let (i, m) = l.split_once('\t').unwrap();
            (i.to_string(), m.to_string())
        })
        .collect();
    let text = std::fs::read_to_string(&facts).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    assert_eq!(&head[..4], ["index", "game", "capture", "check"]);
    assert_eq!(head.len(), 2 + 11);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 6, "{text}");
    let col = |key: &str| head.iter().position(|h| *h == key).unwrap();
    for row in &rows {
        let mv = moves[row[0]].as_str();
        let capture = if ["e4d5", "d8d5"].contains(&mv) { "1" } else { "0" };
        assert_eq!(row[col("capture")], capture, "{mv}: {row:?}");
        assert_eq!(row[col("check")], if mv == "d5e5" { "1" } else { "0" }, "{mv}: {row:?}");
    }
    // Each rate of the facts is the printed rate.
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for r in v["rows"].as_array().unwrap() {
        let Some(i) = head.iter().position(|h| *h == r["key"].as_str().unwrap()) else { continue };
        let counted: Vec<&str> = rows.iter().map(|row| row[i]).filter(|x| *x != "-").collect();
        assert_eq!(r["estimate"]["n"].as_f64().unwrap(), counted.len() as f64, "{}", r["key"]);
        if !counted.is_empty() {
            let hits = counted.iter().filter(|x| **x == "1").count() as f64;
            let value = r["estimate"]["value"].as_f64().unwrap();
            assert!((value - hits / counted.len() as f64).abs() < 1e-12, "{}", r["key"]);
        }
    }
}

#[test]
fn the_humans_own_moves_are_a_record_engines_compare_against() {
    let dir = temp_dir("humans");
    let pgn = one_game(&dir, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
    let (p, record) = (pgn.to_str().unwrap(), dir.join("humans.tsv"));
    let r = record.to_str().unwrap();
    let args = ["style", p, "--humans", "--positions", "100", "--min-ply", "0", "--record", r, "--json"];
    let (code, out, err) = sparring(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let capture = v["rows"].as_array().unwrap().iter().find(|r| r["key"] == "capture").unwrap()["estimate"].clone();
    assert_eq!(capture["n"], 6.0, "every ply of both players");
    assert_eq!(capture["value"], 0.0, "no captures in the game");
    let text = std::fs::read_to_string(&record).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().ends_with("humans (the moves played in the games)"));
    let moves: Vec<&str> = lines.map(|l| l.split('\t').nth(1).unwrap()).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
    // The players against themselves: no difference in any rate.
    let args = ["style", p, "--humans", "--positions", "100", "--min-ply", "0", "--compare", r, "--json"];
    let (code, out, err) = sparring(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["rows"].as_array().unwrap().iter().all(|r| r["diff"]["value"].as_f64().is_none_or(|x| x == 0.0)),
        "{out}"
    );
    // A FEN file has no players' moves; --humans with an engine is a usage error.
    let fens = dir.join("p.fen");
    std::fs::write(&fens, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n").unwrap();
    expect_failure(&["style", fens.to_str().unwrap(), "--humans"], "--humans needs positions sampled from a PGN");
    let (code, _, _) = sparring(&["style", p, "--humans", "--option", "Seed=2"]);
    assert_eq!(code, 2);
}

/// Leans planted in the point's choice (the played moves redrawn from it with the planted leans) are
/// what the lean fit finds again, and moves of no planted kind get leans near 0.
#[test]
fn the_lean_fit_recovers_planted_leans() {
    let (point, mut ds) = synthetic_decisions("Planted");
    ds.extend(synthetic_decisions("Plain").1);
    assert!(point.model.lean > 0.0, "the synthetic point chooses with the human move model");
    let mut planted = [0.0; Rate::COUNT];
    planted[Rate::Capture as usize] = 1.0;
    planted[Rate::Retreat as usize] = -1.0;
    let w = [100.0; fit::KS];
    let leaned = fit::with_leans(&ds, &planted, point.model);
    let mut rng = Rng(11);
    for (d, l) in ds.iter_mut().zip(&leaned) {
        let p = fit::probabilities(l, &w, point.model).1;
        let mut u = rng.unit();
        d.played = p.len() - 1;
        for (i, q) in p.iter().enumerate() {
            if u < *q {
                d.played = i;
                break;
            }
            u -= q;
        }
    }
    let b = fit::fit_leans(&ds, &w, point.model, fit::Settings::likelihood(0.0));
    for r in Rate::ALL {
        let (got, want) = (b[r as usize], planted[r as usize]);
        let n = ds.iter().filter(|d| d.facts[d.played][r as usize] == Some(true)).count();
        if want != 0.0 {
            assert!((got - want).abs() < 0.4, "{}: fitted {got:.2}, planted {want} ({n} played)", r.key());
        } else if n >= 30 {
            assert!(got.abs() < 0.5, "{}: fitted {got:.2}, planted 0 ({n} played)", r.key());
        }
    }
    // The fit is deterministic, and a point without the model fits no leans.
    assert_eq!(b, fit::fit_leans(&ds, &w, point.model, fit::Settings::likelihood(0.0)));
    let blind = fit::Model { lean: 0.0, ..point.model };
    assert_eq!(fit::fit_leans(&ds, &w, blind, fit::Settings::likelihood(0.0)), [0.0; Rate::COUNT]);
}

/// At a ladder point that chooses with the human move model v7, the fitter's model term is β ·
/// Maia-3's log-probability of each legal move at the point's model ratings, asked with the game's
/// last positions as the engine asks (not the position alone).
#[test]
fn a_maia3_point_fits_with_the_games_history() {
    let point = Point::nearest(1500.0);
    let Some(m3) = point.maia3.clone() else { panic!("the built-in ladder's 1500 chooses with Maia-3") };
    let beta = point.human.as_ref().expect("1500 chooses with a model").0;
    let root = Chess::default();
    let mut pos = root.clone();
    let mut moves = Vec::new();
    for t in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"] {
        let m = sparring::board::notation::parse_uci(&pos, t).expect("legal");
        pos.play_unchecked(m);
        moves.push(m);
    }
    let mut game = Game::new(root.clone());
    for &m in &moves {
        game.make(m);
        game.reset_depth();
    }
    let history = History::game(&root, &moves).expect("a legal game");
    let mut look = sparring::search::Searcher::for_look();
    let with = fit::choices(&mut look, &game, &point, Some(&history)).expect("a modelled position");
    let alone = fit::choices(&mut look, &game, &point, None).expect("a modelled position");
    let model = sparring::human::maia3::builtin().expect("the built-in weights");
    let dist = model.distribution(&history, m3.self_elo.round() as i64, m3.oppo_elo.round() as i64);
    for (m, o) in with.legal.iter().zip(&with.offset) {
        let lp = dist.iter().find(|d| d.mv == *m).expect("every legal move has a probability").log_prob;
        assert!((o - beta * lp).abs() < 1e-3 * beta, "{m}: offset {o}, β·ln P {}", beta * lp);
    }
    let moved = with.offset.iter().zip(&alone.offset).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(moved > 1e-3, "the game's history changed no move's model term");
}

//! The human move model v7 (Maia-3 5M, `src/human/maia3`): known answers from onnxruntime, the
//! README's sanity check, mirrored positions, history, refused files, determinism across runs,
//! batching and kernels, and the manifest entry of the shipped weights.

use shakmaty::{Chess, Move, Position, Square};
use sparring::board::{mirror, notation::parse_uci};
use sparring::human::maia3::math::Kernel;
use sparring::human::maia3::weights::{MAGIC, VERSION, expected_shapes};
use sparring::human::maia3::{self, History, Maia3, Query};

fn model() -> &'static Maia3 {
    maia3::builtin().expect("the embedded weights load")
}

/// The positions after playing `moves` (UCI) from the start: (root, moves, final position).
fn play(moves: &[&str]) -> (Vec<Move>, Chess) {
    let mut pos = Chess::default();
    let mut out = Vec::new();
    for m in moves {
        let mv = parse_uci(&pos, m).unwrap();
        pos = pos.play(mv).unwrap();
        out.push(mv);
    }
    (out, pos)
}

fn prob(d: &[maia3::MoveProb], uci: &str) -> f64 {
    d.iter().find(|m| sparring::board::notation::uci(m.mv) == uci).map(|m| m.log_prob.exp()).unwrap()
}

#[test]
fn maia3_known_answers() {
    let text = include_str!("../golden/maia3-known.json");
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    let cases = v["cases"].as_array().unwrap();
    assert!(cases.len() >= 20);
    let mut worst = 0f32;
    for case in cases {
        let moves: Vec<&str> = case["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let (mv, pos) = play(&moves);
        let h = if case["history"].as_bool().unwrap() {
            History::game(&Chess::default(), &mv).unwrap()
        } else {
            History::position(pos)
        };
        let (s, o) = (case["self_elo"].as_i64().unwrap(), case["oppo_elo"].as_i64().unwrap());
        let d = model().distribution(&h, s, o);
        let want = case["legal_logits"].as_object().unwrap();
        assert_eq!(d.len(), want.len(), "legal moves after {moves:?}");
        for m in &d {
            let uci = sparring::board::notation::uci(m.mv);
            let w = want[&uci].as_f64().unwrap() as f32;
            worst = worst.max((m.logit - w).abs());
        }
    }
    println!("known answers: {} cases, max |logit - onnxruntime| = {worst:.2e}", cases.len());
    assert!(worst <= 1e-3, "max abs logit difference {worst}");
}

#[test]
fn maia3_ruy_lopez_sanity_check() {
    // The anchor README: after 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6, Bxc6 is preferred at 800 (p ≈ 0.58),
    // Ba4 ≈ Bxc6 at 1500 (0.57 / 0.41), Ba4 at 2200 (0.83).
    let (mv, _) = play(&["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"]);
    let h = History::game(&Chess::default(), &mv).unwrap();
    let d = model().distributions(&h, &[(800, 800), (1500, 1500), (2200, 2200)]);
    let (bxc6, ba4): (Vec<f64>, Vec<f64>) = d.iter().map(|d| (prob(d, "b5c6"), prob(d, "b5a4"))).unzip();
    println!("Bxc6 {bxc6:.3?}, Ba4 {ba4:.3?}");
    assert!((bxc6[0] - 0.58).abs() < 0.02 && bxc6[0] > ba4[0]);
    assert!((ba4[1] - 0.57).abs() < 0.02 && (bxc6[1] - 0.41).abs() < 0.02);
    assert!((ba4[2] - 0.83).abs() < 0.02);
}

fn mirror_move(m: &Move) -> Move {
    let f = |s: Square| s.flip_vertical();
    match *m {
        Move::Normal { role, from, capture, to, promotion } => {
            Move::Normal { role, from: f(from), capture, to: f(to), promotion }
        }
        Move::EnPassant { from, to } => Move::EnPassant { from: f(from), to: f(to) },
        Move::Castle { king, rook } => Move::Castle { king: f(king), rook: f(rook) },
        Move::Put { role, to } => Move::Put { role, to: f(to) },
    }
}

#[test]
fn maia3_mirrored_positions_give_mirrored_distributions() {
    // A game with castling rights, an en-passant chance and both colours to move.
    let (mv, _) = play(&["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3"]);
    for upto in [3, 7, 11] {
        let h = History::game(&Chess::default(), &mv[..upto]).unwrap();
        let flipped = History::from_positions(h.positions().iter().map(|p| mirror(p).unwrap()).collect());
        assert_eq!(h.tokens(), flipped.tokens(), "the model sees the same board from the mover's side");
        let (a, b) = (model().distribution(&h, 1400, 1700), model().distribution(&flipped, 1400, 1700));
        assert_eq!(a.len(), b.len());
        for m in &a {
            let twin = b.iter().find(|x| x.mv == mirror_move(&m.mv)).expect("the mirrored move is legal");
            assert_eq!(m.log_prob.to_bits(), twin.log_prob.to_bits(), "{}", m.mv);
        }
    }
}

#[test]
fn maia3_history_matters_where_it_should() {
    let model = model();
    // At the start of a game the history is the start position either way.
    let start = History::game(&Chess::default(), &[]).unwrap();
    assert_eq!(start.tokens(), History::position(Chess::default()).tokens());
    // After moves, the game's history and the lone position differ, and so do the logits.
    let (mv, pos) = play(&["d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4"]);
    let game = History::game(&Chess::default(), &mv).unwrap();
    let alone = History::position(pos.clone());
    assert_ne!(game.tokens(), alone.tokens());
    let (a, b) = (model.logits(&game.tokens(), 1500, 1500), model.logits(&alone.tokens(), 1500, 1500));
    let diff = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0f32, f32::max);
    assert!(diff > 1e-2, "history changed the logits by only {diff}");
    // Only the last 8 positions count: a longer game with the same last 8 gives the same input.
    let (long, _) = play(&["g1f3", "g8f6", "f3g1", "f6g8", "d2d4", "g8f6", "c2c4", "e7e6", "b1c3", "f8b4"]);
    let longer = History::game(&Chess::default(), &long).unwrap();
    assert_eq!(longer.positions().len(), 8);
    let seven = History::game(&Chess::default(), &long[..7]).unwrap();
    assert_eq!(seven.positions().len(), 8, "7 moves: the start position and the 7 after");
    // An illegal move in the history is an error.
    assert!(History::game(&Chess::default(), &[mv[1]]).is_err());
}

fn tensor_file(tensors: &[(String, Vec<usize>)]) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend(VERSION.to_le_bytes());
    b.extend((tensors.len() as u32).to_le_bytes());
    for (name, dims) in tensors {
        b.extend((name.len() as u16).to_le_bytes());
        b.extend(name.as_bytes());
        b.push(dims.len() as u8);
        for d in dims {
            b.extend((*d as u32).to_le_bytes());
        }
        while !b.len().is_multiple_of(4) {
            b.push(0);
        }
        b.resize(b.len() + 4 * dims.iter().product::<usize>(), 0);
    }
    let sum = blake3::hash(&b);
    b.extend(sum.as_bytes());
    b
}

#[test]
fn maia3_bad_weights_files_are_refused_with_a_reason() {
    let good = maia3::WEIGHTS;
    let err = |bytes: &[u8]| Maia3::from_bytes(bytes).err().expect("refused");
    let mut flipped = good.to_vec();
    flipped[good.len() / 2] ^= 0x10;
    assert!(err(&flipped).contains("checksum"), "{}", err(&flipped));
    assert!(err(&good[..good.len() - 1000]).contains("checksum"));
    assert!(err(b"not a model at all").contains("bad magic"));
    // A well-formed file with a tensor of the wrong shape, and one with a tensor missing.
    let mut shapes: Vec<(String, Vec<usize>)> = expected_shapes().into_iter().collect();
    let at = shapes.iter().position(|(n, _)| n == "layer3.qkv.mat").unwrap();
    shapes[at].1 = vec![256, 512];
    let e = err(&tensor_file(&shapes));
    assert!(e.contains("layer3.qkv.mat") && e.contains("[256, 512]"), "{e}");
    shapes.remove(at);
    let e = err(&tensor_file(&shapes));
    assert!(e.contains("layer3.qkv.mat is missing"), "{e}");
    // A file that does not exist.
    let e = Maia3::load(std::path::Path::new("/nonexistent/maia3.bin")).err().unwrap();
    assert!(e.contains("/nonexistent/maia3.bin"), "{e}");
    // The right shapes (all zeros) load.
    let zeros: Vec<(String, Vec<usize>)> = expected_shapes().into_iter().collect();
    assert!(Maia3::from_bytes(&tensor_file(&zeros)).is_ok());
}

#[test]
fn maia3_is_deterministic_across_runs_batches_and_kernels() {
    let (mv, _) = play(&["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d4"]);
    let h = History::game(&Chess::default(), &mv).unwrap();
    let t = h.tokens();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let once = bits(&model().logits(&t, 1234, 1876));
    assert_eq!(once, bits(&model().logits(&t, 1234, 1876)), "the same input twice");
    let q = |s, o| Query { tokens: &t, self_elo: s, oppo_elo: o };
    let batch = model().logits_batch(&[q(900, 900), q(1234, 1876), q(2500, 2100)]);
    assert_eq!(bits(&batch[1]), once, "inside a batch");
    let mut fresh = Maia3::from_bytes(maia3::WEIGHTS).unwrap();
    for k in Kernel::available() {
        fresh.net_mut().set_kernel(k);
        assert_eq!(bits(&fresh.logits(&t, 1234, 1876)), once, "kernel {k:?}");
    }
    println!("kernels checked: {:?}", Kernel::available());
}

#[test]
fn maia3_weights_match_the_manifest() {
    let m = sparring::profile::Manifest::builtin();
    let e = m.lookup(maia3::NAME, maia3::VERSION).expect("a manifest entry for human-model v7");
    assert_eq!(e.file, maia3::FILE);
    assert_eq!(e.blake3, maia3::builtin_hash_hex());
    let disk = std::fs::read(std::path::Path::new(env!("SPARRING_REPO")).join("profiles").join(maia3::FILE)).unwrap();
    assert!(disk == maia3::WEIGHTS, "the embedded file is the file on disk");
}

/// The full comparison with onnxruntime on the first 200 positions × 5 rating pairs of the file
/// `bench/human-model/maia3_reference.py` writes (all 1000 with `cargo run --release --example
/// maia3 -- compare`).
#[test]
fn maia3_matches_onnxruntime_reference() {
    let prefix = std::path::Path::new(env!("SPARRING_REPO")).join("target/maia3-reference");
    let (Ok(text), Ok(raw)) =
        (std::fs::read_to_string(prefix.with_extension("jsonl")), std::fs::read(prefix.with_extension("f32")))
    else {
        println!(
            "skipped: no target/maia3-reference.jsonl/.f32 (run bench/py.sh bench/human-model/maia3_reference.py)"
        );
        return;
    };
    let reference: Vec<f32> = raw.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    let (mut worst, mut evals, mut at) = (0f32, 0, 0);
    for line in text.lines().take(200) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let moves: Vec<&str> = v["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let (mv, pos) = play(&moves);
        let h = if v["history"].as_bool().unwrap() {
            History::game(&Chess::default(), &mv).unwrap()
        } else {
            History::position(pos)
        };
        let t = h.tokens();
        let qs: Vec<Query> = v["pairs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| Query { tokens: &t, self_elo: p[0].as_i64().unwrap(), oppo_elo: p[1].as_i64().unwrap() })
            .collect();
        for ours in model().logits_batch(&qs) {
            for (a, b) in ours.iter().zip(&reference[at..at + ours.len()]) {
                worst = worst.max((a - b).abs());
            }
            at += ours.len();
            evals += 1;
        }
    }
    println!("{evals} evaluations x 4352 logits: max |rust - onnxruntime| = {worst:.2e}");
    assert!(worst <= 1e-3);
}

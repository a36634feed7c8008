//! The evaluator's parameter vector (`eval::params`) and the value tuner (`sparring tune --values`).

use crate::eval_util;

use shakmaty::Chess;
use sparring::eval::params::TUNED;
use sparring::eval::{EvalConfig, Params, S, Weights, evaluate_white, trace_with};
use sparring_tools::tune::load_positions;
use sparring_tools::tune::texel::{self, Flat, frozen};

fn positions(n: usize) -> Vec<Chess> {
    eval_util::random_positions(7, n, 70, 10, 5)
}

fn fen(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// The evaluator's values (`src/eval/tuned.json`).
fn values() -> Weights {
    TUNED.w
}

#[test]
fn flattening_the_weights_round_trips() {
    let w = values();
    let mut flat = Flat::new(&w);
    assert!(flat.values.len() > 700, "{} values", flat.values.len());
    assert_eq!(flat.weights(), w);
    let i = flat.paths.iter().position(|p| p == "/material/value/1/mg").expect("knight mg value path");
    assert_eq!(flat.values[i], 310);
    flat.values[i] = 351;
    assert_eq!(flat.weights().material.value[1], S(351, w.material.value[1].eg));
    assert!(frozen("/material/pawn/0/2/mg") && frozen("/material/pawn/7/0/eg") && frozen("/imbalance/ours/1/4"));
    assert!(!frozen("/material/pawn/3/2/mg") && !frozen("/imbalance/theirs/4/1") && !frozen("/tempo"));
}

#[test]
fn the_evaluator_evaluates_with_its_values() {
    let cfg = EvalConfig::full();
    let uncached = Params::new(0, values());
    for p in positions(300) {
        assert_eq!(trace_with(&p, &cfg, &uncached).white_eval, evaluate_white(&p, &cfg), "{}", fen(&p));
        assert_eq!(trace_with(&p, &cfg, &TUNED).white_eval, evaluate_white(&p, &cfg));
    }
}

#[test]
fn the_values_keep_the_pieces_in_order() {
    let v = values().material.value;
    assert!(v[0].mg > 0 && v[0].eg > 0, "pawn {:?}", v[0]);
    for phase in [|s: S| s.mg, |s: S| s.eg] {
        assert!(phase(v[4]) > phase(v[3]) && phase(v[3]) > phase(v[1]) && phase(v[1]) > 2 * phase(v[0]), "{v:?}");
    }
}

#[test]
fn caches_keep_two_value_sets_apart() {
    // The same pawn structure evaluated with both sets, alternately, in one thread: each set must
    // keep its own pawn-cache entries (the tag), so the answers do not depend on the order.
    let mut other = values();
    other.pawns.doubled = S(-60, -90);
    other.king.shelter[1][2] += 40;
    let p_other = Params::new(77, other);
    let p_fresh = Params::new(0, other);
    let cfg = EvalConfig::full();
    for p in positions(200) {
        let a = trace_with(&p, &cfg, &TUNED).white_eval;
        let b = trace_with(&p, &cfg, &p_other).white_eval;
        assert_eq!(b, trace_with(&p, &cfg, &p_fresh).white_eval, "{}", fen(&p));
        assert_eq!(a, trace_with(&p, &cfg, &TUNED).white_eval);
    }
}

#[test]
fn the_value_tuner_moves_a_planted_value_towards_its_target() {
    // Reference = our own evaluator with the knight worth 40 more and open-file rooks 30 more
    // (middlegame): starting from the evaluator's values with nothing anchored, the search must
    // move both towards them.
    let start = values();
    let mut planted = start;
    planted.material.value[1] += S(40, 40);
    planted.rook.open_file += S(30, 0);
    let target = Params::new(0, planted);
    let cfg = EvalConfig::full();
    let mut text = String::new();
    for p in positions(2500) {
        let cp = trace_with(&p, &cfg, &target).white_eval;
        if cp.abs() < 1200 {
            text.push_str(&format!("{}\t{cp}\n", fen(&p)));
        }
    }
    let (set, skipped) = load_positions(&text);
    assert!(set.len() > 1500, "{} usable, {skipped} skipped", set.len());
    let train: Vec<&texel::Position> = set.iter().enumerate().filter(|(i, _)| i % 5 != 0).map(|(_, s)| s).collect();
    let held: Vec<&texel::Position> = set.iter().enumerate().filter(|(i, _)| i % 5 == 0).map(|(_, s)| s).collect();
    let opts = texel::FitOptions { anchors: &[], alpha: None, max_passes: 2, minutes: 10.0 };
    let o = texel::fit(&train, &held, &start, &opts, &mut |_| {});
    assert!(o.train_after < o.train_before * 0.7, "train {} -> {}", o.train_before, o.train_after);
    assert!(o.held_after < o.held_before, "held out {} -> {}", o.held_before, o.held_after);
    assert!((o.alpha - 1.0).abs() < 0.1, "alpha {}", o.alpha);
    let knight = o.weights.material.value[1].mg;
    assert!(knight >= 325, "knight mg {knight} (start 310, planted 350)");
    assert!(o.weights.rook.open_file.mg > 18, "open file {:?} (start 18, planted 48)", o.weights.rook.open_file);
}

#[test]
fn tune_values_cli_writes_loadable_weights_and_refuses_bad_input() {
    let dir = std::env::temp_dir().join(format!("sparring-tune-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("d.tsv");
    let cfg = EvalConfig::full();
    let text: String =
        positions(1300).iter().map(|p| format!("{}\t{}\n", fen(p), evaluate_white(p, &cfg) + 7)).collect();
    std::fs::write(&data, text).unwrap();
    let out = dir.join("w.json");
    let run = |args: &[&str]| {
        crate::common::command(env!("CARGO_BIN_EXE_sparring"))
            .arg("tune")
            .args(args)
            .output()
            .expect("run sparring tune")
    };
    let o = run(&[data.to_str().unwrap(), "--values", "--passes", "1", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("values changed") && stdout.contains("wrote"), "{stdout}");
    let w: sparring::eval::Weights = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    // It can start from its own output.
    let o = run(&[
        data.to_str().unwrap(),
        "--values",
        "--passes",
        "1",
        "--start",
        out.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let _ = w;
    // No --out; a missing start file; a broken start file.
    let o = run(&[data.to_str().unwrap(), "--values"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out"));
    let o = run(&[data.to_str().unwrap(), "--values", "--start", "/nonexistent.json", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(dir.join("bad.json"), "{\"tempo\": 3}").unwrap();
    let bad = dir.join("bad.json");
    let o =
        run(&[data.to_str().unwrap(), "--values", "--start", bad.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--start"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn anchored_values_never_move() {
    // The same planted knight: with the piece values anchored, the knight's value stays and the
    // fit must look elsewhere; a given scale is held.
    let start = values();
    let mut planted = start;
    planted.material.value[1] += S(40, 40);
    let target = Params::new(0, planted);
    let cfg = EvalConfig::full();
    let text: String = positions(1500)
        .iter()
        .map(|p| (p, trace_with(p, &cfg, &target).white_eval))
        .filter(|(_, cp)| cp.abs() < 1200)
        .map(|(p, cp)| format!("{}\t{cp}\n", fen(p)))
        .collect();
    let (set, _) = load_positions(&text);
    let all: Vec<&texel::Position> = set.iter().collect();
    let opts = texel::FitOptions { anchors: texel::PIECE_VALUES, alpha: Some(1.0), max_passes: 1, minutes: 10.0 };
    let o = texel::fit(&all[200..], &all[..200], &start, &opts, &mut |_| {});
    assert_eq!(o.alpha, 1.0);
    assert_eq!(o.weights.material.value, start.material.value);
    assert!(o.train_after < o.train_before);
    // A knight is worth more everywhere: the piece-square table takes it up instead.
    let sum = |w: &sparring::eval::Weights| w.material.knight.iter().flatten().map(|s| s.mg).sum::<i32>();
    assert!(sum(&o.weights) > sum(&start), "{} vs {}", sum(&o.weights), sum(&start));
}

#[test]
fn rescaling_keeps_the_judgements_and_restores_the_scale() {
    let w = values();
    assert_eq!(texel::rescale(&w, 1.0), w);
    let double = texel::rescale(&w, 2.0);
    assert_eq!(double.material.value[1], S(620, 606));
    assert_eq!(double.tempo, 52);
    // King danger is squared into the penalty: its weights grow by sqrt(2).
    assert_eq!(double.king.weak_ring, (103.0 * 2f64.sqrt()).round() as i32);
    // A halved evaluator fitted against references made by the full one comes back to ~x2.
    let cfg = EvalConfig::full();
    let text: String = positions(1200)
        .iter()
        .map(|p| (p, evaluate_white(p, &cfg)))
        .filter(|(_, cp)| cp.abs() < 1200)
        .map(|(p, cp)| format!("{}\t{cp}\n", fen(p)))
        .collect();
    let (set, _) = load_positions(&text);
    let all: Vec<&texel::Position> = set.iter().collect();
    let half = texel::rescale(&w, 0.5);
    let (back, f) = texel::keep_scale(&all, &half, 1.0);
    assert!((1.7..2.3).contains(&f), "factor {f}");
    let alpha = texel::fit_alpha(&all, &Params::new(0, back));
    assert!((alpha - 1.0).abs() < 0.05, "alpha {alpha}");
}

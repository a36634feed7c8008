//! Checks and times the Maia-3 forward pass (human move model v7).
//!
//! ```text
//! cargo run --release --example maia3 -- compare [PREFIX]   # vs onnxruntime (maia3_reference.py)
//! cargo run --release --example maia3 -- bench [N]          # ms per position, single and batched
//! cargo run --release --example maia3 -- digest [N]         # hash of all logit bits, per kernel
//! ```
//!
//! `compare` reads PREFIX.jsonl / PREFIX.f32 (default target/maia3-reference) written by
//! `bench/human-model/maia3_reference.py`, re-encodes every position from its moves here, and prints
//! the max abs logit difference over all 4352 outputs of every evaluation, and the top-1 agreement.
//! `bench` runs N positions (default 200) from the same file one at a time (median ms) and as
//! batches of 5 rating pairs per position (ms per evaluation), on one thread.

use shakmaty::{Chess, Move};
use sparring::board::notation::parse_uci;
use sparring::human::maia3::{self, History, Query};
use std::time::Instant;

struct Case {
    history: History,
    pairs: Vec<(i64, i64)>,
}

fn read_cases(prefix: &str) -> (Vec<Case>, Vec<f32>) {
    let text = std::fs::read_to_string(format!("{prefix}.jsonl"))
        .unwrap_or_else(|e| panic!("{prefix}.jsonl: {e} (run bench/human-model/maia3_reference.py)"));
    let mut cases = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut pos = Chess::default();
        let mut moves: Vec<Move> = Vec::new();
        for m in v["moves"].as_array().unwrap() {
            let mv = parse_uci(&pos, m.as_str().unwrap()).unwrap();
            pos = shakmaty::Position::play(pos, mv).unwrap();
            moves.push(mv);
        }
        let history = if v["history"].as_bool().unwrap() {
            History::game(&Chess::default(), &moves).unwrap()
        } else {
            History::position(pos)
        };
        let pairs =
            v["pairs"].as_array().unwrap().iter().map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap())).collect();
        cases.push(Case { history, pairs });
    }
    let raw = std::fs::read(format!("{prefix}.f32")).unwrap_or_default();
    let logits = raw.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    (cases, logits)
}

fn compare(prefix: &str) {
    let model = maia3::builtin().unwrap();
    let (mut cases, reference) = read_cases(prefix);
    if let Some(n) = std::env::var("MAIA3_COMPARE_LIMIT").ok().and_then(|v| v.parse().ok()) {
        cases.truncate(n);
    }
    let (mut worst, mut evals, mut top_same, mut at) = (0f32, 0usize, 0usize, 0usize);
    let t = Instant::now();
    for case in &cases {
        let tokens = case.history.tokens();
        let queries: Vec<Query> =
            case.pairs.iter().map(|&(s, o)| Query { tokens: &tokens, self_elo: s, oppo_elo: o }).collect();
        for ours in model.logits_batch(&queries) {
            let theirs = &reference[at..at + maia3::vocab::VOCAB];
            at += maia3::vocab::VOCAB;
            for (a, b) in ours.iter().zip(theirs) {
                worst = worst.max((a - b).abs());
            }
            let best = |l: &[f32]| {
                let d = maia3::legal_softmax(case.history.current(), l);
                d.iter().max_by(|a, b| a.logit.total_cmp(&b.logit)).map(|m| m.mv)
            };
            top_same += usize::from(best(&ours) == best(theirs));
            evals += 1;
        }
    }
    assert!(at <= reference.len(), "reference file shorter than the cases");
    println!(
        "compared {} positions, {evals} evaluations x 4352 logits: max |rust - onnxruntime| = {worst:.3e}; \
         same top legal move in {top_same}/{evals}; kernel {:?}; {:.1} s",
        cases.len(),
        model.net().kernel(),
        t.elapsed().as_secs_f64()
    );
    if worst > 1e-3 {
        std::process::exit(1);
    }
}

/// Nanoseconds this thread has run on a CPU (Linux `/proc/thread-self/schedstat`), so that other
/// processes sharing the cores do not count; wall-clock time where it is unavailable.
fn cpu_ns() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| START.get_or_init(Instant::now).elapsed().as_nanos() as u64)
}

fn bench(n: usize) {
    let t = Instant::now();
    let model = maia3::builtin().unwrap();
    println!(
        "parse + layout of the embedded weights: {:.1} ms; kernel {:?}",
        t.elapsed().as_secs_f64() * 1e3,
        model.net().kernel()
    );
    let (cases, _) = read_cases("target/maia3-reference");
    let cases = &cases[..n.min(cases.len())];
    let tokens: Vec<_> = cases.iter().map(|c| c.history.tokens()).collect();
    // Warm-up.
    model.logits(&tokens[0], 1500, 1500);
    // Each evaluation timed by the wall clock (the thread's CPU-time counter ticks in 4 ms steps
    // on some kernels, too coarse for one evaluation); the CPU time of the whole loop divided by
    // its evaluations says whether the wall time was the thread's own.
    let mut single = Vec::new();
    let cpu0 = cpu_ns();
    for (c, tk) in cases.iter().zip(&tokens) {
        let t = Instant::now();
        let l = model.logits(tk, c.pairs[0].0, c.pairs[0].1);
        single.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(l);
    }
    let cpu_single = (cpu_ns() - cpu0) as f64 / 1e6 / cases.len() as f64;
    let mut batched = Vec::new();
    let (cpu0, mut evaluations) = (cpu_ns(), 0usize);
    for (c, tk) in cases.iter().zip(&tokens) {
        let queries: Vec<Query> =
            c.pairs.iter().map(|&(s, o)| Query { tokens: tk, self_elo: s, oppo_elo: o }).collect();
        let t = Instant::now();
        let l = model.logits_batch(&queries);
        batched.push(t.elapsed().as_secs_f64() * 1e3 / queries.len() as f64);
        evaluations += queries.len();
        std::hint::black_box(l);
    }
    let cpu_batched = (cpu_ns() - cpu0) as f64 / 1e6 / evaluations as f64;
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "{} positions, one thread: single {:.2} ms per position (median wall; min {:.2}; mean CPU {:.2}); \
         batched x5 ratings {:.2} ms per evaluation (median wall; mean CPU {:.2})",
        cases.len(),
        median(&mut single),
        single[0],
        cpu_single,
        median(&mut batched),
        cpu_batched
    );
}

/// blake3 over the bits of every logit of the first N positions × 5 pairs, per available kernel
/// (compare two builds, e.g. default and `-C target-cpu=native`).
fn digest(n: usize) {
    let (cases, _) = read_cases("target/maia3-reference");
    let mut model = maia3::Maia3::from_bytes(maia3::WEIGHTS).unwrap();
    for kernel in maia3::math::Kernel::available() {
        model.net_mut().set_kernel(kernel);
        let mut h = blake3::Hasher::new();
        let mut lp = blake3::Hasher::new();
        for case in cases.iter().take(n) {
            let tokens = case.history.tokens();
            let queries: Vec<Query> =
                case.pairs.iter().map(|&(s, o)| Query { tokens: &tokens, self_elo: s, oppo_elo: o }).collect();
            for l in model.logits_batch(&queries) {
                for x in &l {
                    h.update(&x.to_bits().to_le_bytes());
                }
                for m in maia3::legal_softmax(case.history.current(), &l) {
                    lp.update(&m.log_prob.to_bits().to_le_bytes());
                }
            }
        }
        println!(
            "{kernel:?}: {} positions: logits blake3 {}, log-probs blake3 {}",
            n.min(cases.len()),
            h.finalize(),
            lp.finalize()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("compare") => compare(args.get(1).map(String::as_str).unwrap_or("target/maia3-reference")),
        Some("digest") => digest(args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20)),
        Some("bench") => bench(args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200)),
        _ => eprintln!("usage: maia3 compare [PREFIX] | bench [N] | digest [N]"),
    }
}

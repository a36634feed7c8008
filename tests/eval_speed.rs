//! Rough speed measurement of `evaluate` (prints ns/eval; run with `--nocapture` to see it).
//! Reports the best of several short runs (least disturbed by other load) and the mean.

mod eval_util;

use std::hint::black_box;
use std::time::Instant;

use sparring::eval::{EvalConfig, evaluate};

#[test]
fn eval_speed_report() {
    let ps = eval_util::all_positions();
    let cfg = EvalConfig::default();
    let rounds = 20;
    let runs = 10;
    let mut best = f64::MAX;
    let mut total = 0.0;
    let mut sum = 0i64;
    for _ in 0..runs {
        let t = Instant::now();
        for _ in 0..rounds {
            for p in &ps {
                sum += evaluate(black_box(p), black_box(&cfg)) as i64;
            }
        }
        let ns = t.elapsed().as_nanos() as f64 / (rounds * ps.len()) as f64;
        best = best.min(ns);
        total += ns;
    }
    println!(
        "evaluate: best {best:.0} ns/eval, mean {:.0} ns/eval over {} positions (checksum {sum})",
        total / runs as f64,
        ps.len()
    );
}

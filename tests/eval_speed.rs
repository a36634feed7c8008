//! Rough speed measurement of `evaluate` (prints ns/eval; run with `--nocapture` to see it).

mod eval_util;

use std::hint::black_box;
use std::time::Instant;

use sparring::eval::{EvalConfig, evaluate};

#[test]
fn eval_speed_report() {
    let ps = eval_util::all_positions();
    let cfg = EvalConfig::default();
    let rounds = 200;
    let mut sum = 0i64;
    let t = Instant::now();
    for _ in 0..rounds {
        for p in &ps {
            sum += evaluate(black_box(p), black_box(&cfg)) as i64;
        }
    }
    let ns = t.elapsed().as_nanos() as f64 / (rounds * ps.len()) as f64;
    println!(
        "evaluate: {ns:.0} ns/eval over {} positions (checksum {sum})",
        ps.len()
    );
}

//! Small numeric helpers shared by the fitting tools.

/// Golden-section search for the minimum of a unimodal `f` on `[lo, hi]` in `iterations` steps;
/// returns the midpoint of the final bracket.
pub fn golden_section(lo: f64, hi: f64, iterations: usize, f: impl Fn(f64) -> f64) -> f64 {
    let (mut a, mut b) = (lo, hi);
    let r = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..iterations {
        let c = b - r * (b - a);
        let d = a + r * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

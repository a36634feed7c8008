//! Small numeric helpers shared by the fitting tools: golden-section search, a Cholesky solve and
//! weighted ridge least squares.

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

/// Solves `A x = b` for a symmetric positive definite `A` (row-major `n × n`); `None` when it is
/// not positive definite.
pub fn cholesky_solve(a: &[f64], b: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let s: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
            if i == j {
                let d = a[i * n + i] - s;
                if d <= 0.0 || !d.is_finite() {
                    return None;
                }
                l[i * n + i] = d.sqrt();
            } else {
                l[i * n + j] = (a[i * n + j] - s) / l[j * n + j];
            }
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[i * n + k] * y[k]).sum();
        y[i] = (b[i] - s) / l[i * n + i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| l[k * n + i] * x[k]).sum();
        x[i] = (y[i] - s) / l[i * n + i];
    }
    Some(x)
}

/// Weighted ridge least squares on rows `xs` (each the same length, column 0 the intercept):
/// minimises `Σ wᵢ (yᵢ − β·xᵢ)² + ridge·|β₁..|²` (the intercept is not penalised).
pub fn ridge_least_squares<X: AsRef<[f64]>>(xs: &[X], ys: &[f64], ws: &[f64], ridge: f64) -> Result<Vec<f64>, String> {
    let n = xs.first().map_or(0, |x| x.as_ref().len());
    let mut a = vec![0.0; n * n];
    let mut b = vec![0.0; n];
    for ((x, &y), &w) in xs.iter().zip(ys).zip(ws) {
        let x = x.as_ref();
        for i in 0..n {
            b[i] += w * x[i] * y;
            for j in 0..n {
                a[i * n + j] += w * x[i] * x[j];
            }
        }
    }
    for i in 1..n {
        a[i * n + i] += ridge;
    }
    cholesky_solve(&a, &b, n).ok_or_else(|| "the normal equations are singular".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cholesky_solves_a_small_system() {
        // [[4, 2], [2, 3]] x = [2, 1]  =>  x = [0.5, 0].
        let x = cholesky_solve(&[4.0, 2.0, 2.0, 3.0], &[2.0, 1.0], 2).unwrap();
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
        assert!(cholesky_solve(&[1.0, 2.0, 2.0, 1.0], &[1.0, 1.0], 2).is_none());
    }

    #[test]
    fn ridge_least_squares_recovers_a_line() {
        let xs: Vec<[f64; 2]> = (0..20).map(|i| [1.0, i as f64]).collect();
        let ys: Vec<f64> = (0..20).map(|i| 3.0 + 2.0 * i as f64).collect();
        let b = ridge_least_squares(&xs, &ys, &[1.0; 20], 0.0).unwrap();
        assert!((b[0] - 3.0).abs() < 1e-9 && (b[1] - 2.0).abs() < 1e-9, "{b:?}");
    }
}

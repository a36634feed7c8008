//! Small statistics the tools share, each defined once: the logistic Elo formula both ways, the
//! error function (about 1e-15), the 95 % normal quantile, nElo's factor, and the mean. (The engine
//! keeps its own normal distribution for `Human Time`, `sparring::human_time::model`, whose fitted
//! draws depend on that exact approximation.)

/// The two-sided 95 % quantile of the standard normal distribution, `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: the factor between a normalized score step and normalized Elo.
pub fn nelo_factor() -> f64 {
    800.0 / std::f64::consts::LN_10
}

/// Logistic Elo difference of an expected score in (0, 1); ±infinity at the ends.
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, computed to about 1e-15 (series for small |x|, continued fraction beyond).
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // Maclaurin series: erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        for k in 1..200 {
            let n = f64::from(k);
            term *= -x2 / n;
            let add = term / (2.0 * n + 1.0);
            sum += add;
            if add.abs() <= 1e-17 * sum.abs() {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    } else {
        // erfc x = exp(-x^2)/sqrt(pi) * 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))), evaluated bottom-up.
        let mut f = x;
        for k in (1..60).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
    }
}

/// The arithmetic mean in input order; `None` for no values (each caller says what an empty set is).
pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.into_iter().fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| sum / n as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert!((erf(0.5) - 0.520_499_877_813_046_5).abs() < 1e-15);
        assert!((erf(3.0) - 0.999_977_909_503_001_4).abs() < 1e-15);
        assert!((elo_to_score(200.0) - 0.759_746_926_647_957_4).abs() < 1e-15);
        assert!((score_to_elo(elo_to_score(137.0)) - 137.0).abs() < 1e-9);
        assert_eq!(mean([1.0, 2.0, 6.0]), Some(3.0));
        assert_eq!(mean(std::iter::empty()), None);
    }
}

//! Mirror symmetry of the evaluator, term by term.

use crate::eval_util;

use sparring::board::mirror;
use sparring::eval::{EvalConfig, Term, evaluate, evaluate_white, trace};

/// Checks one position; false when its mirror cannot be built (e.g. "impossible check" FENs).
fn check(p: &shakmaty::Chess, cfg: &EvalConfig) -> bool {
    let Some(m) = mirror(p) else {
        return false;
    };
    let a = trace(p, cfg);
    let b = trace(&m, cfg);
    for t in Term::ALL {
        let i = t.index();
        assert_eq!(a.white[i], b.black[i], "{} white/black swap", t.name());
        assert_eq!(a.black[i], b.white[i], "{} black/white swap", t.name());
        assert_eq!(a.weighted[i], -b.weighted[i], "{} weighted", t.name());
    }
    assert_eq!(a.phase, b.phase);
    assert_eq!(a.white_eval, -b.white_eval);
    // The mirror also hands the move to the other colour, so the side-to-move view is unchanged.
    assert_eq!(a.stm_eval, b.stm_eval);
    assert_eq!(evaluate_white(p, cfg), -evaluate_white(&m, cfg));
    assert_eq!(evaluate(p, cfg), evaluate(&m, cfg));
    true
}

#[test]
fn eval_mirror_symmetry_hand_positions() {
    let cfg = EvalConfig::default();
    for f in eval_util::HAND {
        assert!(check(&eval_util::pos(f), &cfg));
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn eval_mirror_symmetry_shared_positions() {
    let Some(ps) = eval_util::shared_positions() else {
        println!("skipped: ../shared/data not found");
        return;
    };
    assert!(ps.len() >= 100);
    let cfg = EvalConfig::default();
    let checked = ps.iter().filter(|p| check(p, &cfg)).count();
    assert!(checked >= 100, "only {checked} positions checked");
    // Also with an odd configuration (weights with rounding, some groups off).
    let mut odd = EvalConfig::default();
    odd.set_enabled(Term::Imbalance, false);
    odd.mg_weight[Term::KingSafety.index()] = 133;
    odd.eg_weight[Term::PassedPawns.index()] = 71;
    odd.mg_weight[Term::Winnable.index()] = 57;
    odd.eg_weight[Term::Winnable.index()] = 157;
    let checked = ps.iter().filter(|p| check(p, &odd)).count();
    assert!(checked >= 100, "only {checked} positions checked");
}

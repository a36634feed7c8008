//! The configuration: disabling removes exactly a group's contribution, weights scale it,
//! term names parse case-insensitively, and the trace shows all of it.

use crate::eval_util;

use sparring::eval::{EvalConfig, S, Term, evaluate_white, trace};

fn base() -> EvalConfig {
    // Winnable reads the weighted sum of the other groups, so it is held off when checking that
    // another group's removal is an exact subtraction.
    let mut c = EvalConfig::default();
    c.set_enabled(Term::Winnable, false);
    c
}

#[test]
fn eval_config_disable_removes_exactly_the_group() {
    let ps = eval_util::all_positions();
    let cfg = base();
    for p in ps.iter().take(200) {
        let full = trace(p, &cfg);
        for t in Term::ALL {
            if t == Term::Winnable {
                continue;
            }
            let mut off = cfg.clone();
            off.set_enabled(t, false);
            let v = evaluate_white(p, &off);
            let expected = (full.total - full.weighted[t.index()]).taper(full.phase) + full.tempo_white;
            assert_eq!(v, expected, "{} off", t.name());
            // And the difference is that group's tapered part, up to taper rounding.
            let d = full.white_eval - v;
            assert!((d - full.tapered(t)).abs() <= 1, "{}", t.name());
            let tr = trace(p, &off);
            assert_eq!(tr.white[t.index()], S::ZERO);
            assert_eq!(tr.weighted[t.index()], S::ZERO);
        }
    }
}

#[test]
fn eval_config_winnable_off_removes_exactly_winnable() {
    let full_cfg = EvalConfig::default();
    for p in eval_util::all_positions().iter().take(200) {
        let full = trace(p, &full_cfg);
        let v = evaluate_white(p, &base());
        let w = full.weighted[Term::Winnable.index()];
        assert_eq!(v, (full.total - w).taper(full.phase) + full.tempo_white);
        // The final evaluation is always the tapered sum of the weighted groups plus tempo.
        assert_eq!(full.white_eval, full.total.taper(full.phase) + full.tempo_white);
    }
}

#[test]
fn eval_config_weight_200_doubles_the_group() {
    let cfg = base();
    for p in eval_util::all_positions().iter().take(120) {
        let full = trace(p, &cfg);
        for t in Term::ALL {
            if t == Term::Winnable {
                continue;
            }
            let i = t.index();
            let mut dbl = cfg.clone();
            dbl.mg_weight[i] = 200;
            dbl.eg_weight[i] = 200;
            let tr = trace(p, &dbl);
            assert_eq!(tr.weighted[i], (full.white[i] - full.black[i]) * 2, "{}", t.name());
            assert_eq!(tr.white[i], full.white[i]);
            let expected = (full.total + full.weighted[i]).taper(full.phase) + full.tempo_white;
            assert_eq!(tr.white_eval, expected, "{}", t.name());
            // Separate mg / eg weights.
            let mut mg_only = cfg.clone();
            mg_only.eg_weight[i] = 0;
            let tr = trace(p, &mg_only);
            assert_eq!(tr.weighted[i].eg, 0);
            assert_eq!(tr.weighted[i].mg, full.weighted[i].mg);
        }
    }
}

#[test]
fn eval_config_term_names() {
    assert_eq!(Term::from_name("kingsafety"), Some(Term::KingSafety));
    assert_eq!(Term::from_name("PASSEDPAWNS"), Some(Term::PassedPawns));
    assert_eq!(Term::from_name(" Winnable "), Some(Term::Winnable));
    assert_eq!(Term::from_name("pawnStructure"), Some(Term::PawnStructure));
    assert_eq!(Term::from_name("Pawns"), None);
    for t in Term::ALL {
        assert_eq!(Term::from_name(&t.name().to_lowercase()), Some(t));
        assert_eq!(Term::from_name(&t.name().to_uppercase()), Some(t));
    }
}

#[test]
fn eval_trace_table() {
    let p = eval_util::pos("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let mut cfg = EvalConfig::default();
    cfg.set_enabled(Term::Imbalance, false);
    cfg.set_enabled(Term::Winnable, false);
    cfg.mg_weight[Term::Threats.index()] = 120;
    cfg.eg_weight[Term::Threats.index()] = 80;
    let text = trace(&p, &cfg).to_string();
    for t in Term::ALL {
        let row = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} |", t.name())))
            .unwrap_or_else(|| panic!("no row for {}\n{text}", t.name()));
        match t {
            Term::Imbalance | Term::Winnable => {
                assert!(row.contains("--") && row.contains("(off)"))
            }
            Term::Threats => assert!(row.contains("mg 120% eg 80%"), "{row}"),
            _ => assert!(!row.contains("(off)") && !row.contains('%'), "{row}"),
        }
    }
    assert!(text.contains("Phase: 24/24"), "{text}");
    assert!(text.contains("Final evaluation:") && text.contains("(white side)"));
    assert!(text.contains("Disabled groups: Imbalance, Winnable"), "{text}");
    let full = trace(&p, &EvalConfig::default()).to_string();
    assert!(full.contains("Disabled groups: none"));
    assert_eq!(full.matches("(off)").count(), 0);
}

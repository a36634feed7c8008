//! The group-weight tuner (`sparring tune` without `--values`).

use crate::eval_util;

use shakmaty::Chess;
use sparring::eval::{EvalConfig, Term, evaluate_white};
use sparring_tools::tune::{Sample, fit, fit_alpha, load, loss};

fn positions(n: usize) -> Vec<Chess> {
    eval_util::random_positions(2026, n, 80, 12, 6)
}

fn data_line(pos: &Chess, cp: i32) -> String {
    let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal);
    format!("{fen}\t{cp}\n")
}

#[test]
fn the_tuner_recovers_known_weights() {
    // Reference = our own evaluator with Mobility at 160 % and KingSafety at 50 % (middlegame and
    // endgame), everything else 100 %: the fit must find those weights and leave the rest alone.
    let mut target = EvalConfig::full();
    for (t, w) in [(Term::Mobility, 160), (Term::KingSafety, 50)] {
        target.mg_weight[t.index()] = w;
        target.eg_weight[t.index()] = w;
    }
    let mut text = String::new();
    for p in positions(3000) {
        let cp = evaluate_white(&p, &target);
        if cp.abs() < 1200 {
            text.push_str(&data_line(&p, cp));
        }
    }
    let (samples, _) = load(&text);
    assert!(samples.len() > 2000, "{}", samples.len());
    let set: Vec<&Sample> = samples.iter().collect();
    let base = vec![100.0; 2 * Term::COUNT];
    let alpha = fit_alpha(&set, &base);
    // Groups that are zero in most random positions cannot be identified; fix the slow ones.
    let fixed: Vec<bool> = (0..2 * Term::COUNT)
        .map(|i| {
            let t = Term::ALL[i / 2];
            !matches!(t, Term::Mobility | Term::KingSafety | Term::Material)
        })
        .collect();
    let w = fit(&set, 1.0, 3000, 1.0, &fixed, 0.0);
    let mob = Term::Mobility.index();
    let king = Term::KingSafety.index();
    assert!((w[2 * mob] - 160.0).abs() < 15.0, "mobility mg {:.1}", w[2 * mob]);
    assert!((w[2 * king] - 50.0).abs() < 15.0, "king safety mg {:.1}", w[2 * king]);
    let m = Term::Material.index();
    assert!((w[2 * m] - 100.0).abs() < 10.0, "material mg {:.1}", w[2 * m]);
    assert!(loss(&set, &w, 1.0) < loss(&set, &base, 1.0) / 4.0);
    // The reference is on our scale already, so the fitted scale is close to 1.
    assert!((alpha - 1.0).abs() < 0.3, "alpha {alpha}");
}

#[test]
fn noisy_and_bad_lines_are_left_out() {
    let p = positions(1)[0].clone();
    let good = data_line(&p, 20);
    let mut text = good.clone();
    text.push_str("not a fen\t10\n");
    text.push_str(&good.replace("\t20", "\tabc"));
    text.push_str(&good.replace("\t20", "\t5000")); // decided
    text.push_str("rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2\t30\td4e5\n"); // capture
    text.push_str("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\t-900\n"); // in check (mated)
    text.push_str("line without a tab\n");
    let (samples, skipped) = load(&text);
    assert_eq!(samples.len(), 1);
    assert_eq!(skipped, 6);
}

#[test]
fn tune_command_refuses_bad_input() {
    let bin = env!("CARGO_BIN_EXE_sparring");
    let out = crate::common::command(bin).args(["tune", "/nonexistent/file.tsv"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file.tsv"));
    let dir = std::env::temp_dir().join(format!("sparring-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let small = dir.join("small.tsv");
    std::fs::write(&small, data_line(&Chess::default(), 10)).unwrap();
    let out = crate::common::command(bin).args(["tune", small.to_str().unwrap()]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("need at least 1000"));
    let out =
        crate::common::command(bin).args(["tune", small.to_str().unwrap(), "--fixed", "Nonsense"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

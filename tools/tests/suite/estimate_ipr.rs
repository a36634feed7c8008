//! The intrinsic performance rating (`sparring strength ipr`): the move-choice fit recovers known
//! players, the projection orders players, the calibration maps them back to their ratings,
//! difficulty strata parse, resampling is seeded, bad input is refused, and the shipped
//! calibration is reproduced from the committed oracle file.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use sparring_tools::strength::ipr::{self, CalibrationInput, Decision, Fit, IprModel, Stratum};
use std::path::Path;

fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

/// A random position: 10-40 legal moves, one best (loss 0), a few more within 50 cp of it, the
/// rest spread over 51..=300 cp.
fn random_losses(rng: &mut ChaCha8Rng) -> Vec<(u16, u16)> {
    let n = 10 + rng.next_u64() % 31;
    let mut hist = std::collections::BTreeMap::new();
    *hist.entry(0u16).or_insert(0u16) += 1;
    for _ in 1..n {
        let u = uniform(rng);
        let loss = if uniform(rng) < 0.08 { (u * 50.0) as u16 } else { 51 + (u * u * 250.0) as u16 };
        *hist.entry(loss).or_insert(0) += 1;
    }
    hist.into_iter().collect()
}

/// Decisions of a player who follows the model exactly with `fit`.
fn synthetic(fit: Fit, positions: usize, rating: u32, seed: u64) -> Vec<Decision> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..positions)
        .map(|i| {
            let losses = random_losses(&mut rng);
            let d0 = Decision {
                losses: losses.clone(),
                chosen: 0,
                game: (0, (i / 20) as u32),
                rating,
                band: rating,
                shallow: None,
            };
            let p = ipr::probabilities(&d0, fit);
            let u = uniform(&mut rng);
            let mut acc = 0.0;
            let mut chosen = losses[losses.len() - 1].0;
            for (k, pk) in p.iter().enumerate() {
                acc += pk;
                if u < acc {
                    chosen = losses[k].0;
                    break;
                }
            }
            Decision { chosen, ..d0 }
        })
        .collect()
}

#[test]
fn maximum_likelihood_recovers_a_known_player() {
    for (truth, seed) in [(Fit { s: 0.25, c: 1.0 }, 1), (Fit { s: 0.5, c: 2.0 }, 2)] {
        let ds = synthetic(truth, 4000, 1500, seed);
        let refs: Vec<&Decision> = ds.iter().collect();
        let got = ipr::fit(&refs, None);
        assert!((got.s / truth.s - 1.0).abs() < 0.15, "s: got {got:?}, truth {truth:?}");
        assert!((got.c / truth.c - 1.0).abs() < 0.2, "c: got {got:?}, truth {truth:?}");
        // The likelihood is worse away from the fit.
        let here = ipr::nll(&refs, got);
        assert!(ipr::nll(&refs, Fit { s: got.s * 1.5, ..got }) > here);
        assert!(ipr::nll(&refs, Fit { s: got.s / 1.5, ..got }) > here);
        // With c held, only s moves.
        let held = ipr::fit(&refs, Some(truth.c));
        assert_eq!(held.c, truth.c);
        assert!((held.s / truth.s - 1.0).abs() < 0.15, "held c: {held:?}");
    }
}

#[test]
fn projection_orders_players_and_probabilities_sum_to_one() {
    let ds = synthetic(Fit { s: 0.3, c: 1.2 }, 500, 1500, 9);
    let refs: Vec<&Decision> = ds.iter().collect();
    let mut last = 0.0;
    for s in [0.05, 0.1, 0.2, 0.4, 0.8] {
        let pa = ipr::projected_ase(&refs, Fit { s, c: 1.2 });
        assert!(pa > last, "projected ASE must grow with s: {pa} after {last} at s {s}");
        last = pa;
    }
    for d in &ds[..50] {
        let p = ipr::probabilities(d, Fit { s: 0.3, c: 1.2 });
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(p[0] >= p[p.len() - 1] / f64::from(d.losses[d.losses.len() - 1].1) * f64::from(d.losses[0].1));
    }
}

/// Eight synthetic bands, stronger players more sensitive (smaller s), on shared positions.
fn synthetic_bands(seed: u64) -> Vec<Decision> {
    let mut out = Vec::new();
    for (i, band) in (800..2400).step_by(200).enumerate() {
        let s = 0.6 * 0.8f64.powi(i as i32);
        let mut ds = synthetic(Fit { s, c: 1.1 }, 1500, band + 100, seed + i as u64);
        for d in &mut ds {
            d.band = band;
            d.game.1 += 10_000 * i as u32;
        }
        out.extend(ds);
    }
    out
}

fn calibrate(cal: &[Decision], strata: &[Stratum], shallow_split: bool) -> Result<IprModel, String> {
    let refs: Vec<&Decision> = cal.iter().collect();
    ipr::calibrate(&CalibrationInput {
        calibration: &refs,
        reference: &refs,
        reference_path: "synthetic",
        oracle: "internal",
        depth: 8,
        every: 1,
        offset: 0,
        fixed_c: None,
        strata,
        shallow_split,
    })
}

#[test]
fn calibration_maps_players_back_to_their_ratings() {
    let cal = synthetic_bands(100);
    let strata = ipr::parse_strata("1-2,3-").unwrap();
    let model = calibrate(&cal, &strata, false).expect("calibrates");
    for st in &model.strata {
        assert!(st.slope < 0.0, "more error must mean fewer Elo: {st:?}");
        assert!(st.r2 > 0.95, "synthetic bands lie on a line: r2 {}", st.r2);
    }
    // A new player between two bands rates between them; the interval holds its point estimate.
    let refs: Vec<&Decision> = cal.iter().collect();
    let s_1700 = 0.6 * 0.8f64.powi(4) * 0.9;
    let newcomer = synthetic(Fit { s: s_1700, c: 1.1 }, 800, 1750, 777);
    let nrefs: Vec<&Decision> = newcomer.iter().collect();
    let r = ipr::rate("newcomer", &nrefs, &refs, &model, 60, 5).unwrap();
    assert!(r.elo > 1500.0 && r.elo < 2100.0, "newcomer at {}", r.elo);
    assert!(r.elo_lo <= r.elo && r.elo <= r.elo_hi, "{r:?}");
    assert_eq!(r.strata.len(), 2);
    // Seeded: the same seed gives the same interval, another seed another one.
    let again = ipr::rate("newcomer", &nrefs, &refs, &model, 60, 5).unwrap();
    assert_eq!((r.elo_lo, r.elo_hi), (again.elo_lo, again.elo_hi));
    let other = ipr::rate("newcomer", &nrefs, &refs, &model, 60, 6).unwrap();
    // The strata's weights come from the resamples, so the point estimate moves a little with them.
    assert!((r.elo - other.elo).abs() < 30.0, "{} vs {}", r.elo, other.elo);
    assert_ne!((r.elo_lo, r.elo_hi), (other.elo_lo, other.elo_hi));
    // Too few decisions are refused, not rated.
    assert!(ipr::rate("tiny", &nrefs[..10], &refs, &model, 10, 1).is_err());
}

#[test]
fn strata_parse_and_classify() {
    let st = ipr::parse_strata("1,2,3-4,5-").unwrap();
    assert_eq!(st.len(), 4);
    assert_eq!(st.iter().map(Stratum::label).collect::<Vec<_>>(), ["1", "2", "3-4", "5-"]);
    assert_eq!(ipr::parse_strata("all").unwrap(), vec![Stratum { lo: 1, hi: u32::MAX, shallow: None }]);
    for bad in ["", "2,3-", "1,3-", "1-2,2-", "1,2", "1,x-", "3-1,4-"] {
        assert!(ipr::parse_strata(bad).is_err(), "'{bad}' must be refused");
    }
    let d = Decision {
        losses: vec![(0, 1), (30, 2), (51, 4), (300, 3)],
        chosen: 51,
        game: (0, 0),
        rating: 0,
        band: 0,
        shallow: None,
    };
    assert_eq!(d.near_best(), 3);
    assert!(st[2].contains(&d) && !st[1].contains(&d));
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_sparring")
}

#[test]
fn cli_refuses_bad_input_clearly() {
    let out =
        crate::common::command(bin()).args(["strength", "ipr", "rate", "/nonexistent/oracle.jsonl"]).output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    // Either the oracle file is missing or (in a clone without the bench caches) the model's
    // reference positions are, and the message says which.
    assert!(err.contains("nonexistent") || err.contains("reference positions"), "{err}");

    let out = crate::common::command(bin()).args(["strength", "ipr", "rate", "--bogus"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error exits 2");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bogus"));

    let dir = std::env::temp_dir().join(format!("sparring-ipr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{not json\n").unwrap();
    let out = crate::common::command(bin())
        .args(["strength", "ipr", "calibrate", "--oracle", bad.to_str().unwrap(), "--out"])
        .arg(dir.join("m.json"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad.jsonl"));

    let out = crate::common::command(bin())
        .args(["strength", "ipr", "calibrate", "--oracle", "x", "--strata", "2,3-", "--out", "y"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("strata"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped `calibration/ipr-model.json` is what `calibrate` makes of the committed human
/// oracle file, and it rates the humans' own bands in order.
#[test]
#[cfg_attr(not(bench_data), ignore = "needs the bench caches: run bench/unpack.sh")]
fn shipped_calibration_reproduces_from_the_committed_oracle() {
    let root = Path::new(env!("SPARRING_REPO"));
    if !root.join("bench/humanlike/oracle.jsonl").exists() {
        eprintln!("skipped: bench/humanlike/oracle.jsonl not found (run bench/unpack.sh)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("sparring-ipr-ship-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("model.json");
    let run = crate::common::command(bin())
        .current_dir(root)
        .args(["strength", "ipr", "calibrate", "--oracle", "bench/humanlike/oracle.jsonl", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let fresh: IprModel = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let model: IprModel =
        serde_json::from_str(&std::fs::read_to_string(root.join("calibration/ipr-model.json")).unwrap()).unwrap();
    let stale = "calibration/ipr-model.json is stale: rerun bench/ipr/run.sh";
    assert_eq!(fresh.reference.checksum, model.reference.checksum, "{stale}");
    assert_eq!(fresh.strata.len(), model.strata.len(), "{stale}");
    for (a, b) in fresh.strata.iter().zip(&model.strata) {
        assert_eq!(a.stratum, b.stratum, "{stale}");
        assert!((a.intercept - b.intercept).abs() < 1e-6 && (a.slope - b.slope).abs() < 1e-6, "{stale}");
    }
    for st in &model.strata {
        let ratings: Vec<f64> = st.bands.iter().map(|b| st.elo(b.projected_ase)).collect();
        assert!(st.slope < 0.0 && st.r2 > 0.8, "stratum {:?}: slope {} r2 {}", st.stratum, st.slope, st.r2);
        assert!(ratings.first() < ratings.last(), "800 band must rate below 2200 band: {ratings:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A one-position oracle table for `fen` in which `best` scores 500 and every other move 0.
fn table(fen: &str, best: &str, played: &str) -> sparring_tools::common::scored::OraclePosition {
    use shakmaty::Position;
    use sparring::board::notation::uci as uci_of;
    use sparring::score::Score;
    use sparring_tools::common::scored::{OracleMove, OraclePosition, SampledPosition};
    let chess = sparring::board::parse_fen(fen).unwrap();
    let mut moves: Vec<OracleMove> = chess
        .legal_moves()
        .iter()
        .map(|&m| {
            let uci = uci_of(m);
            let score = Score::Cp(if uci == best { 500 } else { 0 });
            OracleMove { uci, score }
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.score.order_value()));
    let pos = SampledPosition { fen: fen.into(), human: played.into(), rating: 1500, band: 1400, game: 0, ply: 20 };
    OraclePosition { pos, oracle: "internal".into(), search: None, depth: 8, moves }
}

#[test]
fn shallow_marking_and_split() {
    // White's rook takes the loose queen: a depth-1 search sees it.
    let fen = "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1";
    let mut searcher = sparring::search::Searcher::new(1);
    let seen = table(fen, "d2d5", "d2d5");
    let mut d = Decision::from_position(&seen, 0).expect("eligible");
    assert_eq!((d.chosen, d.near_best()), (0, 1));
    d.mark_shallow(&seen, &mut searcher).unwrap();
    assert_eq!(d.shallow, Some(true));
    // If the oracle says another move is the only good one, the shallow search misses it.
    let hidden = table(fen, "e1f1", "d2d5");
    let mut h = Decision::from_position(&hidden, 0).expect("eligible");
    assert_eq!(h.chosen, 300);
    h.mark_shallow(&hidden, &mut searcher).unwrap();
    assert_eq!(h.shallow, Some(false));

    let split = ipr::split_shallow(&ipr::parse_strata("1,2-").unwrap());
    assert_eq!(split.iter().map(Stratum::label).collect::<Vec<_>>(), ["1s", "1h", "2-s", "2-h"]);
    assert!(split[0].contains(&d) && !split[1].contains(&d) && split[1].contains(&h));
    // A split calibration refuses decisions that were never marked.
    let err = calibrate(&synthetic_bands(3), &ipr::parse_strata("all").unwrap(), true);
    assert!(err.is_err());
}

/// `ipr pgn` rates a player straight from a PGN (positions scored once into a resumable cache)
/// and refuses a player who is not there.
#[test]
#[cfg_attr(not(bench_data), ignore = "needs the bench caches: run bench/unpack.sh")]
fn pgn_subcommand_rates_a_player_and_reuses_its_cache() {
    let root = Path::new(env!("SPARRING_REPO"));
    let dir = std::env::temp_dir().join(format!("sparring-ipr-pgn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cache = dir.join("cache.jsonl");
    let csv = dir.join("out.csv");
    let pgn = "bench/results/selfplay/ladder-1100-vs-900.pgn";
    if !root.join(pgn).exists() {
        eprintln!("skipped: {pgn} not found (run bench/unpack.sh)");
        return;
    }
    let run = |player: &str| {
        crate::common::command(bin())
            .current_dir(root)
            .args(["strength", "ipr", "pgn", pgn, "--player", player])
            .args(["--per-player", "240", "--bootstrap", "20", "-j", "2"])
            .arg("--cache")
            .arg(&cache)
            .arg("--csv")
            .arg(&csv)
            .output()
            .unwrap()
    };
    let first = run("ELO1100");
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    let row = text.lines().nth(1).expect("one rated player");
    let f: Vec<&str> = row.split(',').collect();
    assert_eq!(f[0], "elo1100");
    let elo: f64 = f[5].parse().unwrap();
    assert!((0.0..4000.0).contains(&elo), "{row}");
    let scored = std::fs::read_to_string(&cache).unwrap().lines().count();
    assert_eq!(scored, 240);
    // A second run scores nothing new and gives the same answer.
    let again = run("elo1100");
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("0 to score"));
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
    let missing = run("nobody");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nobody"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ipr --help` states the 30-decision rule that decides which groups get a rating.
#[test]
fn help_states_the_minimum_number_of_decisions() {
    let out = crate::common::command(bin()).args(["strength", "ipr", "--help"]).output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains(&format!("at least {} eligible", ipr::MIN_DECISIONS)), "{help}");
    assert!(help.contains("fewer than 5 games") && ipr::MIN_RESAMPLE_GAMES == 5, "{help}");
}

/// A group from one game still gets an interval of real width (its decisions are resampled, not
/// its one game), and a thin stratum prints `-`, never `NaN ± NaN`.
#[test]
fn one_game_gets_an_interval_and_thin_strata_print_no_nan() {
    // A small calibration (300 decisions per band) is enough to map a fit to Elo here.
    let mut cal = Vec::new();
    for (i, band) in (800..2400).step_by(400).enumerate() {
        let mut ds = synthetic(Fit { s: 0.6 * 0.65f64.powi(i as i32), c: 1.1 }, 300, band + 100, 300 + i as u64);
        for d in &mut ds {
            d.band = band;
            d.game.1 += 10_000 * i as u32;
        }
        cal.extend(ds);
    }
    let model = calibrate(&cal, &ipr::parse_strata("1-2,3-").unwrap(), false).unwrap();
    let refs: Vec<&Decision> = cal.iter().collect();
    let mut one = synthetic(Fit { s: 0.2, c: 1.1 }, 120, 1500, 31);
    for d in &mut one {
        d.game = (0, 0);
    }
    let ds: Vec<&Decision> = one.iter().collect();
    let r = ipr::rate("one game", &ds, &refs, &model, 30, 1).unwrap();
    assert_eq!((r.games, r.resampled), (1, "decisions"));
    assert!(r.elo_hi - r.elo_lo > 20.0, "interval [{}, {}]", r.elo_lo, r.elo_hi);
    assert!(r.elo_lo <= r.elo && r.elo <= r.elo_hi);
    // Many games: resampled by game as before.
    let many = synthetic(Fit { s: 0.2, c: 1.1 }, 400, 1500, 32);
    let ds: Vec<&Decision> = many.iter().collect();
    assert_eq!(ipr::rate("many", &ds, &refs, &model, 20, 1).unwrap().resampled, "games");
    let thin = ipr::StratumRating { stratum: "5-".into(), decisions: 3, elo: f64::NAN, sd: f64::NAN };
    let cell = sparring_tools::strength::ipr_cli::stratum_cell(&thin);
    assert!(!cell.contains("NaN") && cell.contains('-') && cell.contains("(3)"), "{cell}");
    let fitted = ipr::StratumRating { stratum: "1-2".into(), decisions: 80, elo: 1510.4, sd: 61.0 };
    assert!(sparring_tools::strength::ipr_cli::stratum_cell(&fitted).contains("1510 ± 61"));
}

/// The shipped model is compiled in: `ipr rate` works from a directory that is not the
/// repository root (it used to look for calibration/ipr-model.json relative to it).
#[test]
#[cfg_attr(not(bench_data), ignore = "needs the bench caches: run bench/unpack.sh")]
fn ipr_rate_runs_outside_the_repository() {
    let root = Path::new(env!("SPARRING_REPO"));
    let oracle = root.join("bench/humanlike/oracle.jsonl");
    if !oracle.exists() {
        eprintln!("skipped: bench/humanlike/oracle.jsonl not found (run bench/unpack.sh)");
        return;
    }
    let out = crate::common::command(bin())
        .current_dir(std::env::temp_dir())
        .args(["strength", "ipr", "rate", "--group", "all", "--every", "40", "--bootstrap", "4"])
        .arg(&oracle)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).lines().any(|l| l.starts_with("all ")), "{err}");
}

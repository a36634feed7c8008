//! Human-likeness bench end to end on a tiny PGN: sampling determinism and bands, the internal
//! oracle at depth 2 (cached, resumable), and `measure` with this engine at `go depth 1`.

use sparring_tools::common::scored::{OraclePosition, SampledPosition, load_oracle, read_jsonl};
use sparring_tools::humanlike::sample::{SampleConfig, build_positions, choose, read_games};
use std::path::{Path, PathBuf};

const PGN: &str = r#"[Event "test"]
[White "a"]
[Black "b"]
[Result "1-0"]
[WhiteElo "1450"]
[BlackElo "2250"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 1-0

[Event "test"]
[White "c"]
[Black "d"]
[Result "0-1"]
[WhiteElo "810"]
[BlackElo "2399"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Be7 5. e3 O-O 6. Nf3 h6 7. Bh4 b6 8. cxd5 Nxd5 9. Bxe7 Qxe7 10. Nxd5 exd5 0-1

[Event "test"]
[White "e"]
[Black "f"]
[Result "1/2-1/2"]
[WhiteElo "700"]
[BlackElo "2500"]

1. c4 e5 2. Nc3 Nf6 3. Nf3 Nc6 4. g3 d5 5. cxd5 Nxd5 6. Bg2 Nb6 7. O-O Be7 8. d3 O-O 9. a3 Be6 10. b4 a6 1/2-1/2
"#;

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sparring-humanlike-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_sparring")
}

fn run(args: &[&str]) -> String {
    run_as("humanlike", args)
}

/// Runs `sparring TOOL ARGS…`, which must succeed; its stdout.
fn run_as(tool: &str, args: &[&str]) -> String {
    let out = crate::common::command(bin()).arg(tool).args(args).output().expect("run sparring");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "sparring humanlike {args:?} failed:\n{text}");
    text
}

#[test]
fn sampling_is_deterministic_and_banded() {
    let dir = tmp("sample");
    let pgn = dir.join("t.pgn");
    std::fs::write(&pgn, PGN).unwrap();
    let games = read_games(&pgn).unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[0].moves.len(), 20);
    let cfg = SampleConfig {
        bands: vec![800, 1400, 2200],
        per_band: 3,
        band_counts: Default::default(),
        min_ply: 6,
        max_per_game: 2,
        seed: 7,
        part: None,
        exclude: Default::default(),
        people_only: false,
    };
    let a = build_positions(&games, &choose(&games, &cfg));
    let b = build_positions(&games, &choose(&games, &cfg));
    assert_eq!(a, b, "same seed, same sample");
    let other = build_positions(&games, &choose(&games, &SampleConfig { seed: 8, ..cfg.clone() }));
    assert_eq!(other.len(), a.len());
    for p in &a {
        assert!(p.ply >= 6);
        assert_eq!(p.band, p.rating / 200 * 200);
        assert!([800, 1400, 2200].contains(&p.band), "{p:?}");
        // The mover's rating: White moves at even plies.
        let white = p.ply % 2 == 0;
        let g = &games[p.game];
        assert_eq!(Some(p.rating), if white { g.white_elo } else { g.black_elo });
        assert_eq!(p.fen.split_whitespace().nth(1), Some(if white { "w" } else { "b" }));
    }
    // A larger per-band count extends the sample (a prefix property), so the oracle cache stays valid.
    let more = build_positions(&games, &choose(&games, &SampleConfig { per_band: 4, ..cfg.clone() }));
    assert!(a.iter().all(|p| more.contains(p)));
    let counts = [(2200, 1)].into_iter().collect();
    let fewer = build_positions(&games, &choose(&games, &SampleConfig { band_counts: counts, ..cfg.clone() }));
    assert_eq!(fewer.iter().filter(|p| p.band == 2200).count(), 1);
    assert_eq!(fewer.iter().filter(|p| p.band == 1400).count(), 2);
    // Game 2 (700 vs 2500) has neither player inside the bands.
    assert!(a.iter().all(|p| p.game != 2));
    let count = |band| a.iter().filter(|p| p.band == band).count();
    // Band 1400 and 800 have one player-game each: capped by max_per_game = 2.
    assert_eq!(count(1400), 2);
    assert_eq!(count(800), 2);
    // Band 2200 has two player-games (2250 and 2399): 3 positions, at most 2 from one.
    assert_eq!(count(2200), 3);
    let mut per_game = std::collections::HashMap::new();
    for p in a.iter().filter(|p| p.band == 2200) {
        *per_game.entry(p.game).or_insert(0) += 1;
    }
    assert!(per_game.values().all(|&n| n <= 2));
    // Extending a sample: the excluded (game, ply) pairs are never taken again, and a part keeps
    // only its games (indices 0-2 are all in the fit part, 0-6 mod 10).
    let taken = a.iter().map(|p| (p.game, p.ply)).collect();
    let extra = build_positions(&games, &choose(&games, &SampleConfig { exclude: taken, ..cfg.clone() }));
    assert!(!extra.is_empty() && extra.iter().all(|p| !a.iter().any(|q| q.game == p.game && q.ply == p.ply)));
    use sparring_tools::common::split::Part;
    let test_only = SampleConfig { part: Some(Part::Test), ..cfg.clone() };
    assert!(choose(&games, &test_only).values().all(Vec::is_empty), "no game of the test part");
    let fit_only = SampleConfig { part: Some(Part::Fit), ..cfg.clone() };
    assert_eq!(build_positions(&games, &choose(&games, &fit_only)), a);
}

#[test]
fn sample_oracle_measure_end_to_end() {
    let dir = tmp("e2e");
    let pgn = dir.join("t.pgn");
    std::fs::write(&pgn, PGN).unwrap();
    let positions = dir.join("positions.jsonl");
    let oracle = dir.join("oracle.jsonl");
    let csv = dir.join("out.csv");
    let p = |x: &Path| x.to_str().unwrap().to_string();
    run(&[
        "sample",
        "--pgn",
        &p(&pgn),
        "--out",
        &p(&positions),
        "--per-band",
        "2",
        "--bands",
        "800-2400",
        "--min-ply",
        "8",
    ]);
    let sampled: Vec<SampledPosition> = read_jsonl(&positions).unwrap();
    assert_eq!(sampled.len(), 6, "{sampled:?}");

    // Oracle on the first 4, then resume for the rest: nothing is scored twice.
    run(&["oracle", "--positions", &p(&positions), "--out", &p(&oracle), "--depth", "2", "--limit", "4"]);
    assert_eq!(read_jsonl::<OraclePosition>(&oracle).unwrap().len(), 4);
    let log = run(&["oracle", "--positions", &p(&positions), "--out", &p(&oracle), "--depth", "2"]);
    assert!(log.contains("4 cached, 2 to score"), "{log}");
    let scored = load_oracle(&oracle).unwrap();
    assert_eq!(scored.len(), 6);
    // Every entry names the search that scored it.
    let fp = sparring_tools::common::oracle::internal_fingerprint();
    assert!(scored.iter().all(|s| s.search.as_deref() == Some(fp.as_str())));
    assert!(sparring_tools::common::scored::stale_internal(&scored).is_none());

    // A cache scored by another search (here: entries without the record, as generation 1 wrote
    // them) is not extended: two judges would share one file.
    let stale = dir.join("stale.jsonl");
    let text = std::fs::read_to_string(&oracle).unwrap();
    let first = text.lines().next().unwrap().replace(&format!(",\"search\":\"{fp}\""), "");
    assert!(!first.contains("search"), "{first}");
    std::fs::write(&stale, format!("{first}\n")).unwrap();
    let old: Vec<OraclePosition> = read_jsonl(&stale).unwrap();
    assert!(sparring_tools::common::scored::stale_internal(&old).unwrap().contains("1 of 1 positions"));
    let out = crate::common::command(bin())
        .args(["humanlike", "oracle", "--positions", &p(&positions), "--out", &p(&stale), "--depth", "2"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("another internal search"), "{err}");
    assert_eq!(std::fs::read_to_string(&stale).unwrap(), format!("{first}\n"), "the stale cache is left as it was");
    for s in &scored {
        let c = s.chess().unwrap();
        use shakmaty::Position;
        assert_eq!(s.moves.len(), c.legal_moves().len(), "every legal move scored");
        assert!(s.score_of(&s.pos.human).is_some());
        assert_eq!(s.depth, 2);
    }

    run(&["measure", "--oracle", &p(&oracle), "--humans", "--out", &p(&csv)]);
    let engine = bin();
    let table = run(&[
        "measure",
        "--oracle",
        &p(&oracle),
        "--engine",
        engine,
        "--go",
        "depth 1",
        "--label",
        "self-d1",
        "--jobs",
        "2",
        "--out",
        &p(&csv),
    ]);
    assert!(table.contains("self-d1"), "{table}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("label,engine,options,go,elo,band,n,errors,match_rate"));
    let eligible = scored.iter().filter(|s| s.is_eligible()).count();
    let rows_n = |label: &str| -> usize {
        lines[1..]
            .iter()
            .filter(|l| l.starts_with(&format!("{label},")))
            .map(|l| l.split(',').nth(6).unwrap().parse::<usize>().unwrap())
            .sum()
    };
    assert_eq!(rows_n("humans"), eligible);
    assert_eq!(rows_n("self-d1"), eligible);
    // The humans match themselves and have zero KS distance to themselves.
    for l in lines[1..].iter().filter(|l| l.starts_with("humans,")) {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f[8], "1.0000");
        assert_eq!(f[15], "0.0000");
    }

    // Re-running replaces the label's rows instead of duplicating them.
    run(&["measure", "--oracle", &p(&oracle), "--humans", "--out", &p(&csv)]);
    let again = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(again.lines().count(), lines.len());

    // `check` plays the ladder itself; --moves-out records one legal move per eligible position,
    // the same moves again on a second run (seeded).
    let check_csv = dir.join("check.csv");
    let moves = dir.join("moves.jsonl");
    let ladder = concat!(env!("SPARRING_REPO"), "/profiles/ladder.toml");
    let check = |out: &Path| {
        run_as(
            "calibrate",
            &["check", "--oracle", &p(&oracle), "--ladder", ladder, "--out", &p(&check_csv), "--moves-out", &p(out)],
        )
    };
    check(&moves);
    let recorded: Vec<serde_json::Value> = read_jsonl(&moves).unwrap();
    assert_eq!(recorded.len(), eligible);
    for r in &recorded {
        let s = scored.iter().find(|s| s.pos.fen == r["fen"]).expect("a sampled position");
        assert!(s.score_of(r["mv"].as_str().unwrap()).is_some(), "legal move recorded: {r}");
        assert_eq!(r["band"], s.pos.band);
        assert_eq!(r["elo"].as_i64().unwrap(), s.pos.band as i64 + 100);
    }
    let moves2 = dir.join("moves2.jsonl");
    check(&moves2);
    assert_eq!(std::fs::read_to_string(&moves).unwrap(), std::fs::read_to_string(&moves2).unwrap());
    // `--seed 777` is the default; other seeds draw other moves for the same positions.
    let seeded = |seed: &str, out: &Path| {
        run_as(
            "calibrate",
            &[
                "check",
                "--oracle",
                &p(&oracle),
                "--ladder",
                ladder,
                "--out",
                &p(&check_csv),
                "--moves-out",
                &p(out),
                "--seed",
                seed,
            ],
        )
    };
    let (m777, m1, m2) = (dir.join("m777.jsonl"), dir.join("m1.jsonl"), dir.join("m2.jsonl"));
    seeded("777", &m777);
    assert_eq!(std::fs::read_to_string(&moves).unwrap(), std::fs::read_to_string(&m777).unwrap());
    seeded("1", &m1);
    let a: Vec<serde_json::Value> = read_jsonl(&m1).unwrap();
    assert_eq!(a.len(), eligible);
    // The v9 points choose sharply (the human move model weighs heavily), so on a small sample two
    // seeds may agree everywhere; among the next few seeds one must differ somewhere.
    let differs = ["2", "3", "4", "5"].iter().any(|seed| {
        seeded(seed, &m2);
        let b: Vec<serde_json::Value> = read_jsonl(&m2).unwrap();
        a.iter().zip(&b).any(|(x, y)| x["mv"] != y["mv"])
    });
    assert!(differs, "seeds 1 to 5 chose the same moves everywhere");

    // `model check`: the points' exact expectations, one search judged by two oracles. Judged by
    // the same cache twice the rows agree; by a cache in which every move is as good as the best
    // no one loses anything; the summary's mean is the decisions' mean; two runs agree.
    let flat = dir.join("flat.jsonl");
    let flat_text: String = std::fs::read_to_string(&oracle)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            // Moves are ["uci", cp] or ["uci", "#n"]: every one scores what the best centipawn move does.
            let best = v["moves"].as_array().unwrap().iter().filter_map(|m| m[1].as_i64()).max().unwrap_or(0);
            for m in v["moves"].as_array_mut().unwrap() {
                m[1] = best.into();
            }
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&flat, flat_text).unwrap();
    let (summary, decisions) = (dir.join("mc.csv"), dir.join("mcd.csv"));
    let model_check = || {
        let o = crate::common::command(bin())
            .args(["calibrate", "model-check", "--ladder", ladder, "--pgn", &p(&pgn), "--part", "fit"])
            .args(["--oracle", &format!("a={}", p(&oracle)), "--oracle", &format!("b={}", p(&oracle))])
            .args(["--oracle", &format!("flat={}", p(&flat)), "--points", "800:900", "1400:1500", "--jobs", "2"])
            .args(["--out", &p(&summary), "--decisions-out", &p(&decisions)])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (std::fs::read_to_string(&summary).unwrap(), std::fs::read_to_string(&decisions).unwrap())
    };
    let (sum1, dec1) = model_check();
    assert_eq!(model_check(), (sum1.clone(), dec1.clone()), "model check is deterministic");
    let rows: Vec<Vec<&str>> = sum1.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 6, "{sum1}");
    for w in rows.chunks(3) {
        assert_eq!((w[0][0], w[1][0], w[2][0]), ("a", "b", "flat"));
        assert_eq!(w[0][1..], w[1][1..], "one cache, two names: same figures");
        assert_eq!((w[2][4], w[2][5]), ("0.00", "0.00"), "nothing is lost where every move is best");
        let mean: f64 = w[0][4].parse().unwrap();
        let n: usize = w[0][3].parse().unwrap();
        let ds: Vec<f64> = dec1
            .lines()
            .filter(|l| l.starts_with(&format!("a,{},{},", w[0][1], w[0][2])))
            .map(|l| l.split(',').nth(5).unwrap().parse().unwrap())
            .collect();
        assert_eq!(ds.len(), n);
        assert!((ds.iter().sum::<f64>() / n as f64 - mean).abs() < 0.01, "{mean} vs {ds:?}");
        let m: f64 = w[0][8].parse().unwrap();
        assert!((0.0..=1.0).contains(&m));
    }

    // Report writes the markdown tables (the charts are bench/plot.py's).
    let out_dir = dir.join("report");
    run(&["report", "--csv", &p(&csv), "--out-dir", &p(&out_dir)]);
    let t = std::fs::read_to_string(out_dir.join("humanlike-report.md")).unwrap();
    assert!(t.starts_with("# Human-likeness per rating band"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `model repair` refuses a chain it cannot repair before reading any games: a point the ladder
/// does not have, a chain of one point, an unreadable ladder, model offsets without Maia-3.
#[test]
fn model_repair_refuses_a_bad_chain_with_a_reason() {
    let dir = tmp("repair");
    let out = dir.join("out.toml");
    let fail = |args: &[&str]| {
        let o = crate::common::command(bin()).args(["calibrate", "repair"]).args(args).output().expect("run sparring");
        assert!(!o.status.success(), "{args:?} should fail");
        assert!(!out.exists(), "a refused repair writes no ladder");
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    let o = out.to_str().unwrap();
    let e = fail(&["--points", "1000:1150", "1200:1300", "--ladder-out", o, "--pgn", "/nonexistent.pgn"]);
    assert!(e.contains("no point 1150"), "{e}");
    let e = fail(&["--points", "1000:1100", "--ladder-out", o]);
    assert!(e.contains("--points"), "{e}");
    let e = fail(&["--ladder", "/nonexistent.toml", "--points", "1000:1100", "1200:1300", "--ladder-out", o]);
    assert!(e.contains("/nonexistent.toml"), "{e}");
    let e = fail(&["--points", "1000:1100", "1200:1300", "--ladder-out", o, "--pgn", "/nonexistent.pgn"]);
    assert!(e.contains("/nonexistent.pgn"), "{e}");
    for m in ["--margin=-1", "--margin=25", "--margin=x"] {
        let e = fail(&["--points", "1000:1100", "1200:1300", "--ladder-out", o, m]);
        assert!(e.contains("--margin"), "{m}: {e}");
    }
    // A model rating input moves only on a Maia-3 (v7) ladder: the built-in one made to name v6.
    let v6 = dir.join("ladder-v6.toml");
    let text = sparring::profile::Ladder::builtin_text();
    assert!(text.contains("human_model = 7"));
    std::fs::write(&v6, text.replace("human_model = 7", "human_model = 6")).unwrap();
    let v6 = v6.to_str().unwrap();
    let e =
        fail(&["--ladder", v6, "--points", "1000:1100", "1200:1300", "--ladder-out", o, "--model-offsets=-113,113"]);
    assert!(e.contains("--model-offsets") && e.contains("not a v7 ladder"), "{e}");
    for m in ["--model-offsets=5000", "--model-offsets=x"] {
        let e = fail(&["--points", "1000:1100", "1200:1300", "--ladder-out", o, m]);
        assert!(e.contains("--model-offsets"), "{m}: {e}");
    }
}

/// The calibration and model commands left `humanlike` (issue 60); their old spellings still run
/// the new commands, with a note naming the new spelling.
#[test]
fn old_spellings_run_the_moved_commands() {
    for (old, new) in [
        (&["humanlike", "model", "fit"][..], "sparring calibrate model-fit"),
        (&["humanlike", "model", "repair"][..], "sparring calibrate repair"),
        (&["humanlike", "model", "train"][..], "sparring model train"),
        (&["humanlike", "steps"][..], "sparring calibrate steps"),
        (&["humanlike", "curve"][..], "sparring calibrate curve"),
    ] {
        let o = crate::common::command(bin()).args(old).arg("--help").output().expect("run sparring");
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success(), "{old:?}: {err}");
        assert!(out.contains(&format!("Usage: {new}")), "{old:?}: {out}");
        assert!(err.contains(&format!("is now '{new}'")), "{old:?}: {err}");
    }
    // The bench keeps only its own commands.
    let o = crate::common::command(bin()).args(["humanlike", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout);
    assert!(help.contains("measure") && !help.contains("model-fit") && !help.contains("steps"), "{help}");
}

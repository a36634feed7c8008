//! `Human Time` over real UCI: a weak setting with a clock chooses its move as without the option,
//! then waits the seeded time the model draws; the wait never loses on time, ends at once on
//! `stop`/`ponderhit`, and does not happen under `movetime`, `nodes`, `depth`, `infinite` or
//! `ponder`. Timings are checked with bounds far from the planned times (a 100 s model against
//! answers expected within a few seconds), never with luck.

use crate::common::Uci;
use sparring::human_time::features::NAMES;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A model file whose every draw is `seconds` (intercept only, a tiny spread, never instant).
fn constant_model(seconds: f64, tag: &str) -> PathBuf {
    let n = NAMES.len();
    let row = |first: f64| {
        let mut v = vec!["0.0".to_string(); n];
        v[0] = format!("{first}");
        format!("[{}]", v.join(", "))
    };
    let names: Vec<String> = NAMES.iter().map(|s| format!("\"{s}\"")).collect();
    let text = format!(
        "name = \"human-time-test\"\nversion = 1\ndescription = \"constant {seconds} s\"\nfeatures = [{}]\n\
         instant_s = 1.0\ninstant = {}\nmean = {}\nln_sigma = {}\n",
        names.join(", "),
        row(-30.0),
        row(seconds.ln()),
        row(-6.0)
    );
    let p = std::env::temp_dir().join(format!("sparring-human-time-{}-{tag}.toml", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

/// A weak setting with `Human Time` on (and, when given, a model file), ready.
fn engine(elo: i32, seed: u64, file: Option<&PathBuf>) -> Uci {
    let mut uci = Uci::start_level(elo, seed);
    uci.send("setoption name Human Time value true");
    if let Some(f) = file {
        uci.send(&format!("setoption name Human Time File value {}", f.display()));
    }
    uci.isready();
    uci
}

/// Sends `go ARGS` and returns (bestmove, all lines, seconds until it came).
fn go(uci: &mut Uci, args: &str, timeout: Duration) -> (String, Vec<String>, Duration) {
    let t = Instant::now();
    uci.send(&format!("go {args}"));
    let (mv, lines) = uci.bestmove(timeout);
    (mv, lines, t.elapsed())
}

const POSITIONS: [&str; 4] = [
    "startpos moves e2e4",
    "startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "fen 8/5pk1/6p1/8/3R4/6P1/5PK1/2r5 b - - 0 40",
];

fn planned_ms(lines: &[String]) -> Option<u64> {
    lines.iter().find_map(|l| l.strip_prefix("info string Human Time: thinking ")?.strip_suffix(" ms")?.parse().ok())
}

#[test]
fn the_planned_time_is_the_same_in_two_processes_and_is_waited() {
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut uci = engine(1500, 4242, None);
        uci.send("debug on");
        let mut planned = Vec::new();
        for p in POSITIONS {
            uci.send(&format!("position {p}"));
            let (_, lines, took) = go(&mut uci, "wtime 10000 btime 10000 winc 100 binc 100", Duration::from_secs(30));
            let ms = planned_ms(&lines).unwrap_or_else(|| panic!("no planned time in {lines:#?}"));
            // At most 35 % of the clock less the overhead, plus the increment.
            assert!(ms <= 9970 * 35 / 100 + 100, "{ms} ms planned with 10 s left");
            assert!(
                took + Duration::from_millis(5) >= Duration::from_millis(ms),
                "answered after {took:?}, planned {ms} ms"
            );
            planned.push(ms);
        }
        runs.push(planned);
    }
    assert_eq!(runs[0], runs[1]);
    // The draws differ from position to position (they are not one constant).
    assert!(runs[0].iter().any(|&m| m != runs[0][0]), "{:?}", runs[0]);
}

#[test]
fn stop_during_the_wait_answers_at_once_with_the_chosen_move() {
    let slow = constant_model(100.0, "stop");
    let mut reference = Uci::start_level(1400, 99);
    reference.isready();
    let mut uci = engine(1400, 99, Some(&slow));
    let mut answers = Vec::new();
    for p in &POSITIONS[..3] {
        reference.send(&format!("position {p}"));
        let (expected, _, _) = go(&mut reference, "wtime 600000 btime 600000", Duration::from_secs(30));
        uci.send(&format!("position {p}"));
        uci.send("go wtime 600000 btime 600000");
        // Not answered before stop: the wait is 100 s.
        let early = uci.drain(Duration::from_millis(400));
        assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:#?}");
        let t = Instant::now();
        uci.send("stop");
        let (mv, lines) = uci.bestmove(Duration::from_secs(5));
        answers.push(t.elapsed());
        assert_eq!(mv, expected, "the move must not depend on the option");
        // The final info line's PV starts with the move played; no flood while waiting.
        let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("a final info line");
        assert!(last_info.contains(&format!(" pv {mv}")), "{last_info}");
        assert!(early.iter().chain(&lines).filter(|l| l.starts_with("info")).count() <= 3, "{early:#?} {lines:#?}");
    }
    answers.sort();
    assert!(answers[1] < Duration::from_millis(50), "stop answered after {answers:?}");
    let _ = std::fs::remove_file(slow);
}

#[test]
fn ponderhit_and_quit_end_the_wait() {
    let slow = constant_model(100.0, "quit");
    let mut uci = engine(1400, 5, Some(&slow));
    uci.send("position startpos moves d2d4");
    uci.send("go wtime 600000 btime 600000");
    assert!(uci.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
    let t = Instant::now();
    uci.send("ponderhit");
    uci.bestmove(Duration::from_secs(5));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    uci.send("go wtime 600000 btime 600000");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    uci.send("quit");
    assert_eq!(uci.wait_exit(Duration::from_secs(5)), Some(0));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let _ = std::fs::remove_file(slow);
}

#[test]
fn it_never_flags_with_one_second_left_and_no_increment() {
    let slow = constant_model(100.0, "flag");
    let mut uci = engine(1600, 3, Some(&slow));
    // A game played on a one-second clock with no increment, with a model that would think for
    // 100 s: every move's time comes off the clock, which must never run out.
    let mut clock_ms: i64 = 1000;
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..8 {
        let pos = if moves.is_empty() { "startpos".to_string() } else { format!("startpos moves {}", moves.join(" ")) };
        uci.send(&format!("position {pos}"));
        let (mv, _, took) = go(&mut uci, &format!("wtime {clock_ms} btime {clock_ms}"), Duration::from_secs(10));
        assert!(crate::common::is_legal_after(&pos, &mv), "{mv} after {pos}");
        // Move Overhead (30 ms) is what the GUI's lag may take; the rest must be left.
        assert!((took.as_millis() as i64) < clock_ms - 30, "{took:?} with {clock_ms} ms left");
        clock_ms -= took.as_millis() as i64;
        moves.push(mv);
    }
    assert!(clock_ms > 0, "{clock_ms}");
    let _ = std::fs::remove_file(slow);
}

#[test]
fn the_option_is_ignored_without_a_clock_and_under_movetime_nodes_depth_infinite_and_ponder() {
    let slow = constant_model(100.0, "ignored");
    let mut uci = engine(1500, 8, Some(&slow));
    uci.send("position startpos moves e2e4 c7c5");
    let clock = "wtime 600000 btime 600000";
    for args in ["movetime 200", "nodes 2000", "depth 2"] {
        let (_, _, took) = go(&mut uci, &format!("{args} {clock}"), Duration::from_secs(30));
        assert!(took < Duration::from_secs(10), "go {args}: {took:?}");
    }
    // No clock at all.
    let (_, _, took) = go(&mut uci, "", Duration::from_secs(30));
    assert!(took < Duration::from_secs(10), "go: {took:?}");
    // infinite and ponder answer as soon as they are told to.
    for (args, end) in [("infinite", "stop"), ("ponder", "ponderhit")] {
        uci.send(&format!("go {args} {clock}"));
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        uci.send(end);
        uci.bestmove(Duration::from_secs(10));
        assert!(t.elapsed() < Duration::from_secs(5), "go {args} then {end}: {:?}", t.elapsed());
    }
    // Full strength never waits like a person: its own time management plays.
    uci.send("setoption name UCI_LimitStrength value false");
    let (_, _, took) = go(&mut uci, "wtime 10000 btime 10000", Duration::from_secs(30));
    assert!(took < Duration::from_secs(8), "full strength: {took:?}");
    let _ = std::fs::remove_file(slow);
}

#[test]
fn the_moves_are_the_same_with_the_option_on_and_off() {
    let quick = constant_model(0.05, "same");
    for elo in [1100, 1900] {
        let mut on = engine(elo, 77, Some(&quick));
        let mut off = Uci::start_level(elo, 77);
        off.isready();
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..10 {
            let pos =
                if moves.is_empty() { "startpos".to_string() } else { format!("startpos moves {}", moves.join(" ")) };
            on.send(&format!("position {pos}"));
            off.send(&format!("position {pos}"));
            let (a, _, _) = go(&mut on, "wtime 60000 btime 60000", Duration::from_secs(30));
            let (b, _, _) = go(&mut off, "wtime 60000 btime 60000", Duration::from_secs(30));
            assert_eq!(a, b, "UCI_Elo {elo} after {pos}");
            moves.push(a);
        }
    }
    let _ = std::fs::remove_file(quick);
}

#[test]
fn a_missing_or_corrupt_file_is_refused_clearly_and_the_option_falls_back_to_off() {
    let slow = constant_model(100.0, "bad");
    let corrupt = std::env::temp_dir().join(format!("sparring-human-time-{}-corrupt.toml", std::process::id()));
    std::fs::write(&corrupt, "name = \"human-time\"\nversion = 1\nfeatures = [\"one\"]\n").unwrap();
    let missing = std::env::temp_dir().join("sparring-human-time-no-such-file.toml");
    for (bad, why) in [(&missing, "No such file"), (&corrupt, "missing field")] {
        let mut uci = engine(1500, 1, Some(&slow));
        uci.send(&format!("setoption name Human Time File value {}", bad.display()));
        let lines = uci.wait_for(Duration::from_secs(5), |l| l.contains("Human Time File rejected"));
        let msg = lines.last().unwrap();
        assert!(msg.contains(why) && msg.contains("Human Time is off"), "{msg}");
        // Off: no 100 s wait.
        uci.send("position startpos");
        let (_, _, took) = go(&mut uci, "wtime 600000 btime 600000", Duration::from_secs(30));
        assert!(took < Duration::from_secs(10), "{took:?}");
        // Switching it on again without a usable model says so and stays off.
        uci.send("setoption name Human Time value true");
        let lines = uci.wait_for(Duration::from_secs(5), |l| l.contains("Human Time:"));
        assert!(lines.last().unwrap().contains("stays off"), "{lines:#?}");
    }
    // A model with the wrong features is refused with the reason.
    let text = std::fs::read_to_string(&slow).unwrap().replace("\"recapture\"", "\"other\"");
    std::fs::write(&corrupt, text).unwrap();
    let mut uci = engine(1500, 1, None);
    uci.send(&format!("setoption name Human Time File value {}", corrupt.display()));
    let lines = uci.wait_for(Duration::from_secs(5), |l| l.contains("Human Time File rejected"));
    assert!(lines.last().unwrap().contains("features"), "{lines:#?}");
    for f in [slow, corrupt] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn the_builtin_model_is_frozen_in_the_manifest() {
    let m = sparring::human_time::builtin().expect("the built-in time model loads and matches its manifest entry");
    assert_eq!(m.tag(), "human-time v3");
    assert_eq!(m.residual.len(), 200, "v3 carries its residual table");
    assert!(m.fit.get("data").is_some_and(|d| d.contains("FIDE") && d.contains("newest search")), "{:?}", m.fit);
}

#[test]
fn the_engine_waits_what_the_library_draws_for_the_check() {
    use sparring::board::Game;
    use sparring::human_time::{Clock, Situation, builtin, features, planned};
    let mut uci = engine(1500, 4242, None);
    uci.send("debug on");
    let args = ["startpos", "moves", "e2e4", "e7e5", "g1f3"];
    uci.send(&format!("position {}", args.join(" ")));
    let (_, lines, _) = go(&mut uci, "wtime 8000 btime 7000 winc 100 binc 200", Duration::from_secs(30));
    let ms = planned_ms(&lines).expect("a planned time");
    // The same draw in this process, through the functions `sparring clock check` uses.
    let (root, _, moves) = sparring::uci::parse_position(&args).unwrap();
    let game = Game::with_moves(root.clone(), &moves);
    let prev = Game::with_moves(root, &moves[..moves.len() - 1]);
    let situation = Situation {
        rating: 1500.0,
        clock_s: 7.0,
        inc_s: 0.2,
        fullmove: 2,
        phase: features::phase(game.pos()),
        difficulty: {
            let mut look = sparring::search::Searcher::for_look();
            let prev_best = features::look_best(&mut look, &prev);
            features::look(&mut look, &game, prev_best)
        },
    };
    let clock = Clock {
        left: Duration::from_millis(7000),
        inc: Duration::from_millis(200),
        overhead: Duration::from_millis(30),
    };
    let want = clock.bound(planned(&builtin().unwrap(), &situation, 4242, game.pos()));
    assert_eq!(u128::from(ms), want.as_millis());
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn extract_fit_and_check_run_on_the_fide_clocks() {
    let Some(pgn) = crate::common::shared_data("human/fide-online-dev.pgn") else { return };
    let dir = std::env::temp_dir().join(format!("sparring-clock-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("moves.csv");
    let run = |args: &[&str]| {
        let out = crate::common::command(env!("CARGO_BIN_EXE_sparring")).arg("clock").args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let (pgn, csv_s) = (pgn.to_str().unwrap(), csv.to_str().unwrap());
    run(&["extract", "--pgn", pgn, "--out", csv_s, "--stride", "500", "--max-games", "12", "--min-fullmove", "2"]);
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert!(rows.len() > 300, "{} rows", rows.len());
    // Both parts, known time controls, no negative times, clocks within base + inc.
    assert!(rows.iter().any(|r| r[0].parse::<usize>().unwrap() % 2 == 0));
    assert!(rows.iter().any(|r| r[0].parse::<usize>().unwrap() % 2 == 1));
    for r in &rows {
        let (base, inc): (f64, f64) = (r[4].parse().unwrap(), r[5].parse().unwrap());
        assert!(
            [(180.0, 2.0), (600.0, 3.0), (600.0, 5.0), (900.0, 10.0), (1500.0, 10.0)].contains(&(base, inc)),
            "{r:?}"
        );
        assert!(r[7].parse::<f64>().unwrap() >= 0.0, "{r:?}");
    }
    // A second run resumes: nothing is added.
    let again =
        run(&["extract", "--pgn", pgn, "--out", csv_s, "--stride", "500", "--max-games", "12", "--min-fullmove", "2"]);
    assert!(again.contains("(0 moves added this run)"), "{again}");
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), text);
    let model = dir.join("model.toml");
    run(&["fit", "--moves", csv_s, "--out", model.to_str().unwrap(), "--source", "test"]);
    let m = sparring::human_time::load(&model).unwrap();
    // Fitted on the even games only.
    let even = rows.iter().filter(|r| r[0].parse::<usize>().unwrap() % 2 == 0).count();
    assert_eq!(m.fit.get("moves"), Some(&even.to_string()));
    let tables =
        run(&["check", "--moves", csv_s, "--model", model.to_str().unwrap(), "--out-dir", dir.to_str().unwrap()]);
    assert!(tables.contains("all,blitz") || tables.contains("all,rapid"), "{tables}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn controls_names_each_games_time_control_and_category() {
    let dir = std::env::temp_dir().join(format!("sparring-clock-controls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let game = |event: &str, tc: Option<&str>| {
        let tag = tc.map(|t| format!("[TimeControl \"{t}\"]\n")).unwrap_or_default();
        format!("[Event \"{event}\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n{tag}\n1. e4 e5 2. Nf3 *\n\n")
    };
    let text = [game("Blitz, Open", Some("180+2")), game("Rapid", Some("900+10")), game("Casual", None)].concat();
    std::fs::write(&pgn, text).unwrap();
    let csv = dir.join("controls.csv");
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .args(["clock", "controls", "--pgn", pgn.to_str().unwrap(), "--out", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 games, 2 with a time control"));
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap(),
        "game,event,base_s,inc_s,category\n0,\"Blitz, Open\",180,2,blitz\n1,Rapid,900,10,rapid\n2,Casual,,,\n"
    );
    // An unreadable file is refused with its name.
    let bad = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .args(["clock", "controls", "--pgn", dir.join("missing.pgn").to_str().unwrap(), "--out", csv.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("missing.pgn"), "{}", String::from_utf8_lossy(&bad.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

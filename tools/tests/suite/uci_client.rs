//! The one UCI process driver (`sparring_tools::common::process`) that the match runner, the oracles and
//! the test helpers drive engines with, and the UCI oracle on top of it.

use std::time::{Duration, Instant};

use sparring_tools::common::oracle::UciOracle;
use sparring_tools::common::process::{EngineProcess, Fault, Spawn};

const FIXTURE: &str = env!("CARGO_BIN_EXE_uci_fixture");

fn spec(cmd: &str) -> Spawn {
    Spawn::from_command_line(cmd).unwrap()
}

#[test]
fn handshake_options_and_a_search_with_the_real_engine() {
    let mut c =
        EngineProcess::start(&spec(env!("CARGO_BIN_EXE_sparring")), Duration::from_secs(30), None).expect("starts");
    assert!(c.name().starts_with("sparring"), "{:?}", c.name());
    assert!(c.has_option("hash") && c.has_option("Seed"), "{:?}", c.declared_options);
    c.configure(&[("Hash".into(), "4".into())], Duration::from_secs(10), None).unwrap();
    let mut infos = Vec::new();
    let b = c
        .search("position startpos moves e2e4", "go depth 3", Duration::from_secs(30), None, |i| infos.push(i.clone()))
        .unwrap();
    assert_eq!(b.mv.len(), 4, "{b:?}");
    assert!(infos.iter().any(|i| i.depth == Some(3) && i.score.is_some() && i.first_move().is_some()), "{infos:?}");
    c.quit();
}

#[test]
fn an_option_the_engine_refuses_stops_the_start() {
    // A mistyped avatar path: the engine keeps its previous weights and says so; the driver must
    // not go on as if the avatar were loaded.
    let mut c =
        EngineProcess::start(&spec(env!("CARGO_BIN_EXE_sparring")), Duration::from_secs(30), None).expect("starts");
    let opts = [("Hash".to_string(), "4".to_string()), ("Avatar File".to_string(), "/nonexistent/x.avt".to_string())];
    let err = c.configure(&opts, Duration::from_secs(10), None).unwrap_err();
    assert!(
        matches!(err, Fault::FailedStart(ref m) if m.contains("option refused") && m.contains("/nonexistent/x.avt")),
        "{err:?}"
    );
    // Accepted options pass, and the oracle start goes through the same check.
    c.configure(&[("Avatar File".to_string(), String::new())], Duration::from_secs(10), None).unwrap();
    c.quit();
    let bad = [("Human Model File".to_string(), "/nonexistent/model.onnx".to_string())];
    let err = UciOracle::start(env!("CARGO_BIN_EXE_sparring"), &bad, Duration::from_secs(30)).err().unwrap();
    assert!(err.contains("option refused") && err.contains("Human Model File"), "{err}");
}

#[test]
fn option_complaints_are_recognised_and_other_lines_are_not() {
    use sparring_tools::common::process::option_complaint;
    for l in [
        "info string Avatar File rejected: x: cannot open",
        "info string Ladder File rejected: y: bad; built-in stays in use",
        "No such option: Foo",
        "info string ERROR: unknown value",
        "Unknown option Bar",
    ] {
        assert!(option_complaint(l), "{l}");
    }
    for l in ["info string Avatar File loaded: attacker", "info depth 3 score cp 20 pv e2e4", "id name rejected-engine"]
    {
        assert!(!option_complaint(l), "{l}");
    }
}

#[test]
fn a_silent_engine_times_out_instead_of_blocking() {
    // Answers the handshake, then never says `readyok` or `bestmove`.
    let mut c =
        EngineProcess::start(&spec(&format!("{FIXTURE} --mode hang")), Duration::from_secs(10), None).expect("starts");
    let t = Instant::now();
    let err = c.search("position startpos", "go movetime 10", Duration::from_millis(300), None, |_| {}).unwrap_err();
    assert!(matches!(err, Fault::Stalled(ref m) if m.contains("no 'bestmove'")), "{err:?}");
    assert!(t.elapsed() < Duration::from_secs(5));
    // A stalled search kills the engine.
    assert!(c.try_wait().is_some());
    // Dropping a hanging engine must not hang either: `quit` is ignored, so it is killed.
    let c = EngineProcess::start(&spec(&format!("{FIXTURE} --mode hang")), Duration::from_secs(10), None).unwrap();
    let t = Instant::now();
    drop(c);
    assert!(t.elapsed() < Duration::from_secs(3));
}

#[test]
fn no_uciok_and_missing_programs_are_errors() {
    let err = EngineProcess::start(&spec(&format!("{FIXTURE} --mode no-uciok")), Duration::from_millis(300), None)
        .err()
        .unwrap();
    assert!(matches!(err, Fault::FailedStart(_)), "{err:?}");
    let err = UciOracle::start(&format!("{FIXTURE} --mode no-uciok"), &[], Duration::from_millis(300)).err().unwrap();
    assert!(err.contains("no 'uciok'") || err.contains("closed"), "{err}");
    let err = UciOracle::spawn("/nonexistent/engine --flag", 4).err().unwrap();
    assert!(err.contains("cannot start UCI engine '/nonexistent/engine --flag'"), "{err}");
    assert!(Spawn::from_command_line("   ").is_err());
}

#[test]
fn output_is_kept_while_the_caller_only_writes() {
    // 300 commands answered with `info string` lines, read only at the end: the driver keeps the
    // pipe drained, so neither side blocks.
    let mut c = EngineProcess::start(&spec(env!("CARGO_BIN_EXE_sparring")), Duration::from_secs(30), None).unwrap();
    for i in 0..300 {
        c.send(&format!("nonsense-{i} {}", "x".repeat(300))).unwrap();
    }
    c.send("isready").unwrap();
    let mut n = 0;
    loop {
        let l = c.recv_timeout(Duration::from_secs(10)).unwrap();
        if l == "readyok" {
            break;
        }
        n += usize::from(l.starts_with("info string unknown command"));
    }
    assert_eq!(n, 300);
}

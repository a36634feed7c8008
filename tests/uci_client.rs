//! The small synchronous UCI client the estimator and the human-likeness bench drive engines with.

use std::time::{Duration, Instant};

use sparring::uci::client::UciClient;

const FIXTURE: &str = env!("CARGO_BIN_EXE_uci_fixture");

#[test]
fn handshake_options_and_a_search_with_the_real_engine() {
    let mut c = UciClient::spawn(env!("CARGO_BIN_EXE_sparring"), Duration::from_secs(30)).expect("starts");
    assert_eq!(c.name().map(|n| n.starts_with("sparring")), Some(true), "{:?}", c.name());
    c.set_option("Hash", "4").unwrap();
    c.sync().unwrap();
    c.send("position startpos moves e2e4").unwrap();
    c.send("go depth 3").unwrap();
    let best = loop {
        let line = c.recv().unwrap();
        if let Some(rest) = line.strip_prefix("bestmove ") {
            break rest.split_whitespace().next().unwrap().to_string();
        }
    };
    assert_eq!(best.len(), 4, "{best}");
}

#[test]
fn a_silent_engine_times_out_instead_of_blocking() {
    // Answers the handshake, then never says `readyok` or `bestmove`.
    let mut c = UciClient::spawn(&format!("{FIXTURE} --mode hang"), Duration::from_millis(300)).expect("starts");
    c.send("position startpos").unwrap();
    c.send("go movetime 10").unwrap();
    let t = Instant::now();
    let err = loop {
        match c.recv() {
            Ok(line) => assert!(!line.starts_with("bestmove"), "a hanging fixture answered: {line}"),
            Err(e) => break e,
        }
    };
    assert!(err.contains("sent nothing"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(5));
    // Dropping it must not hang either: `quit` is ignored, so the client kills it.
    let t = Instant::now();
    drop(c);
    assert!(t.elapsed() < Duration::from_secs(3));
}

#[test]
fn no_uciok_and_missing_programs_are_errors() {
    let err = UciClient::spawn(&format!("{FIXTURE} --mode no-uciok"), Duration::from_millis(300)).err();
    assert!(err.is_some_and(|e| e.contains("sent nothing") || e.contains("closed")));
    let err = UciClient::spawn("/nonexistent/engine --flag", Duration::from_secs(1)).err().unwrap();
    assert!(err.contains("cannot start UCI engine '/nonexistent/engine --flag'"), "{err}");
    assert!(UciClient::spawn("   ", Duration::from_secs(1)).is_err());
}

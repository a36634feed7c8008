//! UCI sessions driven through the real binary.

use crate::common;
use common::{Uci, is_legal_after};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(20);

fn last_info_nodes(lines: &[String]) -> u64 {
    lines
        .iter()
        .rev()
        .find_map(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.iter().position(|&x| x == "nodes").and_then(|i| t.get(i + 1)).and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[test]
fn handshake_declares_options() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.wait_for(T, |l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name sparring")));
    for opt in ["Hash", "Clear Hash", "MultiPV", "Move Overhead", "Ponder", "SyzygyPath"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {opt} type"))), "missing option {opt}");
    }
    assert!(lines.iter().any(|l| l == "option name Hash type spin default 16 min 1 max 65536"));
    e.isready();
}

#[test]
fn every_go_limit_gives_one_legal_bestmove() {
    let mut e = Uci::start();
    e.send("uci");
    e.wait_for(T, |l| l == "uciok");
    let pos = "startpos moves e2e4 e7e5 g1f3 b8c6 f1b5";
    e.send(&format!("position {pos}"));
    for go in [
        "go depth 6",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 3000 btime 3000 movestogo 5",
        "go mate 2",
        "go depth 5 searchmoves a7a6 g8f6",
    ] {
        e.send(go);
        let (mv, lines) = e.bestmove(T);
        assert!(is_legal_after(pos, &mv), "{go}: illegal bestmove {mv}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
        // The last PV printed starts with the move played.
        let last_pv = lines.iter().rev().find(|l| l.contains(" pv ")).expect("an info line with a pv");
        let first = last_pv.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap();
        assert_eq!(first, mv, "{go}: last pv does not start with the bestmove");
        if go.contains("searchmoves") {
            assert!(mv == "a7a6" || mv == "g8f6", "searchmoves ignored: {mv}");
        }
    }
    // No second bestmove arrives late.
    assert!(e.drain(Duration::from_millis(200)).iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn node_limit_is_exact_and_reproducible() {
    let mut e = Uci::start();
    let mut results = Vec::new();
    for _ in 0..2 {
        e.send("ucinewgame");
        e.send("position startpos moves d2d4 g8f6 c2c4");
        e.send("go nodes 20000");
        let (mv, lines) = e.bestmove(T);
        let nodes = last_info_nodes(&lines);
        assert!(nodes <= 20_000, "searched {nodes} nodes with go nodes 20000");
        results.push((mv, lines.iter().filter(|l| l.starts_with("info depth")).count()));
    }
    assert_eq!(results[0].0, results[1].0);
}

#[test]
fn stop_after_infinite_is_prompt_and_quit_exits_zero() {
    let mut e = Uci::start();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 6"));
    // Nothing may answer an infinite search before stop.
    assert!(e.drain(Duration::from_millis(100)).iter().all(|l| !l.starts_with("bestmove")));
    let t = Instant::now();
    e.send("stop");
    let (mv, _) = e.bestmove(T);
    let took = t.elapsed();
    assert!(is_legal_after("startpos", &mv));
    assert!(took < Duration::from_millis(250), "stop took {took:?}");

    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 4"));
    let t = Instant::now();
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(5)), Some(0));
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn ponder_then_ponderhit_and_ponder_then_stop() {
    let mut e = Uci::start();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 c7c5");
    e.send("go ponder wtime 1000 btime 1000");
    e.wait_for(T, |l| l.starts_with("info depth 3"));
    assert!(e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
    e.send("ponderhit");
    let (mv, _) = e.bestmove(Duration::from_secs(3));
    assert!(is_legal_after("startpos moves e2e4 c7c5", &mv));

    e.send("go ponder depth 3");
    e.wait_for(T, |l| l.starts_with("info depth 3"));
    assert!(e.drain(Duration::from_millis(200)).iter().all(|l| !l.starts_with("bestmove")));
    e.send("stop");
    e.bestmove(Duration::from_secs(2));
}

#[test]
fn short_clock_is_answered_well_inside_it() {
    let mut e = Uci::start();
    e.isready();
    for pos in ["startpos", "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d4"] {
        e.send(&format!("position {pos}"));
        let t = Instant::now();
        e.send("go wtime 1000 winc 0 btime 1000 binc 0");
        let (mv, _) = e.bestmove(T);
        let took = t.elapsed();
        assert!(is_legal_after(pos, &mv));
        assert!(took < Duration::from_millis(500), "go wtime 1000 took {took:?}");
    }
}

#[test]
fn position_with_moves_and_fen_then_d() {
    let mut e = Uci::start();
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1g1 e8c8");
    e.send("d");
    let lines = e.wait_for(T, |l| l.starts_with("Tablebase"));
    assert!(lines.iter().any(|l| l == "Fen: 2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"), "{lines:#?}");
    e.send("go perft 3");
    let lines = e.wait_for(T, |l| l.starts_with("Nodes searched"));
    assert!(lines.last().unwrap().starts_with("Nodes searched: "));
}

#[test]
fn hostile_input_session_keeps_state_and_keeps_playing() {
    let mut e = Uci::start();
    e.send("uci");
    e.wait_for(T, |l| l == "uciok");
    // go before any position: plays from the start position.
    e.send("go depth 3");
    let (mv, _) = e.bestmove(T);
    assert!(is_legal_after("startpos", &mv));
    e.send("position startpos moves e2e4");
    let bad: Vec<String> = vec![
        "".into(),
        "   ".into(),
        "x".repeat(200_000),
        "garbage in garbage out".into(),
        "position startpos moves e2e4 e7e5 e1e8".into(),
        "position startpos moves zz".into(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1".into(),
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1".into(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e9e4".into(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk".into(),
        "position fen".into(),
        "position".into(),
        "position banana".into(),
        "setoption name Hash value 0".into(),
        "setoption name Hash value 999999999".into(),
        "setoption name Hash value lots".into(),
        "setoption name MultiPV value -3".into(),
        "setoption name Move Overhead value 99999".into(),
        "setoption name Ponder value maybe".into(),
        "setoption name NoSuchOption value 1".into(),
        "setoption".into(),
        "stop".into(),
        "ponderhit".into(),
        "go depth 99999999999999999999".into(),
        "go nodes -5 depth x".into(),
        "debug sideways".into(),
        "\u{0}\u{1}\u{7f}".into(),
    ];
    for l in &bad {
        e.send(l);
    }
    e.send_bytes(b"\xff\xfe\xc3 not utf8\n");
    // Drain the answers to the two go commands among them.
    e.isready();
    let lines = e.transcript.clone();
    assert!(lines.iter().any(|l| l.starts_with("info string") && l.contains("illegal")));
    assert!(lines.iter().any(|l| l.starts_with("info string") && l.contains("out of range")));
    assert!(lines.iter().any(|l| l.starts_with("info string") && l.contains("unknown command")));
    // The state is still "startpos moves e2e4".
    e.send("d");
    let d = e.wait_for(T, |l| l.starts_with("Tablebase"));
    assert!(d.iter().any(|l| l == "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"), "{d:#?}");
    // go twice: each go ends in exactly one bestmove.
    e.send("go infinite");
    e.send("go depth 4");
    let lines = e.wait_for(T, |l| l.starts_with("bestmove"));
    let first = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let (second, _) = e.bestmove(T);
    for mv in [first, second] {
        assert!(is_legal_after("startpos moves e2e4", &mv), "illegal {mv}");
    }
    e.isready();
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn mate_and_stalemate_positions_answer_0000() {
    let mut e = Uci::start();
    // Black is checkmated (fool's mate): no legal move.
    e.send("position startpos moves f2f3 e7e5 g2g4 d8h4");
    e.send("go depth 5");
    let (mv, lines) = e.bestmove(T);
    assert_eq!(mv, "0000", "{lines:#?}");
    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 50");
    let (mv, _) = e.bestmove(T);
    assert_eq!(mv, "0000");
}

#[test]
fn eof_on_stdin_exits_cleanly_even_while_searching() {
    let mut e = Uci::start();
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 2"));
    e.close_stdin();
    assert_eq!(e.wait_exit(Duration::from_secs(5)), Some(0));
}

/// Issue 59: with MultiPV 4 the last line reported for each `multipv` index at one depth named the
/// same first move as another (`go depth 6` from the start: lines 2-4 all `e2e4 ...`): a later
/// line that outscored an earlier one moved up without the lines below being reported again. On
/// 50 positions (the first 50 lines of the built-in opening book, depth 6), at every depth, the lines'
/// first moves now differ.
#[test]
fn multipv_lines_of_one_depth_name_different_moves() {
    let book = sparring_tools::r#match::openings::builtin();
    assert!(book.len() >= 50);
    let mut uci = Uci::start();
    uci.send("uci");
    uci.send("setoption name MultiPV value 4");
    uci.isready();
    let mut repeated = Vec::new();
    for o in book.iter().take(50) {
        let moves: Vec<String> =
            o.moves.iter().map(|m| m.to_uci(shakmaty::CastlingMode::Standard).to_string()).collect();
        let pos = format!("startpos moves {}", moves.join(" "));
        uci.send("ucinewgame");
        uci.send(&format!("position {pos}"));
        uci.send("go depth 6");
        let (_, lines) = uci.bestmove(Duration::from_secs(60));
        // depth -> multipv index -> the first move of its last exact line.
        let mut last: std::collections::BTreeMap<u32, std::collections::BTreeMap<u32, String>> = Default::default();
        for l in lines.iter().filter(|l| l.starts_with("info depth") && !l.contains("bound")) {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |k: &str| w.iter().position(|x| *x == k).map(|i| w[i + 1]);
            let (Some(d), Some(k), Some(m)) = (at("depth"), at("multipv"), at("pv")) else { continue };
            last.entry(d.parse().unwrap()).or_default().insert(k.parse().unwrap(), m.to_string());
        }
        assert!(last.len() >= 6, "{pos}: depths {:?}", last.keys());
        for (d, lines) in &last {
            let firsts: std::collections::BTreeSet<&String> = lines.values().collect();
            if firsts.len() != lines.len() {
                repeated.push(format!("{pos} depth {d}: {lines:?}"));
            }
        }
    }
    assert!(repeated.is_empty(), "repeated first moves:\n{}", repeated.join("\n"));
}

/// Issue 59: `UCI_Elo` without `UCI_LimitStrength` was silent (and the engine plays at full
/// strength). It is now said at the next `isready` (or `go`); not when `UCI_LimitStrength` is on,
/// whichever of the two comes first.
#[test]
fn uci_elo_without_limit_strength_is_said() {
    let note = "info string UCI_Elo takes effect with UCI_LimitStrength";
    let mut uci = Uci::start();
    uci.send("uci");
    uci.send("setoption name UCI_Elo value 1500");
    uci.send("isready");
    let lines = uci.wait_for(Duration::from_secs(10), |l| l == "readyok");
    assert!(lines.iter().any(|l| l == note), "{lines:#?}");
    // Said once.
    uci.send("isready");
    let lines = uci.wait_for(Duration::from_secs(10), |l| l == "readyok");
    assert!(!lines.iter().any(|l| l == note), "{lines:#?}");
    // Either order with UCI_LimitStrength on: nothing.
    for order in
        [["UCI_Elo value 1600", "UCI_LimitStrength value true"], ["UCI_LimitStrength value true", "UCI_Elo value 1700"]]
    {
        let mut uci = Uci::start();
        uci.send("uci");
        for o in order {
            uci.send(&format!("setoption name {o}"));
        }
        uci.send("isready");
        let lines = uci.wait_for(Duration::from_secs(10), |l| l == "readyok");
        assert!(!lines.iter().any(|l| l == note), "{order:?}: {lines:#?}");
    }
    // At `go` too.
    let mut uci = Uci::start();
    uci.send("uci");
    uci.send("setoption name UCI_Elo value 1500");
    uci.send("position startpos");
    uci.send("go depth 1");
    let (_, lines) = uci.bestmove(Duration::from_secs(10));
    assert!(lines.iter().any(|l| l == note), "{lines:#?}");
}

//! Protocol abuse through the real binary: go while searching, stop/ponderhit storms, ucinewgame
//! and setoption mid-search, very long move lists, quit during a long search, and no thread or
//! file-descriptor leaks over many go/stop cycles (issue 8).

use crate::common;
use common::{Uci, is_legal_after};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(20);

fn count_bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

#[test]
fn go_while_searching_answers_each_go_once() {
    let mut e = Uci::start();
    e.send("position startpos moves e2e4");
    for _ in 0..5 {
        e.send("go infinite");
    }
    e.send("go depth 3");
    e.isready();
    let mut lines = e.transcript.clone();
    // The last go (depth 3) ends by itself.
    lines.extend(e.drain(Duration::from_secs(3)));
    assert_eq!(count_bestmoves(&lines), 6, "{lines:#?}");
    for l in lines.iter().filter(|l| l.starts_with("bestmove")) {
        assert!(is_legal_after("startpos moves e2e4", l.split_whitespace().nth(1).unwrap()));
    }
}

#[test]
fn stop_and_ponderhit_storms() {
    let mut e = Uci::start();
    e.send("position startpos");
    for _ in 0..200 {
        e.send("stop");
        e.send("ponderhit");
    }
    e.isready();
    assert_eq!(count_bestmoves(&e.transcript), 0);
    e.send("go ponder wtime 500 btime 500");
    for _ in 0..100 {
        e.send("ponderhit");
        e.send("stop");
    }
    e.isready();
    let lines = e.drain(Duration::from_millis(500));
    let all: Vec<String> = e.transcript.iter().cloned().chain(lines).collect();
    assert_eq!(count_bestmoves(&all), 1, "{all:#?}");
}

#[test]
fn ucinewgame_and_setoption_mid_search() {
    let mut e = Uci::start();
    e.send("position startpos moves d2d4 d7d5");
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 3"));
    e.send("ucinewgame");
    e.bestmove(T);
    e.send("position startpos moves d2d4 d7d5 c2c4");
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 3"));
    e.send("setoption name Hash value 64");
    e.bestmove(T);
    e.send("setoption name Avatar File value avatars/attacker.avt");
    e.send("go depth 5");
    let (mv, _) = e.bestmove(T);
    assert!(is_legal_after("startpos moves d2d4 d7d5 c2c4", &mv));
    e.send("setoption name Hash value 1");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1300");
    e.send("go wtime 5000 btime 5000");
    let (mv, _) = e.bestmove(T);
    assert!(is_legal_after("startpos moves d2d4 d7d5 c2c4", &mv));
}

#[test]
fn position_with_600_moves() {
    // Knights shuffling for 600 plies (the 50-move rule is not enforced by position, only scored).
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = (0..600).map(|i| cycle[i % 4]).collect();
    let pos = format!("startpos moves {}", moves.join(" "));
    let mut e = Uci::start();
    e.send(&format!("position {pos}"));
    e.send("d");
    let d = e.wait_for(T, |l| l.starts_with("Tablebase"));
    assert!(d.iter().any(|l| l.contains("(+600 moves)")), "{d:#?}");
    e.send("go depth 6");
    let (mv, lines) = e.bestmove(T);
    assert!(is_legal_after(&pos, &mv));
    let _ = lines;
    // A knight move keeps the halfmove clock far above 100: a draw by the 50-move rule. (A pawn
    // move resets the clock, so the best move is not a draw.)
    e.send("go depth 6 searchmoves g1f3");
    let (mv, lines) = e.bestmove(T);
    assert_eq!(mv, "g1f3");
    assert!(lines.iter().rev().find(|l| l.contains(" pv ")).unwrap().contains("score cp 0"), "{lines:#?}");
}

#[test]
fn quit_during_a_long_search_exits_promptly() {
    let mut e = Uci::start();
    e.send("setoption name Hash value 256");
    e.send("position startpos");
    e.send("go depth 60");
    e.wait_for(T, |l| l.starts_with("info depth 8"));
    let t = Instant::now();
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(5)), Some(0));
    assert!(t.elapsed() < Duration::from_millis(500), "quit took {:?}", t.elapsed());
}

fn proc_count(pid: u32, what: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/{what}")).map(|d| d.count()).unwrap_or(0)
}

#[test]
fn no_thread_or_fd_leaks_over_1000_go_stop_cycles() {
    if !std::path::Path::new("/proc/self/task").exists() {
        eprintln!("skipped: no /proc on this system");
        return;
    }
    let mut e = Uci::start();
    let pid = e.child().id();
    e.send("position startpos moves e2e4 e7e5");
    e.isready();
    let (threads0, fds0) = (proc_count(pid, "task"), proc_count(pid, "fd"));
    for i in 0..1000 {
        e.send(if i % 2 == 0 { "go infinite" } else { "go nodes 2000" });
        e.send("stop");
    }
    e.isready();
    e.drain(Duration::from_millis(300));
    let bestmoves = count_bestmoves(&e.transcript);
    assert_eq!(bestmoves, 1000);
    let (threads1, fds1) = (proc_count(pid, "task"), proc_count(pid, "fd"));
    assert!(threads1 <= threads0 + 1, "threads {threads0} -> {threads1}");
    assert_eq!(fds0, fds1, "file descriptors {fds0} -> {fds1}");
}

/// Regression (found by fuzzing, fuzz/run.sh): `d` during an unbounded search used to wait for the
/// search's lock, so the engine stopped reading input and `stop` was never seen.
#[test]
fn d_and_eval_during_an_unbounded_search_answer_at_once() {
    let mut e = Uci::start();
    e.send("position startpos moves e2e4");
    e.send("go");
    e.wait_for(T, |l| l.starts_with("info depth 2"));
    e.send("d");
    e.send("eval");
    let t = Instant::now();
    e.send("isready");
    e.wait_for(Duration::from_secs(3), |l| l == "readyok");
    assert!(t.elapsed() < Duration::from_secs(1));
    e.send("stop");
    let (mv, _) = e.bestmove(Duration::from_secs(3));
    assert!(is_legal_after("startpos moves e2e4", &mv));
}

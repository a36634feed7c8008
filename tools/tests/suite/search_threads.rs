//! Lazy SMP (`Threads`): more threads search more nodes, every limit still ends in one legal
//! `bestmove`, `stop` stays prompt, node limits stay exact, and weak play is unchanged by it.

use crate::common;
use common::{Uci, is_legal_after};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use sparring::board::Game;
use sparring::search::{Control, Limits, Searcher, Silent};
use std::time::{Duration, Instant};

const T: Duration = Duration::from_secs(30);

fn game(fen: &str) -> Game {
    let pos: Chess = fen.parse::<Fen>().expect("fen").into_position(CastlingMode::Standard).expect("legal");
    Game::new(pos)
}

fn nodes_of(line: &str) -> u64 {
    let t: Vec<&str> = line.split_whitespace().collect();
    t.iter().position(|&x| x == "nodes").and_then(|i| t.get(i + 1)).and_then(|n| n.parse().ok()).unwrap_or(0)
}

#[test]
fn threads_option_is_declared_and_range_checked() {
    let mut e = Uci::start();
    e.send("uci");
    let lines = e.wait_for(T, |l| l == "uciok");
    assert!(lines.iter().any(|l| l == "option name Threads type spin default 1 min 1 max 256"), "{lines:?}");
    e.send("setoption name Threads value 0");
    e.send("setoption name Threads value 9999");
    e.send("setoption name Threads value two");
    let said = e.wait_for(T, |l| l.contains("two"));
    assert!(said.iter().filter(|l| l.starts_with("info string")).count() >= 3, "{said:?}");
    // Still one thread and still playing.
    e.send("position startpos");
    e.send("go depth 5");
    assert!(is_legal_after("startpos", &e.bestmove(T).0));
}

#[test]
fn every_limit_with_four_threads_gives_one_legal_bestmove() {
    let mut e = Uci::start();
    e.send("setoption name Threads value 4");
    let pos = "fen r1bqr1k1/pp3pbp/2np1np1/2p5/4P3/2NP1NP1/PPP2PBP/R1BQR1K1 w - - 0 10";
    e.send(&format!("position {pos}"));
    for go in
        ["go depth 8", "go movetime 200", "go wtime 1000 btime 1000 winc 10 binc 10", "go nodes 3000", "go mate 1"]
    {
        e.send(go);
        let (mv, lines) = e.bestmove(T);
        assert!(is_legal_after(pos, &mv), "{go}: illegal {mv}");
        assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{go}");
        if go == "go nodes 3000" {
            let last = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("info");
            assert!(nodes_of(last) <= 3000, "node limit with threads: {last}");
        }
    }
    // `stop` after `go infinite` is still prompt, and `quit` during a threaded search exits 0.
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 6"));
    let t = Instant::now();
    e.send("stop");
    let (mv, _) = e.bestmove(T);
    assert!(is_legal_after(pos, &mv));
    assert!(t.elapsed() < Duration::from_millis(250), "stop took {:?}", t.elapsed());
    e.send("go infinite");
    e.wait_for(T, |l| l.starts_with("info depth 4"));
    e.send("quit");
    assert_eq!(e.wait_exit(Duration::from_secs(5)), Some(0));
}

#[test]
fn helpers_add_nodes_and_agree_on_a_forced_mate() {
    // A mate in 2: every thread count must find it, and helper nodes are counted in the total.
    let game = game("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    let mut totals = Vec::new();
    for threads in [1, 3] {
        let mut s = Searcher::new(16);
        let limits = Limits { movetime: Some(Duration::from_millis(600)), threads, ..Default::default() };
        let r = s.search(&game, &limits.clone().into(), &Control::default(), &mut Silent);
        assert_eq!(r.best.map(|m| m.to_uci(CastlingMode::Standard).to_string()), Some("d5f6".into()));
        assert_eq!(sparring::score::mate_moves(r.score), Some(2), "threads {threads}: score {}", r.score);
        totals.push(r.nodes);
    }
    assert!(totals.iter().all(|&n| n > 0), "{totals:?}");
}

#[test]
fn node_limited_searches_ignore_threads_and_stay_reproducible() {
    let game = game("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8");
    let run = |threads| {
        let mut s = Searcher::new(16);
        let limits = Limits { nodes: Some(25_000), threads, ..Default::default() };
        let r = s.search(&game, &limits.clone().into(), &Control::default(), &mut Silent);
        (r.best, r.score, r.nodes)
    };
    let one = run(1);
    assert_eq!(one, run(4), "a node-limited search changed with Threads");
    assert_eq!(one.2, 25_000);
}

#[test]
fn weak_play_is_the_same_with_any_thread_count() {
    let pos = "fen r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 11";
    let moves = |threads: u32| {
        let mut e = Uci::start();
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("setoption name UCI_LimitStrength value true");
        e.send("setoption name UCI_Elo value 1800");
        e.send("setoption name Seed value 77");
        (0..3)
            .map(|i| {
                e.send("ucinewgame");
                e.send(&format!("position {pos}"));
                e.send(&format!("go wtime {} btime 60000", 60_000 - i * 1000));
                e.bestmove(T).0
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(moves(1), moves(4));
}

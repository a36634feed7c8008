//! Golden moves: fixed positions played by the real binary over UCI at fixed settings and seeds,
//! compared with `tests/golden/moves.txt`, which was recorded before the renovation (issue 21)
//! with the binary of commit d3839eb. A refactor that changes no behaviour leaves every line
//! identical; a deliberate behaviour change (a new ladder version, a new search generation that a
//! setting runs) re-records the file and says so in its commit:
//!
//!     GOLDEN_RECORD=1 cargo test --release --test suite golden
//!
//! (`GOLDEN_BIN=path` records with another binary, as the first recording did.)
//!
//! Weak settings are node-budgeted and seeded, so their moves do not depend on the machine; the
//! full-strength settings are given `go nodes` or `go depth` for the same reason.

use crate::common;

use common::Uci;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

/// Positions: the start, openings, middlegames with tactics, endgames, a mate-in-few.
const POSITIONS: &[&str] = &[
    "startpos",
    "startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6",
    "startpos moves d2d4 g8f6 c2c4 e7e6 b1c3 f8b4",
    "fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "fen 2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 0 11",
    "fen r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "fen 3rr1k1/pp3ppp/2n1b3/q1pp4/8/P1NPP1P1/1PQ2PBP/R4RK1 w - - 0 15",
    "fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "fen 8/8/4k3/8/2K5/3P4/8/8 w - - 0 1",
    "fen 8/5pk1/6p1/7p/3R3P/6P1/r4PK1/8 b - - 0 40",
    "fen r4rk1/1b3ppp/p1n1pq2/1p6/3P4/P1NB1N2/1P3PPP/R2QR1K1 b - - 0 15",
];

/// A clock long enough that a weak setting's node budget, not the clock, ends its search.
const CLOCK: &str = "go wtime 600000 btime 600000";

/// Ten settings (plus two full-strength searches with fixed work): name, `setoption` name=value
/// pairs separated by `;`, and the `go`.
const SETTINGS: &[(&str, &str, &str)] = &[
    ("strong-nodes", "Profile=strong", "go nodes 20000"),
    ("strong-depth", "Profile=strong", "go depth 7"),
    ("reduced", "Profile=reduced", CLOCK),
    ("club", "Profile=club", CLOCK),
    ("random", "Profile=random", CLOCK),
    ("elo800", "UCI_LimitStrength=true;UCI_Elo=800", CLOCK),
    ("elo1200", "UCI_LimitStrength=true;UCI_Elo=1200", CLOCK),
    ("elo1500", "UCI_LimitStrength=true;UCI_Elo=1500", CLOCK),
    ("elo1900", "UCI_LimitStrength=true;UCI_Elo=1900", CLOCK),
    ("elo2400", "UCI_LimitStrength=true;UCI_Elo=2400", CLOCK),
    ("elo1500-attacker", "UCI_LimitStrength=true;UCI_Elo=1500;Avatar File=avatars/attacker.avt", CLOCK),
    ("elo2100-defender", "UCI_LimitStrength=true;UCI_Elo=2100;Avatar File=avatars/defender.avt", CLOCK),
    ("skill5", "Skill Level=5", CLOCK),
];

const SEEDS: [u64; 2] = [7, 424242];

fn golden_path() -> PathBuf {
    PathBuf::from(env!("SPARRING_REPO")).join("tools/tests/golden/moves.txt")
}

/// Plays every position at every setting and seed; one line per decision.
fn play_all() -> String {
    let mut out = String::new();
    for &(name, options, go) in SETTINGS {
        for seed in SEEDS {
            // One process per setting and seed, started in the repository root (avatar paths).
            let mut e = match std::env::var("GOLDEN_BIN") {
                Ok(bin) => Uci::start_program(&bin, &[]),
                Err(_) => Uci::start(),
            };
            e.send("uci");
            e.wait_for(Duration::from_secs(10), |l| l == "uciok");
            for o in options.split(';') {
                let (k, v) = o.split_once('=').expect("name=value");
                e.send(&format!("setoption name {k} value {v}"));
            }
            e.send(&format!("setoption name Seed value {seed}"));
            for (i, pos) in POSITIONS.iter().enumerate() {
                e.send("ucinewgame");
                e.send(&format!("position {pos}"));
                e.isready();
                e.send(go);
                let (mv, _) = e.bestmove(Duration::from_secs(120));
                writeln!(out, "{name} {seed} {i} {mv}").unwrap();
            }
            e.send("quit");
        }
    }
    out
}

#[test]
fn seeded_moves_match_the_recording() {
    let got = play_all();
    let path = golden_path();
    if std::env::var_os("GOLDEN_RECORD").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
        eprintln!("recorded {} decisions in {}", got.lines().count(), path.display());
        return;
    }
    let want = std::fs::read_to_string(&path).expect("tests/golden/moves.txt");
    let diffs: Vec<String> = want
        .lines()
        .zip(got.lines())
        .filter(|(w, g)| w != g)
        .map(|(w, g)| format!("recorded '{w}' now '{g}'"))
        .collect();
    assert_eq!(want.lines().count(), got.lines().count(), "number of decisions changed");
    assert!(diffs.is_empty(), "{} of {} moves changed:\n{}", diffs.len(), want.lines().count(), diffs.join("\n"));
}

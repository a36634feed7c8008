//! Strength settings through the real binary: reproducibility across processes, seeds, the
//! school-gated evaluator, avatars and their error handling (issue 4).

use crate::common;
use common::Uci;
use std::time::Duration;

const T: Duration = Duration::from_secs(30);

const POSITIONS: [&str; 4] = [
    "startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
    "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
    "fen 2r3k1/pp3ppp/4p3/3p4/3P4/P3PN2/1P3PPP/2R3K1 w - - 0 20",
    "fen r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 11",
];

fn settings() -> Vec<Vec<String>> {
    let mut v: Vec<Vec<String>> =
        ["reduced", "club", "random"].iter().map(|p| vec![format!("setoption name Profile value {p}")]).collect();
    for elo in [800, 1500, 2100, 2400] {
        v.push(vec![
            "setoption name UCI_LimitStrength value true".into(),
            format!("setoption name UCI_Elo value {elo}"),
        ]);
    }
    v
}

fn moves_for(e: &mut Uci, setting: &[String], seed: u64) -> Vec<String> {
    for l in setting {
        e.send(l);
    }
    e.send(&format!("setoption name Seed value {seed}"));
    POSITIONS
        .iter()
        .map(|p| {
            e.send("ucinewgame");
            e.send(&format!("position {p}"));
            e.send("go wtime 60000 btime 60000");
            e.bestmove(T).0
        })
        .collect()
}

#[test]
fn same_seed_same_moves_across_processes_hash_sizes_and_history() {
    for setting in settings() {
        let mut a = Uci::start();
        a.send("setoption name Hash value 1");
        let first = moves_for(&mut a, &setting, 4242);

        let mut b = Uci::start();
        b.send("setoption name Hash value 64");
        // Unrelated work first: a full-strength search and another weak decision.
        b.send("position startpos moves d2d4");
        b.send("go depth 7");
        b.bestmove(T);
        let _ = moves_for(&mut b, &setting, 99);
        let second = moves_for(&mut b, &setting, 4242);
        assert_eq!(first, second, "setting {setting:?} is not reproducible");
    }
}

#[test]
fn different_seeds_give_different_moves_somewhere() {
    for setting in [&settings()[1], &settings()[4]] {
        let mut e = Uci::start();
        let mut seen = std::collections::HashSet::new();
        for seed in 1..=8 {
            seen.insert(moves_for(&mut e, setting, seed));
        }
        assert!(seen.len() >= 2, "{setting:?}: every seed played the same moves");
    }
}

#[test]
fn seed_zero_reports_a_fresh_seed_that_replays_the_game() {
    let mut e = Uci::start();
    e.send("setoption name Profile value club");
    e.send("setoption name Seed value 0");
    e.send("ucinewgame");
    e.send("isready");
    // `setoption Seed 0` and `ucinewgame` each draw a fresh seed; the game uses the last one.
    let lines = e.wait_for(T, |l| l == "readyok");
    let seeds: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info string seed "))
        .map(|l| l.split_whitespace().nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(seeds.len(), 2, "one fresh seed per Seed=0 and per ucinewgame: {lines:?}");
    assert_ne!(seeds[0], seeds[1], "ucinewgame must draw a new seed");
    let seed = seeds[1];
    // The reported seed must be settable through the option, or the game cannot be replayed.
    assert!((1..=2_147_483_647).contains(&seed), "seed {seed} is outside the Seed option's range");
    let game = |e: &mut Uci| -> Vec<String> {
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..6 {
            let pos = if moves.is_empty() {
                format!("position {}", POSITIONS[1])
            } else {
                format!("position {} moves {}", POSITIONS[1], moves.join(" "))
            };
            e.send(&pos);
            e.send("go nodes 100000");
            moves.push(e.bestmove(T).0);
        }
        moves
    };
    let played = game(&mut e);
    let mut f = Uci::start();
    f.send("setoption name Profile value club");
    f.send(&format!("setoption name Seed value {seed}"));
    f.send("ucinewgame");
    f.send("isready");
    let lines = f.wait_for(T, |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.contains("out of range") && !l.contains("ignored")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with(&format!("info string seed {seed} "))), "{lines:?}");
    assert_eq!(game(&mut f), played);
}

fn eval_rows(e: &mut Uci) -> Vec<String> {
    e.send("eval");
    e.wait_for(T, |l| l.starts_with("Disabled groups") || l.starts_with("Final evaluation"));
    e.send("isready");
    let lines = e.wait_for(T, |l| l == "readyok");
    let mut all: Vec<String> = e.transcript.iter().rev().take(40).cloned().collect();
    all.reverse();
    let _ = lines;
    let start = all.iter().rposition(|l| l.contains("Term |")).expect("eval table");
    all[start..].iter().filter(|l| l.contains('|')).cloned().collect()
}

#[test]
fn schools_change_exactly_the_pawn_rows_between_1500_and_2100() {
    let mut e = Uci::start();
    // Isolated and doubled pawns, a passed pawn on d5.
    e.send("position fen 4k3/pp3ppp/8/3P4/8/2P5/P1P2PPP/4K3 w - - 0 1");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1500");
    let low = eval_rows(&mut e);
    e.send("setoption name UCI_Elo value 2100");
    let high = eval_rows(&mut e);
    assert_eq!(low.len(), high.len());
    let mut differing: Vec<String> = low
        .iter()
        .zip(&high)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.split('|').next().unwrap().trim().to_string())
        .collect();
    differing.retain(|r| r != "Total");
    assert_eq!(differing, vec!["PawnStructure".to_string(), "PassedPawns".to_string()], "{low:#?}\n{high:#?}");
    assert!(low.iter().any(|l| l.starts_with("  PawnStructure") && l.contains("(off)")));
}

#[test]
fn bad_avatar_files_are_rejected_whole_with_file_and_line() {
    let dir = std::env::temp_dir().join(format!("sparring-avatar-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.avt");
    std::fs::write(&good, "# test\nMobility(mg)=150\nThreats(eg) = 50\n").unwrap();
    let cases = [
        ("unknown.avt", "Material(mg)=100\nCourage(mg)=120\n", ":2:"),
        ("number.avt", "Material(mg)=100\nMobility(eg)=lots\n", ":2:"),
        ("range.avt", "Space(mg)=201\n", ":1:"),
        ("duplicate.avt", "Rook(mg)=90\nrook(MG)=80\n", ":2:"),
        ("phase.avt", "Queen(xg)=90\n", ":1:"),
    ];
    let mut e = Uci::start();
    e.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8");
    e.send(&format!("setoption name Avatar File value {}", good.display()));
    e.wait_for(T, |l| l.contains("Avatar File: loaded"));
    let before = eval_rows(&mut e);
    assert!(before.iter().any(|l| l.contains("Mobility") && l.contains("mg 150%")));
    for (name, text, line) in cases {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        e.send(&format!("setoption name Avatar File value {}", p.display()));
        let l = e.wait_for(T, |l| l.contains("Avatar File"));
        let msg = l.last().unwrap();
        assert!(msg.contains("rejected") && msg.contains(name) && msg.contains(line), "{name}: {msg}");
        assert_eq!(eval_rows(&mut e), before, "{name} changed the weights");
    }
    e.send(&format!("setoption name Avatar File value {}", dir.join("missing.avt").display()));
    let l = e.wait_for(T, |l| l.contains("Avatar File"));
    assert!(l.last().unwrap().contains("missing.avt"));
    assert_eq!(eval_rows(&mut e), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_shipped_avatar_loads_through_uci() {
    let mut e = Uci::start();
    let dir = std::path::Path::new(env!("SPARRING_REPO")).join("avatars");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|x| x == "avt") {
            e.send(&format!("setoption name Avatar File value {}", p.display()));
            let l = e.wait_for(T, |l| l.contains("Avatar File"));
            assert!(l.last().unwrap().contains("loaded"), "{}: {}", p.display(), l.last().unwrap());
            n += 1;
        }
    }
    // Seven ship since philidor, modern and technician were retired (bench/results/style.md).
    assert!(n >= 7, "{n} avatars");
}

#[test]
fn active_profile_is_reported_with_version_and_hash() {
    let mut e = Uci::start();
    e.send("setoption name Profile value club");
    e.send("isready");
    let l = e.wait_for(T, |l| l.starts_with("info string profile"));
    let msg = l.last().unwrap();
    assert!(msg.contains("club v") && msg.contains("blake3"), "{msg}");
    e.wait_for(T, |l| l == "readyok");
    // GUIs send UCI_LimitStrength before UCI_Elo: the setting is reported once, when they have
    // settled (at isready or go), never the level in between.
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1700");
    e.send("isready");
    let l = e.wait_for(T, |l| l == "readyok");
    let reports: Vec<&String> = l.iter().filter(|l| l.contains("(ladder v")).collect();
    assert_eq!(reports.len(), 1, "{l:?}");
    assert!(reports[0].contains("level 1700") && reports[0].contains("ladder v"), "{l:?}");
    // Nothing changed since: no second report.
    e.send("isready");
    let l = e.wait_for(T, |l| l == "readyok");
    assert!(l.iter().all(|l| !l.contains("(ladder v")), "{l:?}");
    e.send("setoption name UCI_Elo value 5000");
    let l = e.wait_for(T, |l| l.contains("out of range"));
    assert!(l.last().unwrap().contains("UCI_Elo"));
}

#[test]
fn weak_moves_are_legal_and_the_last_pv_starts_with_them() {
    let mut e = Uci::start();
    for setting in settings() {
        for l in &setting {
            e.send(l);
        }
        for p in POSITIONS {
            e.send(&format!("position {p}"));
            e.send("go movetime 2000");
            let (mv, lines) = e.bestmove(T);
            assert!(common::is_legal_after(p, &mv), "{setting:?}: {mv} illegal");
            let pv_line = lines.iter().rev().find(|l| l.contains(" pv ")).unwrap();
            assert_eq!(pv_line.split(" pv ").nth(1).unwrap().split_whitespace().next().unwrap(), mv);
        }
    }
    // One legal move: played at once, whatever the setting.
    e.send("setoption name UCI_Elo value 800");
    e.send("position fen 7k/8/8/8/8/8/6q1/7K w - - 0 1");
    e.send("go wtime 1000 btime 1000");
    assert_eq!(e.bestmove(T).0, "h1g2");
}

/// Plays the PV of an `info` line from `position`; true when it ends in checkmate after exactly the
/// plies its `score mate N` claims.
fn pv_delivers_the_mate(position: &str, info: &str) -> bool {
    use shakmaty::Position;
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "mate").expect("a mate score");
    let n: i32 = words[at + 1].parse().unwrap();
    let pv: Vec<&str> = info.split(" pv ").nth(1).unwrap_or("").split_whitespace().collect();
    let args: Vec<&str> = position.split_whitespace().collect();
    let (root, _, moves) = sparring::uci::parse_position(&args).unwrap();
    let mut pos = root;
    for m in moves {
        pos.play_unchecked(m);
    }
    for text in &pv {
        let Ok(m) = sparring::board::notation::parse_uci(&pos, text) else { return false };
        pos.play_unchecked(m);
    }
    let plies = if n > 0 { 2 * n - 1 } else { -2 * n };
    pv.len() as i32 == plies && pos.is_checkmate()
}

#[test]
fn a_reported_mate_comes_with_its_mating_line() {
    // Weak settings playing out won endings (and defending them) announce mates from MultiPV
    // searches whose lines are cut short; the engine of commit d3839eb claimed 15 mates its PV did
    // not deliver in these games (e.g. `score mate 10` with 17 plies). Every claim must now show
    // the mate; the rest are reported in centipawns.
    let games = [
        ("2400", 5, "8/8/8/3k4/8/8/8/R3K3 w - - 0 1"),
        ("2400", 5, "2k5/8/8/8/8/8/8/4K2R w K - 0 1"),
        ("1500", 9, "2k5/8/8/8/8/8/8/4K2R w K - 0 1"),
    ];
    let mut e = Uci::start();
    e.send("setoption name UCI_LimitStrength value true");
    let mut claims = 0;
    for (elo, seed, fen) in games {
        e.send(&format!("setoption name UCI_Elo value {elo}"));
        e.send(&format!("setoption name Seed value {seed}"));
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..40 {
            let position = format!("fen {fen} moves {}", moves.join(" "));
            e.send(&format!("position {position}"));
            e.send("go wtime 60000 btime 60000");
            let (mv, lines) = e.bestmove(T);
            if mv == "0000" {
                break;
            }
            let last = lines.iter().rev().find(|l| l.starts_with("info ") && l.contains(" pv ")).unwrap();
            if last.contains(" score mate ") {
                claims += 1;
                assert!(pv_delivers_the_mate(&position, last), "UCI_Elo {elo} seed {seed} {position}: {last}");
            }
            moves.push(mv);
        }
    }
    assert!(claims > 10, "only {claims} mate claims: the games no longer test the reports");
    // Full strength claims a mate in 1 with its line.
    e.send("setoption name UCI_LimitStrength value false");
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    e.send("go depth 8");
    let (_, lines) = e.bestmove(T);
    let last = lines.iter().rev().find(|l| l.starts_with("info ") && l.contains(" pv ")).unwrap();
    assert!(last.contains(" score mate 1 ") && last.ends_with(" pv d1d8"), "{last}");
}

#[test]
fn a_weak_setting_reports_the_game_seed_at_its_first_go() {
    // No ucinewgame: the GUI just sets the options and plays.
    let mut e = Uci::start();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1300");
    e.send("position startpos");
    e.send("go wtime 10000 btime 10000");
    let (_, lines) = e.bestmove(T);
    let seeds: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string seed ")).collect();
    assert_eq!(seeds.len(), 1, "{lines:?}");
    let levels = lines.iter().filter(|l| l.contains("(ladder v")).count();
    assert_eq!(levels, 1, "the level is reported once, as 1300: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("level 1300")), "{lines:?}");
    // The second move of the same game repeats neither.
    e.send("position startpos moves e2e4");
    e.send("go wtime 10000 btime 10000");
    let (_, lines) = e.bestmove(T);
    assert!(lines.iter().all(|l| !l.starts_with("info string seed ") && !l.contains("(ladder v")), "{lines:?}");
    // A new game reports its new seed.
    e.send("ucinewgame");
    e.send("isready");
    let lines = e.wait_for(T, |l| l == "readyok");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string seed ")).count(), 1, "{lines:?}");
}

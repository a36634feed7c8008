//! Whole matches through `sparring_tools::r#match::run_match`: fixture engines (well-behaved and
//! misbehaving), PGN output replayed with a PGN parser, adjudication in real games, seeds, and
//! sparring against itself.

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use sparring_tools::r#match::adjudicate::{DrawRule, ResignRule};
use sparring_tools::r#match::engine::{EngineConfig, TimeControl};
use sparring_tools::r#match::{MatchConfig, MatchSummary, OpeningsConfig, run_match};
use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

const FIXTURE: &str = env!("CARGO_BIN_EXE_uci_fixture");
const SPARRING: &str = env!("CARGO_BIN_EXE_sparring");

fn fixture(name: &str, args: &str) -> EngineConfig {
    EngineConfig {
        name: name.into(),
        cmd: FIXTURE.into(),
        args: args.split_whitespace().map(str::to_string).collect(),
        tc: TimeControl { nodes: Some(1), ..Default::default() },
        // Generous: a loaded CI machine can take seconds to start a process; the fault tests set
        // their own short limits.
        start_timeout: Duration::from_secs(30),
        hang_timeout: Duration::from_secs(30),
        ..Default::default()
    }
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("arena_match_{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn config(a: EngineConfig, b: EngineConfig, games: usize) -> MatchConfig {
    let mut c = MatchConfig::new(a, b);
    c.games = games;
    c.srand = 12345;
    c.maxmoves = Some(60);
    c
}

/// A game read back from PGN and replayed.
#[derive(Debug, Default)]
struct Replayed {
    tags: HashMap<String, String>,
    plies: usize,
    result_token: String,
    final_pos: Option<Chess>,
}

struct Replayer;

impl Visitor for Replayer {
    type Tags = HashMap<String, String>;
    type Movetext = (Replayed, Chess);
    type Output = Result<Replayed, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(HashMap::new())
    }
    fn tag(&mut self, t: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        t.insert(String::from_utf8_lossy(name).to_string(), value.decode_utf8_lossy().to_string());
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        let pos = match tags.get("FEN") {
            Some(f) => {
                match Fen::from_ascii(f.as_bytes()).ok().and_then(|f| f.into_position(CastlingMode::Standard).ok()) {
                    Some(p) => p,
                    _ => return ControlFlow::Break(Err(format!("bad FEN {f}"))),
                }
            }
            None => Chess::default(),
        };
        ControlFlow::Continue((Replayed { tags, ..Default::default() }, pos))
    }
    fn san(&mut self, m: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        match san.san.to_move(&m.1) {
            Ok(mv) => {
                m.1.play_unchecked(mv);
                m.0.plies += 1;
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!("illegal {san}: {e}"))),
        }
    }
    fn outcome(&mut self, m: &mut Self::Movetext, o: pgn_reader::Outcome) -> ControlFlow<Self::Output> {
        m.0.result_token = o.to_string();
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, m: Self::Movetext) -> Self::Output {
        let (mut r, pos) = m;
        r.final_pos = Some(pos);
        Ok(r)
    }
}

/// Reads a PGN file, replays every game legally and checks the standard tags.
fn replay(path: &Path) -> Vec<Replayed> {
    let mut reader = Reader::new(std::fs::File::open(path).unwrap());
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut Replayer).unwrap() {
        let g = g.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for t in ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Termination", "PlyCount", "Seed"] {
            assert!(g.tags.contains_key(t), "missing tag {t}");
        }
        assert!(g.tags.contains_key("TimeControl") || g.tags.contains_key("WhiteTimeControl"));
        assert_eq!(g.tags["PlyCount"], g.plies.to_string());
        assert_eq!(g.tags["Result"], g.result_token);
        assert_eq!(g.tags.contains_key("FEN"), g.tags.contains_key("SetUp"));
        let p = g.final_pos.as_ref().unwrap();
        if g.tags["Termination"] == "normal" {
            // A normal end is mate or a rule draw, visible on the board (repetition aside).
            let result = &g.tags["Result"];
            if p.is_checkmate() {
                assert_ne!(result, "1/2-1/2");
            } else {
                assert_eq!(result, "1/2-1/2");
            }
        }
        out.push(g);
    }
    out
}

fn only_reason(s: &MatchSummary, i: usize) -> &str {
    &s.games[i].reason
}

#[test]
fn fixture_match_pgn_json_and_seeds() {
    let log = tmp("seedlog.txt");
    let a = fixture("A", &format!("--seed-option --log {}", log.display()));
    let b = fixture("B", "");
    let mut c = config(a, b, 6);
    c.repeat = true;
    c.pgnout = Some(tmp("m.pgn"));
    c.epdout = Some(tmp("m.epd"));
    c.jsonout = Some(tmp("m.json"));
    let s = run_match(c.clone()).unwrap();
    assert_eq!(s.games_played, 6);
    assert_eq!(s.result.games(), 6);
    assert_eq!(s.pentanomial.unwrap().iter().sum::<u64>(), 3);
    assert_eq!(s.stopped, None);
    let games = replay(c.pgnout.as_ref().unwrap());
    assert_eq!(games.len(), 6);
    // Paired games share the opening and swap colours.
    for pair in games.chunks(2) {
        assert_eq!(pair[0].tags["Opening"], pair[1].tags["Opening"]);
        assert_eq!(pair[0].tags["White"], pair[1].tags["Black"]);
        assert_ne!(pair[0].tags["Seed"], pair[1].tags["Seed"]);
    }
    // The seed sent to the engine that declares `Seed` is the game's seed, before ucinewgame.
    let sent: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("setoption name Seed value ").map(str::to_string))
        .collect();
    let tagged: Vec<String> = games.iter().map(|g| g.tags["Seed"].clone()).collect();
    assert_eq!(sent, tagged);
    let seeds: Vec<u64> = (0..6).map(|g| sparring_tools::r#match::game_seed(12345, g)).collect();
    assert_eq!(tagged, seeds.iter().map(u64::to_string).collect::<Vec<_>>());
    // The same game index gets the same seed with another opponent and the same games replay.
    let s2 = run_match(MatchConfig { pgnout: None, epdout: None, jsonout: None, ..c.clone() }).unwrap();
    assert_eq!(s.games.iter().map(|g| g.seed).collect::<Vec<_>>(), s2.games.iter().map(|g| g.seed).collect::<Vec<_>>());
    assert_eq!(
        s.games.iter().map(|g| g.plies).collect::<Vec<_>>(),
        s2.games.iter().map(|g| g.plies).collect::<Vec<_>>()
    );
    // JSON summary and EPD output.
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(c.jsonout.as_ref().unwrap()).unwrap()).unwrap();
    assert_eq!(j["games_played"], 6);
    assert_eq!(j["engines"][0], "A");
    assert!(j["pentanomial"].is_array());
    assert_eq!(std::fs::read_to_string(c.epdout.as_ref().unwrap()).unwrap().lines().count(), 6);
}

#[test]
fn epd_book_with_fen_tags_and_clock() {
    let book = tmp("book.epd");
    std::fs::write(
        &book,
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n\
         rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n",
    )
    .unwrap();
    let mut a = fixture("A", "");
    let mut b = fixture("B", "");
    for e in [&mut a, &mut b] {
        e.tc = TimeControl { clock: TimeControl::parse_tc("40/5+0.05").unwrap(), ..Default::default() };
        e.timemargin = Duration::from_millis(200);
    }
    let mut c = config(a, b, 2);
    c.openings = OpeningsConfig { file: Some(book), ..Default::default() };
    c.pgnout = Some(tmp("epd.pgn"));
    let s = run_match(c.clone()).unwrap();
    assert_eq!(s.games_played, 2);
    let games = replay(c.pgnout.as_ref().unwrap());
    assert_eq!(games[0].tags["SetUp"], "1");
    assert!(games[0].tags["FEN"].starts_with("r1bqkbnr/pppp1ppp/2n5"));
    assert_eq!(games[0].tags["TimeControl"], "40/5+0.05");
}

#[test]
fn adjudication_in_games() {
    // Draw by scores: both engines report 0.
    let mut c = config(fixture("A", "--score 0"), fixture("B", "--score 0"), 1);
    c.draw = Some(DrawRule { movenumber: 1, movecount: 3, score: 10 });
    let s = run_match(c).unwrap();
    assert_eq!(s.games[0].reason, "Draw by adjudication");
    assert_eq!(s.games[0].termination, "adjudication");
    assert_eq!(s.games[0].plies, 10 + 6); // the first built-in line has 10 plies
    // Resignation: A reports a lost score.
    let mut c = config(fixture("A", "--score -900"), fixture("B", "--score 0"), 2);
    c.resign = Some(ResignRule { movecount: 2, score: 600, twosided: false });
    let s = run_match(c.clone()).unwrap();
    assert_eq!(s.result.losses, 2);
    assert_eq!(only_reason(&s, 0), "White resigns");
    assert_eq!(only_reason(&s, 1), "Black resigns");
    // Two-sided: B does not agree, so nobody resigns; the move limit ends the games.
    c.resign = Some(ResignRule { movecount: 2, score: 600, twosided: true });
    c.maxmoves = Some(12);
    let s = run_match(c).unwrap();
    assert!(s.games.iter().all(|g| g.reason == "Draw by move limit" && g.plies == 24));
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn syzygy_adjudication_in_games() {
    let tbdir = concat!(env!("SPARRING_REPO"), "/../shared/data/syzygy/3-4");
    if !Path::new(tbdir).exists() {
        println!("skipped: ../shared/data not found");
        return;
    }
    let book = tmp("tb.epd");
    std::fs::write(&book, "8/8/8/4k3/8/8/8/KQQ5 w - - 0 1\n4k3/8/8/8/8/8/8/KR1r4 w - - 0 1\n").unwrap();
    let mut c = config(fixture("A", ""), fixture("B", ""), 2);
    c.openings = OpeningsConfig { file: Some(book), ..Default::default() };
    c.tb = Some(tbdir.to_string());
    c.pgnout = Some(tmp("tb.pgn"));
    let s = run_match(c.clone()).unwrap();
    assert_eq!(s.games[0].reason, "Syzygy adjudication");
    assert_eq!(s.games[0].result, "1-0");
    assert_eq!(s.games[0].plies, 1);
    assert_eq!(s.games[1].termination, "adjudication");
    assert!(s.games[1].reason.contains("Syzygy"));
    replay(c.pgnout.as_ref().unwrap());
}

/// One misbehaving engine (A) against a good one: every game is A's loss for the given reason
/// and the match plays on.
fn fault_case(
    mode_args: &str,
    tweak: impl Fn(&mut EngineConfig),
    term: &str,
    reason: &str,
    recover: bool,
) -> MatchSummary {
    let mut a = fixture("Bad", mode_args);
    tweak(&mut a);
    let mut c = config(a, fixture("Good", ""), 3);
    c.recover = recover;
    c.pgnout = Some(tmp(&format!("fault_{}.pgn", term.replace(' ', "_"))));
    let s = run_match(c.clone()).unwrap();
    assert_eq!(s.games_played, 3, "{s:#?}");
    for g in &s.games {
        assert_eq!(g.termination, term, "{g:?}");
        assert!(g.reason.contains(reason), "{g:?}");
        let bad_white = g.white == "Bad";
        assert_eq!(g.result, if bad_white { "0-1" } else { "1-0" });
    }
    assert_eq!(s.result.losses, 3);
    assert_eq!(s.faults, [3, 0]);
    let games = replay(c.pgnout.as_ref().unwrap());
    assert!(games.iter().all(|g| g.tags["Termination"] == term));
    s
}

#[test]
fn fault_illegal_move() {
    fault_case("--mode illegal --at 2", |_| {}, "illegal move", "makes an illegal move", false);
}

#[test]
fn fault_crash_with_recover() {
    fault_case("--mode exit --at 2", |_| {}, "abandoned", "disconnects", true);
}

#[test]
fn fault_crash_stops_match_without_recover() {
    let c = config(fixture("Bad", "--mode exit --at 2"), fixture("Good", ""), 3);
    let s = run_match(c).unwrap();
    assert_eq!(s.games_played, 1);
    assert!(s.stopped.as_deref().unwrap().contains("-recover"));
    assert_eq!(s.games[0].termination, "abandoned");
}

#[test]
fn fault_hang() {
    fault_case(
        "--mode hang --at 2",
        |e| e.hang_timeout = Duration::from_millis(300),
        "stalled connection",
        "connection stalls",
        false,
    );
}

#[test]
fn fault_time_forfeit() {
    fault_case(
        "--mode overrun --at 2 --sleep 250",
        |e| {
            e.tc = TimeControl { movetime: Some(Duration::from_millis(50)), ..Default::default() };
            e.timemargin = Duration::from_millis(30);
        },
        "time forfeit",
        "loses on time",
        false,
    );
    // With a clock: 0.1 s for the game, the engine sleeps 0.3 s.
    fault_case(
        "--mode overrun --at 3 --sleep 300",
        |e| {
            e.tc = TimeControl { clock: TimeControl::parse_tc("0.1+0").unwrap(), ..Default::default() };
            e.timemargin = Duration::from_millis(50);
        },
        "time forfeit",
        "loses on time",
        false,
    );
}

#[test]
fn fault_no_uciok() {
    fault_case(
        "--mode no-uciok",
        |e| e.start_timeout = Duration::from_millis(300),
        "abandoned",
        "failed to start",
        true,
    );
    // A command that does not exist.
    let mut bad = fixture("Bad", "");
    bad.cmd = "/nonexistent/engine".into();
    let mut c = config(bad, fixture("Good", ""), 2);
    c.recover = true;
    let s = run_match(c).unwrap();
    assert_eq!(s.games_played, 2);
    assert!(s.games.iter().all(|g| g.reason.contains("failed to start")));
}

#[test]
fn an_option_the_engine_refuses_stops_the_match() {
    // sparring with a missing avatar file: it keeps its previous weights and says so. Playing on
    // would measure the plain point under the avatar's name, so the match must stop, quoting it.
    let mut bad = fixture("Avatar", "");
    bad.cmd = SPARRING.into();
    bad.args = vec![];
    bad.options = vec![("Avatar File".into(), "/nonexistent/attacker.avt".into())];
    let s = run_match(config(bad, fixture("Good", ""), 2)).unwrap();
    assert_eq!(s.games_played, 1, "{s:#?}");
    assert_eq!(s.games[0].termination, "abandoned");
    let why = s.stopped.as_deref().unwrap();
    assert!(why.contains("option refused") && why.contains("/nonexistent/attacker.avt"), "{why}");
}

#[test]
fn concurrency_and_sprt_stop() {
    // Each engine plays an illegal first move: the side to move loses every game, so the engines
    // are equal and the SPRT (elo1 = 200) accepts H0 before the 40 games. Issue 59: the games are
    // counted in game order, so the stop comes after the same games at any concurrency, and the
    // summary reports the decision the match stopped on (it used to count a game still in flight
    // at the stop and could read "continue").
    let run = |concurrency: usize| {
        let mut c = config(fixture("A", "--mode illegal --at 1"), fixture("B", "--mode illegal --at 1"), 40);
        c.concurrency = concurrency;
        c.sprt = Some(sparring_tools::r#match::sprt::Sprt::new(0.0, 200.0, 0.05, 0.05));
        run_match(c).unwrap()
    };
    let (one, two) = (run(1), run(2));
    for s in [&one, &two] {
        assert_eq!(s.stopped.as_deref(), Some("SPRT: H0 accepted"));
        assert_eq!(s.sprt.as_ref().unwrap().decision, "H0 accepted");
        assert!(s.games_played < 40, "{}", s.games_played);
        assert_eq!(s.games.len(), s.games_played);
        let mut indices: Vec<usize> = s.games.iter().map(|g| g.index).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..s.games_played).collect::<Vec<_>>(), "the first games in order");
    }
    assert_eq!(one.games_played, two.games_played);
    assert_eq!(
        (one.result.wins, one.result.draws, one.result.losses),
        (two.result.wins, two.result.draws, two.result.losses)
    );
    assert_eq!(one.sprt.as_ref().unwrap().llr, two.sprt.as_ref().unwrap().llr);
    // Issue 59: when every game ends alike (B loses each at once) the variance is not defined and
    // the SPRT does not decide, however lopsided: all 12 games are played.
    let mut c = config(fixture("A", ""), fixture("B", "--mode illegal --at 1"), 12);
    c.sprt = Some(sparring_tools::r#match::sprt::Sprt::new(0.0, 50.0, 0.05, 0.05));
    let s = run_match(c).unwrap();
    assert_eq!(s.games_played, 12);
    assert_eq!(s.sprt.as_ref().unwrap().decision, "continue");
}

#[test]
fn cli_end_to_end() {
    let pgn = tmp("cli.pgn");
    let out = crate::common::command(SPARRING)
        .args(["match", "-engine", &format!("cmd={FIXTURE}"), "name=X", "-engine", &format!("cmd={FIXTURE}"), "name=Y"])
        .args(["-each", "nodes=1", "-games", "2", "-repeat", "-srand", "5", "-maxmoves", "30", "-pgnout"])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in ["Score of X vs Y", "Elo:", "LOS:", "Ptnml(0-2):", "2 of 2 games finished."] {
        assert!(text.contains(needle), "missing {needle} in\n{text}");
    }
    assert_eq!(replay(&pgn).len(), 2);
    let help = crate::common::command(SPARRING).args(["match", "--help"]).output().unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("-openings"));
}

#[test]
fn sparring_vs_sparring() {
    let eng = |name: &str| EngineConfig {
        name: name.into(),
        cmd: SPARRING.into(),
        tc: TimeControl { nodes: Some(300), ..Default::default() },
        start_timeout: Duration::from_secs(10),
        hang_timeout: Duration::from_secs(10),
        ..Default::default()
    };
    let mut c = config(eng("sparring-1"), eng("sparring-2"), 4);
    c.repeat = true;
    c.maxmoves = Some(80);
    c.pgnout = Some(tmp("self.pgn"));
    let s = run_match(c.clone()).unwrap();
    assert_eq!(s.games_played, 4, "{s:#?}");
    assert_eq!(s.faults, [0, 0], "{s:#?}");
    assert!(s.games.iter().all(|g| matches!(g.termination.as_str(), "normal" | "adjudication")));
    let games = replay(c.pgnout.as_ref().unwrap());
    assert_eq!(games.len(), 4);
}

/// Issue 59: `sparring match` exited 0 after "Match stopped early: engine 'nonexistent' crashed or
/// failed to start". A match stopped by a fault now exits 3 (documented in `--help`); a finished
/// one 0.
#[test]
fn a_match_stopped_by_a_fault_exits_non_zero() {
    let run = |cmd: &str| {
        crate::common::command(SPARRING)
            .args(["match", "-engine", &format!("cmd={cmd}"), "name=X", "-engine", &format!("cmd={FIXTURE}"), "name=Y"])
            .args(["-each", "nodes=1", "starttimeout=5", "-games", "2", "-srand", "5", "-maxmoves", "20"])
            .args(["-progress", "lines"])
            .output()
            .unwrap()
    };
    let bad = run("/nonexistent/engine");
    let text = String::from_utf8_lossy(&bad.stdout);
    assert!(text.contains("Match stopped early"), "{text}");
    assert_eq!(bad.status.code(), Some(3), "{text}");
    let good = run(FIXTURE);
    assert_eq!(good.status.code(), Some(0), "{}", String::from_utf8_lossy(&good.stdout));
    assert!(sparring_tools::r#match::cli::HELP.contains("EXIT STATUS"));
}

/// Issue 59: cutechess words `sparring match` does not implement were accepted without a word.
/// `-pgnout FILE min` now writes the minimal PGN; `restart=on`, `ponder`, `policy=round` (and the
/// other unsupported ones) are refused with a message naming them.
#[test]
fn unsupported_cutechess_words_are_refused_and_pgnout_min_is_minimal() {
    use sparring_tools::r#match::cli::parse;
    let words = |extra: &str| -> Vec<String> {
        format!("-engine cmd=a -engine cmd=b -each nodes=1 {extra}").split_whitespace().map(str::to_string).collect()
    };
    for (extra, named) in [
        ("-each restart=on", "restart=on"),
        ("-each ponder", "ponder"),
        ("-each ponder=true", "ponder"),
        ("-openings policy=round", "policy=round"),
        ("-openings policy=encounter", "policy=encounter"),
        ("-each stderr=err.txt", "stderr"),
        ("-pgnout out.pgn fi", "'fi'"),
        ("-pgnout file=out.pgn notation=uci", "notation=uci"),
    ] {
        let err = parse(&words(extra)).err().unwrap_or_else(|| panic!("{extra} accepted"));
        assert!(err.contains(named), "{extra}: {err}");
    }
    for extra in ["-each restart=off", "-each restart=auto", "-openings policy=default", "-pgnout out.pgn"] {
        assert!(parse(&words(extra)).is_ok(), "{extra}");
    }
    assert!(parse(&words("-pgnout out.pgn min")).unwrap().pgn_min);
    assert!(parse(&words("-pgnout file=out.pgn min=true")).unwrap().pgn_min);
    assert!(!parse(&words("-pgnout out.pgn")).unwrap().pgn_min);
    // The minimal PGN: no comments, no tags beyond the roster (and FEN/SetUp).
    let pgn = tmp("min.pgn");
    let out = crate::common::command(SPARRING)
        .args(["match", "-engine", &format!("cmd={FIXTURE}"), "name=X", "-engine", &format!("cmd={FIXTURE}"), "name=Y"])
        .args(["-each", "nodes=1", "-games", "2", "-srand", "5", "-maxmoves", "30", "-progress", "quiet", "-pgnout"])
        .arg(&pgn)
        .arg("min")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(!text.contains('{'), "{text}");
    let tags: Vec<&str> =
        text.lines().filter(|l| l.starts_with('[')).map(|l| l[1..].split(' ').next().unwrap()).collect();
    assert!(
        tags.iter().all(|t| ["Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN", "SetUp"].contains(t)),
        "{tags:?}"
    );
    assert_eq!(text.matches("[Event ").count(), 2);
}

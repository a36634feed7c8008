//! `UCI_Opponent` in all its forms, bad values refused with a reason (the opponent set before
//! stays), and the game history the human move model v7 sees from `position … moves …`.

use sparring::uci::opponent::{Opponent, parse};
use sparring::uci::{Engine, Out};
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

fn opp(title: Option<&str>, rating: Option<u32>, computer: bool, name: &str) -> Option<Opponent> {
    Some(Opponent { title: title.map(str::to_string), rating, computer, name: name.to_string() })
}

#[test]
fn uci_opponent_forms_parse() {
    assert_eq!(parse("GM 2800 human Gary Kasparov"), Ok(opp(Some("GM"), Some(2800), false, "Gary Kasparov")));
    assert_eq!(parse("none none computer Shredder"), Ok(opp(None, None, true, "Shredder")));
    assert_eq!(parse("none 1500 human"), Ok(opp(None, Some(1500), false, "")));
    assert_eq!(parse("  im  2450 HUMAN  Anna  Maria "), Ok(opp(Some("IM"), Some(2450), false, "Anna  Maria")));
    assert_eq!(parse("BOT 2100 computer maia9"), Ok(opp(Some("BOT"), Some(2100), true, "maia9")));
    assert_eq!(parse("wgm none human Judit"), Ok(opp(Some("WGM"), None, false, "Judit")));
    assert_eq!(parse(""), Ok(None));
    assert_eq!(parse("<empty>"), Ok(None));
    assert_eq!(parse("none 0 human x").unwrap().unwrap().rating(), Some(0));
    assert_eq!(parse("none none human x").unwrap().unwrap().rating(), None);
    for (bad, says) in [
        ("XM 2000 human Bob", "unknown title"),
        ("GM abc human Bob", "rating 'abc'"),
        ("GM -5 human Bob", "rating '-5'"),
        ("GM 99999 human Bob", "rating '99999'"),
        ("GM 2000 alien Bob", "must be computer or human"),
        ("GM 2000", "missing computer or human"),
        ("GM", "missing rating"),
    ] {
        let e = parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn uci_opponent_bad_values_are_refused_and_the_state_kept() {
    let buf = Buf::default();
    let mut e = Engine::new(Out::new(Box::new(buf.clone())));
    assert_eq!(e.opponent(), None);
    e.handle("setoption name UCI_Opponent value GM 2800 human Gary Kasparov");
    assert_eq!(e.opponent().cloned(), opp(Some("GM"), Some(2800), false, "Gary Kasparov"));
    buf.take();
    for bad in ["XX 2800 human Gary", "GM 28k human Gary", "GM 2800 robot Gary", "GM"] {
        e.handle(&format!("setoption name UCI_Opponent value {bad}"));
        let said = buf.take();
        assert!(said.contains("info string UCI_Opponent") && said.contains("opponent unchanged"), "{bad}: {said}");
        assert_eq!(e.opponent().cloned(), opp(Some("GM"), Some(2800), false, "Gary Kasparov"), "{bad}");
    }
    e.handle("setoption name UCI_Opponent value none none computer Shredder");
    assert_eq!(e.opponent().cloned(), opp(None, None, true, "Shredder"));
    e.handle("setoption name uci_opponent value <empty>");
    assert_eq!(e.opponent(), None);
    // The engine declares the option.
    e.handle("uci");
    assert!(buf.take().contains("option name UCI_Opponent type string"));
}

#[test]
fn the_model_history_follows_the_position_command() {
    let mut e = Engine::new(Out::new(Box::new(Buf::default())));
    assert_eq!(e.model_history().positions().len(), 1);
    e.handle("position startpos moves e2e4 e7e5 g1f3");
    let h = e.model_history();
    assert_eq!(h.positions().len(), 4, "the start and the position after each move");
    assert_eq!(h.current(), e.game().pos());
    e.handle("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4 e7e5");
    assert_eq!(e.model_history().positions().len(), 8, "the last 8 only");
    e.handle("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    assert_eq!(e.model_history().positions().len(), 1, "a FEN alone is its own history");
    e.handle("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 moves f1b5");
    assert_eq!(e.model_history().positions().len(), 2);
}

/// The shipped ladder (which names the human move model v7) without its model ratings and rating
/// map: every point asks the model at its own Elo.
fn v7_ladder_text() -> String {
    let text = sparring::profile::Ladder::builtin_text();
    assert!(text.contains("human_model = 7"));
    text.lines()
        .filter(|l| !["model_elo", "model_oppo_elo", "model_map"].iter().any(|k| l.starts_with(k)))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_ladder_names_model_v7_at_its_points_model_ratings() {
    use sparring::profile::Ladder;
    assert_eq!(Ladder::builtin().human_model, Some(7));
    let shipped = Ladder::builtin().at(1500).maia3.clone().expect("the shipped 1500 asks Maia-3");
    assert_eq!((shipped.self_elo, shipped.oppo_elo), (1915.0, 1915.0), "its fitted model rating");
    let l = Ladder::parse(&v7_ladder_text()).expect("a ladder may name v7");
    let at = l.at(1500);
    let m = at.maia3.clone().expect("v7 inputs at a level with beta");
    assert_eq!((m.self_elo, m.oppo_elo), (1500.0, 1500.0), "absent model ratings: the point's Elo");
    assert!(at.describe().contains("v7 (Maia-3"), "{}", at.describe());
    // Model ratings out of range are refused.
    let bad = v7_ladder_text().replacen("[[point]]\n", "[[point]]\nmodel_elo = 9000.0\n", 1);
    assert!(Ladder::parse(&bad).is_err());
    // The choice's log-probabilities: over the moves given, on the grid, and the opponent counts.
    let mut e = Engine::new(Out::new(Box::new(Buf::default())));
    e.handle("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6");
    let game = e.game().clone();
    let moves: Vec<shakmaty::Move> = shakmaty::Position::legal_moves(game.pos()).into_iter().collect();
    let with = |oppo: f64, history: bool| sparring::profile::maia3_choice::Maia3Choice {
        self_elo: 800.0,
        oppo_elo: oppo,
        history: history.then(|| Arc::new(e.model_history())),
    };
    let lp = with(800.0, true).log_probs(&game, &moves).unwrap();
    let total: f64 = lp.iter().map(|x| x.exp()).sum();
    assert!((total - 1.0).abs() < 1e-3, "{total}");
    assert!(lp.iter().all(|x| (x * 65536.0).fract() == 0.0), "on the 2^-16 grid");
    let bxc6 = moves.iter().position(|m| sparring::board::notation::uci(*m) == "b5c6").unwrap();
    assert!((lp[bxc6].exp() - 0.58).abs() < 0.03, "Bxc6 at 800: {}", lp[bxc6].exp());
    assert_ne!(lp, with(2400.0, true).log_probs(&game, &moves).unwrap(), "the opponent input counts");
    assert_ne!(lp, with(800.0, false).log_probs(&game, &moves).unwrap(), "the history counts");
    assert_eq!(lp, with(800.0, true).log_probs(&game, &moves).unwrap(), "deterministic");
}

#[test]
fn the_engine_plays_with_model_v7_reproducibly() {
    let dir = std::env::temp_dir().join(format!("sparring-v7-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ladder-v7.toml");
    std::fs::write(&file, v7_ladder_text()).unwrap();
    let play = |opponent: &str| {
        let buf = Buf::default();
        let mut e = Engine::new(Out::new(Box::new(buf.clone())));
        for l in [
            format!("setoption name Ladder File value {}", file.display()),
            "setoption name UCI_LimitStrength value true".into(),
            "setoption name UCI_Elo value 1200".into(),
            "setoption name Seed value 61".into(),
            format!("setoption name UCI_Opponent value {opponent}"),
            "ucinewgame".into(),
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6".into(),
            "go nodes 3000".into(),
        ] {
            e.handle(&l);
        }
        while e.searching() {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        e.handle("isready");
        let out = buf.take();
        assert!(out.contains("v7 (Maia-3"), "{out}");
        out.lines().find(|l| l.starts_with("bestmove")).unwrap().to_string()
    };
    let a = play("none 1200 human Ann");
    assert_eq!(a, play("none 1200 human Ann"), "same seed, same move");
    println!("v7 at 1200: {a}");
}

#[test]
fn the_ladder_maps_ratings_onto_the_models_scale() {
    use sparring::profile::Ladder;
    // Without model ratings every rating maps to itself.
    let plain = Ladder::parse(&v7_ladder_text()).unwrap();
    for r in [0.0, 950.0, 1500.0, 3000.0] {
        assert_eq!(plain.model_rating(r), r);
    }
    // With model_elo = 220 + 1.13 · elo at every point (the FICS map): the same line everywhere,
    // between the points and beyond them, clamped to the model's range.
    let mut text = String::new();
    for line in v7_ladder_text().lines() {
        text.push_str(line);
        text.push('\n');
        if let Some(e) = line.strip_prefix("elo = ") {
            let e: f64 = e.trim().parse().unwrap();
            text.push_str(&format!("model_elo = {:.1}\n", 220.0 + 1.13 * e));
        }
    }
    let mapped = Ladder::parse(&text).unwrap();
    for r in [500.0, 800.0, 1234.0, 2000.0, 2400.0, 2800.0] {
        assert!((mapped.model_rating(r) - (220.0 + 1.13 * r)).abs() < 0.06, "{r}: {}", mapped.model_rating(r));
    }
    assert_eq!(mapped.model_rating(-1000.0), 0.0);
    assert_eq!(mapped.model_rating(9000.0), 5000.0);
    let at = mapped.at(1500).maia3.unwrap();
    assert!((at.self_elo - 1915.0).abs() < 0.06 && at.oppo_elo == at.self_elo, "{at:?}");
    // A ladder's model_map is the scale's map whatever its points' own model ratings (choice
    // parameters that may lie off it).
    let text = text.replacen("model_elo = 1915.0", "model_elo = 1463.0", 1).replacen(
        "human_model = 7",
        "human_model = 7\nmodel_map = [220.0, 1.13]",
        1,
    );
    let with_map = Ladder::parse(&text).unwrap();
    assert_eq!(with_map.at(1500).maia3.unwrap().self_elo, 1463.0);
    for r in [700.0, 1500.0, 2600.0] {
        assert!((with_map.model_rating(r) - (220.0 + 1.13 * r)).abs() < 1e-9, "{r}");
    }
    let bad = text.replacen("model_map = [220.0, 1.13]", "model_map = [220.0, -1.0]", 1);
    assert!(Ladder::parse(&bad).unwrap_err().to_string().contains("model_map"));
}

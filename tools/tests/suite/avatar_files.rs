//! Avatar files (SPEC 6): parsing, rejection with file and line, application, shipped styles.

use sparring::eval::{EvalConfig, Term};
use sparring::profile::{Avatar, AvatarError, AvatarProblem, Ladder};
use std::path::PathBuf;

fn avatars_dir() -> PathBuf {
    PathBuf::from(env!("SPARRING_REPO")).join("avatars")
}

fn reject(text: &str) -> AvatarError {
    Avatar::parse(text, "test.avt").expect_err("should be rejected")
}

#[test]
fn parses_keys_phases_comments_and_spacing() {
    let text = "\u{feff}# a style\n\
                \n\
                Material(mg)=90\n\
                  kingsafety ( MG ) =  140   # trailing comment\n\
                THREATS(eg)=0\r\n\
                PassedPawns(eg)=200\n\
                \t# indented comment\n";
    let a = Avatar::parse(text, "x.avt").unwrap();
    assert_eq!(a.mg[Term::Material.index()], 90);
    assert_eq!(a.eg[Term::Material.index()], 100);
    assert_eq!(a.mg[Term::KingSafety.index()], 140);
    assert_eq!(a.eg[Term::Threats.index()], 0);
    assert_eq!(a.eg[Term::PassedPawns.index()], 200);
    assert_eq!(a.mg[Term::Space.index()], 100, "missing keys stay 100");
    assert_eq!(a.name(), "x");
    let d = a.describe();
    assert!(d.contains("Material 90/100") && d.contains("KingSafety 140/100"), "{d}");
    assert!(!d.contains("Space"), "{d}");
    assert!(Avatar::parse("", "e.avt").unwrap().is_neutral());
    assert!(Avatar::parse("# nothing\n\n", "e.avt").unwrap().is_neutral());
}

#[test]
fn every_problem_is_rejected_with_file_and_line() {
    type Case = (&'static str, usize, fn(&AvatarProblem) -> bool);
    let cases: [Case; 11] = [
        ("Material(mg)=100\nDragons(mg)=100\n", 2, |p| matches!(p, AvatarProblem::UnknownKey(k) if k == "Dragons")),
        ("Material(mg)=abc\n", 1, |p| matches!(p, AvatarProblem::BadNumber(_))),
        ("Material(mg)=12.5\n", 1, |p| matches!(p, AvatarProblem::BadNumber(_))),
        ("Material(mg)=\n", 1, |p| matches!(p, AvatarProblem::BadNumber(_))),
        ("\n\nMaterial(mg)=201\n", 3, |p| matches!(p, AvatarProblem::OutOfRange(_))),
        ("Material(mg)=-1\n", 1, |p| matches!(p, AvatarProblem::OutOfRange(_))),
        ("Material(eg)=99999999999999999999999\n", 1, |p| matches!(p, AvatarProblem::OutOfRange(_))),
        ("Material(mg)=100\n# c\nmaterial(MG)=90\n", 3, |p| {
            matches!(p, AvatarProblem::Duplicate { first_line: 1, .. })
        }),
        ("Material(xg)=100\n", 1, |p| matches!(p, AvatarProblem::BadPhase(ph) if ph == "xg")),
        ("Material=100\n", 1, |p| matches!(p, AvatarProblem::Malformed(_))),
        ("Material(mg) 100\n", 1, |p| matches!(p, AvatarProblem::Malformed(_))),
    ];
    for (text, line, ok) in cases {
        let e = reject(text);
        assert_eq!(e.file, "test.avt", "{text:?}");
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(ok(&e.problem), "{text:?}: {e}");
        assert!(e.to_string().starts_with(&format!("test.avt:{line}: ")), "{e}");
    }
    // More malformed shapes.
    for text in ["(mg)=100", "Material(mg)x=100", "Material(mg=100", "just words"] {
        assert!(matches!(reject(text).problem, AvatarProblem::Malformed(_)), "{text}");
    }
    // The same key in different phases is not a duplicate.
    Avatar::parse("Material(mg)=100\nMaterial(eg)=100\n", "ok.avt").unwrap();
}

#[test]
fn messages_read_well() {
    let e = reject("Material(mg)=100\nMaterial(mg)=90\n");
    assert_eq!(e.to_string(), "test.avt:2: duplicate key Material(mg) (first set on line 1)");
    let e = reject("Materia(mg)=90\n");
    assert!(e.to_string().starts_with("test.avt:1: unknown key 'Materia'"), "{e}");
    let e = reject("Material(mg)=250\n");
    assert_eq!(e.to_string(), "test.avt:1: value 250 out of range (0-200)");
}

#[test]
fn missing_and_unreadable_files_are_rejected() {
    let missing = avatars_dir().join("no_such_style.avt");
    let e = Avatar::load(&missing).unwrap_err();
    assert!(matches!(e.problem, AvatarProblem::Missing(_)), "{e}");
    assert_eq!(e.line, 0);
    assert!(e.to_string().starts_with(&format!("{}: ", missing.display())), "{e}");

    let e = Avatar::load(avatars_dir()).unwrap_err();
    assert!(matches!(e.problem, AvatarProblem::Unreadable(_)), "{e}");

    let dir = std::env::temp_dir().join(format!("sparring-avatar-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bin = dir.join("binary.avt");
    std::fs::write(&bin, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let e = Avatar::load(&bin).unwrap_err();
    assert!(matches!(e.problem, AvatarProblem::Unreadable(_)), "{e}");
    let bad = dir.join("bad.avt");
    std::fs::write(&bad, "Threats(mg)=120\nThreats(mg)=130\n").unwrap();
    let e = Avatar::load(&bad).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.to_string().contains("bad.avt:2:"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_shipped_avatar_loads_and_says_what_it_imitates() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(avatars_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|x| x != "avt") {
            continue;
        }
        let a = Avatar::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!a.is_neutral(), "{} changes nothing", path.display());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().next().is_some_and(|l| l.starts_with('#')), "{} needs a header comment", path.display());
        // Issue 24: every shipped avatar says what it measurably changes (bench/results/style.md).
        assert!(
            text.contains("# Measured against the same level without it"),
            "{} does not say what it measurably changes",
            path.display()
        );
        names.push(a.name());
    }
    // philidor, modern and technician were retired: no measured rate moved (bench/results/style.md).
    for want in ["italian", "romantic", "attacker", "positional", "materialist", "defender", "beginner"] {
        assert!(names.iter().any(|n| n == want), "avatars/{want}.avt missing");
    }
}

#[test]
fn apply_multiplies_weights_and_keeps_disabled_groups_disabled() {
    let a =
        Avatar::parse("Threats(mg)=150\nThreats(eg)=50\nPawnStructure(mg)=200\nImbalance(eg)=0\n", "a.avt").unwrap();
    // The Romantic school: Threats at 120 %, Imbalance disabled.
    let mut cfg = Ladder::builtin().at(2300).eval;
    assert!(!cfg.is_enabled(Term::Imbalance));
    let before = cfg.clone();
    a.apply(&mut cfg, shakmaty::Color::White);
    assert_eq!(cfg.enabled, before.enabled, "flags never change");
    assert_eq!(cfg.mg_weight[Term::Threats.index()], 180); // 120 × 150 / 100
    assert_eq!(cfg.eg_weight[Term::Threats.index()], 60); // 120 × 50 / 100
    assert_eq!(cfg.mg_weight[Term::PawnStructure.index()], 200);
    assert_eq!(cfg.mg_weight[Term::Material.index()], 100);

    // An Italian-school config: PawnStructure is off and stays off even at 200 %.
    let mut beginner = Ladder::builtin().at(1500).eval;
    a.apply(&mut beginner, shakmaty::Color::White);
    assert!(!beginner.is_enabled(Term::PawnStructure));
    assert!(!beginner.is_enabled(Term::Imbalance));

    // Clamped to u16.
    let mut big = EvalConfig::full();
    big.mg_weight[Term::Threats.index()] = 60_000;
    a.apply(&mut big, shakmaty::Color::White);
    assert_eq!(big.mg_weight[Term::Threats.index()], u16::MAX);

    // The neutral avatar changes nothing.
    let mut full = EvalConfig::full();
    Avatar::neutral().apply(&mut full, shakmaty::Color::Black);
    assert!(full.is_full());
}

#[test]
fn own_and_opp_keys_weigh_one_side_and_plain_keys_both() {
    let a = Avatar::parse(
        "opp.KingSafety(mg) = 160\nOWN.kingsafety(mg)=90\nThreats(mg)=120\nown.Threats(eg)=130 # only ours\n",
        "s.avt",
    )
    .unwrap();
    let ks = Term::KingSafety.index();
    let th = Term::Threats.index();
    assert_eq!((a.mg[ks], a.opp_mg[ks]), (90, 160));
    assert_eq!((a.mg[th], a.opp_mg[th]), (120, 120), "a plain key sets both sides");
    assert_eq!((a.eg[th], a.opp_eg[th]), (130, 100));
    assert!(a.is_sided() && !a.is_neutral());
    assert!(a.describe().contains("KingSafety own 90/100 opp 160/100"), "{}", a.describe());
    // The text form reads back the same.
    assert_eq!(Avatar::parse(&a.to_text("round trip"), "s.avt").unwrap().mg, a.mg);
    assert_eq!(Avatar::parse(&a.to_text("round trip"), "s.avt").unwrap().opp_mg, a.opp_mg);
    // A plain-only avatar is not sided.
    assert!(!Avatar::parse("KingSafety(mg)=160\n", "p.avt").unwrap().is_sided());

    // A plain key clashes with a sided one of the same group and phase, in either order.
    let e = reject("own.KingSafety(mg)=90\nKingSafety(mg)=150\n");
    assert_eq!(
        (e.line, e.problem.clone()),
        (2, AvatarProblem::Duplicate { key: "KingSafety(mg)".into(), first_line: 1 })
    );
    let e = reject("KingSafety(mg)=150\nopp.KingSafety(mg)=90\n");
    assert_eq!(e.problem, AvatarProblem::Duplicate { key: "opp.KingSafety(mg)".into(), first_line: 1 });
    assert!(Avatar::parse("own.KingSafety(mg)=90\nopp.KingSafety(mg)=150\n", "ok.avt").is_ok());
    // Only own. and opp. are sides.
    assert!(
        matches!(reject("their.KingSafety(mg)=90\n").problem, AvatarProblem::UnknownKey(k) if k == "their.KingSafety")
    );
}

#[test]
fn a_sided_avatar_weighs_each_colour_by_the_side_the_engine_plays() {
    use shakmaty::{CastlingMode, Chess, Color, fen::Fen};
    let a = Avatar::parse("opp.KingSafety(mg)=200\nown.KingSafety(mg)=50\n", "s.avt").unwrap();
    // Both kings under some pressure, so both sides' KingSafety values are non-zero.
    let fen = "r1bq1rk1/ppp2ppp/2n2n2/3pp1B1/1bPP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 7";
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    let ks = Term::KingSafety.index();
    for us in [Color::White, Color::Black] {
        let mut cfg = EvalConfig::full();
        a.apply(&mut cfg, us);
        let s = *cfg.sided.clone().expect("a sided avatar makes the configuration take a side");
        assert_eq!((s.us, cfg.mg_weight[ks], s.them_mg[ks]), (us, 50, 200));
        let t = sparring::eval::trace(&pos, &cfg);
        let (w, b) = (t.white[ks].mg, t.black[ks].mg);
        let (ww, bw) = if us == Color::White { (50, 200) } else { (200, 50) };
        assert_eq!(t.weighted[ks].mg, (w * ww - b * bw) / 100, "us = {us:?}");
        assert_eq!(t.weighted[ks].eg, t.white[ks].eg - t.black[ks].eg, "eg weights stay 100 for both");
    }
    // The same weights on both sides give exactly the plain avatar's evaluation.
    let plain = Avatar::parse("KingSafety(mg)=150\n", "p.avt").unwrap();
    let same = Avatar::parse("own.KingSafety(mg)=150\nopp.KingSafety(mg)=150\n", "q.avt").unwrap();
    let (mut c1, mut c2) = (EvalConfig::full(), EvalConfig::full());
    plain.apply(&mut c1, Color::White);
    same.apply(&mut c2, Color::White);
    assert!(c1.sided.is_none() && c2.sided.is_none(), "equal sides are not sided");
    assert_eq!(sparring::eval::evaluate(&pos, &c1), sparring::eval::evaluate(&pos, &c2));
}

#[test]
fn a_sided_avatar_is_colour_symmetric() {
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};
    let a = Avatar::load(avatars_dir().join("attacker.avt")).unwrap();
    for fen in [
        "r1bq1rk1/ppp2ppp/2n2n2/3pp1B1/1bPP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 7",
        "2kr3r/ppp2ppp/2n1bq2/2b1p3/4P3/2NP1N2/PPP1BPPP/R1BQ1RK1 b - - 3 10",
        "8/5pk1/6p1/3P4/2K5/8/5PP1/8 w - - 0 40",
    ] {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let m = sparring::board::mirror(&pos).unwrap();
        let (mut c1, mut c2) = (EvalConfig::full(), EvalConfig::full());
        a.apply(&mut c1, pos.turn());
        a.apply(&mut c2, m.turn());
        assert_eq!(sparring::eval::evaluate(&pos, &c1), sparring::eval::evaluate(&m, &c2), "{fen}");
        // The engine playing the other side sees the same position differently.
        let mut other = EvalConfig::full();
        a.apply(&mut other, !pos.turn());
        assert_ne!(sparring::eval::evaluate(&pos, &c1), sparring::eval::evaluate(&pos, &other), "{fen}");
    }
}

#[test]
fn the_style_tilt_is_the_avatars_liking_of_each_move_within_the_cap() {
    use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen};
    use sparring::human::v6::{AVATAR_TILT_CAP_CP, style_tilt};
    // White can take a loose knight on c6 with the bishop; nothing else captures.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let plain = EvalConfig::full();
    // The same configuration: no tilt at all.
    assert!(style_tilt(&pos, &moves, &plain, &plain).iter().all(|&t| t == 0.0));
    // A materialist (material at 200 % for both sides) likes the capture best, by at most the cap.
    let mut styled = EvalConfig::full();
    Avatar::parse("Material(mg)=200\nMaterial(eg)=200\n", "m.avt").unwrap().apply(&mut styled, pos.turn());
    let tilt = style_tilt(&pos, &moves, &styled, &plain);
    let cap = f64::from(AVATAR_TILT_CAP_CP) / 100.0;
    assert!(tilt.iter().all(|t| t.abs() <= cap + 1e-12));
    // Bxc6 and Nxe5 (each a piece or pawn up until the recapture, which a static look misses).
    let captures: Vec<f64> = moves.iter().zip(&tilt).filter(|(m, _)| m.is_capture()).map(|(_, &t)| t).collect();
    let quiet = moves.iter().zip(&tilt).filter(|(m, _)| !m.is_capture()).map(|(_, &t)| t).fold(f64::MIN, f64::max);
    assert_eq!(captures.len(), 2);
    assert!(captures.iter().all(|&t| t >= 0.5 && t > quiet), "{tilt:?}");
    assert!(captures.contains(&cap), "the pawn grab is capped: {tilt:?}");
}

#[test]
fn an_avatar_tilts_the_model_at_a_point_the_model_leads() {
    use shakmaty::Position;
    use sparring::board::Game;
    use sparring::human::v6::style_tilt;
    use sparring::player::{MoveRequest, Player, Setting};
    use sparring::search::Control;
    // UCI_Elo 1500 chooses mostly by the human move model (small λ, large β): the avatar's tilt of
    // the model, β · avatar_tilt · Δ per move, is what lets its style reach the choice there.
    let plain = Player::level(1500);
    let styled = Player { avatar: Avatar::load(avatars_dir().join("defender.avt")).unwrap(), ..plain.clone() };
    let Setting::Level(level) = &plain.setting else { panic!("a ladder point") };
    let human = level.human.as_ref().expect("the model");
    let (beta, avatar_tilt) = (human.beta, human.avatar_tilt);
    let (mut weak, control) = (sparring::player::Searchers::new(1), Control::default());
    let mut game = Game::new(shakmaty::Chess::default());
    let (mut tilted, mut differ, mut total) = (0, 0, 0);
    for ply in 0..60u64 {
        let req = MoveRequest::new(&game, 5 + ply);
        let res = styled.search_weak(&mut weak.weak, &req, &control);
        let choice = level.choice.clone();
        let (_, a) = plain.choice_for(&mut weak.look, &game, &res.root_moves, None, choice.clone());
        let (_, b) = styled.choice_for(&mut weak.look, &game, &res.root_moves, None, choice);
        if let (Some(a), Some(b)) = (a, b) {
            let moves: Vec<_> = res.root_moves.iter().map(|r| r.mv).collect();
            let tilt = style_tilt(game.pos(), &moves, &styled.eval_config(game.pos().turn()), &level.eval);
            for ((x, y), t) in a.iter().zip(&b).zip(&tilt) {
                assert!((y - x - beta * avatar_tilt * t).abs() < 1e-9, "ply {ply}: {x} {y} {t}");
            }
            tilted += usize::from(tilt.iter().any(|&t| t != 0.0));
        }
        let m = plain.decide_weak(&mut weak, &req, &control).mv.expect("a move");
        total += 1;
        differ += usize::from(styled.decide_weak(&mut weak, &req, &control).mv != Some(m));
        // The game goes on with the plain point's move, so both see the same positions.
        game.make(m);
        if game.pos().legal_moves().is_empty() {
            break;
        }
    }
    assert!(tilted * 2 >= total, "the tilt was non-zero in {tilted} of {total} positions");
    assert!(differ > 0, "the avatar changed none of {total} moves");
    // The same seed and position give the same move with the avatar too.
    let req = MoveRequest::new(&game, 99);
    assert_eq!(styled.decide_weak(&mut weak, &req, &control).mv, styled.decide_weak(&mut weak, &req, &control).mv);
}

#[test]
fn leans_parse_round_trip_and_are_rejected_when_bad() {
    use sparring::policy::style::Rate;
    let a = Avatar::parse("Material(mg)=120\nlean.check = 40   # more checks\nLEAN.Castles=-25\n", "l.avt").unwrap();
    assert_eq!(a.lean[Rate::Check as usize], 40);
    assert_eq!(a.lean[Rate::Castles as usize], -25);
    assert!(a.leans() && a.reweights() && !a.is_neutral());
    let back = Avatar::parse(&a.to_text("round trip"), "l.avt").unwrap();
    assert_eq!((back.lean, back.mg), (a.lean, a.mg));
    assert!(a.describe().contains("check +40") && a.describe().contains("castles -25"), "{}", a.describe());
    // Leans alone: no evaluation weights changed, so no style tilt, but not neutral.
    let only = Avatar::parse("lean.capture=300\n", "o.avt").unwrap();
    assert!(only.leans() && !only.reweights() && !only.is_neutral());
    // Bad leans: unknown kind, out of range, not a number, twice; each with the line.
    assert!(matches!(reject("lean.captures=10\n").problem, AvatarProblem::UnknownLean(_)));
    assert_eq!(reject("\nlean.check=301\n").to_string(), "test.avt:2: lean 301 out of range (-300..300)");
    assert_eq!(reject("lean.check=1.5\n").to_string(), "test.avt:1: bad lean '1.5' (expected an integer -300..300)");
    assert_eq!(
        reject("lean.check=10\nlean.CHECK=20\n").to_string(),
        "test.avt:2: duplicate key lean.check (first set on line 1)"
    );
    assert!(reject("lean.bogus=1\n").to_string().contains("expected one of capture, check"));
}

#[test]
fn a_lean_moves_the_model_term_of_its_kind_of_move_at_a_model_led_point() {
    use shakmaty::Position;
    use sparring::board::Game;
    use sparring::player::{MoveRequest, Player, Setting};
    use sparring::policy::style::{Rate, classify};
    use sparring::search::Control;
    // At UCI_Elo 1500 (the model leads): each move's bias gains β · lean / 100 for each kind it is.
    let plain = Player::level(1500);
    let leaning = Avatar::parse("lean.capture=200\nlean.check=-100\n", "lean.avt").unwrap();
    let styled = Player { avatar: leaning.clone(), ..plain.clone() };
    let Setting::Level(level) = &plain.setting else { panic!("a ladder point") };
    let beta = level.human.as_ref().expect("the model").beta;
    let (mut weak, control) = (sparring::player::Searchers::new(1), Control::default());
    let mut game = Game::new(shakmaty::Chess::default());
    let (mut checked, mut captures_plain, mut captures_styled) = (0, 0, 0);
    for ply in 0..80u64 {
        let req = MoveRequest::new(&game, 3 + ply);
        let res = plain.search_weak(&mut weak.weak, &req, &control);
        let (_, a) = plain.choice_for(&mut weak.look, &game, &res.root_moves, None, level.choice.clone());
        let (_, b) = styled.choice_for(&mut weak.look, &game, &res.root_moves, None, level.choice.clone());
        if let (Some(a), Some(b)) = (a, b) {
            for ((x, y), r) in a.iter().zip(&b).zip(&res.root_moves) {
                let f = classify(game.pos(), game.last_move(), r.mv);
                let want = beta * leaning.lean_of(&f);
                assert!((y - x - want).abs() < 1e-9, "ply {ply} {}: {x} {y} want +{want}", r.mv);
                checked += usize::from(f[Rate::Capture as usize] == Some(true));
            }
        }
        let m = plain.decide_weak(&mut weak, &req, &control).mv.expect("a move");
        let s = styled.decide_weak(&mut weak, &req, &control).mv.expect("a move");
        captures_plain += usize::from(m.is_capture());
        captures_styled += usize::from(s.is_capture());
        game.make(m);
        if game.pos().legal_moves().is_empty() {
            break;
        }
    }
    assert!(checked > 20, "only {checked} captures among the root moves seen");
    assert!(captures_styled > captures_plain, "captures: leaning {captures_styled}, plain {captures_plain}");
}

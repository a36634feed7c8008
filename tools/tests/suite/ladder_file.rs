//! A ladder file in place of the built-in one (`Ladder File`, used by the fit's self-play step), and
//! the ladder written back as a file.

use crate::common::Uci;
use sparring::profile::Ladder;
use std::time::Duration;

fn answer(uci: &mut Uci) -> String {
    let lines = uci.wait_for(Duration::from_secs(10), |l| {
        l.contains("Ladder File rejected") || l.contains("Ladder File: loaded") || l.contains("Ladder File: cleared")
    });
    lines.last().cloned().unwrap_or_default()
}

fn moves(uci: &mut Uci) -> Vec<String> {
    [
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6",
        "position startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3",
        "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    ]
    .iter()
    .map(|p| {
        uci.send(p);
        uci.send("go nodes 5000");
        uci.bestmove(Duration::from_secs(60)).0
    })
    .collect()
}

#[test]
fn a_ladder_file_replaces_the_built_in_one_and_bad_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("sparring-ladder-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let builtin = Ladder::builtin();
    let mut reference = Uci::start_level(1300, 99);
    reference.isready();
    let expected = moves(&mut reference);

    // The built-in ladder written out and loaded plays the same moves.
    let copy = dir.join("copy.toml");
    std::fs::write(&copy, Ladder::builtin_text()).unwrap();
    let mut uci = Uci::start_level(1300, 99);
    uci.send(&format!("setoption name Ladder File value {}", copy.display()));
    assert!(answer(&mut uci).contains(&format!("loaded {}: {}", copy.display(), builtin.tag())));
    uci.isready();
    assert_eq!(moves(&mut uci), expected);

    // A changed ladder is the one the level reports.
    let mut changed = builtin.clone();
    changed.version = 77;
    let other = dir.join("other.toml");
    std::fs::write(&other, changed.to_toml()).unwrap();
    uci.send(&format!("setoption name Ladder File value {}", other.display()));
    assert!(answer(&mut uci).contains("ladder v77"));
    uci.send("isready");
    let lines = uci.wait_for(Duration::from_secs(10), |l| l == "readyok");
    assert!(lines.iter().any(|l| l.contains("level 1300") && l.contains("(ladder v77 ")), "{lines:?}");

    // Bad files: refused with the reason; the ladder in use (v77) stays.
    let bad_toml = dir.join("bad.toml");
    std::fs::write(&bad_toml, "name = \"x\"\nversion = [\n").unwrap();
    let mut rising = builtin.clone();
    rising.points[3].slip_p = 0.9;
    let invalid = dir.join("invalid.toml");
    std::fs::write(&invalid, rising.to_toml()).unwrap();
    for (path, why) in [(dir.join("missing.toml"), "No such file"), (bad_toml, "TOML"), (invalid, "slip_p")] {
        uci.send(&format!("setoption name Ladder File value {}", path.display()));
        let last = answer(&mut uci);
        assert!(last.contains("rejected") && last.contains(why) && last.contains("ladder v77"), "{why}: {last}");
    }
    uci.send("isready");
    let lines = uci.wait_for(Duration::from_secs(10), |l| l == "readyok");
    assert!(lines.iter().all(|l| !l.contains("level") || l.contains("(ladder v77 ")), "{lines:?}");

    // Empty: back to the built-in ladder and its moves.
    uci.send("setoption name Ladder File value");
    assert!(answer(&mut uci).contains("cleared"));
    uci.isready();
    assert_eq!(moves(&mut uci), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ladder_written_as_a_file_reads_back_the_same() {
    let builtin = Ladder::builtin();
    let back = Ladder::parse(&builtin.to_toml()).expect("the written ladder parses");
    assert_eq!(back.points, builtin.points);
    assert_eq!(
        (back.version, back.search_generation, back.human_model),
        (builtin.version, builtin.search_generation, builtin.human_model)
    );
    for elo in [800, 950, 1300, 1640, 2000, 2350, 2400] {
        let (mut a, b) = (back.at(elo), builtin.at(elo));
        // Only the file's hash differs (comments are not written).
        assert_ne!(a.ladder, b.ladder);
        a.ladder = b.ladder.clone();
        assert_eq!(a, b, "UCI_Elo {elo}");
    }
}

#[test]
fn a_point_may_set_how_far_an_avatar_tilts_the_model() {
    use sparring::human::v6::AVATAR_TILT;
    let builtin = Ladder::builtin();
    let i = builtin.points.iter().position(|p| p.beta.is_some() && p.avatar_tilt.is_none()).expect("a modelled point");
    let (elo, next) = (builtin.points[i].elo, builtin.points[i + 1].elo);
    let mut tilted = builtin.clone();
    tilted.points[i].avatar_tilt = Some(1.0);
    let back = Ladder::parse(&tilted.to_toml()).expect("a tilt inside the limits parses");
    let tilt = |l: &Ladder, e: i32| l.at(e).human.as_ref().expect("the model").avatar_tilt;
    assert_eq!(tilt(&builtin, elo), AVATAR_TILT, "absent = the default");
    assert_eq!(tilt(&back, elo), 1.0);
    // Halfway to the next point (default tilt) the tilt is halfway.
    let mid = (elo + next) / 2;
    let t = f64::from(mid - elo) / f64::from(next - elo);
    assert!((tilt(&back, mid) - (1.0 + (AVATAR_TILT - 1.0) * t)).abs() < 1e-12);
    assert_eq!(tilt(&back, next), AVATAR_TILT);
    // The level says so; the default stays unsaid.
    assert!(back.at(elo).describe().contains("avatar tilt 1.00"), "{}", back.at(elo).describe());
    assert!(!builtin.at(elo).describe().contains("avatar tilt"));
    // Out of range, not a number, or without the model it tilts: refused with the reason.
    for bad in [-0.5, 11.0, f64::NAN] {
        let mut l = builtin.clone();
        l.points[i].avatar_tilt = Some(bad);
        let e = Ladder::parse(&l.to_toml()).map(|_| ()).expect_err("refused");
        assert!(e.to_string().contains("avatar_tilt"), "{bad}: {e}");
    }
    let mut l = builtin.clone();
    l.points[i].beta = None;
    l.points[i].decided_lambda = None;
    l.points[i].avatar_tilt = Some(1.0);
    let e = Ladder::parse(&l.to_toml()).map(|_| ()).expect_err("refused");
    assert!(e.to_string().contains("avatar_tilt needs beta"), "{e}");
}

#[test]
fn a_point_may_cap_the_regret_of_its_boltzmann_choice() {
    let builtin = Ladder::builtin();
    assert!(builtin.points.iter().all(|p| p.boltzmann_max_cp.is_none()), "the built-in ladder caps nothing");
    let i = builtin.points.iter().position(|p| p.beta.is_some()).expect("a modelled point");
    let (elo, next) = (builtin.points[i].elo, builtin.points[i + 1].elo);
    let cap = |l: &Ladder, e: i32| l.at(e).choice.boltzmann_max_cp;
    let mut capped = builtin.clone();
    capped.points[i].boltzmann_max_cp = Some(200);
    let back = Ladder::parse(&capped.to_toml()).expect("a cap parses");
    assert!(capped.to_toml().contains("boltzmann_max_cp = 200"));
    assert!(!builtin.to_toml().contains("boltzmann_max_cp"), "absent stays unsaid");
    assert_eq!((cap(&builtin, elo), cap(&back, elo)), (None, Some(200)));
    // Towards an uncapped point the cap is kept; between two capped points it is interpolated.
    let mid = (elo + next) / 2;
    assert_eq!(cap(&back, mid), Some(200));
    assert_eq!(cap(&back, next), None);
    let mut both = capped.clone();
    both.points[i + 1].boltzmann_max_cp = Some(100);
    let both = Ladder::parse(&both.to_toml()).expect("two caps parse");
    let t = f64::from(mid - elo) / f64::from(next - elo);
    assert_eq!(cap(&both, mid), Some((200.0 - 100.0 * t).round() as i32));
    assert!(back.at(elo).describe().contains("choice capped at 200 cp"), "{}", back.at(elo).describe());
    // Below 1 cp (only exact ties left) it is refused with the reason.
    let mut bad = builtin.clone();
    bad.points[i].boltzmann_max_cp = Some(0);
    let e = Ladder::parse(&bad.to_toml()).map(|_| ()).expect_err("refused");
    assert!(e.to_string().contains("boltzmann_max_cp"), "{e}");
}

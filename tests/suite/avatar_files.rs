//! Avatar files (SPEC 6): parsing, rejection with file and line, application, shipped styles.

use sparring::eval::{EvalConfig, Term};
use sparring::profile::{Avatar, AvatarError, AvatarProblem, Ladder};
use std::path::PathBuf;

fn avatars_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("avatars")
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
        names.push(a.name());
    }
    for want in ["italian", "philidor", "romantic", "modern", "attacker", "positional", "materialist", "defender"] {
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
    a.apply(&mut cfg);
    assert_eq!(cfg.enabled, before.enabled, "flags never change");
    assert_eq!(cfg.mg_weight[Term::Threats.index()], 180); // 120 × 150 / 100
    assert_eq!(cfg.eg_weight[Term::Threats.index()], 60); // 120 × 50 / 100
    assert_eq!(cfg.mg_weight[Term::PawnStructure.index()], 200);
    assert_eq!(cfg.mg_weight[Term::Material.index()], 100);

    // An Italian-school config: PawnStructure is off and stays off even at 200 %.
    let mut beginner = Ladder::builtin().at(1500).eval;
    a.apply(&mut beginner);
    assert!(!beginner.is_enabled(Term::PawnStructure));
    assert!(!beginner.is_enabled(Term::Imbalance));

    // Clamped to u16.
    let mut big = EvalConfig::full();
    big.mg_weight[Term::Threats.index()] = 60_000;
    a.apply(&mut big);
    assert_eq!(big.mg_weight[Term::Threats.index()], u16::MAX);

    // The neutral avatar changes nothing.
    let mut full = EvalConfig::full();
    Avatar::neutral().apply(&mut full);
    assert!(full.is_full());
}

//! The built-in profiles and the ladder parse and validate (SPEC 3, 5).

use sparring::eval::{EvalConfig, Term};
use sparring::policy::ChoiceSettings;
use sparring::profile::ladder::{MODERN_FROM, PHILIDOR_FROM, ROMANTIC_FROM};
use sparring::profile::{Ladder, Profile, ProfileKind, School};

#[test]
fn builtin_profiles_parse_and_validate() {
    assert_eq!(Profile::names(), ["strong", "reduced", "club", "random"]);
    for name in Profile::names() {
        let p = Profile::builtin(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(p.name, name);
        assert!(p.version >= 1);
        assert!(!p.description.is_empty());
        p.validate().unwrap();
        let c = &p.choice;
        assert!((0.0..=1.0).contains(&c.slip_p));
        assert!(c.slip_min_cp <= c.slip_max_cp);
        if let Some(n) = p.search.nodes {
            assert!(n > 0);
        }
        assert_eq!(p.hash_hex().len(), 64);
        assert!(p.describe().contains(&format!("v{}", p.version)));
    }
    assert!(Profile::builtin("CLUB").is_some());
    assert!(Profile::builtin("nonexistent").is_none());
}

#[test]
fn builtin_profiles_say_what_spec_3_says() {
    let strong = Profile::builtin("strong").unwrap();
    assert_eq!(strong.kind, ProfileKind::Search);
    assert_eq!(strong.search.nodes, None);
    assert_eq!(strong.search.depth, None);
    assert_eq!(strong.choice, ChoiceSettings::best());
    assert!(strong.eval_config().is_full());
    assert!(strong.knowledge.tablebases);
    assert!(!strong.needs_all_root_scores());

    let reduced = Profile::builtin("reduced").unwrap();
    let n = reduced.search.nodes.unwrap();
    assert!((2000..=5000).contains(&n), "{n}");
    assert_eq!(reduced.choice.slip_p, 0.0);
    assert!(reduced.eval_config().is_full());

    let club = Profile::builtin("club").unwrap();
    // SPEC 3: "full or reduced budget"; v2 uses the reduced one so that club < reduced (bench/results/selfplay).
    assert!(club.search.nodes.unwrap() <= n);
    assert!(club.choice.slip_p > 0.0 && club.choice.slip_p <= 0.2);
    assert!(club.choice.slip_min_cp > 0);
    assert!(club.eval_config().is_full());
    assert!(club.needs_all_root_scores());

    let random = Profile::builtin("random").unwrap();
    assert!(random.is_random());
    assert!(random.eval_config().enabled.iter().all(|&e| !e));
    assert!(!random.knowledge.tablebases);
}

#[test]
fn profile_term_lists_and_weights_build_the_eval_config() {
    let text = r#"
name = "test"
version = 3
description = "x"
kind = "search"
[search]
nodes = 100
generation = 6
[knowledge]
terms = ["material", "Mobility", "KingSafety"]
tablebases = false
[knowledge.weights]
mobility = { mg = 150 }
KingSafety = { mg = 80, eg = 60 }
"#;
    let p = Profile::parse(text).unwrap();
    let cfg = p.eval_config();
    let mut want = EvalConfig { enabled: [false; Term::COUNT], ..EvalConfig::default() };
    for t in [Term::Material, Term::Mobility, Term::KingSafety] {
        want.set_enabled(t, true);
    }
    want.mg_weight[Term::Mobility.index()] = 150;
    want.mg_weight[Term::KingSafety.index()] = 80;
    want.eg_weight[Term::KingSafety.index()] = 60;
    assert_eq!(cfg, want);
}

#[test]
fn invalid_profiles_are_rejected() {
    let base = "name = \"t\"\nversion = 1\ndescription = \"x\"\nkind = \"search\"\n";
    let bad = [
        "[search]\nnodes = 0\n",
        "[choice]\nslip_p = 1.5\n",
        "[choice]\nslip_p = -0.1\n",
        "[choice]\nslip_min_cp = 300\nslip_max_cp = 200\n",
        "[choice]\nlambda = 0.0\n",
        "[choice]\nplateau_cp = -1\n",
        "[knowledge]\nterms = [\"Material\", \"Dragons\"]\n",
        "[knowledge]\nterms = \"some\"\n",
        "[knowledge.weights]\nMaterial = { mg = 250 }\n",
        "[knowledge.weights]\nDragons = { mg = 100 }\n",
        "[search]\nnodes = 10\ntime = 5\n",
        "colour = \"blue\"\n",
    ];
    for extra in bad {
        let text = format!("{base}{extra}");
        assert!(Profile::parse(&text).is_err(), "accepted:\n{text}");
    }
    assert!(Profile::parse(&format!("{base}[search]\nnodes = 10\nbench = 5\n")).is_ok());
    // version 0, missing name, bad kind
    assert!(Profile::parse(&base.replace("version = 1", "version = 0")).is_err());
    assert!(Profile::parse(&base.replace("name = \"t\"\n", "")).is_err());
    assert!(Profile::parse(&base.replace("\"search\"", "\"magic\"")).is_err());
    // random takes no search or choice settings
    let random = "name = \"r\"\nversion = 1\ndescription = \"x\"\nkind = \"random\"\n\
                  [knowledge]\nterms = \"none\"\ntablebases = false\n";
    assert!(Profile::parse(random).is_ok());
    assert!(Profile::parse(&format!("{random}[search]\nnodes = 5\n")).is_err());
}

#[test]
fn ladder_parses_and_validates() {
    let l = Ladder::builtin();
    l.validate().unwrap();
    assert_eq!(l.name, "ladder");
    assert!(l.version >= 1);
    let (lo, hi) = l.range();
    assert!(lo <= 800 && hi >= 2400, "the calibrated span covers at least 800-2400: {lo}-{hi}");
    assert!(l.points.len() >= 9);
    for p in &l.points {
        assert!(p.nodes > 0);
        assert!((0.0..=1.0).contains(&p.slip_p));
        assert!(p.slip_min_cp <= p.slip_max_cp);
    }
    assert_eq!(l.hash_hex().len(), 64);
}

#[test]
fn ladder_is_monotone_over_a_fine_sweep() {
    let l = Ladder::builtin();
    let mut prev = l.at(700);
    for elo in 700..=2900 {
        let s = l.at(elo);
        assert!(s.nodes >= prev.nodes, "nodes drop at {elo}");
        assert!(s.choice.slip_p <= prev.choice.slip_p, "slip_p rises at {elo}");
        assert!(s.choice.slip_max_cp <= prev.choice.slip_max_cp, "gate max at {elo}");
        assert!(s.choice.slip_min_cp <= prev.choice.slip_min_cp, "gate min at {elo}");
        assert!(s.choice.plateau_cp <= prev.choice.plateau_cp, "plateau at {elo}");
        assert!(s.school >= prev.school);
        // A missing cap is "unlimited": caps never shrink and never come back once gone.
        match (prev.depth, s.depth) {
            (Some(a), Some(b)) => assert!(b >= a, "depth cap drops at {elo}"),
            (None, Some(_)) => panic!("depth cap reappears at {elo}"),
            _ => {}
        }
        assert!(s.tablebases >= prev.tablebases);
        s.choice.validate().unwrap();
        assert!(s.nodes > 0);
        prev = s;
    }
}

#[test]
fn ladder_hits_its_points_and_clamps_outside() {
    let l = Ladder::builtin();
    for p in &l.points {
        let s = l.at(p.elo);
        assert_eq!(s.elo, p.elo);
        assert_eq!(s.nodes, p.nodes);
        assert_eq!(s.choice.slip_p, p.slip_p);
        assert_eq!(s.choice.slip_min_cp, p.slip_min_cp);
        assert_eq!(s.choice.slip_max_cp, p.slip_max_cp);
        assert_eq!(s.choice.plateau_cp, p.plateau_cp);
    }
    let (lo, hi) = l.range();
    assert_eq!(l.at(0), l.at(lo));
    assert_eq!(l.at(-5000), l.at(lo));
    assert_eq!(l.at(4000), l.at(hi));
    assert_eq!(l.at(i32::MAX).elo, hi);
    // Geometric between points, capped depths exactly at the points, no cap from the first
    // uncapped point on.
    for w in l.points.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if b.elo - a.elo >= 2 {
            let mid = l.at((a.elo + b.elo) / 2);
            let lo_n = a.nodes.min(b.nodes);
            let hi_n = a.nodes.max(b.nodes);
            assert!((lo_n..=hi_n).contains(&mid.nodes), "{} between {} and {}", mid.nodes, a.nodes, b.nodes);
            if a.nodes != b.nodes {
                let geo = ((a.nodes as f64) * (b.nodes as f64)).sqrt();
                assert!((mid.nodes as f64 - geo).abs() <= geo * 0.02 + 1.0, "{} vs geometric {geo}", mid.nodes);
            }
        }
    }
    for p in &l.points {
        assert_eq!(l.at(p.elo).depth, p.depth, "depth cap at {}", p.elo);
    }
    if let Some(first_free) = l.points.iter().find(|p| p.depth.is_none()) {
        assert_eq!(l.at(first_free.elo).depth, None);
        assert_eq!(l.at(hi).depth, None);
    }
}

#[test]
fn school_flags_switch_exactly_at_2000_2200_2400() {
    let l = Ladder::builtin();
    assert_eq!((PHILIDOR_FROM, ROMANTIC_FROM, MODERN_FROM), (2000, 2200, 2400));
    let on = |elo: i32, t: Term| l.at(elo).eval.is_enabled(t);
    for t in [
        Term::Material,
        Term::Knight,
        Term::Bishop,
        Term::Rook,
        Term::Queen,
        Term::Mobility,
        Term::Space,
        Term::KingSafety,
        Term::Threats,
    ] {
        for elo in [800, 1999, 2000, 2199, 2200, 2399, 2400, 2800] {
            assert!(on(elo, t), "{t:?} at {elo}");
        }
    }
    for t in [Term::PawnStructure, Term::PassedPawns] {
        assert!(!on(1999, t) && on(2000, t) && on(2800, t), "{t:?}");
    }
    assert!(!on(2199, Term::Winnable) && on(2200, Term::Winnable) && on(2800, Term::Winnable));
    assert!(!on(2399, Term::Imbalance) && on(2400, Term::Imbalance));

    assert_eq!(l.at(1999).school, School::Italian);
    assert_eq!(l.at(2000).school, School::Philidor);
    assert_eq!(l.at(2199).school, School::Philidor);
    assert_eq!(l.at(2200).school, School::Romantic);
    assert_eq!(l.at(2399).school, School::Romantic);
    assert_eq!(l.at(2400).school, School::Modern);
    assert_eq!(l.at(2000).school.level(), "Intermediate");

    // Romantic weights activity up; Modern is the full evaluator.
    let romantic = l.at(2300).eval;
    assert!(romantic.mg_weight[Term::Threats.index()] > 100);
    assert!(romantic.mg_weight[Term::Mobility.index()] > 100);
    assert_eq!(l.at(2399).eval.mg_weight[Term::Material.index()], 100);
    assert!(l.at(2400).eval.is_full());
    assert_eq!(l.at(2199).eval.mg_weight[Term::Threats.index()], 100);
}

#[test]
fn tablebases_switch_at_the_documented_threshold() {
    let l = Ladder::builtin();
    assert_eq!(l.tablebases_from_elo, 2000);
    assert!(!l.at(1999).tablebases);
    assert!(l.at(2000).tablebases);
    assert!(!l.at(800).tablebases);
}

#[test]
fn skill_level_maps_linearly_onto_the_ladder() {
    let l = Ladder::builtin();
    let (lo, hi) = l.range();
    assert_eq!(l.elo_for_skill(0), lo);
    assert_eq!(l.elo_for_skill(20), hi);
    assert_eq!(l.elo_for_skill(10), (lo + hi) / 2);
    assert_eq!(l.elo_for_skill(-3), lo);
    assert_eq!(l.elo_for_skill(99), hi);
    for s in 0..20 {
        assert!(l.elo_for_skill(s) < l.elo_for_skill(s + 1));
    }
    assert!(l.at(1500).describe().contains("Beginner"));
}

#[test]
fn invalid_ladders_are_rejected() {
    let head = "name = \"l\"\nversion = 1\ndescription = \"x\"\ntablebases_from_elo = 2000\nsearch_generation = 6\n";
    let pt = |elo: i32, nodes: u64, slip: f64| {
        format!(
            "[[point]]\nelo = {elo}\nnodes = {nodes}\nplateau_cp = 5\nslip_p = {slip}\n\
             slip_min_cp = 10\nslip_max_cp = 100\n"
        )
    };
    let ok = format!("{head}{}{}", pt(1000, 100, 0.2), pt(2000, 1000, 0.1));
    Ladder::parse(&ok).unwrap();
    for bad in [
        format!("{head}{}{}", pt(2000, 100, 0.2), pt(1000, 1000, 0.1)), // unsorted
        format!("{head}{}{}", pt(1000, 1000, 0.2), pt(2000, 100, 0.1)), // nodes drop
        format!("{head}{}{}", pt(1000, 100, 0.1), pt(2000, 1000, 0.2)), // slip rises
        format!("{head}{}", pt(1000, 0, 0.1)),                          // zero nodes
        format!("{head}{}", pt(1000, 10, 1.5)),                         // slip_p > 1
        head.to_string(),                                               // no points
    ] {
        assert!(Ladder::parse(&bad).is_err(), "accepted:\n{bad}");
    }
}

#[test]
fn profiles_load_from_disk_like_the_embedded_copies() {
    let dir = std::path::PathBuf::from(env!("SPARRING_REPO")).join("profiles");
    for name in Profile::names() {
        let p = Profile::load(dir.join(format!("{name}.toml"))).unwrap();
        assert_eq!(p, Profile::builtin(name).unwrap());
    }
    let e = Profile::load(dir.join("nope.toml")).unwrap_err();
    assert!(e.to_string().contains("nope.toml"), "{e}");
}

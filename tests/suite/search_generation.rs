//! Search generations: the frozen settings keep the search they were calibrated on.

use std::process::Command;

use sparring::player::Player;
use sparring::profile::{Ladder, Profile};
use sparring::search::Generation;

fn bench(args: &[&str]) -> (i32, String, String) {
    let out =
        Command::new(env!("CARGO_BIN_EXE_sparring")).arg("bench").args(args).output().expect("run sparring bench");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The node count of generation 1 at the default bench depth: the behaviour checksum of the settings
/// still calibrated on it (the human time model's difficulty look). If this fails, a change reached
/// the frozen search: put it behind a new generation instead.
const GENERATION_1_SIGNATURE: u64 = 815_444;

#[test]
fn generation_1_keeps_its_bench_signature() {
    let (code, stdout, stderr) = bench(&["--generation", "1"]);
    assert_eq!(code, 0, "{stderr}");
    let nodes: u64 = stdout.split_whitespace().next().and_then(|n| n.parse().ok()).expect("node count");
    assert_eq!(nodes, GENERATION_1_SIGNATURE, "generation 1 changed: {stdout}");
    assert!(stderr.contains("search generation 1"), "{stderr}");
}

#[test]
fn newest_generation_is_the_default_and_differs() {
    let (code, stdout, stderr) = bench(&["8"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains(&format!("search generation {}", Generation::LATEST.number())), "{stderr}");
    let (_, old, _) = bench(&["8", "--generation", "1"]);
    assert_ne!(stdout.split_whitespace().next(), old.split_whitespace().next(), "generations search alike");
}

/// The default search is the newest one: a caller that says nothing gets no old search.
#[test]
fn default_limits_run_the_newest_search() {
    assert_eq!(sparring::search::Limits::default().generation, Generation::LATEST);
    assert_eq!(Generation::default(), Generation::LATEST);
}

/// Generations 2-5 are retired: only 1 (the time model's look) and the newest exist.
#[test]
fn retired_generations_are_refused() {
    assert_eq!(Generation::ALL.map(Generation::number), [1, Generation::LATEST.number()]);
    for g in 2..=5 {
        assert_eq!(Generation::from_number(g), None, "{g}");
        let (code, _, stderr) = bench(&["2", "--generation", &g.to_string()]);
        assert_ne!(code, 0, "bench --generation {g} ran");
        assert!(stderr.contains("retired") || stderr.contains("invalid value"), "{stderr}");
    }
}

#[test]
fn bad_generation_is_refused_clearly() {
    for args in [&["--generation", "0"][..], &["--generation", "99"], &["--generation"], &["--generation", "x"]] {
        let (code, stdout, stderr) = bench(args);
        assert_eq!(code, 2, "{args:?}: {stdout}");
        assert!(stderr.contains("'--generation <GENERATION>'") && stderr.contains("--help"), "{stderr}");
    }
}

/// The built-in ladder records the bench signature of the search it was fitted on (`search_bench`,
/// from v10 on); the search still gives it (a search change is a refit: a new ladder version with the new signature).
#[test]
fn the_ladder_records_the_bench_signature_of_its_search() {
    let ladder = Ladder::builtin();
    let generation = ladder.at(1500).generation;
    // Ladders before v10 were written before the field: theirs is generation 1's signature.
    let recorded = ladder.search_bench.unwrap_or_else(|| {
        assert_eq!(generation, Generation::V1, "a ladder on another generation must record search_bench");
        GENERATION_1_SIGNATURE
    });
    let (code, stdout, stderr) = bench(&["--generation", &generation.number().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let nodes: u64 = stdout.split_whitespace().next().and_then(|n| n.parse().ok()).expect("node count");
    assert_eq!(nodes, recorded, "the ladder was fitted on generation {} at {recorded} nodes", generation.number());
}

#[test]
fn calibrated_settings_run_their_generations() {
    let ladder = Ladder::builtin();
    // The ladder runs the newest search since v10; the frozen profiles still run generation 1.
    assert_eq!(ladder.search_generation, Some(Generation::LATEST.number()));
    for elo in [800, 1100, 1500, 1900, 2100, 2300, 2400] {
        assert_eq!(ladder.at(elo).generation, Generation::LATEST, "UCI_Elo {elo}");
        assert_eq!(Player::level(elo).generation(), Generation::LATEST);
    }
    // reduced (v2) and club (v4) run the newest search since they record its bench signature.
    for name in ["reduced", "club"] {
        let p = Profile::builtin(name).unwrap();
        assert!(p.search.bench.is_some(), "{name} records no bench signature");
        assert_eq!(p.generation(), Generation::LATEST, "{name}");
    }
}

/// Every built-in budgeted profile records the bench signature of the search it was calibrated
/// on, and the search still gives it: a search change is a recalibration (new versions).
#[test]
fn budgeted_profiles_record_the_bench_signature_of_their_search() {
    let (code, stdout, stderr) = bench(&[]);
    assert_eq!(code, 0, "{stderr}");
    let nodes: u64 = stdout.split_whitespace().next().and_then(|n| n.parse().ok()).expect("node count");
    for name in Profile::names() {
        let p = Profile::builtin(name).unwrap();
        if p.search.nodes.is_none() && p.search.depth.is_none() {
            continue;
        }
        assert_eq!(p.search.bench, Some(nodes), "{name} was calibrated on another search than bench's {nodes}");
    }
    let head = "name = \"t\"\nversion = 1\ndescription = \"d\"\nkind = \"search\"\n";
    let both = format!("{head}[search]\nnodes = 10\ngeneration = 6\nbench = 5\n");
    assert!(Profile::parse(&both).unwrap_err().to_string().contains("exclude"), "{both}");
    assert!(Profile::parse(&format!("{head}[search]\nnodes = 10\nbench = 0\n")).is_err());
    let p = Profile::parse(&format!("{head}[search]\nnodes = 10\nbench = 7\n")).unwrap();
    assert_eq!(p.generation(), Generation::LATEST);
}

#[test]
fn files_name_only_known_generations() {
    let head = "name = \"t\"\nversion = 1\ndescription = \"d\"\nkind = \"search\"\n";
    let p = Profile::parse(&format!("{head}[search]\nnodes = 10\ngeneration = 6\n")).unwrap();
    assert_eq!(p.generation(), Generation::V6);
    for g in [0, 2, 3, 4, 5, Generation::LATEST.number() + 1, 17] {
        let text = format!("{head}[search]\nnodes = 10\ngeneration = {g}\n");
        assert!(Profile::parse(&text).is_err(), "accepted:\n{text}");
    }
    let ladder = "name = \"l\"\nversion = 1\ndescription = \"d\"\ntablebases_from_elo = 2000\n\
                  [[point]]\nelo = 1000\nnodes = 100\nplateau_cp = 0\nslip_p = 0.1\nslip_min_cp = 50\nslip_max_cp = 300\n";
    assert_eq!(Ladder::parse(ladder).unwrap().at(1000).generation, Generation::V1);
    let v6 = ladder.replace("tablebases_from_elo = 2000\n", "tablebases_from_elo = 2000\nsearch_generation = 6\n");
    assert_eq!(Ladder::parse(&v6).unwrap().at(1000).generation, Generation::V6);
    let retired = ladder.replace("tablebases_from_elo = 2000\n", "tablebases_from_elo = 2000\nsearch_generation = 3\n");
    assert!(Ladder::parse(&retired).unwrap_err().to_string().contains("retired"));
    let bad = ladder.replace("tablebases_from_elo = 2000\n", "tablebases_from_elo = 2000\nsearch_generation = 9\n");
    assert!(Ladder::parse(&bad).is_err());
}

#[test]
fn bench_help_exits_0_and_names_the_options() {
    let (code, stdout, _) = bench(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Usage: sparring bench") && stdout.contains("--generation"), "{stdout}");
}

//! One search (issue 23 §5): every setting runs the same search, and each file fitted on it
//! records it, so a search change is visibly a refit and a file fitted on a retired search is
//! refused instead of silently playing another strength.

use sparring::profile::{Ladder, Profile};
use sparring::search::SEARCH_GENERATION;

fn bench(args: &[&str]) -> (i32, String, String) {
    let out = crate::common::command(env!("CARGO_BIN_EXE_sparring"))
        .arg("bench")
        .args(args)
        .output()
        .expect("run sparring bench");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn bench_nodes() -> u64 {
    let (code, stdout, stderr) = bench(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains(&format!("search generation {SEARCH_GENERATION}")), "{stderr}");
    stdout.split_whitespace().next().and_then(|n| n.parse().ok()).expect("node count")
}

/// The built-in ladder records the bench signature of the search it was fitted on; the search
/// still gives it (a search change is a refit: a new ladder version with the new signature).
#[test]
fn the_ladder_records_the_bench_signature_of_its_search() {
    let ladder = Ladder::builtin();
    assert_eq!(ladder.search_generation, Some(SEARCH_GENERATION));
    let nodes = bench_nodes();
    assert_eq!(ladder.search_bench, Some(nodes), "the ladder was fitted on another search than bench's {nodes}");
}

/// Every built-in budgeted profile records the bench signature of the search it was calibrated
/// on, and the search still gives it: a search change is a recalibration (new versions).
#[test]
fn budgeted_profiles_record_the_bench_signature_of_their_search() {
    let nodes = bench_nodes();
    for name in Profile::names() {
        let p = Profile::builtin(name).unwrap();
        if p.search.nodes.is_none() && p.search.depth.is_none() {
            continue;
        }
        assert_eq!(p.search.bench, Some(nodes), "{name} was calibrated on another search than bench's {nodes}");
    }
}

const PROFILE_HEAD: &str = "name = \"t\"\nversion = 1\ndescription = \"d\"\nkind = \"search\"\n";

#[test]
fn a_profile_names_the_one_search_or_is_refused() {
    let parse = |search: &str| Profile::parse(&format!("{PROFILE_HEAD}[search]\n{search}"));
    // Its bench signature, its generation number, or both.
    for ok in ["nodes = 10\nbench = 7\n", "nodes = 10\ngeneration = 6\n", "depth = 3\ngeneration = 6\nbench = 7\n"] {
        assert!(parse(ok).is_ok(), "refused:\n{ok}: {:?}", parse(ok).err());
    }
    // No budget: full strength, nothing to record.
    assert!(Profile::parse(PROFILE_HEAD).is_ok());
    // A budget recorded on nothing was calibrated on generation 1; retired and unknown numbers.
    for bad in ["nodes = 10\n", "depth = 4\n", "nodes = 10\ngeneration = 1\n", "nodes = 10\ngeneration = 3\n"] {
        let e = parse(bad).expect_err(bad).to_string();
        assert!(e.contains("retired") && e.contains("recalibrate"), "{bad}: {e}");
    }
    for bad in ["nodes = 10\ngeneration = 7\n", "nodes = 10\nbench = 0\n", "nodes = 10\ngeneration = 0\n"] {
        assert!(parse(bad).is_err(), "accepted:\n{bad}");
    }
}

#[test]
fn a_ladder_names_the_one_search_or_is_refused() {
    let ladder = "name = \"l\"\nversion = 1\ndescription = \"d\"\ntablebases_from_elo = 2000\n\
                  [[point]]\nelo = 1000\nnodes = 100\nplateau_cp = 0\nslip_p = 0.1\nslip_min_cp = 50\nslip_max_cp = 300\n";
    let with = |g: u32| {
        ladder
            .replace("tablebases_from_elo = 2000\n", &format!("tablebases_from_elo = 2000\nsearch_generation = {g}\n"))
    };
    assert!(Ladder::parse(&with(SEARCH_GENERATION)).is_ok());
    // Written before the record (generation 1), or naming another search.
    for text in [ladder.to_string(), with(1), with(3), with(9)] {
        let e = Ladder::parse(&text).expect_err(&text).to_string();
        assert!(e.contains("retired") && e.contains("search_generation"), "{e}");
    }
}

#[test]
fn bench_has_no_generations_to_choose() {
    let (code, stdout, _) = bench(&["--help"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("Usage: sparring bench") && !stdout.contains("--generation"), "{stdout}");
    let (code, _, stderr) = bench(&["--generation", "1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--generation"), "{stderr}");
}

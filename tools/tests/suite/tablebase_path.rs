//! `SyzygyPath` handling: bad folders are reported and skipped, good ones still work.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use sparring::tablebase::{Tablebases, Wdl};
use std::path::{Path, PathBuf};

const GOOD: &str = concat!(env!("SPARRING_REPO"), "/../shared/data/syzygy/3-4");

fn data_present() -> bool {
    if Path::new(GOOD).is_dir() {
        true
    } else {
        println!("skipped: ../shared/data not found");
        false
    }
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sparring-tb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn krk() -> Chess {
    "4k3/8/8/8/8/8/8/4K2R w - - 0 1".parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn good_folder_loads() {
    if !data_present() {
        return;
    }
    let mut tb = Tablebases::new();
    let report = tb.set_path(GOOD).unwrap();
    assert!(report.messages.is_empty(), "{:?}", report.messages);
    assert_eq!(report.wdl_tables, report.dtz_tables);
    assert_eq!(report.tables, report.wdl_tables * 2);
    assert!(report.wdl_tables >= 30, "{report:?}");
    assert_eq!(report.max_pieces, 4);
    assert_eq!(report.directories, vec![GOOD.to_string()]);
    assert!(report.summary().ends_with("up to 4 pieces"), "{}", report.summary());
    assert_eq!(tb.probe_wdl(&krk()), Some(Wdl::Win));
    // The same folder twice is no problem and does not count twice.
    let twice = tb.set_path(&format!("{GOOD}:{GOOD}:")).unwrap();
    assert_eq!(twice.tables, report.tables);
}

#[test]
fn missing_folder_is_reported_and_ignored() {
    let missing = scratch("missing").join("nope");
    let mut tb = Tablebases::new();
    let err = tb.set_path(missing.to_str().unwrap()).unwrap_err();
    let _ = std::fs::remove_dir_all(missing.parent().unwrap());
    assert!(err.contains("does not exist"), "{err}");
    assert_eq!(tb.max_pieces(), 0);
    assert_eq!(tb.probe_wdl(&krk()), None);
    assert_eq!(tb.best_root_move(&krk()), None);
}

#[test]
fn file_instead_of_folder_is_reported() {
    let dir = scratch("file");
    let file = dir.join("KQvK.rtbw");
    std::fs::write(&file, b"not a folder").unwrap();
    let mut tb = Tablebases::new();
    let err = tb.set_path(file.to_str().unwrap()).unwrap_err();
    assert!(err.contains("is not a folder"), "{err}");
    assert_eq!(tb.max_pieces(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn empty_folder_and_folder_without_tables_are_reported() {
    let empty = scratch("empty");
    let mut tb = Tablebases::new();
    let err = tb.set_path(empty.to_str().unwrap()).unwrap_err();
    assert!(err.contains("contains no Syzygy tables"), "{err}");

    let other = scratch("other");
    std::fs::write(other.join("README.txt"), b"hello").unwrap();
    // Right name, corrupt size: skipped with the file named in the message.
    std::fs::write(other.join("KQvK.rtbw"), b"short").unwrap();
    let err = tb.set_path(other.to_str().unwrap()).unwrap_err();
    assert!(err.contains("KQvK.rtbw"), "{err}");
    assert_eq!(tb.max_pieces(), 0);
    let _ = std::fs::remove_dir_all(empty);
    let _ = std::fs::remove_dir_all(other);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn mixed_spec_keeps_the_good_part() {
    if !data_present() {
        return;
    }
    let bad = scratch("mixed").join("absent");
    let empty = scratch("mixed-empty");
    let spec = format!("{}::{}:{GOOD}", bad.display(), empty.display());
    let mut tb = Tablebases::new();
    let report = tb.set_path(&spec).unwrap();
    assert_eq!(report.messages.len(), 2, "{:?}", report.messages);
    assert!(report.messages[0].contains("does not exist"));
    assert!(report.messages[1].contains("contains no Syzygy tables"));
    assert_eq!(report.directories, vec![GOOD.to_string()]);
    assert_eq!(report.max_pieces, 4);
    assert_eq!(tb.directories(), [GOOD.to_string()]);
    assert_eq!(tb.probe_wdl(&krk()), Some(Wdl::Win));
    assert!(tb.best_root_move(&krk()).is_some());
    let _ = std::fs::remove_dir_all(bad.parent().unwrap());
    let _ = std::fs::remove_dir_all(empty);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn empty_spec_clears_the_tables() {
    if !data_present() {
        return;
    }
    let mut tb = Tablebases::new();
    tb.set_path(GOOD).unwrap();
    assert!(tb.is_loaded());
    for spec in ["<empty>", "", "  ", ":"] {
        tb.set_path(GOOD).unwrap();
        let report = tb.set_path(spec).unwrap();
        assert_eq!(report.tables, 0);
        assert!(report.messages.is_empty());
        assert!(!tb.is_loaded());
        assert_eq!(tb.probe_wdl(&krk()), None);
    }
}

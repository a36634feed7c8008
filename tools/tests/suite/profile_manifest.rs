//! The frozen profile and ladder files match their manifest entries (SPEC 3 "Frozen").
//!
//! Print the manifest entries for the current files (after bumping a version) with
//! `cargo test --release --test profile_manifest -- --ignored --nocapture`.

use sparring::profile::manifest::{builtin_files, entry_for, name_and_version};
use sparring::profile::{Ladder, Manifest, Profile};
use std::path::PathBuf;

fn profiles_dir() -> PathBuf {
    PathBuf::from(env!("SPARRING_REPO")).join("profiles")
}

/// Every `*.toml` in `profiles/` except the manifest itself, read from disk.
fn frozen_files_on_disk() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(profiles_dir())
        .expect("profiles/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .filter(|p| p.file_name().is_some_and(|n| n != "manifest.toml"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

fn disk_manifest() -> Manifest {
    let text = std::fs::read_to_string(profiles_dir().join("manifest.toml")).unwrap();
    Manifest::parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_frozen_file_matches_its_manifest_entry() {
    let m = disk_manifest();
    let files = frozen_files_on_disk();
    assert!(files.len() >= 5, "expected 4 profiles + ladder, got {files:?}");
    let mut errors = Vec::new();
    for (file, text) in &files {
        if let Err(e) = m.check_file(file, text) {
            errors.push(e);
        }
    }
    assert!(errors.is_empty(), "\n{}", errors.join("\n"));
}

#[test]
fn embedded_files_are_the_files_on_disk_and_verify() {
    let disk = frozen_files_on_disk();
    for (file, text) in builtin_files() {
        let on_disk = disk.iter().find(|(f, _)| *f == file).map(|(_, t)| t);
        assert_eq!(on_disk.map(String::as_str), Some(text), "{file}");
    }
    Manifest::verify_builtin().unwrap();
    assert_eq!(Manifest::builtin(), disk_manifest());
}

#[test]
fn profile_and_ladder_hashes_are_the_manifest_hashes() {
    let m = Manifest::builtin();
    for name in Profile::names() {
        let p = Profile::builtin(name).unwrap();
        let e = m.lookup(&p.name, p.version).unwrap();
        assert_eq!(e.blake3, p.hash_hex());
    }
    let l = Ladder::builtin();
    assert_eq!(m.lookup("ladder", l.version).unwrap().blake3, l.hash_hex());
}

#[test]
fn an_edited_file_without_a_new_version_fails() {
    let m = Manifest::builtin();
    let text = Profile::builtin_text("club").unwrap();
    m.check_file("club.toml", text).unwrap();
    // Any byte counts: append a setting-neutral comment line.
    let edited = format!("{text}# edited\n");
    assert_ne!(edited, text);
    let err = m.check_file("club.toml", &edited).unwrap_err();
    assert!(err.contains("without a new version"), "{err}");
    // A bumped version without a manifest entry fails too, and says what to add.
    let v = Profile::builtin("club").unwrap().version;
    let bumped = edited.replace(&format!("version = {v}"), &format!("version = {}", v + 1));
    assert_ne!(bumped, edited);
    let err = m.check_file("club.toml", &bumped).unwrap_err();
    assert!(err.contains("no manifest entry") && err.contains(&format!("version = {}", v + 1)), "{err}");
}

#[test]
fn a_version_listed_twice_with_different_hashes_fails() {
    let one = "[[entry]]\nfile = \"a.toml\"\nname = \"a\"\nversion = 1\nblake3 = \"";
    let h1 = "0".repeat(64);
    let h2 = "1".repeat(64);
    let same = format!("{one}{h1}\"\n{one}{h1}\"\n");
    Manifest::parse(&same).unwrap();
    let diff = format!("{one}{h1}\"\n{one}{h2}\"\n");
    let err = Manifest::parse(&diff).unwrap_err();
    assert!(err.contains("appears twice"), "{err}");
    // The real manifest has no such pair either.
    disk_manifest().check_consistent().unwrap();
}

#[test]
#[ignore = "prints the manifest entries for the current files"]
fn print_manifest_entries() {
    for (file, text) in frozen_files_on_disk() {
        let (name, version) = name_and_version(&text).unwrap();
        println!("# {name} v{version}");
        println!("{}", entry_for(&file, &text).unwrap());
    }
}

//! The manifest that freezes the profile and ladder files (`profiles/manifest.toml`).
//!
//! Every frozen file carries `name` and `version`; the manifest holds one entry per (name, version)
//! ever released, with the blake3 hash of that version's exact bytes:
//!
//! ```toml
//! [[entry]]
//! file = "club.toml"
//! name = "club"
//! version = 1
//! blake3 = "<64 hex digits>"
//! ```
//!
//! A file whose bytes do not hash to the entry of its current version was edited without a new
//! version: that is a protocol change and `tests/profile_manifest.rs` fails. Old entries stay (they
//! record what earlier versions were). To print the entries for the current files run
//! `cargo test --release --test profile_manifest -- --ignored --nocapture`.

use serde::Deserialize;

use super::ladder::Ladder;
use super::profile::{BUILTIN, file_hash_hex};

const MANIFEST: &str = include_str!("../../profiles/manifest.toml");

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestEntry {
    pub file: String,
    pub name: String,
    pub version: u32,
    pub blake3: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    #[serde(rename = "entry", default)]
    pub entries: Vec<ManifestEntry>,
}

/// `name` and `version` of any frozen file (profile or ladder), read leniently.
pub fn name_and_version(text: &str) -> Result<(String, u32), String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| e.to_string())?;
    let name = table.get("name").and_then(|v| v.as_str()).ok_or("no string `name`")?.to_string();
    let version = table
        .get("version")
        .and_then(|v| v.as_integer())
        .and_then(|v| u32::try_from(v).ok())
        .ok_or("no integer `version`")?;
    Ok((name, version))
}

/// The manifest block for a file's current contents (what to paste after bumping a version).
pub fn entry_for(file: &str, text: &str) -> Result<String, String> {
    let (name, version) = name_and_version(text)?;
    Ok(format!(
        "[[entry]]\nfile = \"{file}\"\nname = \"{name}\"\nversion = {version}\nblake3 = \"{}\"\n",
        file_hash_hex(text.as_bytes())
    ))
}

/// The frozen files embedded in the binary: (file name, text).
pub fn builtin_files() -> Vec<(String, &'static str)> {
    let mut v: Vec<(String, &'static str)> = BUILTIN.iter().map(|(n, t)| (format!("{n}.toml"), *t)).collect();
    v.push(("ladder.toml".to_string(), Ladder::builtin_text()));
    v
}

impl Manifest {
    pub fn parse(text: &str) -> Result<Manifest, String> {
        let m: Manifest = toml::from_str(text).map_err(|e| format!("manifest: {e}"))?;
        m.check_consistent()?;
        Ok(m)
    }

    /// The manifest embedded in the binary.
    pub fn builtin() -> Manifest {
        Manifest::parse(MANIFEST).unwrap_or_else(|e| panic!("built-in manifest is invalid: {e}"))
    }

    pub fn lookup(&self, name: &str, version: u32) -> Option<&ManifestEntry> {
        self.entries.iter().find(|e| e.name == name && e.version == version)
    }

    /// No (name, version) twice with different hashes or files, and every hash is 64 hex digits.
    pub fn check_consistent(&self) -> Result<(), String> {
        for (i, a) in self.entries.iter().enumerate() {
            if a.blake3.len() != 64 || !a.blake3.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(format!("manifest: {} v{}: blake3 must be 64 hex digits", a.name, a.version));
            }
            for b in &self.entries[i + 1..] {
                if a.name == b.name
                    && a.version == b.version
                    && (!a.blake3.eq_ignore_ascii_case(&b.blake3) || a.file != b.file)
                {
                    return Err(format!("manifest: {} v{} appears twice with different contents", a.name, a.version));
                }
            }
        }
        Ok(())
    }

    /// Checks one frozen file against the entry for its current version.
    pub fn check_file(&self, file: &str, text: &str) -> Result<(), String> {
        let (name, version) = name_and_version(text).map_err(|e| format!("{file}: {e}"))?;
        let hash = file_hash_hex(text.as_bytes());
        let paste = entry_for(file, text).unwrap_or_default();
        match self.lookup(&name, version) {
            None => Err(format!("{file}: {name} v{version} has no manifest entry; add:\n{paste}")),
            Some(e) if e.file != file => {
                Err(format!("{file}: manifest entry for {name} v{version} names file {}", e.file))
            }
            Some(e) if !e.blake3.eq_ignore_ascii_case(&hash) => Err(format!(
                "{file}: {name} v{version} was changed without a new version (blake3 {hash}, \
                 manifest {}); bump `version` and add:\n{paste}",
                e.blake3
            )),
            Some(_) => Ok(()),
        }
    }

    /// Checks every embedded frozen file.
    pub fn verify_builtin() -> Result<(), String> {
        let m = Manifest::builtin();
        for (file, text) in builtin_files() {
            m.check_file(&file, text)?;
        }
        for (file, bytes) in super::human_model::builtin_files() {
            super::human_model::check_manifest(&m, file, bytes)?;
        }
        Ok(())
    }
}

//! The frozen human move model file (`profiles/human/`), embedded in the binary and checked
//! against the manifest like the profile and ladder files; the model itself is
//! [`crate::human::v6`].
//!
//! A ladder file names the model version its points were fitted with (`human_model`), and so does
//! a game model of the strength estimator; every version something shipped names stays embedded.
//! A point's `beta` weights the model's log-probabilities in its choice. Another model file can be loaded
//! for experiments ([`load`], the `Human Model File` UCI option); a file that cannot be read or
//! is not a valid model is refused with the reason, and the built-in model stays in use.

use super::manifest::Manifest;
use crate::human::v6::HumanModel;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The name in every shipped file's header and in the manifest.
pub const NAME: &str = "human-model";

/// The shipped models, oldest first: (version, file relative to `profiles/`, bytes). Each stays
/// embedded while a frozen ladder or a shipped estimator model names its version.
const SHIPPED: [(u32, &str, &[u8]); 3] = [
    (4, "human/model-v4.bin", include_bytes!("../../profiles/human/model-v4.bin")),
    (5, "human/model-v5.bin", include_bytes!("../../profiles/human/model-v5.bin")),
    (6, "human/model-v6.bin", include_bytes!("../../profiles/human/model-v6.bin")),
];

/// The newest shipped model's version.
pub const LATEST: u32 = SHIPPED[SHIPPED.len() - 1].0;

/// Versions of the shipped models, oldest first.
pub fn versions() -> Vec<u32> {
    SHIPPED.iter().map(|s| s.0).collect()
}

/// The embedded file of a shipped version: (file, bytes).
pub fn builtin_file(version: u32) -> Option<(&'static str, &'static [u8])> {
    SHIPPED.iter().find(|s| s.0 == version).map(|s| (s.1, s.2))
}

/// The embedded files, oldest first: (file, bytes).
pub fn builtin_files() -> impl Iterator<Item = (&'static str, &'static [u8])> {
    SHIPPED.iter().map(|s| (s.1, s.2))
}

/// Checks a model file's bytes against the manifest entry for its (name, version).
pub fn check_manifest(manifest: &Manifest, file: &str, bytes: &[u8]) -> Result<(), String> {
    let model = HumanModel::from_bytes(bytes).map_err(|e| format!("{file}: {e}"))?;
    let (name, version) = (&model.header.name, model.header.version);
    let hash = model.hash_hex();
    match manifest.lookup(name, version) {
        None => Err(format!(
            "{file}: {name} v{version} has no manifest entry; add:\n[[entry]]\nfile = \"{file}\"\nname = \"{name}\"\nversion = {version}\nblake3 = \"{hash}\"\n"
        )),
        Some(e) if e.file != file => Err(format!("{file}: manifest entry for {name} v{version} names file {}", e.file)),
        Some(e) if !e.blake3.eq_ignore_ascii_case(hash) => Err(format!(
            "{file}: {name} v{version} was changed without a new version (blake3 {hash}, manifest {})",
            e.blake3
        )),
        Some(_) => Ok(()),
    }
}

/// A shipped model by version, read and checked once (name, manifest hash, version).
pub fn builtin(version: u32) -> Result<Arc<HumanModel>, String> {
    static MODELS: OnceLock<Vec<Result<Arc<HumanModel>, String>>> = OnceLock::new();
    let Some(at) = SHIPPED.iter().position(|s| s.0 == version) else {
        let known: Vec<String> = versions().iter().map(u32::to_string).collect();
        return Err(format!("human model version {version} is not shipped (shipped: {})", known.join(", ")));
    };
    MODELS.get_or_init(|| SHIPPED.iter().map(|&(v, file, bytes)| read_shipped(v, file, bytes)).collect())[at].clone()
}

fn read_shipped(version: u32, file: &str, bytes: &[u8]) -> Result<Arc<HumanModel>, String> {
    check_manifest(&Manifest::builtin(), file, bytes)?;
    let m = HumanModel::from_bytes(bytes).map_err(|e| format!("{file}: {e}"))?;
    if m.header.name != NAME {
        return Err(format!("{file}: model is named '{}', expected '{NAME}'", m.header.name));
    }
    if m.header.version != version {
        return Err(format!("{file}: holds version {}, shipped as {version}", m.header.version));
    }
    Ok(Arc::new(m))
}

/// Whether the game with this index (0-based, in the training file) is a fit-part game among the
/// first `share` percent (`model train --fit-share`): the fit part is i % 10 in 0-6 (the
/// split of every model trained here), the share keeps the fit games with (i / 10) % 100 < share,
/// so every share is spread over the whole file and a smaller share's games are in a larger one's.
pub fn in_fit_share(index: usize, share: u32) -> bool {
    index % 10 <= 6 && ((index / 10) % 100) < share as usize
}

/// A model file from disk (for experiments; not checked against the manifest).
pub fn load(path: &Path) -> Result<Arc<HumanModel>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("human model file {}: {e}", path.display()))?;
    HumanModel::from_bytes(&bytes).map(Arc::new).map_err(|e| format!("human model file {}: {e}", path.display()))
}

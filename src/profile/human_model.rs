//! The frozen human move model file (`profiles/human/`), embedded in the binary and checked
//! against the manifest like the profile and ladder files; the model itself is
//! [`crate::policy::human`].
//!
//! A ladder file names the model version its points were fitted with (`human_model`); a point's
//! `beta` weights the model's log-probabilities in its choice. Another model file can be loaded
//! for experiments ([`load`], the `Human Model File` UCI option); a file that cannot be read or
//! is not a valid model is refused with the reason, and the built-in model stays in use.

use super::manifest::Manifest;
use crate::policy::human::HumanModel;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// The shipped model's file, relative to `profiles/`.
pub const FILE: &str = "human/model-v4.bin";
/// The name in the file's header and in the manifest.
pub const NAME: &str = "human-model";

const BYTES: &[u8] = include_bytes!("../../profiles/human/model-v4.bin");

/// The embedded file's bytes.
pub fn builtin_bytes() -> &'static [u8] {
    BYTES
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

/// The built-in model, read and checked once (name, manifest hash).
pub fn builtin() -> Result<Arc<HumanModel>, String> {
    static MODEL: OnceLock<Result<Arc<HumanModel>, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            check_manifest(&Manifest::builtin(), FILE, BYTES)?;
            let m = HumanModel::from_bytes(BYTES).map_err(|e| format!("{FILE}: {e}"))?;
            if m.header.name != NAME {
                return Err(format!("{FILE}: model is named '{}', expected '{NAME}'", m.header.name));
            }
            Ok(Arc::new(m))
        })
        .clone()
}

/// A model file from disk (for experiments; not checked against the manifest).
pub fn load(path: &Path) -> Result<Arc<HumanModel>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("human model file {}: {e}", path.display()))?;
    HumanModel::from_bytes(&bytes).map(Arc::new).map_err(|e| format!("human model file {}: {e}", path.display()))
}

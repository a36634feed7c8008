//! Strength profiles, the UCI_Elo ladder and avatars (SPEC 3, 5, 6). The seeding protocol (SPEC 4)
//! is `crate::seed`.
//!
//! - [`profile`]: the frozen named profiles `strong`, `reduced`, `club`, `random` (SPEC 3).
//! - [`ladder`]: the `UCI_Elo` ladder with its four schools (SPEC 5).
//! - [`avatar`]: `.avt` style files (SPEC 6).
//! - [`human_model`]: the frozen human move model file.
//! - [`manifest`]: the blake3 manifest that freezes the profile and ladder files.
//!
//! Move choice itself lives in `crate::policy`.

pub mod avatar;
pub mod human_model;
pub mod ladder;
pub mod maia3_choice;
pub mod manifest;
#[allow(clippy::module_inception)]
pub mod profile;

pub use avatar::{Avatar, AvatarError, AvatarProblem};
pub use ladder::{Ladder, LevelSettings, School};
pub use manifest::{Manifest, ManifestEntry};
pub use profile::{Profile, ProfileError, ProfileKind};

//! Strength profiles, the UCI_Elo ladder, avatars and seeding (SPEC 3-6).
//!
//! - [`seed`]: the decision-seeding protocol (SPEC 4).
//! - [`profile`]: the frozen named profiles `strong`, `reduced`, `club`, `random` (SPEC 3).
//! - [`ladder`]: the `UCI_Elo` ladder with its four schools (SPEC 5).
//! - [`avatar`]: `.avt` style files (SPEC 6).
//! - [`manifest`]: the blake3 manifest that freezes the profile and ladder files.
//!
//! Move choice itself lives in `crate::policy`.

pub mod avatar;
pub mod ladder;
pub mod manifest;
#[allow(clippy::module_inception)]
pub mod profile;
pub mod seed;

pub use avatar::{Avatar, AvatarError, AvatarProblem};
pub use ladder::{Ladder, LevelSettings, School};
pub use manifest::{Manifest, ManifestEntry};
pub use profile::{Profile, ProfileError, ProfileKind};

//! Named, versioned, frozen strength profiles (SPEC 3), read from the TOML files in `profiles/`.
//!
//! File format (every table optional except the top-level keys; unknown keys are errors):
//!
//! ```toml
//! name = "club"            # must equal the file stem
//! version = 1              # integer ≥ 1; bump it (and add a manifest entry) on any change
//! description = "..."
//! kind = "search"          # "search" or "random"
//!
//! [search]                 # absent values: use the limits of `go`
//! nodes = 20000            # node budget per move (> 0)
//! depth = 12               # depth cap (≥ 1)
//! bench = 1621899          # `sparring bench` signature of the search it was calibrated on
//! generation = 6           # or: the search's number (6, the only one); a budgeted profile names one of the two
//!
//! [choice]                 # see policy::ChoiceSettings; defaults = exact-best choice
//! plateau_cp = 10
//! lambda = 1.5             # optional Boltzmann λ per pawn
//! slip_p = 0.10
//! slip_min_cp = 50
//! slip_max_cp = 250
//!
//! [knowledge]
//! terms = "all"            # "all", "none", or a list of term names (case-insensitive)
//! tablebases = true
//! [knowledge.weights]      # optional, percent 0-200, missing = 100
//! Mobility = { mg = 120, eg = 100 }
//! ```

use crate::eval::{EvalConfig, Term};
use crate::policy::ChoiceSettings;
use crate::search::SEARCH_GENERATION;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

const STRONG: &str = include_str!("../../profiles/strong.toml");
const REDUCED: &str = include_str!("../../profiles/reduced.toml");
const CLUB: &str = include_str!("../../profiles/club.toml");
const RANDOM: &str = include_str!("../../profiles/random.toml");

/// The built-in profiles: (name, embedded file text), strongest first.
pub const BUILTIN: [(&str, &str); 4] = [("strong", STRONG), ("reduced", REDUCED), ("club", CLUB), ("random", RANDOM)];

/// Upper bound on a per-term weight in a profile, in percent (as for avatars).
pub const MAX_WEIGHT: u16 = 200;

/// What the profile does to pick a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProfileKind {
    /// Search (possibly budgeted) and choose with [`ChoiceSettings`].
    Search,
    /// No search: a uniform legal move (floor/canary, never part of the ladder).
    Random,
}

/// `[search]`: how far the profile looks. `None` = whatever `go` asks for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchSettings {
    pub nodes: Option<u64>,
    pub depth: Option<i32>,
    /// The search generation a budgeted profile was calibrated on: [`SEARCH_GENERATION`], the
    /// only one. A budgeted file that names neither this nor [`SearchSettings::bench`] was
    /// calibrated on generation 1 (retired) and is refused.
    pub generation: Option<u32>,
    /// The `sparring bench` node count of the search the profile was calibrated on (a test checks
    /// that `bench` still gives it, so a search change is visibly a recalibration).
    pub bench: Option<u64>,
}

/// `terms = "all" | "none" | [names]`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum TermSet {
    Keyword(String),
    List(Vec<String>),
}

impl Default for TermSet {
    fn default() -> Self {
        TermSet::Keyword("all".to_string())
    }
}

/// A per-term weight override in percent; a missing phase stays 100.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TermWeight {
    pub mg: Option<u16>,
    pub eg: Option<u16>,
}

/// `[knowledge]`: which term groups exist, their weights, tablebases.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Knowledge {
    pub terms: TermSet,
    pub weights: BTreeMap<String, TermWeight>,
    pub tablebases: bool,
}

impl Default for Knowledge {
    fn default() -> Self {
        Knowledge { terms: TermSet::default(), weights: BTreeMap::new(), tablebases: true }
    }
}

/// A parsed, validated profile.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub name: String,
    pub version: u32,
    pub description: String,
    pub kind: ProfileKind,
    #[serde(default)]
    pub search: SearchSettings,
    #[serde(default)]
    pub choice: ChoiceSettings,
    #[serde(default)]
    pub knowledge: Knowledge,
    /// blake3 (hex) of the exact text this profile was parsed from.
    #[serde(skip)]
    hash: String,
}

/// Why a profile file was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileError(pub String);

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ProfileError {}

/// blake3 of a file's bytes, lowercase hex (the manifest's hash).
pub fn file_hash_hex(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

impl Profile {
    /// Parses and validates a profile file's text.
    pub fn parse(text: &str) -> Result<Profile, ProfileError> {
        let mut p: Profile = toml::from_str(text).map_err(|e| ProfileError(format!("profile: {e}")))?;
        p.hash = file_hash_hex(text.as_bytes());
        p.validate().map_err(|e| ProfileError(format!("profile '{}': {e}", p.name)))?;
        Ok(p)
    }

    /// Reads and parses a profile file from disk (for profiles that are not built in).
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Profile, ProfileError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| ProfileError(format!("{}: {e}", path.display())))?;
        Profile::parse(&text).map_err(|e| ProfileError(format!("{}: {e}", path.display())))
    }

    /// A built-in profile by name (case-insensitive), parsed from the file embedded in the binary.
    pub fn builtin(name: &str) -> Option<Profile> {
        // Parsed (and hashed) once each: the UCI layer asks for one at every `go` and option.
        static PARSED: std::sync::OnceLock<Vec<Profile>> = std::sync::OnceLock::new();
        let parsed = PARSED.get_or_init(|| {
            BUILTIN
                .iter()
                .map(|(n, text)| {
                    let p = Profile::parse(text).unwrap_or_else(|e| panic!("built-in profile {n} is invalid: {e}"));
                    assert_eq!(&p.name, n, "built-in profile file name mismatch");
                    p
                })
                .collect()
        });
        BUILTIN.iter().position(|(n, _)| n.eq_ignore_ascii_case(name.trim())).map(|i| parsed[i].clone())
    }

    /// Names of the built-in profiles, strongest first.
    pub fn names() -> [&'static str; 4] {
        BUILTIN.map(|(n, _)| n)
    }

    /// The embedded text of a built-in profile.
    pub fn builtin_text(name: &str) -> Option<&'static str> {
        BUILTIN.iter().find(|(n, _)| n.eq_ignore_ascii_case(name.trim())).map(|(_, t)| *t)
    }

    /// blake3 (lowercase hex) of the file bytes the profile was parsed from.
    pub fn hash_hex(&self) -> &str {
        &self.hash
    }

    /// One line for `info string`: name, version and hash.
    pub fn describe(&self) -> String {
        format!("profile {} v{} blake3 {}", self.name, self.version, &self.hash[..self.hash.len().min(16)])
    }

    pub fn is_random(&self) -> bool {
        self.kind == ProfileKind::Random
    }

    /// True when the profile needs every root move scored (anything but exact-best choice with no
    /// slips), i.e. a MultiPV-all search.
    pub fn needs_all_root_scores(&self) -> bool {
        self.kind == ProfileKind::Search && self.choice != ChoiceSettings::best()
    }

    /// The term groups enabled by `terms` (validated, so unknown names cannot occur here).
    fn enabled_terms(&self) -> [bool; Term::COUNT] {
        match &self.knowledge.terms {
            TermSet::Keyword(k) if k.eq_ignore_ascii_case("none") => [false; Term::COUNT],
            TermSet::Keyword(_) => [true; Term::COUNT],
            TermSet::List(list) => {
                let mut on = [false; Term::COUNT];
                for name in list {
                    if let Some(t) = Term::from_name(name) {
                        on[t.index()] = true;
                    }
                }
                on
            }
        }
    }

    /// The evaluator configuration of this profile: term flags from `terms`, weights from
    /// `weights` (100 % where not given).
    pub fn eval_config(&self) -> EvalConfig {
        let mut cfg = EvalConfig { enabled: self.enabled_terms(), ..EvalConfig::default() };
        for (name, w) in &self.knowledge.weights {
            if let Some(t) = Term::from_name(name) {
                if let Some(mg) = w.mg {
                    cfg.mg_weight[t.index()] = mg;
                }
                if let Some(eg) = w.eg {
                    cfg.eg_weight[t.index()] = eg;
                }
            }
        }
        cfg
    }

    /// Checks names, versions and ranges.
    pub fn validate(&self) -> Result<(), String> {
        let ok_name = !self.name.is_empty()
            && self.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        if !ok_name {
            return Err(format!("name '{}' must be non-empty [a-z0-9_-]", self.name));
        }
        if self.version < 1 {
            return Err("version must be >= 1".into());
        }
        if let Some(n) = self.search.nodes
            && n == 0
        {
            return Err("search.nodes must be > 0".into());
        }
        if let Some(d) = self.search.depth
            && !(1..=100).contains(&d)
        {
            return Err(format!("search.depth {d} is outside 1..=100"));
        }
        if self.search.bench == Some(0) {
            return Err("search.bench must be a `sparring bench` node count (> 0)".into());
        }
        if let Some(g) = self.search.generation
            && g != SEARCH_GENERATION
        {
            return Err(retired(&format!("search.generation {g}")));
        }
        let budgeted = self.search.nodes.is_some() || self.search.depth.is_some();
        if budgeted && self.search.generation.is_none() && self.search.bench.is_none() {
            return Err(retired("a search budget without search.bench or search.generation (generation 1)"));
        }
        self.choice.validate().map_err(|e| format!("choice: {e}"))?;
        match &self.knowledge.terms {
            TermSet::Keyword(k) => {
                if !k.eq_ignore_ascii_case("all") && !k.eq_ignore_ascii_case("none") {
                    return Err(format!("knowledge.terms = \"{k}\": expected \"all\", \"none\" or a list of names"));
                }
            }
            TermSet::List(list) => {
                for name in list {
                    if Term::from_name(name).is_none() {
                        return Err(format!("knowledge.terms: unknown term '{name}'"));
                    }
                }
            }
        }
        for (name, w) in &self.knowledge.weights {
            if Term::from_name(name).is_none() {
                return Err(format!("knowledge.weights: unknown term '{name}'"));
            }
            for v in [w.mg, w.eg].into_iter().flatten() {
                if v > MAX_WEIGHT {
                    return Err(format!("knowledge.weights.{name}: {v} is outside 0..={MAX_WEIGHT}"));
                }
            }
        }
        if self.kind == ProfileKind::Random {
            if self.search != SearchSettings::default() || self.choice != ChoiceSettings::best() {
                return Err("a random profile takes no [search] or [choice] settings (keep random out of \
                     the stack)"
                    .into());
            }
            if self.knowledge.tablebases {
                return Err("a random profile cannot use tablebases".into());
            }
        }
        Ok(())
    }
}

/// The message for a file calibrated on a retired search.
pub(crate) fn retired(what: &str) -> String {
    format!(
        "{what}: calibrated on a retired search (this sparring runs search generation {SEARCH_GENERATION} \
         only); recalibrate it on this one and record its `sparring bench` signature"
    )
}

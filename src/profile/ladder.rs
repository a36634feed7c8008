//! The `UCI_Elo` ladder (SPEC 5): a frozen file of points sorted by Elo, interpolated
//! monotonically, plus the four schools that decide which term groups exist.
//!
//! File format (`profiles/ladder.toml`; unknown keys are errors):
//!
//! ```toml
//! name = "ladder"
//! version = 1
//! description = "..."
//! tablebases_from_elo = 2000   # tablebases on at and above this Elo
//! search_generation = 6        # the search the points were fitted on (6, the only one; required)
//! search_bench = 1621899       # its `sparring bench` node count (checked by a test)
//!
//! [[point]]                    # sorted by elo, strictly increasing
//! elo = 800
//! nodes = 300                  # node budget per move, > 0
//! depth = 3                    # optional depth cap
//! plateau_cp = 40
//! slip_p = 0.30
//! slip_min_cp = 80
//! slip_max_cp = 900
//! lambda = 0.8                 # optional Boltzmann λ (all points or none)
//! boltzmann_max_cp = 200       # optional: the Boltzmann choice skips moves worse than this
//! deep_p = 0.5                 # optional: probability of a deeper look …
//! deep_nodes = 20000           # … of this many nodes
//! prior = [0.9, 0.4, …]        # optional human move prior, one weight per feature
//!                              # (policy::prior::FEATURE_NAMES; needs lambda)
//! ```

use crate::eval::{EvalConfig, Term};
use crate::human::v6::HumanModel;
use crate::policy::ChoiceSettings;
use crate::policy::prior::MovePrior;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use super::profile::{ProfileError, file_hash_hex};

const LADDER: &str = include_str!("../../profiles/ladder.toml");

/// First Elo of the Intermediate level (Philidor school).
pub const PHILIDOR_FROM: i32 = 2000;
/// First Elo of the Advanced level (Romantic school).
pub const ROMANTIC_FROM: i32 = 2200;
/// First Elo of the Expert level (Modern school).
pub const MODERN_FROM: i32 = 2400;
/// The Romantic school's weight on Threats and Mobility (piece activity), percent, mg and eg.
pub const ROMANTIC_ACTIVITY_WEIGHT: u16 = 120;

/// The chess school (and level) whose understanding a ladder Elo gets (SPEC 5).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum School {
    /// ≤ 1999, Beginner: Material, the four pieces, Mobility, Space, KingSafety, Threats.
    Italian,
    /// 2000–2199, Intermediate: + PawnStructure, PassedPawns.
    Philidor,
    /// 2200–2399, Advanced: + Winnable; Threats and Mobility weighted 120 %.
    Romantic,
    /// ≥ 2400, Expert: + Imbalance, everything at 100 %.
    Modern,
}

impl School {
    pub fn for_elo(elo: i32) -> School {
        if elo >= MODERN_FROM {
            School::Modern
        } else if elo >= ROMANTIC_FROM {
            School::Romantic
        } else if elo >= PHILIDOR_FROM {
            School::Philidor
        } else {
            School::Italian
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            School::Italian => "Italian",
            School::Philidor => "Philidor",
            School::Romantic => "Romantic",
            School::Modern => "Modern",
        }
    }

    /// The level name of SPEC 5's table.
    pub const fn level(self) -> &'static str {
        match self {
            School::Italian => "Beginner",
            School::Philidor => "Intermediate",
            School::Romantic => "Advanced",
            School::Modern => "Expert",
        }
    }

    /// The term groups this school knows.
    pub fn terms(self) -> Vec<Term> {
        let mut t = vec![
            Term::Material,
            Term::Knight,
            Term::Bishop,
            Term::Rook,
            Term::Queen,
            Term::Mobility,
            Term::Space,
            Term::KingSafety,
            Term::Threats,
        ];
        if self >= School::Philidor {
            t.extend([Term::PawnStructure, Term::PassedPawns]);
        }
        if self >= School::Romantic {
            t.push(Term::Winnable);
        }
        if self >= School::Modern {
            t.push(Term::Imbalance);
        }
        t
    }

    /// Term flags (and, for the Romantic school, the raised activity weights).
    pub fn eval_config(self) -> EvalConfig {
        let mut cfg = EvalConfig { enabled: [false; Term::COUNT], ..EvalConfig::default() };
        for t in self.terms() {
            cfg.set_enabled(t, true);
        }
        if self == School::Romantic {
            for t in [Term::Threats, Term::Mobility] {
                cfg.mg_weight[t.index()] = ROMANTIC_ACTIVITY_WEIGHT;
                cfg.eg_weight[t.index()] = ROMANTIC_ACTIVITY_WEIGHT;
            }
        }
        cfg
    }
}

/// One point of the ladder file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LadderPoint {
    pub elo: i32,
    pub nodes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<i32>,
    pub plateau_cp: i32,
    pub slip_p: f64,
    pub slip_min_cp: i32,
    pub slip_max_cp: i32,
    /// How the slip rate leans on the position ([`ChoiceSettings::slip_tilt`], per pawn of the best
    /// score; absent = 0, the same rate everywhere). Interpolated linearly between points.
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub slip_tilt: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lambda: Option<f64>,
    /// Cap on the regret (cp, by the point's own search) of a move its Boltzmann choice may draw
    /// ([`ChoiceSettings::boltzmann_max_cp`]); absent = none. A level between a capped and an
    /// uncapped point keeps the cap; between two capped points it is interpolated linearly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boltzmann_max_cp: Option<i32>,
    /// Look deeper now and then: with probability `deep_p` (a seeded draw of its own per decision,
    /// tag `depth`) the point searches `deep_nodes` nodes without its depth cap instead of its
    /// usual budget. People sometimes see further than their usual horizon; 0 = never.
    #[serde(default, skip_serializing_if = "is_zero_f64")]
    pub deep_p: f64,
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub deep_nodes: u64,
    /// Human move prior weights (see [`crate::policy::prior`]): a logit bonus per move feature,
    /// added to the Boltzmann choice. Between points it is interpolated linearly (absent = zeros).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<Vec<f64>>,
    /// Weight of the human move model in the choice: the Boltzmann logit of a move gains
    /// `beta · ln P_human(move | position, elo)` (the ladder's `human_model`). Interpolated linearly
    /// between points (absent = 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beta: Option<f64>,
    /// λ of a point with the model in a decided position (best score beyond
    /// ±[`crate::human::v6::DECIDED_CP`] or a mate), where the model is left out and the point
    /// chooses by value alone (absent = `lambda`). Interpolated geometrically between points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_lambda: Option<f64>,
    /// How far an avatar's style tilts the human move model at this point, in nats of
    /// `ln P_human` per pawn of style difference ([`crate::human::v6::style_tilt`]); the choice
    /// logit moves by `beta · avatar_tilt · Δ`. Absent = [`crate::human::v6::AVATAR_TILT`].
    /// A point where β is large and λ small needs less: there the tilt outweighs the value term
    /// and an avatar would cost strength (issue 24 §3). Interpolated linearly between points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar_tilt: Option<f64>,
    /// With `human_model = 7`: the rating of the player to move given to Maia-3 (Lichess blitz
    /// scale). Absent = the point's Elo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_elo: Option<f64>,
    /// With `human_model = 7`: the opponent's rating given to Maia-3 when `UCI_Opponent` gives
    /// none. Absent = `model_elo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_oppo_elo: Option<f64>,
}

fn is_zero_f64(x: &f64) -> bool {
    *x == 0.0
}

fn is_zero_u64(x: &u64) -> bool {
    *x == 0
}

impl LadderPoint {
    fn move_prior(&self) -> Option<MovePrior> {
        self.prior.as_deref().map(|w| MovePrior::from_slice(w).expect("validated"))
    }
}

/// The occasional deeper search of a level (see [`LadderPoint::deep_p`]).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct DeepLook {
    pub p: f64,
    pub nodes: u64,
}

/// Everything a `UCI_Elo` sets.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelSettings {
    /// The effective Elo (the request clamped to the ladder's range).
    pub elo: i32,
    pub nodes: u64,
    pub depth: Option<i32>,
    pub choice: ChoiceSettings,
    pub eval: EvalConfig,
    pub school: School,
    pub tablebases: bool,
    pub deep: DeepLook,
    /// The human move prior of the Boltzmann choice (None = plain Boltzmann).
    pub prior: Option<MovePrior>,
    /// The human move model in the choice (None = not used).
    pub human: Option<HumanChoice>,
    /// With a ladder naming the human move model v7: its inputs (`human` then holds β and the
    /// rest; its v6 model is the fallback).
    pub maia3: Option<Box<super::maia3_choice::Maia3Choice>>,
    /// The ladder this level comes from ([`Ladder::tag`]).
    pub ladder: String,
}

/// How a level uses the human move model: `beta · ln P_human(move | position, rating)` added to
/// each move's Boltzmann logit.
#[derive(Clone, Debug)]
pub struct HumanChoice {
    pub beta: f64,
    /// λ in decided positions, where the model is left out ([`LadderPoint::decided_lambda`]).
    pub decided_lambda: f64,
    /// Against a bare king: the deeper look, by value with this λ, no model, no slips
    /// ([`Ladder::bare_king_lambda`]; None = as in any decided position).
    pub bare_king_lambda: Option<f64>,
    /// The rating the model is asked about (the level's Elo).
    pub rating: f64,
    /// An avatar's tilt of the model, nats per pawn of style difference
    /// ([`LadderPoint::avatar_tilt`]).
    pub avatar_tilt: f64,
    pub model: Arc<HumanModel>,
}

impl PartialEq for HumanChoice {
    fn eq(&self, other: &Self) -> bool {
        self.beta == other.beta
            && self.decided_lambda == other.decided_lambda
            && self.bare_king_lambda == other.bare_king_lambda
            && self.rating == other.rating
            && self.avatar_tilt == other.avatar_tilt
            && self.model.hash_hex() == other.model.hash_hex()
    }
}

/// Largest `beta` a ladder file may give.
pub const MAX_BETA: f64 = 20.0;
/// Largest `avatar_tilt` a ladder file may give (nats per pawn).
pub const MAX_AVATAR_TILT: f64 = 10.0;

impl LevelSettings {
    /// One line for `info string`.
    pub fn describe(&self) -> String {
        let choice = match self.choice.lambda {
            Some(l) => format!("lambda {l:.3}"),
            None => format!("plateau {} cp", self.choice.plateau_cp),
        };
        format!(
            "level {} ({} / {} school): nodes {}{}, {}, slip p {:.4} gate [{}, {}] cp, tablebases {}",
            self.elo,
            self.school.level(),
            self.school.name(),
            self.nodes,
            self.depth.map(|d| format!(" depth {d}")).unwrap_or_default(),
            choice,
            self.choice.slip_p,
            self.choice.slip_min_cp,
            self.choice.slip_max_cp,
            if self.tablebases { "on" } else { "off" }
        ) + &if self.choice.slip_tilt > 0.0 {
            format!(", slips tilted {:.2} a pawn", self.choice.slip_tilt)
        } else {
            String::new()
        } + &self.choice.boltzmann_max_cp.map(|c| format!(", choice capped at {c} cp")).unwrap_or_default()
            + &if self.deep.p > 0.0 {
                format!(", deeper ({} nodes) with p {:.3}", self.deep.nodes, self.deep.p)
            } else {
                String::new()
            }
            + if self.prior.is_some() { ", human move prior" } else { "" }
            + &self
                .human
                .as_ref()
                .map(|h| {
                    let tilt = if h.avatar_tilt == crate::human::v6::AVATAR_TILT {
                        String::new()
                    } else {
                        format!(" avatar tilt {:.2}", h.avatar_tilt)
                    };
                    let model = match &self.maia3 {
                        Some(m) => format!("v7 (Maia-3 at {:.0} vs {:.0})", m.self_elo, m.oppo_elo),
                        None => h.model.describe(),
                    };
                    format!(", human model {model} beta {:.3}{tilt}", h.beta)
                })
                .unwrap_or_default()
    }
}

/// The parsed, validated ladder.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    pub name: String,
    pub version: u32,
    pub description: String,
    pub tablebases_from_elo: i32,
    /// The search generation the points were fitted on: [`crate::search::SEARCH_GENERATION`], the
    /// only one. A file without it was fitted on generation 1 (retired) and is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_generation: Option<u32>,
    /// `sparring bench`'s node count for that generation when the points were fitted: a test
    /// fails when the search no longer gives it, so a search change is visibly a refit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search_bench: Option<u64>,
    /// The version of the human move model the points' `beta` was fitted with (the built-in model
    /// must be that version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub human_model: Option<u32>,
    /// Against a bare king (the side to move has mating material, the other only its king;
    /// [`crate::human::v6::against_bare_king`]) every point with the model takes its deeper
    /// look if it has one and chooses by value with this λ, without the model and without slips:
    /// people of every level play such endings out. Absent = as in any decided position (v9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bare_king_lambda: Option<f64>,
    /// With `human_model = 7`: the map from `UCI_Elo`'s scale (FICS blitz) to Maia-3's (Lichess
    /// blitz) as `[intercept, slope]`, fitted on the fit part (`bench/human-model/maia3-grid.sh`).
    /// It turns a `UCI_Opponent` rating into the model's opponent input ([`Ladder::model_rating`]);
    /// the points' own `model_elo` are choice parameters and may lie off it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_map: Option<[f64; 2]>,
    #[serde(rename = "point")]
    pub points: Vec<LadderPoint>,
    #[serde(skip)]
    hash: String,
}

/// Two neighbouring points: Elo, budget and depth rise, the plateau, slips and slip gate do not
/// widen upwards, λ does not fall between points of the same kind, a prior is not dropped.
fn validate_step(a: &LadderPoint, b: &LadderPoint) -> Result<(), String> {
    let at = |what: &str| format!("points {} -> {}: {what}", a.elo, b.elo);
    if b.elo <= a.elo {
        return Err(at("Elo must strictly increase"));
    }
    if b.nodes < a.nodes {
        return Err(at("nodes must not decrease"));
    }
    match (a.depth, b.depth) {
        (Some(x), Some(y)) if y < x => return Err(at("depth cap must not decrease")),
        (None, Some(_)) => return Err(at("a depth cap cannot follow an uncapped point")),
        _ => {}
    }
    if b.plateau_cp > a.plateau_cp {
        return Err(at("plateau_cp must not increase"));
    }
    // With the human move model the fit sets λ and β of a point jointly against its band's
    // loss targets, so between two such points λ need not rise; slips must still fall.
    let modelled = a.beta.is_some() && b.beta.is_some();
    if b.slip_p > a.slip_p {
        return Err(at("slip_p must not increase"));
    }
    if b.slip_min_cp > a.slip_min_cp || b.slip_max_cp > a.slip_max_cp {
        return Err(at("the slip gate must not widen upwards"));
    }
    // A prior reweights the Boltzmann logits, so λ means something else with one: λ may drop
    // where the prior starts, and must not decrease between points of the same kind.
    if let (Some(x), Some(y)) = (a.lambda, b.lambda)
        && y < x
        && a.prior.is_some() == b.prior.is_some()
        && !modelled
    {
        return Err(at("lambda must not decrease"));
    }
    if a.prior.is_some() && b.prior.is_none() {
        return Err(at("a point without a prior cannot follow one with a prior"));
    }
    Ok(())
}

/// Where an Elo falls on a ladder: on its last point, or the fraction `t` of the way from the point
/// at or below it to the next one. Found once per [`Ladder::at`]; every setting is blended from it.
struct Segment<'a> {
    a: &'a LadderPoint,
    next: Option<(&'a LadderPoint, f64)>,
}

impl<'a> Segment<'a> {
    fn of(points: &'a [LadderPoint], elo: i32) -> Segment<'a> {
        let i = points.iter().rposition(|p| p.elo <= elo).unwrap_or(0);
        let a = &points[i];
        let next = points.get(i + 1).map(|b| (b, f64::from(elo - a.elo) / f64::from(b.elo - a.elo)));
        Segment { a, next }
    }

    /// `last(a)` on the last point, else `both(a, b, t)`.
    fn pair<T>(
        &self,
        last: impl FnOnce(&LadderPoint) -> T,
        both: impl FnOnce(&LadderPoint, &LadderPoint, f64) -> T,
    ) -> T {
        match self.next {
            None => last(self.a),
            Some((b, t)) => both(self.a, b, t),
        }
    }

    /// One setting: the last point's own value, else `mix` of both points' values at `t`.
    fn blend<T>(&self, get: impl Fn(&LadderPoint) -> T, mix: impl FnOnce(T, T, f64) -> T) -> T {
        self.pair(&get, |a, b, t| mix(get(a), get(b), t))
    }
}

/// A point's deeper look (probability, nodes) as the interpolation toward its neighbour `other`
/// sees it. A point without one whose every search is at least as large as the neighbour's deeper
/// look (no depth cap, `nodes` ≥ its `deep_nodes`) looks that deep at every move: it counts as a
/// deeper look of its own budget with probability 1, so the levels between, say, a point that looks
/// deeper half the time and a 20000-node point above it look deeper more often as they rise, not
/// less.
fn deep_look_beside(p: &LadderPoint, other: &LadderPoint) -> (f64, u64) {
    if p.deep_p > 0.0 {
        (p.deep_p, p.deep_nodes)
    } else if other.deep_p > 0.0 && p.depth.is_none() && p.nodes >= other.deep_nodes {
        (1.0, p.nodes)
    } else {
        (0.0, 0)
    }
}

fn lerp(a: f64, b: f64, t: f64) -> f64 {
    // Monotone in t within a segment; clamped so that a segment never overshoots its end point.
    (a + (b - a) * t).clamp(a.min(b), a.max(b))
}

fn lerp_round(a: i32, b: i32, t: f64) -> i32 {
    lerp(f64::from(a), f64::from(b), t).round() as i32
}

fn geo(a: f64, b: f64, t: f64) -> f64 {
    (a.ln() + (b.ln() - a.ln()) * t).exp().clamp(a.min(b), a.max(b))
}

impl Ladder {
    /// The ladder file embedded in the binary.
    pub fn builtin() -> Ladder {
        // Parsed (and hashed) once: the UCI layer asks for it at every `go` and option.
        static BUILTIN: std::sync::OnceLock<Ladder> = std::sync::OnceLock::new();
        BUILTIN
            .get_or_init(|| Ladder::parse(LADDER).unwrap_or_else(|e| panic!("built-in ladder is invalid: {e}")))
            .clone()
    }

    /// The embedded ladder file's text.
    pub fn builtin_text() -> &'static str {
        LADDER
    }

    pub fn parse(text: &str) -> Result<Ladder, ProfileError> {
        let mut l: Ladder = toml::from_str(text).map_err(|e| ProfileError(format!("ladder: {e}")))?;
        l.hash = file_hash_hex(text.as_bytes());
        l.validate().map_err(|e| ProfileError(format!("ladder '{}': {e}", l.name)))?;
        Ok(l)
    }

    /// blake3 (lowercase hex) of the file the ladder was parsed from.
    pub fn hash_hex(&self) -> &str {
        &self.hash
    }

    /// One line for `info string`.
    pub fn describe(&self) -> String {
        format!("ladder {} v{} blake3 {}", self.name, self.version, &self.hash[..self.hash.len().min(16)])
    }

    /// The ladder as a ladder file (no comments), for a fit to write candidates and its result;
    /// [`Ladder::parse`] of the text gives this ladder back.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a ladder serialises")
    }

    /// Short name for a level's report: `ladder vN <first 16 hex of the blake3>`.
    pub fn tag(&self) -> String {
        format!("ladder v{} {}", self.version, &self.hash[..self.hash.len().min(16)])
    }

    /// Checks ranges and the monotonicity the interpolation relies on.
    pub fn validate(&self) -> Result<(), String> {
        self.validate_header()?;
        let lambdas = self.points.iter().filter(|p| p.lambda.is_some()).count();
        if lambdas != 0 && lambdas != self.points.len() {
            return Err("lambda must be given on every point or on none".into());
        }
        for p in &self.points {
            self.validate_point(p)?;
        }
        for w in self.points.windows(2) {
            validate_step(&w[0], &w[1])?;
        }
        Ok(())
    }

    /// The ladder's own fields: name, version, points, search generation, human model, model ratings.
    fn validate_header(&self) -> Result<(), String> {
        if self.name.is_empty() || self.version < 1 {
            return Err("needs a name and a version >= 1".into());
        }
        if self.points.is_empty() {
            return Err("has no [[point]]".into());
        }
        if let Some(l) = self.bare_king_lambda
            && !(l.is_finite() && l > 0.0)
        {
            return Err(format!("bare_king_lambda {l} must be a finite number > 0"));
        }
        match self.search_generation {
            Some(crate::search::SEARCH_GENERATION) => {}
            Some(g) => return Err(super::profile::retired(&format!("search_generation {g}"))),
            None => return Err(super::profile::retired("no search_generation (generation 1)")),
        }
        super::maia3_choice::validate(self.human_model, &self.points)?;
        if let Some([a, b]) = self.model_map
            && !(a.is_finite() && b.is_finite() && b > 0.0)
        {
            return Err(format!("model_map [{a}, {b}]: a finite intercept and a slope > 0"));
        }
        Ok(())
    }

    /// One point's own settings, each inside its range and with what it needs.
    fn validate_point(&self, p: &LadderPoint) -> Result<(), String> {
        if p.nodes == 0 {
            return Err(format!("point {}: nodes must be > 0", p.elo));
        }
        if let Some(d) = p.depth
            && !(1..=100).contains(&d)
        {
            return Err(format!("point {}: depth {d} outside 1..=100", p.elo));
        }
        let c = ChoiceSettings {
            plateau_cp: p.plateau_cp,
            lambda: p.lambda,
            slip_p: p.slip_p,
            slip_min_cp: p.slip_min_cp,
            slip_max_cp: p.slip_max_cp,
            boltzmann_max_cp: p.boltzmann_max_cp,
            slip_tilt: p.slip_tilt,
        };
        c.validate().map_err(|e| format!("point {}: {e}", p.elo))?;
        if !(0.0..=1.0).contains(&p.deep_p) {
            return Err(format!("point {}: deep_p {} outside 0..=1", p.elo, p.deep_p));
        }
        if p.deep_p > 0.0 && p.deep_nodes <= p.nodes {
            return Err(format!("point {}: deep_nodes must exceed nodes when deep_p > 0", p.elo));
        }
        if let Some(b) = p.beta {
            if !(b.is_finite() && (0.0..=MAX_BETA).contains(&b)) {
                return Err(format!("point {}: beta {b} outside 0..={MAX_BETA}", p.elo));
            }
            if p.lambda.is_none() || self.human_model.is_none() {
                return Err(format!("point {}: beta needs lambda and the ladder's human_model", p.elo));
            }
        }
        if let Some(t) = p.avatar_tilt {
            if !(t.is_finite() && (0.0..=MAX_AVATAR_TILT).contains(&t)) {
                return Err(format!("point {}: avatar_tilt {t} outside 0..={MAX_AVATAR_TILT}", p.elo));
            }
            if p.beta.is_none() {
                return Err(format!("point {}: avatar_tilt needs beta (it tilts the model)", p.elo));
            }
        }
        if let Some(d) = p.decided_lambda {
            if !(d.is_finite() && d > 0.0) {
                return Err(format!("point {}: decided_lambda {d} must be a finite number > 0", p.elo));
            }
            if p.beta.is_none() {
                return Err(format!("point {}: decided_lambda needs beta (it is the model's fallback)", p.elo));
            }
        }
        if let Some(w) = &p.prior {
            MovePrior::from_slice(w).map_err(|e| format!("point {}: {e}", p.elo))?;
            if p.lambda.is_none() {
                return Err(format!("point {}: a prior needs lambda (it weights the Boltzmann choice)", p.elo));
            }
        }
        Ok(())
    }

    /// (lowest, highest) Elo of the ladder.
    pub fn range(&self) -> (i32, i32) {
        (self.points[0].elo, self.points[self.points.len() - 1].elo)
    }

    /// A rating on `UCI_Elo`'s scale (FICS blitz) as the human move model v7's input (Lichess
    /// blitz), within 0..=5000: by the ladder's `model_map` when it has one, else the points'
    /// `model_elo` against their Elo, linear between points and continued with the end segments'
    /// slope beyond them. A ladder with neither maps every rating to itself.
    pub fn model_rating(&self, elo: f64) -> f64 {
        if let Some([a, b]) = self.model_map {
            return (a + b * elo).clamp(0.0, 5000.0);
        }
        let pairs: Vec<(f64, f64)> =
            self.points.iter().map(|p| (f64::from(p.elo), p.model_elo.unwrap_or(f64::from(p.elo)))).collect();
        let mapped = match pairs.len() {
            0 => elo,
            1 => elo + (pairs[0].1 - pairs[0].0),
            n => {
                let k = pairs.windows(2).position(|w| elo <= w[1].0).unwrap_or(n - 2);
                let ((x0, y0), (x1, y1)) = (pairs[k], pairs[k + 1]);
                y0 + (elo - x0) * (y1 - y0) / (x1 - x0)
            }
        };
        mapped.clamp(0.0, 5000.0)
    }

    /// The Elo a `Skill Level` (0–20, clamped) maps to: linear over the ladder's range.
    pub fn elo_for_skill(&self, level: i32) -> i32 {
        let (lo, hi) = self.range();
        let level = level.clamp(0, 20);
        lo + ((f64::from(hi - lo) * f64::from(level) / 20.0).round() as i32)
    }

    /// The settings at `elo` (clamped to the range), interpolated between the surrounding points
    /// ([`Segment`]: found once, each setting blended by its own rule).
    pub fn at(&self, elo: i32) -> LevelSettings {
        let (lo, hi) = self.range();
        let elo = elo.clamp(lo, hi);
        let seg = Segment::of(&self.points, elo);
        let deep = seg.pair(
            |a| DeepLook { p: a.deep_p, nodes: a.deep_nodes },
            |a, b, t| {
                let (ap, an) = deep_look_beside(a, b);
                let (bp, bn) = deep_look_beside(b, a);
                let nodes = match (an, bn) {
                    (0, n) | (n, 0) => n,
                    (x, y) => geo(x as f64, y as f64, t).round() as u64,
                };
                DeepLook { p: lerp(ap, bp, t), nodes }
            },
        );
        let nodes = seg.blend(|p| p.nodes, |x, y, t| (geo(x as f64, y as f64, t).round() as u64).clamp(x, y));
        let depth = seg.blend(
            |p| p.depth,
            |x, y, t| match (x, y) {
                (Some(x), Some(y)) => Some(lerp(f64::from(x), f64::from(y), t).floor() as i32),
                (Some(x), None) => Some(x),
                _ => None,
            },
        );
        let (slip_min_cp, slip_max_cp) = seg.blend(
            |p| (p.slip_min_cp, p.slip_max_cp),
            |(a_min, a_max), (b_min, b_max), t| {
                let min = lerp_round(a_min, b_min, t);
                (min, lerp_round(a_max, b_max, t).max(min))
            },
        );
        let choice = ChoiceSettings {
            plateau_cp: seg.blend(|p| p.plateau_cp, lerp_round),
            lambda: seg.blend(|p| p.lambda, |x, y, t| Some(geo(x?, y?, t))),
            slip_p: seg.blend(|p| p.slip_p, lerp),
            slip_min_cp,
            slip_max_cp,
            boltzmann_max_cp: seg.blend(
                |p| p.boltzmann_max_cp,
                |x, y, t| match (x, y) {
                    (Some(x), Some(y)) => Some(lerp_round(x, y, t)),
                    (x, y) => x.or(y),
                },
            ),
            slip_tilt: seg.blend(|p| p.slip_tilt, lerp),
        };
        let prior = seg
            .pair(|a| a.move_prior(), |a, b, t| MovePrior::lerp(a.move_prior().as_ref(), b.move_prior().as_ref(), t));
        let beta = seg.blend(|p| p.beta.unwrap_or(0.0), lerp);
        // A ladder that names a model it cannot have is refused by `validate` at parse time, so
        // here the model is there whenever a beta is.
        let decided_lambda = seg.blend(|p| p.decided_lambda.or(p.lambda).unwrap_or(1.0), geo);
        let avatar_tilt = seg.blend(|p| p.avatar_tilt.unwrap_or(crate::human::v6::AVATAR_TILT), lerp);
        let v7 = self.human_model == Some(super::maia3_choice::VERSION);
        // With v7 the v6 model stays in `human` as the fallback.
        let model = match self.human_model {
            Some(_) if v7 => super::human_model::builtin(super::human_model::LATEST).ok(),
            v => v.and_then(|v| super::human_model::builtin(v).ok()),
        };
        let model_elo = |p: &LadderPoint| p.model_elo.unwrap_or(f64::from(p.elo));
        let (self_elo, oppo_elo) = seg.blend(
            |p| (model_elo(p), p.model_oppo_elo.unwrap_or(model_elo(p))),
            |(a_self, a_oppo), (b_self, b_oppo), t| (lerp(a_self, b_self, t), lerp(a_oppo, b_oppo, t)),
        );
        let human = model.filter(|_| beta > 0.0).map(|model| HumanChoice {
            beta,
            decided_lambda,
            bare_king_lambda: self.bare_king_lambda,
            rating: f64::from(elo),
            avatar_tilt,
            model,
        });
        let school = School::for_elo(elo);
        LevelSettings {
            elo,
            nodes,
            depth,
            choice,
            eval: school.eval_config(),
            school,
            tablebases: elo >= self.tablebases_from_elo,
            deep: if deep.p > 0.0 && deep.nodes > nodes { deep } else { DeepLook::default() },
            prior: prior.filter(|p| !p.is_zero()),
            maia3: (v7 && human.is_some())
                .then(|| Box::new(super::maia3_choice::Maia3Choice { self_elo, oppo_elo, history: None })),
            human,
            ladder: self.tag(),
        }
    }
}

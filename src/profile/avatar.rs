//! Avatar files (SPEC 6): per-term middlegame/endgame weights in percent that give the engine a style.
//!
//! Format, one entry per line:
//!
//! ```text
//! # a comment (a `#` anywhere starts a comment that runs to the end of the line)
//! KingSafety(mg) = 140
//! threats (EG)=120     # keys and phases are case-insensitive; spaces around tokens are fine
//! ```
//!
//! The keys are the 13 term-group names of `eval::Term`; phases are `mg` and `eg`; values are
//! integers 0–200 (100 = unchanged, a key left out stays 100). A plain key weighs the group of
//! both sides alike; `own.Key(phase)` weighs only the engine's side's group and `opp.Key(phase)`
//! only the opponent's, so a style can care about one king and not the other:
//!
//! ```text
//! opp.KingSafety(mg) = 160   # the enemy king's weaknesses count 160 %: an attacker
//! own.KingSafety(mg) = 90    # and its own king's a little less
//! ```
//!
//! A fitted avatar may also lean towards kinds of moves (the style fingerprint's rates,
//! [`crate::policy::style::Rate`]): `lean.KIND = N` adds N/100 to `ln P_human` of every legal move of
//! that kind where a ladder point chooses with the human move model, before its β sharpens it
//! (integers −300..300, 0 = none; a point without the model ignores leans):
//!
//! ```text
//! lean.check = 40        # checks count e^0.4 ≈ 1.5 times as likely as the model says
//! lean.castles = -25
//! ```
//!
//! Each group's value for a side is from that side's view (its KingSafety is its own king's
//! shelter and danger, its Threats its threats against enemy pieces), so `opp.KingSafety` up is
//! attack and `own.KingSafety` up is defence. A file with any bad line (unknown
//! key, bad phase, bad number, value out of range, the same key and phase twice, a line that is not
//! `Key(phase)=N`) or that cannot be read is rejected whole; the error names the file and the line.

use crate::eval::{EvalConfig, SidedWeights, Term};
use crate::policy::style::Rate;
use shakmaty::Color;
use std::fmt;
use std::path::Path;

/// Largest weight an avatar may give, in percent.
pub const MAX_PERCENT: i64 = 200;
/// Largest |lean| of a move kind, in hundredths of `ln P_human`.
pub const MAX_LEAN: i64 = 300;

/// What is wrong with an avatar file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AvatarProblem {
    /// The file does not exist or cannot be opened.
    Missing(String),
    /// The file exists but cannot be read as UTF-8 text.
    Unreadable(String),
    UnknownKey(String),
    BadPhase(String),
    BadNumber(String),
    OutOfRange(String),
    /// Same key and phase a second time (a plain key sets both sides); carries the first line.
    Duplicate {
        key: String,
        first_line: usize,
    },
    Malformed(String),
    /// `lean.KIND` with a kind that is not a fingerprint rate.
    UnknownLean(String),
    /// A lean that is not an integer.
    BadLean(String),
    /// A lean outside ±[`MAX_LEAN`].
    LeanOutOfRange(String),
}

impl fmt::Display for AvatarProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AvatarProblem::Missing(e) => write!(f, "cannot open avatar file: {e}"),
            AvatarProblem::Unreadable(e) => write!(f, "cannot read avatar file: {e}"),
            AvatarProblem::UnknownKey(k) => {
                write!(f, "unknown key '{k}' (expected one of {})", Term::ALL.map(|t| t.name()).join(", "))
            }
            AvatarProblem::BadPhase(p) => write!(f, "bad phase '{p}' (expected mg or eg)"),
            AvatarProblem::BadNumber(v) => {
                write!(f, "bad number '{v}' (expected an integer 0-{MAX_PERCENT})")
            }
            AvatarProblem::OutOfRange(v) => {
                write!(f, "value {v} out of range (0-{MAX_PERCENT})")
            }
            AvatarProblem::Duplicate { key, first_line } => {
                write!(f, "duplicate key {key} (first set on line {first_line})")
            }
            AvatarProblem::Malformed(line) => {
                write!(
                    f,
                    "malformed line '{line}' (expected Key(mg)=N or Key(eg)=N, Key optionally own. or opp., or lean.KIND=N)"
                )
            }
            AvatarProblem::UnknownLean(k) => {
                write!(f, "unknown move kind '{k}' (expected one of {})", Rate::ALL.map(|r| r.key()).join(", "))
            }
            AvatarProblem::BadLean(v) => write!(f, "bad lean '{v}' (expected an integer -{MAX_LEAN}..{MAX_LEAN})"),
            AvatarProblem::LeanOutOfRange(v) => write!(f, "lean {v} out of range (-{MAX_LEAN}..{MAX_LEAN})"),
        }
    }
}

/// An avatar file was rejected: `<file>:<line>: <problem>`, or `<file>: <problem>` when the whole
/// file is at fault (`line == 0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AvatarError {
    pub file: String,
    pub line: usize,
    pub problem: AvatarProblem,
}

impl fmt::Display for AvatarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.problem)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.problem)
        }
    }
}

impl std::error::Error for AvatarError {}

/// Parsed avatar weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Avatar {
    /// Where it came from (as given to `parse`/`load`).
    pub file: String,
    /// The weights of the engine's own groups.
    pub mg: [u16; Term::COUNT],
    pub eg: [u16; Term::COUNT],
    /// The weights of the opponent's groups (the same as `mg`/`eg` unless the file says `opp.`
    /// or `own.`).
    pub opp_mg: [u16; Term::COUNT],
    pub opp_eg: [u16; Term::COUNT],
    /// Lean towards each kind of move ([`Rate::ALL`] order), hundredths of `ln P_human` (see the
    /// module text); all 0 unless the file says `lean.KIND`.
    pub lean: [i16; Rate::COUNT],
}

/// Which side's group an entry weighs.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Sides {
    Both,
    Own,
    Opp,
}

impl Default for Avatar {
    fn default() -> Self {
        Avatar::neutral()
    }
}

fn parse_value(text: &str) -> Result<u16, AvatarProblem> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AvatarProblem::BadNumber(text.to_string()));
    }
    match text.parse::<i64>() {
        Ok(v) if (0..=MAX_PERCENT).contains(&v) => Ok(v as u16),
        // Syntactically an integer: too large for i64 or outside 0..=200.
        _ => Err(AvatarProblem::OutOfRange(text.to_string())),
    }
}

/// Parses one non-empty, comment-free line into (term, sides, is_endgame, value).
fn parse_entry(line: &str) -> Result<(Term, Sides, bool, u16), AvatarProblem> {
    let malformed = || AvatarProblem::Malformed(line.to_string());
    let (lhs, rhs) = line.split_once('=').ok_or_else(malformed)?;
    let (key, rest) = lhs.split_once('(').ok_or_else(malformed)?;
    let (phase, tail) = rest.split_once(')').ok_or_else(malformed)?;
    let key = key.trim();
    if key.is_empty() || !tail.trim().is_empty() {
        return Err(malformed());
    }
    let (sides, name) = match key.split_once('.') {
        Some((side, name)) if side.trim().eq_ignore_ascii_case("own") => (Sides::Own, name),
        Some((side, name)) if side.trim().eq_ignore_ascii_case("opp") => (Sides::Opp, name),
        _ => (Sides::Both, key),
    };
    let term = Term::from_name(name).ok_or_else(|| AvatarProblem::UnknownKey(key.to_string()))?;
    let phase = phase.trim();
    let eg = if phase.eq_ignore_ascii_case("mg") {
        false
    } else if phase.eq_ignore_ascii_case("eg") {
        true
    } else {
        return Err(AvatarProblem::BadPhase(phase.to_string()));
    };
    let value = parse_value(rhs.trim())?;
    Ok((term, sides, eg, value))
}

/// A `lean.KIND = N` line as (kind, N); None when the line is not a lean.
fn parse_lean(line: &str) -> Result<Option<(Rate, i16)>, AvatarProblem> {
    let Some((lhs, rhs)) = line.split_once('=') else { return Ok(None) };
    let lhs = lhs.trim();
    let Some(kind) = lhs.get(..5).filter(|p| p.eq_ignore_ascii_case("lean.")).map(|_| lhs[5..].trim()) else {
        return Ok(None);
    };
    let rate = Rate::ALL
        .into_iter()
        .find(|r| r.key().eq_ignore_ascii_case(kind))
        .ok_or_else(|| AvatarProblem::UnknownLean(kind.to_string()))?;
    let text = rhs.trim();
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(AvatarProblem::BadLean(text.to_string()));
    }
    match text.parse::<i64>() {
        Ok(v) if (-MAX_LEAN..=MAX_LEAN).contains(&v) => Ok(Some((rate, v as i16))),
        _ => Err(AvatarProblem::LeanOutOfRange(text.to_string())),
    }
}

impl Avatar {
    /// Every weight 100 %.
    pub fn neutral() -> Avatar {
        Avatar {
            file: String::new(),
            mg: [100; Term::COUNT],
            eg: [100; Term::COUNT],
            opp_mg: [100; Term::COUNT],
            opp_eg: [100; Term::COUNT],
            lean: [0; Rate::COUNT],
        }
    }

    /// Parses an avatar file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Avatar, AvatarError> {
        let mut av = Avatar { file: file.to_string(), ..Avatar::neutral() };
        // Line where each (term, phase, own/opp) was first set.
        let mut seen = [[[0usize; 2]; 2]; Term::COUNT];
        let mut lean_seen = [0usize; Rate::COUNT];
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let err = |problem| AvatarError { file: file.to_string(), line: line_no, problem };
            let content = raw.split_once('#').map_or(raw, |(before, _)| before).trim();
            if content.is_empty() {
                continue;
            }
            if let Some((kind, value)) = parse_lean(content).map_err(err)? {
                let i = kind as usize;
                if lean_seen[i] != 0 {
                    return Err(err(AvatarProblem::Duplicate {
                        key: format!("lean.{}", kind.key()),
                        first_line: lean_seen[i],
                    }));
                }
                lean_seen[i] = line_no;
                av.lean[i] = value;
                continue;
            }
            let (term, sides, eg, value) = parse_entry(content).map_err(err)?;
            let (i, ph) = (term.index(), usize::from(eg));
            let which: &[usize] = match sides {
                Sides::Both => &[0, 1],
                Sides::Own => &[0],
                Sides::Opp => &[1],
            };
            if let Some(&first_line) = which.iter().map(|&w| &seen[i][ph][w]).find(|&&l| l != 0) {
                let prefix = match sides {
                    Sides::Both => "",
                    Sides::Own => "own.",
                    Sides::Opp => "opp.",
                };
                return Err(err(AvatarProblem::Duplicate {
                    key: format!("{prefix}{}({})", term.name(), if eg { "eg" } else { "mg" }),
                    first_line,
                }));
            }
            for &w in which {
                seen[i][ph][w] = line_no;
                let slot = match (w, eg) {
                    (0, false) => &mut av.mg[i],
                    (0, true) => &mut av.eg[i],
                    (_, false) => &mut av.opp_mg[i],
                    (_, true) => &mut av.opp_eg[i],
                };
                *slot = value;
            }
        }
        Ok(av)
    }

    /// Reads and parses an avatar file.
    pub fn load(path: impl AsRef<Path>) -> Result<Avatar, AvatarError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| AvatarError {
            file: file.clone(),
            line: 0,
            problem: if path.is_dir() {
                AvatarProblem::Unreadable("is a directory".to_string())
            } else {
                AvatarProblem::Missing(e.to_string())
            },
        })?;
        let text = String::from_utf8(bytes).map_err(|e| AvatarError {
            file: file.clone(),
            line: 0,
            problem: AvatarProblem::Unreadable(format!("not UTF-8 text ({e})")),
        })?;
        Avatar::parse(&text, &file)
    }

    /// The style name: the file stem (`attacker` for `avatars/attacker.avt`).
    pub fn name(&self) -> String {
        Path::new(&self.file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }

    pub fn is_neutral(&self) -> bool {
        self.mg == [100; Term::COUNT] && self.eg == [100; Term::COUNT] && !self.is_sided() && !self.leans()
    }

    /// True when the avatar leans towards or away from some kind of move.
    pub fn leans(&self) -> bool {
        self.lean.iter().any(|&l| l != 0)
    }

    /// Whether its evaluation weights differ from 100 % anywhere (what the style tilt compares).
    pub fn reweights(&self) -> bool {
        self.mg != [100; Term::COUNT] || self.eg != [100; Term::COUNT] || self.is_sided()
    }

    /// Each move's lean (natural-log units) from its kinds ([`crate::policy::style::classify`]).
    pub fn lean_of(&self, facts: &crate::policy::style::Facts) -> f64 {
        facts.iter().zip(&self.lean).filter(|(f, _)| **f == Some(true)).map(|(_, &l)| f64::from(l) / 100.0).sum()
    }

    /// True when some group weighs differently for the engine's side and the opponent's.
    pub fn is_sided(&self) -> bool {
        self.mg != self.opp_mg || self.eg != self.opp_eg
    }

    /// The same weights for both sides' groups: `mg`/`eg` (the avatar fitter's 26 weights).
    pub fn both(file: &str, mg: [u16; Term::COUNT], eg: [u16; Term::COUNT]) -> Avatar {
        Avatar { file: file.to_string(), mg, eg, opp_mg: mg, opp_eg: eg, lean: [0; Rate::COUNT] }
    }

    /// Multiplies the avatar's weights into `cfg` (percent × percent / 100, clamped to u16) for an
    /// engine playing `us`: a sided avatar makes `cfg` take that side ([`EvalConfig::sided`]). Term
    /// flags are never touched: a disabled group stays disabled.
    pub fn apply(&self, cfg: &mut EvalConfig, us: Color) {
        let mul =
            |base: u16, pct: u16| -> u16 { (u32::from(base) * u32::from(pct) / 100).min(u32::from(u16::MAX)) as u16 };
        // The base configuration's weights of our groups and of theirs, seen from `us`.
        let (own_mg, own_eg, them_mg, them_eg) = match cfg.sided.as_deref() {
            None => (cfg.mg_weight, cfg.eg_weight, cfg.mg_weight, cfg.eg_weight),
            Some(s) if s.us == us => (cfg.mg_weight, cfg.eg_weight, s.them_mg, s.them_eg),
            Some(s) => (s.them_mg, s.them_eg, cfg.mg_weight, cfg.eg_weight),
        };
        let sided = self.is_sided() || cfg.sided.is_some();
        let mut s = SidedWeights { us, them_mg, them_eg };
        for i in 0..Term::COUNT {
            cfg.mg_weight[i] = mul(own_mg[i], self.mg[i]);
            cfg.eg_weight[i] = mul(own_eg[i], self.eg[i]);
            s.them_mg[i] = mul(them_mg[i], self.opp_mg[i]);
            s.them_eg[i] = mul(them_eg[i], self.opp_eg[i]);
        }
        cfg.sided = sided.then(|| Box::new(s));
    }

    /// The avatar as `.avt` text: `comment` (each line prefixed with `# `), then every group's
    /// `Key(mg)=N` and `Key(eg)=N` in group order. [`Avatar::parse`] reads it back unchanged.
    pub fn to_text(&self, comment: &str) -> String {
        let mut s = String::new();
        for line in comment.lines() {
            if line.trim().is_empty() {
                s.push_str("#\n");
            } else {
                s.push_str(&format!("# {line}\n"));
            }
        }
        for t in Term::ALL {
            let i = t.index();
            for (eg, own, opp) in [(false, self.mg[i], self.opp_mg[i]), (true, self.eg[i], self.opp_eg[i])] {
                let phase = if eg { "eg" } else { "mg" };
                if own == opp {
                    s.push_str(&format!("{}({phase})={own}\n", t.name()));
                } else {
                    s.push_str(&format!("own.{}({phase})={own}\nopp.{}({phase})={opp}\n", t.name(), t.name()));
                }
            }
        }
        for r in Rate::ALL {
            if self.lean[r as usize] != 0 {
                s.push_str(&format!("lean.{}={}\n", r.key(), self.lean[r as usize]));
            }
        }
        s
    }

    /// One line naming the non-100 weights, e.g. `attacker: KingSafety 140/110, Threats 130/100`.
    pub fn describe(&self) -> String {
        let changed: Vec<String> = Term::ALL
            .iter()
            .map(|t| t.index())
            .filter(|&i| self.mg[i] != 100 || self.eg[i] != 100 || self.opp_mg[i] != 100 || self.opp_eg[i] != 100)
            .map(|i| {
                let name = Term::ALL[i].name();
                if self.mg[i] == self.opp_mg[i] && self.eg[i] == self.opp_eg[i] {
                    format!("{name} {}/{}", self.mg[i], self.eg[i])
                } else {
                    format!("{name} own {}/{} opp {}/{}", self.mg[i], self.eg[i], self.opp_mg[i], self.opp_eg[i])
                }
            })
            .collect();
        let name = self.name();
        let name = if name.is_empty() { "avatar" } else { &name };
        let leans: Vec<String> = Rate::ALL
            .iter()
            .filter(|r| self.lean[**r as usize] != 0)
            .map(|r| format!("{} {:+}", r.key(), self.lean[*r as usize]))
            .collect();
        let leans =
            if leans.is_empty() { String::new() } else { format!("; leans (1/100 ln P): {}", leans.join(", ")) };
        if changed.is_empty() {
            format!("{name}: all weights 100 % (mg/eg){leans}")
        } else {
            format!("{name} (mg/eg %): {}{leans}", changed.join(", "))
        }
    }
}

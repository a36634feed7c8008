//! The UCI options the engine declares, with their ranges, and value validation.

#[derive(Clone, Debug)]
pub enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Button,
    Str { default: String },
    Combo { default: String, vars: Vec<String> },
}

#[derive(Clone, Debug)]
pub struct Opt {
    pub name: &'static str,
    pub kind: Kind,
}

/// A validated option value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(String),
    Press,
}

impl Opt {
    /// Checks a raw value against the option's type and range.
    pub fn parse(&self, raw: Option<&str>) -> Result<Value, String> {
        let raw = raw.map(str::trim);
        match &self.kind {
            Kind::Button => Ok(Value::Press),
            Kind::Spin { min, max, .. } => {
                let s = raw.ok_or_else(|| format!("option '{}' needs a value ({min}..{max})", self.name))?;
                let v: i64 =
                    s.parse().map_err(|_| format!("option '{}': '{s}' is not an integer ({min}..{max})", self.name))?;
                if v < *min || v > *max {
                    return Err(format!("option '{}': {v} is out of range {min}..{max}", self.name));
                }
                Ok(Value::Int(v))
            }
            Kind::Check { .. } => match raw.map(str::to_ascii_lowercase).as_deref() {
                Some("true") => Ok(Value::Bool(true)),
                Some("false") => Ok(Value::Bool(false)),
                other => Err(format!("option '{}': expected true or false, got '{}'", self.name, other.unwrap_or(""))),
            },
            Kind::Str { .. } => {
                let s = raw.unwrap_or("");
                Ok(Value::Str(if s == "<empty>" { String::new() } else { s.to_string() }))
            }
            Kind::Combo { vars, .. } => {
                let s = raw.unwrap_or("");
                vars.iter()
                    .find(|v| v.eq_ignore_ascii_case(s))
                    .map(|v| Value::Str(v.clone()))
                    .ok_or_else(|| format!("option '{}': '{s}' is not one of {}", self.name, vars.join(", ")))
            }
        }
    }
}

pub const HASH_MAX_MB: i64 = 65_536;
pub const THREADS_MAX: i64 = 256;

/// The core options (SPEC 1). Strength options are appended by the profile layer.
pub fn core_options() -> Vec<Opt> {
    vec![
        Opt { name: "Hash", kind: Kind::Spin { default: 16, min: 1, max: HASH_MAX_MB } },
        Opt { name: "Clear Hash", kind: Kind::Button },
        Opt { name: "Threads", kind: Kind::Spin { default: 1, min: 1, max: THREADS_MAX } },
        Opt { name: "MultiPV", kind: Kind::Spin { default: 1, min: 1, max: 256 } },
        Opt { name: "Move Overhead", kind: Kind::Spin { default: 30, min: 0, max: 5000 } },
        Opt { name: "Ponder", kind: Kind::Check { default: false } },
        Opt { name: "SyzygyPath", kind: Kind::Str { default: String::new() } },
        Opt { name: "SyzygyProbeLimit", kind: Kind::Spin { default: 7, min: 0, max: 7 } },
    ]
}

/// Every option: the core ones plus strength, seed and avatar (SPEC 3-6).
pub fn all_options() -> Vec<Opt> {
    let ladder = crate::profile::Ladder::builtin();
    let (lo, hi) = ladder.range();
    let mut v = core_options();
    v.extend([
        Opt {
            name: "Profile",
            kind: Kind::Combo {
                default: "strong".into(),
                vars: crate::profile::Profile::names().iter().map(|s| s.to_string()).collect(),
            },
        },
        Opt { name: "UCI_LimitStrength", kind: Kind::Check { default: false } },
        Opt { name: "UCI_Elo", kind: Kind::Spin { default: hi as i64, min: lo as i64, max: hi as i64 } },
        Opt { name: "Skill Level", kind: Kind::Spin { default: 20, min: 0, max: 20 } },
        Opt { name: "Seed", kind: Kind::Spin { default: 0, min: 0, max: crate::seed::MAX_SEED_OPTION as i64 } },
        Opt { name: "Avatar File", kind: Kind::Str { default: String::new() } },
        Opt { name: "Human Model File", kind: Kind::Str { default: String::new() } },
        Opt { name: "Ladder File", kind: Kind::Str { default: String::new() } },
        Opt { name: "Human Time", kind: Kind::Check { default: false } },
        Opt { name: "Human Time File", kind: Kind::Str { default: String::new() } },
        Opt { name: "UCI_Opponent", kind: Kind::Str { default: String::new() } },
    ]);
    v
}

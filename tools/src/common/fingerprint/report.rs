//! The fingerprint table: each rate with its interval, from classified moves and game sides, or the
//! paired difference of two settings on the same positions; printed as a table, CSV or JSON.

use super::source::{Observed, SideGame};
use super::stats::{self, Estimate};
use sparring::policy::style::{Facts, Rate};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How a row's value reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A proportion, printed in percent.
    Percent,
    /// A mean, printed as is.
    Mean,
}

/// One row of a fingerprint.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    pub key: &'static str,
    pub kind: Kind,
    pub definition: &'static str,
    pub estimate: Estimate,
}

/// One row of a comparison: A, B and B − A (paired).
#[derive(Clone, Debug, serde::Serialize)]
pub struct DiffRow {
    pub key: &'static str,
    pub kind: Kind,
    pub a: Estimate,
    pub b: Estimate,
    pub diff: Estimate,
}

/// Per-cluster (hits, moves) of `rate`.
fn clusters(obs: &[Observed], rate: Rate) -> Vec<(f64, f64)> {
    let mut per: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for o in obs {
        if let Some(hit) = o.facts[rate as usize] {
            let c = per.entry(o.cluster).or_default();
            c.0 += f64::from(u8::from(hit));
            c.1 += 1.0;
        }
    }
    per.into_values().collect()
}

/// The move rows of classified moves.
pub fn move_rows(obs: &[Observed]) -> Vec<Row> {
    Rate::ALL
        .iter()
        .map(|&r| Row {
            key: r.key(),
            kind: Kind::Percent,
            definition: r.definition(),
            estimate: stats::rate(&clusters(obs, r)),
        })
        .collect()
}

/// Own move number by which a castling counts as early, and after which as late.
pub const EARLY_CASTLE: u32 = 10;
pub const LATE_CASTLE: u32 = 15;

/// The game rows: length, draws, early and late castling (clustered by game).
pub fn game_rows(sides: &[SideGame]) -> Vec<Row> {
    let mut per_game: BTreeMap<usize, (f64, Option<bool>)> = BTreeMap::new();
    let mut early: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    let mut late: BTreeMap<usize, (f64, f64)> = BTreeMap::new();
    for s in sides {
        per_game.insert(s.game, (s.moves, s.draw));
        if s.side_moves >= EARLY_CASTLE {
            let e = early.entry(s.game).or_default();
            e.0 += f64::from(u8::from(s.castled_at.is_some_and(|m| m <= EARLY_CASTLE)));
            e.1 += 1.0;
        }
        if s.side_moves > LATE_CASTLE {
            let l = late.entry(s.game).or_default();
            l.0 += f64::from(u8::from(s.castled_at.is_none_or(|m| m > LATE_CASTLE)));
            l.1 += 1.0;
        }
    }
    let lengths: Vec<(f64, f64)> = per_game.values().map(|g| (g.0, 1.0)).collect();
    let length = {
        let n = lengths.len() as f64;
        let mean = lengths.iter().map(|l| l.0).sum::<f64>() / n;
        let (lo, hi) = stats::bootstrap_ratio(&lengths).unwrap_or((f64::NAN, f64::NAN));
        Estimate { value: if n > 0.0 { mean } else { f64::NAN }, lo, hi, n, method: "bootstrap" }
    };
    let draws: Vec<(f64, f64)> = per_game.values().filter_map(|g| g.1.map(|d| (f64::from(u8::from(d)), 1.0))).collect();
    vec![
        Row { key: "game_length", kind: Kind::Mean, definition: "full moves per game; of games", estimate: length },
        Row {
            key: "draw",
            kind: Kind::Percent,
            definition: "games drawn; of games with a result",
            estimate: stats::rate(&draws),
        },
        Row {
            key: "castle_early",
            kind: Kind::Percent,
            definition: "sides that castled by their 10th move; of sides that made 10 moves",
            estimate: stats::rate(&early.into_values().collect::<Vec<_>>()),
        },
        Row {
            key: "castle_late",
            kind: Kind::Percent,
            definition: "sides that castled after their 15th move or never; of sides that made more than 15",
            estimate: stats::rate(&late.into_values().collect::<Vec<_>>()),
        },
    ]
}

/// Paired rows of two settings' facts on the same positions: `(cluster, facts A, facts B)`.
pub fn diff_rows(pairs: &[(usize, Facts, Facts)]) -> Vec<DiffRow> {
    Rate::ALL
        .iter()
        .map(|&r| {
            let mut per: BTreeMap<usize, (f64, f64, f64)> = BTreeMap::new();
            for (cluster, a, b) in pairs {
                // Both settings answer the same position, so a rate's denominator is shared.
                if let (Some(x), Some(y)) = (a[r as usize], b[r as usize]) {
                    let c = per.entry(*cluster).or_default();
                    c.0 += f64::from(u8::from(x));
                    c.1 += f64::from(u8::from(y));
                    c.2 += 1.0;
                }
            }
            let cl: Vec<stats::Paired> = per.into_values().collect();
            let a: Vec<(f64, f64)> = cl.iter().map(|c| (c.0, c.2)).collect();
            let b: Vec<(f64, f64)> = cl.iter().map(|c| (c.1, c.2)).collect();
            DiffRow {
                key: r.key(),
                kind: Kind::Percent,
                a: stats::rate(&a),
                b: stats::rate(&b),
                diff: stats::diff(&cl),
            }
        })
        .collect()
}

fn num(kind: Kind, x: f64) -> String {
    if x.is_nan() {
        "-".to_string()
    } else if kind == Kind::Percent {
        format!("{:.1}", 100.0 * x)
    } else {
        format!("{x:.1}")
    }
}

fn unit(kind: Kind) -> &'static str {
    if kind == Kind::Percent { " %" } else { "" }
}

/// The fingerprint as an aligned text table.
pub fn table(title: &str, rows: &[Row]) -> String {
    let mut s = format!("{title}\n");
    let _ = writeln!(s, "{:<18} {:>7} {:>9}  95 % interval", "rate", "n", "value");
    for r in rows {
        let e = &r.estimate;
        let _ = writeln!(
            s,
            "{:<18} {:>7} {:>7}{} [{}, {}]",
            r.key,
            e.n,
            num(r.kind, e.value),
            unit(r.kind),
            num(r.kind, e.lo),
            num(r.kind, e.hi)
        );
    }
    s
}

/// The comparison as an aligned text table.
pub fn diff_table(title: &str, a: &str, b: &str, rows: &[DiffRow]) -> String {
    let mut s = format!("{title}\nA = {a}\nB = {b}\n");
    let _ = writeln!(s, "{:<18} {:>6} {:>8} {:>8} {:>8}  95 % interval (paired)", "rate", "n", "A %", "B %", "B-A");
    for r in rows {
        let _ = writeln!(
            s,
            "{:<18} {:>6} {:>8} {:>8} {:>8}  [{}, {}]",
            r.key,
            r.diff.n,
            num(r.kind, r.a.value),
            num(r.kind, r.b.value),
            num(r.kind, r.diff.value),
            num(r.kind, r.diff.lo),
            num(r.kind, r.diff.hi)
        );
    }
    s
}

/// CSV: `rate,n,value,lo,hi,method` (proportions as fractions).
pub fn csv(rows: &[Row]) -> String {
    let mut s = "rate,n,value,lo,hi,method\n".to_string();
    for r in rows {
        let e = &r.estimate;
        let _ = writeln!(s, "{},{},{:.6},{:.6},{:.6},{}", r.key, e.n, e.value, e.lo, e.hi, e.method);
    }
    s
}

/// CSV of a comparison: `rate,n,a,b,diff,lo,hi`.
pub fn diff_csv(rows: &[DiffRow]) -> String {
    let mut s = "rate,n,a,b,diff,lo,hi\n".to_string();
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{:.6},{:.6},{:.6},{:.6},{:.6}",
            r.key, r.diff.n, r.a.value, r.b.value, r.diff.value, r.diff.lo, r.diff.hi
        );
    }
    s
}

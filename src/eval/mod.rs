//! The term-grouped, tapered classical evaluator (SPEC section 2).
//!
//! `EvalInfo` computes piece sets and attack maps once; each of the 13 term groups (one file
//! each) then returns a (middlegame, endgame) score per side. `EvalConfig` is applied in exactly
//! one place, [`apply`]: a disabled group contributes nothing (and is not even computed), an
//! enabled one contributes `(White - Black) * weight / 100` for middlegame and endgame
//! separately (or, in a configuration that takes a side, each side's value times its own
//! weight: an avatar's `own.`/`opp.` entries). The Winnable group is computed last from the weighted sum of the other twelve.
//! The total is tapered by the game phase, and a small tempo bonus for the side to move is added
//! outside the groups.

mod bb;
mod bishop;
mod config;
mod imbalance;
mod info;
mod king;
mod knight;
mod material;
mod mobility;
pub mod params;
mod passed;
mod pawn_cache;
mod pawns;
mod queen;
mod rook;
mod score;
mod space;
mod threats;
mod winnable;

use std::fmt;

pub use config::{EvalConfig, SidedWeights, Term};
pub use params::{Params, TUNED, Weights};
pub use score::S;

use shakmaty::{Chess, Color, Position};

use bb::COLORS;
use info::EvalInfo;

/// Game phase of a middlegame with all pieces on the board (N, B = 1, R = 2, Q = 4 each).
pub const MAX_PHASE: i32 = 24;

/// Per-group breakdown of one evaluation, as printed by the UCI `eval` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Raw (unweighted) value of each group for White and for Black, each from its own side's
    /// point of view (positive = good for that side). Zero for disabled groups.
    pub white: [S; Term::COUNT],
    pub black: [S; Term::COUNT],
    pub enabled: [bool; Term::COUNT],
    pub mg_weight: [u16; Term::COUNT],
    pub eg_weight: [u16; Term::COUNT],
    /// The opponent's weights of a configuration that takes a side ([`EvalConfig::sided`]).
    pub sided: Option<SidedWeights>,
    /// Contribution of each group after the configuration: `(white - black) * weight / 100`.
    pub weighted: [S; Term::COUNT],
    /// Sum of `weighted`.
    pub total: S,
    pub phase: i32,
    pub turn: Color,
    /// Tempo bonus from White's point of view.
    pub tempo_white: i32,
    /// Final evaluation from White's point of view (tapered total plus tempo).
    pub white_eval: i32,
    /// Final evaluation from the side to move's point of view.
    pub stm_eval: i32,
}

impl Trace {
    /// The tapered, weighted contribution of one group (White's view).
    pub fn tapered(&self, t: Term) -> i32 {
        self.weighted[t.index()].taper(self.phase)
    }
}

/// The one place where the configuration touches a group's score.
#[inline(always)]
fn apply(cfg: &EvalConfig, t: Term, white: S, black: S) -> S {
    let i = t.index();
    if !cfg.enabled[i] {
        return S::ZERO;
    }
    match &cfg.sided {
        None => {
            let d = white - black;
            S(d.mg * cfg.mg_weight[i] as i32 / 100, d.eg * cfg.eg_weight[i] as i32 / 100)
        }
        Some(s) => {
            let (own, them) =
                (S(cfg.mg_weight[i] as i32, cfg.eg_weight[i] as i32), S(s.them_mg[i] as i32, s.them_eg[i] as i32));
            let (w, b) = if s.us == Color::White { (own, them) } else { (them, own) };
            S((white.mg * w.mg - black.mg * b.mg) / 100, (white.eg * w.eg - black.eg * b.eg) / 100)
        }
    }
}

#[inline(always)]
fn group(t: Term, info: &EvalInfo, c: Color, p: &Params) -> S {
    let w = &p.w;
    match t {
        Term::Material => material::eval(info, c, &p.psq),
        Term::Imbalance => imbalance::eval(info, c, &w.imbalance),
        Term::PawnStructure => pawns::eval(info, c, &w.pawns, p.tag),
        Term::Knight => knight::eval(info, c, &w.knight),
        Term::Bishop => bishop::eval(info, c, &w.bishop, w.knight.minor_behind_pawn),
        Term::Rook => rook::eval(info, c, &w.rook),
        Term::Queen => queen::eval(info, c, &w.queen),
        Term::Mobility => mobility::eval(info, c),
        Term::KingSafety => king::eval(info, c, &w.king, p.tag),
        Term::Threats => threats::eval(info, c, &w.threats),
        Term::PassedPawns => passed::eval(info, c, &w.passed),
        Term::Space => space::eval(info, c),
        Term::Winnable => S::ZERO,
    }
}

/// Full evaluation with its per-group breakdown, with the evaluator's values ([`TUNED`]).
pub fn trace(pos: &Chess, cfg: &EvalConfig) -> Trace {
    trace_with(pos, cfg, &TUNED)
}

/// Full evaluation with its per-group breakdown, with explicit values (the tuner's candidates).
pub fn trace_with(pos: &Chess, cfg: &EvalConfig, p: &Params) -> Trace {
    let mut white = [S::ZERO; Term::COUNT];
    let mut black = [S::ZERO; Term::COUNT];
    let mut weighted = [S::ZERO; Term::COUNT];
    let sum = compute(pos, cfg, p, |t, w, b, applied| {
        (white[t.index()], black[t.index()], weighted[t.index()]) = (w, b, applied);
    });
    Trace {
        white,
        black,
        enabled: cfg.enabled,
        mg_weight: cfg.mg_weight,
        eg_weight: cfg.eg_weight,
        sided: cfg.sided.as_deref().copied(),
        weighted,
        total: sum.total,
        phase: sum.phase,
        turn: pos.turn(),
        tempo_white: sum.tempo_white,
        white_eval: sum.white_eval(),
        stm_eval: sum.stm_eval(pos.turn()),
    }
}

/// What one evaluation adds up to (the totals a [`Trace`] also holds).
struct Sum {
    total: S,
    phase: i32,
    tempo_white: i32,
}

impl Sum {
    /// Tapered total plus tempo, White's view.
    fn white_eval(&self) -> i32 {
        self.total.taper(self.phase) + self.tempo_white
    }

    fn stm_eval(&self, turn: Color) -> i32 {
        if turn == Color::White { self.white_eval() } else { -self.white_eval() }
    }
}

/// The evaluation's one computation: every enabled group's White and Black score, weighted by the
/// configuration ([`apply`]) and summed, `Winnable` last on the weighted sum; then the phase and the
/// tempo. `seen` gets each group's (White, Black, weighted) score as it is made: the [`Trace`]
/// records them, the search's [`evaluate`] keeps nothing but the sum.
#[inline(always)]
fn compute(pos: &Chess, cfg: &EvalConfig, p: &Params, mut seen: impl FnMut(Term, S, S, S)) -> Sum {
    let info = EvalInfo::new(pos, &p.w);
    let mut total = S::ZERO;
    for t in Term::ALL {
        if t == Term::Winnable || !cfg.enabled[t.index()] {
            continue;
        }
        let (w, b) = (group(t, &info, COLORS[0], p), group(t, &info, COLORS[1], p));
        let applied = apply(cfg, t, w, b);
        seen(t, w, b, applied);
        total += applied;
    }
    if cfg.enabled[Term::Winnable.index()] {
        let (w, b) = winnable::eval(&info, total);
        let applied = apply(cfg, Term::Winnable, w, b);
        seen(Term::Winnable, w, b, applied);
        total += applied;
    }
    let tempo_white = if pos.turn() == Color::White { p.w.tempo } else { -p.w.tempo };
    Sum { total, phase: info.phase(), tempo_white }
}

/// Static evaluation in centipawns from the side to move's point of view (no [`Trace`] is built).
#[inline]
pub fn evaluate(pos: &Chess, cfg: &EvalConfig) -> i32 {
    compute(pos, cfg, &TUNED, |_, _, _, _| {}).stm_eval(pos.turn())
}

/// Static evaluation in centipawns from White's point of view.
#[inline]
pub fn evaluate_white(pos: &Chess, cfg: &EvalConfig) -> i32 {
    compute(pos, cfg, &TUNED, |_, _, _, _| {}).white_eval()
}

fn pawns(v: i32) -> String {
    format!("{:6.2}", v as f64 / 100.0)
}

impl fmt::Display for Trace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "           Term |    White    |    Black    |    Total    |")?;
        writeln!(f, "                |   MG    EG  |   MG    EG  |   MG    EG  |")?;
        writeln!(f, " ---------------+-------------+-------------+-------------+")?;
        for t in Term::ALL {
            let i = t.index();
            write!(f, " {:>14} |", t.name())?;
            if !self.enabled[i] {
                writeln!(f, "   --    --  |   --    --  |   --    --  | (off)")?;
                continue;
            }
            let (w, b, n) = (self.white[i], self.black[i], self.weighted[i]);
            write!(
                f,
                "{}{} |{}{} |{}{} |",
                pawns(w.mg),
                pawns(w.eg),
                pawns(b.mg),
                pawns(b.eg),
                pawns(n.mg),
                pawns(n.eg)
            )?;
            match &self.sided {
                None if self.mg_weight[i] != 100 || self.eg_weight[i] != 100 => {
                    write!(f, " mg {}% eg {}%", self.mg_weight[i], self.eg_weight[i])?;
                }
                Some(s)
                    if self.mg_weight[i] != 100
                        || self.eg_weight[i] != 100
                        || s.them_mg[i] != 100
                        || s.them_eg[i] != 100 =>
                {
                    let name = |c: Color| if c == Color::White { "White" } else { "Black" };
                    write!(
                        f,
                        " {} mg {}% eg {}%, {} mg {}% eg {}%",
                        name(s.us),
                        self.mg_weight[i],
                        self.eg_weight[i],
                        name(!s.us),
                        s.them_mg[i],
                        s.them_eg[i]
                    )?;
                }
                _ => {}
            }
            writeln!(f)?;
        }
        writeln!(f, " ---------------+-------------+-------------+-------------+")?;
        writeln!(
            f,
            " {:>14} |             |             |{}{} |",
            "Total",
            pawns(self.total.mg),
            pawns(self.total.eg)
        )?;
        writeln!(f)?;
        writeln!(f, "Phase: {}/{}", self.phase, MAX_PHASE)?;
        writeln!(f, "Tempo: {:+.2} (white side)", self.tempo_white as f64 / 100.0)?;
        writeln!(
            f,
            "Final evaluation: {:+.2} (white side), {:+.2} (side to move)",
            self.white_eval as f64 / 100.0,
            self.stm_eval as f64 / 100.0
        )?;
        let off: Vec<&str> = Term::ALL.into_iter().filter(|t| !self.enabled[t.index()]).map(|t| t.name()).collect();
        writeln!(f, "Disabled groups: {}", if off.is_empty() { "none".to_string() } else { off.join(", ") })
    }
}

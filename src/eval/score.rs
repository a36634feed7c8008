//! Tapered scores: a middlegame and an endgame value packed together, as `S(mg, eg)`.

use serde::{Deserialize, Serialize};
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A (middlegame, endgame) pair in centipawns.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug, Hash, Serialize, Deserialize)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand constructor, as in Weiss: `S(mg, eg)`.
#[allow(non_snake_case)]
pub const fn S(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl S {
    pub const ZERO: S = S(0, 0);

    /// Interpolates between middlegame and endgame by `phase` in 0..=MAX_PHASE (MAX_PHASE = middlegame).
    pub fn taper(self, phase: i32) -> i32 {
        (self.mg * phase + self.eg * (super::MAX_PHASE - phase)) / super::MAX_PHASE
    }
}

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.mg + o.mg, self.eg + o.eg)
    }
}
impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.mg - o.mg, self.eg - o.eg)
    }
}
impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}
impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}
impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.mg, -self.eg)
    }
}
impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.mg * k, self.eg * k)
    }
}

//! Quiet-move history (butterfly table by side, from, to), killers and counter moves.

use super::MAX_PLY;
use super::movepick::encode;
use super::parameters::{HISTORY_BONUS_MAX, HISTORY_MAX};
use shakmaty::{Color, Move};

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    pub killers: [[u16; 2]; MAX_PLY + 4],
    counters: Box<[[u16; 64]; 64]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            killers: [[0; 2]; MAX_PLY + 4],
            counters: Box::new([[0; 64]; 64]),
        }
    }
}

#[inline]
fn squares(m: Move) -> (usize, usize) {
    (m.from().map_or(0, |s| s as usize), m.to() as usize)
}

impl History {
    pub fn clear(&mut self) {
        *self = History::default();
    }

    /// Clears what must not leak from one root position to another (killers).
    pub fn new_search(&mut self) {
        self.killers = [[0; 2]; MAX_PLY + 4];
    }

    #[inline]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        let (f, t) = squares(m);
        self.butterfly[side as usize][f][t]
    }

    pub fn counter(&self, prev: Option<Move>) -> u16 {
        prev.map_or(0, |p| {
            let (f, t) = squares(p);
            self.counters[f][t]
        })
    }

    /// Rewards the quiet move that caused a cutoff and punishes the quiets tried before it.
    pub fn update(&mut self, side: Color, best: Move, tried: &[Move], depth: i32, ply: usize, prev: Option<Move>) {
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.adjust(side, best, bonus);
        for &m in tried {
            if m != best {
                self.adjust(side, m, -bonus);
            }
        }
        let code = encode(best);
        if self.killers[ply][0] != code {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = code;
        }
        if let Some(p) = prev {
            let (f, t) = squares(p);
            self.counters[f][t] = code;
        }
    }

    fn adjust(&mut self, side: Color, m: Move, bonus: i32) {
        let (f, t) = squares(m);
        let e = &mut self.butterfly[side as usize][f][t];
        *e += bonus - *e * bonus.abs() / HISTORY_MAX;
    }
}

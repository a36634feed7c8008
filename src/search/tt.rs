//! Transposition table: one 16-byte entry per slot, depth-preferred with ageing.

use super::{MATE_BOUND, MAX_PLY};

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// Does a stored `score` with this bound decide the window (alpha, beta)?
    #[inline]
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// bound in the low 2 bits, generation in the high 6.
    flags: u8,
}

/// What a probe finds.
#[derive(Copy, Clone, Debug)]
pub struct Hit {
    pub mv: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    entries: Vec<Entry>,
    generation: u8,
}

const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable { entries: Vec::new(), generation: 0 };
        tt.resize(mb);
        tt
    }

    pub fn resize(&mut self, mb: usize) {
        let n = (mb.max(1) * 1024 * 1024 / ENTRY_BYTES).max(1024);
        self.entries = Vec::new();
        self.entries = vec![Entry::default(); n];
        self.generation = 0;
    }

    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.generation = 0;
    }

    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let e = &self.entries[self.index(key)];
        if e.key != key || e.flags & 3 == 0 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Hit {
            mv: e.mv,
            score: score_from_tt(e.score as i32, ply),
            eval: e.eval as i32,
            depth: e.depth as i32,
            bound,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(&mut self, key: u64, mv: u16, score: i32, eval: i32, depth: i32, bound: Bound, ply: usize) {
        let generation = self.generation;
        let idx = self.index(key);
        let e = &mut self.entries[idx];
        let same = e.key == key;
        let old_gen = e.flags >> 2;
        if !same && old_gen == generation && (e.depth as i32) > depth + 3 && bound != Bound::Exact {
            return;
        }
        if same && bound != Bound::Exact && (e.depth as i32) > depth + 2 && old_gen == generation {
            return;
        }
        let keep_move = same && mv == 0;
        *e = Entry {
            key,
            mv: if keep_move { e.mv } else { mv },
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(-30_000, 30_000) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (generation << 2) | bound as u8,
        };
    }

    /// Permille of the first 1000 slots used in the current search generation.
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n].iter().filter(|e| e.flags & 3 != 0 && e.flags >> 2 == self.generation).count();
        (used * 1000 / n) as u32
    }
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    let _ = MAX_PLY;
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

//! Transposition table: one 16-byte slot per entry, depth-preferred with ageing, shared by the
//! search threads without locks.

use super::parameters::{TT_REPLACE_OTHER_DEPTH_MARGIN, TT_REPLACE_SAME_DEPTH_MARGIN};
use super::{MATE_BOUND, MAX_PLY};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

/// One slot: the position key XOR-ed with the packed data, and the data. Threads read and write
/// slots without locks; a slot torn by two simultaneous writers fails the key check and reads as a
/// miss (Hyatt's lockless hashing), so a probe never returns another position's data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The unpacked contents of a slot.
#[derive(Copy, Clone, Default)]
struct Entry {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// bound in the low 2 bits, generation in the high 6.
    flags: u8,
}

impl Entry {
    #[inline]
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.eval as u16 as u64) << 32
            | (self.depth as u64) << 48
            | (self.flags as u64) << 56
    }

    #[inline]
    fn unpack(d: u64) -> Entry {
        Entry {
            mv: d as u16,
            score: (d >> 16) as u16 as i16,
            eval: (d >> 32) as u16 as i16,
            depth: (d >> 48) as u8,
            flags: (d >> 56) as u8,
        }
    }
}

/// What a probe finds and what a store records (mate scores counted from the root; the table keeps
/// them relative to the node).
#[derive(Copy, Clone, Debug)]
pub struct Record {
    pub mv: u16,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// Shared by every search thread (`&self` for probe and store); resizing and clearing need `&mut`.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl TranspositionTable {
    pub fn new(mb: usize) -> TranspositionTable {
        let mut tt = TranspositionTable { slots: Vec::new(), generation: AtomicU8::new(0) };
        tt.resize(mb);
        tt
    }

    pub fn resize(&mut self, mb: usize) {
        let n = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1024);
        self.slots = Vec::new();
        self.slots = std::iter::repeat_with(Slot::default).take(n).collect();
        *self.generation.get_mut() = 0;
    }

    pub fn clear(&mut self) {
        for s in self.slots.iter_mut() {
            *s.check.get_mut() = 0;
            *s.data.get_mut() = 0;
        }
        *self.generation.get_mut() = 0;
    }

    pub fn new_search(&mut self) {
        let g = self.generation.get_mut();
        *g = (*g + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The slot's entry if it holds `key`.
    #[inline]
    fn read(&self, idx: usize, key: u64) -> Option<Entry> {
        let s = &self.slots[idx];
        let data = s.data.load(Ordering::Relaxed);
        let check = s.check.load(Ordering::Relaxed);
        (check ^ data == key && data != 0).then(|| Entry::unpack(data))
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Record> {
        let e = self.read(self.index(key), key)?;
        if e.flags & 3 == 0 {
            return None;
        }
        let bound = match e.flags & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Record {
            mv: e.mv,
            score: score_from_tt(e.score as i32, ply),
            eval: e.eval as i32,
            depth: e.depth as i32,
            bound,
        })
    }

    /// Records what a search of the node `key` at `ply` found, unless the slot holds a deeper entry
    /// of this search that is worth more (the replacement margins are in `parameters.rs`).
    pub fn store(&self, key: u64, ply: usize, record: Record) {
        let Record { mv, score, eval, depth, bound } = record;
        let generation = self.generation.load(Ordering::Relaxed);
        let idx = self.index(key);
        let slot = &self.slots[idx];
        let old_data = slot.data.load(Ordering::Relaxed);
        let old = Entry::unpack(old_data);
        let same = self.read(idx, key).is_some();
        let old_gen = old.flags >> 2;
        if !same
            && old_gen == generation
            && (old.depth as i32) > depth + TT_REPLACE_OTHER_DEPTH_MARGIN
            && bound != Bound::Exact
        {
            return;
        }
        if same
            && bound != Bound::Exact
            && (old.depth as i32) > depth + TT_REPLACE_SAME_DEPTH_MARGIN
            && old_gen == generation
        {
            return;
        }
        let keep_move = same && mv == 0;
        let data = Entry {
            mv: if keep_move { old.mv } else { mv },
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(-30_000, 30_000) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (generation << 2) | bound as u8,
        }
        .pack();
        slot.check.store(key ^ data, Ordering::Relaxed);
        slot.data.store(data, Ordering::Relaxed);
    }

    /// Permille of the first 1000 slots used in the current search generation.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .map(|s| Entry::unpack(s.data.load(Ordering::Relaxed)))
            .filter(|e| e.flags & 3 != 0 && e.flags >> 2 == generation)
            .count();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn store_then_probe_round_trips_every_field() {
        let mut tt = TranspositionTable::new(1);
        tt.new_search();
        let key = 0x9E37_79B9_7F4A_7C15;
        for (score, eval, depth, bound) in
            [(-1234, -29_999, 0, Bound::Upper), (MATE - 7, 0, 13, Bound::Lower), (417, 30_000, 255, Bound::Exact)]
        {
            tt.store(key, 3, Record { mv: 0x0ABC, score, eval, depth, bound });
            let h = tt.probe(key, 3).expect("hit");
            assert_eq!((h.mv, h.score, h.eval, h.depth, h.bound), (0x0ABC, score, eval, depth, bound));
        }
        // A deep entry of this search is not replaced by a shallow bound of the same position.
        tt.store(key, 3, Record { mv: 0x0DEF, score: 5, eval: 5, depth: 3, bound: Bound::Lower });
        assert_eq!(tt.probe(key, 3).unwrap().depth, 255);
        // A mate score is stored relative to the node, so it reads back shifted at another ply.
        tt.store(key ^ 2, 3, Record { mv: 0, score: MATE - 7, eval: 0, depth: 1, bound: Bound::Exact });
        assert_eq!(tt.probe(key ^ 2, 5).unwrap().score, MATE - 9);
        assert!(tt.probe(key ^ 1, 3).is_none());
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        let (a, b) = (0x1111_0000_0000_0001u64, 0x1111_0000_0000_0003u64);
        assert_eq!(tt.index(a), tt.index(b), "both keys must share a slot for this test");
        tt.store(a, 0, Record { mv: 1, score: 10, eval: 10, depth: 5, bound: Bound::Exact });
        let slot = &tt.slots[tt.index(a)];
        // Writer B got its data in but not its check word: neither key may match.
        let torn = Entry { mv: 2, score: 99, eval: 99, depth: 9, flags: 3 }.pack();
        slot.data.store(torn, Ordering::Relaxed);
        assert!(tt.probe(a, 0).is_none());
        assert!(tt.probe(b, 0).is_none());
    }

    #[test]
    fn clear_empties_and_hashfull_counts_this_search() {
        let mut tt = TranspositionTable::new(1);
        for k in 0..20_000u64 {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                0,
                Record { mv: 0, score: 0, eval: 0, depth: 1, bound: Bound::Exact },
            );
        }
        assert!(tt.hashfull() > 0);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0, "entries of an older search are not counted");
        tt.clear();
        assert!(tt.probe(0x9E37_79B9_7F4A_7C15 | 1, 0).is_none());
    }
}

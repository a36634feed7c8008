//! Per-thread caches of what depends only on the pawns: the PawnStructure group of both colours,
//! and the king's pawn shelter (which also depends on the king square and castling rights).
//! Every entry keeps its whole key, so a hit is exact: the caches change the speed of `evaluate`,
//! never a score (both bench signatures are unchanged by them).

use std::cell::RefCell;

use super::score::S;

/// Entries per cache (a power of two); about 0.4 MB (pawns) and 0.6 MB (king) per thread.
const PAWN_ENTRIES: usize = 1 << 14;
const KING_ENTRIES: usize = 1 << 14;

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white: u64,
    black: u64,
    /// The weights' tag; 0 = empty.
    tag: u32,
    score: [S; 2],
}

#[derive(Clone, Copy, Default)]
struct KingEntry {
    white: u64,
    black: u64,
    tag: u32,
    /// King square, colour and castling rights, packed; `u32::MAX` = empty.
    king: u32,
    value: (S, S),
}

thread_local! {
    static PAWNS: RefCell<Vec<PawnEntry>> = RefCell::new(vec![PawnEntry::default(); PAWN_ENTRIES]);
    static KINGS: RefCell<Vec<KingEntry>> =
        RefCell::new(vec![KingEntry { king: u32::MAX, ..KingEntry::default() }; KING_ENTRIES]);
}

#[inline]
fn mix(white: u64, black: u64, extra: u64) -> u64 {
    let h =
        (white ^ extra.rotate_left(17)).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^ (h >> 29)
}

/// The PawnStructure scores `[white, black]` of these pawns under the weights tagged `tag`, from
/// the cache or from `compute` (always from `compute` when `tag` is 0, i.e. uncached weights).
#[inline]
pub fn pawn_structure(white: u64, black: u64, tag: u32, compute: impl FnOnce() -> [S; 2]) -> [S; 2] {
    if tag == 0 {
        return compute();
    }
    let i = (mix(white, black, 0) as usize) & (PAWN_ENTRIES - 1);
    PAWNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let e = &mut cache[i];
        if e.tag == tag && e.white == white && e.black == black {
            return e.score;
        }
        let score = compute();
        *e = PawnEntry { white, black, tag, score };
        score
    })
}

/// A king's pawn terms for `king` (square, colour and castling rights packed by the caller, below
/// `u32::MAX`) with these pawns under the weights tagged `tag`, from the cache or from `compute`
/// (always from `compute` when `tag` is 0).
#[inline]
pub fn king_pawns(white: u64, black: u64, king: u32, tag: u32, compute: impl FnOnce() -> (S, S)) -> (S, S) {
    debug_assert!(king != u32::MAX);
    if tag == 0 {
        return compute();
    }
    let i = (mix(white, black, u64::from(king) + 1) as usize) & (KING_ENTRIES - 1);
    KINGS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let e = &mut cache[i];
        if e.tag == tag && e.king == king && e.white == white && e.black == black {
            return e.value;
        }
        let value = compute();
        *e = KingEntry { white, black, tag, king, value };
        value
    })
}

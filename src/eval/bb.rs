//! Raw `u64` bitboard helpers used throughout the evaluator (square 0 = a1, 63 = h8).

use shakmaty::{Color, Square};

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xff;
pub const QUEEN_SIDE: u64 = 0x0f0f_0f0f_0f0f_0f0f;
pub const KING_SIDE: u64 = !QUEEN_SIDE;
pub const CENTER_FILES: u64 = 0x3c3c_3c3c_3c3c_3c3c;
pub const CENTER: u64 = 0x0000_0018_1800_0000;
pub const DARK: u64 = 0xaa55_aa55_aa55_aa55;

/// Colour index used for per-side arrays: White = 0, Black = 1.
#[inline(always)]
pub const fn ci(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The two colours in index order.
pub const COLORS: [Color; 2] = [Color::White, Color::Black];

#[inline(always)]
pub const fn bit(sq: Square) -> u64 {
    1u64 << sq.to_u32()
}

#[inline(always)]
pub const fn sq_of(i: u32) -> Square {
    Square::new(i)
}

#[inline(always)]
pub const fn file_bb(f: u32) -> u64 {
    FILE_A << f
}

#[inline(always)]
pub const fn rank_bb(r: u32) -> u64 {
    RANK_1 << (8 * r)
}

#[inline(always)]
pub const fn popcnt(b: u64) -> i32 {
    b.count_ones() as i32
}

#[inline(always)]
pub const fn more_than_one(b: u64) -> bool {
    b & b.wrapping_sub(1) != 0
}

#[inline(always)]
pub const fn east(b: u64) -> u64 {
    (b & !FILE_H) << 1
}

#[inline(always)]
pub const fn west(b: u64) -> u64 {
    (b & !FILE_A) >> 1
}

/// One rank towards the opponent of `c`.
#[inline(always)]
pub const fn up(c: Color, b: u64) -> u64 {
    match c {
        Color::White => b << 8,
        Color::Black => b >> 8,
    }
}

/// One rank towards `c`'s own back rank.
#[inline(always)]
pub const fn down(c: Color, b: u64) -> u64 {
    match c {
        Color::White => b >> 8,
        Color::Black => b << 8,
    }
}

/// Squares attacked by pawns of colour `c` standing on `b`.
#[inline(always)]
pub const fn pawn_attacks(c: Color, b: u64) -> u64 {
    let f = up(c, b);
    east(f) | west(f)
}

/// Squares attacked twice by pawns of colour `c` standing on `b`.
#[inline(always)]
pub const fn pawn_double_attacks(c: Color, b: u64) -> u64 {
    let f = up(c, b);
    east(f) & west(f)
}

#[inline(always)]
pub const fn fill_north(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
    b
}

#[inline(always)]
pub const fn fill_south(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
    b
}

/// `b` smeared forward (towards the opponent) for colour `c`, including `b` itself.
#[inline(always)]
pub const fn fill_forward(c: Color, b: u64) -> u64 {
    match c {
        Color::White => fill_north(b),
        Color::Black => fill_south(b),
    }
}

/// `b` smeared backward (towards own back rank) for colour `c`, including `b` itself.
#[inline(always)]
pub const fn fill_backward(c: Color, b: u64) -> u64 {
    match c {
        Color::White => fill_south(b),
        Color::Black => fill_north(b),
    }
}

/// Squares strictly in front of `sq` on its file, from `c`'s point of view.
#[inline(always)]
pub const fn front_file(c: Color, sq: Square) -> u64 {
    fill_forward(c, up(c, bit(sq)))
}

/// Squares strictly in front of `sq` on the adjacent files (where enemy pawns could meet it).
#[inline(always)]
pub const fn attack_span(c: Color, sq: Square) -> u64 {
    let b = bit(sq);
    fill_forward(c, up(c, east(b) | west(b)))
}

/// Squares in front of `sq` on its own and the adjacent files.
#[inline(always)]
pub const fn passed_span(c: Color, sq: Square) -> u64 {
    front_file(c, sq) | attack_span(c, sq)
}

#[inline(always)]
pub const fn adjacent_files(sq: Square) -> u64 {
    let f = file_bb(sq.file().to_u32());
    east(f) | west(f)
}

/// All squares on ranks strictly ahead of `sq` for colour `c`.
#[inline(always)]
pub const fn forward_ranks(c: Color, sq: Square) -> u64 {
    let r = sq.rank().to_u32();
    match c {
        Color::White => {
            if r == 7 {
                0
            } else {
                !0u64 << (8 * (r + 1))
            }
        }
        Color::Black => {
            if r == 0 {
                0
            } else {
                !0u64 >> (8 * (8 - r))
            }
        }
    }
}

/// Rank of `sq` counted from `c`'s back rank (0..=7).
#[inline(always)]
pub const fn rel_rank(c: Color, sq: Square) -> i32 {
    let r = sq.rank().to_u32() as i32;
    match c {
        Color::White => r,
        Color::Black => 7 - r,
    }
}

/// The rank `r` (0-based, from `c`'s back rank) as a bitboard.
#[inline(always)]
pub const fn rel_rank_bb(c: Color, r: u32) -> u64 {
    match c {
        Color::White => rank_bb(r),
        Color::Black => rank_bb(7 - r),
    }
}

/// The square of `b` least advanced from `c`'s point of view (b must be non-empty).
#[inline(always)]
pub const fn backmost(c: Color, b: u64) -> Square {
    match c {
        Color::White => sq_of(b.trailing_zeros()),
        Color::Black => sq_of(63 - b.leading_zeros()),
    }
}

/// Distance of a file from the nearest board edge (0..=3).
#[inline(always)]
pub const fn edge_distance(f: u32) -> usize {
    let g = 7 - f;
    (if f < g { f } else { g }) as usize
}

/// Files around a king on file `f` (its "flank").
#[inline(always)]
pub const fn king_flank(f: u32) -> u64 {
    match f {
        0 => QUEEN_SIDE ^ file_bb(3),
        1 | 2 => QUEEN_SIDE,
        3 | 4 => CENTER_FILES,
        5 | 6 => KING_SIDE,
        _ => KING_SIDE ^ file_bb(4),
    }
}

/// Iterates the squares of a raw bitboard.
#[derive(Copy, Clone)]
pub struct Iter(pub u64);

impl Iterator for Iter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(sq_of(s))
        }
    }
}

#[inline(always)]
pub const fn squares(b: u64) -> Iter {
    Iter(b)
}

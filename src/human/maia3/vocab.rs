//! The model's move vocabulary (4352 outputs), seen from the side to move:
//!
//! - index `from · 64 + to` (0..4096) for every (from, to) pair of squares, a1 = 0 … h8 = 63, for
//!   every move that is not a promotion, castling as the king's two-square step (`e1g1`);
//! - index `4096 + (from_file · 8 + to_file) · 4 + piece` for a promotion from the 7th to the 8th
//!   rank, piece 0..4 = queen, rook, bishop, knight (queen promotions too).
//!
//! When Black is to move the board is seen flipped (rank r ↔ 9 - r, colours swapped), and so are
//! its moves: a Black move is looked up with both squares mirrored vertically.

use shakmaty::{CastlingSide, Color, Move, Role, Square};

pub const VOCAB: usize = 4352;
/// Outputs of the from × to part.
pub const SQUARE_PAIRS: usize = 4096;

/// The square a move's king lands on for castling, its plain destination otherwise.
fn destination(m: &Move) -> Square {
    match *m {
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
            Square::from_coords(side.king_to_file(), king.rank())
        }
        _ => m.to(),
    }
}

/// The vocabulary index of a legal move made by `turn` (`None` for a drop, which chess has not).
pub fn index(m: &Move, turn: Color) -> Option<usize> {
    let from = m.from()?;
    let to = destination(m);
    let (from, to) = match turn {
        Color::White => (from, to),
        Color::Black => (from.flip_vertical(), to.flip_vertical()),
    };
    match m.promotion() {
        None => Some(usize::from(from) * 64 + usize::from(to)),
        Some(role) => {
            let piece = match role {
                Role::Queen => 0,
                Role::Rook => 1,
                Role::Bishop => 2,
                Role::Knight => 3,
                _ => return None,
            };
            Some(SQUARE_PAIRS + (usize::from(from.file()) * 8 + usize::from(to.file())) * 4 + piece)
        }
    }
}

/// The UCI text of a vocabulary index as White would play it (`e2e4`, `a7a8q`), for messages.
pub fn name(index: usize) -> String {
    if index < SQUARE_PAIRS {
        format!("{}{}", Square::new((index / 64) as u32), Square::new((index % 64) as u32))
    } else {
        let i = index - SQUARE_PAIRS;
        let files = b"abcdefgh";
        let (ff, tf, p) = (i / 32, (i / 4) % 8, i % 4);
        format!("{}7{}8{}", files[ff] as char, files[tf] as char, ['q', 'r', 'b', 'n'][p])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn indices_are_distinct_and_in_range() {
        let pos = Chess::default();
        let mut seen = std::collections::HashSet::new();
        for m in pos.legal_moves() {
            let i = index(&m, Color::White).unwrap();
            assert!(i < VOCAB);
            assert!(seen.insert(i));
        }
        assert_eq!(name(12 * 64 + 28), "e2e4");
        assert_eq!(name(4096), "a7a8q");
        assert_eq!(name(4351), "h7h8n");
    }
}

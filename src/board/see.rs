//! Static exchange evaluation: does a move win at least `threshold` after all recaptures? A fact
//! of the board, so it lives here where the search (move ordering, pruning), the human move
//! model's features and the style classifier all reach it without an upward import.

/// SEE piece values by `Role` index (none, pawn, knight, bishop, rook, queen, king).
pub const SEE_VALUES: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUES[role as usize]
}

fn attackers_to(board: &Board, sq: Square, occ: Bitboard) -> Bitboard {
    let bq = board.bishops() | board.queens();
    let rq = board.rooks() | board.queens();
    (pawn_attacks(Color::White, sq) & board.pawns() & board.by_color(Color::Black))
        | (pawn_attacks(Color::Black, sq) & board.pawns() & board.by_color(Color::White))
        | (knight_attacks(sq) & board.knights())
        | (king_attacks(sq) & board.kings())
        | (bishop_attacks(sq, occ) & bq)
        | (rook_attacks(sq, occ) & rq)
}

/// True if the exchange started by `m` gains at least `threshold` centipawns for the mover.
pub fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    let (from, to) = match m {
        Move::Normal { from, to, .. } => (from, to),
        // Castling and en passant are treated as neutral exchanges.
        Move::Castle { .. } | Move::EnPassant { .. } => return threshold <= 0,
        Move::Put { .. } => return threshold <= 0,
    };
    let board = pos.board();
    let mut gain = m.capture().map_or(0, value) - threshold;
    if let Some(p) = m.promotion() {
        gain += value(p) - value(Role::Pawn);
    }
    if gain < 0 {
        return false;
    }
    let mut victim = m.promotion().unwrap_or(m.role());
    gain -= value(victim);
    if gain >= 0 {
        return true;
    }
    let mut occ = board.occupied() ^ Bitboard::from(from) | Bitboard::from(to);
    let mut attackers = attackers_to(board, to, occ) & occ;
    let bq = board.bishops() | board.queens();
    let rq = board.rooks() | board.queens();
    let mut side = !pos.turn();
    loop {
        let mine = attackers & board.by_color(side);
        if mine.is_empty() {
            break;
        }
        // Least valuable attacker.
        let mut found = None;
        for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
            let bb = mine & board.by_role(role);
            if let Some(sq) = bb.first() {
                found = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = found else { break };
        occ ^= Bitboard::from(sq);
        // Reveal x-ray attackers behind the one that just moved.
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & bq;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & rq;
        }
        attackers &= occ;
        side = !side;
        gain = -gain - 1 - value(role);
        victim = role;
        if gain >= 0 {
            // A king may only capture if the square is no longer defended.
            if role == Role::King && !(attackers & board.by_color(side)).is_empty() {
                side = !side;
            }
            break;
        }
    }
    let _ = victim;
    side != pos.turn()
}

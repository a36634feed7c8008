//! Quiet-move history: a butterfly table (side, from, to), continuation histories keyed by the
//! moves one and two plies back (piece and destination of each), killers and counter moves; a
//! capture history (piece, destination, victim) and the correction history of
//! the static evaluation (side to move, pawn structure).

use super::MAX_PLY;
use super::movepick::encode;
use super::parameters::{
    CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_MAX_WEIGHT, CORRECTION_SIZE, CORRECTION_WEIGHT_SCALE,
    HISTORY_BONUS_LINEAR, HISTORY_BONUS_MAX, HISTORY_BONUS_SQUARE, HISTORY_MAX,
};
use shakmaty::{Chess, Color, Move, Position, Role};

/// Number of (piece, destination) pairs: 12 coloured pieces times 64 squares.
const PIECE_TO: usize = 12 * 64;

/// The (piece, destination) index of a move made by `side`.
#[inline]
pub fn piece_to(side: Color, m: Move) -> usize {
    (side as usize * 6 + m.role() as usize - 1) * 64 + m.to() as usize
}

/// The continuation contexts of a node: the piece-to indices of the moves one and two plies back
/// (`None` after a null move or at the root).
pub type ContContext = [Option<usize>; 2];

pub struct History {
    butterfly: Box<[[[i32; 64]; 64]; 2]>,
    /// `cont[context * PIECE_TO + piece_to(move)]`: how well a quiet move did after the context move.
    cont: Box<[i32]>,
    pub killers: [[u16; 2]; MAX_PLY + 4],
    counters: Box<[[u16; 64]; 64]>,
    /// `capture[piece_to(move)][victim]`: how well a capture did (victim: pawn..queen as 0..4).
    capture: Box<[[i32; 6]]>,
    /// `correction[side][pawn hash]`: running mean of search score minus static evaluation.
    correction: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: Box::new([[[0; 64]; 64]; 2]),
            cont: vec![0; PIECE_TO * PIECE_TO].into_boxed_slice(),
            killers: [[0; 2]; MAX_PLY + 4],
            counters: Box::new([[0; 64]; 64]),
            capture: vec![[0; 6]; PIECE_TO].into_boxed_slice(),
            correction: Box::new([[0; CORRECTION_SIZE]; 2]),
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

    /// The ordering score of a quiet move: butterfly plus both continuation histories.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, ctx: &ContContext) -> i32 {
        let idx = piece_to(side, m);
        let mut s = self.quiet(side, m);
        for c in ctx.iter().flatten() {
            s += self.cont[c * PIECE_TO + idx];
        }
        s
    }

    pub fn counter(&self, prev: Option<Move>) -> u16 {
        prev.map_or(0, |p| {
            let (f, t) = squares(p);
            self.counters[f][t]
        })
    }

    /// The history bonus of a cutoff at `depth`: `HISTORY_BONUS_SQUARE * depth^2 +
    /// HISTORY_BONUS_LINEAR * (depth - 1)`, capped, steep so that the tables learn within a game
    /// instead of over thousands of shallow cutoffs.
    pub fn bonus(depth: i32) -> i32 {
        (HISTORY_BONUS_SQUARE * depth * depth + HISTORY_BONUS_LINEAR * (depth - 1).max(0)).min(HISTORY_BONUS_MAX)
    }

    /// Rewards the quiet move that caused a cutoff and punishes the quiets tried before it.
    pub fn update_quiets(&mut self, side: Color, best: Move, tried: &[Move], bonus: i32, ctx: &ContContext) {
        self.adjust(side, best, bonus, ctx);
        for &m in tried {
            if m != best {
                self.adjust(side, m, -bonus, ctx);
            }
        }
    }

    /// Makes the quiet move that caused a cutoff at `ply` the first killer there and the counter
    /// move to `prev`, the move before it.
    pub fn update_refutations(&mut self, best: Move, ply: usize, prev: Option<Move>) {
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

    /// The capture history of a noisy move (a promotion without capture counts as taking a pawn's
    /// place: victim index 0 is shared with pawn captures, en passant included).
    #[inline]
    pub fn capture_score(&self, side: Color, m: Move) -> i32 {
        self.capture[piece_to(side, m)][victim(m)]
    }

    /// Rewards the noisy move that caused a cutoff (if it was noisy) and punishes the noisy moves
    /// tried before it.
    pub fn update_captures(&mut self, side: Color, best: Option<Move>, tried: &[Move], bonus: i32) {
        if let Some(b) = best {
            gravity(&mut self.capture[piece_to(side, b)][victim(b)], bonus);
        }
        for &m in tried {
            if Some(m) != best {
                gravity(&mut self.capture[piece_to(side, m)][victim(m)], -bonus);
            }
        }
    }

    /// The correction (centipawns) of a static evaluation of `pos` from the side to move's view.
    #[inline]
    pub fn correction(&self, pos: &Chess) -> i32 {
        self.correction[pos.turn() as usize][pawn_index(pos)] / CORRECTION_GRAIN
    }

    /// Moves the correction of `pos` towards `diff` (search score minus raw static evaluation).
    pub fn update_correction(&mut self, pos: &Chess, diff: i32, depth: i32) {
        let w = (depth + 1).min(CORRECTION_MAX_WEIGHT);
        let e = &mut self.correction[pos.turn() as usize][pawn_index(pos)];
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_GRAIN;
        *e = (*e * (CORRECTION_WEIGHT_SCALE - w) + target * w) / CORRECTION_WEIGHT_SCALE;
        *e = (*e).clamp(-CORRECTION_MAX * CORRECTION_GRAIN, CORRECTION_MAX * CORRECTION_GRAIN);
    }

    fn adjust(&mut self, side: Color, m: Move, bonus: i32, ctx: &ContContext) {
        let (f, t) = squares(m);
        gravity(&mut self.butterfly[side as usize][f][t], bonus);
        let idx = piece_to(side, m);
        for c in ctx.iter().flatten() {
            gravity(&mut self.cont[c * PIECE_TO + idx], bonus);
        }
    }
}

/// The victim index of a noisy move: pawn..queen as 0..4 (en passant and quiet promotions: 0).
#[inline]
fn victim(m: Move) -> usize {
    m.capture().map_or(0, |r| r as usize - Role::Pawn as usize)
}

/// The correction-history slot of a position's pawn structure (both colours' pawn sets, mixed).
#[inline]
fn pawn_index(pos: &Chess) -> usize {
    let b = pos.board();
    let white = (b.pawns() & b.white()).0;
    let black = (b.pawns() & b.black()).0;
    let h = (white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
        .wrapping_mul(0x1656_67B1_9E37_79F9);
    (h >> 50) as usize % CORRECTION_SIZE
}

/// Moves an entry towards the bonus's sign, saturating at `HISTORY_MAX`.
#[inline]
fn gravity(e: &mut i32, bonus: i32) {
    *e += bonus - *e * bonus.abs() / HISTORY_MAX;
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Square};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn bonuses_grow_with_depth_and_stay_capped() {
        let b: Vec<i32> = (1..40).map(History::bonus).collect();
        assert!(b.windows(2).all(|w| w[0] <= w[1]), "{b:?}");
        assert_eq!(*b.last().unwrap(), HISTORY_BONUS_MAX);
        assert_eq!(History::bonus(1), 16);
        assert_eq!(History::bonus(3), 16 * 9 + 128 * 2);
    }

    #[test]
    fn correction_moves_towards_the_search_and_is_bounded() {
        let mut h = History::default();
        let pos = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        assert_eq!(h.correction(&pos), 0);
        for _ in 0..400 {
            h.update_correction(&pos, 40, 12);
        }
        let c = h.correction(&pos);
        assert!((35..=40).contains(&c), "converges on the difference: {c}");
        for _ in 0..2000 {
            h.update_correction(&pos, 5000, 30);
        }
        // Clamped (integer averaging stops a fraction of a centipawn short of the bound).
        assert!((CORRECTION_MAX - 1..=CORRECTION_MAX).contains(&h.correction(&pos)), "{}", h.correction(&pos));
        for _ in 0..2000 {
            h.update_correction(&pos, -5000, 30);
        }
        assert!((-CORRECTION_MAX..=-CORRECTION_MAX + 1).contains(&h.correction(&pos)), "{}", h.correction(&pos));
        // The other side to move with the same pawns has its own entry.
        let black = chess("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 2 3");
        assert_eq!(h.correction(&black), 0);
        // A different pawn structure (almost surely another slot) is untouched.
        let other = chess("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(h.correction(&other), 0);
    }

    #[test]
    fn capture_history_rewards_the_cutoff_and_punishes_the_rest() {
        let mut h = History::default();
        let takes_queen = Move::Normal {
            role: Role::Knight,
            from: Square::F3,
            capture: Some(Role::Queen),
            to: Square::E5,
            promotion: None,
        };
        let takes_pawn = Move::Normal {
            role: Role::Bishop,
            from: Square::C4,
            capture: Some(Role::Pawn),
            to: Square::F7,
            promotion: None,
        };
        h.update_captures(Color::White, Some(takes_queen), &[takes_pawn, takes_queen], History::bonus(6));
        assert!(h.capture_score(Color::White, takes_queen) > 0);
        assert!(h.capture_score(Color::White, takes_pawn) < 0);
        assert_eq!(h.capture_score(Color::Black, takes_queen), 0, "per side");
        for _ in 0..10_000 {
            h.update_captures(Color::White, Some(takes_queen), &[], History::bonus(20));
        }
        assert!(h.capture_score(Color::White, takes_queen) <= HISTORY_MAX);
    }
}

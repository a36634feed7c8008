//! The engine's position: a `shakmaty::Chess` plus an incrementally updated Zobrist key and the key
//! history needed for repetition detection. Search and perft make and unmake moves through it.

pub mod notation;
pub mod perft;
pub mod see;

use shakmaty::zobrist::{Zobrist64, ZobristValue};
use shakmaty::{CastlingSide, Chess, Color, EnPassantMode, FromSetup, Move, Piece, Position, Role, Square};

/// The Zobrist key of a position: shakmaty's `Zobrist64` with `EnPassantMode::PseudoLegal`.
/// It is part of the seeding protocol (SPEC 4), so it must never change silently.
pub fn zobrist(pos: &Chess) -> u64 {
    let z: Zobrist64 = pos.zobrist_hash(EnPassantMode::PseudoLegal);
    z.0
}

#[derive(Clone)]
struct Undo {
    pos: Chess,
    key: u64,
}

/// A position with its history, made and unmade move by move.
#[derive(Clone)]
pub struct Game {
    pos: Chess,
    key: u64,
    /// Keys of every earlier position of the game (oldest first), for repetition detection.
    keys: Vec<u64>,
    /// The move that led to each remembered position (`None` for a null move), parallel to `keys`.
    moves: Vec<Option<Move>>,
    undo: Vec<Undo>,
}

impl Game {
    pub fn new(pos: Chess) -> Game {
        let key = zobrist(&pos);
        Game { pos, key, keys: Vec::with_capacity(256), moves: Vec::with_capacity(256), undo: Vec::with_capacity(128) }
    }

    /// A game that starts at `root` and then plays `moves` (all assumed legal).
    pub fn with_moves(root: Chess, moves: &[Move]) -> Game {
        let mut g = Game::new(root);
        for &m in moves {
            g.make(m);
        }
        g.undo.clear();
        g
    }

    #[inline]
    pub fn pos(&self) -> &Chess {
        &self.pos
    }

    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Number of earlier positions remembered (moves played since the game's start position).
    pub fn keys_len(&self) -> usize {
        self.keys.len()
    }

    /// Forget the undo stack (the history of keys stays for repetition detection).
    pub fn reset_depth(&mut self) {
        self.undo.clear();
    }

    /// Number of moves made since the last `new`/`with_moves` (plies below the search root).
    #[inline]
    pub fn depth(&self) -> usize {
        self.undo.len()
    }

    /// Plays a legal move, updating the key incrementally.
    pub fn make(&mut self, m: Move) {
        let before = self.pos.clone();
        let old_key = self.key;
        self.pos.play_unchecked(m);
        let key = update_key(old_key, &before, &self.pos, m);
        self.keys.push(old_key);
        self.moves.push(Some(m));
        self.undo.push(Undo { pos: before, key: old_key });
        self.key = key;
    }

    /// The move that led to this position, if it is known (not after `new` or a null move).
    pub fn last_move(&self) -> Option<Move> {
        self.moves_back(0)
    }

    /// The move `k` plies before the last one (`0` is the last move), if it is known.
    pub fn moves_back(&self, k: usize) -> Option<Move> {
        self.moves.len().checked_sub(k + 1).and_then(|i| self.moves[i])
    }

    /// Passes the move (null move). Must not be called in check.
    pub fn make_null(&mut self) {
        let before = self.pos.clone();
        let old_key = self.key;
        let mut key = old_key ^ Zobrist64::zobrist_for_white_turn().0;
        if let Some(ep) = before.ep_square(EnPassantMode::PseudoLegal) {
            key ^= Zobrist64::zobrist_for_en_passant_file(ep.file()).0;
        }
        // A null move cannot fail: swap_turn only rejects positions in check.
        self.pos = before.clone().swap_turn().unwrap_or_else(|_| before.clone());
        self.keys.push(old_key);
        self.moves.push(None);
        self.undo.push(Undo { pos: before, key: old_key });
        self.key = key;
    }

    pub fn unmake(&mut self) {
        if let Some(u) = self.undo.pop() {
            self.keys.pop();
            self.moves.pop();
            self.pos = u.pos;
            self.key = u.key;
        }
    }

    /// True if the current position occurred before, within reach of the halfmove clock.
    /// Inside the search tree (`ply` moves below the root) one earlier occurrence counts as a draw;
    /// before the root two are needed (threefold repetition).
    pub fn is_repetition(&self, ply: usize) -> bool {
        let reach = self.pos.halfmoves() as usize;
        let n = self.keys.len();
        let mut count = 0;
        let mut back = 2;
        while back <= reach && back <= n {
            if self.keys[n - back] == self.key {
                if back < ply {
                    return true;
                }
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    /// Draw by the 50-move rule (unless this very position is mate), repetition or insufficient material.
    pub fn is_draw(&self, ply: usize) -> bool {
        if self.pos.halfmoves() >= 100 && !(self.pos.is_check() && self.pos.legal_moves().is_empty()) {
            return true;
        }
        self.is_repetition(ply) || self.pos.is_insufficient_material()
    }
}

fn piece_key(sq: Square, p: Piece) -> u64 {
    Zobrist64::zobrist_for_piece(sq, p).0
}

/// Key of `after` = `before` + `m`, computed from the difference alone.
fn update_key(mut key: u64, before: &Chess, after: &Chess, m: Move) -> u64 {
    let us = before.turn();
    let them = !us;
    key ^= Zobrist64::zobrist_for_white_turn().0;
    match m {
        Move::Normal { role, from, capture, to, promotion } => {
            key ^= piece_key(from, role.of(us));
            key ^= piece_key(to, promotion.unwrap_or(role).of(us));
            if let Some(c) = capture {
                key ^= piece_key(to, c.of(them));
            }
        }
        Move::EnPassant { from, to } => {
            key ^= piece_key(from, Role::Pawn.of(us));
            key ^= piece_key(to, Role::Pawn.of(us));
            key ^= piece_key(Square::from_coords(to.file(), from.rank()), Role::Pawn.of(them));
        }
        Move::Castle { king, rook } => {
            let side = if rook.file() > king.file() { CastlingSide::KingSide } else { CastlingSide::QueenSide };
            let rank = king.rank();
            key ^= piece_key(king, Role::King.of(us));
            key ^= piece_key(rook, Role::Rook.of(us));
            key ^= piece_key(Square::from_coords(side.king_to_file(), rank), Role::King.of(us));
            key ^= piece_key(Square::from_coords(side.rook_to_file(), rank), Role::Rook.of(us));
        }
        Move::Put { .. } => {}
    }
    for color in [Color::White, Color::Black] {
        for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
            if before.castles().has(color, side) != after.castles().has(color, side) {
                key ^= Zobrist64::zobrist_for_castling_right(color, side).0;
            }
        }
    }
    if let Some(ep) = before.ep_square(EnPassantMode::PseudoLegal) {
        key ^= Zobrist64::zobrist_for_en_passant_file(ep.file()).0;
    }
    if let Some(ep) = after.ep_square(EnPassantMode::PseudoLegal) {
        key ^= Zobrist64::zobrist_for_en_passant_file(ep.file()).0;
    }
    key
}

/// The position with colours swapped and the board flipped vertically (for symmetry tests).
pub fn mirror(pos: &Chess) -> Option<Chess> {
    let setup = pos.to_setup(EnPassantMode::Legal).into_mirrored();
    Chess::from_setup(setup, shakmaty::CastlingMode::Standard).ok()
}

/// The position with files a-h swapped (the same game seen in a mirror), when neither side may
/// castle: castling is the one rule that tells the wings apart.
pub fn mirror_files(pos: &Chess) -> Option<Chess> {
    let mut setup = pos.to_setup(EnPassantMode::Legal);
    if setup.castling_rights.any() {
        return None;
    }
    setup.board.flip_horizontal();
    setup.ep_square = setup.ep_square.map(Square::flip_horizontal);
    Chess::from_setup(setup, shakmaty::CastlingMode::Standard).ok()
}

/// A move of the position mirrored by [`mirror_files`], mirrored with it (castling has none).
pub fn mirror_files_move(m: Move) -> Option<Move> {
    match m {
        Move::Normal { role, from, capture, to, promotion } => {
            Some(Move::Normal { role, from: from.flip_horizontal(), capture, to: to.flip_horizontal(), promotion })
        }
        Move::EnPassant { from, to } => {
            Some(Move::EnPassant { from: from.flip_horizontal(), to: to.flip_horizontal() })
        }
        Move::Castle { .. } | Move::Put { .. } => None,
    }
}

/// Parses a FEN (4 to 6 fields) into a legal standard-chess position. Positions whose check could
/// not arise in a game (e.g. some composed double checks) are accepted: the rules still apply to
/// them, and GUIs send them in analysis. Everything else shakmaty rejects is refused with a reason.
pub fn parse_fen(text: &str) -> Result<Chess, String> {
    let fen: shakmaty::fen::Fen = text.trim().parse().map_err(|e| format!("invalid FEN '{text}': {e}"))?;
    fen.into_position(shakmaty::CastlingMode::Standard)
        .or_else(shakmaty::PositionError::ignore_impossible_check)
        .map_err(|e| format!("illegal position in FEN '{text}': {e}"))
}

/// Does the legal move `m` give check? (Exact: direct and discovered checks; castling and en
/// passant are played out.)
pub fn gives_check(pos: &Chess, m: Move) -> bool {
    use shakmaty::Bitboard;
    use shakmaty::attacks::{attacks, bishop_attacks, rook_attacks};
    match m {
        Move::Normal { role, from, to, promotion, .. } => {
            let board = pos.board();
            let us = pos.turn();
            let Some(ksq) = board.king_of(!us) else { return false };
            let occ = (board.occupied() & !Bitboard::from(from)) | Bitboard::from(to);
            if attacks(to, promotion.unwrap_or(role).of(us), occ).contains(ksq) {
                return true;
            }
            let ours = board.by_color(us) & !Bitboard::from(from);
            let rq = (board.rooks() | board.queens()) & ours;
            let bq = (board.bishops() | board.queens()) & ours;
            (rook_attacks(ksq, occ) & rq).any() || (bishop_attacks(ksq, occ) & bq).any()
        }
        _ => {
            let mut after = pos.clone();
            after.play_unchecked(m);
            after.is_check()
        }
    }
}

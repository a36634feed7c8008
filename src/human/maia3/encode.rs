//! The model's input: 64 squares × (8 positions of history × 12 piece planes).
//!
//! Each position of the history is drawn from the view of *its own* side to move: square index
//! rank · 8 + file with rank 0 the mover's first rank (for Black the ranks are flipped), planes
//! 0-5 the mover's pawn, knight, bishop, rook, queen, king and 6-11 the opponent's. History slot 7
//! is the position to move in, slot 0 the oldest; the history is the positions after each of the
//! last 8 moves, or, in a game of fewer than 8 moves, the starting position and the positions after
//! each move, padded at the old end with the oldest position. A position given alone (a FEN) is
//! its own whole history.

use shakmaty::{Chess, Color, Move, Position, Role, Square};

pub const HISTORY: usize = 8;
pub const PLANES: usize = 12;
/// Inputs per square.
pub const DEPTH: usize = HISTORY * PLANES;
/// Floats of one encoded input.
pub const TOKENS: usize = 64 * DEPTH;

/// The positions the model sees, oldest first (1 to 8; the last is the one to move in).
#[derive(Clone, Debug)]
pub struct History {
    positions: Vec<Chess>,
}

/// An encoded input, `tokens[square · 96 + slot · 12 + plane]`, each 0 or 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Tokens(pub Vec<f32>);

impl History {
    /// A position without its game (padded with itself).
    pub fn position(pos: Chess) -> History {
        History { positions: vec![pos] }
    }

    /// A game from `root` after the legal `moves`; an illegal move is an error.
    pub fn game(root: &Chess, moves: &[Move]) -> Result<History, String> {
        let mut all = Vec::with_capacity(moves.len() + 1);
        let mut pos = root.clone();
        all.push(pos.clone());
        for m in moves {
            if !pos.is_legal(*m) {
                return Err(format!("illegal move {m} in the game history"));
            }
            pos.play_unchecked(*m);
            all.push(pos.clone());
        }
        Ok(History::from_positions(all))
    }

    /// The game's positions, oldest first (the last one is the one to move in): keeps the last 8
    /// (all positions after a move, and the first position only while fewer than 8 moves exist).
    pub fn from_positions(mut all: Vec<Chess>) -> History {
        assert!(!all.is_empty(), "a history needs a position");
        if all.len() > HISTORY {
            all.drain(..all.len() - HISTORY);
        }
        History { positions: all }
    }

    /// The position to move in.
    pub fn current(&self) -> &Chess {
        self.positions.last().expect("non-empty")
    }

    pub fn positions(&self) -> &[Chess] {
        &self.positions
    }

    /// The model input.
    pub fn tokens(&self) -> Tokens {
        let boards: Vec<[u8; 64]> = self.positions.iter().map(planes).collect();
        let pad = HISTORY - boards.len();
        let mut t = vec![0f32; TOKENS];
        for slot in 0..HISTORY {
            let board = &boards[slot.saturating_sub(pad)];
            for (sq, &plane) in board.iter().enumerate() {
                if plane != NONE {
                    t[sq * DEPTH + slot * PLANES + plane as usize] = 1.0;
                }
            }
        }
        Tokens(t)
    }
}

const NONE: u8 = u8::MAX;

/// The plane of each square (NONE when empty), from the view of the position's side to move.
fn planes(pos: &Chess) -> [u8; 64] {
    let turn = pos.turn();
    let mut out = [NONE; 64];
    for (sq, piece) in pos.board().iter() {
        let view: Square = if turn == Color::White { sq } else { sq.flip_vertical() };
        let role = match piece.role {
            Role::Pawn => 0,
            Role::Knight => 1,
            Role::Bishop => 2,
            Role::Rook => 3,
            Role::Queen => 4,
            Role::King => 5,
        };
        let theirs = if piece.color == turn { 0 } else { 6 };
        out[usize::from(view)] = role + theirs;
    }
    out
}

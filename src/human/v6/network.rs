//! The hidden layer of a human move model (model files from version 5): a small network over the
//! same sparse move features plus the board, added to the linear logit.
//!
//! For a position the **accumulator** `a = b + Σ P[i]` sums one row of `P` per piece on the board
//! (colour seen from the side to move × role × square, [`board_inputs`]); for each move the hidden
//! units are `h = max(0, a + Σ E[f])` over its active move features `f`, and the move's logit gains
//! `Σ_j U_j(R)·h_j`, where `U_j(R)` is piecewise-linear in the rating over the model's knots like
//! every linear weight. The hidden units do not depend on the rating, so a move's whole logit is
//! still linear in the knot weights `φ_k(R)`: the logits at the knots can be computed once and
//! mixed for any rating (what the strength estimator does).
//!
//! Interactions the linear model cannot express (a quiet move is worth more when the king is
//! exposed; a retreat means something else when the piece is attacked) are what the layer adds.

use shakmaty::{Chess, Color, Position};

/// Board inputs: (ours, theirs) × 6 roles × 64 squares, seen from the side to move.
pub const BOARD_INPUTS: usize = 2 * 6 * 64;

/// Size of the first feature family (`piece_from_to`, 6 × 64 × 64), which the layer does not give
/// a row per index: a move's piece × from-square and piece × to-square rows stand for it
/// (768 rows instead of 24,576, so the layer learns squares, not single moves, and stays small).
const FROM_TO: usize = 6 * 64 * 64;
const SQUARE_ROWS: usize = 2 * 6 * 64;

/// Embedding rows of a model with `features` move features.
pub fn embed_rows(features: usize) -> usize {
    features.saturating_sub(FROM_TO) + SQUARE_ROWS
}

/// The embedding rows of one move feature: two for a `piece_from_to` index, one otherwise.
fn rows_of(f: usize) -> [Option<usize>; 2] {
    if f < FROM_TO {
        let (role, from, to) = (f / 4096, f / 64 % 64, f % 64);
        [Some(role * 64 + from), Some(384 + role * 64 + to)]
    } else {
        [Some(SQUARE_ROWS + f - FROM_TO), None]
    }
}

/// Calls `add` with each embedding row of the active features, in order.
pub fn for_rows<F: Copy + Into<u32>>(active: &[F], mut add: impl FnMut(usize)) {
    for &f in active {
        for row in rows_of(f.into() as usize).into_iter().flatten() {
            add(row);
        }
    }
}

/// The board inputs of `pos` (one per piece), appended to `out`.
pub fn board_inputs(pos: &Chess, out: &mut Vec<u32>) {
    let us = pos.turn();
    let board = pos.board();
    for sq in board.occupied() {
        let Some(piece) = board.piece_at(sq) else { continue };
        let rel = if us == Color::White { sq } else { sq.flip_vertical() };
        let side = usize::from(piece.color != us);
        out.push(((side * 6 + piece.role as usize - 1) * 64 + rel as usize) as u32);
    }
}

/// The layer's weights, all stored as `f32` (the file holds them quantised like the linear ones).
#[derive(Clone, Debug, PartialEq)]
pub struct Hidden {
    /// Number of hidden units.
    pub size: usize,
    /// `embed_rows(features) × size`: the move features' rows ([`for_rows`]).
    pub embed: Vec<f32>,
    /// `BOARD_INPUTS × size`: one row per board input.
    pub board: Vec<f32>,
    /// `size`.
    pub bias: Vec<f32>,
    /// `size × knots`: each unit's output weight at each knot.
    pub out: Vec<f32>,
}

impl Hidden {
    /// A layer of `size` units with every weight zero.
    pub fn zeros(size: usize, features: usize, knots: usize) -> Hidden {
        Hidden {
            size,
            embed: vec![0.0; embed_rows(features) * size],
            board: vec![0.0; BOARD_INPUTS * size],
            bias: vec![0.0; size],
            out: vec![0.0; size * knots],
        }
    }

    /// Number of stored weights.
    pub fn len(&self) -> usize {
        self.embed.len() + self.board.len() + self.bias.len() + self.out.len()
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// The weights in file order: embed, board, bias, out.
    pub fn blocks(&self) -> [&[f32]; 4] {
        [&self.embed, &self.board, &self.bias, &self.out]
    }

    pub fn blocks_mut(&mut self) -> [&mut Vec<f32>; 4] {
        [&mut self.embed, &mut self.board, &mut self.bias, &mut self.out]
    }

    /// The position's accumulator: bias plus one board row per input.
    pub fn accumulate(&self, inputs: &[u32], acc: &mut Vec<f32>) {
        acc.clear();
        acc.extend_from_slice(&self.bias);
        for &i in inputs {
            let row = &self.board[i as usize * self.size..(i as usize + 1) * self.size];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// One move's hidden units from the accumulator and its active features (`h` is overwritten).
    pub fn units<F: Copy + Into<u32>>(&self, acc: &[f32], active: &[F], h: &mut [f32]) {
        h.copy_from_slice(acc);
        for_rows(active, |r| {
            let row = &self.embed[r * self.size..(r + 1) * self.size];
            for (x, w) in h.iter_mut().zip(row) {
                *x += w;
            }
        });
        for x in h.iter_mut() {
            *x = x.max(0.0);
        }
    }

    /// The units' contribution to the logit at one knot.
    pub fn output(&self, h: &[f32], knot: usize, knots: usize) -> f32 {
        h.iter().enumerate().map(|(j, x)| x * self.out[j * knots + knot]).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;

    #[test]
    fn board_inputs_are_mirrored_for_black() {
        let w = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let (mut iw, mut ib) = (Vec::new(), Vec::new());
        board_inputs(&w, &mut iw);
        board_inputs(&b, &mut ib);
        iw.sort_unstable();
        ib.sort_unstable();
        assert_eq!(iw.len(), 32);
        assert_eq!(iw, ib, "the start position looks the same to both sides");
        assert!(iw.iter().all(|&i| (i as usize) < BOARD_INPUTS));
    }

    #[test]
    fn a_from_to_feature_takes_its_piece_square_rows() {
        // A knight (role index 1) from g1 (6) to f3 (21).
        let f = (64 + 6) * 64 + 21;
        assert_eq!(rows_of(f), [Some(64 + 6), Some(384 + 64 + 21)]);
        assert_eq!(rows_of(FROM_TO + 5), [Some(SQUARE_ROWS + 5), None]);
        let mut rows = Vec::new();
        for_rows(&[f as u32, FROM_TO as u32], |r| rows.push(r));
        assert_eq!(rows, vec![70, 469, SQUARE_ROWS]);
    }

    #[test]
    fn units_add_rows_and_clip_at_zero() {
        let mut l = Hidden::zeros(2, FROM_TO + 2, 1);
        assert_eq!(l.embed.len(), 2 * (SQUARE_ROWS + 2));
        l.bias = vec![0.5, -0.5];
        // Feature FROM_TO is row SQUARE_ROWS, FROM_TO + 1 the next one.
        l.embed[2 * SQUARE_ROWS..].copy_from_slice(&[1.0, 0.25, -2.0, 0.1]);
        l.out = vec![2.0, 4.0];
        let mut acc = Vec::new();
        l.accumulate(&[], &mut acc);
        let mut h = [0.0; 2];
        let (a, b) = (FROM_TO as u32, FROM_TO as u32 + 1);
        l.units(&acc, &[a, b], &mut h);
        assert_eq!(h, [0.0, 0.0], "0.5 + 1 - 2 = -0.5 and -0.5 + 0.25 + 0.1 < 0 both clip");
        l.units(&acc, &[a], &mut h);
        assert_eq!(h, [1.5, 0.0]);
        assert_eq!(l.output(&h, 0, 1), 3.0);
    }
}

//! The human move model: `P_human(move | position, rating)`, which move a person of a given rating
//! plays.
//!
//! A softmax over the legal moves. A move's logit is the sum of the weights of its active sparse
//! features ([`features`]), each weight a piecewise-linear function of the rating over the knots
//! of the model ([`KNOTS`] when trained here): `w_f(R) = Σ_k φ_k(R)·w_{f,k}` with triangular
//! `φ_k`, so at most two knots count for any rating and the model bends smoothly with strength.
//! Ratings outside the knots are clamped to the end knots.
//!
//! The model is trained by `sparring humanlike model train` (`tools/humanlike/model.rs`) and
//! frozen as a versioned file (`profiles/human/`); this module only reads, writes and evaluates
//! it. Evaluation is pure arithmetic on the file's weights, so it is deterministic everywhere.
//!
//! File format (little endian): the 8-byte magic [`MAGIC`], a `u32` length and that many bytes of
//! JSON header ([`Header`]), then `features × knots` weights as `i16`, feature-major, each
//! `weight / scale` rounded.

pub mod features;

pub use features::History;

use crate::board::Game;
use crate::search::{Generation, Limits, Request, Searcher};
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};
use std::cell::RefCell;

/// The rating knots of models trained here.
pub const KNOTS: [f64; 5] = [800.0, 1200.0, 1600.0, 2000.0, 2400.0];
/// First bytes of a model file (format 1).
pub const MAGIC: &[u8; 8] = b"SPHMOD\x00\x01";
/// Quantisation step of the stored weights (so |w| ≤ 32767/4096 ≈ 8).
pub const WEIGHT_SCALE: f64 = 1.0 / 4096.0;

/// A position is decided when its best score is at least this far from equal (cp, either side)
/// or a mate: the bench's eligibility bound, so the model's β was fitted inside it.
pub const DECIDED_CP: i32 = 600;

/// Whether a position with this best root score (cp or mate score) is decided.
pub fn decided(best: i32) -> bool {
    best.abs() >= DECIDED_CP
}

/// Whether the side to move has mating material against a bare king: a won simple ending that
/// people of every level play out by making progress, which a shallow search may still score
/// inside [`DECIDED_CP`] (a rook is worth about 500). Ladders from v10 choose by value there.
pub fn against_bare_king(pos: &Chess) -> bool {
    let them = !pos.turn();
    let board = pos.board();
    board.by_color(them) == board.kings() & board.by_color(them) && !pos.has_insufficient_material(pos.turn())
}

/// Depth of the look, the model's own shallow search (every root move scored).
pub const LOOK_DEPTH: i32 = 1;
/// Hash of the look's own searcher (cleared before every look).
pub const LOOK_HASH_MB: usize = 1;

thread_local! {
    static LOOK_SEARCHER: RefCell<Searcher> = RefCell::new(Searcher::new(LOOK_HASH_MB));
}

/// The look: the scores (cp, mover's view; mates as the search reports them) of `moves` in
/// `game`'s position by a shallow search of the model's own — every legal move searched once with
/// the full window to [`LOOK_DEPTH`] ([`Searcher::score_each`]), the newest search generation, the
/// default evaluator, no tablebases, a cleared [`LOOK_HASH_MB`] table of its own — so it depends on
/// the position and its history only. A move the search did not score (none
/// should be missing) gets the lowest score.
pub fn look(game: &Game, moves: &[Move]) -> Vec<i32> {
    let limits = Limits { generation: Generation::LATEST, ..Default::default() };
    let root = LOOK_SEARCHER.with(|s| {
        let mut s = s.borrow_mut();
        s.clear();
        s.score_each(game, &Request::from(limits), LOOK_DEPTH)
    });
    moves.iter().map(|m| root.iter().find(|r| r.mv == *m).map_or(-features::LOOK_CLAMP_CP, |r| r.score)).collect()
}

/// What a model file says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    pub name: String,
    pub version: u32,
    /// [`features::FEATURE_SET`] the model was trained with.
    pub feature_set: u32,
    /// Number of feature indices ([`features::COUNT`]).
    pub features: usize,
    pub knots: Vec<f64>,
    pub scale: f64,
    /// How it was trained (data, split, seed, passes, penalties), free text per key.
    #[serde(default)]
    pub training: std::collections::BTreeMap<String, String>,
}

/// A loaded model.
#[derive(Clone, Debug)]
pub struct HumanModel {
    pub header: Header,
    /// `features × knots` weights, feature-major.
    weights: Vec<f32>,
    /// blake3 of the file's bytes (hex), empty for a model not read from bytes.
    hash: String,
}

impl HumanModel {
    /// A model with every weight zero (uniform over the legal moves), the start of a training run.
    pub fn zeros(name: &str, version: u32) -> HumanModel {
        let header = Header {
            name: name.to_string(),
            version,
            feature_set: features::FEATURE_SET,
            features: features::COUNT,
            knots: KNOTS.to_vec(),
            scale: WEIGHT_SCALE,
            training: Default::default(),
        };
        HumanModel { weights: vec![0.0; features::COUNT * KNOTS.len()], header, hash: String::new() }
    }

    /// Reads a model file's bytes, checking everything: magic, header, feature set, size, values.
    pub fn from_bytes(bytes: &[u8]) -> Result<HumanModel, String> {
        let rest = bytes.strip_prefix(MAGIC.as_slice()).ok_or("not a sparring human model file (bad magic)")?;
        let (len, rest) = rest.split_first_chunk::<4>().ok_or("human model file: truncated header")?;
        let len = u32::from_le_bytes(*len) as usize;
        if rest.len() < len {
            return Err("human model file: truncated header".into());
        }
        let (json, data) = rest.split_at(len);
        let header: Header = serde_json::from_slice(json).map_err(|e| format!("human model file: bad header: {e}"))?;
        if header.feature_set != features::FEATURE_SET || header.features != features::COUNT {
            return Err(format!(
                "human model {} v{}: feature set {} with {} features, this build has set {} with {}",
                header.name,
                header.version,
                header.feature_set,
                header.features,
                features::FEATURE_SET,
                features::COUNT
            ));
        }
        if header.knots.is_empty()
            || header.knots.windows(2).any(|w| w[0].partial_cmp(&w[1]) != Some(std::cmp::Ordering::Less))
        {
            return Err("human model file: knots must be increasing".into());
        }
        if !(header.scale.is_finite() && header.scale > 0.0) {
            return Err("human model file: scale must be positive".into());
        }
        let n = header.features * header.knots.len();
        if data.len() != 2 * n {
            return Err(format!("human model file: {} weight bytes, expected {}", data.len(), 2 * n));
        }
        let weights =
            data.chunks_exact(2).map(|c| (f64::from(i16::from_le_bytes([c[0], c[1]])) * header.scale) as f32).collect();
        Ok(HumanModel { header, weights, hash: blake3::hash(bytes).to_hex().to_string() })
    }

    /// The file's bytes (weights rounded to the scale and clamped to the `i16` range).
    pub fn to_bytes(&self) -> Vec<u8> {
        let json = serde_json::to_vec(&self.header).expect("a header serialises");
        let mut out = Vec::with_capacity(12 + json.len() + 2 * self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(&json);
        for &w in &self.weights {
            let q = (f64::from(w) / self.header.scale).round().clamp(f64::from(i16::MIN), f64::from(i16::MAX));
            out.extend_from_slice(&(q as i16).to_le_bytes());
        }
        out
    }

    /// blake3 (hex) of the bytes the model was read from.
    pub fn hash_hex(&self) -> &str {
        &self.hash
    }

    pub fn describe(&self) -> String {
        let h = if self.hash.is_empty() { "unsaved" } else { &self.hash[..16] };
        format!("{} v{} {h}", self.header.name, self.header.version)
    }

    pub fn knots(&self) -> &[f64] {
        &self.header.knots
    }

    /// The rating basis: (knot, weight) pairs, at most two, weights summing to 1.
    pub fn basis(&self, rating: f64) -> [(usize, f32); 2] {
        let k = &self.header.knots;
        let last = k.len() - 1;
        if rating <= k[0] || last == 0 {
            return [(0, 1.0), (0, 0.0)];
        }
        if rating >= k[last] {
            return [(last, 1.0), (last, 0.0)];
        }
        let i = k.windows(2).position(|w| rating < w[1]).unwrap_or(last - 1);
        let t = ((rating - k[i]) / (k[i + 1] - k[i])) as f32;
        [(i, 1.0 - t), (i + 1, t)]
    }

    /// The weights, feature-major (`index · knots + knot`), for training.
    pub fn weights_mut(&mut self) -> &mut [f32] {
        &mut self.weights
    }

    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The logit of one move from its active feature indices.
    pub fn logit(&self, active: &[u32], basis: &[(usize, f32); 2]) -> f64 {
        let k = self.header.knots.len();
        let mut s = 0.0f32;
        for &f in active {
            let base = f as usize * k;
            s += basis[0].1 * self.weights[base + basis[0].0] + basis[1].1 * self.weights[base + basis[1].0];
        }
        f64::from(s)
    }

    /// `ln P_human(m)` for each of `moves` in `game`'s position, with its history and the look:
    /// what the engine uses.
    pub fn game_log_probs(&self, game: &Game, moves: &[Move], rating: f64) -> Vec<f64> {
        let scores = look(game, moves);
        self.log_probs(game.pos(), History::of(game), moves, Some(&scores), rating)
    }

    /// `ln P_human(m)` for each of `moves` (all the legal moves of `pos`, or a subset: the softmax
    /// is over the moves given), for a player rated `rating`; `history` holds the moves that led
    /// to `pos` when known, `look` the look's scores of `moves` ([`look`]; without it the model
    /// sees no values, which it was not trained for).
    pub fn log_probs(
        &self,
        pos: &Chess,
        history: History,
        moves: &[Move],
        look: Option<&[i32]>,
        rating: f64,
    ) -> Vec<f64> {
        let (mut active, mut starts) = (Vec::new(), Vec::new());
        features::all(pos, history, moves, look, &mut active, &mut starts);
        let basis = self.basis(rating);
        let logits: Vec<f64> = starts.windows(2).map(|w| self.logit(&active[w[0]..w[1]], &basis)).collect();
        log_softmax(&logits)
    }
}

/// `lᵢ − ln Σ exp(lⱼ)`, computed stably.
pub fn log_softmax(logits: &[f64]) -> Vec<f64> {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let z = logits.iter().map(|l| (l - top).exp()).sum::<f64>().ln() + top;
    logits.iter().map(|l| l - z).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;

    #[test]
    fn bytes_round_trip_and_corruption_is_refused() {
        let mut m = HumanModel::zeros("test", 3);
        for (i, w) in m.weights_mut().iter_mut().enumerate().take(1000) {
            *w = (i as f32 - 500.0) / 256.0;
        }
        let bytes = m.to_bytes();
        let back = HumanModel::from_bytes(&bytes).unwrap();
        assert_eq!(back.header, m.header);
        assert_eq!(back.weights(), m.weights());
        assert_eq!(back.hash_hex(), blake3::hash(&bytes).to_hex().as_str());
        assert!(HumanModel::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err().contains("weight bytes"));
        assert!(HumanModel::from_bytes(b"hello").unwrap_err().contains("magic"));
        let mut bad = bytes.clone();
        bad[14] = b'}';
        assert!(HumanModel::from_bytes(&bad).unwrap_err().contains("header"));
    }

    #[test]
    fn basis_interpolates_and_clamps() {
        let m = HumanModel::zeros("t", 1);
        assert_eq!(m.basis(500.0)[0], (0, 1.0));
        assert_eq!(m.basis(3000.0)[0], (4, 1.0));
        let b = m.basis(1300.0);
        assert_eq!((b[0].0, b[1].0), (1, 2));
        assert!((b[0].1 - 0.75).abs() < 1e-6 && (b[1].1 - 0.25).abs() < 1e-6);
    }

    #[test]
    fn zero_model_is_uniform() {
        let pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let moves: Vec<Move> = shakmaty::Position::legal_moves(&pos).into_iter().collect();
        let lp = HumanModel::zeros("t", 1).log_probs(&pos, History::default(), &moves, None, 1500.0);
        assert!(lp.iter().all(|l| (l + 20f64.ln()).abs() < 1e-9));
    }
}

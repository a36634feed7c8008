//! The human move model: `P_human(move | position, rating)`, which move a person of a given rating
//! plays.
//!
//! A softmax over the legal moves. A move's logit is the sum of the weights of its active sparse
//! features ([`features`]), each weight a piecewise-linear function of the rating over the knots
//! of the model ([`KNOTS`] when trained here): `w_f(R) = Σ_k φ_k(R)·w_{f,k}` with triangular
//! `φ_k`, so at most two knots count for any rating and the model bends smoothly with strength.
//! Ratings outside the knots are clamped to the end knots.
//!
//! The model is trained by `sparring model train` (`tools/humanlike/model.rs`) and
//! frozen as a versioned file (`profiles/human/`); this module only reads, writes and evaluates
//! it. Evaluation is pure arithmetic on the file's weights, so it is deterministic everywhere.
//!
//! File format (little endian): the 8-byte magic [`MAGIC`], a `u32` length and that many bytes of
//! JSON header ([`Header`]), then `features × knots` weights as `i16`, feature-major, each
//! `weight / scale` rounded; a model with a hidden layer (`hidden` > 0 in the header,
//! [`network`]) then holds that layer's blocks the same way: embed, board, bias, out.

pub mod features;
pub mod network;

pub use features::History;
pub use network::Hidden;

use crate::board::Game;
use crate::eval::EvalConfig;
use crate::search::{Limits, Request, Searcher};
use serde::{Deserialize, Serialize};
use shakmaty::{Chess, Move, Position};

/// The rating knots of models trained here.
pub const KNOTS: [f64; 5] = [800.0, 1200.0, 1600.0, 2000.0, 2400.0];
/// First bytes of a model file (format 1).
pub const MAGIC: &[u8; 8] = b"SPHMOD\x00\x01";
/// Quantisation step of the stored weights (so |w| ≤ 32767/4096 ≈ 8).
pub const WEIGHT_SCALE: f64 = 1.0 / 4096.0;

/// A position is decided when its best score is at least this far from equal (cp, either side)
/// or a mate: the bench's eligibility bound, so the model's β was fitted inside it.
pub const DECIDED_CP: i32 = 600;

/// How far an avatar tilts the human move model, per pawn of style: a move's `ln P_human` gains
/// `AVATAR_TILT · Δ`, where Δ is how much more the avatar's evaluation than the plain one likes the
/// position the move leads to ([`style_tilt`]). The model's β then sharpens the tilted
/// probabilities as it sharpens the model's own, so an avatar reaches the choice at points where
/// the model leads it (small λ), where its evaluation alone would change almost nothing. A ladder
/// point may set its own (`avatar_tilt`); this is the default.
pub const AVATAR_TILT: f64 = 3.0;
/// Largest |Δ| of [`style_tilt`], in centipawns: the static evaluations it compares do not see a
/// pending recapture, and a style leans among plausible moves, it does not overturn the model.
pub const AVATAR_TILT_CAP_CP: i32 = 100;

/// The style difference Δ of each move (pawns, the mover's view, within ±[`AVATAR_TILT_CAP_CP`]):
/// the static evaluation of the position after the move under `styled` (an avatar's configuration)
/// less the same under `plain`.
pub fn style_tilt(pos: &Chess, moves: &[Move], styled: &EvalConfig, plain: &EvalConfig) -> Vec<f64> {
    moves
        .iter()
        .map(|&m| {
            let mut after = pos.clone();
            after.play_unchecked(m);
            // Both evaluations are from the opponent's view after the move.
            let d = crate::eval::evaluate(&after, plain) - crate::eval::evaluate(&after, styled);
            f64::from(d.clamp(-AVATAR_TILT_CAP_CP, AVATAR_TILT_CAP_CP)) / 100.0
        })
        .collect()
}

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
/// The look: the scores (cp, mover's view; mates as the search reports them) of `moves` in
/// `game`'s position by a shallow search of the model's own — every legal move searched once with
/// the full window to [`LOOK_DEPTH`] ([`Searcher::score_each`]), the
/// default evaluator, no tablebases, on `searcher` (a look searcher, [`Searcher::for_look`]),
/// cleared first — so it depends on
/// the position and its history only. A move the search did not score (none
/// should be missing) gets the lowest score.
pub fn look(searcher: &mut Searcher, game: &Game, moves: &[Move]) -> Vec<i32> {
    searcher.clear();
    let root = searcher.score_each(game, &Request::from(Limits::default()), LOOK_DEPTH);
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
    /// Units of the hidden layer ([`network`]); 0 (and absent in files before version 5): none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hidden: usize,
    /// How it was trained (data, split, seed, passes, penalties), free text per key.
    #[serde(default)]
    pub training: std::collections::BTreeMap<String, String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A loaded model.
#[derive(Clone, Debug)]
pub struct HumanModel {
    pub header: Header,
    /// `features × knots` weights, feature-major.
    weights: Vec<f32>,
    /// The hidden layer, when the model has one.
    hidden: Option<Hidden>,
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
            hidden: 0,
            training: Default::default(),
        };
        HumanModel { weights: vec![0.0; features::COUNT * KNOTS.len()], header, hidden: None, hash: String::new() }
    }

    /// [`HumanModel::zeros`] with a hidden layer of `size` units, all zero (the trainer draws
    /// its starting weights).
    pub fn zeros_with_hidden(name: &str, version: u32, size: usize) -> HumanModel {
        let mut m = HumanModel::zeros(name, version);
        if size > 0 {
            m.header.hidden = size;
            m.hidden = Some(Hidden::zeros(size, features::COUNT, KNOTS.len()));
        }
        m
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
        if header.hidden > MAX_HIDDEN {
            return Err(format!("human model file: {} hidden units, at most {MAX_HIDDEN}", header.hidden));
        }
        let n = header.features * header.knots.len();
        let mut hidden = (header.hidden > 0).then(|| Hidden::zeros(header.hidden, header.features, header.knots.len()));
        let total = n + hidden.as_ref().map_or(0, Hidden::len);
        if data.len() != 2 * total {
            return Err(format!("human model file: {} weight bytes, expected {}", data.len(), 2 * total));
        }
        let mut values =
            data.chunks_exact(2).map(|c| (f64::from(i16::from_le_bytes([c[0], c[1]])) * header.scale) as f32);
        let weights = values.by_ref().take(n).collect();
        if let Some(h) = hidden.as_mut() {
            for block in h.blocks_mut() {
                for w in block.iter_mut() {
                    *w = values.next().expect("length checked");
                }
            }
        }
        Ok(HumanModel { header, weights, hidden, hash: blake3::hash(bytes).to_hex().to_string() })
    }

    /// The file's bytes (weights rounded to the scale and clamped to the `i16` range).
    pub fn to_bytes(&self) -> Vec<u8> {
        let json = serde_json::to_vec(&self.header).expect("a header serialises");
        let mut out = Vec::with_capacity(12 + json.len() + 2 * self.weights.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(json.len() as u32).to_le_bytes());
        out.extend_from_slice(&json);
        let hidden = self.hidden.iter().flat_map(|h| h.blocks()).flatten();
        for &w in self.weights.iter().chain(hidden) {
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

    /// The hidden layer, when the model has one.
    pub fn hidden(&self) -> Option<&Hidden> {
        self.hidden.as_ref()
    }

    /// Both parts for training: the linear weights and the hidden layer.
    pub fn parts_mut(&mut self) -> (&mut [f32], Option<&mut Hidden>) {
        (&mut self.weights, self.hidden.as_mut())
    }

    /// The logits at each knot (`out[k][i]`) of the moves of `pos` whose active features are
    /// `active[starts[i]..starts[i + 1]]` ([`features::all`]); a rating's logits are
    /// `Σ φ_k(R)·out[k]` ([`HumanModel::basis`]).
    pub fn knot_logits(&self, pos: &Chess, active: &[u32], starts: &[usize]) -> Vec<Vec<f64>> {
        let k = self.header.knots.len();
        let mut s = Scratch::default();
        self.prepare(pos, &mut s);
        let mut out = vec![Vec::with_capacity(starts.len().saturating_sub(1)); k];
        for w in starts.windows(2) {
            let active = &active[w[0]..w[1]];
            for (knot, row) in out.iter_mut().enumerate() {
                row.push(self.logit(active, &[(knot, 1.0), (knot, 0.0)], &mut s));
            }
        }
        out
    }

    /// The logits of those moves for a player rated `rating`.
    pub fn logits(&self, pos: &Chess, active: &[u32], starts: &[usize], rating: f64) -> Vec<f64> {
        let mut s = Scratch::default();
        self.prepare(pos, &mut s);
        let basis = self.basis(rating);
        starts.windows(2).map(|w| self.logit(&active[w[0]..w[1]], &basis, &mut s)).collect()
    }

    /// The logits of moves given by their features, in a position given by its board inputs
    /// ([`network::board_inputs`]), for a player rated `rating`: what training scores with.
    pub fn logits_of<'a, F: Copy + Into<u32> + 'a>(
        &self,
        board: &[F],
        moves: impl Iterator<Item = &'a [F]>,
        rating: f64,
    ) -> Vec<f64> {
        let mut s = Scratch::default();
        if let Some(h) = &self.hidden {
            s.inputs.extend(board.iter().map(|&i| i.into()));
            h.accumulate(&s.inputs, &mut s.acc);
            s.units.resize(h.size, 0.0);
        }
        let basis = self.basis(rating);
        moves.map(|active| self.logit(active, &basis, &mut s)).collect()
    }

    /// [`HumanModel::logits_of`] at every knot (`out[k][i]`): the hidden units of a move are
    /// computed once for all knots, and each knot's logit is the one `logits_of` gives at that
    /// knot's rating.
    pub fn knot_logits_of<'a, F: Copy + Into<u32> + 'a>(
        &self,
        board: &[F],
        moves: impl Iterator<Item = &'a [F]>,
    ) -> Vec<Vec<f64>> {
        let k = self.header.knots.len();
        let mut s = Scratch::default();
        if let Some(h) = &self.hidden {
            s.inputs.extend(board.iter().map(|&i| i.into()));
            h.accumulate(&s.inputs, &mut s.acc);
            s.units.resize(h.size, 0.0);
        }
        let mut out: Vec<Vec<f64>> = vec![Vec::new(); k];
        for active in moves {
            if let Some(h) = &self.hidden {
                h.units(&s.acc, active, &mut s.units);
            }
            for (knot, row) in out.iter_mut().enumerate() {
                let mut sum = 0.0f32;
                for &f in active {
                    sum += self.weights[f.into() as usize * k + knot];
                }
                if let Some(h) = &self.hidden {
                    sum += h.output(&s.units, knot, k);
                }
                row.push(f64::from(sum));
            }
        }
        out
    }

    /// Fills the position's accumulator when the model has a hidden layer.
    fn prepare(&self, pos: &Chess, s: &mut Scratch) {
        if let Some(h) = &self.hidden {
            s.inputs.clear();
            network::board_inputs(pos, &mut s.inputs);
            h.accumulate(&s.inputs, &mut s.acc);
            s.units.resize(h.size, 0.0);
        }
    }

    /// One move's logit for the rating of `basis`, the position prepared in `s`. The linear part
    /// sums in `f32` in feature order (the arithmetic of models without a hidden layer since v1).
    fn logit<F: Copy + Into<u32>>(&self, active: &[F], basis: &[(usize, f32); 2], s: &mut Scratch) -> f64 {
        let k = self.header.knots.len();
        let mut sum = 0.0f32;
        for &f in active {
            let base = f.into() as usize * k;
            sum += basis[0].1 * self.weights[base + basis[0].0] + basis[1].1 * self.weights[base + basis[1].0];
        }
        if let Some(h) = &self.hidden {
            h.units(&s.acc, active, &mut s.units);
            sum += basis[0].1 * h.output(&s.units, basis[0].0, k) + basis[1].1 * h.output(&s.units, basis[1].0, k);
        }
        f64::from(sum)
    }

    /// `ln P_human(m)` for each of `moves` in `game`'s position, with its history and the look:
    /// what the engine uses.
    pub fn game_log_probs(&self, look_searcher: &mut Searcher, game: &Game, moves: &[Move], rating: f64) -> Vec<f64> {
        let scores = look(look_searcher, game, moves);
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
        log_softmax(&self.logits(pos, &active, &starts, rating))
    }
}

/// Most hidden units a model file may declare.
pub const MAX_HIDDEN: usize = 256;

/// Buffers of one evaluation.
#[derive(Default)]
struct Scratch {
    inputs: Vec<u32>,
    acc: Vec<f32>,
    units: Vec<f32>,
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

    fn with_random_hidden(size: usize) -> HumanModel {
        let mut m = HumanModel::zeros_with_hidden("test", 5, size);
        let (w, h) = m.parts_mut();
        let mut x = 12345u64;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.4
        };
        w.iter_mut().for_each(|v| *v = next());
        for block in h.unwrap().blocks_mut() {
            block.iter_mut().for_each(|v| *v = next());
        }
        HumanModel::from_bytes(&m.to_bytes()).unwrap()
    }

    #[test]
    fn a_hidden_layer_round_trips_and_mixes_like_the_knots() {
        let m = with_random_hidden(8);
        let bytes = m.to_bytes();
        let back = HumanModel::from_bytes(&bytes).unwrap();
        assert_eq!(back.header.hidden, 8);
        assert_eq!(back.hidden(), m.hidden());
        assert!(HumanModel::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err().contains("weight bytes"));
        // A linear model's header does not mention the layer, so older files read as before.
        let linear = HumanModel::zeros("t", 4).to_bytes();
        assert!(!String::from_utf8_lossy(&linear).contains("hidden"));
        let pos = parse_fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4").unwrap();
        let moves: Vec<Move> = shakmaty::Position::legal_moves(&pos).into_iter().collect();
        let (mut active, mut starts) = (Vec::new(), Vec::new());
        features::all(&pos, History::default(), &moves, None, &mut active, &mut starts);
        let at = m.knot_logits(&pos, &active, &starts);
        for rating in [700.0, 1300.0, 1999.0, 2600.0] {
            let direct = m.logits(&pos, &active, &starts, rating);
            let b = m.basis(rating);
            for (i, d) in direct.iter().enumerate() {
                let mixed = f64::from(b[0].1) * at[b[0].0][i] + f64::from(b[1].1) * at[b[1].0][i];
                assert!((d - mixed).abs() < 1e-4, "rating {rating} move {i}: {d} vs {mixed}");
            }
        }
        // The layer changes the logits, and not by a constant per position.
        let mut linear = m.clone();
        linear.hidden = None;
        let (with, without) = (m.logits(&pos, &active, &starts, 1500.0), linear.logits(&pos, &active, &starts, 1500.0));
        let diffs: Vec<f64> = with.iter().zip(&without).map(|(a, b)| a - b).collect();
        assert!(diffs.iter().any(|d| (d - diffs[0]).abs() > 1e-3), "{diffs:?}");
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

//! Maia-3 5M inside the engine: the human move model v7.
//!
//! P(move | position, the last 8 positions, rating of the player to move, rating of the opponent),
//! both ratings on the Lichess blitz scale, from a 5.2 M-parameter transformer (CSSLab, University
//! of Toronto, "Chessformer", ICLR 2026; weights AGPL-3.0, see `profiles/human/PROVENANCE.md`).
//!
//! - [`encode`]: the 64 × 96 input (8 positions × 12 planes, from the mover's view);
//! - [`vocab`]: the 4352 move outputs (Black's moves mirrored);
//! - [`weights`]: the weights file (`profiles/human/maia3-5m-v7.bin`), embedded in the binary;
//! - [`net`]: the forward pass, bit-identical on every CPU ([`math`] says how).
//!
//! The embedded file is parsed once, on first use ([`builtin`]), not at start-up. A file from disk
//! can be loaded with [`Maia3::load`]; a missing, corrupt or wrong-shaped file is an error that says
//! so.

pub mod encode;
pub mod math;
pub mod net;
pub mod vocab;
pub mod weights;

use std::path::Path;
use std::sync::OnceLock;

pub use encode::{History, Tokens};
pub use net::Query;
use shakmaty::{Move, Position};

/// The shipped weights (the file `profiles/human/maia3-5m-v7.bin`, 20.9 MB).
pub static WEIGHTS: &[u8] = include_bytes!("../../../profiles/human/maia3-5m-v7.bin");
/// The file's name under `profiles/`, its manifest name and version.
pub const FILE: &str = "human/maia3-5m-v7.bin";
pub const NAME: &str = "human-model";
pub const VERSION: u32 = 7;

/// A loaded model.
pub struct Maia3 {
    net: net::Net,
}

/// A legal move with its model log-probability (natural log, over the legal moves).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveProb {
    pub mv: Move,
    pub logit: f32,
    pub log_prob: f64,
}

/// The shipped model, parsed and checked on first use.
pub fn builtin() -> Result<&'static Maia3, String> {
    static MODEL: OnceLock<Result<Maia3, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| Maia3::from_bytes(WEIGHTS).map_err(|e| format!("built-in {FILE}: {e}")))
        .as_ref()
        .map_err(Clone::clone)
}

/// blake3 of the embedded file, hex (the manifest holds it).
pub fn builtin_hash_hex() -> String {
    blake3::hash(WEIGHTS).to_hex().to_string()
}

impl Maia3 {
    pub fn from_bytes(bytes: &[u8]) -> Result<Maia3, String> {
        let t = weights::Tensors::parse(bytes)?;
        Ok(Maia3 { net: net::Net::new(&t) })
    }

    /// A weights file from disk.
    pub fn load(path: &Path) -> Result<Maia3, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("Maia-3 weights file {}: {e}", path.display()))?;
        Maia3::from_bytes(&bytes).map_err(|e| format!("Maia-3 weights file {}: {e}", path.display()))
    }

    pub fn net(&self) -> &net::Net {
        &self.net
    }

    pub fn net_mut(&mut self) -> &mut net::Net {
        &mut self.net
    }

    /// The 4352 move logits of one input.
    pub fn logits(&self, tokens: &Tokens, self_elo: i64, oppo_elo: i64) -> Vec<f32> {
        self.net.logits(&[Query { tokens, self_elo, oppo_elo }])
    }

    /// The logits of many queries in one batched pass (4352 per query, in order).
    pub fn logits_batch(&self, queries: &[Query]) -> Vec<Vec<f32>> {
        self.net.logits(queries).chunks_exact(vocab::VOCAB).map(<[f32]>::to_vec).collect()
    }

    /// One position at many (self, opponent) rating pairs, batched (for fits): per pair, the
    /// legal moves with their log-probabilities.
    pub fn distributions(&self, history: &History, pairs: &[(i64, i64)]) -> Vec<Vec<MoveProb>> {
        let tokens = history.tokens();
        let mut out = Vec::with_capacity(pairs.len());
        // Batches of 16 keep the scratch buffers in the caches.
        for chunk in pairs.chunks(16) {
            let queries: Vec<Query> =
                chunk.iter().map(|&(s, o)| Query { tokens: &tokens, self_elo: s, oppo_elo: o }).collect();
            for logits in self.net.logits(&queries).chunks_exact(vocab::VOCAB) {
                out.push(legal_softmax(history.current(), logits));
            }
        }
        out
    }

    /// The legal moves of the history's current position with their log-probabilities.
    pub fn distribution(&self, history: &History, self_elo: i64, oppo_elo: i64) -> Vec<MoveProb> {
        let logits = self.logits(&history.tokens(), self_elo, oppo_elo);
        legal_softmax(history.current(), &logits)
    }
}

/// The softmax of the logits over the legal moves of `pos` (in shakmaty's move order), computed in
/// f64 with our own exp and ln (deterministic everywhere). Empty when there is no legal move.
pub fn legal_softmax(pos: &shakmaty::Chess, logits: &[f32]) -> Vec<MoveProb> {
    let turn = pos.turn();
    let moves: Vec<(Move, f32)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let i = vocab::index(&m, turn).expect("a chess move has a vocabulary index");
            (m, logits[i])
        })
        .collect();
    let Some(max) = moves.iter().map(|m| m.1 as f64).reduce(f64::max) else { return Vec::new() };
    let mut sum = 0f64;
    for m in &moves {
        sum += math::exp64(m.1 as f64 - max);
    }
    let log_z = max + math::ln64(sum);
    moves.into_iter().map(|(mv, logit)| MoveProb { mv, logit, log_prob: logit as f64 - log_z }).collect()
}

/// A log-probability rounded to a grid of 2⁻¹⁶ (a second safety before it enters a choice: a
/// difference in the last bits could only change a choice at a grid boundary).
pub fn on_grid(log_prob: f64) -> f64 {
    (log_prob * 65536.0).round() / 65536.0
}

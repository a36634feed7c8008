//! Human move models owned by the engine.
//!
//! - [`maia3`]: Maia-3 5M (CSSLab, a transformer trained on Lichess blitz games, conditioned on both
//!   players' ratings), the human move model v7: its input encoding, move vocabulary, weights file
//!   and a hand-written forward pass that gives bit-identical logits on every CPU.
//!
//! - [`v6`]: the model of v4-v6 (sparse features × rating knots, a hidden layer since v5), its
//!   own depth-1 look, its file format and the style tilt of its log-probabilities; ladder v21
//!   falls back to it where Maia-3's weights cannot be read.
//!
//! `policy/` keeps only the choice among scored root moves; it adds `beta · ln P_human` from here.

pub mod maia3;
pub mod v6;

//! Human move models owned by the engine.
//!
//! - [`maia3`]: Maia-3 5M (CSSLab, a transformer trained on Lichess blitz games, conditioned on both
//!   players' ratings), the human move model v7: its input encoding, move vocabulary, weights file
//!   and a hand-written forward pass that gives bit-identical logits on every CPU.
//!
//! The model of v4-v6 (sparse features × rating knots) is still `policy::human`.

pub mod maia3;

//! Decision seeding (SPEC 4): every stochastic choice the engine makes draws from a ChaCha20 stream
//! whose 32-byte seed is derived with blake3 from what the deciding seat may see.
//!
//! # Derivation (part of the protocol; `profiles/SEEDING.md` says the same in prose)
//!
//! ```text
//! material = match_seed   as u64, 8 bytes little-endian
//!         || ply          as u32, 4 bytes little-endian
//!         || seat         as u8,  1 byte  (0 = White, 1 = Black)
//!         || position_key as u64, 8 bytes little-endian (board::zobrist of the position)
//!         || len(tag)     as u32, 4 bytes little-endian
//!         || tag          UTF-8 bytes
//! seed32   = blake3::derive_key("sparring 2026 decision seed v1", material)
//! rng      = ChaCha20Rng::from_seed(seed32)      (stream 0, word position 0)
//! ```
//!
//! The tag names the decision (see [`tags`]); one decision builds one fresh generator, so what was
//! drawn for earlier moves, or in another process, never influences it. Within a decision the order
//! of draws is fixed by `policy::choose` (documented there and in `SEEDING.md`).
//!
//! [`uniform_f64`] and [`pick_index`] are the only two ways the engine turns the stream into
//! decisions; both are specified exactly so another implementation can reproduce them.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use shakmaty::{Chess, Color, Position};
use std::sync::atomic::{AtomicU64, Ordering};

/// The blake3 `derive_key` context string. Changing it is a protocol change.
pub const SEED_CONTEXT: &str = "sparring 2026 decision seed v1";

/// Stream tags naming the decisions that draw random numbers.
pub mod tags {
    /// The move choice of a search profile or ladder level (slip draw, then plateau/Boltzmann/slip pick).
    pub const CHOICE: &str = "choice";
    /// The move of the `random` profile.
    pub const RANDOM: &str = "random";
    /// Whether a ladder level looks deeper this move (drawn only by levels with `deep_p > 0`).
    pub const DEPTH: &str = "depth";
    /// How long a weak setting with `Human Time` waits before answering (`crate::human_time`).
    pub const TIME: &str = "time";
}

/// The exact bytes hashed for a decision seed (see the module documentation).
pub fn seed_material(match_seed: u64, ply: u32, seat: Color, position_key: u64, tag: &str) -> Vec<u8> {
    let mut m = Vec::with_capacity(25 + tag.len());
    m.extend_from_slice(&match_seed.to_le_bytes());
    m.extend_from_slice(&ply.to_le_bytes());
    m.push(match seat {
        Color::White => 0,
        Color::Black => 1,
    });
    m.extend_from_slice(&position_key.to_le_bytes());
    m.extend_from_slice(&(tag.len() as u32).to_le_bytes());
    m.extend_from_slice(tag.as_bytes());
    m
}

/// The 32-byte ChaCha20 seed of a decision.
pub fn decision_seed(match_seed: u64, ply: u32, seat: Color, position_key: u64, tag: &str) -> [u8; 32] {
    blake3::derive_key(SEED_CONTEXT, &seed_material(match_seed, ply, seat, position_key, tag))
}

/// The generator for one decision: `ChaCha20Rng::from_seed(decision_seed(..))`.
///
/// `ply` is the game ply of the position decided on (see [`game_ply`]), `seat` the colour the
/// engine plays at that move, `position_key` the position's `board::zobrist` key and `tag` one of
/// [`tags`].
pub fn decision_rng(match_seed: u64, ply: u32, seat: Color, position_key: u64, tag: &str) -> ChaCha20Rng {
    ChaCha20Rng::from_seed(decision_seed(match_seed, ply, seat, position_key, tag))
}

/// The game ply of a position, read from the position itself so that it depends only on what the
/// `position` command gave: `2 × (fullmove number − 1) + (1 if Black is to move)`, saturating at `u32::MAX`.
pub fn game_ply(pos: &Chess) -> u32 {
    let full = pos.fullmoves().get();
    (full - 1).saturating_mul(2).saturating_add(u32::from(pos.turn() == Color::Black))
}

/// [`decision_rng`] for the side to move of `pos`, with `ply = game_ply(pos)` and
/// `position_key = board::zobrist(pos)`.
pub fn decision_rng_for(match_seed: u64, pos: &Chess, tag: &str) -> ChaCha20Rng {
    decision_rng(match_seed, game_ply(pos), pos.turn(), crate::board::zobrist(pos), tag)
}

/// A uniform number in [0, 1): the top 53 bits of one `next_u64`, times 2⁻⁵³.
pub fn uniform_f64(rng: &mut ChaCha20Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// An unbiased index in `0..n` by rejection: draw `x = next_u64`, reject while
/// `x ≥ 2⁶⁴ − (2⁶⁴ mod n)`, return `x mod n`. Exactly one draw unless rejected (probability
/// below n/2⁶⁴). Panics when `n == 0`.
pub fn pick_index(rng: &mut ChaCha20Rng, n: usize) -> usize {
    assert!(n > 0, "pick_index over an empty set");
    let n = n as u64;
    // 2^64 mod n, computed without overflow.
    let rem = (u64::MAX % n + 1) % n;
    let limit = 0u64.wrapping_sub(rem); // 2^64 - rem; meaningless (0) when rem == 0
    loop {
        let x = rng.next_u64();
        if rem == 0 || x < limit {
            return (x % n) as usize;
        }
    }
}

/// Largest value of the UCI `Seed` spin option (a 32-bit signed spin, as GUIs expect).
pub const MAX_SEED_OPTION: u64 = 2_147_483_647;

/// A new match seed for `Seed = 0`, in `1..=MAX_SEED_OPTION` so that the reported value can be
/// set back through the `Seed` option to replay the game: blake3 of the wall clock (ns), the
/// process id and a per-process counter, first 8 bytes little-endian, reduced modulo
/// `MAX_SEED_OPTION` plus one. Not reproducible by design; the engine reports it.
pub fn fresh_match_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let mut h = blake3::Hasher::new_derive_key("sparring 2026 fresh match seed v1");
    h.update(&nanos.to_le_bytes());
    h.update(&std::process::id().to_le_bytes());
    h.update(&COUNTER.fetch_add(1, Ordering::Relaxed).to_le_bytes());
    let bytes = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&bytes.as_bytes()[..8]);
    u64::from_le_bytes(first) % MAX_SEED_OPTION + 1
}

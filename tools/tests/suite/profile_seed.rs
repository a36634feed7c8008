//! The decision-seeding protocol (SPEC 4, profiles/SEEDING.md): golden values, so that an
//! accidental change of the derivation fails here.

use rand_chacha::rand_core::Rng;
use shakmaty::{Chess, Color, Position};
use sparring::board::zobrist;
use sparring::seed::{
    MAX_SEED_OPTION, SEED_CONTEXT, decision_rng, decision_rng_for, decision_seed, fresh_match_seed, game_ply,
    pick_index, seed_material, tags, uniform_f64,
};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn seed_material_layout_is_fixed() {
    let m = seed_material(0x0102_0304_0506_0708, 0x0a0b_0c0d, Color::Black, 0x1112_1314_1516_1718, "choice");
    assert_eq!(
        hex(&m),
        "0807060504030201\
         0d0c0b0a\
         01\
         1817161514131211\
         06000000\
         63686f696365"
    );
    assert_eq!(seed_material(0, 0, Color::White, 0, "")[12], 0);
    assert_eq!(SEED_CONTEXT, "sparring 2026 decision seed v1");
    assert_eq!(tags::CHOICE, "choice");
    assert_eq!(tags::RANDOM, "random");
}

#[test]
fn golden_seed_and_first_outputs() {
    let key = zobrist(&Chess::default());
    assert_eq!(key, 0x463b_9618_1691_fc9c, "start position Zobrist key changed");
    let seed = decision_seed(42, 0, Color::White, key, tags::CHOICE);
    let mut rng = decision_rng(42, 0, Color::White, key, tags::CHOICE);
    let first = rng.next_u64();
    let second = rng.next_u64();
    println!("seed {} first {first:#018x} second {second:#018x}", hex(&seed));
    assert_eq!(hex(&seed), GOLDEN_SEED);
    assert_eq!(first, GOLDEN_FIRST);
    assert_eq!(second, GOLDEN_SECOND);

    let mut r2 = decision_rng(7, 13, Color::Black, 0xdead_beef, tags::RANDOM);
    let v = r2.next_u64();
    println!("second golden {v:#018x}");
    assert_eq!(v, GOLDEN_OTHER);
}

const GOLDEN_SEED: &str = "3680b1bf72f938ec04fbfe329c1c3dc806845d52269b119b45afaadf55cffca7";
const GOLDEN_FIRST: u64 = 0xdc71_2677_eafb_a592;
const GOLDEN_SECOND: u64 = 0xf907_ab1b_c2c6_0136;
const GOLDEN_OTHER: u64 = 0x6e27_e431_2767_17ca;

#[test]
fn every_input_changes_the_stream() {
    let base = || decision_rng(1, 10, Color::White, 99, "choice").next_u64();
    let b = base();
    assert_eq!(b, base(), "same inputs, same stream");
    assert_ne!(b, decision_rng(2, 10, Color::White, 99, "choice").next_u64());
    assert_ne!(b, decision_rng(1, 11, Color::White, 99, "choice").next_u64());
    assert_ne!(b, decision_rng(1, 10, Color::Black, 99, "choice").next_u64());
    assert_ne!(b, decision_rng(1, 10, Color::White, 98, "choice").next_u64());
    assert_ne!(b, decision_rng(1, 10, Color::White, 99, "random").next_u64());
}

#[test]
fn decision_rng_for_reads_ply_seat_and_key_from_the_position() {
    let start = Chess::default();
    assert_eq!(game_ply(&start), 0);
    let after_e4 = {
        let m = start.legal_moves()[0];
        start.clone().play(m).unwrap()
    };
    assert_eq!(game_ply(&after_e4), 1);
    let mut a = decision_rng_for(5, &after_e4, tags::CHOICE);
    let mut b = decision_rng(5, 1, Color::Black, zobrist(&after_e4), tags::CHOICE);
    assert_eq!(a.next_u64(), b.next_u64());
}

#[test]
fn uniform_f64_is_in_unit_interval_and_uses_53_bits() {
    let mut rng = decision_rng(3, 0, Color::White, 0, "t");
    let mut copy = rng.clone();
    for _ in 0..10_000 {
        let x = uniform_f64(&mut rng);
        assert!((0.0..1.0).contains(&x));
        let raw = copy.next_u64();
        assert_eq!(x, (raw >> 11) as f64 / 9_007_199_254_740_992.0);
    }
}

#[test]
fn pick_index_is_in_range_and_roughly_uniform() {
    let mut rng = decision_rng(4, 0, Color::White, 0, "t");
    let n = 7;
    let mut counts = [0u32; 7];
    for _ in 0..70_000 {
        counts[pick_index(&mut rng, n)] += 1;
    }
    for c in counts {
        assert!((9_400..=10_600).contains(&c), "{counts:?}");
    }
    assert_eq!(pick_index(&mut rng, 1), 0);
    // Powers of two and n = 2^63 + 1 (heavy rejection zone) stay in range.
    for n in [2usize, 64, (1usize << 63) + 1, usize::MAX] {
        for _ in 0..100 {
            assert!(pick_index(&mut rng, n) < n);
        }
    }
}

#[test]
fn fresh_match_seeds_fit_the_seed_option_and_differ() {
    let seeds: std::collections::HashSet<u64> = (0..2000).map(|_| fresh_match_seed()).collect();
    assert_eq!(seeds.len(), 2000);
    // A reported seed must be accepted back by `setoption name Seed` (spin 0..=MAX_SEED_OPTION).
    assert!(seeds.iter().all(|s| (1..=MAX_SEED_OPTION).contains(s)));
    // Not squeezed into a small corner of the range either.
    assert!(seeds.iter().any(|&s| s > MAX_SEED_OPTION / 2));
}

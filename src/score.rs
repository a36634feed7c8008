//! Scores, in one convention for the whole crate.
//!
//! A score is an `i32` in centipawns from the side to move's point of view. A mate in `n` plies
//! for the side to move scores `MATE - n`, being mated in `n` plies `-(MATE - n)`; anything beyond
//! `±MATE_BOUND` is a mate score. What engines print (`score cp N` / `score mate N`, N in moves)
//! is [`Score`], which converts to and from the internal form without loss.

/// Score of a mate in 0 plies; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// The deepest ply a search reaches (and so the longest mate it can announce).
pub const MAX_PLY: usize = 128;
/// Scores above this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Beyond every score: the search's initial window.
pub const INFINITY: i32 = MATE + 1;
/// What a mate counts as in centipawn-loss arithmetic (`as_cp`).
pub const MATE_AS_CP: i32 = 10_000;

/// The score of mating in `ply` plies.
pub const fn mate_in(ply: i32) -> i32 {
    MATE - ply
}

/// The score of being mated in `ply` plies.
pub const fn mated_in(ply: i32) -> i32 {
    -MATE + ply
}

/// True for a mate score, either side.
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// True when the side to move is being mated.
pub fn is_mated(score: i32) -> bool {
    score < -MATE_BOUND
}

/// Signed moves to mate for a mate score (positive: side to move mates), `None` for a normal score.
pub fn mate_moves(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// The internal score of a UCI `score mate N` (signed moves): mating in N moves is mating in
/// `2N - 1` plies, being mated in N moves is being mated in `2N` plies. `N = 0` (the side to move
/// is mated) is mated in 0 plies.
pub fn from_mate_moves(n: i32) -> i32 {
    if n > 0 { mate_in(2 * n - 1) } else { mated_in(2 * -n) }
}

/// The score for centipawn-loss arithmetic: mate scores become `±MATE_AS_CP`.
pub fn as_cp(score: i32) -> i32 {
    if score > MATE_BOUND {
        MATE_AS_CP
    } else if score < -MATE_BOUND {
        -MATE_AS_CP
    } else {
        score
    }
}

/// A score as engines print it over UCI, side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    Cp(i32),
    /// Signed moves to mate: positive when the side to move mates.
    Mate(i32),
}

impl Score {
    /// From an internal score.
    pub fn from_internal(score: i32) -> Score {
        match mate_moves(score) {
            Some(n) => Score::Mate(n),
            None => Score::Cp(score),
        }
    }

    /// To an internal score (centipawns are clamped inside `±MATE_BOUND`).
    pub fn to_internal(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-MATE_BOUND, MATE_BOUND),
            Score::Mate(n) => from_mate_moves(n),
        }
    }

    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }

    /// A total order: mates beyond every centipawn value, shorter mates for the side to move
    /// higher, shorter mates against it lower.
    pub fn order_value(self) -> i64 {
        match self {
            Score::Cp(cp) => i64::from(cp),
            Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
            Score::Mate(n) => -1_000_000 - i64::from(n),
        }
    }

    /// `cp N` or `mate N`, as in an `info` line.
    pub fn uci(self) -> String {
        match self {
            Score::Cp(cp) => format!("cp {cp}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_conversions_round_trip() {
        for ply in 0..MAX_PLY as i32 {
            for s in [mate_in(ply), mated_in(ply)] {
                assert!(is_mate(s));
                let n = mate_moves(s).unwrap();
                // The UCI form loses the parity of the plies only in the direction it encodes.
                assert_eq!(mate_moves(from_mate_moves(n)), Some(n), "score {s}");
            }
        }
        assert_eq!(mate_moves(mate_in(1)), Some(1));
        assert_eq!(mate_moves(mate_in(3)), Some(2));
        assert_eq!(mate_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_moves(mated_in(0)), Some(0));
        assert_eq!(from_mate_moves(1), mate_in(1));
        assert_eq!(from_mate_moves(-1), mated_in(2));
        assert_eq!(mate_moves(250), None);
        assert!(!is_mate(MATE_BOUND));
        assert!(is_mated(mated_in(5)) && !is_mated(mate_in(5)));
    }

    #[test]
    fn cp_and_order() {
        assert_eq!(as_cp(mate_in(3)), MATE_AS_CP);
        assert_eq!(as_cp(mated_in(3)), -MATE_AS_CP);
        assert_eq!(as_cp(-42), -42);
        let ordered = [Score::Mate(-1), Score::Mate(-5), Score::Cp(-300), Score::Cp(40), Score::Mate(7), Score::Mate(2)];
        for w in ordered.windows(2) {
            assert!(w[0].order_value() < w[1].order_value(), "{w:?}");
            assert!(w[0].to_internal() < w[1].to_internal(), "{w:?}");
        }
        assert_eq!(Score::from_internal(mate_in(5)), Score::Mate(3));
        assert_eq!(Score::Mate(-2).uci(), "mate -2");
    }
}

//! Move quality, the one definition the strength estimator and the human-likeness bench share:
//! the loss cap, the scaled error of the Regan–Haworth method, which positions count, and the
//! loss of a move.

use sparring::score::{self, Score};

/// Centipawn losses are capped here (the seed document's cap): a worse move counts as no worse.
pub const LOSS_CAP: i32 = 300;
/// Positions whose best value is beyond this (either side's view) are decided and do not count:
/// the bound inside which the ladder's points use the human move model.
pub use sparring::human::v6::DECIDED_CP;

/// The scaled error: `ln(1 + min(loss, 300) / 100)`; a negative loss counts as 0.
pub fn scaled_error(loss: i32) -> f64 {
    (1.0 + f64::from(loss.clamp(0, LOSS_CAP)) / 100.0).ln()
}

/// Why a position's move does not count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Excluded {
    /// Only one legal move.
    Forced,
    /// The best value is a mate.
    Mate,
    /// |best value| > [`DECIDED_CP`].
    Decided,
}

/// The eligibility rule: a position with `legal_moves` moves whose best value (side to move's
/// view) is `best` counts unless it is forced, a mate or decided.
pub fn exclusion(legal_moves: usize, best: Score) -> Option<Excluded> {
    if legal_moves < 2 {
        return Some(Excluded::Forced);
    }
    match best {
        Score::Mate(_) => Some(Excluded::Mate),
        Score::Cp(cp) if cp.abs() > DECIDED_CP => Some(Excluded::Decided),
        Score::Cp(_) => None,
    }
}

/// The loss of a move from a table of scored moves: best − played in [0, `LOSS_CAP`]; a move
/// into a mate for the mover loses nothing against a centipawn best, a move that misses a mate
/// or walks into one loses the cap.
pub fn table_loss(best: Score, played: Score) -> i32 {
    match (best, played) {
        (Score::Cp(b), Score::Cp(p)) => (b - p).clamp(0, LOSS_CAP),
        (Score::Cp(_), Score::Mate(n)) => {
            if n > 0 {
                0
            } else {
                LOSS_CAP
            }
        }
        (Score::Mate(b), Score::Mate(p)) if b == p => 0,
        (Score::Mate(_), _) => LOSS_CAP,
    }
}

/// A move that loses at least this much (cp, uncapped) is a blunder: the losses above
/// [`LOSS_CAP`] that the capped mean cannot tell apart (a piece left hanging, not a pawn) and that
/// decide games between people.
pub const BLUNDER_CP: i32 = 500;

/// Whether the played move loses at least [`BLUNDER_CP`] against the best, uncapped, a mate
/// counting as ±[`MATE_AS_BLUNDER_CP`] (so walking into a mate is one, and so is missing one).
pub fn is_blunder(best: Score, played: Score) -> bool {
    let cp = |s: Score| match s {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => MATE_AS_BLUNDER_CP,
        Score::Mate(_) => -MATE_AS_BLUNDER_CP,
    };
    cp(best) - cp(played) >= BLUNDER_CP
}
/// A mate's value for [`is_blunder`].
pub const MATE_AS_BLUNDER_CP: i32 = 10_000;

/// The loss of a played move from two oracle values (internal scores, side to move's view):
/// `max(0, value − played)` with mates counted as `±MATE_AS_CP`, uncapped.
pub fn value_loss(value: i32, played_value: i32) -> i32 {
    (score::as_cp(value) - score::as_cp(played_value)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blunder_is_an_uncapped_loss_of_five_hundred_or_a_mate_walked_into_or_missed() {
        assert!(is_blunder(Score::Cp(40), Score::Cp(-460)));
        assert!(!is_blunder(Score::Cp(40), Score::Cp(-459)));
        // Capped, the two losses below are the same 300; only one of them is a blunder.
        assert_eq!(table_loss(Score::Cp(0), Score::Cp(-350)), table_loss(Score::Cp(0), Score::Cp(-900)));
        assert!(!is_blunder(Score::Cp(0), Score::Cp(-350)));
        assert!(is_blunder(Score::Cp(0), Score::Cp(-900)));
        assert!(is_blunder(Score::Cp(-200), Score::Mate(-3)));
        assert!(!is_blunder(Score::Mate(-2), Score::Mate(-1)));
        assert!(is_blunder(Score::Mate(2), Score::Cp(700)));
        assert!(!is_blunder(Score::Mate(2), Score::Mate(4)));
        assert!(!is_blunder(Score::Cp(100), Score::Mate(5)));
    }

    #[test]
    fn rules() {
        assert_eq!(scaled_error(-5), 0.0);
        assert_eq!(scaled_error(1000), scaled_error(LOSS_CAP));
        assert_eq!(exclusion(1, Score::Cp(0)), Some(Excluded::Forced));
        assert_eq!(exclusion(3, Score::Mate(-2)), Some(Excluded::Mate));
        assert_eq!(exclusion(3, Score::Cp(-601)), Some(Excluded::Decided));
        assert_eq!(exclusion(3, Score::Cp(600)), None);
        assert_eq!(table_loss(Score::Cp(50), Score::Cp(-500)), LOSS_CAP);
        assert_eq!(table_loss(Score::Mate(2), Score::Mate(2)), 0);
        assert_eq!(table_loss(Score::Cp(10), Score::Mate(3)), 0);
        assert_eq!(value_loss(score::mate_in(3), 100), score::MATE_AS_CP - 100);
        assert_eq!(value_loss(0, 40), 0);
    }
}

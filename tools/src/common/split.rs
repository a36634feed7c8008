//! The one split of a games file into a fit, a validation and a test part, used by every tool that
//! fits or judges anything on rated games (the human-model trainer and the ladder fit in
//! `humanlike`, the estimator's game model in `strength`): a game's part depends only on its place
//! in its file, seven of every ten games fit, one validates, two test. Tools number games either by
//! their 0-based index in the file (`humanlike`) or by their 1-based number (`strength`, the PGN
//! reader's `GameRecord::number`); both name the same game, so both parts are the same games.
//! (The human move model may leave part of the fit part unseen, `sparring::profile::human_model::in_fit_share`,
//! for the estimator to fit on.)

/// Which part of the data a game belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Part {
    Fit,
    Validation,
    Test,
}

/// Games in one round of the split: `FIT` fit games, then one validation game, then the test games.
pub const ROUND: usize = 10;
/// Fit games per round.
pub const FIT: usize = 7;
/// Validation games per round (after the fit games; the rest of the round is test).
pub const VALIDATION: usize = 1;

/// The part of the game at 0-based `index` in its file.
pub fn part_of_index(index: usize) -> Part {
    match index % ROUND {
        i if i < FIT => Part::Fit,
        i if i < FIT + VALIDATION => Part::Validation,
        _ => Part::Test,
    }
}

/// The part of the game numbered `number` (1-based) in its file: the same game as index `number - 1`.
pub fn part_of_number(number: usize) -> Part {
    part_of_index(number.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_one_two_per_ten() {
        let parts: Vec<Part> = (0..10).map(part_of_index).collect();
        assert_eq!(parts.iter().filter(|p| **p == Part::Fit).count(), 7);
        assert_eq!(parts[7], Part::Validation);
        assert_eq!(&parts[8..], &[Part::Test, Part::Test]);
        for i in 0..100 {
            assert_eq!(part_of_number(i + 1), part_of_index(i));
            assert_eq!(part_of_index(i + ROUND), part_of_index(i));
        }
    }
}

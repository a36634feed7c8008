//! Records shared by the sampler, the oracle and the measurement (`common::scored`, re-exported
//! here), and the rating bands.

pub use crate::common::quality::{DECIDED_CP, LOSS_CAP, scaled_error};
pub use crate::common::scored::*;
pub use sparring::score::Score;

/// Rating bands `lo, lo+200, …` below `hi`, from text like `800-2400`.
pub fn parse_bands(text: &str) -> Result<Vec<u32>, String> {
    let (a, b) = text.split_once('-').ok_or_else(|| format!("bands '{text}': expected LO-HI"))?;
    let lo: u32 = a.trim().parse().map_err(|_| format!("bad band start '{a}'"))?;
    let hi: u32 = b.trim().parse().map_err(|_| format!("bad band end '{b}'"))?;
    if !lo.is_multiple_of(200) || !hi.is_multiple_of(200) || hi <= lo {
        return Err(format!("bands '{text}': bounds must be multiples of 200 with LO < HI"));
    }
    Ok((lo..hi).step_by(200).collect())
}

/// The 200-point band of a rating.
pub fn band_of(rating: u32) -> u32 {
    rating / 200 * 200
}

//! Every tunable of the search in one place. Changing any of these changes the `bench` signature.

/// Aspiration window: first half-width and growth.
pub const ASPIRATION_DEPTH: i32 = 5;
pub const ASPIRATION_WINDOW: i32 = 20;
pub const ASPIRATION_GROWTH_NUM: i32 = 3;
pub const ASPIRATION_GROWTH_DEN: i32 = 2;

/// Reverse futility (static null move) pruning.
pub const RFP_DEPTH: i32 = 8;
pub const RFP_MARGIN: i32 = 70;
pub const RFP_IMPROVING_BONUS: i32 = 50;

/// Null-move pruning.
pub const NMP_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
pub const NMP_EVAL_DIVISOR: i32 = 200;
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;

/// Internal iterative reduction when there is no hash move.
pub const IIR_DEPTH: i32 = 4;

/// Futility pruning of quiet moves near the leaves.
pub const FP_DEPTH: i32 = 7;
pub const FP_BASE: i32 = 90;
pub const FP_MARGIN: i32 = 75;

/// Late-move pruning: quiets after (LMP_BASE + depth^2) / (2 - improving) moves are skipped.
pub const LMP_DEPTH: i32 = 8;
pub const LMP_BASE: i32 = 3;

/// SEE pruning thresholds per depth.
pub const SEE_PRUNE_DEPTH: i32 = 8;
pub const SEE_QUIET_MARGIN: i32 = -60;
pub const SEE_NOISY_MARGIN: i32 = -25;

/// Late-move reductions: r = LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR (in hundredths).
pub const LMR_BASE: f64 = 0.75;
pub const LMR_DIVISOR: f64 = 2.25;
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_HISTORY_DIVISOR: i32 = 6000;

/// Singular extensions (generation 3): from this depth, with a hash entry at most
/// SE_TT_DEPTH_MARGIN plies shallower; alternatives must stay SE_MARGIN * depth below its score.
pub const SE_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_MARGIN: i32 = 2;

/// Quiescence: delta pruning margin.
pub const QS_DELTA_MARGIN: i32 = 200;

/// History: bonus is depth^2 capped, entries saturate at HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;
pub const HISTORY_BONUS_MAX: i32 = 1_600;
/// Generation 6: bonus = min(SQUARE * depth^2 + LINEAR * (depth - 1), V6_MAX).
pub const HISTORY_BONUS_V6_SQUARE: i32 = 16;
pub const HISTORY_BONUS_V6_LINEAR: i32 = 128;
pub const HISTORY_BONUS_V6_MAX: i32 = 2_400;

/// Capture history (generation 6): entries saturate at HISTORY_MAX like the quiet tables; within
/// the good and bad capture classes the ordering adds entry / CAPTURE_HISTORY_ORDER_DIVISOR to
/// MVV-LVA (at most 2048, less than one victim step of MVV-LVA, so a capture history only breaks
/// near-ties).
pub const CAPTURE_HISTORY_ORDER_DIVISOR: i32 = 8;

/// Correction history (generation 6): per side to move and pawn-structure hash, a running average
/// of (search score - static evaluation) in 1/CORRECTION_GRAIN centipawns. Each update weighs the
/// new difference by min(depth + 1, CORRECTION_MAX_WEIGHT) / CORRECTION_WEIGHT_SCALE; entries are
/// clamped to +-CORRECTION_MAX centipawns.
pub const CORRECTION_SIZE: usize = 16_384;
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_WEIGHT_SCALE: i32 = 256;
pub const CORRECTION_MAX_WEIGHT: i32 = 16;
pub const CORRECTION_MAX: i32 = 64;

/// Time management.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Generation 5: the clock (less overhead) is shared over this many moves when `movestogo` is absent.
pub const FRONT_LOADED_MOVES_TO_GO: u32 = 16;
pub const MAX_MOVES_TO_GO: u32 = 50;
pub const HARD_LIMIT_FACTOR: u32 = 4;
/// Never plan to spend more than this fraction (percent) of the remaining clock on one move.
pub const MAX_TIME_FRACTION: u32 = 40;
/// Nodes between clock checks.
pub const TIME_CHECK_INTERVAL: u64 = 1024;

/// SEE piece values.
pub const SEE_VALUES: [i32; 7] = [0, 100, 320, 330, 500, 950, 20_000];

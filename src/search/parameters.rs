//! Every tunable of the search in one place. Changing any of these changes the `bench` signature
//! (the time-management values change only clock-limited play).

use std::time::Duration;

/// Aspiration windows start at this iteration depth; before it every iteration uses a full window.
pub const ASPIRATION_DEPTH: i32 = 5;
/// Aspiration window: first half-width around the previous iteration's score.
pub const ASPIRATION_WINDOW: i32 = 20;
/// Aspiration window growth after a fail: delta * NUM / DEN.
pub const ASPIRATION_GROWTH_NUM: i32 = 3;
/// Aspiration window growth: denominator (see `ASPIRATION_GROWTH_NUM`).
pub const ASPIRATION_GROWTH_DEN: i32 = 2;

/// Iterative deepening: with a single legal root move and a clock, stop after this depth.
pub const SINGLE_MOVE_DEPTH: i32 = 4;
/// Iterative deepening: soft time limit in percent, by how many iterations in a row the best move
/// stayed the same (index 0: it just changed; the last entry holds for every longer run).
pub const TIME_STABILITY_SCALE: [u32; 7] = [250, 170, 130, 110, 95, 85, 75];

/// Transposition table: a stored score cuts a non-PV node only while the fifty-move counter is
/// below this (near the fifty-move draw the stored score may no longer hold).
pub const TT_CUTOFF_MAX_HALFMOVES: u32 = 90;
/// Transposition table replacement: an entry of the current search for another position is kept
/// against a non-exact bound when it is more than this many plies deeper.
pub const TT_REPLACE_OTHER_DEPTH_MARGIN: i32 = 3;
/// Transposition table replacement: an entry of the current search for the same position is kept
/// against a non-exact bound when it is more than this many plies deeper.
pub const TT_REPLACE_SAME_DEPTH_MARGIN: i32 = 2;

/// Tablebases: a WDL result that cuts the node is stored this many plies deeper than the node (it
/// holds at any depth), capped at `MAX_PLY`.
pub const TB_STORE_DEPTH_BONUS: i32 = 6;

/// Reverse futility (static null move) pruning: up to this depth, an evaluation of at least
/// beta + RFP_MARGIN * depth - RFP_IMPROVING_BONUS (when improving) is the node's score.
pub const RFP_DEPTH: i32 = 8;
/// Reverse futility pruning: margin per ply of depth.
pub const RFP_MARGIN: i32 = 70;
/// Reverse futility pruning: margin taken off when the evaluation is improving.
pub const RFP_IMPROVING_BONUS: i32 = 50;

/// Null-move pruning from this depth, reduced by NMP_BASE_REDUCTION + depth / NMP_DEPTH_DIVISOR
/// + min((eval - beta) / NMP_EVAL_DIVISOR, NMP_EVAL_MAX_REDUCTION).
pub const NMP_DEPTH: i32 = 3;
/// Null-move pruning: reduction at every depth.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: one ply more reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null-move pruning: one ply more reduction per this many centipawns of evaluation above beta...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... up to this many plies.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;

/// Internal iterative reduction (one ply) when there is no hash move, from this depth.
pub const IIR_DEPTH: i32 = 4;

/// Futility pruning of quiet moves up to this depth, when static eval + FP_BASE + FP_MARGIN *
/// depth cannot reach alpha.
pub const FP_DEPTH: i32 = 7;
/// Futility pruning: margin at every depth.
pub const FP_BASE: i32 = 90;
/// Futility pruning: margin per ply of depth.
pub const FP_MARGIN: i32 = 75;

/// Late-move pruning up to this depth: quiets after (LMP_BASE + depth^2) / (2 - improving) moves
/// are skipped.
pub const LMP_DEPTH: i32 = 8;
/// Late-move pruning: the move count's constant term.
pub const LMP_BASE: i32 = 3;

/// SEE pruning up to this depth (from the second move on).
pub const SEE_PRUNE_DEPTH: i32 = 8;
/// SEE pruning: a quiet move must not lose more than -SEE_QUIET_MARGIN * depth.
pub const SEE_QUIET_MARGIN: i32 = -60;
/// SEE pruning: a losing capture must not lose more than -SEE_NOISY_MARGIN * depth^2.
pub const SEE_NOISY_MARGIN: i32 = -25;

/// Late-move reductions: r = LMR_BASE + ln(depth) * ln(moves) / LMR_DIVISOR, truncated to plies.
pub const LMR_BASE: f64 = 0.75;
/// Late-move reductions: the divisor of the table's logarithmic term.
pub const LMR_DIVISOR: f64 = 2.25;
/// Late-move reductions apply from this depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: a quiet move's history score / LMR_HISTORY_DIVISOR, clamped to
/// +-LMR_HISTORY_MAX plies, is taken off the reduction (a bad history adds to it).
pub const LMR_HISTORY_DIVISOR: i32 = 6000;
/// Late-move reductions: the most plies the history adjusts the reduction by.
pub const LMR_HISTORY_MAX: i32 = 2;
/// Late-move reductions: plies less in PV nodes.
pub const LMR_PV_RELIEF: i32 = 1;
/// Late-move reductions: plies more when the static evaluation is not improving.
pub const LMR_NOT_IMPROVING: i32 = 1;
/// Late-move reductions: plies more in expected cut nodes.
pub const LMR_CUT_NODE: i32 = 1;
/// Late-move reductions: plies less for a move that gives check or escapes one.
pub const LMR_CHECK_RELIEF: i32 = 1;
/// Late-move reductions: plies less for the killers and the counter move.
pub const LMR_REFUTATION_RELIEF: i32 = 1;

/// Root: a checking move is extended by one ply up to this iteration depth.
pub const ROOT_CHECK_EXTENSION_DEPTH: i32 = 2;
/// Root: quiet moves from this index after the current MultiPV line's first move are reduced...
pub const ROOT_LMR_MIN_INDEX: usize = 3;
/// ... by the LMR table's value less this many plies.
pub const ROOT_LMR_RELIEF: i32 = 1;

/// Singular extensions: from this depth, with a hash entry at most
/// SE_TT_DEPTH_MARGIN plies shallower; alternatives must stay SE_MARGIN * depth below its score.
pub const SE_DEPTH: i32 = 8;
/// Singular extensions: the hash entry may be at most this many plies shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
/// Singular extensions: the alternatives' bound lies this many centipawns per ply of depth below
/// the hash score.
pub const SE_MARGIN: i32 = 2;
/// Singular extensions: the verification search runs at (depth - 1) / SE_VERIFY_DEPTH_DIVISOR.
pub const SE_VERIFY_DEPTH_DIVISOR: i32 = 2;
/// Singular extensions: none at plies beyond SE_MAX_PLY_FACTOR times the iteration depth.
pub const SE_MAX_PLY_FACTOR: i32 = 2;

/// Quiescence: delta pruning margin.
pub const QS_DELTA_MARGIN: i32 = 200;

/// History: entries (quiet, continuation, capture) saturate at +-HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;
/// History: the bonus of a cutoff is min(SQUARE * depth^2 + LINEAR * (depth - 1), MAX).
pub const HISTORY_BONUS_SQUARE: i32 = 16;
/// History: the bonus's linear term per ply beyond the first.
pub const HISTORY_BONUS_LINEAR: i32 = 128;
/// History: the largest bonus.
pub const HISTORY_BONUS_MAX: i32 = 2_400;

/// Capture history: entries saturate at HISTORY_MAX like the quiet tables; within
/// the good and bad capture classes the ordering adds entry / CAPTURE_HISTORY_ORDER_DIVISOR to
/// MVV-LVA (at most 2048: more than some victim steps of MVV-LVA, e.g. knight to bishop, so it
/// can reorder captures of nearly equal victims).
pub const CAPTURE_HISTORY_ORDER_DIVISOR: i32 = 8;

/// Correction history: per side to move and pawn-structure hash, a running average
/// of (search score - static evaluation) in 1/CORRECTION_GRAIN centipawns. Each update weighs the
/// new difference by min(depth + 1, CORRECTION_MAX_WEIGHT) / CORRECTION_WEIGHT_SCALE; entries are
/// clamped to +-CORRECTION_MAX centipawns.
pub const CORRECTION_SIZE: usize = 16_384;
/// Correction history: entries are kept in 1/CORRECTION_GRAIN centipawns.
pub const CORRECTION_GRAIN: i32 = 256;
/// Correction history: the denominator of an update's weight.
pub const CORRECTION_WEIGHT_SCALE: i32 = 256;
/// Correction history: the largest numerator of an update's weight (depth + 1 below it).
pub const CORRECTION_MAX_WEIGHT: i32 = 16;
/// Correction history: the largest correction, centipawns either way.
pub const CORRECTION_MAX: i32 = 64;

/// Move ordering scores (`movepick.rs`): the hash move, captures that do not lose material by SEE
/// (plus MVV-LVA), the two killers, the counter move, and losing captures (plus MVV-LVA) below
/// every quiet move. Quiet moves are ordered by their history score, which stays far inside
/// (ORDER_BAD_NOISY / 2, ORDER_COUNTER).
pub const ORDER_TT_MOVE: i32 = 30_000_000;
/// Move ordering: captures and promotions that do not lose material by SEE (plus MVV-LVA).
pub const ORDER_GOOD_NOISY: i32 = 20_000_000;
/// Move ordering: the first killer.
pub const ORDER_KILLER_1: i32 = 10_000_002;
/// Move ordering: the second killer.
pub const ORDER_KILLER_2: i32 = 10_000_001;
/// Move ordering: the counter move (the lowest score of a refutation, see `is_refutation_score`).
pub const ORDER_COUNTER: i32 = 10_000_000;
/// Move ordering: captures and promotions that lose material by SEE (plus MVV-LVA).
pub const ORDER_BAD_NOISY: i32 = -20_000_000;
/// MVV-LVA: the victim's value is scaled by this before the attacker's role is subtracted (more
/// than the number of roles, so the victim always decides first).
pub const MVV_LVA_VICTIM_SCALE: i32 = 16;

/// Time management: at sudden death (no `movestogo`) the clock (less overhead) is shared over this
/// many moves, every move, so each plans about 1/40 of what is left plus most of the increment: a
/// clock that falls geometrically (a full-strength 60+0 game keeps about a third of it at move 40)
/// instead of a front-loaded one. Stockfish plans 1.6 % of its clock at the first move rising to
/// about 4.5 % by move 40; Ethereal 5 % throughout.
pub const SUDDEN_DEATH_MOVES_TO_GO: u32 = 40;
/// Time management: `movestogo` is clamped to at most this.
pub const MAX_MOVES_TO_GO: u32 = 50;
/// Time management: the hard limit is this many times the soft limit...
pub const HARD_LIMIT_FACTOR: u32 = 4;
/// ... but at most this percentage of the remaining clock (less overhead), which is also the hard
/// limit with one move left before the time control.
pub const HARD_LIMIT_MAX_PERCENT: u32 = 75;
/// Time management: this percentage of the increment is added to each move's share.
pub const INCREMENT_PERCENT: u32 = 75;
/// Never plan to spend more than this fraction (percent) of the remaining clock on one move.
pub const MAX_TIME_FRACTION: u32 = 40;
/// Time management: no budget (soft or hard, after the overhead) is shorter than this.
pub const MIN_TIME_BUDGET: Duration = Duration::from_millis(1);
/// `go mate N` alone searches to 2N plies plus this many (room for checks), not forever.
pub const GO_MATE_EXTRA_PLIES: i32 = 4;
/// The deepest iteration: this many plies below `MAX_PLY`, so extensions stay inside the stacks.
pub const MAX_ITERATION_MARGIN: i32 = 4;
/// Nodes between clock checks.
pub const TIME_CHECK_INTERVAL: u64 = 1024;

// The SEE piece values are `crate::board::see::SEE_VALUES`: SEE is a board fact that the human
// model and the style classifier use too.

//! The search proper: iterative deepening, aspiration windows, PVS negamax, quiescence.

use super::history::{ContContext, History, piece_to};
use super::movepick::{MovePicker, encode, is_bad_noisy_score, is_noisy};
use super::parameters::*;
use super::see::see_ge;
use super::timeman::TimeManager;
use super::tt::{Bound, TranspositionTable};
use super::*;
use crate::board::Game;
use crate::eval::{EvalConfig, evaluate};
use crate::tablebase::{TbBound, wdl_bound, wdl_to_score};
use shakmaty::{Color, Move, MoveList, Position, Role};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (LMR_BASE + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as i32;
            }
        }
        t
    })
}

struct Worker<'a> {
    game: Game,
    eval_cfg: &'a EvalConfig,
    tt: &'a TranspositionTable,
    history: &'a mut History,
    control: &'a Control,
    /// Nodes of the helper threads (Lazy SMP): helpers add theirs here, the main thread reports the sum.
    helper_nodes: &'a AtomicU64,
    /// Nodes counted but not yet added to `helper_nodes` (helpers only).
    is_helper: bool,
    time: TimeManager,
    was_pondering: bool,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 4],
    moves_played: [Option<Move>; MAX_PLY + 4],
    root_moves: Vec<RootMove>,
    /// Root moves at indices below this are already fixed by earlier MultiPV lines.
    pv_idx: usize,
    tb: Option<Arc<crate::tablebase::Tablebases>>,
    /// Continuation history in use (generation 2 and later).
    cont_hist: bool,
    /// Singular extensions in use (generation 3 and later).
    singular: bool,
    /// Correction and capture histories in use (generation 6 and later).
    corrected: bool,
    /// The move a singular-extension verification search at this ply leaves out.
    excluded: [Option<Move>; MAX_PLY + 4],
    /// Depth of the current iteration (bounds the extensions).
    root_depth: i32,
}

/// What one thread's iterative deepening produced.
struct Iterated {
    completed: Vec<RootMove>,
    depth: i32,
    seldepth: usize,
}

pub(super) fn run(
    s: &mut Searcher,
    game: &Game,
    request: &Request,
    control: &Control,
    reporter: &mut dyn Reporter,
) -> SearchResult {
    let limits = &request.limits;
    s.tt.new_search();
    s.history.new_search();
    let pos = game.pos();
    let mut legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    if !limits.searchmoves.is_empty() {
        let filtered: Vec<Move> = legal.iter().copied().filter(|m| limits.searchmoves.contains(m)).collect();
        if !filtered.is_empty() {
            legal = filtered;
        }
    }
    // Tablebases at the root: keep only the moves that preserve the table result (clock aware).
    let tb = request.tablebases.clone().filter(|t| t.is_loaded());
    if let Some(t) = &tb {
        t.reset_tb_hits();
    }
    let root_probe = tb.as_ref().and_then(|t| t.probe_root(pos, true));
    if let Some(rp) = &root_probe {
        let keep = rp.preserving_moves();
        let filtered: Vec<Move> = legal.iter().copied().filter(|m| keep.contains(m)).collect();
        if !filtered.is_empty() {
            legal = filtered;
        }
    }
    if legal.is_empty() {
        let score = if pos.is_check() { -MATE } else { 0 };
        return SearchResult { score, ..Default::default() };
    }
    let mut root = game.clone();
    root.reset_depth();
    let eval_cfg = EvalConfig { params: limits.generation.eval_params(), ..request.eval.clone() };
    let multipv = limits.multipv.max(1).min(legal.len());
    // `go mate N` alone searches deep enough for a mate in N (with room for checks), not forever.
    let only_mate = limits.mate.is_some()
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.time.is_none()
        && !limits.infinite;
    let mate_depth = limits.mate.filter(|_| only_mate).map(|m| 2 * m as i32 + 4);
    let max_depth = limits.depth.or(mate_depth).unwrap_or(MAX_PLY as i32 - 4).clamp(1, MAX_PLY as i32 - 4);

    // Lazy SMP: helper threads search the same root without limits of their own, sharing only the
    // transposition table, until the main thread is done. Node-limited searches (every weak,
    // reproducible one) stay single-threaded, as does MultiPV.
    let helpers = if limits.nodes.is_none() && limits.min_depth == 0 && multipv == 1 {
        limits.threads.saturating_sub(1)
    } else {
        0
    };
    if s.helper_histories.len() < helpers {
        s.helper_histories.resize_with(helpers, History::default);
    }
    let helper_nodes = AtomicU64::new(0);
    let helper_control = Control::default();
    let time = TimeManager::new(limits, request.move_overhead);
    let tt = &s.tt;
    let main_history = &mut s.history;
    let helper_histories = &mut s.helper_histories[..helpers];
    let (it, main_nodes, elapsed) = std::thread::scope(|scope| {
        for history in helper_histories.iter_mut() {
            let no_clock = TimeManager::new(&Limits::default(), Duration::ZERO);
            let parts = (&root, &eval_cfg, tt, &helper_control, &helper_nodes);
            let mut hw = Worker::new(parts, history, no_clock, &legal, tb.clone(), limits, true);
            scope.spawn(move || {
                hw.iterate(limits, 1, max_depth, &mut Silent);
                hw.flush_helper_nodes();
            });
        }
        let parts = (&root, &eval_cfg, tt, control, &helper_nodes);
        let mut w = Worker::new(parts, main_history, time, &legal, tb.clone(), limits, false);
        let it = w.iterate(limits, multipv, max_depth, reporter);
        helper_control.stop();
        (it, w.nodes, w.time.elapsed())
    });
    let mut completed = it.completed;
    // In a table position the search only sees "won" everywhere; unless it found a mate, make
    // progress by the distance to zeroing (the tables' best move among the preserving ones).
    if let Some(rp) = &root_probe
        && multipv == 1
        && completed[0].score.abs() <= MATE_BOUND
    {
        let best = rp.best();
        if let Some(i) = completed.iter().position(|r| r.mv == best.mv) {
            let mut rm = completed.remove(i);
            rm.score = best.score();
            rm.pv = vec![best.mv];
            completed.insert(0, rm);
        }
    }
    let tbhits = tb.as_ref().map_or(0, |t| t.tb_hits());
    let best = &completed[0];
    SearchResult {
        best: Some(best.mv),
        ponder: best.pv.get(1).copied(),
        score: best.score,
        depth: it.depth.max(1),
        seldepth: it.seldepth as i32,
        nodes: main_nodes + helper_nodes.load(Ordering::Relaxed),
        tbhits,
        time: elapsed,
        root_moves: completed.into_iter().take(multipv).collect(),
    }
}

/// The shared parts of a worker: root position, evaluation settings, hash table, stop flags and the
/// helpers' node counter.
type Shared<'a> = (&'a Game, &'a EvalConfig, &'a TranspositionTable, &'a Control, &'a AtomicU64);

impl<'a> Worker<'a> {
    fn new(
        (root, eval_cfg, tt, control, helper_nodes): Shared<'a>,
        history: &'a mut History,
        time: TimeManager,
        legal: &[Move],
        tb: Option<Arc<crate::tablebase::Tablebases>>,
        limits: &Limits,
        is_helper: bool,
    ) -> Worker<'a> {
        Worker {
            game: root.clone(),
            eval_cfg,
            tt,
            history,
            control,
            helper_nodes,
            is_helper,
            time,
            was_pondering: control.pondering.load(Ordering::SeqCst),
            node_limit: if limits.min_depth > 0 || is_helper { u64::MAX } else { limits.nodes.unwrap_or(u64::MAX) },
            nodes: 0,
            seldepth: 0,
            aborted: false,
            pv: vec![[Move::Put { role: Role::Pawn, to: shakmaty::Square::A1 }; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 4],
            moves_played: [None; MAX_PLY + 4],
            root_moves: legal.iter().map(|&mv| RootMove { mv, score: -INFINITY, pv: vec![mv], depth: 0 }).collect(),
            pv_idx: 0,
            tb,
            cont_hist: limits.generation >= Generation::V2,
            singular: limits.generation >= Generation::V3,
            corrected: limits.generation >= Generation::V6,
            excluded: [None; MAX_PLY + 4],
            root_depth: 0,
        }
    }

    /// A helper's nodes since its last report.
    fn flush_helper_nodes(&self) {
        self.helper_nodes.fetch_add(self.nodes % TIME_CHECK_INTERVAL, Ordering::Relaxed);
    }

    /// Iterative deepening with aspiration windows, `multipv` lines per iteration, until a limit,
    /// `stop`, or the time manager ends it.
    fn iterate(&mut self, limits: &Limits, multipv: usize, max_depth: i32, reporter: &mut dyn Reporter) -> Iterated {
        let w = self;
        let mut completed: Vec<RootMove> = Vec::new();
        let mut completed_depth = 0;
        let mut completed_seldepth = 0;
        let mut prev_best: Option<Move> = None;
        let mut stability = 0;
        for depth in 1..=max_depth {
            w.root_depth = depth;
            // Scores of this iteration replace the previous ones as lines complete.
            for rm in w.root_moves.iter_mut() {
                rm.depth = rm.depth.min(depth - 1);
            }
            for pv_idx in 0..multipv {
                w.pv_idx = pv_idx;
                w.seldepth = 0;
                let prev = w.root_moves[pv_idx].score;
                let (mut alpha, mut beta, mut delta) = if depth >= ASPIRATION_DEPTH && prev.abs() < MATE_BOUND {
                    (prev - ASPIRATION_WINDOW, prev + ASPIRATION_WINDOW, ASPIRATION_WINDOW)
                } else {
                    (-INFINITY, INFINITY, INFINITY)
                };
                loop {
                    alpha = alpha.max(-INFINITY);
                    beta = beta.min(INFINITY);
                    let score = w.root_search(alpha, beta, depth);
                    // Stable sort keeps the order of moves that were not improved.
                    w.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
                    if w.aborted {
                        break;
                    }
                    if score <= alpha {
                        reporter.info(&w.info(depth, pv_idx, ScoreBound::Upper));
                        beta = (alpha + beta) / 2;
                        alpha = score - delta;
                    } else if score >= beta {
                        reporter.info(&w.info(depth, pv_idx, ScoreBound::Lower));
                        beta = score + delta;
                    } else {
                        break;
                    }
                    delta = delta.saturating_mul(ASPIRATION_GROWTH_NUM) / ASPIRATION_GROWTH_DEN;
                }
                if w.aborted {
                    break;
                }
                w.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                reporter.info(&w.info(depth, pv_idx, ScoreBound::Exact));
            }
            if w.aborted {
                // A move that beat the previous best within the aborted iteration is trustworthy.
                if multipv == 1
                    && w.root_moves[0].depth == depth
                    && !completed.is_empty()
                    && w.root_moves[0].score > completed[0].score
                {
                    completed = w.root_moves.clone();
                }
                break;
            }
            completed = w.root_moves.clone();
            completed_depth = depth;
            if depth >= limits.min_depth {
                w.node_limit = limits.nodes.unwrap_or(u64::MAX);
                if w.nodes >= w.node_limit {
                    break;
                }
            }
            completed_seldepth = w.seldepth;

            let best = w.root_moves[0].mv;
            stability = if Some(best) == prev_best { (stability + 1).min(6) } else { 0 };
            prev_best = Some(best);
            if let (Some(m), Some(n)) = (limits.mate, mate_moves(w.root_moves[0].score))
                && n > 0
                && n as u32 <= m
            {
                break;
            }
            if w.root_moves.len() == 1 && w.time.soft.is_some() && depth >= 4 {
                break;
            }
            let scale = [250, 170, 130, 110, 95, 85, 75][stability as usize];
            if !w.pondering() && w.time.soft_expired(scale) {
                break;
            }
        }
        if completed.is_empty() {
            // Aborted before depth 1 finished: fall back to the move ordering's first move.
            completed = w.root_moves.clone();
        }
        Iterated { completed, depth: completed_depth, seldepth: completed_seldepth }
    }
}

impl Worker<'_> {
    fn pondering(&self) -> bool {
        self.control.pondering.load(Ordering::Relaxed)
    }

    fn info(&self, depth: i32, pv_idx: usize, bound: ScoreBound) -> Info<'_> {
        let rm = &self.root_moves[pv_idx];
        Info {
            depth,
            seldepth: self.seldepth as i32,
            multipv: pv_idx + 1,
            score: rm.score,
            bound,
            nodes: self.nodes + self.helper_nodes.load(Ordering::Relaxed),
            time: self.time.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.tb.as_ref().map_or(0, |t| t.tb_hits()),
            pv: &rm.pv,
        }
    }

    /// Counts a node and decides whether to abort (stop, node limit, hard time limit).
    #[inline]
    fn tick(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(TIME_CHECK_INTERVAL) {
            if self.is_helper {
                self.helper_nodes.fetch_add(TIME_CHECK_INTERVAL, Ordering::Relaxed);
            }
            if self.control.stopped() {
                self.aborted = true;
            } else if self.was_pondering {
                if !self.pondering() {
                    self.was_pondering = false;
                    self.time.restart();
                }
            } else if self.time.hard_expired() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        if self.tick() {
            return 0;
        }
        let in_check = self.game.pos().is_check();
        self.evals[0] =
            if in_check { -INFINITY } else { self.corrected_eval(evaluate(self.game.pos(), self.eval_cfg)) };
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            self.moves_played[0] = Some(mv);
            self.game.make(mv);
            let gives_check = self.game.pos().is_check();
            let new_depth = depth - 1 + i32::from(gives_check && depth <= 2);
            let mut score;
            if i == self.pv_idx {
                score = -self.search(-beta, -alpha, new_depth, 1, true, false);
            } else {
                let quiet = !is_noisy(mv) && !gives_check;
                let r = if depth >= LMR_MIN_DEPTH && quiet && i - self.pv_idx >= 3 {
                    (lmr_table()[depth.min(63) as usize][(i - self.pv_idx).min(63)] - 1).max(0)
                } else {
                    0
                };
                score = -self.search(-alpha - 1, -alpha, new_depth - r, 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, 1, false, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, true, false);
                }
            }
            self.game.unmake();
            if self.aborted {
                return best.max(alpha);
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || score > alpha {
                rm.score = score;
                rm.depth = depth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
            } else {
                // Not exact: keep it below the ones that are, in the stable previous order.
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        return score;
                    }
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        let in_check = self.game.pos().is_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        if self.game.is_draw(ply) {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(self.game.pos(), self.eval_cfg) };
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = self.game.key();
        let excluded = self.excluded[ply];
        let hit = self.tt.probe(key, ply);
        // A verification search (one move left out) must not reuse this node's own entry.
        let tt_move = if excluded.is_some() { 0 } else { hit.map_or(0, |h| h.mv) };
        if let Some(h) = hit
            && excluded.is_none()
            && !pv_node
            && h.depth >= depth
            && self.game.pos().halfmoves() < 90
            && h.bound.cuts(h.score, alpha, beta)
        {
            return h.score;
        }

        // Tablebase WDL probe right after a zeroing move (the tables assume a fresh clock).
        let mut max_score = INFINITY;
        if let Some(t) = &self.tb
            && excluded.is_none()
            && self.game.pos().halfmoves() == 0
            && t.can_probe(self.game.pos())
            && let Some(wdl) = t.probe_wdl(self.game.pos())
        {
            let score = wdl_to_score(wdl, ply);
            let bound = wdl_bound(wdl);
            let cut = match bound {
                TbBound::Exact => true,
                TbBound::Lower => score >= beta,
                TbBound::Upper => score <= alpha,
            };
            if cut {
                let b = match bound {
                    TbBound::Exact => Bound::Exact,
                    TbBound::Lower => Bound::Lower,
                    TbBound::Upper => Bound::Upper,
                };
                self.tt.store(key, 0, score, 0, (depth + 6).min(MAX_PLY as i32), b, ply);
                return score;
            }
            if pv_node {
                match bound {
                    TbBound::Lower => alpha = alpha.max(score),
                    TbBound::Upper => max_score = score,
                    TbBound::Exact => {}
                }
            }
        }

        // The hash keeps the raw evaluation; generation 6 corrects it by the correction history.
        let raw_eval = if in_check {
            -INFINITY
        } else if let Some(h) = hit {
            h.eval
        } else {
            evaluate(self.game.pos(), self.eval_cfg)
        };
        let static_eval = if in_check { -INFINITY } else { self.corrected_eval(raw_eval) };
        // Refine the static evaluation with the hash score when its bound allows.
        let eval = match hit {
            Some(h) if !in_check && h.score.abs() < MATE_BOUND => match h.bound {
                Bound::Lower if h.score > static_eval => h.score,
                Bound::Upper if h.score < static_eval => h.score,
                Bound::Exact => h.score,
                _ => static_eval,
            },
            _ => static_eval,
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility pruning.
            if depth <= RFP_DEPTH
                && eval.abs() < MATE_BOUND
                && eval - RFP_MARGIN * depth + RFP_IMPROVING_BONUS * i32::from(improving) >= beta
            {
                return eval;
            }
            // Null move pruning.
            if depth >= NMP_DEPTH
                && eval >= beta
                && self.moves_played[ply - 1].is_some()
                && self.has_non_pawn_material()
                && beta.abs() < MATE_BOUND
            {
                let r = NMP_BASE_REDUCTION
                    + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX_REDUCTION);
                self.moves_played[ply] = None;
                self.game.make_null();
                let score = -self.search(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
                self.game.unmake();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction.
        if depth >= IIR_DEPTH && tt_move == 0 && excluded.is_none() {
            depth -= 1;
        }

        let mut moves: MoveList = self.game.pos().legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if let Some(x) = excluded {
            moves.retain(|m| *m != x);
            if moves.is_empty() {
                return alpha;
            }
        }

        // Singular extension: when the hash move is much better than every alternative (searched
        // shallower with it left out), search it one ply deeper; when even the alternatives beat
        // beta, several moves refute the parent and the node is cut (multi-cut). Extensions stop
        // beyond twice the iteration's depth, so the tree cannot run away.
        let mut singular_move = 0u16;
        if self.singular
            && ply > 0
            && depth >= SE_DEPTH
            && (ply as i32) < 2 * self.root_depth
            && excluded.is_none()
            && tt_move != 0
            && let Some(h) = hit
            && h.depth >= depth - SE_TT_DEPTH_MARGIN
            && matches!(h.bound, Bound::Lower | Bound::Exact)
            && h.score.abs() < MATE_BOUND
            && let Some(&tt_mv) = moves.iter().find(|m| encode(**m) == tt_move)
        {
            let s_beta = h.score - SE_MARGIN * depth;
            self.excluded[ply] = Some(tt_mv);
            let score = self.search(s_beta - 1, s_beta, (depth - 1) / 2, ply, false, cut_node);
            self.excluded[ply] = None;
            if self.aborted {
                return 0;
            }
            if score < s_beta {
                singular_move = tt_move;
            } else if s_beta >= beta {
                return s_beta;
            }
        }
        let prev = self.moves_played[ply - 1];
        let killers = self.history.killers[ply];
        let counter = self.history.counter(prev);
        let ctx = self.cont_context(ply);
        let captures = self.corrected.then_some(&*self.history);
        let mut picker =
            MovePicker::new(self.game.pos(), moves, tt_move, killers, counter, self.history, &ctx, captures);

        let orig_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried: MoveList = MoveList::new();
        let mut noisy_tried: MoveList = MoveList::new();
        let mut searched = 0usize;
        let lmp_limit = (LMP_BASE + depth * depth) / (2 - i32::from(improving));

        while let Some((mv, order)) = picker.next_move() {
            let noisy = is_noisy(mv);
            // Pruning of late moves once a non-losing line exists.
            // Quiet checks are kept: they are how mating attacks start.
            if ply > 0
                && best > -MATE_BOUND
                && self.has_non_pawn_material()
                && (noisy || !crate::board::gives_check(self.game.pos(), mv))
            {
                if !noisy && !in_check {
                    if depth <= LMP_DEPTH && searched as i32 >= lmp_limit {
                        continue;
                    }
                    if depth <= FP_DEPTH && static_eval + FP_BASE + FP_MARGIN * depth <= alpha && searched > 0 {
                        continue;
                    }
                }
                if depth <= SEE_PRUNE_DEPTH && searched > 0 {
                    let margin = if noisy { SEE_NOISY_MARGIN * depth * depth } else { SEE_QUIET_MARGIN * depth };
                    if (!noisy || is_bad_noisy_score(order)) && !see_ge(self.game.pos(), mv, margin) {
                        continue;
                    }
                }
            }

            self.moves_played[ply] = Some(mv);
            self.game.make(mv);
            searched += 1;
            let gives_check = self.game.pos().is_check();
            let new_depth = depth - 1 + i32::from(singular_move != 0 && encode(mv) == singular_move);
            let mut score;
            if searched == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, pv_node, false);
            } else {
                let mut r = 0;
                if depth >= LMR_MIN_DEPTH
                    && searched > 1 + usize::from(pv_node)
                    && (!noisy || is_bad_noisy_score(order))
                {
                    r = lmr_table()[depth.min(63) as usize][searched.min(63)];
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if cut_node {
                        r += 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if !noisy {
                        let h = self.history.quiet_score(!self.game.pos().turn(), mv, &ctx);
                        r -= (h / LMR_HISTORY_DIVISOR).clamp(-2, 2);
                        if order >= 10_000_000 {
                            r -= 1; // killers and counter move
                        }
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, false, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, false, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, true, false);
                }
            }
            self.game.unmake();
            if self.aborted {
                return 0;
            }
            if noisy {
                noisy_tried.push(mv);
            } else {
                quiets_tried.push(mv);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        let side = self.game.pos().turn();
                        let bonus = History::bonus(depth, self.corrected);
                        if !noisy {
                            self.history.update(side, mv, &quiets_tried, bonus, ply, prev, &ctx);
                        }
                        if self.corrected {
                            let best_noisy = Some(mv).filter(|_| noisy);
                            self.history.update_captures(side, best_noisy, &noisy_tried, bonus);
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Everything was pruned: the position is at least not lost by those moves' standards.
            return alpha;
        }
        best = best.min(max_score);
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if excluded.is_none() {
            let code = best_move.map_or(0, encode);
            self.tt.store(key, code, best, if in_check { 0 } else { raw_eval }, depth, bound, ply);
            // Correction history: learn from scores that say more than the static evaluation did
            // (not from noisy best moves, whose gain the evaluation cannot be expected to see).
            if self.corrected
                && !in_check
                && best_move.is_none_or(|m| !is_noisy(m))
                && best.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best <= static_eval)
                && !(bound == Bound::Upper && best >= static_eval)
            {
                self.history.update_correction(self.game.pos(), best - raw_eval, depth);
            }
        }
        best
    }

    /// The static evaluation corrected by the correction history (generation 6), kept off mate scores.
    #[inline]
    fn corrected_eval(&self, raw: i32) -> i32 {
        if !self.corrected {
            return raw;
        }
        (raw + self.history.correction(self.game.pos())).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.game.is_draw(ply) {
            return 0;
        }
        let in_check = self.game.pos().is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { evaluate(self.game.pos(), self.eval_cfg) };
        }
        let key = self.game.key();
        let hit = self.tt.probe(key, ply);
        if let Some(h) = hit
            && h.bound.cuts(h.score, alpha, beta)
        {
            return h.score;
        }
        let mut best;
        let stand_pat;
        let mut raw_eval = 0;
        let mut moves = self.game.pos().legal_moves();
        if in_check {
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INFINITY;
            stand_pat = -INFINITY;
        } else {
            raw_eval = hit.map_or_else(|| evaluate(self.game.pos(), self.eval_cfg), |h| h.eval);
            stand_pat = self.corrected_eval(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            if moves.is_empty() {
                return 0;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
        }
        let mut picker = MovePicker::noisy(moves, hit.map_or(0, |h| h.mv));
        let orig_alpha = alpha;
        let mut best_move = None;
        while let Some((mv, _)) = picker.next_move() {
            if !in_check {
                // Delta pruning and losing captures.
                let gain = mv.capture().map_or(0, see::value) + mv.promotion().map_or(0, |p| see::value(p) - 100);
                if stand_pat + gain + QS_DELTA_MARGIN <= alpha && mv.promotion().is_none() {
                    continue;
                }
                if !see_ge(self.game.pos(), mv, 0) {
                    continue;
                }
            }
            self.game.make(mv);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.game.unmake();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move.map_or(0, encode), best, raw_eval, 0, bound, ply);
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The piece-to indices of the moves one and two plies before `ply` (continuation history).
    fn cont_context(&self, ply: usize) -> ContContext {
        if !self.cont_hist {
            return [None, None];
        }
        let side = self.game.pos().turn();
        let back = |n: usize, mover: Color| {
            if ply >= n { self.moves_played[ply - n].map(|m| piece_to(mover, m)) } else { None }
        };
        [back(1, !side), back(2, side)]
    }

    fn has_non_pawn_material(&self) -> bool {
        let pos = self.game.pos();
        let b = pos.board();
        let ours = b.by_color(pos.turn());
        !((b.knights() | b.bishops() | b.rooks() | b.queens()) & ours).is_empty()
    }
}

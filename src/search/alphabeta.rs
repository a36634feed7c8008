//! The search proper: iterative deepening, aspiration windows, PVS negamax, quiescence.

use super::history::{ContContext, History, piece_to};
use super::movepick::{Hints, MovePicker, encode, is_bad_noisy_score, is_noisy, is_refutation_score};
use super::parameters::*;
use super::timeman::TimeManager;
use super::tt::{Bound, Record, TranspositionTable};
use super::*;
use crate::board::Game;
use crate::board::see::{self, see_ge};
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
    let eval_cfg = request.eval.clone();
    let multipv = limits.multipv.max(1).min(legal.len());
    // `go mate N` alone searches deep enough for a mate in N (with room for checks), not forever.
    let only_mate = limits.mate.is_some()
        && limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.time.is_none()
        && !limits.infinite;
    let mate_depth = limits.mate.filter(|_| only_mate).map(|m| 2 * m as i32 + GO_MATE_EXTRA_PLIES);
    let deepest = MAX_PLY as i32 - MAX_ITERATION_MARGIN;
    let max_depth = limits.depth.or(mate_depth).unwrap_or(deepest).clamp(1, deepest);

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

/// Every legal move of `game`'s position searched once with the full window to `depth` (the root's
/// check extension included), in move-generation order: the scores a MultiPV-all search of that one
/// iteration finds, without its n(n+1)/2 root searches. Single-threaded, no tablebases, no time or
/// node limits (like the first iteration of a search with `min_depth`, it always completes).
pub(super) fn score_each(s: &mut Searcher, game: &Game, request: &Request, depth: i32) -> Vec<RootMove> {
    let limits = &request.limits;
    s.tt.new_search();
    s.history.new_search();
    let legal: Vec<Move> = game.pos().legal_moves().into_iter().collect();
    let mut root = game.clone();
    root.reset_depth();
    let eval_cfg = request.eval.clone();
    let helper_nodes = AtomicU64::new(0);
    let control = Control::default();
    let time = TimeManager::new(&Limits::default(), Duration::ZERO);
    let parts = (&root, &eval_cfg, &s.tt, &control, &helper_nodes);
    let mut w = Worker::new(parts, &mut s.history, time, &legal, None, limits, false);
    w.root_depth = depth;
    w.node_limit = u64::MAX;
    let in_check = w.game.pos().is_check();
    w.evals[0] = if in_check { -INFINITY } else { w.corrected_eval(evaluate(w.game.pos(), w.eval_cfg)) };
    for (i, &mv) in legal.iter().enumerate() {
        w.pv_idx = i;
        let score = w.search_root_move(i, mv, -INFINITY, INFINITY, depth);
        w.record_root_move(i, mv, score, -INFINITY, depth);
    }
    w.root_moves
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
        let mut completed: Vec<RootMove> = Vec::new();
        let mut completed_depth = 0;
        let mut completed_seldepth = 0;
        let mut prev_best: Option<Move> = None;
        let mut stability = 0;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            // Scores of this iteration replace the previous ones as lines complete.
            for rm in self.root_moves.iter_mut() {
                rm.depth = rm.depth.min(depth - 1);
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth, pv_idx, reporter);
                if self.aborted {
                    break;
                }
                // The new line's move may outscore earlier lines (each line is searched in its own
                // window): it moves up and the lines below it move down one place. Every line whose
                // move changed is reported again, so that the last report of each `multipv` index
                // at this depth names a different move (the search itself is unchanged).
                let mv = self.root_moves[pv_idx].mv;
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
                let from = self.root_moves[..=pv_idx].iter().position(|r| r.mv == mv).unwrap_or(pv_idx);
                for line in from..=pv_idx {
                    reporter.info(&self.info(depth, line, ScoreBound::Exact));
                }
            }
            if self.aborted {
                // A move that beat the previous best within the aborted iteration is trustworthy.
                if multipv == 1
                    && self.root_moves[0].depth == depth
                    && !completed.is_empty()
                    && self.root_moves[0].score > completed[0].score
                {
                    completed = self.root_moves.clone();
                }
                break;
            }
            completed = self.root_moves.clone();
            completed_depth = depth;
            if depth >= limits.min_depth {
                self.node_limit = limits.nodes.unwrap_or(u64::MAX);
                if self.nodes >= self.node_limit {
                    break;
                }
            }
            completed_seldepth = self.seldepth;

            let best = self.root_moves[0].mv;
            stability = if Some(best) == prev_best { (stability + 1).min(TIME_STABILITY_SCALE.len() - 1) } else { 0 };
            prev_best = Some(best);
            if self.iteration_ends_search(limits, depth, stability) {
                break;
            }
        }
        if completed.is_empty() {
            // Aborted before depth 1 finished: fall back to the move ordering's first move.
            completed = self.root_moves.clone();
        }
        Iterated { completed, depth: completed_depth, seldepth: completed_seldepth }
    }

    /// One MultiPV line of one iteration: root searches in a window around the line's previous
    /// score, widened after each fail (and reported as a bound) until the score falls inside it.
    fn aspiration(&mut self, depth: i32, pv_idx: usize, reporter: &mut dyn Reporter) {
        let prev = self.root_moves[pv_idx].score;
        let (mut alpha, mut beta, mut delta) = if depth >= ASPIRATION_DEPTH && prev.abs() < MATE_BOUND {
            (prev - ASPIRATION_WINDOW, prev + ASPIRATION_WINDOW, ASPIRATION_WINDOW)
        } else {
            (-INFINITY, INFINITY, INFINITY)
        };
        loop {
            alpha = alpha.max(-INFINITY);
            beta = beta.min(INFINITY);
            let score = self.root_search(alpha, beta, depth);
            // Stable sort keeps the order of moves that were not improved.
            self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.aborted {
                return;
            }
            if score <= alpha {
                reporter.info(&self.info(depth, pv_idx, ScoreBound::Upper));
                beta = (alpha + beta) / 2;
                alpha = score - delta;
            } else if score >= beta {
                reporter.info(&self.info(depth, pv_idx, ScoreBound::Lower));
                beta = score + delta;
            } else {
                return;
            }
            delta = delta.saturating_mul(ASPIRATION_GROWTH_NUM) / ASPIRATION_GROWTH_DEN;
        }
    }

    /// After a completed iteration: is the mate asked for found, the only legal move known well
    /// enough, or the soft time limit (stretched or shrunk by the best move's `stability`) spent?
    fn iteration_ends_search(&self, limits: &Limits, depth: i32, stability: usize) -> bool {
        if let (Some(m), Some(n)) = (limits.mate, mate_moves(self.root_moves[0].score))
            && n > 0
            && n as u32 <= m
        {
            return true;
        }
        if self.root_moves.len() == 1 && self.time.soft.is_some() && depth >= SINGLE_MOVE_DEPTH {
            return true;
        }
        !self.pondering() && self.time.soft_expired(TIME_STABILITY_SCALE[stability])
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

    /// The root: every root move from the current MultiPV line on (PVS, late quiet moves reduced
    /// first); each move's score and PV go to `root_moves`.
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
            let score = self.search_root_move(i, mv, alpha, beta, depth);
            if self.aborted {
                return best.max(alpha);
            }
            self.record_root_move(i, mv, score, alpha, depth);
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

    /// Searches root move number `i`: the line's first move with the full window, the others with
    /// a null window (late quiet ones reduced first) and again with the full window if they beat
    /// alpha. A check is extended in the first iterations.
    fn search_root_move(&mut self, i: usize, mv: Move, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.moves_played[0] = Some(mv);
        self.game.make(mv);
        let gives_check = self.game.pos().is_check();
        let new_depth = depth - 1 + i32::from(gives_check && depth <= ROOT_CHECK_EXTENSION_DEPTH);
        let mut score;
        if i == self.pv_idx {
            score = -self.search(-beta, -alpha, new_depth, 1, true, false);
        } else {
            let quiet = !is_noisy(mv) && !gives_check;
            let late = i - self.pv_idx;
            let r = if depth >= LMR_MIN_DEPTH && quiet && late >= ROOT_LMR_MIN_INDEX {
                (lmr_table()[depth.min(63) as usize][late.min(63)] - ROOT_LMR_RELIEF).max(0)
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
        score
    }

    /// Keeps root move `i`'s score and PV when they are exact (the line's first move, or a move
    /// that beat alpha); otherwise ranks it below the exact ones, in the stable previous order.
    fn record_root_move(&mut self, i: usize, mv: Move, score: i32, alpha: i32, depth: i32) {
        let rm = &mut self.root_moves[i];
        if i == self.pv_idx || score > alpha {
            rm.score = score;
            rm.depth = depth;
            rm.pv.clear();
            rm.pv.push(mv);
            rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
        } else {
            rm.score = -INFINITY;
        }
    }

    /// The main search below the root (negamax, PVS), in the steps that follow it in this file,
    /// each of which may end the node with a score. `cut_node`: a fail high is expected here.
    fn search(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, pv_node: bool, cut_node: bool) -> i32 {
        let in_check = self.game.pos().is_check();
        let depth = depth + i32::from(in_check);
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        let mut n = Node {
            alpha,
            beta,
            depth,
            ply,
            pv_node,
            cut_node,
            in_check,
            key: 0,
            excluded: None,
            hit: None,
            tt_move: 0,
            max_score: INFINITY,
            raw_eval: 0,
            static_eval: 0,
            eval: 0,
            improving: false,
            singular_move: 0,
        };
        if let Some(score) = self.enter_node(&mut n) {
            return score;
        }
        if let Some(score) = self.probe_tt(&mut n) {
            return score;
        }
        if let Some(score) = self.probe_tablebases(&mut n) {
            return score;
        }
        self.evaluate_node(&mut n);
        if let Some(score) = self.reverse_futility(&n) {
            return score;
        }
        if let Some(score) = self.null_move(&n) {
            return score;
        }
        self.internal_iterative_reduction(&mut n);
        let mut moves: MoveList = self.game.pos().legal_moves();
        if let Some(score) = self.no_move_left(&n, &mut moves) {
            return score;
        }
        if let Some(score) = self.singular_extension(&mut n, &moves) {
            return score;
        }
        self.move_loop(&mut n, &mut moves)
    }

    /// Step 1: the node is counted; abort, draw and the maximum ply end it, and mate distance
    /// pruning narrows the window (a mate found nearer the root cannot be beaten).
    #[inline(always)]
    fn enter_node(&mut self, n: &mut Node) -> Option<i32> {
        let ply = n.ply;
        self.pv_len[ply] = ply;
        if self.tick() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if self.game.is_draw(ply) {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if n.in_check { 0 } else { evaluate(self.game.pos(), self.eval_cfg) });
        }
        n.alpha = n.alpha.max(-MATE + ply as i32);
        n.beta = n.beta.min(MATE - ply as i32 - 1);
        (n.alpha >= n.beta).then_some(n.alpha)
    }

    /// Step 2: transposition table probe; in a non-PV node an entry at least as deep whose bound
    /// decides the window is the node's score.
    #[inline(always)]
    fn probe_tt(&self, n: &mut Node) -> Option<i32> {
        n.key = self.game.key();
        n.excluded = self.excluded[n.ply];
        n.hit = self.tt.probe(n.key, n.ply);
        // A verification search (one move left out) must not reuse this node's own entry.
        n.tt_move = if n.excluded.is_some() { 0 } else { n.hit.map_or(0, |h| h.mv) };
        let h = n.hit?;
        let cuts = n.excluded.is_none()
            && !n.pv_node
            && h.depth >= n.depth
            && self.game.pos().halfmoves() < TT_CUTOFF_MAX_HALFMOVES
            && h.bound.cuts(h.score, n.alpha, n.beta);
        cuts.then_some(h.score)
    }

    /// Step 3: tablebase WDL probe right after a zeroing move (the tables assume a fresh clock). A
    /// result that decides the window is stored and returned; in a PV node one that does not
    /// still bounds the score.
    #[inline(always)]
    fn probe_tablebases(&self, n: &mut Node) -> Option<i32> {
        let t = self.tb.as_ref()?;
        let pos = self.game.pos();
        if n.excluded.is_some() || pos.halfmoves() != 0 || !t.can_probe(pos) {
            return None;
        }
        let wdl = t.probe_wdl(pos)?;
        let score = wdl_to_score(wdl, n.ply);
        let bound = wdl_bound(wdl);
        let cut = match bound {
            TbBound::Exact => true,
            TbBound::Lower => score >= n.beta,
            TbBound::Upper => score <= n.alpha,
        };
        if cut {
            let bound = match bound {
                TbBound::Exact => Bound::Exact,
                TbBound::Lower => Bound::Lower,
                TbBound::Upper => Bound::Upper,
            };
            let depth = (n.depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as i32);
            self.tt.store(n.key, n.ply, Record { mv: 0, score, eval: 0, depth, bound });
            return Some(score);
        }
        if n.pv_node {
            match bound {
                TbBound::Lower => n.alpha = n.alpha.max(score),
                TbBound::Upper => n.max_score = score,
                TbBound::Exact => {}
            }
        }
        None
    }

    /// Step 4: static evaluation (the hash keeps the raw one; the search corrects it by the
    /// correction history), refined by the hash score where its bound allows; `improving`
    /// compares it with the evaluation two plies back.
    #[inline(always)]
    fn evaluate_node(&mut self, n: &mut Node) {
        n.raw_eval = if n.in_check {
            -INFINITY
        } else if let Some(h) = n.hit {
            h.eval
        } else {
            evaluate(self.game.pos(), self.eval_cfg)
        };
        n.static_eval = if n.in_check { -INFINITY } else { self.corrected_eval(n.raw_eval) };
        n.eval = match n.hit {
            Some(h) if !n.in_check && h.score.abs() < MATE_BOUND => match h.bound {
                Bound::Lower if h.score > n.static_eval => h.score,
                Bound::Upper if h.score < n.static_eval => h.score,
                Bound::Exact => h.score,
                _ => n.static_eval,
            },
            _ => n.static_eval,
        };
        self.evals[n.ply] = n.static_eval;
        n.improving = !n.in_check && n.ply >= 2 && n.static_eval > self.evals[n.ply - 2];
    }

    /// Step 5: reverse futility pruning (static null move): near the leaves, an evaluation a
    /// depth-dependent margin above beta is taken as the node's score.
    #[inline(always)]
    fn reverse_futility(&self, n: &Node) -> Option<i32> {
        let prunes = n.may_prune()
            && n.depth <= RFP_DEPTH
            && n.eval.abs() < MATE_BOUND
            && n.eval - RFP_MARGIN * n.depth + RFP_IMPROVING_BONUS * i32::from(n.improving) >= n.beta;
        prunes.then_some(n.eval)
    }

    /// Step 6: null-move pruning: if passing still fails high in a reduced search, so would a
    /// move (not after another null move, nor with only pawns, where zugzwang is common).
    #[inline(always)]
    fn null_move(&mut self, n: &Node) -> Option<i32> {
        if !(n.may_prune()
            && n.depth >= NMP_DEPTH
            && n.eval >= n.beta
            && self.moves_played[n.ply - 1].is_some()
            && self.has_non_pawn_material()
            && n.beta.abs() < MATE_BOUND)
        {
            return None;
        }
        let r = NMP_BASE_REDUCTION
            + n.depth / NMP_DEPTH_DIVISOR
            + ((n.eval - n.beta) / NMP_EVAL_DIVISOR).min(NMP_EVAL_MAX_REDUCTION);
        self.moves_played[n.ply] = None;
        self.game.make_null();
        let score = -self.search(-n.beta, -n.beta + 1, n.depth - r, n.ply + 1, false, !n.cut_node);
        self.game.unmake();
        if self.aborted {
            return Some(0);
        }
        // A mate found by passing is not proven for the real moves.
        (score >= n.beta).then_some(if score >= MATE_BOUND { n.beta } else { score })
    }

    /// Step 7: internal iterative reduction: without a hash move the node is searched one ply
    /// shallower.
    #[inline(always)]
    fn internal_iterative_reduction(&self, n: &mut Node) {
        if n.depth >= IIR_DEPTH && n.tt_move == 0 && n.excluded.is_none() {
            n.depth -= 1;
        }
    }

    /// Step 8: mate or stalemate when there is no legal move; a verification search with nothing
    /// left besides the excluded move fails low.
    #[inline(always)]
    fn no_move_left(&self, n: &Node, moves: &mut MoveList) -> Option<i32> {
        if moves.is_empty() {
            return Some(if n.in_check { -MATE + n.ply as i32 } else { 0 });
        }
        if let Some(x) = n.excluded {
            moves.retain(|m| *m != x);
            if moves.is_empty() {
                return Some(n.alpha);
            }
        }
        None
    }

    /// Step 9: singular extension: when the hash move is much better than every
    /// alternative (searched shallower with it left out), it is searched one ply deeper; when even
    /// the alternatives beat beta, several moves refute the parent and the node is cut
    /// (multi-cut). Extensions stop beyond twice the iteration's depth, so the tree cannot run away.
    #[inline(always)]
    fn singular_extension(&mut self, n: &mut Node, moves: &MoveList) -> Option<i32> {
        if !(n.ply > 0
            && n.depth >= SE_DEPTH
            && (n.ply as i32) < SE_MAX_PLY_FACTOR * self.root_depth
            && n.excluded.is_none()
            && n.tt_move != 0)
        {
            return None;
        }
        let h = n.hit?;
        if !(h.depth >= n.depth - SE_TT_DEPTH_MARGIN
            && matches!(h.bound, Bound::Lower | Bound::Exact)
            && h.score.abs() < MATE_BOUND)
        {
            return None;
        }
        let &tt_mv = moves.iter().find(|m| encode(**m) == n.tt_move)?;
        let s_beta = h.score - SE_MARGIN * n.depth;
        self.excluded[n.ply] = Some(tt_mv);
        let score = self.search(s_beta - 1, s_beta, (n.depth - 1) / SE_VERIFY_DEPTH_DIVISOR, n.ply, false, n.cut_node);
        self.excluded[n.ply] = None;
        if self.aborted {
            return Some(0);
        }
        if score < s_beta {
            n.singular_move = n.tt_move;
        } else if s_beta >= n.beta {
            return Some(s_beta);
        }
        None
    }

    /// Step 10: the move loop. Moves come in order (hash move, good captures, killers, counter
    /// move, quiets by history, bad captures); hopeless late ones are pruned (step 11), the others
    /// searched (step 12) until one fails high (step 13); the result goes to the table (step 14).
    #[inline(always)]
    fn move_loop(&mut self, n: &mut Node, moves: &mut MoveList) -> i32 {
        let prev = self.moves_played[n.ply - 1];
        let ctx = self.cont_context(n.ply);
        let hints = Hints {
            tt_move: n.tt_move,
            killers: self.history.killers[n.ply],
            counter: self.history.counter(prev),
            history: self.history,
            ctx: &ctx,
        };
        let mut picker = MovePicker::new(self.game.pos(), moves, &hints);
        let mut l = MoveLoop {
            prev,
            ctx,
            orig_alpha: n.alpha,
            best: -INFINITY,
            best_move: None,
            searched: 0,
            lmp_limit: (LMP_BASE + n.depth * n.depth) / (2 - i32::from(n.improving)),
            quiets_tried: MoveList::new(),
            noisy_tried: MoveList::new(),
        };
        while let Some((mv, order)) = picker.next_move() {
            let c = Candidate { mv, order, noisy: is_noisy(mv) };
            if self.prunes_move(n, &l, c) {
                continue;
            }
            l.searched += 1;
            let score = self.search_move(n, &l, c);
            if self.aborted {
                return 0;
            }
            if c.noisy {
                l.noisy_tried.push(mv);
            } else {
                l.quiets_tried.push(mv);
            }
            if score > l.best {
                l.best = score;
                if score > n.alpha {
                    l.best_move = Some(mv);
                    n.alpha = score;
                    if n.pv_node {
                        self.update_pv(n.ply, mv);
                    }
                    if score >= n.beta {
                        self.update_cutoff_histories(n, &l, c);
                        break;
                    }
                }
            }
        }
        if l.searched == 0 {
            // Everything was pruned: the position is at least not lost by those moves' standards.
            return n.alpha;
        }
        self.store_result(n, &l)
    }

    /// Step 11: pruning of late moves once a non-losing line exists: late-move pruning and
    /// futility pruning of quiets, SEE pruning of quiets and losing captures. Quiet checks are
    /// kept: they are how mating attacks start.
    #[inline(always)]
    fn prunes_move(&self, n: &Node, l: &MoveLoop, c: Candidate) -> bool {
        if !(n.ply > 0
            && l.best > -MATE_BOUND
            && self.has_non_pawn_material()
            && (c.noisy || !crate::board::gives_check(self.game.pos(), c.mv)))
        {
            return false;
        }
        if !c.noisy && !n.in_check {
            if n.depth <= LMP_DEPTH && l.searched as i32 >= l.lmp_limit {
                return true;
            }
            if n.depth <= FP_DEPTH && n.static_eval + FP_BASE + FP_MARGIN * n.depth <= n.alpha && l.searched > 0 {
                return true;
            }
        }
        if n.depth <= SEE_PRUNE_DEPTH && l.searched > 0 {
            let margin = if c.noisy { SEE_NOISY_MARGIN * n.depth * n.depth } else { SEE_QUIET_MARGIN * n.depth };
            if (!c.noisy || is_bad_noisy_score(c.order)) && !see_ge(self.game.pos(), c.mv, margin) {
                return true;
            }
        }
        false
    }

    /// Step 12: searches one move (PVS): the first with the full window, the others with a null
    /// window, reduced first (step 12a), then again at full depth and with the full window as
    /// long as they beat alpha. The singular move is extended by one ply.
    #[inline(always)]
    fn search_move(&mut self, n: &Node, l: &MoveLoop, c: Candidate) -> i32 {
        self.moves_played[n.ply] = Some(c.mv);
        self.game.make(c.mv);
        let gives_check = self.game.pos().is_check();
        let new_depth = n.depth - 1 + i32::from(n.singular_move != 0 && encode(c.mv) == n.singular_move);
        let (alpha, beta, ply) = (n.alpha, n.beta, n.ply + 1);
        let mut score;
        if l.searched == 1 {
            score = -self.search(-beta, -alpha, new_depth, ply, n.pv_node, false);
        } else {
            let r = self.late_move_reduction(n, l, c, gives_check, new_depth);
            score = -self.search(-alpha - 1, -alpha, new_depth - r, ply, false, true);
            if score > alpha && r > 0 {
                score = -self.search(-alpha - 1, -alpha, new_depth, ply, false, !n.cut_node);
            }
            if n.pv_node && score > alpha && score < beta {
                score = -self.search(-beta, -alpha, new_depth, ply, true, false);
            }
        }
        self.game.unmake();
        score
    }

    /// Step 12a: late-move reduction of a quiet move or losing capture (from the second move on,
    /// the third in PV nodes), from the LMR table, adjusted by the node and the move's history.
    /// Called with the move made.
    #[inline(always)]
    fn late_move_reduction(&self, n: &Node, l: &MoveLoop, c: Candidate, gives_check: bool, new_depth: i32) -> i32 {
        if !(n.depth >= LMR_MIN_DEPTH
            && l.searched > 1 + usize::from(n.pv_node)
            && (!c.noisy || is_bad_noisy_score(c.order)))
        {
            return 0;
        }
        let mut r = lmr_table()[n.depth.min(63) as usize][l.searched.min(63)];
        if n.pv_node {
            r -= LMR_PV_RELIEF;
        }
        if !n.improving {
            r += LMR_NOT_IMPROVING;
        }
        if n.cut_node {
            r += LMR_CUT_NODE;
        }
        if gives_check || n.in_check {
            r -= LMR_CHECK_RELIEF;
        }
        if !c.noisy {
            let h = self.history.quiet_score(!self.game.pos().turn(), c.mv, &l.ctx);
            r -= (h / LMR_HISTORY_DIVISOR).clamp(-LMR_HISTORY_MAX, LMR_HISTORY_MAX);
            if is_refutation_score(c.order) {
                r -= LMR_REFUTATION_RELIEF;
            }
        }
        r.clamp(0, new_depth - 1)
    }

    /// Step 13: a fail high: the quiet move that caused it is rewarded (history, killer, counter
    /// move) and the quiets tried before it punished; the same for captures.
    #[inline(always)]
    fn update_cutoff_histories(&mut self, n: &Node, l: &MoveLoop, c: Candidate) {
        let side = self.game.pos().turn();
        let bonus = History::bonus(n.depth);
        if !c.noisy {
            self.history.update_quiets(side, c.mv, &l.quiets_tried, bonus, &l.ctx);
            self.history.update_refutations(c.mv, n.ply, l.prev);
        }
        let best_noisy = Some(c.mv).filter(|_| c.noisy);
        self.history.update_captures(side, best_noisy, &l.noisy_tried, bonus);
    }

    /// Step 14: the node's score (within the tablebase bound) and bound go to the transposition
    /// table, and what it says beyond the static evaluation to the correction
    /// history. A verification search stores nothing.
    #[inline(always)]
    fn store_result(&mut self, n: &Node, l: &MoveLoop) -> i32 {
        let best = l.best.min(n.max_score);
        let bound = bound_of(best, n.alpha, l.orig_alpha, n.beta);
        if n.excluded.is_none() {
            let mv = l.best_move.map_or(0, encode);
            let eval = if n.in_check { 0 } else { n.raw_eval };
            self.tt.store(n.key, n.ply, Record { mv, score: best, eval, depth: n.depth, bound });
            // Correction history: learn from scores that say more than the static evaluation did
            // (not from noisy best moves, whose gain the evaluation cannot be expected to see).
            if !n.in_check
                && l.best_move.is_none_or(|m| !is_noisy(m))
                && best.abs() < MATE_BOUND
                && !(bound == Bound::Lower && best <= n.static_eval)
                && !(bound == Bound::Upper && best >= n.static_eval)
            {
                self.history.update_correction(self.game.pos(), best - n.raw_eval, n.depth);
            }
        }
        best
    }

    /// The static evaluation corrected by the correction history, kept off mate scores.
    #[inline]
    fn corrected_eval(&self, raw: i32) -> i32 {
        (raw + self.history.correction(self.game.pos())).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Quiescence search: out of check the static evaluation stands pat and only captures and
    /// queen promotions that pass delta and SEE pruning are tried; in check every evasion.
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
        let mut moves = self.game.pos().legal_moves();
        let (stand_pat, raw_eval) = if in_check {
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            (-INFINITY, 0)
        } else {
            let raw_eval = hit.map_or_else(|| evaluate(self.game.pos(), self.eval_cfg), |h| h.eval);
            let stand_pat = self.corrected_eval(raw_eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            if moves.is_empty() {
                return 0;
            }
            alpha = alpha.max(stand_pat);
            moves.retain(|m| m.is_capture() || m.promotion() == Some(Role::Queen));
            (stand_pat, raw_eval)
        };
        let mut best = stand_pat;
        let mut picker = MovePicker::noisy(&mut moves, hit.map_or(0, |h| h.mv));
        let orig_alpha = alpha;
        let mut best_move = None;
        while let Some((mv, _)) = picker.next_move() {
            if !in_check && self.qs_prunes(mv, stand_pat, alpha) {
                continue;
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
        let bound = bound_of(best, alpha, orig_alpha, beta);
        self.tt.store(
            key,
            ply,
            Record { mv: best_move.map_or(0, encode), score: best, eval: raw_eval, depth: 0, bound },
        );
        best
    }

    /// Quiescence pruning out of check: delta pruning (even winning the piece cannot reach alpha)
    /// of captures, and every move that loses material by SEE.
    #[inline(always)]
    fn qs_prunes(&self, mv: Move, stand_pat: i32, alpha: i32) -> bool {
        let gain =
            mv.capture().map_or(0, see::value) + mv.promotion().map_or(0, |p| see::value(p) - see::value(Role::Pawn));
        if stand_pat + gain + QS_DELTA_MARGIN <= alpha && mv.promotion().is_none() {
            return true;
        }
        !see_ge(self.game.pos(), mv, 0)
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

/// One node of the main search: its window and depth, and what the steps before the move loop
/// found out about it.
struct Node {
    alpha: i32,
    beta: i32,
    /// Remaining depth (check extension and internal iterative reduction included).
    depth: i32,
    ply: usize,
    pv_node: bool,
    /// A fail high is expected (the parent searched this move with a null window).
    cut_node: bool,
    in_check: bool,
    key: u64,
    /// The move a singular-extension verification search leaves out here.
    excluded: Option<Move>,
    hit: Option<Record>,
    /// The hash move's code (0: none, or a verification search).
    tt_move: u16,
    /// Upper bound on the node's score from the tablebases (PV nodes).
    max_score: i32,
    /// The static evaluation as the table keeps it; corrected; refined by the hash
    /// score (`eval`, which the prunings use).
    raw_eval: i32,
    static_eval: i32,
    eval: i32,
    improving: bool,
    /// The hash move's code when singular extension found it singular (0: none).
    singular_move: u16,
}

impl Node {
    /// The prunings before the move loop apply only to non-PV nodes out of check, and never in a
    /// verification search.
    #[inline(always)]
    fn may_prune(&self) -> bool {
        !self.pv_node && !self.in_check && self.excluded.is_none()
    }
}

/// The state of a node's move loop.
struct MoveLoop {
    /// The move that led to the node.
    prev: Option<Move>,
    ctx: ContContext,
    /// Alpha when the loop started (after mate distance pruning and the tablebase probe).
    orig_alpha: i32,
    best: i32,
    best_move: Option<Move>,
    /// Moves searched so far (the one being searched included).
    searched: usize,
    /// Late-move pruning: quiets after this many searched moves are skipped.
    lmp_limit: i32,
    quiets_tried: MoveList,
    noisy_tried: MoveList,
}

/// A move from the picker: the move, its ordering score, and whether it is a capture or promotion.
#[derive(Copy, Clone)]
struct Candidate {
    mv: Move,
    order: i32,
    noisy: bool,
}

/// The bound of a search result `best` (alpha started at `orig_alpha` and ended at `alpha`).
#[inline(always)]
fn bound_of(best: i32, alpha: i32, orig_alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > orig_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

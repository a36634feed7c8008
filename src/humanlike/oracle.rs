//! Scores every legal move of every sampled position once, with a full-strength oracle at a fixed
//! depth, into a resumable JSON-lines cache.

use super::engine::UciEngine;
use super::types::{OracleMove, OraclePosition, SampledPosition, Score, append_jsonl, cached_keys, uci_of};
use crate::board::{Game, parse_fen};
use crate::search::{Limits, Searcher};
use shakmaty::Position;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Which oracle scores the moves.
#[derive(Clone, Debug)]
pub enum OracleKind {
    /// This engine's own full search (64 MB hash, cleared before every position).
    Internal,
    /// Any UCI engine command, run with `MultiPV 500`.
    Uci(String),
}

impl OracleKind {
    pub fn parse(text: &str) -> OracleKind {
        if text == "internal" { OracleKind::Internal } else { OracleKind::Uci(text.to_string()) }
    }
    pub fn label(&self) -> String {
        match self {
            OracleKind::Internal => "internal".into(),
            OracleKind::Uci(c) => c.clone(),
        }
    }
}

/// Scores one position with the internal search at `depth`: every legal move, exact.
pub fn score_internal(searcher: &mut Searcher, pos: &SampledPosition, depth: i32) -> Result<OraclePosition, String> {
    let chess = parse_fen(&pos.fen)?;
    searcher.clear();
    let limits = Limits { depth: Some(depth), multipv: usize::MAX, ..Default::default() };
    let r = searcher.analyse(&Game::new(chess.clone()), &limits);
    let mut moves: Vec<OracleMove> =
        r.root_moves.iter().map(|rm| OracleMove { uci: uci_of(rm.mv), score: Score::from_search(rm.score) }).collect();
    let legal = chess.legal_moves().len();
    if moves.len() != legal {
        return Err(format!("internal oracle scored {} of {} legal moves in {}", moves.len(), legal, pos.fen));
    }
    moves.sort_by_key(|m| (std::cmp::Reverse(m.score.order_value()), m.uci.clone()));
    Ok(OraclePosition { pos: pos.clone(), oracle: "internal".into(), depth, moves })
}

/// Scores one position with a UCI engine (already set to `MultiPV 500`).
pub fn score_uci(engine: &mut UciEngine, pos: &SampledPosition, depth: i32) -> Result<OraclePosition, String> {
    let chess = parse_fen(&pos.fen)?;
    let scored = engine.analyse(&pos.fen, depth)?;
    let mut moves = Vec::with_capacity(scored.len());
    for (text, score) in scored {
        let m = super::types::parse_uci(&chess, &text)?;
        moves.push(OracleMove { uci: uci_of(m), score });
    }
    let legal = chess.legal_moves().len();
    if moves.len() != legal {
        return Err(format!("UCI oracle scored {} of {} legal moves in {}", moves.len(), legal, pos.fen));
    }
    Ok(OraclePosition { pos: pos.clone(), oracle: engine.name.clone(), depth, moves })
}

/// Scores every position of `positions` that `out` does not hold yet, appending as it goes.
/// `jobs` workers take positions in turn; the file order is completion order (readers sort).
pub fn run(
    positions: &[SampledPosition],
    out: &Path,
    depth: i32,
    kind: &OracleKind,
    jobs: usize,
) -> Result<(), String> {
    let done = cached_keys(out)?;
    let todo: Vec<&SampledPosition> = positions.iter().filter(|p| !done.contains(&p.key())).collect();
    eprintln!(
        "oracle {} depth {depth}: {} positions, {} cached, {} to score, {} job(s)",
        kind.label(),
        positions.len(),
        positions.len() - todo.len(),
        todo.len(),
        jobs
    );
    if todo.is_empty() {
        return Ok(());
    }
    let mut file = super::types::open_append(out)?;
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let (tx, rx) = mpsc::channel::<Result<OraclePosition, String>>();
    std::thread::scope(|s| -> Result<(), String> {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let (next, todo) = (&next, &todo);
            s.spawn(move || {
                let mut internal = None;
                let mut uci = None;
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(p) = todo.get(i) else { break };
                    let r = match kind {
                        OracleKind::Internal => {
                            let searcher = internal.get_or_insert_with(|| Searcher::new(64));
                            score_internal(searcher, p, depth)
                        }
                        OracleKind::Uci(cmd) => {
                            if uci.is_none() {
                                let opts = [("MultiPV".to_string(), "500".to_string())];
                                match UciEngine::start(cmd, &opts) {
                                    Ok(e) => uci = Some(e),
                                    Err(e) => {
                                        let _ = tx.send(Err(e));
                                        break;
                                    }
                                }
                            }
                            score_uci(uci.as_mut().expect("started"), p, depth)
                        }
                    };
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut n = 0usize;
        for r in rx {
            let rec = r?;
            append_jsonl(&mut file, &rec)?;
            n += 1;
            if n.is_multiple_of(100) || n == todo.len() {
                let el = start.elapsed().as_secs_f64();
                let eta = el / n as f64 * (todo.len() - n) as f64;
                eprintln!("  {n}/{} scored, {:.1}s, {:.3}s/pos, eta {:.0}s", todo.len(), el, el / n as f64, eta);
            }
        }
        Ok(())
    })?;
    Ok(())
}

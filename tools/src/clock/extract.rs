//! `sparring clock extract`: the timed moves of rated games with clocks, each with the difficulty
//! look of its position, as CSV rows ([`super::rows`]). Written game by game, so an interrupted
//! run keeps what it did and a second run resumes after the last game in the file.

use super::rows::{self, MoveRow};
use super::time_control;
use crate::common::games::{self, GameRecord};
use shakmaty::Position;
use sparring::board::{Game, zobrist};
use sparring::human_time::features;
use sparring::search::Searcher;
use std::path::Path;

/// Which games to take: every `stride`-th pair of games (indices `k·stride·2` and `k·stride·2+1`,
/// one fit game and one check game), at most `max_games` in all, rated and timed.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    pub stride: usize,
    pub max_games: usize,
    /// Moves before this fullmove number are left out (book moves).
    pub min_fullmove: u32,
}

impl Selection {
    pub fn takes(&self, index: usize) -> bool {
        (index / 2).is_multiple_of(self.stride.max(1))
    }
}

/// The rows of one game: every move with a clock before and after it and a rated mover. The
/// look runs on every position (its best score is the next move's swing reference).
pub fn game_rows(index: usize, game: &GameRecord, tc: (f64, f64), min_fullmove: u32) -> Vec<MoveRow> {
    let (base, inc) = tc;
    let plies = game.timed_plies();
    let mut g = Game::new(game.root.clone());
    let mut prev_best: Option<i32> = None;
    let mut look = Searcher::for_look();
    let mut out = Vec::new();
    for ply in 0..plies {
        let pos = g.pos().clone();
        let difficulty = features::look(&mut look, &g, prev_best);
        prev_best = Some(difficulty.best_cp);
        let before = if ply < 2 { base } else { game.clocks[ply - 2] };
        let spent = before - game.clocks[ply] + inc;
        let rating = game.rating(game.mover(ply));
        let fullmove = pos.fullmoves().get();
        // Negative times (clock corrections) and clocks above base + inc at the start are errors
        // of the record, not decisions.
        if let Some(rating) = rating
            && fullmove >= min_fullmove
            && spent >= -0.5
            && before > 0.0
        {
            out.push(MoveRow {
                game: index,
                ply: sparring::seed::game_ply(&pos),
                key: zobrist(&pos),
                rating,
                base_s: base,
                inc_s: inc,
                clock_s: before,
                spent_s: spent.max(0.0),
                fullmove,
                phase: features::phase(&pos),
                difficulty,
            });
        }
        g.make(game.moves[ply]);
        g.reset_depth();
    }
    out
}

/// Extracts the selected games of `pgn` into `out` (appending; resumes after the last game there).
pub fn run(pgn: &Path, out: &Path, sel: Selection) -> Result<(usize, usize), String> {
    let all = games::read_games(pgn)?;
    if let Some(note) = games::unread_note(pgn, &all) {
        eprintln!("{note}");
    }
    let tcs = time_control::time_controls(&all);
    let done: Option<usize> = if out.exists() { rows::read(out)?.iter().map(|r| r.game).max() } else { None };
    let taken_before = if out.exists() {
        let mut g: Vec<usize> = rows::read(out)?.iter().map(|r| r.game).collect();
        g.dedup();
        g.len()
    } else {
        0
    };
    let (mut games_done, mut moves) = (taken_before, 0);
    for (i, game) in all.iter().enumerate() {
        if games_done >= sel.max_games {
            break;
        }
        if done.is_some_and(|d| i <= d) || !sel.takes(i) || game.timed_plies() < 10 {
            continue;
        }
        let Some(tc) = tcs[i] else { continue };
        let r = game_rows(i, game, tc, sel.min_fullmove);
        if r.is_empty() {
            continue;
        }
        rows::append(out, &r)?;
        games_done += 1;
        moves += r.len();
        if games_done.is_multiple_of(50) {
            eprintln!("clock extract: {games_done} games, {moves} moves this run (game {i} of {})", all.len());
        }
    }
    Ok((games_done, moves))
}

//! `sparring model grid`: the human move model v7 (Maia-3) asked about sampled positions
//! at a grid of rating inputs, beside v6 — the raw material of the rating map (FICS or FIDE
//! ratings → the model's Lichess blitz inputs, fitted on one part) and of the side-by-side
//! evaluation per band (`bench/human-model/maia3_eval.py`).
//!
//! For each position of the positions files (`humanlike sample` output) that replays from the PGN
//! to the human's move, one CSV row: where it comes from (game, ply, part, band, the mover's and
//! the opponent's ratings), the number of legal moves, v6's `ln P` of the human's move at the
//! mover's rating and whether v6's most likely move is the human's, then for every grid rating `r`
//! Maia-3's `ln P` of the human's move and whether its most likely move is the human's, asked with
//! the game's history (`h{r}_lp`, `h{r}_top`) and, with `--fen-alone`, the position alone
//! (`f{r}_lp`, `f{r}_top`). The opponent input is `r` plus the opponent's lead in the file's
//! ratings (`r` when the file has none). With `--map NAME=A,B` the model is also asked at the
//! mapped ratings themselves (mover `A + B·rating`, opponent `A + B·its rating`; columns
//! `NAME_h_lp`, `NAME_h_top` and, with `--fen-alone`, `NAME_f_lp`, `NAME_f_top`). Each position's
//! ratings are one batched pass.

use crate::common::games::GameRecord;
use crate::common::games::replay;
use crate::common::scored::SampledPosition;
use crate::common::split::{Part, part_of_index as part_of};
use shakmaty::{Move, Position};
use sparring::board::notation::uci as uci_of;
use sparring::human::maia3::{self, History};
use sparring::search::Searcher;
use std::fmt::Write as _;
use std::path::PathBuf;

pub struct GridArgs {
    pub positions: Vec<PathBuf>,
    pub pgn: PathBuf,
    pub ratings: Vec<i64>,
    /// Rating maps (name, intercept, slope): file rating → the model's input.
    pub maps: Vec<(String, f64, f64)>,
    pub part: Option<Part>,
    /// At most this many positions of a band (the first ones in file order; 0: all).
    pub per_band: usize,
    pub fen_alone: bool,
    pub jobs: usize,
    pub out: PathBuf,
}

/// `NAME=A,B` → (name, A, B).
pub fn parse_map(text: &str) -> Result<(String, f64, f64), String> {
    let bad = || format!("--map '{text}': expected NAME=A,B (the model's input = A + B·rating)");
    let (name, ab) = text.split_once('=').ok_or_else(bad)?;
    let (x, y) = ab.split_once(',').ok_or_else(bad)?;
    let (x, y): (f64, f64) = (x.trim().parse().map_err(|_| bad())?, y.trim().parse().map_err(|_| bad())?);
    if name.is_empty()
        || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        || !x.is_finite()
        || !y.is_finite()
    {
        return Err(bad());
    }
    Ok((name.to_string(), x, y))
}

/// One position's answers.
struct Row {
    head: String,
    v6: (f64, bool),
    hist: Vec<(f64, bool)>,
    alone: Vec<(f64, bool)>,
}

/// `ln P` of `human` and whether it is the most likely move (ties: the first in move order).
fn of_human(dist: &[maia3::MoveProb], human: Move) -> (f64, bool) {
    let lp = dist.iter().find(|d| d.mv == human).map_or(f64::NEG_INFINITY, |d| d.log_prob);
    let top = dist.iter().fold(None::<&maia3::MoveProb>, |b, d| match b {
        Some(b) if b.log_prob >= d.log_prob => Some(b),
        _ => Some(d),
    });
    (lp, top.is_some_and(|t| t.mv == human))
}

fn answer(p: &SampledPosition, g: &GameRecord, game: &sparring::board::Game, human: Move, a: &GridArgs) -> Row {
    let model = maia3::builtin().expect("the built-in Maia-3 weights read");
    let (own, opp) = if game.pos().turn().is_white() { (g.white_elo, g.black_elo) } else { (g.black_elo, g.white_elo) };
    let lead = match (own, opp) {
        (Some(o), Some(x)) => i64::from(x) - i64::from(o),
        _ => 0,
    };
    let mut pairs: Vec<(i64, i64)> = a.ratings.iter().map(|&r| (r, (r + lead).clamp(0, 5000))).collect();
    for (_, c, slope) in &a.maps {
        let map = |x: u32| (c + slope * f64::from(x)).round().clamp(0.0, 5000.0) as i64;
        pairs.push((map(p.rating), map(opp.unwrap_or(p.rating))));
    }
    let with = History::game(&g.root, &g.moves[..p.ply as usize]).expect("the game replayed");
    let hist = model.distributions(&with, &pairs).iter().map(|d| of_human(d, human)).collect();
    let alone = if a.fen_alone {
        let bare = History::position(game.pos().clone());
        model.distributions(&bare, &pairs).iter().map(|d| of_human(d, human)).collect()
    } else {
        Vec::new()
    };
    let moves: Vec<Move> = game.pos().legal_moves().into_iter().collect();
    let v6 = sparring::profile::human_model::builtin(6).expect("the built-in v6 model reads");
    let lp = v6.game_log_probs(&mut Searcher::for_look(), game, &moves, f64::from(p.rating));
    let h = moves.iter().position(|&m| m == human).expect("the human's move is legal");
    let best = (0..lp.len()).fold(0, |b, i| if lp[i] > lp[b] { i } else { b });
    let part = match part_of(p.game) {
        Part::Fit => "fit",
        Part::Validation => "validation",
        Part::Test => "test",
    };
    let opp_text = opp.map_or(String::new(), |x| x.to_string());
    let head = format!(
        "{},{},{part},{},{},{opp_text},{},{},\"{}\"",
        p.game,
        p.ply,
        p.band,
        p.rating,
        moves.len(),
        p.human,
        p.fen
    );
    Row { head, v6: (lp[h], best == h), hist, alone }
}

pub fn run(a: &GridArgs) -> Result<(), String> {
    if (a.ratings.is_empty() && a.maps.is_empty()) || a.ratings.iter().any(|r| !(0..=5000).contains(r)) {
        return Err("--ratings: one or more ratings in 0..=5000 (or a --map)".into());
    }
    maia3::builtin()?;
    let games = crate::common::games::read_games(&a.pgn)?;
    let mut chosen: Vec<SampledPosition> = Vec::new();
    let mut per: std::collections::BTreeMap<u32, usize> = std::collections::BTreeMap::new();
    for file in &a.positions {
        let all: Vec<SampledPosition> = crate::common::scored::read_jsonl(file)?;
        for p in all {
            if a.part.is_some_and(|want| part_of(p.game) != want) {
                continue;
            }
            let n = per.entry(p.band).or_default();
            if a.per_band > 0 && *n >= a.per_band {
                continue;
            }
            *n += 1;
            chosen.push(p);
        }
    }
    let t0 = std::time::Instant::now();
    let jobs = a.jobs.max(1);
    let chunk = chosen.len().div_ceil(jobs).max(1);
    let rows: Vec<Option<Row>> = std::thread::scope(|scope| {
        let handles: Vec<_> = chosen
            .chunks(chunk)
            .map(|part| {
                let games = &games;
                scope.spawn(move || {
                    part.iter()
                        .map(|p| {
                            let (game, human) = replay(games, p.game, p.ply)?;
                            (uci_of(human) == p.human && game.pos().legal_moves().len() > 1)
                                .then(|| answer(p, &games[p.game], &game, human, a))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("model-grid worker")).collect()
    });
    let mut text = String::from("game,ply,part,band,rating,opp_rating,legal,human,fen,v6_lp,v6_top");
    for r in &a.ratings {
        let _ = write!(text, ",h{r}_lp,h{r}_top");
    }
    for (name, ..) in &a.maps {
        let _ = write!(text, ",{name}_h_lp,{name}_h_top");
    }
    if a.fen_alone {
        for r in &a.ratings {
            let _ = write!(text, ",f{r}_lp,f{r}_top");
        }
        for (name, ..) in &a.maps {
            let _ = write!(text, ",{name}_f_lp,{name}_f_top");
        }
    }
    text.push('\n');
    let kept: Vec<&Row> = rows.iter().flatten().collect();
    for row in &kept {
        text.push_str(&row.head);
        let _ = write!(text, ",{:.6},{}", row.v6.0, u8::from(row.v6.1));
        for (lp, top) in row.hist.iter().chain(&row.alone) {
            let _ = write!(text, ",{lp:.6},{}", u8::from(*top));
        }
        text.push('\n');
    }
    std::fs::write(&a.out, text).map_err(|e| format!("{}: {e}", a.out.display()))?;
    let per_position = t0.elapsed().as_secs_f64() * 1e3 * jobs as f64 / kept.len().max(1) as f64;
    eprintln!(
        "model grid: {} positions ({} skipped: not replayable or one legal move) × {} ratings{} in {:.0} s \
         ({per_position:.0} ms a position per job) -> {}",
        kept.len(),
        chosen.len() - kept.len(),
        a.ratings.len() + a.maps.len(),
        if a.fen_alone { " × (history, FEN alone)" } else { "" },
        t0.elapsed().as_secs_f64(),
        a.out.display()
    );
    Ok(())
}

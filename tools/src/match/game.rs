//! Playing one game between two UCI engines.

use super::adjudicate::{Adjudicator, DrawRule, ResignRule, RuleEnd, TbAdjudicator, Verdict, rule_end};
use super::engine::{EngineConfig, MatchEngine, SearchInfo};
use super::openings::Opening;
use crate::common::process::Fault;
use serde::Serialize;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Position};
use sparring::board::notation;
use sparring::board::zobrist;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One engine seat of a worker: its configuration and, once started, its process.
pub struct EngineSlot {
    pub config: EngineConfig,
    pub engine: Option<MatchEngine>,
}

impl EngineSlot {
    pub fn new(config: EngineConfig) -> EngineSlot {
        EngineSlot { config, engine: None }
    }

    /// The running engine, started if needed.
    pub fn ensure(&mut self, halt: &AtomicBool) -> Result<&mut MatchEngine, Fault> {
        if self.engine.is_none() {
            self.engine = Some(MatchEngine::start(&self.config, halt)?);
        }
        Ok(self.engine.as_mut().expect("started"))
    }

    /// Quits the engine if it runs.
    pub fn shutdown(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }
}

/// Game-level settings shared by all games of a match.
#[derive(Clone, Default)]
pub struct GameSettings {
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// Draw after this many full moves (book moves included).
    pub maxmoves: Option<u32>,
    pub tb: Option<Arc<TbAdjudicator>>,
}

/// How a game ended, as the PGN `Termination` tag names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Normal,
    Adjudication,
    TimeForfeit,
    IllegalMove,
    /// The engine exited, closed its pipes, or failed to start.
    Abandoned,
    /// The engine stopped answering and was killed.
    StalledConnection,
    /// The match was stopped while the game was running; such games are not counted.
    Unterminated,
}

impl Termination {
    pub fn tag(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::Adjudication => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::StalledConnection => "stalled connection",
            Termination::Unterminated => "unterminated",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unfinished,
}

impl GameResult {
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    fn win_for(c: Color) -> GameResult {
        if c == Color::White { GameResult::WhiteWins } else { GameResult::BlackWins }
    }
}

/// One move of a game.
#[derive(Clone, Debug)]
pub struct MoveRecord {
    pub uci: String,
    pub san: String,
    /// Book moves carry no search information.
    pub book: bool,
    pub info: SearchInfo,
    pub time: Duration,
}

/// A finished (or interrupted) game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// 0-based game index in the match schedule.
    pub index: usize,
    /// 1-based round (the opening number with -repeat pairs; the game number otherwise).
    pub round: usize,
    /// Which engine (0 = first `-engine`, 1 = second) played White.
    pub white_engine: usize,
    pub white: String,
    pub black: String,
    pub white_tc: String,
    pub black_tc: String,
    pub seed: u64,
    pub opening: Opening,
    pub moves: Vec<MoveRecord>,
    pub result: GameResult,
    pub termination: Termination,
    pub reason: String,
    pub final_fen: String,
    /// The engine (0/1) that crashed or failed to start, if one did.
    pub crashed: Option<usize>,
}

impl GameRecord {
    /// Score of engine `e` (0 or 1): 1, ½ or 0; None if unfinished.
    pub fn score_of(&self, e: usize) -> Option<f64> {
        let white = match self.result {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
            GameResult::Unfinished => return None,
        };
        Some(if e == self.white_engine { white } else { 1.0 - white })
    }
}

fn side_name(c: Color) -> &'static str {
    if c == Color::White { "White" } else { "Black" }
}

/// Which game of the schedule to play.
#[derive(Clone, Copy, Debug)]
pub struct GameSpec<'a> {
    /// The slot that plays White.
    pub white_engine: usize,
    pub opening: &'a Opening,
    /// The game's seed (sent as the `Seed` option to engines that declare it).
    pub seed: u64,
    /// 0-based game index in the match schedule.
    pub index: usize,
    /// 1-based round (the opening number with -repeat pairs; the game number otherwise).
    pub round: usize,
}

/// Plays one game. `slots[game.white_engine]` plays White. Engines that crash or hang are killed
/// and left stopped (the next `ensure` restarts them).
pub fn play_game(
    slots: &mut [EngineSlot; 2],
    game: &GameSpec,
    settings: &GameSettings,
    halt: &AtomicBool,
) -> GameRecord {
    let GameSpec { white_engine, opening, seed, index, round } = *game;
    let slot_of = |c: Color| {
        if c == Color::White { white_engine } else { 1 - white_engine }
    };
    let mut pos = opening.root.clone();
    let mut keys = vec![zobrist(&pos)];
    let mut moves: Vec<MoveRecord> = Vec::new();
    for &m in &opening.moves {
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        keys.push(zobrist(&pos));
        moves.push(MoveRecord {
            uci: notation::uci(m),
            san,
            book: true,
            info: SearchInfo::default(),
            time: Duration::ZERO,
        });
    }
    let rec = GameRecord {
        index,
        round,
        white_engine,
        white: slots[white_engine].config.name.clone(),
        black: slots[1 - white_engine].config.name.clone(),
        white_tc: slots[white_engine].config.tc.pgn_tag(),
        black_tc: slots[1 - white_engine].config.tc.pgn_tag(),
        seed,
        opening: opening.clone(),
        moves: Vec::new(),
        result: GameResult::Unfinished,
        termination: Termination::Unterminated,
        reason: String::new(),
        final_fen: String::new(),
        crashed: None,
    };
    let finish = |mut rec: GameRecord,
                  moves: Vec<MoveRecord>,
                  pos: &Chess,
                  result: GameResult,
                  term: Termination,
                  reason: String| {
        rec.moves = moves;
        rec.result = result;
        rec.termination = term;
        rec.reason = reason;
        rec.final_fen = notation::fen(pos);
        rec
    };
    // A fault of the engine playing `c`: the game is lost for it.
    let fault =
        |rec: GameRecord, moves: Vec<MoveRecord>, pos: &Chess, c: Color, f: Fault, slots: &mut [EngineSlot; 2]| {
            let e = slot_of(c);
            let who = side_name(c);
            let (term, reason) = match f {
                Fault::FailedStart(m) => (Termination::Abandoned, format!("{who} engine failed to start: {m}")),
                Fault::Crashed(m) => (Termination::Abandoned, format!("{who} disconnects: {m}")),
                Fault::Stalled(m) => (Termination::StalledConnection, format!("{who}'s connection stalls: {m}")),
                Fault::Interrupted => {
                    return finish(
                        rec,
                        moves,
                        pos,
                        GameResult::Unfinished,
                        Termination::Unterminated,
                        "match interrupted".into(),
                    );
                }
            };
            let crashed = matches!(term, Termination::Abandoned);
            if let Some(mut eng) = slots[e].engine.take() {
                eng.kill();
            }
            let mut r = finish(rec, moves, pos, GameResult::win_for(!c), term, reason);
            if crashed {
                r.crashed = Some(e);
            }
            r
        };

    // Start both engines and prepare the new game.
    for c in [Color::White, Color::Black] {
        let e = slot_of(c);
        let r = slots[e].ensure(halt).and_then(|eng| eng.new_game(Some(seed), halt));
        if let Err(f) = r {
            return fault(rec, moves, &pos, c, f, slots);
        }
    }
    if let Some(end) = rule_end(&pos, &keys) {
        return rule_finish(rec, moves, &pos, end, &finish);
    }

    let pos_prefix = match &opening.root_fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    let mut remaining: [Option<Duration>; 2] = [0, 1].map(|e| slots[e].config.tc.clock.map(|c| c.base));
    let mut moves_made = [0u32; 2];
    let mut adj = Adjudicator::new(settings.draw, settings.resign);

    loop {
        let c = pos.turn();
        let e = slot_of(c);
        let cfg = slots[e].config.clone();
        let mut position = pos_prefix.clone();
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in &moves {
                position.push(' ');
                position.push_str(&m.uci);
            }
        }
        let mut go = String::from("go");
        let mut budget = None;
        if let Some(clock) = cfg.tc.clock {
            let own = remaining[e].unwrap_or_default();
            let opp_e = 1 - e;
            let opp = remaining[opp_e].unwrap_or(own);
            let opp_inc = slots[opp_e].config.tc.clock.map(|c| c.inc).unwrap_or_default();
            let (w, b, winc, binc) =
                if c == Color::White { (own, opp, clock.inc, opp_inc) } else { (opp, own, opp_inc, clock.inc) };
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                w.as_millis(),
                b.as_millis(),
                winc.as_millis(),
                binc.as_millis()
            ));
            if clock.moves > 0 {
                go.push_str(&format!(" movestogo {}", clock.moves - moves_made[e] % clock.moves));
            }
            budget = Some(own);
        } else if let Some(mt) = cfg.tc.movetime {
            go.push_str(&format!(" movetime {}", mt.as_millis()));
            budget = Some(mt);
        }
        if let Some(n) = cfg.tc.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(d) = cfg.tc.depth {
            go.push_str(&format!(" depth {d}"));
        }
        let eng = slots[e].engine.as_mut().expect("engine started");
        let out = match eng.go(&position, &go, budget, halt) {
            Ok(o) => o,
            Err(f) => return fault(rec, moves, &pos, c, f, slots),
        };
        // Clock.
        if let Some(b) = budget
            && out.elapsed > b + cfg.timemargin
        {
            {
                let reason = format!(
                    "{} loses on time ({} ms used, {} ms allowed)",
                    side_name(c),
                    out.elapsed.as_millis(),
                    b.as_millis()
                );
                return finish(rec, moves, &pos, GameResult::win_for(!c), Termination::TimeForfeit, reason);
            }
        }
        if let (Some(clock), Some(rem)) = (cfg.tc.clock, remaining[e]) {
            let mut r = rem.saturating_sub(out.elapsed) + clock.inc;
            moves_made[e] += 1;
            if clock.moves > 0 && moves_made[e] % clock.moves == 0 {
                r += clock.base;
            }
            remaining[e] = Some(r);
        }
        // The move.
        let mv = notation::parse_uci(&pos, &out.bestmove).ok();
        let Some(m) = mv else {
            let shown = if out.bestmove.is_empty() { "(none)" } else { &out.bestmove };
            let reason = format!("{} makes an illegal move: {shown}", side_name(c));
            return finish(rec, moves, &pos, GameResult::win_for(!c), Termination::IllegalMove, reason);
        };
        let score = out.info.score_for_adjudication();
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m).to_string();
        keys.push(zobrist(&pos));
        moves.push(MoveRecord { uci: notation::uci(m), san, book: false, info: out.info, time: out.elapsed });
        if let Some(end) = rule_end(&pos, &keys) {
            return rule_finish(rec, moves, &pos, end, &finish);
        }
        let verdict = adj.update(c, score, &pos).or_else(|| settings.tb.as_ref().and_then(|tb| tb.probe(&pos)));
        if let Some(v) = verdict {
            let (res, reason) = match v {
                Verdict::Draw(r) => (GameResult::Draw, r),
                Verdict::Win { winner, reason } => (GameResult::win_for(winner), reason),
            };
            return finish(rec, moves, &pos, res, Termination::Adjudication, reason);
        }
        if let Some(mm) = settings.maxmoves
            && moves.len() as u32 >= 2 * mm
        {
            {
                return finish(
                    rec,
                    moves,
                    &pos,
                    GameResult::Draw,
                    Termination::Adjudication,
                    "Draw by move limit".into(),
                );
            }
        }
    }
}

fn rule_finish<F>(rec: GameRecord, moves: Vec<MoveRecord>, pos: &Chess, end: RuleEnd, finish: &F) -> GameRecord
where
    F: Fn(GameRecord, Vec<MoveRecord>, &Chess, GameResult, Termination, String) -> GameRecord,
{
    let res = match end {
        RuleEnd::Checkmate { winner } => GameResult::win_for(winner),
        _ => GameResult::Draw,
    };
    finish(rec, moves, pos, res, Termination::Normal, end.describe())
}

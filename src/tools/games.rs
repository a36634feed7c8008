//! Rated games read from PGN, reduced to what the tools need: players, ratings, the moves and
//! the number of legal moves before each (the human-likeness sampler and `strength ipr pgn`).

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Color, Move, Position};
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::path::Path;

/// A game reduced to what the tools need.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub white: String,
    pub black: String,
    /// The `Result` tag (`1-0`, `0-1`, `1/2-1/2`; `None` when absent or `*`).
    pub result: Option<String>,
    pub moves: Vec<Move>,
    /// Number of legal moves before each move in `moves`.
    pub legal_counts: Vec<u16>,
    /// A SAN that did not parse or was illegal: the game is cut there.
    pub error: Option<String>,
}

impl GameRecord {
    pub fn rating(&self, color: Color) -> Option<u32> {
        match color {
            Color::White => self.white_elo,
            Color::Black => self.black_elo,
        }
    }

    /// Gives the named players (exact name) the listed ratings, overriding the PGN's Elo tags: engine
    /// games name their players (`elo1700`) but carry no ratings.
    pub fn assign_ratings(&mut self, players: &BTreeMap<String, u32>) {
        if let Some(&r) = players.get(&self.white) {
            self.white_elo = Some(r);
        }
        if let Some(&r) = players.get(&self.black) {
            self.black_elo = Some(r);
        }
    }
}

/// FICS accounts that are computer programs, left out of every human target and of the human move
/// model's training data: the engine accounts among the rated players of `fics-blitz-dev.pgn`
/// (Rookie 57 game-sides at 2100-2400, Singularity 37 at 2700-2800, TogaRouter, GnuCheese, exeComp,
/// umko and JadeiteMech, named after engines or with FICS's computer-account suffixes).
pub const COMPUTER_ACCOUNTS: [&str; 7] =
    ["Rookie", "Singularity", "TogaRouter", "GnuCheese", "exeComp", "umko", "JadeiteMech"];

/// Is this player a known computer account ([`COMPUTER_ACCOUNTS`], exact name)?
pub fn is_computer(name: &str) -> bool {
    COMPUTER_ACCOUNTS.contains(&name)
}

/// Names that identify nobody: an empty `White`/`Black` tag, PGN's unknown `?` / `??`, `-`, `NN`
/// and `Unknown` (case-insensitive). Grouping players by such a name would pool strangers.
pub fn is_anonymous(name: &str) -> bool {
    let n = name.trim();
    n.is_empty()
        || n.chars().all(|c| c == '?' || c == '-')
        || n.eq_ignore_ascii_case("nn")
        || n.eq_ignore_ascii_case("unknown")
}

/// The key a player's games are grouped under: the name itself, or for an anonymous name
/// ([`is_anonymous`]) one key per game side, `?? (game 12, white)`, so that nobody is pooled.
pub fn player_key(name: &str, game: usize, color: Color) -> String {
    if is_anonymous(name) {
        let side = if color == Color::White { "white" } else { "black" };
        format!("{} (game {game}, {side})", if name.trim().is_empty() { "?" } else { name.trim() })
    } else {
        name.to_string()
    }
}

struct Collector;

struct Movetext {
    rec: GameRecord,
    pos: Chess,
}

impl Visitor for Collector {
    type Tags = GameRecord;
    type Movetext = Movetext;
    type Output = GameRecord;

    fn begin_tags(&mut self) -> ControlFlow<GameRecord, GameRecord> {
        ControlFlow::Continue(GameRecord::default())
    }

    fn tag(&mut self, tags: &mut GameRecord, name: &[u8], value: RawTag<'_>) -> ControlFlow<GameRecord> {
        let parse = || value.decode_utf8_lossy().trim().parse::<u32>().ok();
        match name {
            b"WhiteElo" => tags.white_elo = parse(),
            b"BlackElo" => tags.black_elo = parse(),
            b"White" => tags.white = value.decode_utf8_lossy().trim().to_string(),
            b"Black" => tags.black = value.decode_utf8_lossy().trim().to_string(),
            b"Result" => {
                let r = value.decode_utf8_lossy().trim().to_string();
                tags.result = matches!(r.as_str(), "1-0" | "0-1" | "1/2-1/2").then_some(r);
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: GameRecord) -> ControlFlow<GameRecord, Movetext> {
        ControlFlow::Continue(Movetext { rec: tags, pos: Chess::default() })
    }

    fn san(&mut self, mt: &mut Movetext, san: SanPlus) -> ControlFlow<GameRecord> {
        if mt.rec.error.is_some() {
            return ControlFlow::Continue(());
        }
        match san.san.to_move(&mt.pos) {
            Ok(m) => {
                let n = mt.pos.legal_moves().len();
                mt.rec.legal_counts.push(n as u16);
                mt.rec.moves.push(m);
                mt.pos.play_unchecked(m);
            }
            Err(e) => mt.rec.error = Some(format!("ply {}: {san}: {e}", mt.rec.moves.len())),
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Movetext) -> GameRecord {
        mt.rec
    }
}

/// Reads every game of a PGN file.
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut Collector).map_err(|e| format!("{}: {e}", path.display()))? {
        games.push(g);
    }
    Ok(games)
}

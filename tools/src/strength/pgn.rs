//! The estimator's view of a PGN, read by the tools' one reader ([`crate::common::games`]): main
//! line only, games from a `FEN` tag supported, and a game the reader could not read whole (a bad
//! FEN, another variant, an illegal or unparsable move) turned into a [`GameError`] carrying its
//! 1-based number, so the caller can report and skip it rather than estimate from part of a game.

use crate::common::games::{self, GameRecord};
use shakmaty::{Chess, Move};
use std::io::Read;

/// One game's main line with the tags the estimator uses.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// 1-based number of the game in the file.
    pub number: usize,
    pub white: String,
    pub black: String,
    pub white_elo: Option<i32>,
    pub black_elo: Option<i32>,
    /// The `Result` tag (`1-0`, `0-1`, `1/2-1/2`; `*` for anything else).
    pub result: String,
    pub root: Chess,
    pub moves: Vec<Move>,
}

impl PgnGame {
    /// The player name and rating of a side.
    pub fn side(&self, white: bool) -> (&str, Option<i32>) {
        if white { (&self.white, self.white_elo) } else { (&self.black, self.black_elo) }
    }
}

/// A game that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError {
    pub number: usize,
    pub message: String,
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: {}", self.number, self.message)
    }
}

type Out = Result<PgnGame, GameError>;

fn elo(e: Option<u32>) -> Option<i32> {
    e.and_then(|e| i32::try_from(e).ok())
}

impl From<GameRecord> for Out {
    fn from(g: GameRecord) -> Out {
        if let Some(message) = g.error {
            return Err(GameError { number: g.number, message });
        }
        Ok(PgnGame {
            number: g.number,
            white: g.white,
            black: g.black,
            white_elo: elo(g.white_elo),
            black_elo: elo(g.black_elo),
            result: g.result.unwrap_or_else(|| "*".to_string()),
            root: g.root,
            moves: g.moves,
        })
    }
}

/// Reads every game of a PGN stream. Each entry is a game or the reason it was skipped; an I/O or
/// unrecoverable parser error ends the stream and is returned as `Err`.
pub fn read_games<R: Read>(input: R) -> std::io::Result<Vec<Out>> {
    Ok(games::read_from(input)?.into_iter().map(Out::from).collect())
}

/// Reads a PGN file.
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<Out>> {
    let f = std::fs::File::open(path)?;
    read_games(std::io::BufReader::with_capacity(1 << 16, f))
}

//! Reading games with `pgn-reader`: main line only (variations skipped, comments and NAGs
//! ignored), games from a `FEN` tag supported, a game with a bad FEN or an illegal/unparsable move
//! turned into a [`GameError`] carrying its 1-based number so the caller can report and skip it.

use pgn_reader::{RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Move, Position, fen::Fen};
use std::io::Read;
use std::ops::ControlFlow;

/// One game's main line with the tags the estimator uses.
#[derive(Clone, Debug)]
pub struct PgnGame {
    /// 1-based number of the game in the file.
    pub number: usize,
    pub white: String,
    pub black: String,
    pub white_elo: Option<i32>,
    pub black_elo: Option<i32>,
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

#[derive(Default)]
struct Tags {
    white: String,
    black: String,
    white_elo: Option<i32>,
    black_elo: Option<i32>,
    result: String,
    fen: Option<String>,
    setup_error: Option<String>,
}

struct Movetext {
    tags: Tags,
    root: Chess,
    pos: Chess,
    moves: Vec<Move>,
}

struct GameVisitor {
    number: usize,
}

type Out = Result<PgnGame, GameError>;

impl GameVisitor {
    fn fail<T>(&self, message: String) -> ControlFlow<Out, T> {
        ControlFlow::Break(Err(GameError { number: self.number, message }))
    }
}

fn parse_elo(s: &str) -> Option<i32> {
    crate::tools::games::parse_elo(s).and_then(|e| i32::try_from(e).ok())
}

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Out;

    fn begin_tags(&mut self) -> ControlFlow<Out, Tags> {
        self.number += 1;
        ControlFlow::Continue(Tags::default())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Out> {
        let v = value.decode_utf8_lossy().into_owned();
        match name {
            b"White" => tags.white = v,
            b"Black" => tags.black = v,
            b"WhiteElo" => tags.white_elo = parse_elo(&v),
            b"BlackElo" => tags.black_elo = parse_elo(&v),
            b"Result" => tags.result = v,
            b"FEN" => tags.fen = Some(v),
            b"Variant" if !v.eq_ignore_ascii_case("standard") && !v.is_empty() => {
                tags.setup_error = Some(format!("unsupported variant '{v}'"));
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Out, Movetext> {
        if let Some(e) = &tags.setup_error {
            return self.fail(e.clone());
        }
        let root = match &tags.fen {
            None => Chess::default(),
            Some(f) => {
                let fen: Fen = match f.parse() {
                    Ok(fen) => fen,
                    Err(e) => {
                        return self.fail(format!("bad FEN '{f}': {e}"));
                    }
                };
                match fen.into_position(CastlingMode::Standard) {
                    Ok(p) => p,
                    Err(e) => {
                        return self.fail(format!("illegal FEN position '{f}': {e}"));
                    }
                }
            }
        };
        ControlFlow::Continue(Movetext { tags, pos: root.clone(), root, moves: Vec::new() })
    }

    fn san(&mut self, mt: &mut Movetext, san_plus: SanPlus) -> ControlFlow<Out> {
        match san_plus.san.to_move(&mt.pos) {
            Ok(m) => {
                mt.pos.play_unchecked(m);
                mt.moves.push(m);
                ControlFlow::Continue(())
            }
            Err(e) => {
                let ply = mt.moves.len() + 1;
                self.fail(format!("ply {ply}: illegal or ambiguous move '{san_plus}': {e}"))
            }
        }
    }

    fn begin_variation(&mut self, _mt: &mut Movetext) -> ControlFlow<Out, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, mt: Movetext) -> Out {
        let t = mt.tags;
        Ok(PgnGame {
            number: self.number,
            white: t.white,
            black: t.black,
            white_elo: t.white_elo,
            black_elo: t.black_elo,
            result: t.result,
            root: mt.root,
            moves: mt.moves,
        })
    }
}

/// Reads every game of a PGN stream. Each entry is a game or the reason it was skipped; an I/O or
/// unrecoverable parser error ends the stream and is returned as `Err`.
pub fn read_games<R: Read>(input: R) -> std::io::Result<Vec<Out>> {
    let mut reader = Reader::new(input);
    let mut v = GameVisitor { number: 0 };
    let mut out = Vec::new();
    while let Some(g) = reader.read_game(&mut v)? {
        out.push(g);
    }
    Ok(out)
}

/// Reads a PGN file.
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<Out>> {
    let f = std::fs::File::open(path)?;
    read_games(std::io::BufReader::with_capacity(1 << 16, f))
}

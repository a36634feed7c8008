//! Opening books: EPD (one position per line), PGN (one line of moves per game), and a built-in
//! set of named balanced lines used when no file is given.

use crate::common::games::read_from;
use shakmaty::fen::{Epd, Fen};
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use std::fs::File;
use std::path::Path;

/// One opening: a root position (the standard start or a FEN) and book moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// `ECO name` for built-in and PGN lines (when the PGN says), `id` for EPD lines.
    pub name: Option<String>,
    pub eco: Option<String>,
    /// The root position's FEN, or None for the standard starting position.
    pub root_fen: Option<String>,
    pub root: Chess,
    pub moves: Vec<Move>,
}

impl Opening {
    /// The position after the book moves.
    pub fn position(&self) -> Chess {
        let mut p = self.root.clone();
        for m in &self.moves {
            p.play_unchecked(*m);
        }
        p
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    Epd,
    Pgn,
}

/// Parses a FEN or EPD line (first fields), returning the position and its normalized FEN.
pub fn parse_fen_or_epd(line: &str) -> Result<(Chess, String), String> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.len() < 4 {
        return Err(format!("not a FEN/EPD line: '{line}'"));
    }
    let six = toks.len() >= 6 && toks[4].parse::<u32>().is_ok() && toks[5].parse::<u32>().is_ok();
    let pos: Chess = if six {
        let fen = Fen::from_ascii(toks[..6].join(" ").as_bytes()).map_err(|e| format!("bad FEN '{line}': {e}"))?;
        fen.into_position(CastlingMode::Standard).map_err(|e| format!("illegal position '{line}': {e}"))?
    } else {
        let epd = Epd::from_ascii(toks[..4].join(" ").as_bytes()).map_err(|e| format!("bad EPD '{line}': {e}"))?;
        epd.into_position(CastlingMode::Standard).map_err(|e| format!("illegal position '{line}': {e}"))?
    };
    let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    Ok((pos, fen))
}

fn epd_id(line: &str) -> Option<String> {
    let i = line.find(" id ")?;
    let rest = line[i + 4..].trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// Loads an EPD book: one position per line (4-field EPD with opcodes, or a 6-field FEN).
pub fn load_epd(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (pos, fen) = parse_fen_or_epd(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        if pos.legal_moves().is_empty() {
            continue;
        }
        out.push(Opening { name: epd_id(line), eco: None, root_fen: Some(fen), root: pos, moves: Vec::new() });
    }
    Ok(out)
}

/// Loads a PGN book; each game's moves (up to `plies` if given) form one opening. A game the reader
/// could not read (a bad FEN, another variant, an illegal move within the plies used) is an error.
pub fn load_pgn(path: &Path, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let games = read_from(std::io::BufReader::new(
        File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?,
    ))
    .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for g in games {
        let mut moves = g.moves;
        if let Some(p) = plies {
            moves.truncate(p);
        }
        if let Some(e) = g.error.filter(|_| plies.is_none_or(|p| moves.len() < p)) {
            return Err(format!("{}: game {}: {e}", path.display(), g.number));
        }
        let name = match (g.opening, g.variation) {
            (Some(o), Some(v)) => Some(format!("{o}, {v}")),
            (o, _) => o,
        };
        let root_fen =
            (g.root != Chess::default()).then(|| Fen::from_position(&g.root, EnPassantMode::Legal).to_string());
        let o = Opening { name, eco: g.eco, root_fen, root: g.root, moves };
        if !o.position().legal_moves().is_empty() {
            out.push(o);
        }
    }
    Ok(out)
}

/// Loads a book file.
pub fn load(path: &Path, format: BookFormat, plies: Option<usize>) -> Result<Vec<Opening>, String> {
    let mut v = match format {
        BookFormat::Epd => load_epd(path)?,
        BookFormat::Pgn => load_pgn(path, plies)?,
    };
    if v.is_empty() {
        return Err(format!("{}: no usable openings", path.display()));
    }
    if let Some(p) = plies {
        for o in &mut v {
            o.moves.truncate(p);
        }
    }
    Ok(v)
}

/// The built-in book: (ECO, name, SAN moves). Every line is a mainstream, roughly balanced
/// opening; a test replays each one.
pub const BUILTIN: &[(&str, &str, &str)] = &[
    ("B90", "Sicilian Defence, Najdorf Variation", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6"),
    ("B33", "Sicilian Defence, Sveshnikov Variation", "e4 c5 Nf3 Nc6 d4 cxd4 Nxd4 Nf6 Nc3 e5"),
    ("B70", "Sicilian Defence, Dragon Variation", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 g6"),
    ("B45", "Sicilian Defence, Four Knights Variation", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Nf6"),
    ("B42", "Sicilian Defence, Kan Variation", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 a6 Bd3 Nf6"),
    ("B22", "Sicilian Defence, Alapin Variation", "e4 c5 c3 Nf6 e5 Nd5 d4 cxd4"),
    ("B23", "Sicilian Defence, Closed Variation", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("B31", "Sicilian Defence, Rossolimo Variation", "e4 c5 Nf3 Nc6 Bb5 g6 O-O Bg7 c3 Nf6"),
    ("C65", "Ruy Lopez, Berlin Defence", "e4 e5 Nf3 Nc6 Bb5 Nf6 O-O Nxe4"),
    ("C84", "Ruy Lopez, Closed", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7"),
    ("C78", "Ruy Lopez, Archangel Variation", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O b5 Bb3 Bb7"),
    ("C50", "Italian Game, Giuoco Pianissimo", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6"),
    ("C54", "Italian Game, Classical Main Line", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d4 exd4 cxd4 Bb4+"),
    ("C55", "Two Knights Defence, Modern Bishop's Opening", "e4 e5 Nf3 Nc6 Bc4 Nf6 d3 Be7"),
    ("C45", "Scotch Game, Mieses Variation", "e4 e5 Nf3 Nc6 d4 exd4 Nxd4 Nf6 Nxc6 bxc6"),
    ("C42", "Petrov's Defence, Classical Attack", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 d4 d5"),
    ("C48", "Four Knights Game, Scotch Variation", "e4 e5 Nf3 Nc6 Nc3 Nf6 d4 exd4 Nxd4 Bb4"),
    ("C41", "Philidor Defence, Hanham Variation", "e4 e5 Nf3 d6 d4 Nf6 Nc3 Nbd7"),
    ("C26", "Vienna Game, Mieses Variation", "e4 e5 Nc3 Nf6 g3 d5 exd5 Nxd5 Bg2 Nxc3 bxc3"),
    ("C18", "French Defence, Winawer Variation", "e4 e6 d4 d5 Nc3 Bb4 e5 c5 a3 Bxc3+ bxc3"),
    ("C11", "French Defence, Steinitz Variation", "e4 e6 d4 d5 Nc3 Nf6 e5 Nfd7 f4 c5"),
    ("C07", "French Defence, Tarrasch Variation", "e4 e6 d4 d5 Nd2 c5 exd5 Qxd5 Ngf3 cxd4"),
    ("C02", "French Defence, Advance Variation", "e4 e6 d4 d5 e5 c5 c3 Nc6 Nf3 Qb6"),
    ("C01", "French Defence, Exchange Variation", "e4 e6 d4 d5 exd5 exd5 Nf3 Nf6 Bd3 Bd6"),
    ("B18", "Caro-Kann Defence, Classical Variation", "e4 c6 d4 d5 Nc3 dxe4 Nxe4 Bf5 Ng3 Bg6"),
    ("B12", "Caro-Kann Defence, Advance Variation", "e4 c6 d4 d5 e5 Bf5 Nf3 e6 Be2 c5"),
    ("B13", "Caro-Kann Defence, Exchange Variation", "e4 c6 d4 d5 exd5 cxd5 Bd3 Nc6 c3 Nf6"),
    ("B01", "Scandinavian Defence, Main Line", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6"),
    ("B08", "Pirc Defence, Classical Variation", "e4 d6 d4 Nf6 Nc3 g6 Nf3 Bg7 Be2 O-O"),
    ("B06", "Modern Defence, Standard Line", "e4 g6 d4 Bg7 Nc3 d6 Be3 a6"),
    ("B05", "Alekhine Defence, Modern Variation", "e4 Nf6 e5 Nd5 d4 d6 Nf3 Bg4 Be2 e6"),
    ("D37", "Queen's Gambit Declined, Harrwitz Attack", "d4 d5 c4 e6 Nc3 Nf6 Nf3 Be7 Bf4 O-O"),
    ("D35", "Queen's Gambit Declined, Exchange Variation", "d4 d5 c4 e6 Nc3 Nf6 cxd5 exd5 Bg5 Be7"),
    ("D41", "Queen's Gambit Declined, Semi-Tarrasch", "d4 Nf6 c4 e6 Nf3 d5 Nc3 c5 cxd5 Nxd5"),
    ("D27", "Queen's Gambit Accepted, Classical", "d4 d5 c4 dxc4 Nf3 Nf6 e3 e6 Bxc4 c5"),
    ("D17", "Slav Defence, Czech Variation", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5"),
    ("D10", "Slav Defence, Exchange Variation", "d4 d5 c4 c6 cxd5 cxd5 Nc3 Nf6 Bf4 Nc6"),
    ("D45", "Semi-Slav Defence, Normal Variation", "d4 d5 c4 c6 Nf3 Nf6 Nc3 e6 e3 Nbd7"),
    ("D85", "Gruenfeld Defence, Exchange Variation", "d4 Nf6 c4 g6 Nc3 d5 cxd5 Nxd5 e4 Nxc3 bxc3 Bg7"),
    ("E97", "King's Indian Defence, Classical Variation", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5"),
    ("E62", "King's Indian Defence, Fianchetto Variation", "d4 Nf6 c4 g6 g3 Bg7 Bg2 O-O Nc3 d6 Nf3 Nc6"),
    ("E32", "Nimzo-Indian Defence, Classical Variation", "d4 Nf6 c4 e6 Nc3 Bb4 Qc2 O-O a3 Bxc3+ Qxc3"),
    ("E46", "Nimzo-Indian Defence, Rubinstein Variation", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5"),
    ("E15", "Queen's Indian Defence, Fianchetto Variation", "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6 b3 Bb4+"),
    ("E04", "Catalan Opening, Open Variation", "d4 Nf6 c4 e6 g3 d5 Bg2 dxc4 Nf3 c5"),
    ("A58", "Benko Gambit Accepted", "d4 Nf6 c4 c5 d5 b5 cxb5 a6 bxa6 Bxa6"),
    ("A70", "Benoni Defence, Classical Variation", "d4 Nf6 c4 c5 d5 e6 Nc3 exd5 cxd5 d6 e4 g6"),
    ("A81", "Dutch Defence, Leningrad Variation", "d4 f5 g3 Nf6 Bg2 g6 Nf3 Bg7 O-O O-O"),
    ("A90", "Dutch Defence, Stonewall Variation", "d4 f5 c4 Nf6 g3 e6 Bg2 d5 Nf3 c6"),
    ("D02", "London System", "d4 d5 Nf3 Nf6 Bf4 c5 e3 Nc6 c3 Qb6"),
    ("A46", "Torre Attack", "d4 Nf6 Nf3 e6 Bg5 c5 e3 h6 Bh4"),
    ("A45", "Trompowsky Attack, Raptor Variation", "d4 Nf6 Bg5 Ne4 Bf4 c5 f3 Qa5+ c3 Nf6"),
    ("A36", "English Opening, Symmetrical Variation", "c4 c5 Nf3 Nf6 Nc3 Nc6 g3 g6 Bg2 Bg7"),
    ("A29", "English Opening, Four Knights Variation", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2 Nb6"),
    ("A22", "English Opening, Reversed Dragon", "c4 e5 g3 Nf6 Bg2 d5 cxd5 Nxd5 Nc3 Nb6"),
    ("A18", "English Opening, Mikenas-Carls Variation", "c4 Nf6 Nc3 e6 e4 d5 e5 d4"),
    ("A07", "King's Indian Attack", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4 d3 Nbd7"),
    ("A14", "Reti Opening, Neo-Catalan Declined", "Nf3 d5 c4 e6 g3 Nf6 Bg2 Be7 O-O O-O"),
];

/// The built-in book as openings. Panics only if a built-in line is illegal (a test guards this).
pub fn builtin() -> Vec<Opening> {
    BUILTIN
        .iter()
        .map(|&(eco, name, line)| {
            let root = Chess::default();
            let mut pos = root.clone();
            let mut moves = Vec::new();
            for san in line.split_whitespace() {
                let m = San::from_ascii(san.trim_end_matches(['+', '#']).as_bytes())
                    .ok()
                    .and_then(|s| s.to_move(&pos).ok())
                    .unwrap_or_else(|| panic!("built-in opening {eco} {name}: illegal {san}"));
                pos.play_unchecked(m);
                moves.push(m);
            }
            Opening { name: Some(name.to_string()), eco: Some(eco.to_string()), root_fen: None, root, moves }
        })
        .collect()
}

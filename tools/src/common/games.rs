//! Games read from PGN (pgn-reader), reduced to what the tools need: players, ratings, result,
//! event and time control, the moves and the number of legal moves before each, and the two kinds
//! of move comment the tools read: a player's clock after the move (`[%clk h:mm:ss.s]`, online
//! games) and the time the move took (`… 0.123s` or `book`, the PGNs `sparring match` writes).
//! Games that start from a `FEN` tag (the PGNs of matches from an EPD book) are read from there.
//! One reader for every tool (the human-likeness sampler, `strength ipr pgn`, `strength`, `style`,
//! `clock`, and the match runner's PGN opening books).

use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};
use std::collections::BTreeMap;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;

/// An `Elo` tag's rating: a positive whole number. `0`, `-`, `?` and the empty tag mean an
/// unrated player (online exports write `0` for them), who has no rating.
pub fn parse_elo(tag: &str) -> Option<u32> {
    tag.trim().parse::<u32>().ok().filter(|&e| e > 0)
}

/// A game reduced to what the tools need.
#[derive(Clone, Debug, Default)]
pub struct GameRecord {
    /// 1-based number of the game in the file.
    pub number: usize,
    /// The position the game starts from: its `FEN` tag's, else the standard one.
    pub root: Chess,
    pub white_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub white: String,
    pub black: String,
    /// The `Result` tag (`1-0`, `0-1`, `1/2-1/2`; `None` when absent or `*`).
    pub result: Option<String>,
    pub event: String,
    /// The `TimeControl` tag, when there is one (`base+inc` in seconds for the tools' own PGNs).
    pub time_control: Option<String>,
    /// The `Termination` tag (empty when absent).
    pub termination: String,
    /// The `ECO`, `Opening` and `Variation` tags (opening books name their lines with them).
    pub eco: Option<String>,
    pub opening: Option<String>,
    pub variation: Option<String>,
    pub moves: Vec<Move>,
    /// Number of legal moves before each move in `moves`.
    pub legal_counts: Vec<u16>,
    /// The mover's `[%clk]` after each move (seconds), as far as every move had one: after a move
    /// without a clock no later clock is kept.
    pub clocks: Vec<f64>,
    /// The time each move took by its comment (`0.123s` at the end); `None` for a `book` move,
    /// 0 for a move whose comment gives no time.
    pub spent: Vec<Option<f64>>,
    /// A SAN that did not parse or was illegal (the game is cut there), or a start the reader
    /// refuses (a bad `FEN` tag, a variant other than standard chess: no moves are read).
    pub error: Option<String>,
}

impl GameRecord {
    /// The moves that have a clock.
    pub fn timed_plies(&self) -> usize {
        self.clocks.len().min(self.moves.len())
    }

    /// The side to move before ply `ply` (0-based), from the start position's side to move.
    pub fn mover(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) { self.root.turn() } else { !self.root.turn() }
    }

    /// The name of the player to move before ply `ply`.
    pub fn mover_name(&self, ply: usize) -> &str {
        match self.mover(ply) {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The position before ply `ply` (`None` past the moves read).
    pub fn position(&self, ply: usize) -> Option<Chess> {
        let mut pos = self.root.clone();
        for &m in self.moves.get(..ply)? {
            pos.play_unchecked(m);
        }
        Some(pos)
    }

    /// The start as a FEN when it is not the standard position (for `position fen ... moves ...`).
    pub fn start_fen(&self) -> Option<String> {
        let fen = sparring::board::notation::fen(&self.root);
        (fen != sparring::board::notation::fen(&Chess::default())).then_some(fen)
    }

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

/// `[%clk h:mm:ss(.s)]` in a comment, seconds.
pub fn parse_clk(comment: &str) -> Option<f64> {
    let i = comment.find("[%clk")?;
    let rest = comment[i + 5..].trim_start();
    let end = rest.find(']')?;
    let mut secs = 0.0;
    for part in rest[..end].trim().split(':') {
        let v: f64 = part.parse().ok()?;
        if !v.is_finite() || v < 0.0 {
            return None;
        }
        secs = secs * 60.0 + v;
    }
    Some(secs)
}

/// The time at the end of a match comment (`+0.35/12 0.123s`), seconds.
pub fn comment_seconds(comment: &str) -> Option<f64> {
    let last = comment.split_whitespace().last()?;
    last.strip_suffix('s')?.parse().ok().filter(|v: &f64| v.is_finite() && *v >= 0.0)
}

#[derive(Default)]
struct Collector {
    number: usize,
}

/// The tags as read: the record, and the start it names.
struct Tags {
    rec: GameRecord,
    fen: Option<String>,
    variant: Option<String>,
}

struct Movetext {
    rec: GameRecord,
    pos: Chess,
    /// A move without a clock was seen: no later clock is kept.
    clock_gap: bool,
}

impl Visitor for Collector {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = GameRecord;

    fn begin_tags(&mut self) -> ControlFlow<GameRecord, Tags> {
        self.number += 1;
        let rec = GameRecord { number: self.number, ..GameRecord::default() };
        ControlFlow::Continue(Tags { rec, fen: None, variant: None })
    }

    fn tag(&mut self, all: &mut Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<GameRecord> {
        let text = || value.decode_utf8_lossy().trim().to_string();
        let tags = &mut all.rec;
        match name {
            b"WhiteElo" => tags.white_elo = parse_elo(&text()),
            b"BlackElo" => tags.black_elo = parse_elo(&text()),
            b"White" => tags.white = text(),
            b"Black" => tags.black = text(),
            b"Result" => {
                let r = text();
                tags.result = matches!(r.as_str(), "1-0" | "0-1" | "1/2-1/2").then_some(r);
            }
            b"Event" => tags.event = text(),
            b"TimeControl" => tags.time_control = Some(text()),
            b"Termination" => tags.termination = text(),
            b"ECO" | b"Eco" => tags.eco = Some(text()),
            b"Opening" => tags.opening = Some(text()),
            b"Variation" => tags.variation = Some(text()),
            b"FEN" => all.fen = Some(text()),
            b"Variant" => all.variant = Some(text()),
            _ => {}
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<GameRecord, Movetext> {
        let mut rec = tags.rec;
        match start(tags.fen.as_deref(), tags.variant.as_deref()) {
            Ok(root) => rec.root = root,
            Err(e) => rec.error = Some(e),
        }
        ControlFlow::Continue(Movetext { pos: rec.root.clone(), rec, clock_gap: false })
    }

    fn san(&mut self, mt: &mut Movetext, san: SanPlus) -> ControlFlow<GameRecord> {
        if mt.rec.error.is_some() {
            return ControlFlow::Continue(());
        }
        if mt.rec.clocks.len() < mt.rec.moves.len() {
            mt.clock_gap = true;
        }
        match san.san.to_move(&mt.pos) {
            Ok(m) => {
                let n = mt.pos.legal_moves().len();
                mt.rec.legal_counts.push(n as u16);
                mt.rec.moves.push(m);
                mt.rec.spent.push(Some(0.0));
                mt.pos.play_unchecked(m);
            }
            Err(e) => {
                mt.rec.error = Some(format!("ply {}: illegal or ambiguous move '{san}': {e}", mt.rec.moves.len() + 1));
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(&mut self, mt: &mut Movetext, comment: RawComment<'_>) -> ControlFlow<GameRecord> {
        if mt.rec.error.is_some() {
            return ControlFlow::Continue(());
        }
        let text = String::from_utf8_lossy(comment.as_bytes());
        if !mt.clock_gap
            && mt.rec.clocks.len() + 1 == mt.rec.moves.len()
            && let Some(c) = parse_clk(&text)
        {
            mt.rec.clocks.push(c);
        }
        if let Some(last) = mt.rec.spent.last_mut() {
            if text.trim() == "book" {
                *last = None;
            } else if let Some(s) = comment_seconds(&text) {
                *last = Some(s);
            }
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mt: Movetext) -> GameRecord {
        mt.rec
    }
}

/// The start a game's tags name: the `FEN` tag's position (standard castling rules), else the
/// standard one; a variant other than standard chess is refused.
fn start(fen: Option<&str>, variant: Option<&str>) -> Result<Chess, String> {
    if let Some(v) = variant.filter(|v| !v.is_empty() && !v.eq_ignore_ascii_case("standard")) {
        return Err(format!("unsupported variant '{v}'"));
    }
    let Some(f) = fen else { return Ok(Chess::default()) };
    let parsed: Fen = f.parse().map_err(|e| format!("bad FEN '{f}': {e}"))?;
    parsed.into_position(CastlingMode::Standard).map_err(|e| format!("illegal FEN position '{f}': {e}"))
}

/// Reads every game of a PGN stream, in order; an I/O or unrecoverable parser error ends it.
pub fn read_from<R: Read>(input: R) -> std::io::Result<Vec<GameRecord>> {
    let mut reader = Reader::new(input);
    let mut collector = Collector::default();
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut collector)? {
        games.push(g);
    }
    Ok(games)
}

/// What a tool tells its user about the games it could not read whole: how many were cut short (a
/// move that did not parse or was illegal) or not read at all (a bad `FEN` tag, another variant),
/// and the first reason; `None` when every game was read whole.
pub fn unread_note(path: &Path, games: &[GameRecord]) -> Option<String> {
    let bad: Vec<&GameRecord> = games.iter().filter(|g| g.error.is_some()).collect();
    let first = bad.first()?;
    Some(format!(
        "{}: {} of {} games cut short or not read (first: game {}: {})",
        path.display(),
        bad.len(),
        games.len(),
        first.number,
        first.error.as_deref().unwrap_or_default()
    ))
}

/// Reads every game of a PGN file, in file order.
pub fn read_games(path: &Path) -> Result<Vec<GameRecord>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_from(std::io::BufReader::with_capacity(1 << 16, file)).map_err(|e| format!("{}: {e}", path.display()))
}

/// How every tool's `--player NAME` finds its player among the names of a file's games (`names`:
/// the `White`/`Black` tags, in any order, repeats allowed): the one name equal to `query`
/// (trimmed; case-insensitive, an exact-case match winning a tie); otherwise the one name that
/// contains it, case-insensitively (`oparin` finds `Oparin, Grigoriy`). Anonymous names
/// ([`is_anonymous`]) never match. When no name or several names match, the error lists the
/// candidates (or the closest names, by Jaro-Winkler similarity) for a message that ends the
/// tool with exit status 1.
pub fn resolve_player<'a>(query: &str, names: impl IntoIterator<Item = &'a str>) -> Result<String, String> {
    let q = query.trim();
    let mut all: Vec<&str> = names.into_iter().map(str::trim).filter(|n| !is_anonymous(n)).collect();
    all.sort_unstable();
    all.dedup();
    if q.is_empty() {
        return Err("--player: an empty name".to_string());
    }
    if all.contains(&q) {
        return Ok(q.to_string());
    }
    let lower = q.to_lowercase();
    let equal: Vec<&str> = all.iter().copied().filter(|n| n.to_lowercase() == lower).collect();
    let containing: Vec<&str> = all.iter().copied().filter(|n| n.to_lowercase().contains(&lower)).collect();
    let found = if equal.is_empty() { &containing } else { &equal };
    match found.len() {
        1 => Ok(found[0].to_string()),
        0 => {
            let mut near: Vec<(f64, &str)> =
                all.iter().map(|n| (strsim::jaro_winkler(&lower, &n.to_lowercase()), *n)).collect();
            near.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
            let list: Vec<String> = near.iter().take(5).map(|(_, n)| format!("'{n}'")).collect();
            Err(if list.is_empty() {
                format!("no player named '{q}': the file names no players")
            } else {
                format!("no player named '{q}' (nor any name containing it); the closest names: {}", list.join(", "))
            })
        }
        n => {
            let list: Vec<String> = found.iter().take(10).map(|n| format!("'{n}'")).collect();
            let more = if n > 10 { format!(" and {} more", n - 10) } else { String::new() };
            Err(format!("'{q}' matches {n} players: {}{more}; give more of the name", list.join(", ")))
        }
    }
}

/// The game up to `ply` and the human's move there, for positions given by game index (the
/// bench's positions).
pub fn replay(games: &[GameRecord], game: usize, ply: u32) -> Option<(sparring::board::Game, Move)> {
    let g = games.get(game)?;
    let moves = g.moves.get(..ply as usize)?;
    Some((sparring::board::Game::with_moves(g.root.clone(), moves), *g.moves.get(ply as usize)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_comments_parse() {
        assert_eq!(parse_clk("[%clk 0:03:02.0]"), Some(182.0));
        assert_eq!(parse_clk(" [%clk 1:00:00] "), Some(3600.0));
        assert_eq!(parse_clk("[%eval 0.3] [%clk 0:00:05.5]"), Some(5.5));
        assert_eq!(parse_clk("[%clk x]"), None);
        assert_eq!(parse_clk("no clock"), None);
        assert_eq!(
            (parse_elo(" 1500 "), parse_elo("0"), parse_elo("-"), parse_elo("?")),
            (Some(1500), None, None, None)
        );
        assert_eq!(comment_seconds("+0.35/12 0.123s"), Some(0.123));
        assert_eq!(comment_seconds("-M2/5 1.5s"), Some(1.5));
        assert_eq!(comment_seconds("book"), None);
    }

    #[test]
    fn one_reader_keeps_tags_clocks_and_move_times() {
        let pgn = "[Event \"Online 3+2\"]\n[White \"a\"]\n[Black \"b\"]\n[WhiteElo \"1500\"]\n[BlackElo \"0\"]\n\
                   [TimeControl \"180+2\"]\n[Termination \"time forfeit\"]\n[Result \"1-0\"]\n\n\
                   1. e4 { [%clk 0:03:01] } e5 { [%clk 0:03:00.5] } 2. Nf3 Nc6 { [%clk 0:02:58] } \
                   3. Bb5 { book } a6 { +0.2/3 0.25s } 4. Qq9 Nf6 1-0\n";
        let path = std::env::temp_dir().join(format!("sparring-games-{}.pgn", std::process::id()));
        std::fs::write(&path, pgn).unwrap();
        let games = read_games(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let g = &games[0];
        assert_eq!((g.event.as_str(), g.white_elo, g.black_elo), ("Online 3+2", Some(1500), None));
        assert_eq!((g.time_control.as_deref(), g.termination.as_str()), (Some("180+2"), "time forfeit"));
        assert_eq!(g.result.as_deref(), Some("1-0"));
        // Cut at the illegal SAN; the legal-move counts and times follow the moves.
        assert_eq!(g.moves.len(), 6);
        assert!(
            g.error.as_deref().is_some_and(|e| e.starts_with("ply 7: illegal or ambiguous move 'Nf6'")),
            "{:?}",
            g.error
        );
        assert_eq!((g.number, g.root.clone()), (1, Chess::default()));
        assert_eq!(g.legal_counts[0], 20);
        // White's second move has no clock: no later clock is kept.
        assert_eq!(g.clocks, vec![181.0, 180.5]);
        assert_eq!(g.timed_plies(), 2);
        assert_eq!(g.spent, vec![Some(0.0), Some(0.0), Some(0.0), Some(0.0), None, Some(0.25)]);
    }

    #[test]
    fn a_fen_tag_sets_the_start_and_a_bad_one_is_an_error() {
        let pgn = "[White \"a\"]\n[Black \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K2R w K - 0 1\"]\n[SetUp \"1\"]\n\n1. O-O Kd7 2. Rd1+ *\n\n\
                   [White \"c\"]\n[Black \"d\"]\n[FEN \"not a fen\"]\n\n1. e4 *\n\n\
                   [White \"e\"]\n[Black \"f\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n\
                   [White \"g\"]\n[Black \"h\"]\n[Variant \"Standard\"]\n\n1. e4 *\n";
        let games = read_from(pgn.as_bytes()).unwrap();
        assert_eq!(games.iter().map(|g| g.number).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
        // Castling short and a rook check exist only from the tagged position.
        let g = &games[0];
        assert_eq!((g.moves.len(), g.error.as_deref()), (3, None));
        assert_eq!(sparring::board::notation::fen(&g.root), "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1");
        assert_eq!(g.legal_counts[0], 16);
        assert!(
            games[1].error.as_deref().is_some_and(|e| e.starts_with("bad FEN 'not a fen'")),
            "{:?}",
            games[1].error
        );
        assert!(games[1].moves.is_empty());
        assert_eq!(games[2].error.as_deref(), Some("unsupported variant 'Atomic'"));
        assert!(games[2].moves.is_empty());
        assert_eq!((games[3].moves.len(), games[3].error.as_deref()), (1, None));
        let note = unread_note(Path::new("x.pgn"), &games).unwrap();
        assert!(
            note.starts_with("x.pgn: 2 of 4 games cut short or not read (first: game 2: bad FEN 'not a fen'"),
            "{note}"
        );
        assert_eq!(unread_note(Path::new("x.pgn"), &games[3..]), None);
    }
}

//! Where the fingerprinted moves come from: the moves of games (all, one side, or one player), and
//! the fixed position set an engine is asked about (positions sampled from PGN games, or FENs).

use crate::common::games::{GameRecord, is_computer};
use shakmaty::{Chess, Color, Move, Position};
use sparring::board::parse_fen;
use sparring::policy::style::{Facts, classify};
use std::path::Path;

/// Whose moves of a game count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// Both sides.
    All,
    Side(Color),
    /// The player of that exact name, whichever colour.
    Player(String),
}

impl Who {
    /// The colours of `g` whose moves count.
    pub fn colours(&self, g: &GameRecord) -> Vec<Color> {
        match self {
            Who::All => vec![Color::White, Color::Black],
            Who::Side(c) => vec![*c],
            Who::Player(name) => {
                let mut v = Vec::new();
                if g.white == *name {
                    v.push(Color::White);
                }
                if g.black == *name {
                    v.push(Color::Black);
                }
                v
            }
        }
    }
}

/// One classified move: its cluster (the game it comes from) and its facts.
#[derive(Clone, Debug)]
pub struct Observed {
    pub cluster: usize,
    pub facts: Facts,
}

/// One game side, for the game rows (length, draws, castling).
#[derive(Clone, Debug)]
pub struct SideGame {
    pub game: usize,
    /// Full moves the game lasted.
    pub moves: f64,
    /// Whether the game was drawn (`None`: no result).
    pub draw: Option<bool>,
    /// The side's move number of its castling move, if it castled.
    pub castled_at: Option<u32>,
    /// Moves the side made.
    pub side_moves: u32,
}

/// The classified moves of `who` in `games` (game index = cluster) and one [`SideGame`] per
/// counted game side.
pub fn game_moves(games: &[GameRecord], who: &Who) -> (Vec<Observed>, Vec<SideGame>) {
    let mut obs = Vec::new();
    let mut sides = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        let colours = who.colours(g);
        if colours.is_empty() {
            continue;
        }
        let mut pos = g.root.clone();
        let mut castled = [None, None];
        let mut count = [0u32; 2];
        let mut prev: Option<Move> = None;
        for &m in &g.moves {
            let c = pos.turn();
            let ci = c as usize;
            count[ci] += 1;
            if m.is_castle() && castled[ci].is_none() {
                castled[ci] = Some(count[ci]);
            }
            if colours.contains(&c) {
                obs.push(Observed { cluster: gi, facts: classify(&pos, prev, m) });
            }
            pos.play_unchecked(m);
            prev = Some(m);
        }
        for c in colours {
            sides.push(SideGame {
                game: gi,
                moves: (g.moves.len() as f64 / 2.0).ceil(),
                draw: g.result.as_deref().map(|r| r == "1/2-1/2"),
                castled_at: castled[c as usize],
                side_moves: count[c as usize],
            });
        }
    }
    (obs, sides)
}

/// Which of a player's games (in file order) count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Part {
    All,
    /// The first half of the player's games.
    First,
    /// The second half.
    Second,
}

/// The player's games of `part`, with their index in the file.
pub fn player_games<'a>(games: &'a [GameRecord], name: &str, part: Part) -> Vec<(usize, &'a GameRecord)> {
    let all: Vec<(usize, &GameRecord)> =
        games.iter().enumerate().filter(|(_, g)| g.white == name || g.black == name).collect();
    let half = all.len() / 2;
    match part {
        Part::All => all,
        Part::First => all[..half].to_vec(),
        Part::Second => all[half..].to_vec(),
    }
}

/// A position an engine is asked for its move in.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The game it comes from (the cluster), or its line in a FEN file.
    pub cluster: usize,
    /// The FEN it starts from (`None`: the standard start, then `history`).
    pub start_fen: Option<String>,
    /// The moves from the start to the position.
    pub history: Vec<Move>,
    pub pos: Chess,
    /// The move the game's player made here (`None` for a FEN file's position).
    pub played: Option<Move>,
}

impl Probe {
    /// The move that led here, when known.
    pub fn prev(&self) -> Option<Move> {
        self.history.last().copied()
    }

    /// The UCI `position` command for it.
    pub fn position_command(&self) -> String {
        let mut s = match &self.start_fen {
            Some(f) => format!("position fen {f}"),
            None => "position startpos".to_string(),
        };
        if !self.history.is_empty() {
            s.push_str(" moves ");
            s.push_str(&sparring::board::notation::uci_line(&self.history));
        }
        s
    }
}

/// How positions are drawn from games.
#[derive(Clone, Debug)]
pub struct SampleSpec {
    pub count: usize,
    pub seed: u64,
    /// Earliest ply (0 = the first move) a position may come from.
    pub min_ply: usize,
    /// Mover's rating range, inclusive (the mover must have a rating inside when set).
    pub band: Option<(u32, u32)>,
    /// Whose moves' positions: both sides', one side's or one player's.
    pub who: Who,
}

fn key(seed: u64, a: u64, b: u64) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"sparring style sample v1");
    h.update(&seed.to_le_bytes());
    h.update(&a.to_le_bytes());
    h.update(&b.to_le_bytes());
    *h.finalize().as_bytes()
}

/// Positions before human moves (computer accounts left out), `spec.count` of them: each game
/// side in a seeded order gives one position (its ply in a seeded order too), then a second
/// round gives a second one from each, and so on. Returned in game and ply order.
pub fn sample(games: &[GameRecord], spec: &SampleSpec) -> Vec<Probe> {
    let mut sides: Vec<(usize, Vec<usize>)> = Vec::new();
    for (gi, g) in games.iter().enumerate() {
        for c in spec.who.colours(g) {
            let name = if c == Color::White { &g.white } else { &g.black };
            if is_computer(name) {
                continue;
            }
            if let Some((lo, hi)) = spec.band
                && !g.rating(c).is_some_and(|r| (lo..=hi).contains(&r))
            {
                continue;
            }
            let mut plies: Vec<usize> =
                (spec.min_ply..g.moves.len()).filter(|&p| g.mover(p) == c && g.legal_counts[p] >= 2).collect();
            if plies.is_empty() {
                continue;
            }
            plies.sort_by_key(|&p| key(spec.seed, gi as u64, 1000 + p as u64));
            sides.push((gi, plies));
        }
    }
    sides.sort_by_key(|(gi, plies)| key(spec.seed, *gi as u64, (plies[0] % 2) as u64));
    let mut chosen = Vec::new();
    let mut round = 0;
    while chosen.len() < spec.count {
        let before = chosen.len();
        for (gi, plies) in &sides {
            if let Some(&p) = plies.get(round) {
                chosen.push((*gi, p));
                if chosen.len() == spec.count {
                    break;
                }
            }
        }
        if chosen.len() == before {
            break;
        }
        round += 1;
    }
    chosen.sort();
    chosen
        .into_iter()
        .map(|(gi, ply)| {
            let g = &games[gi];
            let history = g.moves[..ply].to_vec();
            let pos = g.position(ply).expect("sampled plies are inside the game");
            Probe { cluster: gi, start_fen: g.start_fen(), history, pos, played: Some(g.moves[ply]) }
        })
        .collect()
}

/// Positions from a FEN/EPD file, one per non-empty line (the first four or six fields; `#`
/// starts a comment line). Each is its own cluster.
pub fn read_fens(path: &Path) -> Result<Vec<Probe>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() && fields[5].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else {
            fields[..fields.len().min(4)].join(" ")
        };
        let pos = parse_fen(&fen).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        if pos.legal_moves().is_empty() {
            continue;
        }
        out.push(Probe {
            cluster: out.len(),
            start_fen: Some(sparring::board::notation::fen(&pos)),
            history: vec![],
            pos,
            played: None,
        });
    }
    Ok(out)
}

/// A short fingerprint of a probe set (its positions and history), so a recorded move file is
/// only ever read back against the positions it was made on.
pub fn probes_hash(probes: &[Probe]) -> String {
    let mut h = blake3::Hasher::new();
    for p in probes {
        h.update(p.position_command().as_bytes());
        h.update(b"\n");
    }
    h.finalize().to_hex()[..16].to_string()
}

//! What kind of move a move is: the per-move facts behind the style fingerprint. Every fact is a
//! function of the position before the move, the move and (for trades) the move before it, and each
//! is symmetric under mirroring the board (ranks flipped, colours swapped). The definitions are the
//! ones `bench/results/style.md` documents; [`Rate::definition`] holds the one-line form. The
//! fingerprint (`tools/style`) counts them; an avatar's leans (`lean.KIND` in an `.avt` file) move the
//! human move model's term of each kind of move (`player.rs`).

use crate::board::gives_check;
use crate::board::see::{see_ge, value};
use shakmaty::{Bitboard, Chess, Color, File, Move, Position, Rank, Role, Square};

/// The move rates of the fingerprint, in table order.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rate {
    Capture,
    Check,
    KingZone,
    Storm,
    Sacrifice,
    QueenTrade,
    PieceTrade,
    Castles,
    StructureDamage,
    PassedPush,
    Retreat,
}

impl Rate {
    pub const COUNT: usize = 11;
    pub const ALL: [Rate; Rate::COUNT] = [
        Rate::Capture,
        Rate::Check,
        Rate::KingZone,
        Rate::Storm,
        Rate::Sacrifice,
        Rate::QueenTrade,
        Rate::PieceTrade,
        Rate::Castles,
        Rate::StructureDamage,
        Rate::PassedPush,
        Rate::Retreat,
    ];

    /// Short key used in CSV and JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Rate::Capture => "capture",
            Rate::Check => "check",
            Rate::KingZone => "king_zone",
            Rate::Storm => "pawn_storm",
            Rate::Sacrifice => "sacrifice",
            Rate::QueenTrade => "queen_trade",
            Rate::PieceTrade => "piece_trade",
            Rate::Castles => "castles",
            Rate::StructureDamage => "structure_damage",
            Rate::PassedPush => "passed_push",
            Rate::Retreat => "retreat",
        }
    }

    /// What counts, over which moves (the denominator).
    pub const fn definition(self) -> &'static str {
        match self {
            Rate::Capture => "moves that capture (en passant included); of all moves",
            Rate::Check => "moves that give check; of all moves",
            Rate::KingZone => {
                "non-king moves from outside into the enemy king zone (squares within 2 of the king); of all moves"
            }
            Rate::Storm => {
                "pawn moves to the mover's 4th rank or beyond on a file next to or on the enemy king's, that king on files a-c or f-h; of all moves"
            }
            Rate::Sacrifice => {
                "moves that lose >= 1 pawn by SEE on their square, or (not in check) newly leave material en prise: the opponent's best SEE gain after the move beats what the move took by >= 1 pawn and the threat before it; of all moves"
            }
            Rate::QueenTrade => {
                "queen takes queen on a defended square (SEE = 0), not a recapture; of moves with both queens on"
            }
            Rate::PieceTrade => {
                "knight/bishop takes knight/bishop or rook takes rook, SEE within +-50 cp (even), not a recapture; of all moves"
            }
            Rate::Castles => "castling moves; of moves where castling is legal",
            Rate::StructureDamage => {
                "moves that raise the count of the mover's doubled or isolated pawns; of all moves"
            }
            Rate::PassedPush => {
                "moves of a pawn that is passed after the move; of moves where the mover has a passed pawn"
            }
            Rate::Retreat => {
                "non-capturing knight/bishop/rook/queen moves towards the mover's own back rank; of all moves"
            }
        }
    }
}

/// One move's facts: `None` where the move is not in the rate's denominator.
pub type Facts = [Option<bool>; Rate::COUNT];

/// Rank of `sq` counted from `c`'s own back rank (0..=7).
fn relative_rank(c: Color, sq: Square) -> u32 {
    let r = sq.rank() as u32;
    if c == Color::White { r } else { 7 - r }
}

/// Squares within Chebyshev distance 2 of `king`.
pub fn king_zone(king: Square) -> Bitboard {
    Bitboard::FULL.into_iter().filter(|&s| s.distance(king) <= 2).fold(Bitboard::EMPTY, |b, s| b | Bitboard::from(s))
}

/// Pawns of `c` on `board` that are doubled (another pawn of `c` on the file) or isolated (no pawn
/// of `c` on a neighbouring file).
pub fn weak_pawns(pos: &Chess, c: Color) -> u32 {
    let pawns = pos.board().pawns() & pos.board().by_color(c);
    let on_file = |f: i32| -> u32 {
        if (0..8).contains(&f) { (pawns & Bitboard::from(File::new(f as u32))).count() as u32 } else { 0 }
    };
    pawns
        .into_iter()
        .filter(|sq| {
            let f = sq.file() as i32;
            on_file(f) > 1 || on_file(f - 1) + on_file(f + 1) == 0
        })
        .count() as u32
}

/// Is the pawn of `c` on `sq` passed (no enemy pawn ahead on its file or a neighbouring file)?
pub fn is_passed(pos: &Chess, c: Color, sq: Square) -> bool {
    let theirs = pos.board().pawns() & pos.board().by_color(!c);
    let rel = relative_rank(c, sq);
    !theirs.into_iter().any(|p| (p.file() as i32 - sq.file() as i32).abs() <= 1 && relative_rank(c, p) > rel)
}

fn has_passed_pawn(pos: &Chess, c: Color) -> bool {
    (pos.board().pawns() & pos.board().by_color(c)).into_iter().any(|sq| is_passed(pos, c, sq))
}

/// The most the side to move of `pos` wins with one capture, by SEE, in steps of 100 cp up to
/// 1000 (0 when no capture wins a pawn).
fn best_capture_gain(pos: &Chess) -> i32 {
    let mut best = 0;
    for c in pos.capture_moves() {
        let mut k = best / 100 + 1;
        while k <= 10 && see_ge(pos, c, 100 * k) {
            best = 100 * k;
            k += 1;
        }
    }
    best
}

/// What the move takes (the captured piece plus a promotion's gain), in SEE values.
fn taken(m: Move) -> i32 {
    let captured = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    captured + m.promotion().map_or(0, |p| value(p) - value(Role::Pawn))
}

/// Does `m` give up material? See [`Rate::Sacrifice`].
pub fn is_sacrifice(pos: &Chess, m: Move) -> bool {
    if !see_ge(pos, m, -99) {
        return true;
    }
    if pos.is_check() {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let threat_after = best_capture_gain(&after);
    if threat_after - taken(m) < 100 {
        return false;
    }
    // The threats the opponent already had: the same position with them to move.
    let threat_before = pos.clone().swap_turn().map_or(0, |p| best_capture_gain(&p));
    threat_after > threat_before
}

/// Was `prev` (the opponent's last move) a capture on `sq`? Then taking back there is a recapture.
fn is_recapture(prev: Option<Move>, sq: Square) -> bool {
    prev.is_some_and(|p| p.is_capture() && p.to() == sq)
}

fn trade_class(role: Role) -> Option<u8> {
    match role {
        Role::Knight | Role::Bishop => Some(1),
        Role::Rook => Some(2),
        Role::Queen => Some(3),
        _ => None,
    }
}

/// `Some(class)` when `m` starts an even exchange of like pieces (see [`Rate::PieceTrade`] and
/// [`Rate::QueenTrade`]); class 3 is queens.
fn trade(pos: &Chess, prev: Option<Move>, m: Move) -> Option<u8> {
    let Move::Normal { role, capture: Some(victim), to, .. } = m else { return None };
    let class = trade_class(role)?;
    if trade_class(victim) != Some(class) || is_recapture(prev, to) {
        return None;
    }
    let even = if class == 3 { !see_ge(pos, m, 1) } else { see_ge(pos, m, -50) && !see_ge(pos, m, 51) };
    even.then_some(class)
}

fn is_storm(pos: &Chess, m: Move) -> bool {
    let us = pos.turn();
    let Some(king) = pos.board().king_of(!us) else { return false };
    let on_wing = !matches!(king.file(), File::D | File::E);
    m.role() == Role::Pawn
        && on_wing
        && (m.to().file() as i32 - king.file() as i32).abs() <= 1
        && relative_rank(us, m.to()) >= Rank::Fourth as u32
}

fn into_king_zone(pos: &Chess, m: Move) -> bool {
    let Some(king) = pos.board().king_of(!pos.turn()) else { return false };
    if m.role() == Role::King || m.is_castle() {
        return false;
    }
    let zone = king_zone(king);
    let from = m.from().expect("board moves have a from square");
    zone.contains(m.to()) && !zone.contains(from)
}

fn is_retreat(pos: &Chess, m: Move) -> bool {
    let us = pos.turn();
    matches!(m.role(), Role::Knight | Role::Bishop | Role::Rook | Role::Queen)
        && !m.is_capture()
        && m.from().is_some_and(|f| relative_rank(us, m.to()) < relative_rank(us, f))
}

/// The facts of the legal move `m` in `pos`; `prev` is the move that led to `pos`, when known.
pub fn classify(pos: &Chess, prev: Option<Move>, m: Move) -> Facts {
    let us = pos.turn();
    let mut after = pos.clone();
    after.play_unchecked(m);
    let board = pos.board();
    let both_queens = (board.queens() & board.by_color(us)).any() && (board.queens() & board.by_color(!us)).any();
    let castle_legal = pos.legal_moves().iter().any(|x| x.is_castle());
    let trade = trade(pos, prev, m);
    let mut f: Facts = [None; Rate::COUNT];
    for r in Rate::ALL {
        f[r as usize] = match r {
            Rate::Capture => Some(m.is_capture()),
            Rate::Check => Some(gives_check(pos, m)),
            Rate::KingZone => Some(into_king_zone(pos, m)),
            Rate::Storm => Some(is_storm(pos, m)),
            Rate::Sacrifice => Some(is_sacrifice(pos, m)),
            Rate::QueenTrade => both_queens.then_some(trade == Some(3)),
            Rate::PieceTrade => Some(matches!(trade, Some(1 | 2))),
            Rate::Castles => castle_legal.then_some(m.is_castle()),
            Rate::StructureDamage => Some(weak_pawns(&after, us) > weak_pawns(pos, us)),
            Rate::PassedPush => {
                has_passed_pawn(pos, us).then(|| m.role() == Role::Pawn && is_passed(&after, us, m.to()))
            }
            Rate::Retreat => Some(is_retreat(pos, m)),
        };
    }
    f
}

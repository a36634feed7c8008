//! The sparse move features of the human move model.
//!
//! Every feature is binary: a move switches on about fifteen of the [`COUNT`] indices. Squares are
//! seen from the side to move (Black's are flipped vertically), so one weight serves both colours.
//! The families, in index order ([`FAMILIES`]):
//!
//! | family | size | what |
//! |---|---|---|
//! | `piece_from_to` | 6·64·64 | the piece and both squares (pawn pushes by file and rank, castling as the king's move) |
//! | `to_own_king` / `to_their_king` | 6·15·15 each | where the piece lands relative to each king |
//! | `capture` | 6·6·3 | mover × victim × exchange sign (SEE < 0, = 0, > 0) |
//! | `check` | 6·2 | gives check × whether the checking square is safe |
//! | `recapture` | 6·2 | lands on the square the opponent just moved to, × whether that move captured |
//! | `evade` | 6 | moves the piece the opponent's last move attacked |
//! | `mover` | 6·8 | the piece was attacked × by a lesser piece × defended |
//! | `destination` | 6·2·2·3 | after the move: attacked × defended × exchange sign of a quiet move |
//! | `hanging` | 3·3 | our hanging pieces before × after (0, 1, 2+) |
//! | `promotion` | 4 | the promotion piece |
//! | `phase_to` | 3·6·64 | game phase × piece × destination |
//! | `advance` | 3·6·7 | game phase × piece × ranks gained (−3..3) |
//! | `distance` | 6·8 | piece × king-move distance travelled |
//! | `threat` | 6·5·2 | the piece now attacks an enemy piece (knight..king) × that piece is worth more or undefended |
//! | `in_check` | 6·2 | answering a check: piece × capture |
//! | `castling_rights` | 3 | a king or rook move that gives up castling rights, per phase |
//! | `near_last` | 6·8 | king-move distance from the destination to the last move's destination |
//! | `free_capture` | 6·2 | captures the most valuable piece that can be won (SEE ≥ 0) × SEE > 0 |
//! | `ignores_free` | 6 | a move that is not such a capture while a piece can be won (SEE > 0), by victim |
//! | `regret` | 9·5 | how much worse than the best the look ([`super::look`]) finds the move (9 bands) × how good the best is (5 bands) |
//! | `rank` | 3·7 | game phase × the move's place in the look's order (1st … 10th and later) |
//! | `again` | 6·2 | moves the piece our previous move moved × straight back to where it came from |
//! | `regret_role` | 9·6 | regret band × the piece moved |
//! | `regret_kind` | 9·4 | regret band × quiet / capture / check / capture with check |
//! | `rank_best` | 7·5 | the move's place in the look's order × how good the best is |
//! | `gap` | 5·2 | how far the best move stands above the second (5 bands) × this is the best |
//!
//! The history used is the last two moves ([`History`]): the opponent's (recapture, evade,
//! near_last) and ours before it (again); without them (a FEN) those families stay off, and
//! without a look `regret` and `rank` do. Changing any meaning here changes what a trained model means: bump
//! [`FEATURE_SET`], retrain, and ship a new model version.

use crate::board::see::see_ge;
use shakmaty::attacks::attacks;
use shakmaty::{Bitboard, Board, Chess, Color, Move, Position, Role, Square};

/// Version of the feature definitions; a model file names the one it was trained with (2: the look
/// and our previous move; 3: the look crossed with the move; 4: the look scores each move once).
pub const FEATURE_SET: u32 = 4;

/// (name, size) of each family, in index order.
pub const FAMILIES: [(&str, usize); FAMILY_COUNT] = [
    ("piece_from_to", 6 * 64 * 64),
    ("to_own_king", 6 * 225),
    ("to_their_king", 6 * 225),
    ("capture", 6 * 6 * 3),
    ("check", 6 * 2),
    ("recapture", 6 * 2),
    ("evade", 6),
    ("mover", 6 * 8),
    ("destination", 6 * 2 * 2 * 3),
    ("hanging", 9),
    ("promotion", 4),
    ("phase_to", 3 * 6 * 64),
    ("advance", 3 * 6 * 7),
    ("distance", 6 * 8),
    ("threat", 6 * 5 * 2),
    ("in_check", 6 * 2),
    ("castling_rights", 3),
    ("near_last", 6 * 8),
    ("free_capture", 6 * 2),
    ("ignores_free", 6),
    ("regret", REGRET_BANDS.len() * BEST_BANDS.len()),
    ("rank", 3 * 7),
    ("again", 6 * 2),
    ("regret_role", REGRET_BANDS.len() * 6),
    ("regret_kind", REGRET_BANDS.len() * 4),
    ("rank_best", 7 * BEST_BANDS.len()),
    ("gap", GAP_BANDS.len() * 2),
];

/// Number of families.
pub const FAMILY_COUNT: usize = 27;

/// Upper ends (cp) of the bands of the `gap` family: how much better the look finds the best
/// move than the second best (0 when two share the top).
pub const GAP_BANDS: [i32; 5] = [0, 30, 100, 300, i32::MAX];

/// Upper ends (cp) of the regret bands of the `regret` family; a move worse by more falls in the
/// last band.
pub const REGRET_BANDS: [i32; 9] = [0, 15, 40, 80, 150, 250, 400, 700, i32::MAX];
/// Upper ends (cp, mover's view) of the bands of the best move's score in the `regret` family.
pub const BEST_BANDS: [i32; 5] = [-400, -100, 100, 400, i32::MAX];
/// Scores of the look are clamped to this (cp) first, so a mate counts as a large score.
pub const LOOK_CLAMP_CP: i32 = 1500;

/// The moves before the position: the opponent's last one and ours before it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub last: Option<Move>,
    pub ours: Option<Move>,
}

impl History {
    /// The last two moves of a game (each when known).
    pub fn of(game: &crate::board::Game) -> History {
        History { last: game.moves_back(0), ours: game.moves_back(1) }
    }
}

/// What the look says of one move: how much worse than the best it is (cp, ≥ 0), the best
/// score (cp, mover's view) and how many moves look strictly better.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Value {
    pub regret: i32,
    pub best: i32,
    pub rank: usize,
    /// Best score − second best score (0 with a single move).
    pub gap: i32,
}

/// The [`Value`] of each move from the look's scores (same order as the moves).
pub fn values(scores: &[i32]) -> Vec<Value> {
    let clamped: Vec<i32> = scores.iter().map(|s| (*s).clamp(-LOOK_CLAMP_CP, LOOK_CLAMP_CP)).collect();
    let best = clamped.iter().copied().max().unwrap_or(0);
    let mut sorted = clamped.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let gap = sorted.get(1).map_or(0, |second| best - second);
    clamped
        .iter()
        .map(|&s| Value { regret: best - s, best, rank: clamped.iter().filter(|&&t| t > s).count(), gap })
        .collect()
}

fn band(bands: &[i32], x: i32) -> usize {
    bands.iter().position(|&b| x <= b).unwrap_or(bands.len() - 1)
}

const fn offsets() -> [usize; FAMILY_COUNT + 1] {
    let mut o = [0; FAMILY_COUNT + 1];
    let mut i = 0;
    while i < FAMILY_COUNT {
        o[i + 1] = o[i] + FAMILIES[i].1;
        i += 1;
    }
    o
}

const OFFSETS: [usize; FAMILY_COUNT + 1] = offsets();

/// Number of feature indices.
pub const COUNT: usize = OFFSETS[FAMILY_COUNT];

/// Most features one move can switch on.
pub const MAX_ACTIVE: usize = FAMILY_COUNT;

/// The family name of a feature index.
pub fn family_of(index: usize) -> &'static str {
    let f = (0..FAMILY_COUNT).rfind(|&i| OFFSETS[i] <= index).unwrap_or(0);
    FAMILIES[f].0
}

/// Piece values of the features (pawns); the king above everything.
fn worth(role: Role) -> u32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

fn r(role: Role) -> usize {
    role as usize - 1
}

/// What the features need of a position, computed once for all its moves.
pub struct Context<'a> {
    pos: &'a Chess,
    us: Color,
    own_king: Option<Square>,
    their_king: Option<Square>,
    phase: usize,
    in_check: bool,
    hanging_before: usize,
    /// The last move's destination, whether it captured, and the squares the piece standing there
    /// attacks.
    last: Option<(Square, bool, Bitboard)>,
    /// The most valuable victim of a capture that does not lose material (SEE ≥ 0), and whether
    /// some capture of it wins material (SEE > 0).
    free: Option<(Role, bool)>,
    /// Our previous move's from and to squares.
    ours: Option<(Square, Square)>,
}

/// The best victim among the captures of `pos` with SEE ≥ 0 (and whether one of those wins).
fn free_victim(pos: &Chess) -> Option<(Role, bool)> {
    let mut best: Option<(Role, bool)> = None;
    for m in pos.capture_moves() {
        let victim = if m.is_en_passant() { Role::Pawn } else { m.capture()? };
        if !see_ge(pos, m, 0) {
            continue;
        }
        let wins = see_ge(pos, m, 1);
        if best.is_none_or(|(v, w)| (worth(victim), wins) > (worth(v), w)) {
            best = Some((victim, wins));
        }
    }
    best
}

/// Game phase: 0 opening (move ≤ 12 with most pieces on), 1 middlegame, 2 endgame (little
/// material left).
fn phase(pos: &Chess) -> usize {
    let b = pos.board();
    let material = 3 * (b.knights() | b.bishops()).count() + 5 * b.rooks().count() + 9 * b.queens().count();
    if material < 26 {
        2
    } else if pos.fullmoves().get() <= 12 && material >= 50 {
        0
    } else {
        1
    }
}

/// Our pieces (not the king) that the other side attacks and that are undefended or attacked by
/// something worth less, capped at 2.
fn hanging(board: &Board, us: Color) -> usize {
    let occ = board.occupied();
    let mut n = 0;
    for sq in board.by_color(us) & !board.kings() {
        let attackers = board.attacks_to(sq, !us, occ);
        if attackers.is_empty() {
            continue;
        }
        let Some(role) = board.role_at(sq) else { continue };
        let cheap = attackers.into_iter().any(|a| board.role_at(a).is_some_and(|x| worth(x) < worth(role)));
        if cheap || board.attacks_to(sq, us, occ).is_empty() {
            n += 1;
            if n == 2 {
                break;
            }
        }
    }
    n
}

impl<'a> Context<'a> {
    /// The context of `pos`, with the moves that led to it when known.
    pub fn new(pos: &'a Chess, history: History) -> Context<'a> {
        let board = pos.board();
        let us = pos.turn();
        let ours = history.ours.and_then(|m| {
            let to = m.castling_side().map_or(m.to(), |s| s.king_to(us));
            Some((m.from()?, to))
        });
        let last = history.last.and_then(|m| {
            let to = m.castling_side().map_or(m.to(), |s| s.king_to(!us));
            let piece = board.piece_at(to)?;
            Some((to, m.is_capture(), attacks(to, piece, board.occupied())))
        });
        Context {
            pos,
            us,
            own_king: board.king_of(us),
            their_king: board.king_of(!us),
            phase: phase(pos),
            in_check: pos.is_check(),
            hanging_before: hanging(board, us),
            last,
            free: free_victim(pos),
            ours,
        }
    }

    fn rel(&self, sq: Square) -> Square {
        if self.us == Color::White { sq } else { sq.flip_vertical() }
    }

    /// Appends the indices of `m`'s features (legal in the context's position, with what the look
    /// says of it when there is one) to `out`.
    // Long: one push per family, in index order, reads best as one list.
    pub fn features(&self, m: Move, value: Option<Value>, out: &mut Vec<u32>) {
        let pos = self.pos;
        let board = pos.board();
        let us = self.us;
        let them = !us;
        let role = m.role();
        let ri = r(role);
        let from = m.from().expect("a chess move has a from square");
        let to = m.castling_side().map_or(m.to(), |s| s.king_to(us));
        let (rf, rt) = (self.rel(from), self.rel(to));
        let mut push = |family: usize, i: usize| {
            debug_assert!(i < FAMILIES[family].1, "feature {} index {i}", FAMILIES[family].0);
            out.push((OFFSETS[family] + i) as u32);
        };
        push(0, (ri * 64 + rf as usize) * 64 + rt as usize);
        let rel_king = |k: Option<Square>| {
            k.map(|k| {
                let k = self.rel(k);
                let dx = i32::from(rt.file()) - i32::from(k.file()) + 7;
                let dy = i32::from(rt.rank()) - i32::from(k.rank()) + 7;
                (dx * 15 + dy) as usize
            })
        };
        if role != Role::King
            && let Some(i) = rel_king(self.own_king)
        {
            push(1, ri * 225 + i);
        }
        if let Some(i) = rel_king(self.their_king) {
            push(2, ri * 225 + i);
        }
        let see_class = if see_ge(pos, m, 1) {
            2
        } else if see_ge(pos, m, 0) {
            1
        } else {
            0
        };
        if let Some(victim) = if m.is_en_passant() { Some(Role::Pawn) } else { m.capture() } {
            push(3, (ri * 6 + r(victim)) * 3 + see_class);
        }
        let mut after = pos.clone();
        after.play_unchecked(m);
        let ab = after.board();
        let occ_after = ab.occupied();
        let attacked_after = ab.attacks_to(to, them, occ_after).any();
        let defended_after = ab.attacks_to(to, us, occ_after).any();
        if after.is_check() {
            push(4, ri * 2 + usize::from(!attacked_after || see_class > 0));
        }
        if let Some((last_to, captured, last_attacks)) = self.last {
            if to == last_to {
                push(5, ri * 2 + usize::from(captured));
            }
            if last_attacks.contains(from) {
                push(6, ri);
            }
            push(17, ri * 8 + to.distance(last_to).min(7) as usize);
        }
        let victim = if m.is_en_passant() { Some(Role::Pawn) } else { m.capture() };
        if let Some((free, wins)) = self.free {
            if victim == Some(free) && see_class >= 1 {
                push(18, r(free) * 2 + usize::from(see_class > 0));
            } else if wins {
                push(19, r(free));
            }
        }
        let attackers = board.attacks_to(from, them, board.occupied());
        let lesser = attackers.into_iter().any(|a| board.role_at(a).is_some_and(|x| worth(x) < worth(role)));
        let defended = board.attacks_to(from, us, board.occupied()).any();
        push(7, ri * 8 + usize::from(attackers.any()) * 4 + usize::from(lesser) * 2 + usize::from(defended));
        let quiet_class = if m.is_capture() { 1 } else { see_class };
        push(8, ((ri * 2 + usize::from(attacked_after)) * 2 + usize::from(defended_after)) * 3 + quiet_class);
        push(9, self.hanging_before * 3 + hanging(ab, us));
        if let Some(p) = m.promotion() {
            push(10, r(p).saturating_sub(1).min(3));
        }
        push(11, (self.phase * 6 + ri) * 64 + rt as usize);
        let gained = (i32::from(rt.rank()) - i32::from(rf.rank())).clamp(-3, 3) + 3;
        push(12, (self.phase * 6 + ri) * 7 + gained as usize);
        let dist = from.distance(to).min(7) as usize;
        push(13, ri * 8 + dist);
        let piece_after = promotion_or(m).of(us);
        let mut threat: Option<(Role, bool)> = None;
        for t in attacks(to, piece_after, occ_after) & ab.by_color(them) {
            let Some(victim) = ab.role_at(t) else { continue };
            if victim == Role::Pawn {
                continue;
            }
            let real = worth(victim) > worth(piece_after.role) || ab.attacks_to(t, them, occ_after).is_empty();
            if threat.is_none_or(|(v, rl)| (real, worth(victim)) > (rl, worth(v))) {
                threat = Some((victim, real));
            }
        }
        if let Some((victim, real)) = threat {
            push(14, (ri * 5 + r(victim) - 1) * 2 + usize::from(real));
        }
        if self.in_check {
            push(15, ri * 2 + usize::from(m.is_capture()));
        }
        if !m.is_castle()
            && pos.castles().has_color(us)
            && after.castles().castling_rights() != pos.castles().castling_rights()
        {
            let lost_ours = (pos.castles().castling_rights() & !after.castles().castling_rights())
                & Bitboard::from_rank(us.backrank());
            if lost_ours.any() {
                push(16, self.phase);
            }
        }
        if let Some(v) = value {
            let (rb, bb) = (band(&REGRET_BANDS, v.regret), band(&BEST_BANDS, v.best));
            let rank = [0, 1, 2, 3, 4, 4, 5, 5, 5, 5].get(v.rank).copied().unwrap_or(6);
            push(20, rb * BEST_BANDS.len() + bb);
            push(21, self.phase * 7 + rank);
            push(23, rb * 6 + ri);
            push(24, rb * 4 + usize::from(m.is_capture()) + 2 * usize::from(after.is_check()));
            push(25, rank * BEST_BANDS.len() + bb);
            push(26, band(&GAP_BANDS, v.gap) * 2 + usize::from(v.regret == 0));
        }
        if let Some((our_from, our_to)) = self.ours
            && from == our_to
        {
            push(22, ri * 2 + usize::from(to == our_from));
        }
    }
}

fn promotion_or(m: Move) -> Role {
    m.promotion().unwrap_or(m.role())
}

/// The features of every move in `moves` (with the look's scores of them, same order, when
/// given), flattened: indices `out[starts[i]..starts[i + 1]]` are move `i`'s.
pub fn all(
    pos: &Chess,
    history: History,
    moves: &[Move],
    look: Option<&[i32]>,
    out: &mut Vec<u32>,
    starts: &mut Vec<usize>,
) {
    out.clear();
    starts.clear();
    let ctx = Context::new(pos, history);
    let values = look.map(values);
    starts.push(0);
    for (i, &m) in moves.iter().enumerate() {
        ctx.features(m, values.as_ref().map(|v| v[i]), out);
        starts.push(out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::parse_fen;

    fn feats(fen: &str, last: Option<&str>, mv: &str) -> Vec<&'static str> {
        let pos = parse_fen(fen).unwrap();
        let last = last.map(|t| {
            let m: shakmaty::uci::UciMove = t.parse().unwrap();
            // The last move is interpreted on the position before it; tests give it by squares.
            match m {
                shakmaty::uci::UciMove::Normal { from, to, .. } => Move::Normal {
                    role: pos.board().role_at(to).unwrap_or(Role::Pawn),
                    from,
                    capture: Some(Role::Pawn),
                    to,
                    promotion: None,
                },
                _ => unreachable!(),
            }
        });
        let m = crate::board::notation::parse_uci(&pos, mv).unwrap();
        let mut out = Vec::new();
        Context::new(&pos, History { last, ours: None }).features(m, None, &mut out);
        assert!(out.len() <= MAX_ACTIVE);
        assert!(out.iter().all(|&i| (i as usize) < COUNT));
        out.iter().map(|&i| family_of(i as usize)).collect()
    }

    #[test]
    fn families_add_up() {
        assert_eq!(COUNT, FAMILIES.iter().map(|f| f.1).sum::<usize>());
        assert_eq!(family_of(0), "piece_from_to");
        assert_eq!(family_of(COUNT - 1), "gap");
    }

    #[test]
    fn a_recapture_and_a_check_are_seen() {
        // 1. e4 d5 2. exd5 Qxd5: the queen recaptures on d5.
        let f = feats("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", Some("e4d5"), "d8d5");
        assert!(f.contains(&"recapture") && f.contains(&"capture"), "{f:?}");
        let f = feats("rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", None, "d8d5");
        assert!(!f.contains(&"recapture"), "no history, no recapture: {f:?}");
        // Bb5+ in the Sicilian gives check.
        let f = feats("rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3", None, "f1b5");
        assert!(f.contains(&"check"), "{f:?}");
    }

    #[test]
    fn colours_are_mirrored() {
        // The same move from each side switches on the same indices.
        let w = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let b = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let (mut fw, mut fb) = (Vec::new(), Vec::new());
        let v = Some(Value { regret: 30, best: 20, rank: 2, gap: 10 });
        let h = History::default();
        Context::new(&w, h).features(crate::board::notation::parse_uci(&w, "g1f3").unwrap(), v, &mut fw);
        Context::new(&b, h).features(crate::board::notation::parse_uci(&b, "g8f6").unwrap(), v, &mut fb);
        assert_eq!(fw, fb);
    }

    #[test]
    fn the_look_gives_regret_and_rank() {
        let v = values(&[30, 30, -20, -5000]);
        assert_eq!(v[0], Value { regret: 0, best: 30, rank: 0, gap: 0 });
        assert_eq!(values(&[50, 10, -20])[2].gap, 40, "best minus second best");
        assert_eq!(v[1].rank, 0, "a tie shares the first place");
        assert_eq!((v[2].regret, v[2].rank), (50, 2));
        assert_eq!((v[3].regret, v[3].rank), (30 + LOOK_CLAMP_CP, 3), "mated scores are clamped");
        assert_eq!(band(&REGRET_BANDS, 0), 0);
        assert_eq!(band(&REGRET_BANDS, 16), 2);
        assert_eq!(band(&REGRET_BANDS, 5000), REGRET_BANDS.len() - 1);
        assert_eq!(band(&BEST_BANDS, 0), 2);
        // With a look a move switches on both families, without one neither.
        let pos = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let m = crate::board::notation::parse_uci(&pos, "e2e4").unwrap();
        let ctx = Context::new(&pos, History::default());
        let (mut with, mut without) = (Vec::new(), Vec::new());
        ctx.features(m, Some(v[2]), &mut with);
        ctx.features(m, None, &mut without);
        let names: Vec<_> = with.iter().map(|&i| family_of(i as usize)).collect();
        for f in ["regret", "rank", "regret_role", "regret_kind", "rank_best", "gap"] {
            assert!(names.contains(&f), "{f} missing: {names:?}");
        }
        assert_eq!(with.len(), without.len() + 6);
    }

    #[test]
    fn moving_the_same_piece_again_is_seen() {
        // 1. Nf3 Nf6: White's knight moves again, once onward and once straight back.
        let pos = parse_fen("rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2").unwrap();
        let uci = |p: &Chess, t: &str| crate::board::notation::parse_uci(p, t).unwrap();
        let before = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        let h = History { last: None, ours: Some(uci(&before, "g1f3")) };
        let ctx = Context::new(&pos, h);
        let fam = |t: &str| {
            let mut out = Vec::new();
            ctx.features(uci(&pos, t), None, &mut out);
            out.into_iter().filter(|&i| family_of(i as usize) == "again").collect::<Vec<_>>()
        };
        let (on, back, other) = (fam("f3e5"), fam("f3g1"), fam("e2e4"));
        assert_eq!((on.len(), back.len(), other.len()), (1, 1, 0));
        assert_ne!(on, back, "straight back is its own feature");
    }
}

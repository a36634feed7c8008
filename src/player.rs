//! The player: turns a strength setting into a move, for every setting in one place
//! ([`Player::play`]). A setting is a frozen profile or a point of the `UCI_Elo` ladder, plus an
//! avatar. The full-strength setting searches with the shared searcher and `go`'s limits; every
//! weaker one searches from a clean, fixed-size table with its node budget, scores every root move,
//! and lets the seeded policy choose (SPEC 3–6). What it decided comes back as a [`Decision`] whose
//! report (score, PV starting with the move played) the UCI layer prints.

use crate::board::Game;
use crate::eval::EvalConfig;
use crate::human::v6 as human;
use crate::policy::prior::Glance;
use crate::policy::{self, Choice, ChoiceKind, ChoiceSettings};
use crate::profile::{Avatar, LevelSettings, Profile};
use crate::score;
use crate::search::{Control, Info, Limits, Reporter, Request, ScoreBound, SearchResult, Searcher, Silent};
use crate::seed::{self, tags};
use crate::tablebase::Tablebases;
use shakmaty::{Chess, Move, Position};
use std::sync::Arc;
use std::time::Duration;

/// Transposition table size of the weak searcher: fixed so the `Hash` option cannot change a
/// seeded weak player's moves.
pub const WEAK_HASH_MB: usize = 16;

/// Where the strength comes from.
#[derive(Clone, Debug)]
pub enum Setting {
    Profile(Profile),
    Level(LevelSettings),
}

/// A complete strength setting.
#[derive(Clone, Debug)]
pub struct Player {
    pub setting: Setting,
    pub avatar: Avatar,
}

/// The engine's searchers: the shared one of full-strength play (sized by `Hash`, warm from
/// move to move), the weak settings' own (fixed size, cleared before every decision, so `Hash`
/// and what was searched before cannot change a seeded move; the glance runs on it too, from a
/// cleared table, before the decision's search) and the look searcher of the human move model and
/// human time (their shallow looks, [`Searcher::for_look`], cleared before each look).
pub struct Searchers {
    pub strong: Searcher,
    pub weak: Searcher,
    pub look: Searcher,
}

impl Searchers {
    pub fn new(hash_mb: usize) -> Searchers {
        Searchers { strong: Searcher::new(hash_mb), weak: Searcher::new(WEAK_HASH_MB), look: Searcher::for_look() }
    }
}

/// One move request (a `go`): the position and everything of the engine's state the decision may
/// use, as a value.
#[derive(Clone)]
pub struct MoveRequest<'a> {
    pub game: &'a Game,
    /// `go`'s limits, with `MultiPV` and `Threads` from the options (weak settings use only the
    /// limits that keep them from losing on time).
    pub limits: Limits,
    /// The match seed of the game (SPEC 4).
    pub match_seed: u64,
    /// The loaded tables, used when the setting knows them.
    pub tablebases: Option<Arc<Tablebases>>,
    pub move_overhead: Duration,
}

impl<'a> MoveRequest<'a> {
    /// A request without limits, tables or overhead: what the tools ask of a weak setting.
    pub fn new(game: &'a Game, match_seed: u64) -> MoveRequest<'a> {
        MoveRequest { game, limits: Limits::default(), match_seed, tablebases: None, move_overhead: Duration::ZERO }
    }
}

/// The move a player decided on, with what the engine should report.
#[derive(Clone, Debug)]
pub struct Decision {
    pub mv: Option<Move>,
    pub ponder: Option<Move>,
    /// Score (side to move) of the move played, as reported: a mate is claimed only when `pv`
    /// delivers it (see [`honest_score`]).
    pub score: i32,
    /// The principal variation, starting with the move played.
    pub pv: Vec<Move>,
    pub depth: i32,
    pub nodes: u64,
    /// Hash table use of the searcher that decided (0 for weak settings, whose table is private).
    pub hashfull: u32,
    pub kind: ChoiceKind,
    pub regret_cp: i32,
    pub search: SearchResult,
}

impl Decision {
    /// The final `info` line of the move, `None` when there is no move (mate or stalemate).
    pub fn info(&self) -> Option<Info<'_>> {
        self.mv?;
        Some(Info {
            depth: self.depth.max(1),
            seldepth: self.search.seldepth,
            multipv: 1,
            score: self.score,
            bound: ScoreBound::Exact,
            nodes: self.nodes,
            time: self.search.time,
            hashfull: self.hashfull,
            tbhits: self.search.tbhits,
            pv: &self.pv,
        })
    }
}

/// The score to report for a line: a mate score only when playing `pv` from `pos` ends in
/// checkmate after exactly the plies the score claims; otherwise the same value as centipawns
/// (`score::as_cp`), so a GUI is never told of a mate the line does not show.
pub fn honest_score(pos: &Chess, score: i32, pv: &[Move]) -> i32 {
    let Some(moves) = score::mate_moves(score) else { return score };
    let plies = if moves > 0 { 2 * moves - 1 } else { -2 * moves };
    let mut p = pos.clone();
    for &m in pv {
        if !p.is_legal(m) {
            return score::as_cp(score);
        }
        p.play_unchecked(m);
    }
    if pv.len() as i32 == plies && p.is_checkmate() { score } else { score::as_cp(score) }
}

impl Player {
    pub fn strong() -> Player {
        Player {
            setting: Setting::Profile(Profile::builtin("strong").expect("built-in strong profile")),
            avatar: Avatar::neutral(),
        }
    }

    /// The built-in `strong` profile.
    pub fn profile_owned(&self) -> Profile {
        match &self.setting {
            Setting::Profile(p) => p.clone(),
            Setting::Level(_) => Profile::builtin("strong").expect("built-in strong profile"),
        }
    }

    pub fn profile(name: &str) -> Option<Player> {
        Profile::builtin(name).map(|p| Player { setting: Setting::Profile(p), avatar: Avatar::neutral() })
    }

    pub fn level(elo: i32) -> Player {
        Player { setting: Setting::Level(crate::profile::Ladder::builtin().at(elo)), avatar: Avatar::neutral() }
    }

    /// The evaluator configuration for the engine playing `us`: the setting's flags and weights
    /// times the avatar's weights (a sided avatar weighs `us`'s groups and the opponent's apart).
    pub fn eval_config(&self, us: shakmaty::Color) -> EvalConfig {
        let mut cfg = match &self.setting {
            Setting::Profile(p) => p.eval_config(),
            Setting::Level(l) => l.eval.clone(),
        };
        self.avatar.apply(&mut cfg, us);
        cfg
    }

    pub fn tablebases_allowed(&self) -> bool {
        match &self.setting {
            Setting::Profile(p) => p.knowledge.tablebases,
            Setting::Level(l) => l.tablebases,
        }
    }

    fn budget(&self) -> (Option<u64>, Option<i32>) {
        match &self.setting {
            Setting::Profile(p) => (p.search.nodes, p.search.depth),
            Setting::Level(l) => (Some(l.nodes), l.depth),
        }
    }

    fn choice(&self) -> ChoiceSettings {
        match &self.setting {
            Setting::Profile(p) => p.choice.clone(),
            Setting::Level(l) => l.choice.clone(),
        }
    }

    pub fn is_random(&self) -> bool {
        matches!(&self.setting, Setting::Profile(p) if p.is_random())
    }

    /// Full strength: no budget, exact-best choice. Such a player uses `go`'s limits, the shared
    /// searcher and the `Hash` table like any engine.
    pub fn is_full_strength(&self) -> bool {
        !self.is_random() && self.budget() == (None, None) && self.choice() == ChoiceSettings::best()
    }

    /// One line for `info string`: what is active, with version and hash of the frozen file.
    pub fn describe(&self) -> String {
        let base = match &self.setting {
            Setting::Profile(p) => p.describe(),
            Setting::Level(l) => format!("{} ({})", l.describe(), l.ladder),
        };
        if self.avatar.is_neutral() { base } else { format!("{base}; avatar {}", self.avatar.describe()) }
    }

    /// Decides the move of a `go`, for any setting: full strength searches with the shared searcher
    /// and `go`'s limits and reports every iteration to `reporter`; a weak setting decides with
    /// [`Player::decide_weak`] and reports nothing before its final line.
    pub fn play(
        &self,
        searchers: &mut Searchers,
        request: &MoveRequest,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> Decision {
        if !self.is_full_strength() {
            // Weak play is reproducible: one thread, whatever `Threads` says.
            return self.decide_weak(searchers, request, control);
        }
        let strong = &mut searchers.strong;
        let search = Request {
            limits: request.limits.clone(),
            eval: self.eval_config(request.game.pos().turn()),
            tablebases: if self.tablebases_allowed() { request.tablebases.clone() } else { None },
            move_overhead: request.move_overhead,
        };
        let r = strong.search(request.game, &search, control, reporter);
        let hashfull = strong.hashfull();
        let (score, pv) = match r.root_moves.first() {
            Some(rm) => (honest_score(request.game.pos(), rm.score, &rm.pv), rm.pv.clone()),
            None => (r.score, Vec::new()),
        };
        Decision {
            mv: r.best,
            ponder: r.ponder,
            score,
            pv,
            depth: r.depth,
            nodes: r.nodes,
            hashfull,
            kind: ChoiceKind::Best,
            regret_cp: 0,
            search: r,
        }
    }

    /// The glance of a setting with a human move prior: a shallow search of its own (every root
    /// move scored, from a cleared table, no tablebases) with the setting's evaluator.
    pub fn glance(&self, weak: &mut Searcher, game: &Game) -> Glance {
        weak.clear();
        let request =
            Request { limits: Glance::limits(), eval: self.eval_config(game.pos().turn()), ..Default::default() };
        let res = weak.search(game, &request, &Control::default(), &mut Silent);
        Glance::from_root_moves(&res.root_moves)
    }

    /// The search a weak (budgeted) setting's choice is made from: its node budget (or, drawn from
    /// the seeded `depth` stream, its occasional deeper look) from a cleared table, every root move
    /// scored when the setting chooses among them. [`Player::decide_weak`] is this plus the policy.
    pub fn search_weak(&self, weak: &mut Searcher, request: &MoveRequest, control: &Control) -> SearchResult {
        let (game, go) = (request.game, &request.limits);
        let pos = game.pos();
        let (mut nodes, mut depth) = self.budget();
        if let Setting::Level(l) = &self.setting
            && l.deep.p > 0.0
        {
            let mut rng = seed::decision_rng_for(request.match_seed, pos, tags::DEPTH);
            // The draw is made either way, so the stream is the same with or without the rule.
            let deep = seed::uniform_f64(&mut rng) < l.deep.p;
            let bare_king =
                l.human.as_ref().is_some_and(|h| h.bare_king_lambda.is_some()) && human::against_bare_king(pos);
            if deep || bare_king {
                (nodes, depth) = (Some(l.deep.nodes), None);
            }
        }
        weak.clear();
        let choice_settings = self.choice();
        let all = choice_settings != ChoiceSettings::best();
        let limits = Limits {
            nodes: min_opt(nodes, go.nodes),
            depth: min_opt(depth, go.depth),
            // Time limits of `go` stay as a safety net: a budgeted player never loses on time.
            movetime: go.movetime,
            time: go.time,
            inc: go.inc,
            movestogo: go.movestogo,
            searchmoves: go.searchmoves.clone(),
            multipv: if all { usize::MAX } else { 1 },
            min_depth: 1,
            ..Default::default()
        };
        let search = Request {
            limits,
            eval: self.eval_config(pos.turn()),
            tablebases: if self.tablebases_allowed() { request.tablebases.clone() } else { None },
            move_overhead: request.move_overhead,
        };
        weak.search(game, &search, control, &mut Silent)
    }

    /// Decides a move for a weak (budgeted or random) setting on the weak and look searchers of
    /// `searchers`; both are cleared before use so the decision depends only on the setting, the
    /// seed and the position.
    pub fn decide_weak(&self, searchers: &mut Searchers, request: &MoveRequest, control: &Control) -> Decision {
        let Searchers { weak, look, .. } = searchers;
        let (game, match_seed) = (request.game, request.match_seed);
        let pos = game.pos();
        let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
        if self.is_random() {
            let mut rng = seed::decision_rng_for(match_seed, pos, tags::RANDOM);
            let choice = (!legal.is_empty()).then(|| policy::random_choice(&legal, &mut rng));
            return Decision {
                mv: choice.as_ref().map(|c| c.mv),
                ponder: None,
                score: 0,
                pv: choice.as_ref().map(|c| vec![c.mv]).unwrap_or_default(),
                depth: 0,
                nodes: 0,
                hashfull: 0,
                kind: ChoiceKind::Random,
                regret_cp: 0,
                search: SearchResult::default(),
            };
        }
        // The glance (a shallow search of its own, from a cleared table) comes first, so the main
        // search below starts from a cleared table as before.
        let glance = match &self.setting {
            Setting::Level(l) if l.prior.is_some() => Some(self.glance(weak, game)),
            _ => None,
        };
        let result = self.search_weak(weak, request, control);
        let choice_settings = self.choice();
        if result.root_moves.is_empty() {
            return Decision {
                mv: None,
                ponder: None,
                score: result.score,
                pv: vec![],
                depth: 0,
                nodes: result.nodes,
                hashfull: 0,
                kind: ChoiceKind::Forced,
                regret_cp: 0,
                search: result,
            };
        }
        let (choice_settings, bias) = self.choice_for(look, game, &result.root_moves, glance.as_ref(), choice_settings);
        let mut rng = seed::decision_rng_for(match_seed, pos, tags::CHOICE);
        let Choice { mv, kind, regret_cp, .. } =
            policy::choose_biased(&result.root_moves, &choice_settings, bias.as_deref(), &mut rng);
        let rm = result.root_moves.iter().find(|r| r.mv == mv).expect("chosen among root moves");
        let pv = if rm.pv.first() == Some(&mv) { rm.pv.clone() } else { vec![mv] };
        Decision {
            mv: Some(mv),
            ponder: rm.pv.get(1).copied(),
            score: honest_score(pos, rm.score, &pv),
            pv,
            depth: result.depth,
            nodes: result.nodes,
            hashfull: 0,
            kind,
            regret_cp,
            search: result.clone(),
        }
    }
}

impl Player {
    /// The choice settings and the logit bonus of each root move in the Boltzmann choice (None =
    /// plain Boltzmann): the human move prior's `Σ wᵢ·fᵢ` (with a glance) plus the human move
    /// model's `beta · ln P_human(move | position, rating)`, the softmax taken over the root moves
    /// (with an avatar, `ln P_human` tilted by its style, [`human::style_tilt`], and by its leans). In a decided position ([`human::decided`]) a level with the model leaves it out and
    /// chooses with its `decided_lambda` instead: the model and its β were fitted on balanced
    /// positions only. Against a bare king a ladder may ask for a choice by value
    /// with its own λ and no slips ([`human::against_bare_king`]).
    pub fn choice_for(
        &self,
        look: &mut Searcher,
        game: &Game,
        root: &[crate::search::RootMove],
        glance: Option<&Glance>,
        mut choice: ChoiceSettings,
    ) -> (ChoiceSettings, Option<Vec<f64>>) {
        let Setting::Level(l) = &self.setting else { return (choice, None) };
        let pos = game.pos();
        let prior = match (&l.prior, glance) {
            (Some(p), Some(g)) => Some(p.bonuses(pos, root.iter().map(|r| r.mv), g)),
            _ => None,
        };
        let best = root.iter().map(|r| r.score).max().unwrap_or(0);
        let human = l.human.as_ref().filter(|h| {
            if let Some(lambda) = h.bare_king_lambda.filter(|_| human::against_bare_king(pos)) {
                choice.slip_p = 0.0;
                choice.lambda = Some(lambda);
                return false;
            }
            let decided = human::decided(best);
            if decided {
                choice.lambda = Some(h.decided_lambda);
            }
            !decided
        });
        let human = human.map(|h| {
            let moves: Vec<Move> = root.iter().map(|r| r.mv).collect();
            // The human move model v7 when the ladder names it, v6 otherwise (and as its fallback).
            let logp = l
                .maia3
                .as_ref()
                .and_then(|m| m.log_probs(game, &moves))
                .unwrap_or_else(|| h.model.game_log_probs(look, game, &moves, h.rating));
            // An avatar tilts the model towards the moves its evaluation likes more than the
            // plain one ([`human::style_tilt`]).
            let tilt =
                self.avatar.reweights().then(|| human::style_tilt(pos, &moves, &self.eval_config(pos.turn()), &l.eval));
            // A fitted avatar's leans move the model's term of each kind of move.
            let lean: Option<Vec<f64>> = self.avatar.leans().then(|| {
                let prev = game.last_move();
                moves.iter().map(|&m| self.avatar.lean_of(&crate::policy::style::classify(pos, prev, m))).collect()
            });
            logp.iter()
                .enumerate()
                .map(|(i, x)| {
                    let styled = tilt.as_ref().map_or(0.0, |t| h.avatar_tilt * t[i]);
                    h.beta * (x + styled + lean.as_ref().map_or(0.0, |l| l[i]))
                })
                .collect::<Vec<f64>>()
        });
        let bias = match (prior, human) {
            (Some(a), Some(b)) => Some(a.iter().zip(&b).map(|(x, y)| x + y).collect()),
            (a, b) => a.or(b),
        };
        (choice, bias)
    }
}

fn min_opt<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{notation, parse_fen};

    fn line(pos: &Chess, moves: &[&str]) -> Vec<Move> {
        let mut p = pos.clone();
        moves
            .iter()
            .map(|t| {
                let m = notation::parse_uci(&p, t).unwrap();
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn a_mate_is_reported_only_with_its_mating_line() {
        let pos = parse_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
        let mate1 = score::mate_in(1);
        assert_eq!(honest_score(&pos, mate1, &line(&pos, &["d1d8"])), mate1);
        // The right first move but a claim of a longer mate, or a line that does not mate.
        assert_eq!(honest_score(&pos, score::mate_in(3), &line(&pos, &["d1d8"])), score::MATE_AS_CP);
        assert_eq!(honest_score(&pos, mate1, &line(&pos, &["d1d7"])), score::MATE_AS_CP);
        assert_eq!(honest_score(&pos, mate1, &[]), score::MATE_AS_CP);
        // Being mated: the line must end with the side to move mated.
        let lost = parse_fen("6k1/8/8/8/8/8/rr6/7K w - - 0 1").unwrap();
        let mated = score::mated_in(2);
        assert_eq!(honest_score(&lost, mated, &line(&lost, &["h1g1", "b2b1"])), mated);
        assert_eq!(honest_score(&lost, mated, &line(&lost, &["h1g1"])), -score::MATE_AS_CP);
        // Ordinary scores pass unchanged.
        assert_eq!(honest_score(&pos, 123, &[]), 123);
    }
}

//! The player: turns a strength setting into a move. A setting is a frozen profile or a point of the
//! `UCI_Elo` ladder, plus an avatar. The full-strength setting searches with the shared searcher and
//! `go`'s limits; every weaker one searches from a clean, fixed-size table with its node budget,
//! scores every root move, and lets the seeded policy choose (SPEC 3–6).

use crate::board::Game;
use crate::eval::EvalConfig;
use crate::policy::prior::Glance;
use crate::policy::{self, Choice, ChoiceKind, ChoiceSettings};
use crate::profile::seed::{self, tags};
use crate::profile::{Avatar, LevelSettings, Profile};
use crate::search::{Control, Limits, Reporter, SearchResult, Searcher, Silent};
use crate::tablebase::Tablebases;
use shakmaty::{Move, Position};
use std::sync::Arc;

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

/// The move a player decided on, with what the engine should report.
#[derive(Clone, Debug)]
pub struct Decision {
    pub mv: Option<Move>,
    pub ponder: Option<Move>,
    /// Score (side to move) of the move played, PV starting with it.
    pub score: i32,
    pub pv: Vec<Move>,
    pub depth: i32,
    pub nodes: u64,
    pub kind: ChoiceKind,
    pub regret_cp: i32,
    pub search: SearchResult,
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

    /// The evaluator configuration: the setting's flags and weights times the avatar's weights.
    pub fn eval_config(&self) -> EvalConfig {
        let mut cfg = match &self.setting {
            Setting::Profile(p) => p.eval_config(),
            Setting::Level(l) => l.eval.clone(),
        };
        self.avatar.apply(&mut cfg);
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

    /// The search generation of the budgeted searches (the one the setting was calibrated on).
    pub fn generation(&self) -> crate::search::Generation {
        match &self.setting {
            Setting::Profile(p) => p.generation(),
            Setting::Level(l) => l.generation,
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
            Setting::Level(l) => {
                let ladder = crate::profile::Ladder::builtin();
                format!("{} (ladder v{} {})", l.describe(), ladder.version, &ladder.hash_hex()[..16])
            }
        };
        if self.avatar.is_neutral() { base } else { format!("{base}; avatar {}", self.avatar.describe()) }
    }

    /// The search a weak (budgeted) setting's choice is made from: its node budget (or, drawn from
    /// the seeded `depth` stream, its occasional deeper look) from a cleared table, every root move
    /// scored when the setting chooses among them. [`Player::decide_weak`] is this plus the policy.
    pub fn search_weak(
        &self,
        weak: &mut Searcher,
        tablebases: Option<Arc<Tablebases>>,
        game: &Game,
        go: &Limits,
        match_seed: u64,
        control: &Control,
    ) -> SearchResult {
        let pos = game.pos();
        let (mut nodes, mut depth) = self.budget();
        if let Setting::Level(l) = &self.setting
            && l.deep.p > 0.0
        {
            let mut rng = seed::decision_rng_for(match_seed, pos, tags::DEPTH);
            if seed::uniform_f64(&mut rng) < l.deep.p {
                (nodes, depth) = (Some(l.deep.nodes), None);
            }
        }
        weak.clear();
        weak.eval = self.eval_config();
        weak.tablebases = if self.tablebases_allowed() { tablebases } else { None };
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
            generation: self.generation(),
            ..Default::default()
        };
        weak.search(game, &limits, control, &mut Silent as &mut dyn Reporter)
    }

    /// Decides a move for a weak (budgeted or random) setting. `weak` is the dedicated searcher;
    /// it is cleared first so the decision depends only on the setting, the seed and the position.
    pub fn decide_weak(
        &self,
        weak: &mut Searcher,
        tablebases: Option<Arc<Tablebases>>,
        game: &Game,
        go: &Limits,
        match_seed: u64,
        control: &Control,
    ) -> Decision {
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
                kind: ChoiceKind::Random,
                regret_cp: 0,
                search: SearchResult::default(),
            };
        }
        // The glance (a shallow search of its own, from a cleared table) comes first, so the main
        // search below starts from a cleared table as before.
        let glance = match &self.setting {
            Setting::Level(l) if l.prior.is_some() => {
                Some(Glance::take(weak, game, &self.eval_config(), self.generation()))
            }
            _ => None,
        };
        let result = self.search_weak(weak, tablebases, game, go, match_seed, control);
        let choice_settings = self.choice();
        if result.root_moves.is_empty() {
            return Decision {
                mv: None,
                ponder: None,
                score: result.score,
                pv: vec![],
                depth: 0,
                nodes: result.nodes,
                kind: ChoiceKind::Forced,
                regret_cp: 0,
                search: result,
            };
        }
        let bias = match (&self.setting, &glance) {
            (Setting::Level(l), Some(g)) => {
                l.prior.as_ref().map(|p| p.bonuses(pos, result.root_moves.iter().map(|r| r.mv), g))
            }
            _ => None,
        };
        let mut rng = seed::decision_rng_for(match_seed, pos, tags::CHOICE);
        let Choice { mv, kind, regret_cp, .. } =
            policy::choose_biased(&result.root_moves, &choice_settings, bias.as_deref(), &mut rng);
        let rm = result.root_moves.iter().find(|r| r.mv == mv).expect("chosen among root moves");
        Decision {
            mv: Some(mv),
            ponder: rm.pv.get(1).copied(),
            score: rm.score,
            pv: rm.pv.clone(),
            depth: result.depth,
            nodes: result.nodes,
            kind,
            regret_cp,
            search: result.clone(),
        }
    }
}

fn min_opt<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

//! UCI front end: reads commands, keeps the game state and options, runs the search on its own
//! thread and prints through `fmt`. Bad input never panics and never changes the state: it gets an
//! `info string` and the previous state stays.

pub mod fmt;
mod go;
pub mod human_time;
pub mod opponent;
pub mod options;

use crate::board::{Game, perft};
use crate::player::{MoveRequest, Player, Searchers, Setting};
use crate::profile::{Avatar, Ladder, Profile};
use crate::search::{Control, Info, Reporter};
use crate::seed::fresh_match_seed;
use crate::tablebase::Tablebases;
use options::{Opt, Value};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use vampirc_uci::UciMessage;

pub const ENGINE_NAME: &str = concat!("sparring ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the sparring developers";

/// Where the engine writes; shared with the search thread. One line per call, flushed.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    pub fn stdout() -> Out {
        Out(Arc::new(Mutex::new(Box::new(std::io::stdout()))))
    }
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }
    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed pipe must not kill the engine; the GUI is gone anyway.
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
    pub fn info_string(&self, s: &str) {
        for l in fmt::info_string(s) {
            self.line(&l);
        }
    }
}

struct UciReporter(Out);
impl Reporter for UciReporter {
    fn info(&mut self, i: &Info) {
        self.0.line(&fmt::info(i));
    }
}

struct Job {
    control: Arc<Control>,
    /// Set by `ponderhit`: a `Human Time` wait ends at once.
    hurry: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine as a UCI state machine.
pub struct Engine {
    out: Out,
    game: Game,
    /// The last `position` command's start and moves (for `d`).
    root_fen: String,
    /// The strong and the weak searcher; locked by the search thread while it decides.
    searchers: Arc<Mutex<Searchers>>,
    job: Option<Job>,
    options: Vec<Opt>,
    multipv: usize,
    /// Search threads for full-strength play (`Threads`).
    threads: usize,
    move_overhead: Duration,
    tb_probe_limit: usize,
    /// The loaded tables (handed to each move request), readable while a search runs.
    tablebases: Option<Arc<Tablebases>>,
    debug: bool,
    /// Strength state (SPEC 3-6).
    strength: Strength,
    /// `Human Time` and its model.
    human_time: human_time::HumanTimeState,
    /// The position before the last move of the `position` command (the time model's swing).
    prev_game: Option<Game>,
    /// `UCI_Opponent` as last set ([`opponent`]).
    opponent: Option<opponent::Opponent>,
    /// The last `position` command's start and moves (the human move model v7's history).
    line: (Chess, Vec<Move>),
}

/// The strength options as set, and the seed of the current game.
struct Strength {
    profile: String,
    limit_strength: bool,
    elo: i32,
    skill: i32,
    seed_option: u64,
    game_seed: u64,
    avatar: Avatar,
    avatar_file: String,
    /// A human move model loaded with `Human Model File` in place of the built-in one (None =
    /// built-in).
    human_model: Option<Arc<crate::human::v6::HumanModel>>,
    /// A ladder loaded with `Ladder File` in place of the built-in one (None = built-in).
    ladder: Option<Arc<Ladder>>,
    /// A strength option changed since the setting was last reported: GUIs send several
    /// (`UCI_LimitStrength` before `UCI_Elo`), so the setting is reported once they have settled,
    /// at the next `isready` or `go`.
    changed: bool,
    /// `UCI_Elo` was set while `UCI_LimitStrength` is off: said once, at the next `isready` or `go`,
    /// unless `UCI_LimitStrength` is switched on first.
    elo_without_limit: bool,
    /// The current game's seed has been reported (`info string seed N`).
    seed_reported: bool,
}

impl Strength {
    /// The ladder in use (`Ladder File`'s, else the built-in one).
    fn ladder(&self) -> Ladder {
        self.ladder.as_deref().cloned().unwrap_or_else(Ladder::builtin)
    }

    fn player(&self) -> Player {
        let ladder = self.ladder();
        let with_model = |mut l: crate::profile::LevelSettings| {
            if let (Some(h), Some(m)) = (&mut l.human, &self.human_model) {
                // The loaded file chooses, in place of the ladder's model (v7's Maia-3 included).
                h.model = m.clone();
                l.maia3 = None;
            }
            Setting::Level(l)
        };
        let setting = if self.limit_strength {
            with_model(ladder.at(self.elo))
        } else if self.skill < SKILL_MAX {
            with_model(ladder.at(ladder.elo_for_skill(self.skill)))
        } else {
            Setting::Profile(Profile::builtin(&self.profile).unwrap_or_else(|| Player::strong().profile_owned()))
        };
        Player { setting, avatar: self.avatar.clone() }
    }
}

/// `Skill Level` at this value means "off" (the `Profile` option decides).
const SKILL_MAX: i32 = 20;

/// What the loop should do after a command.
#[derive(PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

impl Engine {
    pub fn new(out: Out) -> Engine {
        Engine {
            out,
            game: Game::new(Chess::default()),
            root_fen: crate::board::notation::fen(&Chess::default()),
            searchers: Arc::new(Mutex::new(Searchers::new(16))),
            job: None,
            options: options::all_options(),
            multipv: 1,
            threads: 1,
            move_overhead: Duration::from_millis(30),
            tb_probe_limit: 7,
            tablebases: None,
            debug: false,
            strength: Strength {
                profile: "strong".into(),
                limit_strength: false,
                elo: Ladder::builtin().range().1,
                skill: SKILL_MAX,
                seed_option: 0,
                game_seed: fresh_match_seed(),
                avatar: Avatar::neutral(),
                avatar_file: String::new(),
                human_model: None,
                ladder: None,
                changed: false,
                elo_without_limit: false,
                seed_reported: false,
            },
            human_time: human_time::HumanTimeState::new(),
            prev_game: None,
            opponent: None,
            line: (Chess::default(), Vec::new()),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The opponent as set by `UCI_Opponent` (None: not set, or forgotten).
    pub fn opponent(&self) -> Option<&opponent::Opponent> {
        self.opponent.as_ref()
    }

    /// The human move model v7's view of the current game: the last 8 positions of the
    /// `position` command's line (a FEN alone is its own history).
    pub fn model_history(&self) -> crate::human::maia3::History {
        crate::human::maia3::History::game(&self.line.0, &self.line.1)
            .unwrap_or_else(|_| crate::human::maia3::History::position(self.game.pos().clone()))
    }

    fn searchers(&self) -> std::sync::MutexGuard<'_, Searchers> {
        self.searchers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        if line.is_empty() {
            return Flow::Continue;
        }
        let mut tokens = line.split_whitespace();
        let cmd = tokens.next().unwrap_or("");
        let rest: Vec<&str> = tokens.collect();
        match cmd {
            // Commands vampirc-uci does not model, or models lossily (see ARCHITECTURE.md).
            "go" => self.go(&rest),
            "position" => self.position(&rest),
            "d" => self.display(),
            "eval" => self.eval(),
            "bench" => {
                self.stop_search();
                let depth = rest.first().and_then(|d| d.parse().ok()).unwrap_or(crate::search::bench::DEFAULT_DEPTH);
                let r = crate::search::bench::run(depth, |l| self.out.line(l));
                self.out.line(&fmt::bench_total(r.nodes, r.nps));
            }
            "quit" => {
                self.stop_search();
                return Flow::Quit;
            }
            "stop" => self.stop_search(),
            "ponderhit" => {
                if let Some(job) = &self.job {
                    job.control.pondering.store(false, Ordering::SeqCst);
                    job.hurry.store(true, Ordering::SeqCst);
                }
            }
            "isready" => {
                self.report_strength_if_changed();
                self.out.line(fmt::READYOK);
            }
            _ => self.standard(line),
        }
        Flow::Continue
    }

    /// The rest of the protocol through vampirc-uci.
    fn standard(&mut self, line: &str) {
        let msg = std::panic::catch_unwind(|| vampirc_uci::parse_one(line));
        match msg {
            Ok(UciMessage::Uci) => {
                for l in fmt::id(ENGINE_NAME, ENGINE_AUTHOR) {
                    self.out.line(&l);
                }
                for o in &self.options {
                    self.out.line(&fmt::option(o));
                }
                self.out.line(fmt::UCIOK);
            }
            Ok(UciMessage::Debug(on)) => self.debug = on,
            Ok(UciMessage::UciNewGame) => {
                self.stop_search();
                self.searchers().strong.clear();
                self.game = Game::new(Chess::default());
                self.new_game_seed();
            }
            Ok(UciMessage::SetOption { name, value }) => self.set_option(&name, value.as_deref()),
            Ok(UciMessage::Register { .. }) => {}
            _ => {
                let shown: String = line.chars().take(80).collect();
                let more = if line.chars().count() > 80 { "..." } else { "" };
                self.out.info_string(&format!("unknown command '{shown}{more}' ignored"));
            }
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let Some(opt) = self.options.iter().find(|o| o.name.eq_ignore_ascii_case(name.trim())).cloned() else {
            self.out.info_string(&format!("unknown option '{}' ignored", name.trim()));
            return;
        };
        let v = match opt.parse(value) {
            Ok(v) => v,
            Err(e) => {
                self.out.info_string(&format!("{e}; value unchanged"));
                return;
            }
        };
        // Options that touch the search state wait for a running search to end.
        self.stop_search();
        match (opt.name, v) {
            ("Hash", Value::Int(mb)) => self.searchers().strong.resize_hash(mb as usize),
            ("Clear Hash", _) => self.searchers().strong.clear(),
            ("MultiPV", Value::Int(n)) => self.multipv = n as usize,
            ("Threads", Value::Int(n)) => self.threads = n as usize,
            ("Move Overhead", Value::Int(ms)) => self.move_overhead = Duration::from_millis(ms as u64),
            ("Ponder", Value::Bool(_)) => {}
            ("SyzygyPath", Value::Str(path)) => self.set_syzygy_path(&path),
            ("Profile", Value::Str(p)) => {
                self.strength.profile = p.to_ascii_lowercase();
                self.strength.changed = true;
            }
            ("UCI_LimitStrength", Value::Bool(on)) => {
                self.strength.limit_strength = on;
                self.strength.changed = true;
            }
            ("UCI_Elo", Value::Int(elo)) => {
                self.strength.elo = elo as i32;
                self.strength.changed |= self.strength.limit_strength;
                self.strength.elo_without_limit = !self.strength.limit_strength;
            }
            ("Skill Level", Value::Int(level)) => {
                self.strength.skill = level as i32;
                self.strength.changed = true;
            }
            ("Seed", Value::Int(seed)) => {
                self.strength.seed_option = seed as u64;
                self.new_game_seed();
            }
            ("Avatar File", Value::Str(path)) => self.set_avatar(&path),
            ("Human Model File", Value::Str(path)) => self.set_human_model(&path),
            ("Ladder File", Value::Str(path)) => self.set_ladder(&path),
            ("Human Time", Value::Bool(on)) => self.set_human_time(on),
            ("Human Time File", Value::Str(path)) => self.set_human_time_file(&path),
            ("UCI_Opponent", Value::Str(text)) => match opponent::parse(&text) {
                Ok(o) => self.opponent = o,
                Err(e) => self.out.info_string(&format!("{e}; opponent unchanged")),
            },
            ("SyzygyProbeLimit", Value::Int(n)) => {
                self.tb_probe_limit = n as usize;
                if let Some(tb) = &self.tablebases {
                    tb.set_probe_limit(n as usize);
                }
            }
            (n, v) => self.out.info_string(&format!("option '{n}' = {v:?} not applied")),
        }
        if self.debug {
            self.out.info_string(&format!("option '{}' set", opt.name));
        }
    }

    /// The match seed of the game that starts now: the `Seed` option, or a fresh one when it is 0.
    fn new_game_seed(&mut self) {
        self.strength.game_seed =
            if self.strength.seed_option == 0 { fresh_match_seed() } else { self.strength.seed_option };
        self.strength.seed_reported = false;
        self.report_seed_if_weak();
    }

    /// Reports the game's seed once per game, as soon as a weak setting plays with it.
    fn report_seed_if_weak(&mut self) {
        if !self.strength.seed_reported && !self.strength.player().is_full_strength() {
            self.out.info_string(&fmt::seed(self.strength.game_seed));
            self.strength.seed_reported = true;
        }
    }

    /// Reports the setting once its options have settled (see `Strength::changed`).
    fn report_strength_if_changed(&mut self) {
        if std::mem::take(&mut self.strength.elo_without_limit) && !self.strength.limit_strength {
            self.out.info_string("UCI_Elo takes effect with UCI_LimitStrength");
        }
        if self.strength.changed {
            self.strength.changed = false;
            self.out.info_string(&self.strength.player().describe());
        }
    }

    /// Loads an avatar; a bad file is rejected whole and the previous weights stay.
    fn set_avatar(&mut self, path: &str) {
        if path.trim().is_empty() {
            self.strength.avatar = Avatar::neutral();
            self.strength.avatar_file.clear();
            self.strength.changed = true;
            self.out.info_string("Avatar File: cleared; all weights 100 %");
            return;
        }
        match Avatar::load(path.trim()) {
            Ok(a) => {
                self.strength.avatar = a;
                self.strength.avatar_file = path.trim().to_string();
                self.strength.changed = true;
                self.out.info_string(&format!(
                    "Avatar File: loaded {}: {}",
                    path.trim(),
                    self.strength.avatar.describe()
                ));
            }
            Err(e) => self.out.info_string(&format!("Avatar File rejected: {e}; previous weights kept")),
        }
    }

    /// Loads a human move model file in place of the built-in one; a file that cannot be read or
    /// is not a valid model is refused with the reason and the model in use stays (the built-in
    /// one unless another was loaded). Empty = the built-in model.
    fn set_human_model(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() {
            self.strength.human_model = None;
            self.strength.changed = true;
            self.out.info_string("Human Model File: cleared; the built-in human model is used");
            return;
        }
        match crate::profile::human_model::load(std::path::Path::new(path)) {
            Ok(m) => {
                self.out.info_string(&format!(
                    "Human Model File: loaded {path}: {}; it replaces the ladder's human move model",
                    m.describe()
                ));
                self.strength.human_model = Some(m);
                self.strength.changed = true;
            }
            Err(e) => {
                let kept =
                    self.strength.human_model.as_ref().map_or("the built-in model".to_string(), |m| m.describe());
                self.out.info_string(&format!("Human Model File rejected: {e}; {kept} stays in use"));
            }
        }
    }

    /// Loads a ladder file in place of the built-in one (for recalibration: `sparring humanlike
    /// model fit` plays candidate ladders against each other this way); a file that cannot be read
    /// or is not a valid ladder is refused with the reason and the ladder in use stays. Empty = the
    /// built-in ladder.
    fn set_ladder(&mut self, path: &str) {
        let path = path.trim();
        if path.is_empty() {
            self.strength.ladder = None;
            self.strength.changed = true;
            self.out.info_string("Ladder File: cleared; the built-in ladder is used");
            return;
        }
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| Ladder::parse(&text).map_err(|e| e.to_string()));
        match loaded {
            Ok(l) => {
                self.out.info_string(&format!("Ladder File: loaded {path}: {}", l.tag()));
                self.strength.ladder = Some(Arc::new(l));
                self.strength.changed = true;
            }
            Err(e) => {
                let kept = self.strength.ladder.as_ref().map_or_else(|| Ladder::builtin().tag(), |l| l.tag());
                // One line: a TOML error spans several.
                let e = e.split_whitespace().collect::<Vec<_>>().join(" ");
                self.out.info_string(&format!("Ladder File rejected: {path}: {e}; {kept} stays in use"));
            }
        }
    }

    /// `Human Time` on or off. It plays only with a usable model: on without one says why, and
    /// the option stays in effect off until a valid `Human Time File` is set or the path cleared.
    fn set_human_time(&mut self, on: bool) {
        self.human_time.on = on;
        if on {
            match &self.human_time.model {
                Ok(m) => self.out.info_string(&fmt::human_time_on(&m.tag(), &m.description)),
                Err(e) => self.out.info_string(&fmt::human_time_unavailable(e)),
            }
        }
    }

    /// Loads a time model file in place of the built-in one (empty = the built-in model). A file
    /// that cannot be read or is not a valid model is refused with the reason, and `Human Time`
    /// falls back to off until a valid file is set or the path is cleared.
    fn set_human_time_file(&mut self, path: &str) {
        let path = path.trim();
        let loaded = if path.is_empty() {
            crate::human_time::builtin()
        } else {
            crate::human_time::load(std::path::Path::new(path))
        };
        match &loaded {
            Ok(m) => self.out.info_string(&fmt::human_time_file_loaded(path, &m.tag())),
            Err(e) => self.out.info_string(&fmt::human_time_file_rejected(e)),
        }
        self.human_time.model = loaded;
    }

    /// Loads Syzygy tables; problems are reported and the good folders are still used.
    fn set_syzygy_path(&mut self, spec: &str) {
        let mut tb = Tablebases::new();
        match tb.set_path(spec) {
            Ok(report) => {
                for m in &report.messages {
                    self.out.info_string(m);
                }
                if tb.is_loaded() {
                    tb.set_probe_limit(self.tb_probe_limit);
                    self.out.info_string(&report.summary());
                    let tb = Arc::new(tb);
                    self.tablebases = Some(tb);
                } else {
                    self.tablebases = None;
                    if !spec.trim().is_empty() {
                        self.out.info_string("SyzygyPath: no tables loaded; playing without tablebases");
                    }
                }
            }
            Err(e) => {
                self.out.info_string(&e);
                self.tablebases = None;
            }
        }
    }

    fn position(&mut self, args: &[&str]) {
        match parse_position(args) {
            Ok((root, fen, moves)) => {
                self.prev_game = moves.split_last().map(|(_, before)| Game::with_moves(root.clone(), before));
                self.game = Game::with_moves(root.clone(), &moves);
                self.root_fen = fen;
                self.line = (root, moves);
            }
            Err(e) => self.out.info_string(&format!("{e}; position unchanged")),
        }
    }

    fn display(&self) {
        // Never lock the searchers here: a running search holds them (fuzzing found `go` + `d` hanging).
        let tb_line = match &self.tablebases {
            Some(tb) => tb.describe(self.game.pos()),
            None => "Tablebase: none loaded (set SyzygyPath)".to_string(),
        };
        for l in fmt::board(&self.game, &self.root_fen, &tb_line) {
            self.out.line(&l);
        }
    }

    fn eval(&self) {
        let player = self.strength.player();
        // As the engine would evaluate it if it moved now (a sided avatar takes the side to move).
        let cfg = player.eval_config(self.game.pos().turn());
        self.out.line(&crate::eval::trace(self.game.pos(), &cfg).to_string());
    }

    fn go(&mut self, args: &[&str]) {
        let cmd = go::parse(args, self.game.pos());
        for w in &cmd.warnings {
            self.out.info_string(w);
        }
        self.stop_search();
        if let Some(depth) = cmd.perft {
            let mut g = self.game.clone();
            let t = std::time::Instant::now();
            let div = perft::divide(&mut g, depth.max(1));
            for l in fmt::perft(&div, t.elapsed()) {
                self.out.line(&l);
            }
            return;
        }
        self.report_strength_if_changed();
        self.report_seed_if_weak();
        let mut limits = cmd.limits;
        limits.multipv = self.multipv;
        limits.threads = self.threads;
        let control = Control::new();
        control.pondering.store(cmd.ponder, Ordering::SeqCst);
        let waits = limits.infinite;
        let game = self.game.clone();
        let out = self.out.clone();
        let searchers = Arc::clone(&self.searchers);
        let ctl = Arc::clone(&control);
        let mut player = self.strength.player();
        // The human move model v7 sees the game's history and a known opponent rating (on the
        // model's scale through the ladder's map).
        if let Setting::Level(l) = &mut player.setting
            && !crate::profile::maia3_choice::clock_allows(limits.time, limits.inc, limits.movetime)
        {
            // Time trouble: the fast model v6 chooses ([`crate::profile::maia3_choice::SHORT_CLOCK`]).
            l.maia3 = None;
        }
        if let Setting::Level(l) = &mut player.setting
            && let Some(m) = &mut l.maia3
        {
            m.history = Some(Arc::new(self.model_history()));
            if let Some(r) = self.opponent.as_ref().and_then(|o| o.rating()) {
                m.oppo_elo = self.strength.ladder().model_rating(f64::from(r));
            }
        }
        let match_seed = self.strength.game_seed;
        let tablebases = self.tablebases.clone();
        let move_overhead = self.move_overhead;
        let wait = human_time::Wait::for_go(
            self.human_time.active(),
            &player,
            &limits,
            cmd.ponder,
            move_overhead,
            self.prev_game.clone(),
        );
        let hurry = Arc::new(AtomicBool::new(false));
        let debug = self.debug;
        let hurried = Arc::clone(&hurry);
        let handle = std::thread::Builder::new().name("search".into()).stack_size(64 * 1024 * 1024).spawn(move || {
            let start = std::time::Instant::now();
            let request = MoveRequest { game: &game, limits, match_seed, tablebases, move_overhead };
            let mut decision = {
                let mut searchers = searchers.lock().unwrap_or_else(|e| e.into_inner());
                player.play(&mut searchers, &request, &ctl, &mut UciReporter(out.clone()))
            };
            // `Human Time`: the move is chosen; now take as long as a person would.
            if let Some(w) = wait.filter(|_| decision.mv.is_some()) {
                let planned = {
                    let mut searchers = searchers.lock().unwrap_or_else(|e| e.into_inner());
                    w.planned(&mut searchers.look, &game, match_seed)
                };
                if debug {
                    out.info_string(&fmt::human_time_planned(planned));
                }
                human_time::wait_until(start, planned, &ctl, &hurried);
                decision.search.time = start.elapsed();
            }
            // The last `info` line's PV starts with the move played.
            if let Some(info) = decision.info() {
                out.line(&fmt::info(&info));
            }
            // `go infinite` and `go ponder` must not answer before `stop` / `ponderhit`.
            loop {
                if ctl.stopped() || (!waits && !ctl.pondering.load(Ordering::SeqCst)) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            out.line(&fmt::bestmove(decision.mv, decision.ponder));
        });
        match handle {
            Ok(handle) => self.job = Some(Job { control, hurry, handle }),
            Err(e) => {
                self.out.info_string(&format!("cannot start the search thread: {e}"));
                self.out.line(&fmt::bestmove(None, None));
            }
        }
    }

    /// Stops a running search (it prints its `bestmove`) and waits for it.
    pub fn stop_search(&mut self) {
        if let Some(job) = self.job.take() {
            job.control.pondering.store(false, Ordering::SeqCst);
            job.control.stop();
            if job.handle.join().is_err() {
                self.out.info_string("the search thread failed; state kept");
                self.out.line(&fmt::bestmove(None, None));
            }
        }
    }

    /// True while a search thread is running or waiting for `stop`.
    pub fn searching(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// Parses the arguments of `position` into a legal root position and legal moves.
pub fn parse_position(args: &[&str]) -> Result<(Chess, String, Vec<Move>), String> {
    let (root, fen_text, rest): (Chess, String, &[&str]) = match args.first() {
        Some(&"startpos") => {
            let c = Chess::default();
            let f = crate::board::notation::fen(&c);
            (c, f, &args[1..])
        }
        Some(&"fen") => {
            let end = args.iter().position(|&t| t == "moves").unwrap_or(args.len());
            let text = args[1..end].join(" ");
            if text.is_empty() {
                return Err("position fen: missing FEN".into());
            }
            let c = crate::board::parse_fen(&text)?;
            (c, text, &args[end..])
        }
        Some(other) => {
            return Err(format!("position: expected 'startpos' or 'fen', got '{other}'"));
        }
        None => return Err("position: missing 'startpos' or 'fen'".into()),
    };
    let mut moves = Vec::new();
    match rest.first() {
        None => {}
        Some(&"moves") => {
            let mut pos = root.clone();
            for (i, tok) in rest[1..].iter().enumerate() {
                let um: UciMove = tok.parse().map_err(|_| format!("move {} '{tok}' is not a UCI move", i + 1))?;
                let m = um.to_move(&pos).map_err(|_| {
                    format!("move {} '{tok}' is illegal in {}", i + 1, crate::board::notation::fen(&pos))
                })?;
                pos.play_unchecked(m);
                moves.push(m);
            }
        }
        Some(other) => return Err(format!("position: expected 'moves', got '{other}'")),
    }
    Ok((root, fen_text, moves))
}

/// Runs the UCI loop on stdin/stdout until `quit` or end of input.
pub fn run_stdio() -> ExitCode {
    let mut engine = Engine::new(Out::stdout());
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf);
                if engine.handle(&line) == Flow::Quit {
                    break;
                }
            }
            Err(e) => {
                engine.out.info_string(&format!("cannot read input: {e}"));
                break;
            }
        }
    }
    engine.stop_search();
    ExitCode::SUCCESS
}

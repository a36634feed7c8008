//! The `sparring match` command line: cutechess-cli/fastchess-style single-dash options with
//! `key=value` groups, parsed by hand.

use super::adjudicate::{DrawRule, ResignRule};
use super::engine::{EngineConfig, TimeControl};
use super::openings::BookFormat;
use super::sprt::{Sprt, SprtModel};
use super::{MatchConfig, OpeningOrder, OpeningsConfig, ProgressMode};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The manual printed by `sparring match --help`.
pub const HELP: &str = "\
sparring match — play matches between two UCI engines

USAGE
  sparring match -engine cmd=CMD [KEY=VALUE...] -engine cmd=CMD [KEY=VALUE...]
                 [-each KEY=VALUE...] [OPTIONS]

  Options follow cutechess-cli and fastchess: single dash, and groups of KEY=VALUE
  words after -engine, -each, -openings, -draw, -resign and -sprt. Quote values that
  contain spaces (args=\"--threads 1 --hash 16\").

ENGINES
  -engine KEY=VALUE...   One engine (give exactly two). Keys:
      cmd=PATH             program to run (required)
      name=NAME            name in the PGN and reports (default: cmd's file name)
      dir=DIR              working directory
      args=\"A B ...\"       command-line arguments (split on spaces; quotes group)
      arg=A                one argument (repeatable)
      option.NAME=VALUE    send 'setoption name NAME value VALUE' after 'uciok'
      tc=[MOVES/]TIME[+INC]  clock: TIME in seconds (or MIN:SEC), INC per move;
                           MOVES per period (40/60+0.6: 40 moves in 60 s, +0.6 s
                           per move); tc=inf: no clock
      st=SECONDS           fixed time per move ('go movetime')
      nodes=N              node limit per move ('go nodes')
      depth=N              depth limit per move ('go depth')
      timemargin=MS        milliseconds an engine may exceed its clock before it
                           forfeits (default 0)
      starttimeout=SECONDS wait this long for 'uciok' and each 'readyok' (default 10)
      hangtimeout=SECONDS  an engine that stays silent this long past its time (or
                           this long in all, when it has no clock) is declared hung,
                           killed and restarted (default 10)
      proto=uci            accepted for compatibility; only UCI is supported
      restart=off|auto     accepted: engines are restarted only after a crash or
                           hang (restart=on is refused, as are ponder and stderr=)
      whitepov             accepted and ignored (UCI scores are the mover's)
  -each KEY=VALUE...     Keys applied to both engines (an -engine key wins).
                         Each engine needs a limit: tc=, st=, nodes= or depth=.

SCHEDULE
  -games N               games per round (default 1)
  -rounds N              rounds (default 1); the match is games x rounds games
  -repeat                play each opening twice with colours reversed; the two
                         games form a pair, scored as a pentanomial pair
  -concurrency N         games played at the same time (default 1); results are counted in
                         game order, so an SPRT stops after the same games at any N
  -srand N               seed for the opening order and the per-game engine seeds
                         (default: random, printed at the end)
  -event NAME            PGN Event tag (default \"sparring match\")

  Engine 1 plays White in even-numbered games (counting from 0). Every game index g
  has a seed derived from -srand and g only (blake3); it is sent as
  'setoption name Seed value S' to each engine that declares a 'Seed' option, so a
  game index gets the same seed whoever plays it. The two games of a -repeat pair are
  different indices and get different seeds. The PGN records each game's seed.

OPENINGS
  -openings KEY=VALUE...
      file=PATH            book file; without it, a built-in set of 58 named,
                           balanced opening lines (ECO + moves) is used
      format=epd|pgn       book format (default: from the file extension)
      order=sequential|random  (default sequential; random is seeded by -srand)
      plies=N              use at most N plies of each PGN line
      start=N              begin with the N-th opening (1-based)
      policy=default       each game (each pair with -repeat) takes the next
                           opening; policy=encounter and policy=round are refused

ADJUDICATION
  -draw movenumber=N movecount=M score=S
                         draw when, after move N, both engines report scores
                         within S centipawns of 0 for M consecutive moves each
  -resign movecount=M score=S [twosided=true]
                         an engine whose score is -S or worse for M consecutive
                         moves loses; twosided: the winner must also report +S
  -maxmoves N            draw after N full moves (book moves included)
  -tb PATHS              Syzygy tablebase directories (':'-separated): positions
                         in the tables end the game with their WDL result (cursed
                         wins and blessed losses count as draws)
  -tbpieces N            probe only positions with at most N pieces

  The rules always apply: checkmate, stalemate, threefold repetition, the 50-move
  rule and insufficient material.

FAULTS
  An illegal move, a time forfeit (more than timemargin over the clock), a crash, a
  hang and a failed start each lose the game for that engine; the reason goes into
  the PGN (Termination tag: 'illegal move', 'time forfeit', 'abandoned', 'stalled
  connection'; details in the closing comment) and the summary. Hung engines are
  killed and restarted for the next game and the match goes on. A crash or failed
  start stops the match after that game unless -recover is given.
  -recover               restart crashed engines and keep playing
  Ctrl-C stops the match: finished games are already in the PGN, the report and
  JSON summary are written; unfinished games are dropped. A second Ctrl-C exits.

OUTPUT
  -pgnout FILE [min]     append games as PGN (also: -pgnout file=FILE); per-move
                         comments {score/depth time}, scores in pawns from the
                         mover's view; FEN/SetUp for book positions, TimeControl,
                         Termination, PlyCount and Seed tags; with min, only the
                         seven roster tags (and FEN/SetUp), moves and result
  -epdout FILE           append each game's final position as FEN
  -jsonout FILE          write the summary as JSON when the match ends
  -ratinginterval N      print the rating block every N games (default 10; 0: off)
  -progress auto|lines|quiet   progress bar on a terminal, else one line per game
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=logistic|normalized]
                         sequential probability ratio test; the match stops when
                         it accepts H0 or H1. The LLR uses pentanomial pairs with
                         -repeat, single games otherwise; it is fastchess's
                         (generalized LLR, an unseen outcome counted as 0.001).
                         No decision comes before two different outcomes (pair
                         results with -repeat) have been seen: until then the
                         variance is not defined and the LLR is only shown.

REPORT
  W/D/L, score, logistic Elo with 95 % interval (cutechess formula: score variance
  over games), normalized Elo (nElo), LOS, draw ratio, results by colour, pentanomial
  counts Ptnml(0-2) [LL, LD, DD+WL, WD, WW] and their Elo (with -repeat), SPRT LLR
  with bounds and decision, counts by termination, faults per engine.

EXIT STATUS
  0  the match finished (every game, or stopped by an SPRT decision)
  1  it could not run (a book or output file that cannot be read or written)
  2  bad command line
  3  stopped early for a fault: an engine crashed or failed to start (no -recover)
  130  stopped by Ctrl-C

EXAMPLES
  sparring match -engine cmd=./new name=new -engine cmd=./old name=old \\
      -each tc=10+0.1 -games 2 -rounds 500 -repeat -concurrency 2 \\
      -openings file=8moves_v3.pgn order=random -sprt elo0=0 elo1=5 -pgnout out.pgn
  sparring match -engine cmd=sparring name=club option.UCI_LimitStrength=true \\
      option.UCI_Elo=1500 -engine cmd=stockfish -each nodes=20000 -games 20 -repeat
";

fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for ch in s.chars() {
        match (quote, ch) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(ch);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || any {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || any {
        out.push(cur);
    }
    out
}

fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("bad value for {key}: '{v}'"))
}

fn secs(key: &str, v: &str) -> Result<Duration, String> {
    let x: f64 = num(key, v)?;
    if !(x >= 0.0 && x.is_finite()) {
        return Err(format!("bad value for {key}: '{v}'"));
    }
    Ok(Duration::from_secs_f64(x))
}

fn kv(tok: &str) -> Result<(&str, &str), String> {
    tok.split_once('=').ok_or_else(|| format!("expected KEY=VALUE, got '{tok}'"))
}

/// Applies engine keys (from -engine or -each) to a config.
fn apply_engine_keys(e: &mut EngineConfig, keys: &[(String, String)]) -> Result<(), String> {
    for (k, v) in keys {
        match k.as_str() {
            "cmd" => e.cmd = v.clone(),
            "name" => e.name = v.clone(),
            "dir" => e.dir = Some(PathBuf::from(v)),
            "args" => e.args.extend(split_args(v)),
            "arg" => e.args.push(v.clone()),
            "tc" => e.tc.clock = TimeControl::parse_tc(v)?,
            "st" => e.tc.movetime = Some(secs(k, v)?),
            "nodes" => e.tc.nodes = Some(num(k, v)?),
            "depth" => e.tc.depth = Some(num(k, v)?),
            "timemargin" => e.timemargin = Duration::from_millis(num(k, v)?),
            "starttimeout" => e.start_timeout = secs(k, v)?,
            "hangtimeout" => e.hang_timeout = secs(k, v)?,
            "proto" => {
                if v != "uci" {
                    return Err(format!("only proto=uci is supported, not '{v}'"));
                }
            }
            // What `sparring match` does anyway: an engine is restarted only after a crash or
            // hang (cutechess's `auto` is the same for UCI engines, which all know ucinewgame).
            "restart" if matches!(v.as_str(), "off" | "auto") => {}
            "restart" => {
                return Err(format!(
                    "restart={v} is not supported: engines are restarted only after a crash or hang \
                     (restart=off or restart=auto)"
                ));
            }
            // Scores are always the mover's (UCI); whitepov only matters to xboard engines.
            "whitepov" => {}
            "ponder" => return Err("ponder is not supported: engines never ponder in sparring match".into()),
            "stderr" => {
                return Err(format!("stderr={v} is not supported: an engine's stderr goes to sparring match's own"));
            }
            _ => {
                if let Some(name) = k.strip_prefix("option.") {
                    e.options.retain(|(n, _)| n != name);
                    e.options.push((name.to_string(), v.clone()));
                } else {
                    return Err(format!("unknown engine key '{k}'"));
                }
            }
        }
    }
    Ok(())
}

/// Parses `sparring match` arguments into a config (progress Auto, -srand random if absent).
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut engine_groups: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let placeholder = EngineConfig::default();
    let mut cfg = MatchConfig::new(placeholder.clone(), placeholder);
    cfg.progress = ProgressMode::Auto;
    let mut srand = None;
    let mut i = 0;
    // The words after an option, up to the next option.
    let group = |i: &mut usize| -> Vec<String> {
        let mut v = Vec::new();
        while *i < args.len() && !args[*i].starts_with('-') {
            v.push(args[*i].clone());
            *i += 1;
        }
        v
    };
    let kvs = |words: Vec<String>| -> Result<Vec<(String, String)>, String> {
        words
            .iter()
            .map(|w| {
                if w == "ponder" {
                    return Err("ponder is not supported: engines never ponder in sparring match".to_string());
                }
                kv(w).map(|(k, v)| (k.to_string(), v.to_string()))
            })
            .collect()
    };
    while i < args.len() {
        let opt = args[i].clone();
        i += 1;
        let name = opt.trim_start_matches('-');
        let one = |i: &mut usize| -> Result<String, String> {
            let w = group(i);
            match w.len() {
                1 => Ok(w[0].clone()),
                0 => Err(format!("{opt} needs a value")),
                _ => Err(format!("{opt} takes one value, got {}", w.join(" "))),
            }
        };
        match name {
            "engine" => engine_groups.push(kvs(group(&mut i))?),
            "each" => each.extend(kvs(group(&mut i))?),
            "games" => cfg.games = num(&opt, &one(&mut i)?)?,
            "rounds" => cfg.rounds = num(&opt, &one(&mut i)?)?,
            "repeat" => {
                let w = group(&mut i);
                if let Some(n) = w.first()
                    && n != "2"
                {
                    return Err("only -repeat 2 (pairs) is supported".into());
                }
                cfg.repeat = true;
            }
            "concurrency" => cfg.concurrency = num(&opt, &one(&mut i)?)?,
            "srand" => srand = Some(num(&opt, &one(&mut i)?)?),
            "event" => cfg.event = one(&mut i)?,
            "maxmoves" => cfg.maxmoves = Some(num(&opt, &one(&mut i)?)?),
            "tb" => cfg.tb = Some(one(&mut i)?),
            "tbpieces" => cfg.tb_pieces = num(&opt, &one(&mut i)?)?,
            "ratinginterval" => cfg.rating_interval = num(&opt, &one(&mut i)?)?,
            "recover" => cfg.recover = true,
            "progress" => cfg.progress = progress(&one(&mut i)?)?,
            "pgnout" | "epdout" | "jsonout" => {
                let words = group(&mut i);
                let p = Some(output_file(&opt, &words)?);
                match name {
                    "pgnout" => {
                        cfg.pgnout = p;
                        cfg.pgn_min = pgn_flags(&words)?;
                    }
                    "epdout" => cfg.epdout = p,
                    _ => cfg.jsonout = p,
                }
            }
            "openings" => cfg.openings = openings(kvs(group(&mut i))?)?,
            "draw" => cfg.draw = Some(draw(kvs(group(&mut i))?)?),
            "resign" => cfg.resign = Some(resign(kvs(group(&mut i))?)?),
            "sprt" => cfg.sprt = Some(sprt(kvs(group(&mut i))?)?),
            _ => {
                return Err(format!("unknown option '{opt}' (see 'sparring match --help')"));
            }
        }
    }
    cfg.engines = engines(&engine_groups, &each)?;
    cfg.srand = srand.unwrap_or_else(super::fresh_srand);
    Ok(cfg)
}

/// `-progress auto|lines|quiet`.
fn progress(mode: &str) -> Result<ProgressMode, String> {
    Ok(match mode {
        "auto" => ProgressMode::Auto,
        "lines" => ProgressMode::Lines,
        "quiet" | "none" => ProgressMode::Quiet,
        o => return Err(format!("-progress: unknown mode '{o}'")),
    })
}

/// The file of `-pgnout`/`-epdout`/`-jsonout` (`file=PATH` or a bare path).
fn output_file(opt: &str, words: &[String]) -> Result<PathBuf, String> {
    words
        .iter()
        .find_map(|x| x.strip_prefix("file="))
        .map(str::to_string)
        .or_else(|| words.first().filter(|x| !x.contains('=')).cloned())
        .map(PathBuf::from)
        .ok_or_else(|| format!("{opt} needs a file"))
}

/// The words of `-pgnout` after its file: `min` (or `min=true`), the minimal PGN; nothing else is
/// supported (cutechess's `fi` and fastchess's `notation=`, `nodes=`, ... are refused by name).
fn pgn_flags(words: &[String]) -> Result<bool, String> {
    let mut min = false;
    for (i, w) in words.iter().enumerate() {
        let file_word = w.starts_with("file=") || (i == 0 && !w.contains('='));
        match w.as_str() {
            "min" | "min=true" => min = true,
            "min=false" => min = false,
            _ if file_word => {}
            _ => return Err(format!("-pgnout: '{w}' is not supported (only FILE and min)")),
        }
    }
    Ok(min)
}

/// `-openings file= format= order= plies= start=`.
fn openings(keys: Vec<(String, String)>) -> Result<OpeningsConfig, String> {
    let mut o = OpeningsConfig::default();
    let mut format = None;
    for (k, v) in keys {
        match k.as_str() {
            "file" => o.file = Some(PathBuf::from(v)),
            "format" => {
                format = Some(match v.as_str() {
                    "epd" => BookFormat::Epd,
                    "pgn" => BookFormat::Pgn,
                    _ => return Err(format!("unknown book format '{v}'")),
                })
            }
            "order" => {
                o.order = match v.as_str() {
                    "sequential" => OpeningOrder::Sequential,
                    "random" => OpeningOrder::Random,
                    _ => return Err(format!("unknown opening order '{v}'")),
                }
            }
            "plies" => o.plies = Some(num(&k, &v)?),
            "start" => o.start = num(&k, &v)?,
            // One opening per game, or per pair with -repeat: cutechess's default policy.
            "policy" if v == "default" => {}
            "policy" => {
                return Err(format!(
                    "-openings policy={v} is not supported: each game (each pair with -repeat) takes the next \
                     opening (policy=default)"
                ));
            }
            _ => return Err(format!("unknown -openings key '{k}'")),
        }
    }
    o.format = format.unwrap_or_else(|| {
        let pgn = o.file.as_ref().and_then(|f| f.extension()).is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
        if pgn { BookFormat::Pgn } else { BookFormat::Epd }
    });
    Ok(o)
}

/// `-draw movenumber= movecount= score=`.
fn draw(keys: Vec<(String, String)>) -> Result<DrawRule, String> {
    let mut d = DrawRule { movenumber: 0, movecount: 0, score: 0 };
    for (k, v) in keys {
        match k.as_str() {
            "movenumber" => d.movenumber = num(&k, &v)?,
            "movecount" => d.movecount = num(&k, &v)?,
            "score" => d.score = num(&k, &v)?,
            _ => return Err(format!("unknown -draw key '{k}'")),
        }
    }
    if d.movecount == 0 {
        return Err("-draw needs movecount=".into());
    }
    Ok(d)
}

/// `-resign movecount= score= [twosided=]`.
fn resign(keys: Vec<(String, String)>) -> Result<ResignRule, String> {
    let mut r = ResignRule { movecount: 0, score: 0, twosided: false };
    for (k, v) in keys {
        match k.as_str() {
            "movecount" => r.movecount = num(&k, &v)?,
            "score" => r.score = num(&k, &v)?,
            "twosided" => r.twosided = matches!(v.as_str(), "true" | "1" | "yes"),
            _ => return Err(format!("unknown -resign key '{k}'")),
        }
    }
    if r.movecount == 0 || r.score <= 0 {
        return Err("-resign needs movecount= and a positive score=".into());
    }
    Ok(r)
}

/// `-sprt elo0= elo1= [alpha= beta= model=]`.
fn sprt(keys: Vec<(String, String)>) -> Result<Sprt, String> {
    let mut s = Sprt::new(0.0, 0.0, 0.05, 0.05);
    let mut have = (false, false);
    for (k, v) in keys {
        match k.as_str() {
            "elo0" => {
                s.elo0 = num(&k, &v)?;
                have.0 = true
            }
            "elo1" => {
                s.elo1 = num(&k, &v)?;
                have.1 = true
            }
            "alpha" => s.alpha = num(&k, &v)?,
            "beta" => s.beta = num(&k, &v)?,
            "model" => {
                s.model = match v.as_str() {
                    "logistic" => SprtModel::Logistic,
                    "normalized" => SprtModel::Normalized,
                    _ => return Err(format!("unknown SPRT model '{v}'")),
                }
            }
            _ => return Err(format!("unknown -sprt key '{k}'")),
        }
    }
    if !(have.0 && have.1) || s.elo0 >= s.elo1 {
        return Err("-sprt needs elo0= < elo1=".into());
    }
    if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
        return Err("-sprt alpha and beta must lie in (0, 0.5)".into());
    }
    Ok(s)
}

/// The two engines from their `-engine` groups, each on top of the `-each` keys.
fn engines(groups: &[Vec<(String, String)>], each: &[(String, String)]) -> Result<[EngineConfig; 2], String> {
    if groups.len() != 2 {
        return Err(format!("give exactly two -engine groups (got {})", groups.len()));
    }
    let mut out = [EngineConfig::default(), EngineConfig::default()];
    for (slot, keys) in groups.iter().enumerate() {
        let mut e = EngineConfig {
            start_timeout: Duration::from_secs(10),
            hang_timeout: Duration::from_secs(10),
            ..Default::default()
        };
        apply_engine_keys(&mut e, each)?;
        apply_engine_keys(&mut e, keys)?;
        if e.cmd.is_empty() {
            return Err(format!("-engine {} has no cmd=", slot + 1));
        }
        if e.name.is_empty() {
            e.name = std::path::Path::new(&e.cmd)
                .file_name()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| e.cmd.clone());
        }
        out[slot] = e;
    }
    if out[0].name == out[1].name {
        out[0].name.push_str(" (1)");
        out[1].name.push_str(" (2)");
    }
    Ok(out)
}

#[cfg(unix)]
fn install_ctrl_c() {
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
        fn _exit(status: i32) -> !;
    }
    extern "C" fn on_sigint(_: i32) {
        if super::INTERRUPTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
            // A second Ctrl-C: leave at once.
            unsafe { _exit(130) }
        }
    }
    const SIGINT: i32 = 2;
    // SAFETY: the handler only touches an atomic and calls the async-signal-safe _exit.
    unsafe {
        signal(SIGINT, on_sigint as *const () as usize);
    }
}

#[cfg(not(unix))]
fn install_ctrl_c() {}

/// `sparring match ARGS...`.
pub fn main(args: &[String]) -> ExitCode {
    if args.is_empty() || args.iter().any(|a| matches!(a.as_str(), "-h" | "--help" | "-help" | "help")) {
        print!("{HELP}");
        return if args.is_empty() { ExitCode::from(2) } else { ExitCode::SUCCESS };
    }
    let cfg = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("sparring match: {e}");
            return ExitCode::from(2);
        }
    };
    install_ctrl_c();
    match super::run_match(cfg) {
        Ok(s) => {
            if s.stopped.as_deref() == Some("interrupted") {
                ExitCode::from(130)
            } else if s.stopped_by_fault() {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("sparring match: {e}");
            ExitCode::FAILURE
        }
    }
}

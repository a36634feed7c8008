//! `sparring style`: the style fingerprint (the avatars fitted to a player's games are
//! `avatar/`; the fingerprint's sources, rates and table are `common::fingerprint`, which both use).
//!
//! The fingerprint is a short table of move rates (captures, checks, king-zone entries, pawn
//! storms, sacrifices, trades, castling, pawn-structure damage, passed-pawn pushes, retreats; see
//! `sparring::policy::style`) with 95 % intervals, plus game rows (length, draws, castling timing) when the
//! moves come from games. Its sources: the moves of a PGN (all, one side or one player), or an
//! engine's moves on a fixed position set (sampled from a PGN, or a FEN file), recorded so that a
//! run resumes, and compared with another setting's record on the same positions (paired).

mod cli;
use crate::common::fingerprint::{engine, progress_bar, report, source, this_engine};
pub use cli::{Args, main};
pub use sparring::policy::style as classify;

use crate::common::games::{GameRecord, read_games};
use engine::EngineSpec;
use report::Row;
use shakmaty::Color;
use source::{Observed, Part, Probe, SampleSpec, Who};
use std::path::Path;

/// The output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Csv,
    Json,
}

fn format_of(csv: bool, json: bool) -> Format {
    if csv {
        Format::Csv
    } else if json {
        Format::Json
    } else {
        Format::Table
    }
}

fn is_pgn(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
}

fn parse_band(text: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = text.split_once('-').ok_or_else(|| format!("--band '{text}': expected LO-HI"))?;
    let lo = lo.trim().parse().map_err(|_| format!("--band '{text}': '{lo}' is not a rating"))?;
    let hi = hi.trim().parse().map_err(|_| format!("--band '{text}': '{hi}' is not a rating"))?;
    Ok((lo, hi))
}

fn parse_option(text: &str) -> Result<(String, String), String> {
    let (k, v) = text.split_once('=').ok_or_else(|| format!("--option '{text}': expected NAME=VALUE"))?;
    Ok((k.trim().to_string(), v.trim().to_string()))
}

fn who(args: &Args) -> Result<Who, String> {
    Ok(match (&args.player, &args.side) {
        (Some(p), _) => Who::Player(p.clone()),
        (None, Some(s)) if s.eq_ignore_ascii_case("white") => Who::Side(Color::White),
        (None, Some(s)) if s.eq_ignore_ascii_case("black") => Who::Side(Color::Black),
        (None, Some(s)) => return Err(format!("--side '{s}': expected white or black")),
        (None, None) => Who::All,
    })
}

fn engine_spec(args: &Args) -> Result<EngineSpec, String> {
    let mut options = args.options.iter().map(|o| parse_option(o)).collect::<Result<Vec<_>, _>>()?;
    let own = args.engine.as_deref().is_none_or(str::is_empty);
    let command = if own { this_engine()? } else { args.engine.clone().unwrap_or_default() };
    // Our own weak settings draw from a seeded stream: fix it so the run is reproducible.
    if own && !options.iter().any(|(k, _)| k.eq_ignore_ascii_case("Seed")) {
        options.push(("Seed".to_string(), "1".to_string()));
    }
    let label = if own { "sparring".to_string() } else { command.clone() };
    Ok(EngineSpec { command, label, options, go: args.go.trim().to_string() })
}

fn probes(args: &Args) -> Result<Vec<Probe>, String> {
    if is_pgn(&args.file) {
        let games = read_games(&args.file)?;
        if let Some(note) = crate::common::games::unread_note(&args.file, &games) {
            eprintln!("{note}");
        }
        let band = args.band.as_deref().map(parse_band).transpose()?;
        let who = who(args)?;
        if let Who::Player(p) = &who
            && !games.iter().any(|g| g.white == *p || g.black == *p)
        {
            return Err(format!("{}: no games of a player named '{p}'", args.file.display()));
        }
        let games = part_of(games, &who, args.part);
        let spec = SampleSpec { count: args.positions, seed: args.seed, min_ply: args.min_ply, band, who };
        Ok(source::sample(&games, &spec))
    } else {
        source::read_fens(&args.file)
    }
}

/// Classified moves of a record on the probes (a move that is not legal there is an error).
fn observe(
    probes: &[Probe],
    moves: &std::collections::BTreeMap<usize, String>,
) -> Result<Vec<(usize, Observed)>, String> {
    let mut out = Vec::new();
    for (&i, mv) in moves {
        let p = probes.get(i).ok_or_else(|| format!("record index {i} beyond the {} positions", probes.len()))?;
        let m = sparring::board::notation::parse_uci(&p.pos, mv)?;
        out.push((i, Observed { cluster: p.cluster, facts: classify::classify(&p.pos, p.prev(), m) }));
    }
    Ok(out)
}

fn print_rows(title: &str, rows: &[Row], format: Format) {
    match format {
        Format::Table => print!("{}", report::table(title, rows)),
        Format::Csv => print!("{}", report::csv(rows)),
        Format::Json => {
            let v = serde_json::json!({ "source": title, "rows": rows });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
}

/// The facts file of `--facts-out` (see [`Args::facts_out`]).
fn write_facts(path: &Path, observed: &[(usize, Observed)]) -> Result<(), String> {
    let mut text = String::from("index\tgame");
    for r in classify::Rate::ALL {
        text.push('\t');
        text.push_str(r.key());
    }
    text.push('\n');
    for (i, o) in observed {
        text.push_str(&format!("{i}\t{}", o.cluster));
        for f in o.facts {
            text.push_str(match f {
                Some(true) => "\t1",
                Some(false) => "\t0",
                None => "\t-",
            });
        }
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// What the players of the sampled games played on the probes (their record with `--humans`).
pub const HUMANS: &str = "humans (the moves played in the games)";

fn run_engine(args: &Args, format: Format) -> Result<(), String> {
    let spec = engine_spec(args)?;
    if args.humans && !is_pgn(&args.file) {
        return Err(format!("{}: --humans needs positions sampled from a PGN (its games' moves)", args.file.display()));
    }
    let probes = probes(args)?;
    if probes.is_empty() {
        return Err(format!("{}: no positions to ask about", args.file.display()));
    }
    let hash = source::probes_hash(&probes);
    let (setting, moves) = if args.humans {
        let moves: std::collections::BTreeMap<usize, String> = probes
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.played.map(|m| (i, sparring::board::notation::uci(m))))
            .collect();
        if let Some(path) = &args.record {
            engine::write_record(path, &hash, HUMANS, &moves)?;
        }
        (HUMANS.to_string(), moves)
    } else {
        let bar = progress_bar(probes.len(), "positions");
        let moves = engine::run(&spec, &probes, &hash, args.record.as_deref(), args.jobs, &|| bar.inc(1))?;
        bar.finish_and_clear();
        (spec.describe(), moves)
    };
    let this = observe(&probes, &moves)?;
    if let Some(path) = &args.facts_out {
        write_facts(path, &this)?;
    }
    let title = format!("{setting} on {} positions of {} (set {hash})", probes.len(), args.file.display());
    let Some(other) = &args.compare else {
        let obs: Vec<Observed> = this.into_iter().map(|(_, o)| o).collect();
        print_rows(&title, &report::move_rows(&obs), format);
        return Ok(());
    };
    let (head, theirs) = engine::read_record(other)?;
    if engine::header_hash(&head) != hash {
        return Err(format!("{}: recorded on another position set (not {hash})", other.display()));
    }
    let theirs: std::collections::BTreeMap<usize, Observed> = observe(&probes, &theirs)?.into_iter().collect();
    let pairs: Vec<(usize, classify::Facts, classify::Facts)> =
        this.iter().filter_map(|(i, o)| theirs.get(i).map(|t| (o.cluster, t.facts, o.facts))).collect();
    let rows = report::diff_rows(&pairs);
    let a = head.split_whitespace().skip(5).collect::<Vec<_>>().join(" ");
    match format {
        Format::Table => print!("{}", report::diff_table(&title, &a, &setting, &rows)),
        Format::Csv => print!("{}", report::diff_csv(&rows)),
        Format::Json => {
            let v = serde_json::json!({ "source": title, "a": a, "b": setting, "rows": rows });
            println!("{}", serde_json::to_string_pretty(&v).unwrap_or_default());
        }
    }
    Ok(())
}

/// The games that count for `who` with `part`: all of them, or one half of the player's.
fn part_of(games: Vec<GameRecord>, who: &Who, part: Part) -> Vec<GameRecord> {
    match (who, part) {
        (Who::Player(name), Part::First | Part::Second) => {
            source::player_games(&games, name, part).into_iter().map(|(_, g)| g.clone()).collect()
        }
        _ => games,
    }
}

fn run_games(args: &Args, format: Format) -> Result<(), String> {
    let games = read_games(&args.file)?;
    if let Some(note) = crate::common::games::unread_note(&args.file, &games) {
        eprintln!("{note}");
    }
    let who = who(args)?;
    let games = part_of(games, &who, args.part);
    let (obs, sides) = source::game_moves(&games, &who);
    if sides.is_empty() {
        return Err(match &who {
            Who::Player(p) => format!("{}: no games of a player named '{p}'", args.file.display()),
            _ => format!("{}: no games", args.file.display()),
        });
    }
    let whose = match &who {
        Who::All => "all moves".to_string(),
        Who::Side(c) => format!("{c} moves"),
        Who::Player(p) => format!("{p}'s moves"),
    };
    let mut rows = report::move_rows(&obs);
    rows.extend(report::game_rows(&sides));
    let title = format!("{whose} in {} ({} game sides, {} moves)", args.file.display(), sides.len(), obs.len());
    print_rows(&title, &rows, format);
    Ok(())
}

//! The command line of `sparring humanlike`: sample, oracle, measure, moves, report.
use super::{measure, report, sample};
use crate::common::scored::SampledPosition;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "sparring humanlike", about = "Human-likeness bench: engine settings vs rated human players")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Sample positions (before the human's move) from rated games, per rating band.
    Sample(SampleArgs),
    /// Score every legal move of each position with a full-strength oracle (cached, resumable).
    Oracle(OracleArgs),
    /// Ask an engine setting (or the humans) for a move in every eligible position; report per band.
    Measure {
        #[arg(long)]
        oracle: PathBuf,
        /// UCI engine command (program and arguments, split on whitespace).
        #[arg(long, required_unless_present = "humans")]
        engine: Option<String>,
        /// Measure the humans' own moves instead of an engine.
        #[arg(long)]
        humans: bool,
        /// UCI option NAME=VALUE (repeatable).
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        /// The go command's arguments, e.g. "nodes 20000" or "movetime 100".
        #[arg(long, default_value = "movetime 100")]
        go: String,
        /// Row label in the CSV (default: humans, or the engine command and options).
        #[arg(long)]
        label: Option<String>,
        /// The setting's nominal Elo for plots (default: the UCI_Elo option if given).
        #[arg(long)]
        elo: Option<u32>,
        /// CSV to write; rows with the same label are replaced, others kept.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Measure only the first N eligible positions of each band (quick checks).
        #[arg(long)]
        limit: Option<usize>,
        /// Cache of this setting's answers (JSON lines): answers found there are reused, new
        /// ones appended, so an interrupted run continues.
        #[arg(long)]
        cache: Option<PathBuf>,
    },
    /// Ask an engine setting for its move in every sampled position, into a cache file, without
    /// an oracle yet (so engine answers can be collected while the oracle still runs).
    Moves {
        #[arg(long)]
        positions: PathBuf,
        #[arg(long)]
        engine: String,
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
        #[arg(long, default_value = "movetime 100")]
        go: String,
        #[arg(long)]
        cache: PathBuf,
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// A markdown report from measure CSVs (charts: bench/py.sh bench/plot.py humanlike CSV...).
    Report {
        /// CSV files written by `measure`.
        #[arg(long, num_args = 1.., required = true)]
        csv: Vec<PathBuf>,
        #[arg(long, default_value = "bench/results")]
        out_dir: PathBuf,
    },
}

/// `sparring humanlike ARGS…`.
pub fn main(args: &[String]) -> ExitCode {
    crate::common::command_line::run_tool::<Cli>("sparring humanlike", args, |cli| run(cli.cmd))
}

#[derive(clap::Args, Debug)]
struct SampleArgs {
    #[arg(long)]
    pgn: PathBuf,
    #[arg(long)]
    out: PathBuf,
    /// Positions wanted per band.
    #[arg(long, default_value_t = 1000)]
    per_band: usize,
    /// Per-band count overriding --per-band, BAND=N (repeatable), e.g. 800=1500.
    #[arg(long = "band-count", value_name = "BAND=N")]
    band_counts: Vec<String>,
    /// Bands as LO-HI (200-point bands from LO up to below HI).
    #[arg(long, default_value = "800-2400")]
    bands: String,
    /// Skip the opening: only positions with at least this many half-moves played.
    #[arg(long, default_value_t = 16)]
    min_ply: u32,
    /// At most this many positions from one player's side of one game.
    #[arg(long, default_value_t = 16)]
    max_per_game: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rate a named player, NAME=ELO (repeatable; overrides the PGN's Elo tags), e.g. to sample an
    /// engine's own games: --player elo1700=1700. With any --player, only the listed players are sampled.
    #[arg(long = "player", value_name = "NAME=ELO")]
    players: Vec<String>,
    /// Only games of this part of the file: fit, validation or test (game index mod 10: 0-6, 7, 8-9).
    #[arg(long, value_enum)]
    part: Option<crate::common::split::Part>,
    /// A positions file this sample extends: its (game, ply) pairs are never taken again.
    #[arg(long)]
    exclude: Option<PathBuf>,
    /// Leave out the moves of known computer accounts (the human targets never use them).
    #[arg(long)]
    people: bool,
}

#[derive(clap::Args, Debug)]
struct OracleArgs {
    #[arg(long)]
    positions: PathBuf,
    #[arg(long)]
    out: PathBuf,
    #[arg(long, default_value_t = 9)]
    depth: i32,
    /// `internal` or a UCI engine command (run with MultiPV 500).
    #[arg(long, default_value = "internal")]
    engine: String,
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Score only the first N positions (for timing).
    #[arg(long)]
    limit: Option<usize>,
}

fn sample_cmd(args: SampleArgs) -> Result<ExitCode, String> {
    let SampleArgs {
        pgn,
        out,
        per_band,
        band_counts,
        bands,
        min_ply,
        max_per_game,
        seed,
        players,
        part,
        exclude,
        people,
    } = args;
    let mut counts = std::collections::BTreeMap::new();
    for bc in &band_counts {
        let parsed = bc.split_once('=').and_then(|(b, n)| Some((b.trim().parse().ok()?, n.trim().parse().ok()?)));
        let (b, n): (u32, usize) = parsed.ok_or_else(|| format!("--band-count '{bc}': expected BAND=N"))?;
        counts.insert(b, n);
    }
    let cfg = sample::SampleConfig {
        bands: crate::common::bands::parse_bands(&bands)?,
        per_band,
        band_counts: counts.clone(),
        min_ply,
        max_per_game,
        seed,
        part,
        exclude: match &exclude {
            Some(path) => {
                let old: Vec<SampledPosition> = crate::common::scored::read_jsonl(path)?;
                old.iter().map(|p| (p.game, p.ply)).collect()
            }
            None => Default::default(),
        },
        people_only: people,
    };
    let mut named = std::collections::BTreeMap::new();
    for p in &players {
        let (name, elo) = sample::parse_player_rating(p)?;
        named.insert(name, elo);
    }
    let mut games = sample::read_games(&pgn)?;
    if !named.is_empty() {
        for g in &mut games {
            g.white_elo = None;
            g.black_elo = None;
            g.assign_ratings(&named);
        }
    }
    eprintln!("{} games read from {}", games.len(), pgn.display());
    if let Some(note) = crate::common::games::unread_note(&pgn, &games) {
        eprintln!("{note}");
    }
    let chosen = sample::choose(&games, &cfg);
    let positions = sample::build_positions(&games, &chosen);
    crate::common::scored::write_jsonl(&out, &positions)?;
    println!("band  positions  player-games  max/player-game");
    for (band, n, groups, max) in sample::summary(&positions) {
        let want = counts.get(&band).copied().unwrap_or(per_band);
        let short = if n < want { "  (short of the count asked for)" } else { "" };
        println!("{band:>4}  {n:>9}  {groups:>12}  {max:>15}{short}");
    }
    println!("{} positions written to {}", positions.len(), out.display());
    Ok(ExitCode::SUCCESS)
}

fn oracle_cmd(args: OracleArgs) -> Result<ExitCode, String> {
    let OracleArgs { positions, out, depth, engine, jobs, limit } = args;
    let mut all: Vec<SampledPosition> = crate::common::scored::read_jsonl(&positions)?;
    if let Some(n) = limit {
        all.truncate(n);
    }
    crate::common::oracle::run(&all, &out, depth, &crate::common::oracle::OracleChoice::parse(&engine), jobs)?;
    let scored = crate::common::scored::load_oracle(&out)?;
    let eligible = scored.iter().filter(|p| p.is_eligible()).count();
    println!("{} positions in {}, {eligible} eligible", scored.len(), out.display());
    println!("band  scored  eligible  mate  decided  other");
    let mut per: std::collections::BTreeMap<u32, [usize; 5]> = Default::default();
    for p in &scored {
        let c = per.entry(p.pos.band).or_default();
        c[0] += 1;
        match p.eligibility() {
            Ok(()) => c[1] += 1,
            Err(crate::common::scored::Ineligible::Mate) => c[2] += 1,
            Err(crate::common::scored::Ineligible::Decided) => c[3] += 1,
            Err(_) => c[4] += 1,
        }
    }
    for (band, c) in per {
        println!("{band:>4}  {:>6}  {:>8}  {:>4}  {:>7}  {:>5}", c[0], c[1], c[2], c[3], c[4]);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs one subcommand.
fn run(cmd: Cmd) -> Result<ExitCode, String> {
    match cmd {
        Cmd::Sample(a) => sample_cmd(a),
        Cmd::Oracle(a) => oracle_cmd(a),
        Cmd::Measure { oracle, engine, humans, options, go, label, elo, out, jobs, limit, cache } => {
            let opts = measure::MeasureArgs { engine, humans, options, go, label, elo, jobs, limit, cache };
            measure::measure_cli(&oracle, &opts, out.as_deref())
        }
        Cmd::Moves { positions, engine, options, go, cache, jobs } => {
            let all: Vec<SampledPosition> = crate::common::scored::read_jsonl(&positions)?;
            let fens: Vec<String> = all.iter().map(|p| p.fen.clone()).collect();
            let opts = measure::parse_options(&options)?;
            measure::cached_engine_moves(&fens, &engine, &opts, &go, jobs, Some(&cache))?;
            println!("{} answers in {}", fens.len(), cache.display());
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Report { csv, out_dir } => {
            report::run(&csv, &out_dir)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

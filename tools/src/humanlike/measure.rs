//! The `measure` command: an engine setting's (or the humans') moves on the oracle's positions,
//! per band (the statistics are `common::bands`), its answer cache and its CSV.

use crate::common::bands::{BandStats, eligible, stats_from_moves};
use crate::common::scored::{OraclePosition, load_oracle};
use sparring::board::notation::{parse_uci, uci as uci_of};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

/// Options of the `measure` command.
#[derive(Clone, Debug)]
pub struct MeasureArgs {
    pub engine: Option<String>,
    pub humans: bool,
    pub options: Vec<String>,
    pub go: String,
    pub label: Option<String>,
    pub elo: Option<u32>,
    pub jobs: usize,
    pub limit: Option<usize>,
    /// Per-setting cache of engine answers (JSON lines), read and extended.
    pub cache: Option<std::path::PathBuf>,
}

pub fn parse_options(opts: &[String]) -> Result<Vec<(String, String)>, String> {
    opts.iter()
        .map(|o| {
            o.split_once('=')
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .ok_or_else(|| format!("option '{o}': expected NAME=VALUE"))
        })
        .collect()
}

/// One engine answer, as kept in a per-setting move cache (JSON lines).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct CachedMove {
    pub fen: String,
    /// The engine's `bestmove` text as sent.
    pub mv: String,
}

/// Asks the engine for a move in each FEN, `jobs` engine processes over contiguous slices.
/// Each answer is handed to `sink` (on the calling thread, in completion order) as it arrives;
/// the returned answers are in FEN order whatever the scheduling.
pub fn engine_moves(
    fens: &[String],
    cmd: &str,
    options: &[(String, String)],
    go: &str,
    jobs: usize,
    mut sink: impl FnMut(usize, &str) -> Result<(), String>,
) -> Result<Vec<String>, String> {
    let jobs = jobs.clamp(1, fens.len().max(1));
    let chunk = fens.len().div_ceil(jobs).max(1);
    let start = Instant::now();
    let total = fens.len();
    let mut answers: Vec<Option<String>> = vec![None; total];
    let (tx, rx) = std::sync::mpsc::channel::<Result<(usize, String), String>>();
    std::thread::scope(|s| -> Result<(), String> {
        for (k, slice) in fens.chunks(chunk).enumerate() {
            let tx = tx.clone();
            s.spawn(move || {
                let mut e = match super::engine::start(cmd, options) {
                    Ok(e) => e,
                    Err(err) => {
                        let _ = tx.send(Err(err));
                        return;
                    }
                };
                for (i, fen) in slice.iter().enumerate() {
                    let r = super::engine::bestmove(&mut e, fen, go).map(|m| (k * chunk + i, m));
                    let failed = r.is_err();
                    if tx.send(r).is_err() || failed {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0usize;
        for r in rx {
            let (i, m) = r?;
            sink(i, &m)?;
            answers[i] = Some(m);
            done += 1;
            if done.is_multiple_of(500) {
                eprintln!("  {done}/{total} moves, {:.0}s", start.elapsed().as_secs_f64());
            }
        }
        Ok(())
    })?;
    answers.into_iter().map(|a| a.ok_or_else(|| "engine gave no answer".to_string())).collect()
}

/// Engine answers for every FEN, reading and extending an optional per-setting cache file so an
/// interrupted run continues where it stopped. The cache must belong to one setting only.
pub fn cached_engine_moves(
    fens: &[String],
    cmd: &str,
    options: &[(String, String)],
    go: &str,
    jobs: usize,
    cache: Option<&Path>,
) -> Result<Vec<String>, String> {
    let mut known: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    if let Some(c) = cache.filter(|c| c.exists()) {
        for m in crate::common::scored::read_jsonl::<CachedMove>(c)? {
            known.entry(m.fen).or_insert(m.mv);
        }
    }
    let mut todo: Vec<String> = fens.iter().filter(|f| !known.contains_key(*f)).cloned().collect();
    todo.sort();
    todo.dedup();
    eprintln!("{} positions ({} distinct FENs to ask, the rest cached)", fens.len(), todo.len());
    if !todo.is_empty() {
        let mut file = cache.map(crate::common::scored::open_append).transpose()?;
        let got = engine_moves(&todo, cmd, options, go, jobs, |i, m| match file.as_mut() {
            Some(f) => crate::common::scored::append_jsonl(f, &CachedMove { fen: todo[i].clone(), mv: m.to_string() }),
            None => Ok(()),
        })?;
        known.extend(todo.into_iter().zip(got));
    }
    Ok(fens.iter().map(|f| known[f].clone()).collect())
}

/// Normalises engine answers to the oracle table's notation; `None` for an illegal answer.
pub fn normalise_moves(positions: &[OraclePosition], answers: &[String]) -> Vec<Option<String>> {
    positions.iter().zip(answers).map(|(p, a)| p.chess().ok().and_then(|c| parse_uci(&c, a).ok()).map(uci_of)).collect()
}

pub fn measure_cli(oracle: &Path, args: &MeasureArgs, out: Option<&Path>) -> Result<ExitCode, String> {
    let all = load_oracle(oracle)?;
    let positions = eligible(&all, args.limit);
    let options = parse_options(&args.options)?;
    let (label, engine_text, moves) = if args.humans {
        let moves = positions.iter().map(|p| Some(p.pos.human.clone())).collect();
        (args.label.clone().unwrap_or_else(|| "humans".into()), "humans".to_string(), moves)
    } else {
        let cmd = args.engine.as_deref().ok_or("--engine or --humans is required")?;
        let label = args.label.clone().unwrap_or_else(|| {
            let o: Vec<String> = args.options.iter().map(|o| o.replace(' ', "")).collect();
            format!("{} {}", cmd, o.join(" ")).trim().to_string()
        });
        eprintln!(
            "measuring '{label}' on {} eligible positions, go {}, {} job(s)",
            positions.len(),
            args.go,
            args.jobs
        );
        let fens: Vec<String> = positions.iter().map(|p| p.pos.fen.clone()).collect();
        let answers = cached_engine_moves(&fens, cmd, &options, &args.go, args.jobs, args.cache.as_deref())?;
        (label, cmd.to_string(), normalise_moves(&positions, &answers))
    };
    let stats = stats_from_moves(&positions, &moves);
    let elo = args
        .elo
        .or_else(|| options.iter().find(|(k, _)| k.eq_ignore_ascii_case("UCI_Elo")).and_then(|(_, v)| v.parse().ok()));
    print_table(&label, &stats);
    if let Some(out) = out {
        let row = RowMeta {
            label: label.clone(),
            engine: engine_text,
            options: args.options.join(" "),
            go: if args.humans { String::new() } else { args.go.clone() },
            elo,
        };
        write_csv(out, &row, &stats)?;
        eprintln!("wrote {} rows for '{label}' to {}", stats.len(), out.display());
    }
    let errors: usize = stats.iter().map(|s| s.errors).sum();
    if errors > 0 {
        eprintln!("error: {errors} position(s) got no legal move from the engine (left out of the statistics)");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the per-band table, setting vs humans.
pub fn print_table(label: &str, stats: &[BandStats]) {
    println!("{label}");
    println!(
        "band     n  match   top  | loss  h.loss |  ASE  h.ASE | >=50 h>=50 | >=100 h>=100 | >=300 h>=300 |   KS  err"
    );
    for s in stats {
        println!(
            "{:>4} {:>5}  {:>5.3} {:>5.3} | {:>5.1} {:>6.1} | {:.3} {:.3} | {:.3} {:.3} | {:.3}  {:.3}  | {:.3}  {:.3}  | {:.3} {:>4}",
            s.band,
            s.n,
            s.match_rate,
            s.top_rate,
            s.setting.mean_loss,
            s.human.mean_loss,
            s.setting.mean_scaled,
            s.human.mean_scaled,
            s.setting.rate50,
            s.human.rate50,
            s.setting.rate100,
            s.human.rate100,
            s.setting.rate300,
            s.human.rate300,
            s.ks,
            s.errors
        );
    }
}

/// What identifies a CSV row besides its band.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RowMeta {
    pub label: String,
    pub engine: String,
    pub options: String,
    pub go: String,
    pub elo: Option<u32>,
}

pub const CSV_HEADER: &str = "label,engine,options,go,elo,band,n,errors,match_rate,top_rate,mean_loss,mean_scaled_error,\
rate50,rate100,rate300,ks,human_top_rate,human_mean_loss,human_mean_scaled_error,human_rate50,human_rate100,human_rate300";

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Splits one CSV line (quoted fields with doubled quotes allowed).
pub fn split_csv(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().expect("nonempty").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            _ => out.last_mut().expect("nonempty").push(c),
        }
    }
    out
}

pub fn csv_row(meta: &RowMeta, s: &BandStats) -> String {
    format!(
        "{},{},{},{},{},{},{},{},{:.4},{:.4},{:.2},{:.4},{:.4},{:.4},{:.4},{:.4},{:.4},{:.2},{:.4},{:.4},{:.4},{:.4}",
        csv_field(&meta.label),
        csv_field(&meta.engine),
        csv_field(&meta.options),
        csv_field(&meta.go),
        meta.elo.map(|e| e.to_string()).unwrap_or_default(),
        s.band,
        s.n,
        s.errors,
        s.match_rate,
        s.top_rate,
        s.setting.mean_loss,
        s.setting.mean_scaled,
        s.setting.rate50,
        s.setting.rate100,
        s.setting.rate300,
        s.ks,
        s.human_top_rate,
        s.human.mean_loss,
        s.human.mean_scaled,
        s.human.rate50,
        s.human.rate100,
        s.human.rate300
    )
}

/// Writes the rows of one label into `path`, keeping other labels' rows already there.
pub fn write_csv(path: &Path, meta: &RowMeta, stats: &[BandStats]) -> Result<(), String> {
    let mut lines: Vec<String> = Vec::new();
    if let Ok(text) = std::fs::read_to_string(path) {
        for line in text.lines().skip(1) {
            if !line.trim().is_empty() && split_csv(line).first() != Some(&meta.label) {
                lines.push(line.to_string());
            }
        }
    }
    lines.extend(stats.iter().map(|s| csv_row(meta, s)));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = format!("{CSV_HEADER}\n{}\n", lines.join("\n"));
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

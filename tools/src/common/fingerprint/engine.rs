//! An engine's moves on a probe set, on the shared UCI process driver (`common::process`), kept in
//! a record file as they come so that a long run can be stopped and resumed.
//!
//! Record file: a first line `# sparring style record <probe hash> <setting>`, then one line per
//! answered probe, `index<TAB>uci move`, in the order the answers arrived. A record made on other
//! positions or with another setting is refused.

use super::source::Probe;
use crate::common::process::{EngineProcess, Fault, Spawn};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// How long one answer may take before the engine counts as hung.
const TIMEOUT: Duration = Duration::from_secs(600);

/// The engine and how it is asked.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// Program and arguments, split on whitespace.
    pub command: String,
    /// The engine's name in the record header and the output (`sparring` for this program, so a
    /// record does not depend on where the binary lies).
    pub label: String,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    /// The `go` arguments (`nodes 1000000`).
    pub go: String,
}

impl EngineSpec {
    /// The setting in one line (the record's header names it).
    pub fn describe(&self) -> String {
        let opts: Vec<String> = self.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!("{} [{}] go {}", self.label, opts.join(", "), self.go)
    }
}

fn fault(cmd: &str, f: Fault) -> String {
    format!("engine '{cmd}': {f}")
}

fn start(spec: &EngineSpec) -> Result<EngineProcess, String> {
    let mut e = EngineProcess::start(&Spawn::from_command_line(&spec.command)?, TIMEOUT, None)
        .map_err(|f| fault(&spec.command, f))?;
    if let Some((k, _)) = spec.options.iter().find(|(k, _)| !e.has_option(k)) {
        return Err(format!("engine '{}' has no option '{k}'", spec.command));
    }
    e.configure(&spec.options, TIMEOUT, None).map_err(|f| fault(&spec.command, f))?;
    Ok(e)
}

fn ask(e: &mut EngineProcess, spec: &EngineSpec, probe: &Probe) -> Result<String, String> {
    e.new_game(TIMEOUT, None).map_err(|f| fault(&spec.command, f))?;
    let b = e
        .search(&probe.position_command(), &format!("go {}", spec.go), TIMEOUT, None, |_| {})
        .map_err(|f| fault(&spec.command, f))?;
    sparring::board::notation::parse_uci(&probe.pos, &b.mv)
        .map(sparring::board::notation::uci)
        .map_err(|e| format!("engine '{}': {e}", spec.command))
}

/// Reads a record file: its header and the answers (index → move text).
pub fn read_record(path: &Path) -> Result<(String, BTreeMap<usize, String>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("").to_string();
    if !header.starts_with("# sparring style record ") {
        return Err(format!("{}: not a style record (no '# sparring style record' header)", path.display()));
    }
    let mut moves = BTreeMap::new();
    for (i, l) in lines.enumerate() {
        let Some((idx, mv)) = l.split_once('\t') else {
            // A line cut short by an interrupted write is dropped (it is asked again).
            continue;
        };
        let idx: usize = idx.parse().map_err(|_| format!("{}:{}: bad index '{idx}'", path.display(), i + 2))?;
        moves.insert(idx, mv.trim().to_string());
    }
    Ok((header, moves))
}

/// The header line of a record of `setting` on probes with hash `hash`.
pub fn header(hash: &str, setting: &str) -> String {
    format!("# sparring style record {hash} {setting}")
}

/// Writes a whole record of `setting` on probes with hash `hash` (replacing the file).
pub fn write_record(path: &Path, hash: &str, setting: &str, moves: &BTreeMap<usize, String>) -> Result<(), String> {
    let mut text = header(hash, setting) + "\n";
    for (i, m) in moves {
        text.push_str(&format!("{i}\t{m}\n"));
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The record's probe hash (its fifth word).
pub fn header_hash(header: &str) -> &str {
    header.split_whitespace().nth(4).unwrap_or("")
}

/// The engine's move on every probe: answers already in `record` are kept (its header must
/// match), the others asked with `jobs` engine processes and appended to `record` as they
/// arrive. `progress` is called once per probe answered.
pub fn run(
    spec: &EngineSpec,
    probes: &[Probe],
    hash: &str,
    record: Option<&Path>,
    jobs: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<BTreeMap<usize, String>, String> {
    let head = header(hash, &spec.describe());
    let mut done = BTreeMap::new();
    let mut file = None;
    if let Some(path) = record {
        if path.exists() {
            let (h, moves) = read_record(path)?;
            if h != head {
                return Err(format!(
                    "{}: recorded for another setting or position set:\n  file: {h}\n  this: {head}\n(remove it or give another --record)",
                    path.display()
                ));
            }
            done = moves;
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if done.is_empty() && f.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
            writeln!(f, "{head}").map_err(|e| format!("{}: {e}", path.display()))?;
        }
        file = Some(f);
    }
    done.retain(|&i, _| i < probes.len());
    for _ in 0..done.len() {
        progress();
    }
    let todo: Vec<usize> = (0..probes.len()).filter(|i| !done.contains_key(i)).collect();
    if todo.is_empty() {
        return Ok(done);
    }
    let jobs = jobs.clamp(1, todo.len());
    let (tx, rx) = mpsc::channel::<Result<(usize, String), String>>();
    std::thread::scope(|s| -> Result<(), String> {
        for j in 0..jobs {
            let tx = tx.clone();
            let mine: Vec<usize> = todo.iter().copied().skip(j).step_by(jobs).collect();
            s.spawn(move || {
                let mut e = match start(spec) {
                    Ok(e) => e,
                    Err(m) => {
                        let _ = tx.send(Err(m));
                        return;
                    }
                };
                for i in mine {
                    let answer = ask(&mut e, spec, &probes[i]).map(|m| (i, m));
                    let failed = answer.is_err();
                    if tx.send(answer).is_err() || failed {
                        break;
                    }
                }
                e.quit();
            });
        }
        drop(tx);
        let mut first_error = None;
        for got in rx {
            match got {
                Ok((i, mv)) => {
                    if let Some(f) = file.as_mut() {
                        writeln!(f, "{i}\t{mv}").and_then(|_| f.flush()).map_err(|e| format!("record: {e}"))?;
                    }
                    done.insert(i, mv);
                    progress();
                }
                Err(m) => {
                    first_error.get_or_insert(m);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    })?;
    Ok(done)
}

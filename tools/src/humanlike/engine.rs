//! Outside engines the human-likeness bench asks for their move in a position, on the shared
//! process driver (`common::process`).

use crate::common::process::{EngineProcess, Fault, Spawn};
use std::time::Duration;

/// How long an engine may think about one position before it counts as hung.
const ENGINE_TIMEOUT: Duration = Duration::from_secs(3600);

fn error(cmd: &str, f: Fault) -> String {
    match f {
        Fault::Stalled(_) => format!("UCI engine '{cmd}' sent nothing for {} s", ENGINE_TIMEOUT.as_secs()),
        f => format!("UCI engine '{cmd}': {f}"),
    }
}

/// Starts `cmd` (split on whitespace: program and arguments), runs the `uci` handshake, sets the
/// options and waits for `readyok`.
pub fn start(cmd: &str, options: &[(String, String)]) -> Result<EngineProcess, String> {
    let mut e =
        EngineProcess::start(&Spawn::from_command_line(cmd)?, ENGINE_TIMEOUT, None).map_err(|f| error(cmd, f))?;
    e.configure(options, ENGINE_TIMEOUT, None).map_err(|f| error(cmd, f))?;
    Ok(e)
}

/// `ucinewgame`, `position fen`, `go …`; returns the `bestmove` text.
pub fn bestmove(e: &mut EngineProcess, fen: &str, go: &str) -> Result<String, String> {
    let cmd = e.label().to_string();
    e.new_game(ENGINE_TIMEOUT, None).map_err(|f| error(&cmd, f))?;
    let b = e
        .search(&format!("position fen {fen}"), &format!("go {go}"), ENGINE_TIMEOUT, None, |_| {})
        .map_err(|f| error(&cmd, f))?;
    if b.mv.is_empty() { Err("empty bestmove".to_string()) } else { Ok(b.mv) }
}

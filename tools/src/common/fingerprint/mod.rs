//! The style fingerprint's parts that `sparring style` and `sparring avatar` share: where the
//! moves come from (`source`: games, one side or one player; an engine's answers on a probe set),
//! an engine's recorded answers (`engine`), rates with intervals (`stats`) and the table (`report`).
//! The move classes themselves are the engine's (`sparring::policy::style`).

pub mod engine;
pub mod report;
pub mod source;
pub mod stats;

pub use sparring::policy::style as classify;

/// A progress bar on stderr when it is a terminal (hidden otherwise).
pub fn progress_bar(len: usize, what: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(len as u64);
    b.set_style(
        indicatif::ProgressStyle::with_template(&format!("[{{elapsed_precise}}] {{bar:30}} {{pos}}/{{len}} {what}"))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    b
}

/// This program as a UCI engine command.
pub fn this_engine() -> Result<String, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    Ok(exe.display().to_string())
}

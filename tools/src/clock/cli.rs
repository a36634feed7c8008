//! The command line of `sparring clock`.

use super::*;
use clap::{Parser, Subcommand};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "sparring clock", about = "Human time use from real clocks: extract, fit, check, curves, controls.")]
pub struct Args {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Timed moves of a PGN with [%clk] comments, with the difficulty look of each position, as CSV.
    Extract {
        #[arg(long)]
        pgn: PathBuf,
        #[arg(long)]
        out: PathBuf,
        /// Take every STRIDE-th pair of games (one even, one odd index).
        #[arg(long, default_value_t = 1)]
        stride: usize,
        /// At most this many games in the file (both parts together).
        #[arg(long, default_value_t = usize::MAX)]
        max_games: usize,
        /// Leave out moves before this fullmove number.
        #[arg(long, default_value_t = 1)]
        min_fullmove: u32,
    },
    /// Fits the model on the fit part (even game indices) of an extract.
    Fit {
        #[arg(long)]
        moves: PathBuf,
        #[arg(long)]
        out: PathBuf,
        #[arg(long, default_value_t = 1)]
        version: u32,
        /// A move at or below this many seconds counts as instant.
        #[arg(long, default_value_t = 1.0)]
        instant_s: f64,
        /// What the data is, for the file's [fit] table.
        #[arg(long, default_value = "")]
        source: String,
    },
    /// The model against people on one part of an extract (default: the check part).
    Check {
        #[arg(long)]
        moves: PathBuf,
        /// A parameter file (default: the built-in model).
        #[arg(long)]
        model: Option<PathBuf>,
        /// `check` (odd game indices) or `fit` (even).
        #[arg(long, default_value = "check")]
        part: String,
        /// Folder for fraction.csv and difficulty.csv.
        #[arg(long)]
        out_dir: PathBuf,
    },
    /// Per-game time-use curves of a `sparring match` PGN (each move's comment ends with its time).
    Curves {
        #[arg(long)]
        pgn: PathBuf,
        /// Base time in seconds of games without a TimeControl tag.
        #[arg(long, default_value_t = 0.0)]
        base_s: f64,
        #[arg(long, default_value_t = 0.0)]
        inc_s: f64,
        /// Folder for curves.csv and curves.md.
        #[arg(long)]
        out_dir: PathBuf,
    },
    /// Each game's time control (its TimeControl tag, else its event's, from the clocks) and FIDE
    /// category, as CSV: game (0-based index in file order), event, base_s, inc_s, category (empty
    /// where neither tells).
    Controls {
        #[arg(long)]
        pgn: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn main(args: Args) -> ExitCode {
    match run(args.cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sparring clock: {e}");
            ExitCode::FAILURE
        }
    }
}

fn write(path: &std::path::Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

fn run(cmd: Cmd) -> Result<(), String> {
    match cmd {
        Cmd::Extract { pgn, out, stride, max_games, min_fullmove } => {
            let sel = extract::Selection { stride, max_games, min_fullmove };
            let (games, moves) = extract::run(&pgn, &out, sel)?;
            println!("{games} games in {} ({moves} moves added this run)", out.display());
        }
        Cmd::Fit { moves, out, version, instant_s, source } => {
            let all = rows::read(&moves)?;
            let part: Vec<rows::MoveRow> = all.into_iter().filter(|r| r.is_fit_part()).collect();
            let games = {
                let mut g: Vec<usize> = part.iter().map(|r| r.game).collect();
                g.dedup();
                g.len()
            };
            let mut info = BTreeMap::new();
            info.insert("data".to_string(), source);
            info.insert("part".to_string(), "even game indices (file order) of the extract".to_string());
            info.insert("games".to_string(), games.to_string());
            info.insert("extract".to_string(), moves.display().to_string());
            let model = fit::fit(&part, instant_s, version, info)?;
            let text = toml::to_string(&model).map_err(|e| e.to_string())?;
            sparring::human_time::TimeModel::parse(&text)?;
            write(&out, &text)?;
            println!("fitted on {} moves of {games} games: {}", part.len(), out.display());
            let file = format!("human/time-v{version}.toml");
            println!("manifest entry (profiles/manifest.toml) when shipped as profiles/{file}:");
            print!("{}", sparring::profile::manifest::entry_for(&file, &text)?);
        }
        Cmd::Check { moves, model, part, out_dir } => {
            let model = match model {
                Some(p) => sparring::human_time::load(&p)?,
                None => sparring::human_time::builtin()?,
            };
            let want_fit = match part.as_str() {
                "fit" => true,
                "check" => false,
                other => return Err(format!("--part must be fit or check, not '{other}'")),
            };
            let rows: Vec<rows::MoveRow> =
                rows::read(&moves)?.into_iter().filter(|r| r.is_fit_part() == want_fit).collect();
            let (frac, diff) = check::tables(&model, &rows);
            write(&out_dir.join("fraction.csv"), &frac)?;
            write(&out_dir.join("difficulty.csv"), &diff)?;
            print!("{frac}\n{diff}");
        }
        Cmd::Curves { pgn, base_s, inc_s, out_dir } => {
            let (csv, md) = curves::report(&pgn, base_s, inc_s)?;
            write(&out_dir.join("curves.csv"), &csv)?;
            write(&out_dir.join("curves.md"), &md)?;
            print!("{md}");
        }
        Cmd::Controls { pgn, out } => {
            let all = crate::common::games::read_games(&pgn)?;
            if let Some(note) = crate::common::games::unread_note(&pgn, &all) {
                eprintln!("{note}");
            }
            let csv = time_control::controls_csv(&all);
            write(&out, &csv)?;
            let known = csv.lines().skip(1).filter(|l| !l.ends_with(',')).count();
            println!("{} games, {known} with a time control: {}", all.len(), out.display());
        }
    }
    Ok(())
}

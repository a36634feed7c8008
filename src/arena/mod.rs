//! `sparring match`: engine-vs-engine matches between UCI engines.

pub mod adjudicate;
pub mod engine;
pub mod game;
pub mod openings;
pub mod sprt;
pub mod stats;

pub fn main(_args: &[String]) -> std::process::ExitCode {
    eprintln!("not yet implemented");
    std::process::ExitCode::from(2)
}

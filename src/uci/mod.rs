//! UCI protocol front end.
pub mod bench {
    pub fn main(_a: &[String]) -> std::process::ExitCode {
        std::process::ExitCode::SUCCESS
    }
}
pub fn run_stdio() -> std::process::ExitCode {
    std::process::ExitCode::SUCCESS
}

//! TEMPORARY placeholder; filled in by its issue.

pub fn main(_args: &[String]) -> std::process::ExitCode {
    eprintln!("not yet implemented");
    std::process::ExitCode::from(2)
}

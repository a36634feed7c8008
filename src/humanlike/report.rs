//! SVG plots of `measure` CSVs.

use std::path::{Path, PathBuf};

pub fn run(_csv: &[PathBuf], _out_dir: &Path) -> Result<(), String> {
    Err("report: not written yet".into())
}

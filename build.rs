//! Tells the test suite which optional test data is present, so that tests needing absent data show
//! as ignored with their reason instead of passing silently:
//! - `cfg(shared_data)`: `../shared/data` (perft suite, Syzygy tables, test suites, human games),
//!   which a fresh clone does not have;
//! - `cfg(bench_data)`: the bench caches that `bench/unpack.sh` restores from the packed archives.
//!
//! `bench/unpack.sh` touches the tracked `bench/unpacked.stamp`, which is watched, so the next build
//! notices the caches. `../shared/data` is watched when it exists; a clone that gets it later
//! needs `touch build.rs` once (a watched path that does not exist would rebuild every time).

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rustc-check-cfg=cfg(bench_data)");
    println!("cargo::rerun-if-changed=build.rs");
    let shared = Path::new("../shared/data");
    if shared.is_dir() {
        println!("cargo::rustc-cfg=shared_data");
        println!("cargo::rerun-if-changed=../shared/data");
    }
    println!("cargo::rerun-if-changed=bench/unpacked.stamp");
    if Path::new("bench/humanlike/oracle.jsonl").is_file() {
        println!("cargo::rustc-cfg=bench_data");
    }
}

//! Tells the test suite which optional test data is present, so that tests needing absent data show
//! as ignored with their reason instead of passing silently, and where the repository root is:
//! - `cfg(shared_data)`: `../shared/data` beside the repository (perft suite, Syzygy tables, test
//!   suites, human games), which a fresh clone does not have;
//! - `cfg(bench_data)`: the bench caches that `bench/unpack.sh` restores from the packed archives;
//! - `SPARRING_REPO` (compile-time environment): the repository root, which the tests and the tools'
//!   in-tree fallbacks resolve their paths against (this crate lives in `tools/`).
//!
//! `bench/unpack.sh` touches the tracked `bench/unpacked.stamp`, which is watched, so the next build
//! notices the caches. `../shared/data` is watched when it exists; a clone that gets it later
//! needs `touch tools/build.rs` once (a watched path that does not exist would rebuild every time).

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_data)");
    println!("cargo::rustc-check-cfg=cfg(bench_data)");
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let repo = Path::new(&manifest).parent().expect("tools/ sits in the repository root");
    println!("cargo::rustc-env=SPARRING_REPO={}", repo.display());
    let shared = repo.join("../shared/data");
    if shared.is_dir() {
        println!("cargo::rustc-cfg=shared_data");
        println!("cargo::rerun-if-changed={}", shared.display());
    }
    println!("cargo::rerun-if-changed={}", repo.join("bench/unpacked.stamp").display());
    if repo.join("bench/humanlike/oracle.jsonl").is_file() {
        println!("cargo::rustc-cfg=bench_data");
    }
}

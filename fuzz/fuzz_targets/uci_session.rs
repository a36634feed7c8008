//! The UCI command handler driven as a session: the input is split into lines and fed to one
//! engine; searches are kept tiny so that each run is fast. Any panic is a bug.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sparring::uci::{Engine, Flow, Out};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = Engine::new(Out::new(Box::new(std::io::sink())));
    for line in text.split('\n').take(64) {
        // Keep every search short: unbounded searches are stopped by the next line anyway.
        let line = line.replace("infinite", "depth 2").replace("ponder", "depth 2");
        let line = if line.trim_start().starts_with("go") && !line.contains("depth") && !line.contains("nodes") {
            format!("{line} nodes 500")
        } else {
            line
        };
        if line.contains("Hash") || line.contains("bench") || line.contains("perft") {
            continue; // resource-heavy by design; covered by tests
        }
        if engine.handle(&line) == Flow::Quit {
            break;
        }
    }
    engine.stop_search();
});

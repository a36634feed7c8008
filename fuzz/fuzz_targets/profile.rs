//! The profile and ladder parsers: any text is accepted or rejected, never a panic; an accepted
//! ladder answers `at` for any Elo.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = sparring::profile::Profile::parse(&text) {
        let _ = p.eval_config();
        let _ = p.describe();
    }
    if let Ok(l) = sparring::profile::Ladder::parse(&text) {
        for elo in [i32::MIN, -1, 0, 800, 1500, 2400, i32::MAX] {
            let _ = l.at(elo);
        }
        let _ = l.elo_for_skill(7);
    }
});

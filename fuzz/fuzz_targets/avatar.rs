//! The `.avt` parser: any text is either accepted or rejected with a message, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(a) = sparring::profile::Avatar::parse(&text, "fuzz.avt") {
        let mut cfg = sparring::eval::EvalConfig::default();
        a.apply(&mut cfg);
        let _ = a.describe();
    }
});

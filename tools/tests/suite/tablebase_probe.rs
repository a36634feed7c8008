//! WDL/DTZ probes against the 200 reference positions (python-chess conventions) and the cases
//! where probing must give up.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};
use sparring::tablebase::{Tablebases, Wdl};
use std::path::Path;

const DATA: &str = concat!(env!("SPARRING_REPO"), "/../shared/data/syzygy");

fn tables() -> Option<Tablebases> {
    let dir = format!("{DATA}/3-4");
    if !Path::new(&dir).is_dir() {
        println!("skipped: ../shared/data not found");
        return None;
    }
    let mut tb = Tablebases::new();
    let report = tb.set_path(&dir).expect("3-4 tables load");
    assert!(report.messages.is_empty(), "{:?}", report.messages);
    assert_eq!(report.max_pieces, 4);
    assert_eq!(tb.max_pieces(), 4);
    Some(tb)
}

fn position(fen: &str) -> Chess {
    let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    fen.into_position(CastlingMode::Standard).unwrap_or_else(|e| panic!("illegal position: {e}"))
}

fn opcode(ops: &str, name: &str) -> i32 {
    ops.split(';')
        .map(str::trim)
        .find_map(|op| op.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {name} in {ops}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn all_reference_positions_agree() {
    let Some(tb) = tables() else { return };
    let file = format!("{DATA}/probe-tests-200.epd");
    let text = std::fs::read_to_string(&file).expect("probe-tests-200.epd");
    let mut checked = 0;
    let mut failures = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let fields: Vec<&str> = line.splitn(5, ' ').collect();
        let fen = format!("{} 0 1", fields[..4].join(" "));
        let ops = fields[4];
        let pos = position(&fen);
        let want_wdl = opcode(ops, "wdl");
        let want_dtz = opcode(ops, "dtz");
        let got_wdl = tb.probe_wdl(&pos).map(|w| w as i32);
        let got_dtz = tb.probe_dtz(&pos);
        if got_wdl != Some(want_wdl) || got_dtz != Some(want_dtz) {
            failures.push(format!("{fen}: wdl {got_wdl:?} (want {want_wdl}), dtz {got_dtz:?} (want {want_dtz})"));
        }
        checked += 1;
    }
    assert_eq!(checked, 200);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(tb.tb_hits(), 400);
    tb.reset_tb_hits();
    assert_eq!(tb.tb_hits(), 0);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn gives_up_on_too_many_pieces_and_castling_rights() {
    let Some(tb) = tables() else { return };
    // Five pieces with only 3-4 piece tables.
    let five = position("k7/8/8/8/8/8/8/KQRr4 w - - 0 1");
    assert_eq!(tb.probe_wdl(&five), None);
    assert_eq!(tb.probe_dtz(&five), None);
    assert!(tb.probe_root(&five, true).is_none());
    assert!(tb.best_root_move(&five).is_none());
    assert!(!tb.can_probe(&five));
    assert_eq!(tb.describe(&five), "Tablebase: not available (5 pieces > max 4)");
    // KRvK with castling rights: the tables have no such positions.
    let castling = position("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(tb.probe_wdl(&castling), None);
    assert_eq!(tb.probe_dtz(&castling), None);
    assert!(tb.probe_root(&castling, true).is_none());
    assert_eq!(tb.describe(&castling), "Tablebase: not available (castling rights)");
    // The same without castling rights is a win.
    let plain = position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(tb.probe_wdl(&plain), Some(Wdl::Win));
    assert_eq!(tb.tb_hits(), 1);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn probe_limit_restricts_probing() {
    let Some(tb) = tables() else { return };
    let krk = position("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    let kqkr = position("4k3/8/8/8/8/8/r7/3QK3 w - - 0 1");
    tb.set_probe_limit(3);
    assert_eq!(tb.cardinality(), 3);
    assert_eq!(tb.probe_wdl(&krk), Some(Wdl::Win));
    assert_eq!(tb.probe_wdl(&kqkr), None);
    assert_eq!(tb.describe(&kqkr), "Tablebase: not available (4 pieces > max 3)");
    tb.set_probe_limit(0);
    assert_eq!(tb.probe_wdl(&krk), None);
    tb.set_probe_limit(7);
    assert_eq!(tb.cardinality(), 4);
    assert!(tb.probe_wdl(&kqkr).is_some());
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs ../shared/data (a fresh clone has none)")]
fn describe_reports_table_result() {
    let Some(tb) = tables() else { return };
    // Black to move promotes with a win (reference: wdl 2, dtz 1).
    let pos = position("8/2K5/8/8/8/8/3p4/1k2N3 b - - 0 1");
    let line = tb.describe(&pos);
    assert!(line.starts_with("Tablebase: WDL win, DTZ 1, best move "), "{line}");
    let draw = position("8/8/3k4/8/8/3r4/8/K3R3 w - - 0 1");
    assert!(tb.describe(&draw).starts_with("Tablebase: WDL draw, DTZ 0"), "{}", tb.describe(&draw));
    // A KRvK win far from conversion becomes a cursed win late in the 50-move count.
    let late = position("8/8/8/8/4k3/8/8/R3K3 w - - 90 100");
    let line = tb.describe(&late);
    assert!(line.contains("(cursed win with halfmove clock 90)"), "{line}");
    assert_eq!(tb.tb_hits(), 0, "describe does not count as tbhits");
    assert_eq!(Tablebases::new().describe(&pos), "Tablebase: not available (no tables loaded)");
}

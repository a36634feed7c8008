//! Score and bound conventions of tablebase results, and sharing across threads.

use sparring::score::{MATE, MATE_BOUND, MAX_PLY, mate_moves};
use sparring::tablebase::{
    TB_CURSED_WIN, TB_WIN, TB_WIN_BOUND, Tablebases, TbBound, Wdl, is_tb_score, wdl_bound, wdl_to_score,
};
use std::sync::Arc;

#[test]
fn table_scores_sit_just_below_mate_scores() {
    assert_eq!(TB_WIN, MATE_BOUND - 1);
    assert_eq!(TB_WIN_BOUND, TB_WIN - MAX_PLY as i32);
    for ply in [0, 1, 17, MAX_PLY, MAX_PLY + 50] {
        let win = wdl_to_score(Wdl::Win, ply);
        let loss = wdl_to_score(Wdl::Loss, ply);
        assert_eq!(loss, -win);
        assert!((TB_WIN_BOUND..=TB_WIN).contains(&win), "{win}");
        assert!(is_tb_score(win) && is_tb_score(loss));
        assert_eq!(mate_moves(win), None, "not a mate score");
        assert!(win < MATE - MAX_PLY as i32);
    }
    assert_eq!(wdl_to_score(Wdl::Win, 3), TB_WIN - 3);
    assert!(wdl_to_score(Wdl::Win, 3) > wdl_to_score(Wdl::Win, 5), "nearer wins score higher");
    assert_eq!(wdl_to_score(Wdl::CursedWin, 9), TB_CURSED_WIN);
    assert_eq!(wdl_to_score(Wdl::BlessedLoss, 9), -TB_CURSED_WIN);
    assert_eq!(wdl_to_score(Wdl::Draw, 9), 0);
    assert!(!is_tb_score(0) && !is_tb_score(MATE - 1) && !is_tb_score(500));
}

#[test]
fn bounds_follow_the_usual_convention() {
    assert_eq!(wdl_bound(Wdl::Win), TbBound::Lower);
    assert_eq!(wdl_bound(Wdl::Loss), TbBound::Upper);
    for wdl in [Wdl::CursedWin, Wdl::Draw, Wdl::BlessedLoss] {
        assert_eq!(wdl_bound(wdl), TbBound::Exact);
    }
}

#[test]
fn shared_between_threads() {
    let tb = Arc::new(Tablebases::new());
    let other = Arc::clone(&tb);
    std::thread::spawn(move || {
        other.set_probe_limit(5);
        other.tb_hits()
    })
    .join()
    .unwrap();
    assert_eq!(tb.probe_limit(), 5);
    assert_eq!(tb.cardinality(), 0, "no tables loaded");
}

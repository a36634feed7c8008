//! The human move model's likelihood of a side's moves over a rating grid (estimator v3's reading,
//! `strength::likelihood`): known answers on a fixed game, the batched grid equal to one
//! evaluation per rating, the refined maximum and curvature, determinism.

use shakmaty::Position;
use sparring::human::maia3::{self, History};
use sparring_tools::common::games::read_games;
use sparring_tools::strength::likelihood::{DEFAULT_GRID, FROM_PLY, SideLikelihood, game_likelihood, read_csv};

/// A short club game (a Scotch), fixed here.
const GAME: &str = "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"1500\"]\n[BlackElo \"1500\"]\n[Result \"1-0\"]\n\n\
1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nf6 5. Nxc6 bxc6 6. e5 Qe7 7. Qe2 Nd5 8. c4 Ba6 9. b3 g6 10. Bb2 Bg7 1-0\n";

fn game() -> sparring_tools::common::games::GameRecord {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let path = std::env::temp_dir().join(format!("sparring-likelihood-{}-{call}.pgn", std::process::id()));
    std::fs::write(&path, GAME).unwrap();
    let games = read_games(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    games.into_iter().next().expect("one game")
}

#[test]
fn the_grid_sums_each_sides_moves_as_single_evaluations_do() {
    let model = maia3::builtin().unwrap();
    let g = game();
    let grid = [1000, 1500, 2000];
    let [white, black] = game_likelihood(model, &g, &grid, 0).unwrap();
    assert_eq!((white.moves, black.moves), (10, 10));
    // Recompute every ply with one evaluation per rating (no batching).
    let mut pos = g.root.clone();
    let mut sums = [[0.0f64; 3]; 2];
    for (ply, &mv) in g.moves.iter().enumerate() {
        let history = History::game(&g.root, &g.moves[..ply]).unwrap();
        for (k, &r) in grid.iter().enumerate() {
            let d = model.distribution(&history, r, r);
            sums[ply % 2][k] += d.iter().find(|p| p.mv == mv).unwrap().log_prob;
        }
        pos = pos.play(mv).unwrap();
    }
    for (side, s) in [(&white, sums[0]), (&black, sums[1])] {
        for k in 0..3 {
            assert!((side.ll[k] - s[k]).abs() < 1e-9, "{:?} vs {:?}", side.ll, s);
            assert!(side.ll[k] < 0.0);
        }
    }
    // Known answers (Maia-3 5M as shipped, bit-identical on every CPU): the first ten moves of
    // each side of this game at the three ratings.
    let expect = |s: &SideLikelihood, want: [f64; 3]| {
        for k in 0..3 {
            assert!((s.ll[k] - want[k]).abs() < 1e-6, "{:?} vs {want:?}", s.ll);
        }
    };
    expect(&white, KNOWN_WHITE);
    expect(&black, KNOWN_BLACK);
    // Skipping the opening: fewer moves, and a larger (less negative) sum.
    let [w8, _] = game_likelihood(model, &g, &grid, 8).unwrap();
    assert_eq!(w8.moves, 6);
    assert!(w8.ll.iter().zip(&white.ll).all(|(a, b)| a > b));
}

const KNOWN_WHITE: [f64; 3] = [-9.513378248560645, -7.875777068837589, -6.494920432491405];
const KNOWN_BLACK: [f64; 3] = [-11.559097408549793, -9.04270927302371, -5.91420619058621];

#[test]
fn the_maximum_is_refined_between_grid_points_and_the_curvature_is_negative_there() {
    let s = SideLikelihood {
        side: shakmaty::Color::White,
        grid: vec![1000, 1200, 1400, 1600],
        // A parabola with its top at 1250: -(x-1250)²/10000.
        ll: [1000.0, 1200.0, 1400.0, 1600.0].iter().map(|x: &f64| -(x - 1250.0).powi(2) / 10_000.0).collect(),
        moves: 20,
    };
    assert!((s.best() - 1250.0).abs() < 1e-9, "{}", s.best());
    assert!((s.curvature() - (-2.0)).abs() < 1e-9, "{}", s.curvature());
    assert!((s.on_scale((220.0, 1.13)) - (1250.0 - 220.0) / 1.13).abs() < 1e-9);
    // At an end of the grid the grid point itself, and no curvature.
    let edge = SideLikelihood { ll: vec![-1.0, -2.0, -3.0, -4.0], ..s.clone() };
    assert_eq!((edge.best(), edge.curvature()), (1000.0, 0.0));
    // Bad grids are refused.
    let g = game();
    let model = maia3::builtin().unwrap();
    assert!(game_likelihood(model, &g, &[1500, 1000], 0).is_err());
    assert!(game_likelihood(model, &g, &[], 0).is_err());
}

#[test]
fn the_default_grid_reads_the_same_twice() {
    let model = maia3::builtin().unwrap();
    let g = game();
    let a = game_likelihood(model, &g, &DEFAULT_GRID, 4).unwrap();
    let b = game_likelihood(model, &g, &DEFAULT_GRID, 4).unwrap();
    assert_eq!(a, b);
    for s in &a {
        assert!(s.best() >= DEFAULT_GRID[0] as f64 && s.best() <= DEFAULT_GRID[5] as f64);
    }
}

#[test]
fn the_csv_reads_back_as_the_exact_sums_and_serves_as_the_cache() {
    let dir = std::env::temp_dir().join(format!("sparring-likelihood-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Two games; the second's White has a comma in a quoted name.
    let pgn = dir.join("two.pgn");
    let second = GAME.replace("[White \"A\"]", "[White \"Smith, Ann\"]");
    std::fs::write(&pgn, format!("{GAME}\n{second}")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sparring"))
        .args(["strength", "likelihood"])
        .arg(&pgn)
        .args(["--every", "2", "--offset", "0"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "only game 2 (n % 2 == 0): {text}");
    assert!(text.lines().next().unwrap().ends_with(",ll_1000,ll_1360,ll_1720,ll_2080,ll_2440,ll_2800"));
    let cache = read_csv(&text).unwrap();
    let model = maia3::builtin().unwrap();
    let live = game_likelihood(model, &game(), &DEFAULT_GRID, FROM_PLY).unwrap();
    for s in &live {
        let read = &cache[&(2, s.side)];
        assert_eq!(read, s, "the CSV holds every sum exactly");
    }
    assert!(text.contains("\"Smith, Ann\""));
    // A CSV without the sums is refused.
    assert!(read_csv("game,color,moves\n1,white,3\n").is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

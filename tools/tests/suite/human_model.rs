//! The human move model: deterministic training, a planted preference recovered, bad model files
//! refused with the built-in model kept, and seeded ladder moves that use the model.

use crate::common::Uci;
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use shakmaty::{Chess, Move, Position, Role, Square};
use sparring::board::Game;
use sparring::human::v6::HumanModel;
use sparring_tools::common::games::GameRecord;
use sparring_tools::model::train::{TrainConfig, dataset, dataset_with, train};
use std::time::Duration;

/// The planted rule: players rated 1000 play a knight move when they have one, players rated
/// 2200 a pawn move; otherwise (and between rule moves) the game goes on at random.
fn planted(pos: &Chess, rating: u32, rng: &mut ChaCha20Rng) -> Move {
    let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
    let want = if rating < 1600 { Role::Knight } else { Role::Pawn };
    let liked: Vec<Move> = moves.iter().copied().filter(|m| m.role() == want).collect();
    let from = if liked.is_empty() { &moves } else { &liked };
    from[(rng.next_u64() % from.len() as u64) as usize]
}

/// Synthetic rated games that follow the planted rule.
fn games(n: usize, seed: u64) -> Vec<GameRecord> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let rating = if i % 2 == 0 { 1000 } else { 2200 };
            let mut g = GameRecord {
                white_elo: Some(rating),
                black_elo: Some(rating),
                white: format!("w{i}"),
                black: format!("b{i}"),
                ..Default::default()
            };
            let mut pos = Chess::default();
            for _ in 0..40 {
                if pos.is_game_over() {
                    break;
                }
                let m = planted(&pos, rating, &mut rng);
                g.legal_counts.push(pos.legal_moves().len() as u16);
                g.moves.push(m);
                pos.play_unchecked(m);
            }
            g
        })
        .collect()
}

fn cfg(jobs: usize) -> TrainConfig {
    TrainConfig { passes: 3, rate: 0.1, l2: 1e-5, seed: 7, jobs, hidden: 0, mirror: false, extra: None, fit_share: 100 }
}

/// With a small hidden layer (the network of model files from version 5).
fn cfg_hidden(jobs: usize) -> TrainConfig {
    TrainConfig { hidden: 8, ..cfg(jobs) }
}

#[test]
fn training_is_deterministic_whatever_the_jobs() {
    let g = games(120, 1);
    let (fit1, val1) = (dataset(&g, |i| i % 5 != 0, 1), dataset(&g, |i| i % 5 == 0, 1));
    let (fit2, val2) = (dataset(&g, |i| i % 5 != 0, 2), dataset(&g, |i| i % 5 == 0, 2));
    let a = train(&fit1, &val1, &cfg(1), "t", 1);
    let b = train(&fit2, &val2, &cfg(2), "t", 1);
    assert!(!a.hash_hex().is_empty());
    assert_eq!(a.hash_hex(), b.hash_hex(), "same data, seed and order: same weights file");
    let c = train(&fit1, &val1, &TrainConfig { seed: 8, ..cfg(1) }, "t", 1);
    assert_ne!(a.hash_hex(), c.hash_hex(), "the seed orders the passes, so it shows in the weights");
    let h1 = train(&fit1, &val1, &cfg_hidden(1), "t", 1);
    let h2 = train(&fit2, &val2, &cfg_hidden(2), "t", 1);
    assert_eq!(h1.hash_hex(), h2.hash_hex(), "the hidden layer's start is drawn from the seed too");
    assert_eq!(h1.header.hidden, 8);
    assert_ne!(h1.hash_hex(), a.hash_hex());
}

#[test]
fn mirroring_the_files_maps_legal_moves_onto_legal_moves() {
    use sparring::board::{mirror_files, mirror_files_move, parse_fen};
    // No castling rights: a middlegame, one with an en passant capture, one with a promotion.
    for fen in [
        "r4rk1/pp2bppp/2n1pn2/q1pp4/3P4/P1NBPN2/1PQ2PPP/R4RK1 w - - 0 12",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "8/1P4k1/8/8/8/8/6p1/4K2R b - - 0 1",
    ] {
        let pos = parse_fen(fen).unwrap();
        let twin = mirror_files(&pos).expect("no castling rights: mirrored");
        let mut want: Vec<String> =
            pos.legal_moves().iter().map(|&m| sparring::board::notation::uci(mirror_files_move(m).unwrap())).collect();
        let mut got: Vec<String> = twin.legal_moves().iter().map(|&m| sparring::board::notation::uci(m)).collect();
        want.sort();
        got.sort();
        assert_eq!(want, got, "{fen}");
        let back = mirror_files(&twin).unwrap();
        assert_eq!(back.board(), pos.board(), "mirroring twice is the identity");
        assert_eq!(back.ep_square(shakmaty::EnPassantMode::Legal), pos.ep_square(shakmaty::EnPassantMode::Legal));
    }
    let e5 = parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
    assert_eq!(mirror_files(&e5).unwrap().ep_square(shakmaty::EnPassantMode::Legal), Some(Square::E6));
    assert!(mirror_files(&Chess::default()).is_none(), "castling tells the wings apart");
    let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
    assert!(mirror_files_move(castle).is_none());
}

#[test]
fn mirrored_copies_add_positions_without_castling_rights_only() {
    let g = games(60, 3);
    let plain = dataset(&g, |_| true, 2);
    let with = dataset_with(&g, |_| true, 2, true);
    // Count the positions a mirror can take: a choice, and no castling rights two plies back.
    let mut expected = 0;
    for r in &g {
        let mut pos = Chess::default();
        let mut rights = vec![];
        for (ply, (&m, &n)) in r.moves.iter().zip(&r.legal_counts).enumerate() {
            rights.push(!pos.castles().is_empty());
            if n >= 2 && ply >= 2 && !rights[ply - 2] {
                expected += 1;
            }
            pos.play_unchecked(m);
        }
    }
    assert!(expected > 0, "the synthetic games lose their castling rights");
    assert_eq!(with.len(), plain.len() + expected);
    let one = dataset_with(&g, |_| true, 1, true);
    let a = train(&one, &plain, &cfg(1), "t", 1);
    let b = train(&with, &plain, &cfg(2), "t", 1);
    assert_eq!(a.hash_hex(), b.hash_hex(), "mirrored data is built the same whatever the jobs");
}

#[test]
fn a_planted_preference_is_recovered_and_bends_with_rating() {
    let g = games(400, 2);
    let (fit, val) = (dataset(&g, |i| i % 5 != 0, 2), dataset(&g, |i| i % 5 == 0, 2));
    for config in [cfg(2), cfg_hidden(2)] {
        planted_is_recovered(&train(&fit, &val, &config, "t", 1));
    }
}

fn planted_is_recovered(model: &HumanModel) {
    // Fresh positions (another seed) with both a knight and a pawn move available.
    let mut rng = ChaCha20Rng::seed_from_u64(99);
    let (mut n, mut knight_low, mut pawn_high) = (0, 0, 0);
    for _ in 0..60 {
        let mut pos = Chess::default();
        let mut played = Vec::new();
        for _ in 0..(rng.next_u64() % 30) {
            let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next_u64() % moves.len() as u64) as usize];
            pos.play_unchecked(m);
            played.push(m);
        }
        let game = Game::with_moves(Chess::default(), &played);
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        if !moves.iter().any(|m| m.role() == Role::Knight) || !moves.iter().any(|m| m.role() == Role::Pawn) {
            continue;
        }
        let top = |rating: f64| {
            let lp = model.game_log_probs(&mut sparring::search::Searcher::for_look(), &game, &moves, rating);
            moves[(0..lp.len()).fold(0, |b, i| if lp[i] > lp[b] { i } else { b })].role()
        };
        n += 1;
        knight_low += usize::from(top(1000.0) == Role::Knight);
        pawn_high += usize::from(top(2200.0) == Role::Pawn);
    }
    assert!(n >= 30, "only {n} test positions");
    let h = model.header.hidden;
    assert!(knight_low * 10 >= n * 9, "hidden {h}, rated 1000: knight move on top in {knight_low} of {n}");
    assert!(pawn_high * 10 >= n * 9, "hidden {h}, rated 2200: pawn move on top in {pawn_high} of {n}");
}

#[test]
fn the_shipped_models_load_and_a_changed_byte_is_caught() {
    use sparring::profile::human_model::{
        LATEST, NAME, builtin, builtin_file, builtin_files, check_manifest, versions,
    };
    let m = sparring::profile::Manifest::builtin();
    assert_eq!(versions().last(), Some(&LATEST));
    for (v, (file, bytes)) in versions().into_iter().zip(builtin_files()) {
        let model = builtin(v).expect("every shipped model loads and matches the manifest");
        assert_eq!((model.header.name.as_str(), model.header.version), (NAME, v), "{file}");
        assert_eq!(builtin_file(v).map(|f| f.0), Some(file));
        // Corrupting any byte of the file is caught: the weights by the manifest hash, the header
        // by the parser.
        let mut bytes = bytes.to_vec();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let e = check_manifest(&m, file, &bytes).unwrap_err();
        assert!(e.contains("changed without a new version"), "{e}");
        assert!(HumanModel::from_bytes(&bytes[..100]).is_err());
    }
    let e = builtin(99).unwrap_err();
    assert!(e.contains("not shipped") && e.contains(&LATEST.to_string()), "{e}");
    // The built-in ladder names a shipped model (v7 is Maia-3's weights, v4-v6 these files).
    let ladder = sparring::profile::Ladder::builtin();
    match ladder.human_model.expect("the ladder chooses with a model") {
        sparring::human::maia3::VERSION => assert!(sparring::human::maia3::builtin().is_ok()),
        v => assert!(builtin(v).is_ok()),
    }
}

fn play(uci: &mut Uci, position: &str) -> String {
    uci.send(position);
    uci.send("go nodes 5000");
    uci.bestmove(Duration::from_secs(60)).0
}

#[test]
fn bad_model_files_are_refused_and_the_built_in_model_stays() {
    let dir = std::env::temp_dir().join(format!("sparring-hm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, b"not a model at all").unwrap();
    let truncated = dir.join("truncated.bin");
    // A model file of the newest file format (a ladder on Maia-3 keeps it as the fallback).
    let version = sparring::profile::human_model::LATEST;
    let (_, bytes) = sparring::profile::human_model::builtin_file(version).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();

    let position = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6";
    let mut reference = Uci::start();
    for cmd in [
        "uci",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name Seed value 4242",
    ] {
        reference.send(cmd);
    }
    reference.isready();
    let expected = play(&mut reference, position);

    let mut uci = Uci::start();
    for cmd in [
        "uci",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1500",
        "setoption name Seed value 4242",
    ] {
        uci.send(cmd);
    }
    for (path, why) in [
        (dir.join("missing.bin"), "human model file"),
        (corrupt.clone(), "bad magic"),
        (truncated.clone(), "weight bytes"),
    ] {
        uci.send(&format!("setoption name Human Model File value {}", path.display()));
        let lines = uci.wait_for(Duration::from_secs(10), |l| {
            l.contains("Human Model File rejected") || l.contains("Human Model File: loaded")
        });
        let last = lines.last().cloned().unwrap_or_default();
        assert!(last.contains("rejected") && last.contains(why) && last.contains("built-in model stays"), "{last}");
    }
    uci.isready();
    assert_eq!(play(&mut uci, position), expected, "after refused files the built-in model plays, as before");
    // A valid file loads (the shipped v6, copied) and chooses in place of the ladder's model: the
    // same moves as the built-in ladder naming that model itself (`Ladder File`).
    let copy = dir.join("copy.bin");
    std::fs::write(&copy, bytes).unwrap();
    uci.send(&format!("setoption name Human Model File value {}", copy.display()));
    let lines = uci.wait_for(Duration::from_secs(10), |l| {
        l.contains("Human Model File rejected") || l.contains("Human Model File: loaded")
    });
    assert!(lines.last().is_some_and(|l| l.contains("loaded")), "{lines:?}");
    uci.isready();
    let with_file = play(&mut uci, position);
    let text =
        std::fs::read_to_string(std::path::Path::new(env!("SPARRING_REPO")).join("profiles/ladder.toml")).unwrap();
    let named = dir.join("ladder-naming-the-file.toml");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines.iter().position(|l| l.starts_with("human_model")).expect("the ladder names its model");
    lines[at] = format!("human_model = {version}");
    std::fs::write(&named, lines.join("\n")).unwrap();
    let mut other = Uci::start();
    for cmd in [
        "uci".to_string(),
        format!("setoption name Ladder File value {}", named.display()),
        "setoption name UCI_LimitStrength value true".to_string(),
        "setoption name UCI_Elo value 1500".to_string(),
        "setoption name Seed value 4242".to_string(),
    ] {
        other.send(&cmd);
    }
    other.isready();
    assert_eq!(with_file, play(&mut other, position), "the file's model chooses, as a ladder naming it would");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_gives_the_same_moves_with_the_model_across_processes() {
    let positions = [
        "position startpos moves e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3",
        "position startpos moves d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3",
        "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f6e4 d2d4",
    ];
    let run = |elo: i32| -> Vec<String> {
        let mut uci = Uci::start_level(elo, 99);
        uci.isready();
        positions.iter().map(|p| play(&mut uci, p)).collect()
    };
    for elo in [1100, 1700] {
        let (a, b) = (run(elo), run(elo));
        assert_eq!(a, b, "UCI_Elo {elo}: two processes, same seed, same moves");
        for (p, m) in positions.iter().zip(&a) {
            assert!(crate::common::is_legal_after(p.trim_start_matches("position "), m), "{p}: {m}");
        }
    }
}

#[test]
fn a_decided_position_leaves_the_model_out() {
    use sparring::player::{Player, Setting};
    use sparring::search::RootMove;
    let player = Player::level(1500);
    let Setting::Level(level) = &player.setting else { unreachable!() };
    let Some(h) = level.human.as_ref() else {
        eprintln!("skipped: the built-in ladder's 1500 point does not use the human move model");
        return;
    };
    let game = Game::new(Chess::default());
    let root = |best: i32| -> Vec<RootMove> {
        game.pos()
            .legal_moves()
            .into_iter()
            .enumerate()
            .map(|(i, mv)| RootMove {
                mv,
                score: if i == 0 { best } else { best - 40 - i as i32 },
                pv: vec![mv],
                depth: 1,
            })
            .collect()
    };
    for best in [600, 900, -600, -2000, sparring::score::mate_in(3)] {
        let (choice, bias) = player.choice_for(
            &mut sparring::search::Searcher::for_look(),
            &game,
            &root(best),
            None,
            level.choice.clone(),
        );
        assert_eq!(choice.lambda, Some(h.decided_lambda), "best {best}: value alone");
        assert!(bias.is_none(), "best {best}: no model bias");
    }
    for best in [0, 120, -599, 599] {
        let (choice, bias) = player.choice_for(
            &mut sparring::search::Searcher::for_look(),
            &game,
            &root(best),
            None,
            level.choice.clone(),
        );
        assert_eq!(choice.lambda, level.choice.lambda, "best {best}");
        let bias = bias.expect("a balanced position weights the model");
        assert_eq!(bias.len(), 20);
        assert!(bias.iter().all(|b| b.is_finite() && *b <= 0.0), "beta times a log-probability: {bias:?}");
    }
}

/// Games of the planted rule whose players carry other ratings: the knight players (the rule's
/// 1000s) are listed at `low`, the pawn players (its 2200s) at `high`.
fn relabelled(n: usize, seed: u64, low: u32, high: u32) -> Vec<GameRecord> {
    let mut g = games(n, seed);
    for r in &mut g {
        let listed = if r.white_elo == Some(1000) { low } else { high };
        (r.white_elo, r.black_elo) = (Some(listed), Some(listed));
    }
    g
}

#[test]
fn a_second_population_gets_its_own_rating_map() {
    use sparring_tools::model::train::{RatingMap, fit_rating_map};
    let g = games(300, 3);
    let model = train(&dataset(&g, |i| i % 5 != 0, 2), &dataset(&g, |i| i % 5 == 0, 2), &cfg(2), "t", 1);
    // The same players listed 800 points higher: the identity would put the knight players in
    // the pawn players' range (the rule switches at 1600).
    let other = relabelled(240, 4, 1800, 3000);
    let d1 = dataset(&other, |_| true, 1);
    let map = fit_rating_map(&model, &d1, 1);
    assert_eq!(map, fit_rating_map(&model, &dataset(&other, |_| true, 2), 2), "the map does not depend on the jobs");
    assert_eq!(map.points.len(), 2, "two bands with enough positions: {map:?}");
    assert!(map.apply(1800.0) < 1500.0, "the knight players map below the rule's switch: {}", map.describe());
    assert!(map.apply(3000.0) > 1700.0, "the pawn players map above it: {}", map.describe());
    assert!(map.points.windows(2).all(|w| w[0].1 <= w[1].1), "non-decreasing: {}", map.describe());
    // Between the points the map is linear; outside them it keeps the end point's offset.
    let m = RatingMap { points: vec![(1000.0, 1300.0), (2000.0, 1900.0)] };
    assert_eq!(m.apply(1500.0), 1600.0);
    assert_eq!(m.apply(900.0), 1200.0);
    assert_eq!(m.apply(2100.0), 2000.0);
}

#[test]
fn knot_logits_are_the_logits_at_each_knot() {
    let g = games(60, 5);
    let d = dataset(&g, |_| true, 1);
    let model = train(&d, &d, &TrainConfig { passes: 1, ..cfg_hidden(1) }, "t", 1);
    let mut pos = Chess::default();
    let mut rng = ChaCha20Rng::seed_from_u64(6);
    for _ in 0..12 {
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        let mut board = Vec::new();
        sparring::human::v6::network::board_inputs(&pos, &mut board);
        let feats: Vec<Vec<u32>> =
            moves.iter().map(|&m| vec![m.from().map_or(0, u32::from), u32::from(m.to())]).collect();
        let at = model.knot_logits_of(&board, feats.iter().map(Vec::as_slice));
        for (k, &r) in model.knots().iter().enumerate() {
            assert_eq!(at[k], model.logits_of(&board, feats.iter().map(Vec::as_slice), r), "knot {r}");
        }
        pos.play_unchecked(moves[(rng.next_u64() % moves.len() as u64) as usize]);
    }
}

#[test]
fn a_fit_share_keeps_fit_games_only_spread_over_the_file_and_nested() {
    use sparring_tools::model::train::{Part, in_fit_share, part_of};
    let kept = |share: u32| (0..20_000).filter(|&i| in_fit_share(i, share)).collect::<Vec<usize>>();
    let all = kept(100);
    assert_eq!(all.len(), (0..20_000).filter(|&i| part_of(i) == Part::Fit).count());
    let quarter = kept(25);
    let half = kept(50);
    // A quarter of the fit games, never a validation or test game, and inside the half.
    assert_eq!(quarter.len() * 4, all.len());
    assert!(quarter.iter().all(|&i| part_of(i) == Part::Fit && half.contains(&i)));
    // Spread over the file: some kept game in every tenth of it.
    for tenth in 0..10 {
        assert!(quarter.iter().any(|&i| i / 2000 == tenth), "no kept game in tenth {tenth}");
    }
}

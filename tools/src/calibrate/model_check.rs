//! `sparring calibrate model-check`: each ladder point's exact expected figures on the held-out
//! test part, judged by one oracle or several side by side.
//!
//! `calibrate check` plays every position once (one seeded draw of the point's choice), so its
//! mean loss carries the draw's noise on top of the positions'. Here each position is searched as
//! the point searches it in play (the same searches as `model fit`), and the point's choice is
//! its probability of every root move, so the mean loss, the loss distribution (for KS) and the
//! match with the human's move are the point's expectation on those positions, with no draw left
//! in them. A position is searched once and judged by every oracle that scores it; each oracle
//! keeps its own eligible positions (as `check` on that oracle does). With `--decisions-out` every
//! decision is written (oracle, band, elo, game, ply, the point's expected loss, the human's loss,
//! the point's chance of the human's move) for intervals resampled by game
//! (`bench/humanlike/point_ci.py --expected`).

use super::model_fit::{Target, curve_targets, decide, expected, point_level, probabilities, usable};
use crate::common::bands::eligible;
use crate::common::scored::{OraclePosition, load_oracle};
use crate::common::split::{Part, part_of_index as part_of};
use sparring::profile::Ladder;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What `model check` is asked to do.
pub struct CheckArgs<'a> {
    pub ladder: &'a Path,
    /// NAME=FILE pairs: each oracle's name in the output and its cache.
    pub oracles: Vec<(String, PathBuf)>,
    pub pgn: &'a Path,
    pub pairs: Vec<(u32, i32)>,
    /// Which part's games: the test part (held out from every fit) unless told otherwise.
    pub part: Part,
    pub jobs: usize,
    pub out: &'a Path,
    pub decisions_out: Option<&'a Path>,
    /// Every decision's per-move view as JSON lines (oracle, band, elo and the decision).
    pub moves_out: Option<&'a Path>,
    /// With [`Target::Curve`] each row also holds the mean loss against the humans' curve at the
    /// point's Elo, fitted on the same part of the same oracle's cache.
    pub mean_target: Target,
}

/// Parses `NAME=FILE` (the `--oracle` argument of `model check`).
pub fn parse_oracle(text: &str) -> Result<(String, PathBuf), String> {
    let (name, file) = text.split_once('=').ok_or_else(|| format!("--oracle '{text}': expected NAME=FILE"))?;
    let name = name.trim();
    if name.is_empty() || name.contains(',') || file.trim().is_empty() {
        return Err(format!("--oracle '{text}': expected NAME=FILE (a name without commas)"));
    }
    Ok((name.to_string(), PathBuf::from(file.trim())))
}

/// The CSV header of the summary.
pub const HEADER: &str = "oracle,band,elo,n,mean_loss,human_mean_loss,mean_error_pct,ks,match_rate,blunder_pct,human_blunder_pct,\
curve_mean_loss,curve_error_pct";

pub fn run(args: &CheckArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(args.ladder).map_err(|e| format!("{}: {e}", args.ladder.display()))?;
    let ladder = Ladder::parse(&text).map_err(|e| format!("{}: {e}", args.ladder.display()))?;
    if args.oracles.is_empty() {
        return Err("model check: no --oracle given".into());
    }
    let games = crate::common::games::read_games(args.pgn)?;
    // Each oracle's eligible positions of the part, by band.
    let mut sets: Vec<(String, BTreeMap<u32, Vec<OraclePosition>>)> = Vec::new();
    let elos: Vec<i32> = args.pairs.iter().map(|&(_, e)| e).collect();
    let mut curves = Vec::new();
    for (name, path) in &args.oracles {
        let all = load_oracle(path)?;
        let part = if args.part == Part::Validation { Part::Fit } else { args.part };
        // The curve columns only report: a cache too thin for a curve leaves them empty.
        curves.push(curve_targets(args.mean_target, &eligible(&all, None), &games, part, &elos).unwrap_or_else(|e| {
            eprintln!("model check: oracle {name}: no curve columns ({e})");
            None
        }));
        let mut by_band: BTreeMap<u32, Vec<OraclePosition>> = BTreeMap::new();
        for p in eligible(&all, None).into_iter().filter(|p| part_of(p.pos.game) == args.part) {
            by_band.entry(p.pos.band).or_default().push(p);
        }
        sets.push((name.clone(), by_band));
    }
    let mut csv = format!("{HEADER}\n");
    let mut rows = String::from("oracle,band,elo,game,ply,expected_loss,human_loss,p_human\n");
    let mut moves = String::new();
    println!(
        "{:<10} {:>4} {:>5} {:>5} {:>9} {:>9} {:>8} {:>6} {:>7} {:>7} {:>8}",
        "oracle", "band", "elo", "n", "loss", "people", "error", "KS", "match", "curve", "vs curve"
    );
    for &(band, elo) in &args.pairs {
        let (level, now) = point_level(&ladder, elo)?;
        // Every oracle's usable positions of the band, each searched once.
        let band_sets: Vec<Vec<&OraclePosition>> = sets
            .iter()
            .map(|(_, by_band)| usable(by_band.get(&band).map(Vec::as_slice).unwrap_or_default(), &games))
            .collect();
        let t0 = std::time::Instant::now();
        let judged = decide(&level, &band_sets, &games, (args.jobs, &[]));
        eprintln!("model check: band {band} point {elo}: searched in {:.0} s", t0.elapsed().as_secs_f64());
        for (((name, _), ds), curve) in sets.iter().zip(&judged).zip(&curves) {
            let refs: Vec<&super::model_fit::Decision> = ds.iter().collect();
            let e = expected(&refs, &now);
            if e.n == 0 {
                eprintln!("model check: oracle {name}, band {band}: no positions of the part");
                continue;
            }
            let err = 100.0 * (e.mean - e.human_mean) / e.human_mean.max(1e-9);
            let c = curve.as_ref().and_then(|m| m.get(&elo).copied());
            let (c_csv, c_err_csv, c_text) = match c {
                Some(c) => {
                    let ce = 100.0 * (e.mean - c) / c.max(1e-9);
                    (format!("{c:.2}"), format!("{ce:.1}"), format!("{c:>7.1} {ce:>+7.1}%"))
                }
                None => (String::new(), String::new(), String::new()),
            };
            let _ = writeln!(
                csv,
                "{name},{band},{elo},{},{:.2},{:.2},{err:.1},{:.4},{:.4},{:.2},{:.2},{c_csv},{c_err_csv}",
                e.n,
                e.mean,
                e.human_mean,
                e.ks,
                e.match_rate,
                100.0 * e.blunder,
                100.0 * e.human_blunder
            );
            println!(
                "{name:<10} {band:>4} {elo:>5} {:>5} {:>9.1} {:>9.1} {:>+7.1}% {:>6.3} {:>7.3} {c_text}",
                e.n, e.mean, e.human_mean, err, e.ks, e.match_rate
            );
            if args.moves_out.is_some() {
                for d in ds {
                    let mut v = d.to_json();
                    v["oracle"] = serde_json::json!(name);
                    v["band"] = serde_json::json!(band);
                    v["elo"] = serde_json::json!(elo);
                    let _ = writeln!(moves, "{v}");
                }
            }
            for d in ds {
                let probs = probabilities(d, &now);
                let loss: f64 = probs.iter().zip(&d.loss).map(|(q, l)| q * f64::from(*l)).sum();
                let _ = writeln!(
                    rows,
                    "{name},{band},{elo},{},{},{loss:.3},{},{:.5}",
                    d.key.0, d.key.1, d.human_loss, probs[d.human]
                );
            }
        }
    }
    std::fs::write(args.out, csv).map_err(|e| format!("{}: {e}", args.out.display()))?;
    if let Some(path) = args.decisions_out {
        std::fs::write(path, rows).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = args.moves_out {
        std::fs::write(path, moves).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

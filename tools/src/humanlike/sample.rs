//! Deterministic, band-stratified sampling of positions from rated human games.
//!
//! Candidates are the positions before a human's move at ply ≥ `min_ply` where the mover has
//! more than one legal move and the mover's rating lies in one of the bands. Per band, candidates
//! are grouped by *player-game* (game, colour). Groups are put in a seeded hash order and plies
//! inside a group likewise; then positions are taken round-robin — one from every group, then a
//! second from every group, … — until the band has `per_band` positions or every group has given
//! `max_per_game`. So a band with many games takes one position per player-game, and a thin band
//! (2200–2399 has ~100 player-games) takes several per game, spread at random over the game.

use crate::common::bands::band_of;
use crate::common::scored::SampledPosition;
use shakmaty::{Color, Position};
use sparring::board::notation::{fen as fen_of, uci as uci_of};
use std::collections::BTreeMap;

pub use crate::common::games::{GameRecord, read_games};

/// Parses `NAME=ELO` (the `--player` argument).
pub fn parse_player_rating(text: &str) -> Result<(String, u32), String> {
    let (name, elo) = text.rsplit_once('=').ok_or_else(|| format!("--player '{text}': expected NAME=ELO"))?;
    let elo: u32 = elo.trim().parse().map_err(|_| format!("--player '{text}': '{elo}' is not a rating"))?;
    if name.trim().is_empty() {
        return Err(format!("--player '{text}': empty name"));
    }
    Ok((name.trim().to_string(), elo))
}

/// Sampling parameters.
#[derive(Clone, Debug)]
pub struct SampleConfig {
    pub bands: Vec<u32>,
    pub per_band: usize,
    /// Per-band overrides of `per_band` (band lower bound → count), for bands where the oracle's
    /// eligibility filter removes more (weak players reach decided positions more often).
    pub band_counts: BTreeMap<u32, usize>,
    pub min_ply: u32,
    pub max_per_game: usize,
    pub seed: u64,
    /// Only games of this part of the file (by game index, as the human move model splits it).
    pub part: Option<crate::common::split::Part>,
    /// (game, ply) pairs never to take again: those of an earlier sample that this one extends.
    pub exclude: std::collections::BTreeSet<(usize, u32)>,
    /// Leave out the moves of known computer accounts (every human target leaves them out anyway).
    pub people_only: bool,
}

/// Seeded hash used as a shuffle key.
fn order_key(seed: u64, tag: &str, a: u64, b: u64) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"sparring humanlike sample v1");
    h.update(&seed.to_le_bytes());
    h.update(tag.as_bytes());
    h.update(&a.to_le_bytes());
    h.update(&b.to_le_bytes());
    *h.finalize().as_bytes()
}

/// Chooses (game, ply) pairs per band. Returned sorted by (band, game, ply).
pub fn choose(games: &[GameRecord], cfg: &SampleConfig) -> BTreeMap<u32, Vec<(usize, u32)>> {
    // band -> (game, colour) -> candidate plies
    let mut groups: BTreeMap<u32, BTreeMap<(usize, bool), Vec<u32>>> = BTreeMap::new();
    for (gi, g) in games.iter().enumerate() {
        if cfg.part.is_some_and(|part| crate::common::split::part_of_index(gi) != part) {
            continue;
        }
        for (ply, &n) in g.legal_counts.iter().enumerate() {
            let ply = ply as u32;
            if ply < cfg.min_ply || n < 2 || cfg.exclude.contains(&(gi, ply)) {
                continue;
            }
            let color = g.mover(ply as usize);
            let Some(r) = g.rating(color) else { continue };
            if cfg.people_only && crate::common::games::is_computer(g.mover_name(ply as usize)) {
                continue;
            }
            let band = band_of(r);
            if !cfg.bands.contains(&band) {
                continue;
            }
            groups.entry(band).or_default().entry((gi, color == Color::White)).or_default().push(ply);
        }
    }
    let mut out = BTreeMap::new();
    for &band in &cfg.bands {
        let want = cfg.band_counts.get(&band).copied().unwrap_or(cfg.per_band);
        let mut chosen = Vec::new();
        if let Some(by_game) = groups.remove(&band) {
            let mut list: Vec<((usize, bool), Vec<u32>)> = by_game.into_iter().collect();
            list.sort_by_key(|((g, w), _)| order_key(cfg.seed, "group", *g as u64, u64::from(*w)));
            for ((g, _), plies) in list.iter_mut() {
                plies.sort_by_key(|&p| order_key(cfg.seed, "ply", *g as u64, u64::from(p)));
            }
            'rounds: for round in 0..cfg.max_per_game {
                let mut any = false;
                for ((g, _), plies) in &list {
                    if let Some(&p) = plies.get(round) {
                        any = true;
                        chosen.push((*g, p));
                        if chosen.len() >= want {
                            break 'rounds;
                        }
                    }
                }
                if !any {
                    break;
                }
            }
        }
        chosen.sort();
        out.insert(band, chosen);
    }
    out
}

/// Builds the position records for the chosen (game, ply) pairs.
pub fn build_positions(games: &[GameRecord], chosen: &BTreeMap<u32, Vec<(usize, u32)>>) -> Vec<SampledPosition> {
    let mut out = Vec::new();
    for (&band, picks) in chosen {
        for &(gi, ply) in picks {
            let g = &games[gi];
            let pos = g.position(ply as usize).expect("chosen plies are inside the game");
            let rating = g.rating(pos.turn()).expect("chosen positions have a rating");
            out.push(SampledPosition {
                fen: fen_of(&pos),
                human: uci_of(g.moves[ply as usize]),
                rating,
                band,
                game: gi,
                ply,
            });
        }
    }
    out
}

/// Summary line per band: positions, distinct player-games, most positions from one player-game.
pub fn summary(positions: &[SampledPosition]) -> Vec<(u32, usize, usize, usize)> {
    let mut per: BTreeMap<u32, BTreeMap<(usize, u32), usize>> = BTreeMap::new();
    for p in positions {
        *per.entry(p.band).or_default().entry((p.game, p.ply % 2)).or_default() += 1;
    }
    per.into_iter().map(|(b, m)| (b, m.values().sum(), m.len(), m.values().copied().max().unwrap_or(0))).collect()
}

//! `sparring model train|eval`: trains and evaluates the human move model
//! ([`sparring::human::v6`]) on rated games.
//!
//! **Data.** Every move of every game in the PGN whose mover has a rating, is not a computer
//! account ([`crate::common::games::is_computer`]) and had a choice (≥ 2 legal moves). The games are
//! split by their index in the file, so no game is in two parts: index mod 10 in 0..=6 is the fit
//! part, 7 the validation part (it picks the pass and the penalty), 8 and 9 the test part, which
//! only `eval` reads. The humanlike bench's positions come from the same file with the same game
//! indices, so the same split holds there.
//!
//! **Training.** Maximum likelihood of the human's move under the softmax, with an L2 penalty,
//! by AdaGrad over the fit part: passes in an order shuffled from a fixed seed, one position at a
//! time, the gradient of a position summed before it is applied. Features are extracted in
//! parallel but applied in a fixed order, so the weights (and the file's hash) do not depend on
//! the number of jobs or the machine. After each pass the validation log-likelihood is measured
//! and the best pass's weights are kept.
//!
//! **Mirrored copies** (`--mirror`, fit part only). Once neither side may castle, nothing in the
//! rules tells the a-side from the h-side, so a position and its file-mirrored twin ask the same
//! question; the fit part can then also learn from each such position mirrored, with the human's
//! move and the two moves before it mirrored with it. The validation and test parts are never
//! mirrored.
//!
//! **A second population** (`--extra-pgn`, e.g. the FIDE-rated players' online games). Its games
//! are split the same way by their index in their own file, and only its fit part joins the fit
//! part; the main file's validation part still picks the pass, so results stay comparable. Its
//! ratings are on another scale, so the population gets a rating term of its own: a
//! piecewise-linear map from its ratings to the main scale ([`RatingMap`]), fitted before training
//! by maximum likelihood — for each 200-point band of its fit part, the main-scale rating at
//! which an existing model ([`Extra::map_model`], by default the newest built-in one) gives that
//! band's moves the highest likelihood, made non-decreasing. Its moves are trained at the mapped
//! ratings, so the model's knots keep the main population's meaning.

use crate::common::games::replay;
use crate::common::games::{GameRecord, is_computer};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use shakmaty::{Chess, Color, Move, Position};
use sparring::board::Game;
use sparring::board::notation::uci as uci_of;
use sparring::human::v6::{Hidden, History, HumanModel, features, look, network};
use sparring::search::Searcher;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The one split of a games file (by 0-based index here): `common::split`.
pub use crate::common::split::{Part, part_of_index as part_of};

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub passes: usize,
    /// AdaGrad step.
    pub rate: f64,
    /// L2 penalty per weight and position touched.
    pub l2: f64,
    pub seed: u64,
    pub jobs: usize,
    /// Units of the hidden layer (0: a linear model, as before version 5).
    pub hidden: usize,
    /// Also fit on the file-mirrored copy of every position without castling rights.
    pub mirror: bool,
    /// A second population's games for the fit part (see the module text), and the model that
    /// maps their ratings onto the main file's scale.
    pub extra: Option<Extra>,
    /// Percent of the main file's fit-part games to learn from (100: all; an extra population
    /// always joins whole), for learning curves and for a model that leaves games unseen: a fit game
    /// is kept when `(index / 10) % 100 < fit_share`, so every share is spread over the whole
    /// file and a smaller share's games are a subset of a larger one's. Validation is never cut.
    pub fit_share: u32,
}

pub use sparring::profile::human_model::in_fit_share;

/// Games of another population (another server, another rating list) that join the fit part.
#[derive(Clone, Debug)]
pub struct Extra {
    pub pgn: std::path::PathBuf,
    /// The model whose likelihood fits the rating map ([`fit_rating_map`]).
    pub map_model: std::sync::Arc<HumanModel>,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            passes: 4,
            rate: 0.05,
            l2: 1e-6,
            seed: 1,
            jobs: 2,
            hidden: 0,
            mirror: false,
            extra: None,
            fit_share: 100,
        }
    }
}

/// One position of a data set.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Index of its first move in `move_starts`.
    first: u32,
    moves: u16,
    human: u16,
    rating: u16,
    ply: u16,
    /// Index of its first board input in `board`, and how many.
    board_at: u32,
    pieces: u8,
}

/// Positions with their moves' features, stored flat.
#[derive(Default)]
pub struct Dataset {
    samples: Vec<Sample>,
    /// Start of each move's features in `feats` (one more entry than moves).
    move_starts: Vec<u32>,
    feats: Vec<u16>,
    /// Each position's board inputs ([`network::board_inputs`]), stored flat.
    board: Vec<u16>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Adds a position: the legal moves of `game`'s position in shakmaty's order (with their
    /// look), the one the human played.
    pub fn push(&mut self, look_searcher: &mut Searcher, game: &Game, human: Move, rating: u32, ply: u32) {
        let pos = game.pos();
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        let Some(h) = moves.iter().position(|&m| m == human) else { return };
        if self.move_starts.is_empty() {
            self.move_starts.push(0);
        }
        let first = (self.move_starts.len() - 1) as u32;
        let board_at = self.board.len() as u32;
        let mut inputs = Vec::with_capacity(32);
        network::board_inputs(pos, &mut inputs);
        self.board.extend(inputs.iter().map(|&i| i as u16));
        let ctx = features::Context::new(pos, History::of(game));
        let values = features::values(&look(look_searcher, game, &moves));
        let mut buf = Vec::with_capacity(features::MAX_ACTIVE);
        for (&m, &v) in moves.iter().zip(&values) {
            buf.clear();
            ctx.features(m, Some(v), &mut buf);
            self.feats.extend(buf.iter().map(|&f| f as u16));
            self.move_starts.push(self.feats.len() as u32);
        }
        self.samples.push(Sample {
            first,
            moves: moves.len() as u16,
            human: h as u16,
            rating: rating.min(u32::from(u16::MAX)) as u16,
            ply: ply.min(u32::from(u16::MAX)) as u16,
            board_at,
            pieces: inputs.len() as u8,
        });
    }

    pub fn append(&mut self, other: Dataset) {
        if other.samples.is_empty() {
            return;
        }
        if self.move_starts.is_empty() {
            self.move_starts.push(0);
        }
        let move_base = (self.move_starts.len() - 1) as u32;
        let feat_base = self.feats.len() as u32;
        let board_base = self.board.len() as u32;
        self.samples.extend(other.samples.iter().map(|s| Sample {
            first: s.first + move_base,
            board_at: s.board_at + board_base,
            ..*s
        }));
        self.move_starts.extend(other.move_starts[1..].iter().map(|&x| x + feat_base));
        self.feats.extend(other.feats);
        self.board.extend(other.board);
    }

    /// Replaces every position's rating `r` by `f(r)` (rounded, kept in range).
    pub fn map_ratings(&mut self, f: impl Fn(f64) -> f64) {
        for s in &mut self.samples {
            s.rating = f(f64::from(s.rating)).round().clamp(0.0, f64::from(u16::MAX)) as u16;
        }
    }

    fn board_of(&self, s: &Sample) -> &[u16] {
        &self.board[s.board_at as usize..s.board_at as usize + usize::from(s.pieces)]
    }

    fn moves_of(&self, s: &Sample) -> impl Iterator<Item = &[u16]> {
        (s.first as usize..s.first as usize + s.moves as usize)
            .map(|j| &self.feats[self.move_starts[j] as usize..self.move_starts[j + 1] as usize])
    }
}

/// Every usable move of the games (see the module text) whose index passes `keep`, extracted with
/// `jobs` threads; the order is the games' order whatever `jobs` is.
pub fn dataset(games: &[GameRecord], keep: impl Fn(usize) -> bool + Sync, jobs: usize) -> Dataset {
    dataset_with(games, keep, jobs, false)
}

/// [`dataset`], with each position's file-mirrored copy after it when `mirror` (see the module
/// text).
pub fn dataset_with(games: &[GameRecord], keep: impl Fn(usize) -> bool + Sync, jobs: usize, mirror: bool) -> Dataset {
    let chosen: Vec<usize> = (0..games.len()).filter(|&i| keep(i)).collect();
    let chunk = chosen.len().div_ceil(jobs.max(1) * 8).max(1);
    let parts: Vec<Dataset> = std::thread::scope(|scope| {
        let pieces: Vec<&[usize]> = chosen.chunks(chunk).collect();
        let mut out: Vec<Option<Dataset>> = (0..pieces.len()).map(|_| None).collect();
        for group in pieces.chunks(jobs.max(1)).zip(out.chunks_mut(jobs.max(1))) {
            let handles: Vec<_> = group
                .0
                .iter()
                .map(|&ids| {
                    scope.spawn(move || {
                        let mut d = Dataset::default();
                        let mut look_searcher = Searcher::for_look();
                        for &gi in ids {
                            add_game(&mut d, &mut look_searcher, &games[gi], mirror);
                        }
                        d
                    })
                })
                .collect();
            for (slot, h) in group.1.iter_mut().zip(handles) {
                *slot = Some(h.join().expect("feature worker"));
            }
        }
        out.into_iter().flatten().collect()
    });
    let mut all = Dataset::default();
    for p in parts {
        all.append(p);
    }
    all
}

fn add_game(d: &mut Dataset, look_searcher: &mut Searcher, g: &GameRecord, mirror: bool) {
    let mut game = Game::new(g.root.clone());
    // The position two plies back, for the mirrored copy's history.
    let mut back: Vec<Chess> = Vec::with_capacity(g.moves.len());
    for (ply, (&m, &n)) in g.moves.iter().zip(&g.legal_counts).enumerate() {
        let color = game.pos().turn();
        let name = if color == Color::White { &g.white } else { &g.black };
        if n >= 2
            && !is_computer(name)
            && let Some(r) = g.rating(color)
        {
            d.push(look_searcher, &game, m, r, ply as u32);
            if mirror
                && ply >= 2
                && let Some((twin, human)) = mirrored(&back[ply - 2], &g.moves[ply - 2..=ply])
            {
                d.push(look_searcher, &twin, human, r, ply as u32);
            }
        }
        back.push(game.pos().clone());
        game.make(m);
    }
}

/// The file-mirrored game that starts at `start` (no castling rights) and plays all of `moves`
/// but the last, and the last move mirrored.
fn mirrored(start: &Chess, moves: &[Move]) -> Option<(Game, Move)> {
    let root = sparring::board::mirror_files(start)?;
    let flipped: Option<Vec<Move>> = moves.iter().map(|&m| sparring::board::mirror_files_move(m)).collect();
    let (human, before) = flipped?.split_last().map(|(h, b)| (*h, b.to_vec()))?;
    Some((Game::with_moves(root, &before), human))
}

/// Ratings of the map's grid (main scale): every [`MAP_STEP`] points over the model's knots.
const MAP_STEP: f64 = 25.0;
/// Fewest positions of a band for it to place a point of the map.
const MAP_MIN_POSITIONS: usize = 2000;
/// Positions per work unit of the map's fit: fixed, so the sums (and the map) do not depend on the
/// number of jobs.
const MAP_CHUNK: usize = 4096;

/// A population's rating map onto the main scale: points (its rating, main-scale rating) in
/// increasing order, linear between them, shifted by the end points' offsets outside them.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingMap {
    pub points: Vec<(f64, f64)>,
}

impl RatingMap {
    pub fn apply(&self, r: f64) -> f64 {
        let p = &self.points;
        let (Some(&first), Some(&last)) = (p.first(), p.last()) else { return r };
        if r <= first.0 {
            return r + first.1 - first.0;
        }
        if r >= last.0 {
            return r + last.1 - last.0;
        }
        let i = p.windows(2).position(|w| r < w[1].0).unwrap_or(p.len() - 2);
        let t = (r - p[i].0) / (p[i + 1].0 - p[i].0);
        p[i].1 + t * (p[i + 1].1 - p[i].1)
    }

    /// `from→to` pairs, for the file's training notes and the log.
    pub fn describe(&self) -> String {
        self.points.iter().map(|(a, b)| format!("{a:.0}->{b:.0}")).collect::<Vec<_>>().join(" ")
    }
}

/// Fits the rating map of `d`'s population (see the module text): per 200-point band of its
/// ratings with at least [`MAP_MIN_POSITIONS`] positions, the band's mean rating against the grid
/// rating where `model`'s log-likelihood of the band's moves is highest; then made
/// non-decreasing. The knots' logits of each position are computed once and mixed per grid
/// rating, in `jobs` threads over fixed chunks summed in order.
pub fn fit_rating_map(model: &HumanModel, d: &Dataset, jobs: usize) -> RatingMap {
    let knots = model.knots();
    let (lo, hi) = (knots[0], knots[knots.len() - 1]);
    let grid: Vec<f64> = (0..).map(|i| lo + MAP_STEP * f64::from(i)).take_while(|&r| r <= hi).collect();
    let bases: Vec<[(usize, f32); 2]> = grid.iter().map(|&r| model.basis(r)).collect();
    // Per band: positions, rating sum, log-likelihood at each grid rating.
    type Sums = BTreeMap<u32, (usize, f64, Vec<f64>)>;
    let chunk_sums = |samples: &[Sample]| -> Sums {
        let mut out = Sums::new();
        let mut mix = Vec::new();
        for s in samples {
            let at_knots = model.knot_logits_of(d.board_of(s), d.moves_of(s));
            let e = out.entry(u32::from(s.rating) / 200 * 200).or_insert_with(|| (0, 0.0, vec![0.0; grid.len()]));
            e.0 += 1;
            e.1 += f64::from(s.rating);
            for (g, basis) in bases.iter().enumerate() {
                mix.clear();
                mix.extend((0..at_knots[0].len()).map(|i| {
                    f64::from(basis[0].1) * at_knots[basis[0].0][i] + f64::from(basis[1].1) * at_knots[basis[1].0][i]
                }));
                e.2[g] += sparring::human::v6::log_softmax(&mix)[s.human as usize];
            }
        }
        out
    };
    let chunks: Vec<&[Sample]> = d.samples.chunks(MAP_CHUNK).collect();
    let mut parts: Vec<Option<Sums>> = (0..chunks.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        for (group, slots) in chunks.chunks(jobs.max(1)).zip(parts.chunks_mut(jobs.max(1))) {
            let handles: Vec<_> = group.iter().map(|c| scope.spawn(|| chunk_sums(c))).collect();
            for (slot, h) in slots.iter_mut().zip(handles) {
                *slot = Some(h.join().expect("rating map worker"));
            }
        }
    });
    let mut total = Sums::new();
    for part in parts.into_iter().flatten() {
        for (band, (n, r, ll)) in part {
            let e = total.entry(band).or_insert_with(|| (0, 0.0, vec![0.0; grid.len()]));
            e.0 += n;
            e.1 += r;
            for (x, y) in e.2.iter_mut().zip(ll) {
                *x += y;
            }
        }
    }
    let mut points = Vec::new();
    let mut floor = f64::NEG_INFINITY;
    for (n, r, ll) in total.values().filter(|e| e.0 >= MAP_MIN_POSITIONS) {
        let best = (0..grid.len()).fold(0, |b, g| if ll[g] > ll[b] { g } else { b });
        floor = floor.max(grid[best]);
        points.push((r / *n as f64, floor));
    }
    RatingMap { points }
}

/// Log-likelihood of the human move and whether it is the model's top move.
fn score_sample(model: &HumanModel, d: &Dataset, s: &Sample) -> (f64, bool) {
    let logits = model.logits_of(d.board_of(s), d.moves_of(s), f64::from(s.rating));
    let lp = sparring::human::v6::log_softmax(&logits);
    let h = s.human as usize;
    // Ties count against the model: top-1 only when the human move is strictly the first maximum.
    let top = (0..lp.len()).fold(0, |b, i| if lp[i] > lp[b] { i } else { b });
    (lp[h], top == h)
}

/// Per-band results of a model on a data set.
#[derive(Clone, Debug, Default)]
pub struct BandEval {
    pub n: usize,
    pub top1: usize,
    pub loglik: f64,
    pub uniform: f64,
}

/// Mean log-likelihood over a whole set.
fn mean_loglik(model: &HumanModel, d: &Dataset) -> f64 {
    let total: f64 = d.samples.iter().map(|s| score_sample(model, d, s).0).sum();
    total / d.len().max(1) as f64
}

/// Per 200-point band (of the mover's rating): positions, top-1 matches, summed log-likelihoods
/// of the model and of the uniform choice, for positions at ply ≥ `min_ply`.
pub fn evaluate(model: &HumanModel, d: &Dataset, min_ply: u32) -> BTreeMap<u32, BandEval> {
    let mut out: BTreeMap<u32, BandEval> = BTreeMap::new();
    for s in d.samples.iter().filter(|s| u32::from(s.ply) >= min_ply) {
        let (ll, top) = score_sample(model, d, s);
        let e = out.entry(u32::from(s.rating) / 200 * 200).or_default();
        e.n += 1;
        e.top1 += usize::from(top);
        e.loglik += ll;
        e.uniform -= f64::from(s.moves).ln();
    }
    out
}

/// AdaGrad state of one block of weights, with the indices a position touched.
struct Block {
    g2: Vec<f32>,
    grad: Vec<f32>,
    marked: Vec<bool>,
    touched: Vec<usize>,
}

impl Block {
    fn new(n: usize) -> Block {
        Block { g2: vec![1e-3; n], grad: vec![0.0; n], marked: vec![false; n], touched: Vec::new() }
    }

    fn add(&mut self, idx: usize, g: f32) {
        if !self.marked[idx] {
            self.marked[idx] = true;
            self.touched.push(idx);
        }
        self.grad[idx] += g;
    }

    /// Adds `g` to the `width` gradients from `row · width`.
    fn add_row(&mut self, row: usize, width: usize, g: &[f32]) {
        let base = row * width;
        if !self.marked[base] {
            for i in base..base + width {
                self.marked[i] = true;
                self.touched.push(i);
            }
        }
        for (x, y) in self.grad[base..base + width].iter_mut().zip(g) {
            *x += y;
        }
    }

    /// One AdaGrad step on the touched weights (in the order they were touched), then a clean
    /// slate. Weights stay inside what the file can store.
    fn apply(&mut self, w: &mut [f32], rate: f32, l2: f32) {
        for &idx in &self.touched {
            let g = self.grad[idx] + l2 * w[idx];
            self.g2[idx] += g * g;
            w[idx] = (w[idx] - rate * g / self.g2[idx].sqrt()).clamp(-MAX_WEIGHT, MAX_WEIGHT);
            self.grad[idx] = 0.0;
            self.marked[idx] = false;
        }
        self.touched.clear();
    }
}

/// Largest weight a file stores (`i16` at [`sparring::human::v6::WEIGHT_SCALE`], a margin kept).
const MAX_WEIGHT: f32 = 7.9;

/// Range of the hidden layer's starting weights, per block (embed, board, bias, out): small, so
/// training starts close to the linear model, and drawn from the seed so it is reproducible.
const HIDDEN_INIT: [(f32, f32); 4] = [(-0.05, 0.05), (-0.02, 0.02), (0.05, 0.15), (-0.05, 0.05)];

fn init_hidden(h: &mut Hidden, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x6869_6464_656e);
    for (block, (lo, hi)) in h.blocks_mut().into_iter().zip(HIDDEN_INIT) {
        for w in block.iter_mut() {
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            *w = lo + (hi - lo) * u as f32;
        }
    }
}

/// Optimiser state for a whole model: the linear weights and, when there is one, each block of
/// the hidden layer.
struct Trainer {
    linear: Block,
    hidden: Option<[Block; 4]>,
    /// Per position: pre-activations of every move's units (`moves × size`), its logits, the
    /// gradient of the accumulator, the output weights at the position's rating.
    pre: Vec<f32>,
    logits: Vec<f64>,
    dacc: Vec<f32>,
    u: Vec<f32>,
    da: Vec<f32>,
    acc: Vec<f32>,
    inputs: Vec<u32>,
}

impl Trainer {
    fn new(model: &HumanModel) -> Trainer {
        let hidden = model.hidden().map(|h| h.blocks().map(|b| Block::new(b.len())));
        Trainer {
            linear: Block::new(model.weights().len()),
            hidden,
            pre: Vec::new(),
            logits: Vec::new(),
            dacc: Vec::new(),
            u: Vec::new(),
            da: Vec::new(),
            acc: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// One position: forward, the softmax's gradient, backward, one AdaGrad step.
    // Long: forward and backward through both parts share the per-move buffers.
    fn step(&mut self, model: &mut HumanModel, d: &Dataset, s: &Sample, rate: f32, l2: f32) {
        let basis = model.basis(f64::from(s.rating));
        let k = model.knots().len();
        let (w, hidden) = model.parts_mut();
        let size = hidden.as_ref().map_or(0, |h| h.size);
        self.logits.clear();
        self.pre.clear();
        if let Some(h) = hidden.as_deref() {
            self.inputs.clear();
            self.inputs.extend(d.board_of(s).iter().map(|&i| u32::from(i)));
            h.accumulate(&self.inputs, &mut self.acc);
            self.u.clear();
            self.u.extend(
                (0..size).map(|j| basis[0].1 * h.out[j * k + basis[0].0] + basis[1].1 * h.out[j * k + basis[1].0]),
            );
        }
        for f in d.moves_of(s) {
            let mut sum = 0.0f32;
            for &fi in f {
                let base = fi as usize * k;
                sum += basis[0].1 * w[base + basis[0].0] + basis[1].1 * w[base + basis[1].0];
            }
            if let Some(h) = hidden.as_deref() {
                let at = self.pre.len();
                self.pre.extend_from_slice(&self.acc);
                let a = &mut self.pre[at..];
                network::for_rows(f, |r| {
                    let row = &h.embed[r * size..(r + 1) * size];
                    for (x, y) in a.iter_mut().zip(row) {
                        *x += y;
                    }
                });
                sum += a.iter().zip(&self.u).map(|(x, u)| x.max(0.0) * u).sum::<f32>();
            }
            self.logits.push(f64::from(sum));
        }
        let top = self.logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let z: f64 = self.logits.iter().map(|l| (l - top).exp()).sum();
        self.dacc.clear();
        self.dacc.resize(size, 0.0);
        for (j, f) in d.moves_of(s).enumerate() {
            let p = (self.logits[j] - top).exp() / z;
            let g = (p - if j == s.human as usize { 1.0 } else { 0.0 }) as f32;
            for &fi in f {
                for &(knot, phi) in &basis {
                    if phi != 0.0 {
                        self.linear.add(fi as usize * k + knot, g * phi);
                    }
                }
            }
            if let Some(blocks) = self.hidden.as_mut() {
                let a = &self.pre[j * size..(j + 1) * size];
                self.da.clear();
                for (i, &x) in a.iter().enumerate() {
                    let h = x.max(0.0);
                    if h > 0.0 {
                        for &(knot, phi) in &basis {
                            if phi != 0.0 {
                                blocks[3].add(i * k + knot, g * h * phi);
                            }
                        }
                    }
                    self.da.push(if x > 0.0 { g * self.u[i] } else { 0.0 });
                }
                let da = &self.da;
                network::for_rows(f, |r| blocks[0].add_row(r, size, da));
                for (x, y) in self.dacc.iter_mut().zip(&self.da) {
                    *x += y;
                }
            }
        }
        self.linear.apply(w, rate, l2);
        if let (Some(blocks), Some(h)) = (self.hidden.as_mut(), hidden) {
            for &i in &self.inputs {
                blocks[1].add_row(i as usize, size, &self.dacc);
            }
            blocks[2].add_row(0, size, &self.dacc);
            for (b, weights) in blocks.iter_mut().zip(h.blocks_mut()) {
                b.apply(weights, rate, l2);
            }
        }
    }
}

/// Trains a model on `fit`, keeping the pass that does best on `validation`.
pub fn train(fit: &Dataset, validation: &Dataset, cfg: &TrainConfig, name: &str, version: u32) -> HumanModel {
    let mut model = HumanModel::zeros_with_hidden(name, version, cfg.hidden);
    if let (_, Some(h)) = model.parts_mut() {
        init_hidden(h, cfg.seed);
    }
    let mut trainer = Trainer::new(&model);
    let mut order: Vec<usize> = (0..fit.len()).collect();
    let mut rng = ChaCha20Rng::seed_from_u64(cfg.seed);
    let mut best: Option<(f64, HumanModel, usize)> = None;
    let (rate, l2) = (cfg.rate as f32, cfg.l2 as f32);
    for pass in 1..=cfg.passes {
        let t0 = std::time::Instant::now();
        for i in (1..order.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        for &si in &order {
            trainer.step(&mut model, fit, &fit.samples[si], rate, l2);
        }
        // What the file will hold: the weights as stored (rounded), so the pass is judged on them.
        let stored = HumanModel::from_bytes(&model.to_bytes()).expect("a model reads back");
        let v = mean_loglik(&stored, validation);
        eprintln!(
            "model train: pass {pass}: validation log-likelihood {v:.4} per move ({} positions, {:.0} s)",
            validation.len(),
            t0.elapsed().as_secs_f64()
        );
        if best.as_ref().is_none_or(|b| v > b.0) {
            best = Some((v, stored, pass));
        }
    }
    let (v, mut m, pass) = best.expect("at least one pass");
    let t = &mut m.header.training;
    t.insert("pass_kept".into(), pass.to_string());
    t.insert("validation_loglik".into(), format!("{v:.4}"));
    t.insert("passes".into(), cfg.passes.to_string());
    t.insert("rate".into(), cfg.rate.to_string());
    t.insert("l2".into(), cfg.l2.to_string());
    t.insert("seed".into(), cfg.seed.to_string());
    t.insert("fit_positions".into(), fit.len().to_string());
    if cfg.hidden > 0 {
        t.insert("hidden".into(), cfg.hidden.to_string());
    }
    if cfg.mirror {
        t.insert("mirror".into(), "fit part also file-mirrored where neither side may castle".into());
    }
    if cfg.fit_share < 100 {
        // Which fit games it never saw ([`in_fit_share`]): the strength estimator fits on those.
        t.insert("fit_share".into(), cfg.fit_share.to_string());
    }
    HumanModel::from_bytes(&m.to_bytes()).expect("a model reads back")
}

/// The per-band table of [`evaluate`].
pub fn table(rows: &BTreeMap<u32, BandEval>) -> String {
    let mut s = String::from("band    n      top-1   loglik/move  uniform/move  gain/move\n");
    let mut tot = BandEval::default();
    for (band, e) in rows {
        let n = e.n.max(1) as f64;
        let _ = writeln!(
            s,
            "{band:>4} {:>7}  {:6.2} %  {:10.4}  {:12.4}  {:9.4}",
            e.n,
            100.0 * e.top1 as f64 / n,
            e.loglik / n,
            e.uniform / n,
            (e.loglik - e.uniform) / n
        );
        tot.n += e.n;
        tot.top1 += e.top1;
        tot.loglik += e.loglik;
        tot.uniform += e.uniform;
    }
    let n = tot.n.max(1) as f64;
    let _ = writeln!(
        s,
        " all {:>7}  {:6.2} %  {:10.4}  {:12.4}  {:9.4}",
        tot.n,
        100.0 * tot.top1 as f64 / n,
        tot.loglik / n,
        tot.uniform / n,
        (tot.loglik - tot.uniform) / n
    );
    s
}

/// `model train`: reads the games, trains, writes the model file and prints its hash and the
/// validation table.
pub fn run_train(pgn: &Path, out: &Path, version: u32, cfg: &TrainConfig) -> Result<(), String> {
    let t0 = std::time::Instant::now();
    // A bad extra file is refused before the main file's features, which take minutes.
    if let Some(e) = &cfg.extra {
        std::fs::File::open(&e.pgn).map_err(|err| format!("{}: {err}", e.pgn.display()))?;
    }
    let games = crate::common::games::read_games(pgn)?;
    let mut fit = dataset_with(&games, |i| in_fit_share(i, cfg.fit_share), cfg.jobs, cfg.mirror);
    let val = dataset(&games, |i| part_of(i) == Part::Validation, cfg.jobs);
    eprintln!(
        "model train: {} games, {} fit and {} validation positions, features in {:.0} s",
        games.len(),
        fit.len(),
        val.len(),
        t0.elapsed().as_secs_f64()
    );
    let extra = match &cfg.extra {
        Some(e) => Some(add_population(&mut fit, e, cfg)?),
        None => None,
    };
    let mut model = train(&fit, &val, cfg, "human-model", version);
    let name_of = |p: &Path| p.file_name().map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let t = &mut model.header.training;
    let share =
        if cfg.fit_share < 100 { format!(" and (index / 10) mod 100 < {}", cfg.fit_share) } else { String::new() };
    t.insert(
        "data".into(),
        format!("{} (games with index mod 10 in 0..=6{share}; validation 7; test 8, 9)", name_of(pgn)),
    );
    if let (Some(e), Some((map, n, _))) = (&cfg.extra, &extra) {
        t.insert(
            "extra_data".into(),
            format!("{} fit part (index mod 10 in 0..=6), {n} positions at mapped ratings", name_of(&e.pgn)),
        );
        t.insert("extra_rating_map".into(), format!("{} (fitted with {})", map.describe(), e.map_model.describe()));
    }
    let model = HumanModel::from_bytes(&model.to_bytes()).map_err(|e| e.to_string())?;
    let bytes = model.to_bytes();
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(out, &bytes).map_err(|e| format!("{}: {e}", out.display()))?;
    println!("validation part (ply >= 0):\n{}", table(&evaluate(&model, &val, 0)));
    if let Some((map, _, extra_val)) = &extra {
        println!("rating map of the extra population: {}", map.describe());
        println!(
            "validation part of the extra population (ratings mapped, bands on the main scale):\n{}",
            table(&evaluate(&model, extra_val, 0))
        );
    }
    println!(
        "wrote {} ({} bytes, blake3 {}) in {:.0} s",
        out.display(),
        bytes.len(),
        model.hash_hex(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Adds a second population's fit part to `fit` at mapped ratings (see the module text); returns
/// the map, the positions added and the population's validation part (mapped too, for the report).
fn add_population(fit: &mut Dataset, e: &Extra, cfg: &TrainConfig) -> Result<(RatingMap, usize, Dataset), String> {
    let t0 = std::time::Instant::now();
    let games = crate::common::games::read_games(&e.pgn)?;
    let mut extra = dataset_with(&games, |i| part_of(i) == Part::Fit, cfg.jobs, cfg.mirror);
    let mut val = dataset(&games, |i| part_of(i) == Part::Validation, cfg.jobs);
    let map = fit_rating_map(&e.map_model, &extra, cfg.jobs);
    if map.points.is_empty() {
        return Err(format!(
            "{}: no 200-point band has {MAP_MIN_POSITIONS} rated positions to fit its rating map",
            e.pgn.display()
        ));
    }
    extra.map_ratings(|r| map.apply(r));
    val.map_ratings(|r| map.apply(r));
    let n = extra.len();
    eprintln!(
        "model train: {} games of {}, {n} fit positions, rating map {} ({:.0} s)",
        games.len(),
        e.pgn.display(),
        map.describe(),
        t0.elapsed().as_secs_f64()
    );
    fit.append(extra);
    Ok((map, n, val))
}

/// `model eval`: the test part's per-band table (all plies and ply ≥ 16), and with an oracle cache
/// the comparison with the "search's best move" baseline on the bench's test-part positions.
pub fn run_eval(model_path: &Path, pgn: &Path, oracle: Option<&Path>, jobs: usize) -> Result<String, String> {
    let bytes = std::fs::read(model_path).map_err(|e| format!("{}: {e}", model_path.display()))?;
    let model = HumanModel::from_bytes(&bytes).map_err(|e| format!("{}: {e}", model_path.display()))?;
    let games = crate::common::games::read_games(pgn)?;
    let test = dataset(&games, |i| part_of(i) == Part::Test, jobs);
    let mut report =
        format!("model {} on the test part of {} ({} positions)\n\n", model.describe(), pgn.display(), test.len());
    let _ = writeln!(report, "all plies:\n{}", table(&evaluate(&model, &test, 0)));
    let _ = writeln!(
        report,
        "ply >= 16 (the humanlike bench's positions start there):\n{}",
        table(&evaluate(&model, &test, 16))
    );
    let mut loads: Vec<f64> = (0..21)
        .map(|_| {
            let t0 = std::time::Instant::now();
            let m = HumanModel::from_bytes(&bytes);
            let t = t0.elapsed().as_secs_f64() * 1e3;
            assert!(m.is_ok(), "the model read once reads again");
            t
        })
        .collect();
    loads.sort_by(f64::total_cmp);
    let _ = writeln!(report, "loading the file ({} bytes, 21 reads): median {:.1} ms\n", bytes.len(), loads[10]);
    if let Some(o) = oracle {
        report.push_str(&best_move_baseline(&model, &games, o)?);
    }
    Ok(report)
}

/// On the bench's eligible positions: the model's log-likelihood and top-1 against the baseline
/// "the oracle's best move with probability q, the others uniform", q fitted per band on the
/// fit-part positions (maximum likelihood: q = the fit part's best-move rate) and reported on the
/// test part.
fn best_move_baseline(model: &HumanModel, games: &[GameRecord], oracle: &Path) -> Result<String, String> {
    let all = crate::common::scored::load_oracle(oracle)?;
    let eligible = crate::common::bands::eligible(&all, None);
    let mut q: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
    let by_person = |p: &&crate::common::scored::OraclePosition| {
        games.get(p.pos.game).is_some_and(|g| !is_computer(g.mover_name(p.pos.ply as usize)))
    };
    for p in eligible.iter().filter(by_person).filter(|p| part_of(p.pos.game) == Part::Fit) {
        let e = q.entry(p.pos.band).or_default();
        e.0 += f64::from(u8::from(p.moves.first().is_some_and(|m| m.uci == p.pos.human)));
        e.1 += 1.0;
    }
    #[derive(Default)]
    struct Row {
        n: usize,
        model_ll: f64,
        model_top: usize,
        base_ll: f64,
        base_top: usize,
        uniform_ll: f64,
    }
    let mut rows: BTreeMap<u32, Row> = BTreeMap::new();
    let mut look_searcher = Searcher::for_look();
    let (mut times, mut look_times): (Vec<f64>, Vec<f64>) = (Vec::new(), Vec::new());
    for p in eligible.iter().filter(by_person).filter(|p| part_of(p.pos.game) == Part::Test) {
        let Some((game, human)) = replay(games, p.pos.game, p.pos.ply) else { continue };
        let pos = game.pos();
        if uci_of(human) != p.pos.human {
            return Err(format!(
                "{}: game {} ply {} is not the PGN's position",
                oracle.display(),
                p.pos.game,
                p.pos.ply
            ));
        }
        let moves: Vec<Move> = pos.legal_moves().into_iter().collect();
        let Some(h) = moves.iter().position(|&m| m == human) else { continue };
        let t0 = std::time::Instant::now();
        let scores = look(&mut look_searcher, &game, &moves);
        let t1 = std::time::Instant::now();
        let lp = model.log_probs(pos, History::of(&game), &moves, Some(&scores), f64::from(p.pos.rating));
        times.push(t0.elapsed().as_secs_f64() * 1e6);
        look_times.push((t1 - t0).as_secs_f64() * 1e6);
        let top = (0..lp.len()).fold(0, |b, i| if lp[i] > lp[b] { i } else { b });
        let (hits, n) = q.get(&p.pos.band).copied().unwrap_or((1.0, 2.0));
        let qb = ((hits + 0.5) / (n + 1.0)).clamp(1e-3, 1.0 - 1e-3);
        let nm = moves.len() as f64;
        let is_best = p.moves.first().is_some_and(|m| m.uci == p.pos.human);
        let r = rows.entry(p.pos.band).or_default();
        r.n += 1;
        r.model_ll += lp[h];
        r.model_top += usize::from(top == h);
        r.base_ll += if is_best { qb.ln() } else { ((1.0 - qb) / (nm - 1.0)).ln() };
        r.base_top += usize::from(is_best);
        r.uniform_ll -= nm.ln();
    }
    let mut s = String::from(
        "bench positions of the test part (eligible, ply >= 16, computer accounts left out), against the oracle's best move:\n\
         band    n  model top-1  best-move top-1  model ll  best-move ll  uniform ll\n",
    );
    for (band, r) in &rows {
        let n = r.n.max(1) as f64;
        let _ = writeln!(
            s,
            "{band:>4} {:>4}  {:9.1} %  {:13.1} %  {:8.3}  {:12.3}  {:10.3}",
            r.n,
            100.0 * r.model_top as f64 / n,
            100.0 * r.base_top as f64 / n,
            r.model_ll / n,
            r.base_ll / n,
            r.uniform_ll / n
        );
    }
    let _ = writeln!(s, "\ntime per position, one thread, {} positions:", times.len());
    for (what, t) in [("look + features + softmax", &mut times), ("the look alone", &mut look_times)] {
        t.sort_by(f64::total_cmp);
        let at = |q: f64| t.get(((t.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
        let _ = writeln!(
            s,
            "  {what}: median {:.0} us, 90th percentile {:.0} us, mean {:.0} us",
            at(0.5),
            at(0.9),
            t.iter().sum::<f64>() / t.len().max(1) as f64
        );
    }
    Ok(s)
}

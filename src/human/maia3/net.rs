//! The forward pass of Maia-3 5M, hand-written (the architecture as read from the ONNX graph by
//! `bench/human-model/maia3_convert.py`, whose numpy `forward` is the same computation):
//!
//! 1. Rating embedding: r = clamp(elo, 0, 5000) / 5000, e = r · low + (1 - r) · high (128 each),
//!    for the player to move and the opponent; every square's input is [its 96 tokens | e(self) |
//!    e(oppo)], projected to 256 (x₀, 64 × 256).
//! 2. Eight post-norm transformer layers. Each derives a per-head 64 × 64 attention bias from the
//!    board as a whole: g = LN₆₄(GELU(W₂ · mean_squares(x) + b₂)), h = LN₅₁₂(GELU(W₃ g + b₃)), and
//!    bias[head] = reshape(h)[head] · Gᵀ with one matrix G (4096 × 64) shared by all layers. Then
//!    8-head attention (32 per head, no biases): softmax(QKᵀ/√32 + bias) V, output projection,
//!    x = RMSNorm(x + attention) · w₁; a GELU feed-forward 256 → 512 → 256 with biases,
//!    x = RMSNorm(x + ffn) · w₂ (RMS norms with ε = 1e-5, no bias).
//! 3. Final LayerNorm; the move head: Q = x W_q, K = x W_k (256 × 256 each), logit(from, to) =
//!    Q[from] · K[to] / 16 for the 4096 square pairs; the 256 promotion logits are
//!    logit(from = rank 7 file f, to = rank 8 file t) + 16 · (K[rank 8 file t] · P)[piece].
//!
//! The value and ponder heads of the export are in the file but not computed.

// `a = a + x * y` is written out: the order of the rounded operations is the point here.
#![allow(clippy::assign_op_pattern, clippy::needless_range_loop)]

use super::encode::{DEPTH, Tokens};
use super::math::{Kernel, Mat, exp, gelu, map_inplace, matmul};
use super::vocab::{SQUARE_PAIRS, VOCAB};
use super::weights::{LAYERS, Tensors};

const D: usize = 256;
const HEADS: usize = 8;
const HEAD: usize = 32;
const FF: usize = 512;
const EMB: usize = 128;
const EPS: f32 = 1e-5;

struct Layer {
    sm2: Vec<f32>, // [256, 64]
    sm2_b: Vec<f32>,
    ln1_w: Vec<f32>,
    ln1_b: Vec<f32>,
    sm3: Vec<f32>, // [64, 512]
    sm3_b: Vec<f32>,
    ln2_w: Vec<f32>,
    ln2_b: Vec<f32>,
    qkv: Vec<f32>, // [256, 768]
    out: Vec<f32>, // [256, 256]
    norm1: Vec<f32>,
    ffn1: Vec<f32>, // [256, 512]
    ffn1_b: Vec<f32>,
    ffn2: Vec<f32>, // [512, 256]
    ffn2_b: Vec<f32>,
    norm2: Vec<f32>,
}

/// The network, with every matrix laid out [in, out] for the matrix product.
pub struct Net {
    elo_low: Vec<f32>,
    elo_high: Vec<f32>,
    embed: Vec<f32>, // [352, 256]
    embed_b: Vec<f32>,
    gab: Vec<f32>, // [64, 4096]
    layers: Vec<Layer>,
    final_w: Vec<f32>,
    final_b: Vec<f32>,
    head_q: Vec<f32>,
    head_k: Vec<f32>,
    promo: Vec<f32>, // [256, 4]
    kernel: Kernel,
}

/// One evaluation: an encoded position and the two ratings (Lichess blitz scale).
#[derive(Clone, Copy)]
pub struct Query<'a> {
    pub tokens: &'a Tokens,
    pub self_elo: i64,
    pub oppo_elo: i64,
}

impl Net {
    pub fn new(t: &Tensors) -> Net {
        let layers = (0..LAYERS)
            .map(|i| {
                let g = |s: &str| t.get(&format!("layer{i}.{s}")).to_vec();
                Layer {
                    sm2: t.transposed(&format!("layer{i}.sm2.w")),
                    sm2_b: g("sm2.b"),
                    ln1_w: g("ln1.w"),
                    ln1_b: g("ln1.b"),
                    sm3: t.transposed(&format!("layer{i}.sm3.w")),
                    sm3_b: g("sm3.b"),
                    ln2_w: g("ln2.w"),
                    ln2_b: g("ln2.b"),
                    qkv: g("qkv.mat"),
                    out: g("out.mat"),
                    norm1: g("norm1.w"),
                    ffn1: g("ffn1.mat"),
                    ffn1_b: g("ffn1.b"),
                    ffn2: g("ffn2.mat"),
                    ffn2_b: g("ffn2.b"),
                    norm2: g("norm2.w"),
                }
            })
            .collect();
        Net {
            elo_low: t.get("embed.elo_low").to_vec(),
            elo_high: t.get("embed.elo_high").to_vec(),
            embed: t.get("embed.mat").to_vec(),
            embed_b: t.get("embed.b").to_vec(),
            gab: t.transposed("gab.w"),
            layers,
            final_w: t.get("final_norm.w").to_vec(),
            final_b: t.get("final_norm.b").to_vec(),
            head_q: t.get("head.q.mat").to_vec(),
            head_k: t.get("head.k.mat").to_vec(),
            promo: t.get("head.promo.mat").to_vec(),
            kernel: Kernel::detect(),
        }
    }

    /// The kernel in use (all give the same bits).
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// Uses another kernel (tests compare them).
    pub fn set_kernel(&mut self, kernel: Kernel) {
        self.kernel = kernel;
    }

    /// Move logits (4352 per query, concatenated) of a batch of queries, in one pass: the
    /// squares of all queries are the rows of each matrix product, so each weight is read once per
    /// batch.
    pub fn logits(&self, queries: &[Query]) -> Vec<f32> {
        let b = queries.len();
        if b == 0 {
            return Vec::new();
        }
        let rows = b * 64;
        let mut x = vec![0f32; rows * D];
        for (q, xq) in queries.iter().zip(x.chunks_exact_mut(64 * D)) {
            self.embed_into(q, xq);
        }
        let mut s = Scratch::new(b);
        for layer in &self.layers {
            self.layer(layer, &mut x, &mut s, b);
        }
        self.head(&mut x, b)
    }

    fn embed_into(&self, q: &Query, x: &mut [f32]) {
        let mut e = vec![0f32; 2 * EMB];
        for (half, elo) in [q.self_elo, q.oppo_elo].into_iter().enumerate() {
            let r = (elo as f32).clamp(0.0, 5000.0) / 5000.0;
            for k in 0..EMB {
                e[half * EMB + k] = r * self.elo_low[k] + (1.0 - r) * self.elo_high[k];
            }
        }
        // The rating part is the same on every square: e · W[96..352].
        let mut rating = vec![0f32; D];
        let tail = Mat { data: &self.embed[DEPTH * D..], stride: D };
        matmul(self.kernel, 1, D, 2 * EMB, Mat { data: &e, stride: 2 * EMB }, tail, &mut rating, D);
        let tokens = &q.tokens.0;
        for sq in 0..64 {
            let row = &mut x[sq * D..(sq + 1) * D];
            row.fill(0.0);
            for k in 0..DEPTH {
                let v = tokens[sq * DEPTH + k];
                if v != 0.0 {
                    let w = &self.embed[k * D..(k + 1) * D];
                    for n in 0..D {
                        row[n] = row[n] + v * w[n];
                    }
                }
            }
            for n in 0..D {
                row[n] = (row[n] + rating[n]) + self.embed_b[n];
            }
        }
    }

    // Long: one transformer layer, step by step as the module comment lists them.
    fn layer(&self, l: &Layer, x: &mut [f32], s: &mut Scratch, b: usize) {
        let k = self.kernel;
        let rows = b * 64;
        // The attention bias from the board's mean: [b, 64] → [b, 512] → [b·8, 4096].
        for q in 0..b {
            mean_rows(&x[q * 64 * D..(q + 1) * 64 * D], D, &mut s.mean[q * D..(q + 1) * D]);
        }
        matmul(k, b, 64, D, mat(&s.mean, D), mat(&l.sm2, 64), &mut s.g, 64);
        add_bias(&mut s.g, &l.sm2_b);
        map_inplace(k, &mut s.g, gelu);
        layer_norm(&mut s.g, 64, &l.ln1_w, &l.ln1_b);
        matmul(k, b, FF, 64, mat(&s.g, 64), mat(&l.sm3, FF), &mut s.h, FF);
        add_bias(&mut s.h, &l.sm3_b);
        map_inplace(k, &mut s.h, gelu);
        layer_norm(&mut s.h, FF, &l.ln2_w, &l.ln2_b);
        matmul(k, b * HEADS, 4096, 64, mat(&s.h, 64), mat(&self.gab, 4096), &mut s.bias, 4096);
        // Attention.
        matmul(k, rows, 3 * D, D, mat(x, D), mat(&l.qkv, 3 * D), &mut s.qkv, 3 * D);
        let scale = (HEAD as f32).sqrt();
        for q in 0..b {
            let qkv = &s.qkv[q * 64 * 3 * D..(q + 1) * 64 * 3 * D];
            for h in 0..HEADS {
                // Kᵀ of this head: [32, 64].
                for sq in 0..64 {
                    for d in 0..HEAD {
                        s.kt[d * 64 + sq] = qkv[sq * 3 * D + D + h * HEAD + d];
                    }
                }
                let scores = &mut s.scores;
                matmul(k, 64, 64, HEAD, Mat { data: &qkv[h * HEAD..], stride: 3 * D }, mat(&s.kt, 64), scores, 64);
                let bias = &s.bias[(q * HEADS + h) * 4096..(q * HEADS + h + 1) * 4096];
                for i in 0..4096 {
                    scores[i] = scores[i] / scale + bias[i];
                }
                softmax_rows(k, scores, 64);
                let v = Mat { data: &qkv[2 * D + h * HEAD..], stride: 3 * D };
                let out = &mut s.attn[q * 64 * D + h * HEAD..];
                matmul(k, 64, HEAD, 64, mat(scores, 64), v, out, D);
            }
        }
        matmul(k, rows, D, D, mat(&s.attn, D), mat(&l.out, D), &mut s.proj, D);
        for i in 0..rows * D {
            x[i] = x[i] + s.proj[i];
        }
        rms_norm(x, D, &l.norm1);
        // Feed-forward.
        matmul(k, rows, FF, D, mat(x, D), mat(&l.ffn1, FF), &mut s.ff, FF);
        add_bias(&mut s.ff, &l.ffn1_b);
        map_inplace(k, &mut s.ff, gelu);
        matmul(k, rows, D, FF, mat(&s.ff, FF), mat(&l.ffn2, D), &mut s.proj, D);
        add_bias(&mut s.proj, &l.ffn2_b);
        for i in 0..rows * D {
            x[i] = x[i] + s.proj[i];
        }
        rms_norm(x, D, &l.norm2);
    }

    fn head(&self, x: &mut [f32], b: usize) -> Vec<f32> {
        let k = self.kernel;
        let rows = b * 64;
        layer_norm(x, D, &self.final_w, &self.final_b);
        let mut q = vec![0f32; rows * D];
        let mut kk = vec![0f32; rows * D];
        matmul(k, rows, D, D, mat(x, D), mat(&self.head_q, D), &mut q, D);
        matmul(k, rows, D, D, mat(x, D), mat(&self.head_k, D), &mut kk, D);
        let mut out = vec![0f32; b * VOCAB];
        let mut kt = vec![0f32; D * 64];
        let mut promo = [0f32; 8 * 4];
        for item in 0..b {
            let qi = &q[item * 64 * D..(item + 1) * 64 * D];
            let ki = &kk[item * 64 * D..(item + 1) * 64 * D];
            for sq in 0..64 {
                for d in 0..D {
                    kt[d * 64 + sq] = ki[sq * D + d];
                }
            }
            let o = &mut out[item * VOCAB..(item + 1) * VOCAB];
            matmul(k, 64, 64, D, mat(qi, D), mat(&kt, 64), &mut o[..SQUARE_PAIRS], 64);
            for v in &mut o[..SQUARE_PAIRS] {
                *v = *v / 16.0;
            }
            // Promotion offsets from the rank-8 keys: [to file, piece].
            matmul(k, 8, 4, D, mat(&ki[56 * D..], D), mat(&self.promo, 4), &mut promo, 4);
            for ff in 0..8 {
                for tf in 0..8 {
                    let base = o[(48 + ff) * 64 + 56 + tf];
                    for p in 0..4 {
                        o[SQUARE_PAIRS + (ff * 8 + tf) * 4 + p] = base + promo[tf * 4 + p] * 16.0;
                    }
                }
            }
        }
        out
    }
}

fn mat(data: &[f32], stride: usize) -> Mat<'_> {
    Mat { data, stride }
}

/// Buffers of one batch's pass, reused across layers.
struct Scratch {
    mean: Vec<f32>,
    g: Vec<f32>,
    h: Vec<f32>,
    bias: Vec<f32>,
    qkv: Vec<f32>,
    kt: Vec<f32>,
    scores: Vec<f32>,
    attn: Vec<f32>,
    proj: Vec<f32>,
    ff: Vec<f32>,
}

impl Scratch {
    fn new(b: usize) -> Scratch {
        let rows = b * 64;
        Scratch {
            mean: vec![0.0; b * D],
            g: vec![0.0; b * 64],
            h: vec![0.0; b * FF],
            bias: vec![0.0; b * HEADS * 4096],
            qkv: vec![0.0; rows * 3 * D],
            kt: vec![0.0; HEAD * 64],
            scores: vec![0.0; 64 * 64],
            attn: vec![0.0; rows * D],
            proj: vec![0.0; rows * D],
            ff: vec![0.0; rows * FF],
        }
    }
}

/// Column means of a [rows, width] matrix (sum in row order, then one division).
fn mean_rows(x: &[f32], width: usize, out: &mut [f32]) {
    out.fill(0.0);
    let rows = x.len() / width;
    for r in 0..rows {
        let row = &x[r * width..(r + 1) * width];
        for c in 0..width {
            out[c] = out[c] + row[c];
        }
    }
    for v in out.iter_mut() {
        *v = *v / rows as f32;
    }
}

fn add_bias(x: &mut [f32], bias: &[f32]) {
    for row in x.chunks_exact_mut(bias.len()) {
        for (v, b) in row.iter_mut().zip(bias) {
            *v = *v + *b;
        }
    }
}

/// LayerNorm of each row: (x - mean) / √(var + ε) · w + b (sums in index order).
fn layer_norm(x: &mut [f32], width: usize, w: &[f32], b: &[f32]) {
    let n = width as f32;
    for row in x.chunks_exact_mut(width) {
        let mut sum = 0f32;
        for &v in row.iter() {
            sum = sum + v;
        }
        let mean = sum / n;
        let mut sq = 0f32;
        for &v in row.iter() {
            let d = v - mean;
            sq = sq + d * d;
        }
        let denom = (sq / n + EPS).sqrt();
        for (i, v) in row.iter_mut().enumerate() {
            *v = (*v - mean) / denom * w[i] + b[i];
        }
    }
}

/// RMSNorm of each row: x / √(mean(x²) + ε) · w.
fn rms_norm(x: &mut [f32], width: usize, w: &[f32]) {
    let n = width as f32;
    for row in x.chunks_exact_mut(width) {
        let mut sq = 0f32;
        for &v in row.iter() {
            sq = sq + v * v;
        }
        let denom = (sq / n + EPS).sqrt();
        for (i, v) in row.iter_mut().enumerate() {
            *v = *v / denom * w[i];
        }
    }
}

/// Softmax of each row (max subtracted; our own exp; sum in index order).
fn softmax_rows(kernel: Kernel, x: &mut [f32], width: usize) {
    for row in x.chunks_exact_mut(width) {
        let mut max = f32::NEG_INFINITY;
        for &v in row.iter() {
            max = max.max(v);
        }
        for v in row.iter_mut() {
            *v = *v - max;
        }
        map_inplace(kernel, row, exp);
        let mut sum = 0f32;
        for &v in row.iter() {
            sum = sum + v;
        }
        for v in row.iter_mut() {
            *v = *v / sum;
        }
    }
}

//! The arithmetic of the forward pass, written so that its results are bit-identical on every CPU
//! and build:
//!
//! - every dot product runs in ascending k-order as `acc = acc + a * b`, a separately rounded f32
//!   multiply and add (Rust never contracts these into a fused multiply-add), starting from 0;
//! - vectorisation is only ever *across independent outputs* (the columns of a matrix product,
//!   the elements of a vector), so a SIMD lane performs exactly the operations the scalar code
//!   would: the SSE2, AVX2 and AVX-512 kernels, which the CPU picks at run time, and the scalar
//!   fallback all give the same bits (tested: `maia3_kernels_agree_bit_for_bit`);
//! - `exp`, `erfc` (for GELU) and `ln` are our own, from `+ - * /`, `sqrt` and bit manipulation,
//!   all correctly rounded IEEE operations, so no platform maths library enters;
//! - no threads.

// `a = a + x * y` is written out: the order of the rounded operations is the point here.
#![allow(clippy::assign_op_pattern, clippy::needless_range_loop, clippy::too_many_arguments)]

/// Which matrix-product kernel runs. All give identical results; they differ only in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust, as the compiler vectorises it for the build's baseline (SSE2 on x86-64).
    Portable,
    /// The same code compiled for AVX2 (no FMA), chosen at run time where the CPU has it.
    Avx2,
    /// The same code compiled for AVX-512F (no FMA), chosen at run time where the CPU has it.
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                return Kernel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// Every kernel this CPU can run (for the test that they agree).
    pub fn available() -> Vec<Kernel> {
        let mut v = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Kernel::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                v.push(Kernel::Avx512);
            }
        }
        v
    }
}

/// A matrix operand: `data[row * stride + col]`.
#[derive(Clone, Copy)]
pub struct Mat<'a> {
    pub data: &'a [f32],
    pub stride: usize,
}

/// `c[i][j] = Σ_k a[i][k] · b[k][j]` for i < m, j < n, k < depth (ascending k, separate rounding of
/// each multiply and add, from 0). `c` is overwritten.
pub fn matmul(kernel: Kernel, m: usize, n: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(a.data.len() >= (m - 1) * a.stride + depth, "matmul: a too short");
    assert!(b.data.len() >= depth.saturating_sub(1) * b.stride + n, "matmul: b too short");
    assert!(c.len() >= (m - 1) * ldc + n, "matmul: c too short");
    match kernel {
        Kernel::Portable => matmul_generic::<4, 16>(m, n, depth, a, b, c, ldc),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only handed out by `detect`/`available` after checking the CPU.
        Kernel::Avx2 => unsafe { matmul_avx2(m, n, depth, a, b, c, ldc) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for AVX-512F.
        Kernel::Avx512 => unsafe { matmul_avx512(m, n, depth, a, b, c, ldc) },
        #[cfg(not(target_arch = "x86_64"))]
        _ => matmul_generic::<4, 16>(m, n, depth, a, b, c, ldc),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn matmul_avx2(m: usize, n: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    matmul_generic::<6, 16>(m, n, depth, a, b, c, ldc)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn matmul_avx512(m: usize, n: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    matmul_generic::<4, 64>(m, n, depth, a, b, c, ldc)
}

/// Blocks of `MR` rows × `NR` columns, each a register tile that walks the whole depth; a column
/// panel of `b` (depth × NR) stays in the L1 cache while every row block passes over it. The
/// leftover rows and columns go through smaller tiles of the same form.
#[inline(always)]
pub fn matmul_generic<const MR: usize, const NR: usize>(
    m: usize,
    n: usize,
    depth: usize,
    a: Mat,
    b: Mat,
    c: &mut [f32],
    ldc: usize,
) {
    let mut j = 0;
    while j + NR <= n {
        let mut i = 0;
        while i + MR <= m {
            tile::<MR, NR>(i, j, depth, a, b, c, ldc);
            i += MR;
        }
        while i < m {
            tile::<1, NR>(i, j, depth, a, b, c, ldc);
            i += 1;
        }
        j += NR;
    }
    while j + 4 <= n {
        for i in 0..m {
            tile::<1, 4>(i, j, depth, a, b, c, ldc);
        }
        j += 4;
    }
    while j < n {
        for i in 0..m {
            tile::<1, 1>(i, j, depth, a, b, c, ldc);
        }
        j += 1;
    }
}

#[inline(always)]
fn tile<const R: usize, const C: usize>(i: usize, j: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    let mut acc = [[0f32; C]; R];
    let rows: [&[f32]; R] = std::array::from_fn(|r| &a.data[(i + r) * a.stride..(i + r) * a.stride + depth]);
    for k in 0..depth {
        let brow: &[f32; C] = b.data[k * b.stride + j..k * b.stride + j + C].try_into().unwrap();
        for r in 0..R {
            let x = rows[r][k];
            for q in 0..C {
                acc[r][q] = acc[r][q] + x * brow[q];
            }
        }
    }
    for r in 0..R {
        c[(i + r) * ldc + j..(i + r) * ldc + j + C].copy_from_slice(&acc[r]);
    }
}

/// Runs `f` over `xs` compiled for the kernel's instruction set (elementwise functions vectorise
/// across elements; the results do not depend on the choice).
pub fn map_inplace(kernel: Kernel, xs: &mut [f32], f: fn(f32) -> f32) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel was detected on this CPU.
        Kernel::Avx2 | Kernel::Avx512 => unsafe { map_avx2(xs, f) },
        _ => map_generic(xs, f),
    }
}

#[inline(always)]
fn map_generic(xs: &mut [f32], f: fn(f32) -> f32) {
    for x in xs {
        *x = f(*x);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn map_avx2(xs: &mut [f32], f: fn(f32) -> f32) {
    map_generic(xs, f)
}

const LOG2_E: f32 = std::f32::consts::LOG2_E;
/// ln 2 split so that `n · LN2_HI` is exact for |n| < 2^8.
const LN2_HI: f32 = 0.693_145_75;
const LN2_LO: f32 = 1.428_606_8e-6;

/// e^x in f32 (relative error a few ulp), for x up to 88 (clamped there); below -87.3 the result is the smallest
/// normal number rather than a subnormal or zero (no use here tells them apart).
#[inline(always)]
pub fn exp(x: f32) -> f32 {
    let x = x.clamp(-87.3, 88.0);
    // n = round(x / ln 2) by the 1.5·2^23 trick (exact in round-to-nearest), r = x - n ln 2.
    let shift = 12_582_912.0f32;
    let n = (x * LOG2_E + shift) - shift;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    // e^r on |r| <= 0.35 by its Taylor series to r^7 (truncation error < 6e-9).
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    p * scale
}

/// erfc(z)·e^(z²) for z >= 0 as a polynomial in t = 1/(1 + z/2): our own least-squares fit over
/// 0 <= z <= 6 (relative error below 3e-7 in f32).
#[inline(always)]
fn erfcx(z: f32) -> f32 {
    let t = 1.0 / (1.0 + 0.5 * z);
    const C: [f32; 10] = [
        -4.447_884_2e-5,
        0.282_947_06,
        0.275_219_9,
        0.276_627_57,
        0.105_144_06,
        0.156_299_17,
        0.056_690_03,
        -0.320_213_3,
        0.213_206_25,
        -0.045_876_33,
    ];
    let mut p = C[9];
    for k in (0..9).rev() {
        p = p * t + C[k];
    }
    p
}

/// GELU with the exact (erf) form: x · Φ(x) = x/2 · erfc(-x/√2), through `erfcx`; beyond |x/√2| = 6
/// the tail is below f32 resolution.
#[inline(always)]
pub fn gelu(x: f32) -> f32 {
    let z = (x * std::f32::consts::FRAC_1_SQRT_2).clamp(-6.0, 6.0);
    let az = z.abs();
    let tail = exp(-(az * az)) * erfcx(az); // erfc(|z|)
    // erfc(-z) = erfc(|z|) for z < 0, and 2 - erfc(z) for z >= 0.
    let erfc_neg = if z < 0.0 { tail } else { 2.0 - tail };
    0.5 * x * erfc_neg
}

/// Natural logarithm in f64 from `+ - * /` (for the legal-move softmax): x = 2^e · m with
/// m in [√½, √2), ln m = 2·atanh(s), s = (m-1)/(m+1), |s| < 0.172, series to s^23.
pub fn ln64(x: f64) -> f64 {
    if x.is_nan() || x < 0.0 {
        return f64::NAN;
    }
    if x == 0.0 {
        return f64::NEG_INFINITY;
    }
    if x.is_infinite() {
        return x;
    }
    let (mut m, mut e) = (x, 0i32);
    if m < f64::MIN_POSITIVE {
        m *= 2f64.powi(64);
        e -= 64;
    }
    let bits = m.to_bits();
    e += ((bits >> 52) & 0x7ff) as i32 - 1023;
    m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1023u64 << 52)); // in [1, 2)
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    let mut sum = 0.0;
    for k in (0..12).rev() {
        sum = sum * s2 + 1.0 / (2 * k + 1) as f64;
    }
    2.0 * s * sum + e as f64 * std::f64::consts::LN_2
}

/// e^x in f64 from `+ - * /` (for the legal-move softmax; x <= 0 there): x = n ln 2 + r,
/// |r| <= ln2/2, Taylor series to r^16.
pub fn exp64(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < -745.0 {
        return 0.0;
    }
    if x > 709.0 {
        return f64::INFINITY;
    }
    let n = (x * std::f64::consts::LOG2_E).round();
    let r = x - n * std::f64::consts::LN_2;
    let mut p = 1.0;
    for k in (1..=16).rev() {
        p = 1.0 + p * r / k as f64;
    }
    // 2^n in two steps so that n down to -1075 stays representable.
    let half = (n / 2.0).trunc();
    p * 2f64.powi(half as i32) * 2f64.powi((n - half) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_and_gelu_are_accurate() {
        for i in -2000..=2000 {
            let x = i as f32 * 0.01;
            let want = (x as f64).exp();
            let got = exp(x) as f64;
            assert!(((got - want) / want).abs() < 4e-7, "exp({x}) = {got}, want {want}");
        }
        for i in -1000..=1000 {
            let x = i as f32 * 0.01;
            let want = 0.5 * x as f64 * (1.0 + erf64(x as f64 / 2f64.sqrt()));
            let got = gelu(x) as f64;
            assert!((got - want).abs() < 1e-6 * (1.0 + want.abs()), "gelu({x}) = {got}, want {want}");
        }
    }

    /// erf by its Taylor series in f64 (accurate for |x| < 3.5, enough for the test).
    fn erf64(x: f64) -> f64 {
        if x.abs() > 5.0 {
            return x.signum();
        }
        let (mut term, mut sum, mut k) = (x, x, 0.0);
        while term.abs() > 1e-17 * sum.abs().max(1e-300) {
            k += 1.0;
            term *= -x * x / k;
            sum += term / (2.0 * k + 1.0);
            if k > 200.0 {
                break;
            }
        }
        sum * 2.0 / std::f64::consts::PI.sqrt()
    }

    #[test]
    fn ln_and_exp64_are_accurate() {
        for &x in &[1e-300, 1e-10, 0.1, 0.5, 0.7, 1.0, 1.5, 2.0, 10.0, 1e10, 1e300] {
            assert!((ln64(x) - x.ln()).abs() < 1e-13 * (1.0 + x.ln().abs()), "ln {x}");
        }
        for &x in &[-700.0, -50.0, -3.3, -1.0, -1e-9, 0.0, 0.5, 3.0, 50.0] {
            let (g, w) = (exp64(x), f64::exp(x));
            assert!(((g - w) / w).abs() < 1e-13, "exp64 {x}: {g} vs {w}");
        }
    }
}

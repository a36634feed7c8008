//! The arithmetic of the forward pass, written so that its results are bit-identical on every CPU
//! and build:
//!
//! - every dot product runs in ascending k-order, from 0, as `acc = fma(a, b, acc)`: the IEEE 754
//!   fused multiply-add, exactly rounded once, so its result is defined to the bit. The CPU's FMA
//!   instruction computes it where there is one (x86-64 with FMA3, picked at run time, so the
//!   baseline SSE2 build uses it too; AArch64 always); elsewhere [`fma_soft`] computes the same
//!   bits from `f64` arithmetic (slowly). Rust never fuses a plain `a * b + c` by itself, so every
//!   other multiply and add stays separately rounded in any build;
//! - vectorisation is only ever *across independent outputs* (the columns of a matrix product,
//!   the elements of a vector), so a SIMD lane performs exactly the operations the scalar code
//!   would: the AVX2 and AVX-512 kernels, chosen at run time, and the portable kernel give the same
//!   bits (tested: `maia3_kernels_agree_bit_for_bit`);
//! - `exp`, `erfc` (for GELU) and `ln` are our own, from `+ - * /`, `sqrt` and bit manipulation,
//!   all correctly rounded IEEE operations, so no platform maths library enters;
//! - no threads.
//!
//! Cost: one position is 312 M multiply-adds (8 layers × 37.7 M: QKV 12.6 M, attention 2.1 M,
//! output 4.2 M, feed-forward 16.8 M, attention bias 2.1 M; plus 9.4 M in the move head), 624 MFLOP.

// `a = a + x * y` is written out where it occurs: the order of the rounded operations is the point.
#![allow(clippy::assign_op_pattern, clippy::needless_range_loop, clippy::too_many_arguments)]

/// Which matrix-product kernel runs. All give identical results; they differ only in speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust for the build's baseline: the hardware FMA on AArch64, [`fma_soft`] elsewhere.
    Portable,
    /// AVX2 + FMA3 (x86-64), chosen at run time where the CPU has both.
    Avx2,
    /// AVX-512F + FMA3 (x86-64), chosen at run time where the CPU has both.
    Avx512,
}

impl Kernel {
    /// The fastest kernel this CPU runs.
    pub fn detect() -> Kernel {
        *Kernel::available().last().expect("the portable kernel always runs")
    }

    /// Every kernel this CPU can run, slowest first (for the test that they agree).
    pub fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut v = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            let fma = std::arch::is_x86_feature_detected!("fma");
            if fma && std::arch::is_x86_feature_detected!("avx2") {
                v.push(Kernel::Avx2);
            }
            if fma && std::arch::is_x86_feature_detected!("avx512f") {
                v.push(Kernel::Avx512);
            }
        }
        v
    }
}

/// The fused multiply-add `a · b + c` with one rounding (round to nearest even), from `f64`
/// arithmetic for CPUs without the instruction: the product of two f32 is exact in f64, the sum is
/// rounded once to f64, and the only case where rounding that again to f32 would differ from one
/// rounding — the f64 sum lying exactly halfway between two f32 while the true sum is not — is
/// detected with the exact error of the f64 addition and nudged towards the true value first.
#[inline(always)]
pub fn fma_soft(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let c = c as f64;
    let s = p + c;
    if !s.is_finite() || s == 0.0 {
        return (p + c) as f32;
    }
    // The exact error of s = p + c (Knuth's two-sum).
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    if err == 0.0 {
        return s as f32;
    }
    let halfway = if s.abs() >= f32::MIN_POSITIVE as f64 {
        // 29 more significand bits in f64 than in f32: halfway is 1 followed by 28 zeros.
        s.to_bits() & 0x1fff_ffff == 0x1000_0000
    } else {
        // Among the f32 subnormals the step is 2^-149: halfway is an odd multiple of 2^-150.
        let q = s * 2f64.powi(150);
        q == q.trunc() && q.abs() % 2.0 == 1.0
    };
    if !halfway {
        return s as f32;
    }
    let bits = s.to_bits();
    let away = (err > 0.0) == (s > 0.0);
    f64::from_bits(if away { bits + 1 } else { bits - 1 }) as f32
}

/// The canonical multiply-add of the portable kernel.
#[inline(always)]
fn fma_portable(a: f32, b: f32, c: f32) -> f32 {
    #[cfg(target_arch = "aarch64")]
    {
        a.mul_add(b, c) // one instruction on every AArch64 CPU
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        fma_soft(a, b, c)
    }
}

/// A matrix operand: `data[row * stride + col]`.
#[derive(Clone, Copy)]
pub struct Mat<'a> {
    pub data: &'a [f32],
    pub stride: usize,
}

/// `c[i][j] = Σ_k a[i][k] · b[k][j]` for i < m, j < n, k < depth: ascending k, from 0, one fused
/// multiply-add per term. `c` is overwritten.
pub fn matmul(kernel: Kernel, m: usize, n: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    if m == 0 || n == 0 {
        return;
    }
    assert!(a.data.len() >= (m - 1) * a.stride + depth, "matmul: a too short");
    assert!(b.data.len() >= depth.saturating_sub(1) * b.stride + n, "matmul: b too short");
    assert!(c.len() >= (m - 1) * ldc + n, "matmul: c too short");
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `Kernel::Avx2` is only handed out by `available` after checking AVX2 and FMA.
        Kernel::Avx2 => unsafe { matmul_avx2(m, n, depth, a, b, c, ldc) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above, for AVX-512F and FMA.
        Kernel::Avx512 => unsafe { matmul_avx512(m, n, depth, a, b, c, ldc) },
        _ => matmul_generic::<4, 8, false>(m, n, depth, a, b, c, ldc),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn matmul_avx2(m: usize, n: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    matmul_generic::<6, 16, true>(m, n, depth, a, b, c, ldc)
}

/// AVX-512: register tiles of 8 rows × 32 columns (16 accumulators) written with intrinsics, the
/// depth in slices of 256 so that the b panel (256 × 32 floats) stays in L1; between slices the
/// accumulators go through `c` unchanged (storing and reloading an f32 does not round), so the
/// sum is the same ascending chain. Leftover rows and columns: the generic code.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,fma")]
fn matmul_avx512(m: usize, n: usize, depth: usize, a: Mat, b: Mat, c: &mut [f32], ldc: usize) {
    use std::arch::x86_64::*;
    const MR: usize = 8;
    const NR: usize = 32;
    const KB: usize = 256;
    let (full_m, full_n) = (m / MR * MR, n / NR * NR);
    let mut k0 = 0;
    while k0 < depth {
        let k1 = (k0 + KB).min(depth);
        for j in (0..full_n).step_by(NR) {
            for i in (0..full_m).step_by(MR) {
                let mut acc = [[_mm512_setzero_ps(); 2]; MR];
                if k0 > 0 {
                    for r in 0..MR {
                        let row = &c[(i + r) * ldc + j..(i + r) * ldc + j + NR];
                        // SAFETY: `row` holds 32 floats.
                        unsafe {
                            acc[r][0] = _mm512_loadu_ps(row.as_ptr());
                            acc[r][1] = _mm512_loadu_ps(row.as_ptr().add(16));
                        }
                    }
                }
                for k in k0..k1 {
                    let brow = &b.data[k * b.stride + j..k * b.stride + j + NR];
                    // SAFETY: `brow` holds 32 floats.
                    let (b0, b1) = unsafe { (_mm512_loadu_ps(brow.as_ptr()), _mm512_loadu_ps(brow.as_ptr().add(16))) };
                    for r in 0..MR {
                        let x = _mm512_set1_ps(a.data[(i + r) * a.stride + k]);
                        acc[r][0] = _mm512_fmadd_ps(x, b0, acc[r][0]);
                        acc[r][1] = _mm512_fmadd_ps(x, b1, acc[r][1]);
                    }
                }
                for r in 0..MR {
                    let row = &mut c[(i + r) * ldc + j..(i + r) * ldc + j + NR];
                    // SAFETY: `row` holds 32 floats.
                    unsafe {
                        _mm512_storeu_ps(row.as_mut_ptr(), acc[r][0]);
                        _mm512_storeu_ps(row.as_mut_ptr().add(16), acc[r][1]);
                    }
                }
            }
        }
        k0 = k1;
    }
    // The leftover rows of the full column blocks, then the leftover columns of all rows.
    if full_m < m && full_n > 0 {
        let rest = Mat { data: &a.data[full_m * a.stride..], stride: a.stride };
        matmul_generic::<1, 16, true>(m - full_m, full_n, depth, rest, b, &mut c[full_m * ldc..], ldc);
    }
    if full_n < n {
        let bb = Mat { data: &b.data[full_n..], stride: b.stride };
        matmul_generic::<4, 16, true>(m, n - full_n, depth, a, bb, &mut c[full_n..], ldc);
    }
}

/// Blocks of `MR` rows × `NR` columns, each a register tile that walks the whole depth; a column
/// panel of `b` (depth × NR) stays in the L1 cache while every row block passes over it. The
/// leftover columns go through narrower tiles of the same form. `HW`: the multiply-add is the
/// instruction (`mul_add`, only inside functions compiled with FMA), else [`fma_portable`].
#[inline(always)]
fn matmul_generic<const MR: usize, const NR: usize, const HW: bool>(
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
        rows_of::<MR, NR, HW>(m, j, depth, a, b, c, ldc);
        j += NR;
    }
    while j + 8 <= n {
        rows_of::<MR, 8, HW>(m, j, depth, a, b, c, ldc);
        j += 8;
    }
    while j < n {
        rows_of::<MR, 1, HW>(m, j, depth, a, b, c, ldc);
        j += 1;
    }
}

/// Columns j..j+C of every row: tiles of R rows, then single rows.
#[inline(always)]
fn rows_of<const R: usize, const C: usize, const HW: bool>(
    m: usize,
    j: usize,
    depth: usize,
    a: Mat,
    b: Mat,
    c: &mut [f32],
    ldc: usize,
) {
    let mut i = 0;
    while i + R <= m {
        tile::<R, C, HW>(i, j, depth, a, b, c, ldc);
        i += R;
    }
    while i < m {
        tile::<1, C, HW>(i, j, depth, a, b, c, ldc);
        i += 1;
    }
}

#[inline(always)]
fn tile<const R: usize, const C: usize, const HW: bool>(
    i: usize,
    j: usize,
    depth: usize,
    a: Mat,
    b: Mat,
    c: &mut [f32],
    ldc: usize,
) {
    let mut acc = [[0f32; C]; R];
    let rows: [&[f32]; R] = std::array::from_fn(|r| &a.data[(i + r) * a.stride..(i + r) * a.stride + depth]);
    for k in 0..depth {
        let brow: &[f32; C] = b.data[k * b.stride + j..k * b.stride + j + C].try_into().unwrap();
        for r in 0..R {
            let x = rows[r][k];
            for q in 0..C {
                acc[r][q] = if HW { x.mul_add(brow[q], acc[r][q]) } else { fma_portable(x, brow[q], acc[r][q]) };
            }
        }
    }
    for r in 0..R {
        c[(i + r) * ldc + j..(i + r) * ldc + j + C].copy_from_slice(&acc[r]);
    }
}

/// Runs `f` over `xs` compiled for the kernel's instruction set (elementwise functions vectorise
/// across elements; the results do not depend on the choice).
pub fn map_inplace<F: Fn(f32) -> f32 + Copy>(kernel: Kernel, xs: &mut [f32], f: F) {
    match kernel {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel was detected on this CPU.
        Kernel::Avx2 | Kernel::Avx512 => unsafe { map_avx2(xs, f) },
        _ => map_generic(xs, f),
    }
}

#[inline(always)]
fn map_generic<F: Fn(f32) -> f32 + Copy>(xs: &mut [f32], f: F) {
    for x in xs {
        *x = f(*x);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn map_avx2<F: Fn(f32) -> f32 + Copy>(xs: &mut [f32], f: F) {
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
    let t = x * LOG2_E + shift;
    let n = t - shift;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    // e^r on |r| <= 0.35 by its Taylor series to r^7 (truncation error < 6e-9).
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0 + r * (1.0 / 5040.0)))))));
    // t's low significand bits hold n (two's complement): 2^n from them, in integer lanes.
    let scale = f32::from_bits(t.to_bits().wrapping_sub(0x4b40_0000).wrapping_add(127) << 23);
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
    fn soft_fma_is_the_fused_multiply_add() {
        // std's mul_add is the correctly rounded fused multiply-add (the instruction, or the C
        // library's fmaf); random operands over wide exponent ranges plus built halfway cases.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for i in 0..2_000_000u32 {
            let r = next();
            let f = |bits: u64, spread: u64| {
                let e = 127 + (bits % spread) as i32 - (spread / 2) as i32;
                let m = (bits >> 8) as u32 & 0x7f_ffff;
                let sign = ((bits >> 40) & 1) as u32;
                f32::from_bits((sign << 31) | ((e.clamp(0, 254) as u32) << 23) | m)
            };
            let spread = [8, 40, 300][(i % 3) as usize];
            let (a, b, c) = (f(r, spread), f(r >> 11, spread), f(next(), spread));
            let (want, got) = (a.mul_add(b, c), fma_soft(a, b, c));
            assert!(
                want.to_bits() == got.to_bits() || (want.is_nan() && got.is_nan()),
                "fma({a:e}, {b:e}, {c:e}) = {want:e}, soft {got:e}"
            );
            checked += 1;
        }
        // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 is halfway between two f32; a tiny addend decides.
        let x = 1.0 + 2f32.powi(-12);
        for c in [0.0, 2f32.powi(-60), -(2f32.powi(-60)), 2f32.powi(-24), -1.0, 1e-30] {
            assert_eq!(x.mul_add(x, c).to_bits(), fma_soft(x, x, c).to_bits(), "c = {c:e}");
            assert_eq!((-x).mul_add(x, -c).to_bits(), fma_soft(-x, x, -c).to_bits(), "c = {c:e}");
        }
        // Subnormal results.
        for (a, b, c) in
            [(1e-20f32, 1e-20f32, 1e-45f32), (3e-39, 0.5, 1e-45), (1.5e-45, 0.5, 0.0), (1.5e-45, 1.5, -1.4e-45)]
        {
            assert_eq!(a.mul_add(b, c).to_bits(), fma_soft(a, b, c).to_bits(), "{a:e} {b:e} {c:e}");
        }
        assert_eq!(checked, 2_000_000);
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

//! The vector operations the forward pass is written in, one implementation per instruction set:
//! AVX-512 (16 lanes), AVX2 with FMA (8 lanes) and a portable one (8 lanes of plain arrays the
//! compiler vectorises with what the target guarantees). The pass's kernels are generic over
//! [`Simd`] and run inside a function compiled for the level [`Level::detect`] found at run time,
//! so one binary uses the machine's widest vectors and still runs anywhere.

#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::*;

/// The instruction set the pass runs with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    Portable,
}

impl Level {
    /// The widest level this CPU runs.
    pub fn detect() -> Level {
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx512f") {
                return Level::Avx512;
            }
            if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
                return Level::Avx2;
            }
        }
        Level::Portable
    }

    /// Every level this CPU runs, widest first (the tests compare them).
    #[cfg(test)]
    pub fn available() -> Vec<Level> {
        let mut all = vec![Level::detect()];
        #[cfg(target_arch = "x86_64")]
        if all[0] == Level::Avx512 && Level::avx2() {
            all.push(Level::Avx2);
        }
        if all[0] != Level::Portable {
            all.push(Level::Portable);
        }
        all
    }

    #[cfg(all(test, target_arch = "x86_64"))]
    fn avx2() -> bool {
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
    }
}

/// A vector of `W` f32 lanes. Every method is `unsafe`: the pointers must hold `W` readable
/// (or writable) floats, and the CPU must run the implementation's instruction set.
pub trait Simd: Copy {
    type V: Copy;
    const W: usize;
    /// Output channel vectors a matrix kernel keeps in registers at once, and tiles.
    const KB: usize;
    const NT: usize;
    unsafe fn zero() -> Self::V;
    unsafe fn splat(x: f32) -> Self::V;
    unsafe fn load(p: *const f32) -> Self::V;
    unsafe fn store(p: *mut f32, v: Self::V);
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    unsafe fn mul(a: Self::V, b: Self::V) -> Self::V;
    /// `a * b + c` (fused where the instruction set has it).
    unsafe fn fma(a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    unsafe fn max(a: Self::V, b: Self::V) -> Self::V;
}

#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct Avx512;

#[cfg(target_arch = "x86_64")]
impl Simd for Avx512 {
    type V = __m512;
    const W: usize = 16;
    // 4 x 6 accumulators, 4 weight vectors and a broadcast of the 32 registers
    const KB: usize = 4;
    const NT: usize = 6;
    #[inline(always)]
    unsafe fn zero() -> __m512 {
        _mm512_setzero_ps()
    }
    #[inline(always)]
    unsafe fn splat(x: f32) -> __m512 {
        _mm512_set1_ps(x)
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> __m512 {
        unsafe { _mm512_loadu_ps(p) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m512) {
        unsafe { _mm512_storeu_ps(p, v) }
    }
    #[inline(always)]
    unsafe fn add(a: __m512, b: __m512) -> __m512 {
        _mm512_add_ps(a, b)
    }
    #[inline(always)]
    unsafe fn sub(a: __m512, b: __m512) -> __m512 {
        _mm512_sub_ps(a, b)
    }
    #[inline(always)]
    unsafe fn mul(a: __m512, b: __m512) -> __m512 {
        _mm512_mul_ps(a, b)
    }
    #[inline(always)]
    unsafe fn fma(a: __m512, b: __m512, c: __m512) -> __m512 {
        _mm512_fmadd_ps(a, b, c)
    }
    #[inline(always)]
    unsafe fn max(a: __m512, b: __m512) -> __m512 {
        _mm512_max_ps(a, b)
    }
}

#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
pub struct Avx2;

#[cfg(target_arch = "x86_64")]
impl Simd for Avx2 {
    type V = __m256;
    const W: usize = 8;
    // 4 x 2 accumulators, 4 weight vectors and a broadcast of the 16 registers
    const KB: usize = 4;
    const NT: usize = 2;
    #[inline(always)]
    unsafe fn zero() -> __m256 {
        _mm256_setzero_ps()
    }
    #[inline(always)]
    unsafe fn splat(x: f32) -> __m256 {
        _mm256_set1_ps(x)
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> __m256 {
        unsafe { _mm256_loadu_ps(p) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: __m256) {
        unsafe { _mm256_storeu_ps(p, v) }
    }
    #[inline(always)]
    unsafe fn add(a: __m256, b: __m256) -> __m256 {
        _mm256_add_ps(a, b)
    }
    #[inline(always)]
    unsafe fn sub(a: __m256, b: __m256) -> __m256 {
        _mm256_sub_ps(a, b)
    }
    #[inline(always)]
    unsafe fn mul(a: __m256, b: __m256) -> __m256 {
        _mm256_mul_ps(a, b)
    }
    #[inline(always)]
    unsafe fn fma(a: __m256, b: __m256, c: __m256) -> __m256 {
        _mm256_fmadd_ps(a, b, c)
    }
    #[inline(always)]
    unsafe fn max(a: __m256, b: __m256) -> __m256 {
        _mm256_max_ps(a, b)
    }
}

/// Plain arrays: what any target runs (SSE2 on x86_64, NEON on aarch64, by autovectorisation).
#[derive(Clone, Copy)]
pub struct Portable;

type P8 = [f32; 8];

#[inline(always)]
fn lanes(f: impl Fn(usize) -> f32) -> P8 {
    std::array::from_fn(f)
}

impl Simd for Portable {
    type V = P8;
    const W: usize = 8;
    const KB: usize = 2;
    const NT: usize = 4;
    #[inline(always)]
    unsafe fn zero() -> P8 {
        [0.0; 8]
    }
    #[inline(always)]
    unsafe fn splat(x: f32) -> P8 {
        [x; 8]
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> P8 {
        unsafe { p.cast::<P8>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(p: *mut f32, v: P8) {
        unsafe { p.cast::<P8>().write_unaligned(v) }
    }
    #[inline(always)]
    unsafe fn add(a: P8, b: P8) -> P8 {
        lanes(|i| a[i] + b[i])
    }
    #[inline(always)]
    unsafe fn sub(a: P8, b: P8) -> P8 {
        lanes(|i| a[i] - b[i])
    }
    #[inline(always)]
    unsafe fn mul(a: P8, b: P8) -> P8 {
        lanes(|i| a[i] * b[i])
    }
    #[inline(always)]
    unsafe fn fma(a: P8, b: P8, c: P8) -> P8 {
        lanes(|i| a[i] * b[i] + c[i])
    }
    #[inline(always)]
    unsafe fn max(a: P8, b: P8) -> P8 {
        lanes(|i| a[i].max(b[i]))
    }
}

//! The forward pass's kernels for the instruction set the CPU runs: a table of the generic
//! kernels of `wino` compiled once per [`Level`] (inside functions with that target feature, so
//! the vector intrinsics inline), behind safe functions that check every size first.

#[cfg(target_arch = "x86_64")]
use super::simd::{Avx2, Avx512};
use super::simd::{Level, Portable};
use super::wino::{self, Act, MatMul, Output, LANES, POINTS, TILES};

/// `m = v u` for the 36 points: `(u, v, m, tiles, cin, cout)`.
type GemmFn = unsafe fn(&[f32], &[f32], &mut [f32], usize, usize, usize);

/// The kernels compiled for one instruction set.
#[derive(Clone, Copy)]
pub struct Kernels {
    matmul: unsafe fn(&mut MatMul),
    input: unsafe fn(&[f32], usize, usize, &mut [f32]),
    gemm: GemmFn,
    output: unsafe fn(&[f32], &mut Output),
}

/// The four kernels of one instruction set, as functions compiled with its target feature.
macro_rules! level {
    ($S:ty, [$matmul:ident, $input:ident, $gemm:ident, $output:ident] $(, $feature:literal)?) => {
        $(#[target_feature(enable = $feature)])?
        unsafe fn $matmul(m: &mut MatMul) {
            unsafe { wino::matmul::<$S>(m) }
        }
        $(#[target_feature(enable = $feature)])?
        unsafe fn $input(x: &[f32], channels: usize, positions: usize, v: &mut [f32]) {
            unsafe { wino::input::<$S>(x, channels, positions, v) }
        }
        $(#[target_feature(enable = $feature)])?
        unsafe fn $gemm(u: &[f32], v: &[f32], m: &mut [f32], tiles: usize, cin: usize, cout: usize) {
            unsafe { wino::gemm::<$S>(u, v, m, tiles, cin, cout) }
        }
        $(#[target_feature(enable = $feature)])?
        unsafe fn $output(m: &[f32], o: &mut Output) {
            unsafe { wino::output::<$S>(m, o) }
        }
    };
}

#[cfg(target_arch = "x86_64")]
level!(
    Avx512,
    [matmul_avx512, input_avx512, gemm_avx512, output_avx512],
    "avx512f"
);
#[cfg(target_arch = "x86_64")]
level!(
    Avx2,
    [matmul_avx2, input_avx2, gemm_avx2, output_avx2],
    "avx2,fma"
);
level!(
    Portable,
    [
        matmul_portable,
        input_portable,
        gemm_portable,
        output_portable
    ]
);

impl Kernels {
    pub fn new(level: Level) -> Kernels {
        match level {
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => Kernels {
                matmul: matmul_avx512,
                input: input_avx512,
                gemm: gemm_avx512,
                output: output_avx512,
            },
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => Kernels {
                matmul: matmul_avx2,
                input: input_avx2,
                gemm: gemm_avx2,
                output: output_avx2,
            },
            Level::Portable => Kernels {
                matmul: matmul_portable,
                input: input_portable,
                gemm: gemm_portable,
                output: output_portable,
            },
        }
    }

    pub fn matmul(&self, m: &mut MatMul) {
        assert!(m.cols.is_multiple_of(LANES) && m.lda >= m.depth && m.ldc >= m.cols);
        assert!(m.rows == 0 || m.a.len() >= (m.rows - 1) * m.lda + m.depth);
        assert!(m.b.len() >= m.depth * m.cols);
        assert!(m.rows == 0 || m.c.len() >= (m.rows - 1) * m.ldc + m.cols);
        // SAFETY: the sizes are checked above; `level` came from `Level`, which only names
        // instruction sets the CPU runs.
        unsafe { (self.matmul)(m) }
    }

    /// A 3x3 convolution of the channels-last `x` (`cin` channels, padded) into `o.out`, with
    /// the transformed weights `u` and the scratch `v`, `m` (as long as the batch needs).
    pub fn conv3(
        &self,
        x: &[f32],
        cin: usize,
        u: &[f32],
        v: &mut [f32],
        m: &mut [f32],
        mut o: Output,
    ) {
        let (cout, tiles) = (o.channels, o.positions * TILES);
        assert!(cin.is_multiple_of(LANES) && cout.is_multiple_of(LANES));
        assert!(x.len() >= o.positions * 64 * cin && u.len() == POINTS * cin * cout);
        assert!(v.len() >= POINTS * tiles * cin && m.len() >= POINTS * tiles * cout);
        assert!(o.out.len() >= o.positions * 64 * cout && o.bias.len() >= cout);
        assert!(o.skip.is_none_or(|s| s.len() >= o.positions * 64 * cout));
        assert_eq!(o.skip.is_some(), o.act == Act::ResidualRelu);
        assert!(o
            .pool
            .as_ref()
            .is_none_or(|p| p.len() >= o.positions * cout));
        // SAFETY: as in `matmul`
        unsafe {
            (self.input)(x, cin, o.positions, v);
            (self.gemm)(u, v, m, tiles, cin, cout);
            (self.output)(m, &mut o);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic values in [-1, 1).
    fn values(n: usize, seed: u64) -> Vec<f32> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((x >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
            })
            .collect()
    }

    #[test]
    fn matmul_equals_the_plain_product_at_every_level_and_shape() {
        for level in Level::available() {
            let k = Kernels::new(level);
            for (rows, depth, cols) in [(1, 64, 64), (7, 33, 80), (13, 112, 32), (64, 2048, 128)] {
                let (a, b) = (values(rows * depth, 1), values(depth * cols, 2));
                let mut c = vec![0.0; rows * cols];
                k.matmul(&mut MatMul {
                    rows,
                    depth,
                    cols,
                    a: &a,
                    lda: depth,
                    b: &b,
                    c: &mut c,
                    ldc: cols,
                });
                for r in 0..rows {
                    for j in 0..cols {
                        let want: f64 = (0..depth)
                            .map(|d| f64::from(a[r * depth + d]) * f64::from(b[d * cols + j]))
                            .sum();
                        let got = f64::from(c[r * cols + j]);
                        assert!(
                            (got - want).abs() < 1e-4 * depth as f64,
                            "{level:?} {rows}x{depth}x{cols}: {got} vs {want}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn winograd_equals_the_direct_convolution_at_every_level() {
        let (positions, cin, cout) = (3, 32, 48);
        let x = values(positions * 64 * cin, 3);
        let w = values(cout * cin * 9, 4);
        let bias = values(cout, 5);
        let skip = values(positions * 64 * cout, 6);
        let u = wino::transform_weights(&w, cout, cin);
        // the direct convolution with zero padding, in f64, plus bias and skip, then ReLU
        let mut want = vec![0f64; positions * 64 * cout];
        for p in 0..positions {
            for sq in 0..64 {
                let (y, xx) = (sq / 8, sq % 8);
                for o in 0..cout {
                    let mut s = f64::from(bias[o]) + f64::from(skip[(p * 64 + sq) * cout + o]);
                    for i in 0..cin {
                        for dy in 0..3 {
                            for dx in 0..3 {
                                let (sy, sx) =
                                    ((y + dy).wrapping_sub(1), (xx + dx).wrapping_sub(1));
                                if sy < 8 && sx < 8 {
                                    s += f64::from(w[(o * cin + i) * 9 + dy * 3 + dx])
                                        * f64::from(x[(p * 64 + sy * 8 + sx) * cin + i]);
                                }
                            }
                        }
                    }
                    want[(p * 64 + sq) * cout + o] = s.max(0.0);
                }
            }
        }
        for level in Level::available() {
            let k = Kernels::new(level);
            let tiles = positions * TILES;
            let (mut v, mut m) = (
                vec![0.0; POINTS * tiles * cin],
                vec![0.0; POINTS * tiles * cout],
            );
            let mut out = vec![0.0; positions * 64 * cout];
            let mut pool = vec![0.0; positions * cout];
            k.conv3(
                &x,
                cin,
                &u,
                &mut v,
                &mut m,
                Output {
                    positions,
                    channels: cout,
                    bias: &bias,
                    act: Act::ResidualRelu,
                    skip: Some(&skip),
                    out: &mut out,
                    pool: Some(&mut pool),
                },
            );
            let worst = out
                .iter()
                .zip(&want)
                .map(|(g, w)| (f64::from(*g) - w).abs())
                .fold(0.0, f64::max);
            assert!(worst < 1e-4, "{level:?}: largest difference {worst}");
            // the pool sums the board before the skip and ReLU: check one channel
            let sum: f64 = (0..64)
                .map(|sq| f64::from(out[sq * cout]) - f64::from(skip[sq * cout]))
                .sum();
            if out[..64 * cout].iter().step_by(cout).all(|&v| v > 0.0) {
                assert!((f64::from(pool[0]) - sum).abs() < 1e-3);
            }
        }
    }
}

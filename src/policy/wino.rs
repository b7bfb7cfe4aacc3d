//! The 3x3 convolution by Winograd's F(4x4, 3x3) (Lavin and Gray, "Fast Algorithms for
//! Convolutional Neural Networks", 2016) and a register-blocked matrix product, generic over the
//! vector type. Each 4x4 output tile of the 8x8 board comes from a 6x6 input tile as
//! `A^T [(G g G^T) . (B^T d B)] A`: 36 multiplications where the direct form needs 144. The
//! interpolation points are 0, 3/2, -3/2, 2/3, -2/3 and infinity rather than the usual 0, 1, -1,
//! 2, -2: in f32 a 64-channel convolution's error is then about 2.5 times smaller (the usual
//! points put the Maia nets' logits up to 1.3e-4 from the direct convolution's, these 3.4e-5).
//! The
//! weights' side, `G g G^T`, is computed once at load ([`transform_weights`]); per convolution
//! the inputs are transformed ([`input`]), 36 matrix products (one per point of the 6x6 tile,
//! each over all tiles of the batch) multiply them with the weights ([`gemm`]), and the output
//! transform ([`output`]) adds the bias, the activation, the skip connection and the
//! squeeze-excitation's pooling while the tile is in registers.
//!
//! Activations are channels-last, `[position][square][channel]`, channel counts padded to a
//! multiple of [`LANES`] so every instruction set's vectors tile them. Transformed inputs are
//! `v[36][tile][channel]`, products `m[36][tile][channel]`, tile = position * 4 + 2 * row +
//! column. The functions here check nothing: `kernels` checks the sizes and the CPU first.

use super::simd::Simd;

/// Channels are padded to a multiple of this (the widest vector).
pub const LANES: usize = 16;
/// Points of the transformed 6x6 tile.
pub const POINTS: usize = 36;
/// 4x4 output tiles of one 8x8 board.
pub const TILES: usize = 4;

pub fn padded(channels: usize) -> usize {
    channels.div_ceil(LANES) * LANES
}

/// `G g G^T` of every filter: `w` is `[out][inp][3][3]`; the result `[36][inp_p][out_p]` with
/// zeros in the padding. Computed in f64.
pub fn transform_weights(w: &[f32], out: usize, inp: usize) -> Vec<f32> {
    const G: [[f64; 3]; 6] = [
        [1.0, 0.0, 0.0],
        [8.0 / 65.0, 12.0 / 65.0, 18.0 / 65.0],
        [8.0 / 65.0, -12.0 / 65.0, 18.0 / 65.0],
        [-81.0 / 130.0, -27.0 / 65.0, -18.0 / 65.0],
        [-81.0 / 130.0, 27.0 / 65.0, -18.0 / 65.0],
        [0.0, 0.0, 1.0],
    ];
    let (ip, op) = (padded(inp), padded(out));
    let mut u = vec![0.0f32; POINTS * ip * op];
    for o in 0..out {
        for i in 0..inp {
            let g = &w[(o * inp + i) * 9..(o * inp + i) * 9 + 9];
            // gg = G g (6x3), then (G g) G^T (6x6)
            let mut gg = [[0.0f64; 3]; 6];
            for (r, row) in G.iter().enumerate() {
                for c in 0..3 {
                    gg[r][c] = (0..3).map(|k| row[k] * f64::from(g[k * 3 + c])).sum();
                }
            }
            for a in 0..6 {
                for b in 0..6 {
                    let x: f64 = (0..3).map(|k| gg[a][k] * G[b][k]).sum();
                    u[((a * 6 + b) * ip + i) * op + o] = x as f32;
                }
            }
        }
    }
    u
}

/// `c[r][k] = sum_d a[r * lda + d] * b[d * cols + k]` for `r < rows`, `k < cols`; `cols` a
/// multiple of [`LANES`]; `c`'s rows `ldc` apart.
pub struct MatMul<'a> {
    pub rows: usize,
    pub depth: usize,
    pub cols: usize,
    pub a: &'a [f32],
    pub lda: usize,
    pub b: &'a [f32],
    pub c: &'a mut [f32],
    pub ldc: usize,
}

/// What follows the output transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Act {
    None,
    Relu,
    /// `relu(y + skip)`.
    ResidualRelu,
}

/// The output transform of one convolution: the products to the channels-last `out` (`channels` a
/// multiple of [`LANES`]), plus `bias`, then `act` (with `skip`, as long as `out`, for
/// [`Act::ResidualRelu`]); when `pool` is given (`[position][channels]`, zeroed), each
/// channel's sum over the board is added to it.
pub struct Output<'a> {
    pub positions: usize,
    pub channels: usize,
    pub bias: &'a [f32],
    pub act: Act,
    pub skip: Option<&'a [f32]>,
    pub out: &'a mut [f32],
    pub pool: Option<&'a mut [f32]>,
}

/// The matrix product's inner block: `KB` vectors of output columns by `NT` rows, kept in
/// registers over the whole depth.
#[inline(always)]
unsafe fn block<S: Simd, const KB: usize, const NT: usize>(m: &mut MatMul, row: usize, col: usize) {
    let mut acc = [[unsafe { S::zero() }; NT]; KB];
    let a = unsafe { m.a.as_ptr().add(row * m.lda) };
    let b = unsafe { m.b.as_ptr().add(col) };
    for d in 0..m.depth {
        let mut w = [unsafe { S::zero() }; KB];
        for (j, w) in w.iter_mut().enumerate() {
            *w = unsafe { S::load(b.add(d * m.cols + j * S::W)) };
        }
        for t in 0..NT {
            let x = unsafe { S::splat(*a.add(t * m.lda + d)) };
            for (acc, &w) in acc.iter_mut().zip(&w) {
                acc[t] = unsafe { S::fma(w, x, acc[t]) };
            }
        }
    }
    let c = unsafe { m.c.as_mut_ptr().add(row * m.ldc + col) };
    for (j, acc) in acc.iter().enumerate() {
        for (t, &v) in acc.iter().enumerate() {
            unsafe { S::store(c.add(t * m.ldc + j * S::W), v) };
        }
    }
}

#[inline(always)]
unsafe fn rows<S: Simd, const KB: usize>(m: &mut MatMul, col: usize) {
    let mut row = 0;
    while row < m.rows {
        let nt = (m.rows - row).min(S::NT);
        unsafe {
            match nt {
                1 => block::<S, KB, 1>(m, row, col),
                2 => block::<S, KB, 2>(m, row, col),
                3 => block::<S, KB, 3>(m, row, col),
                4 => block::<S, KB, 4>(m, row, col),
                5 => block::<S, KB, 5>(m, row, col),
                _ => block::<S, KB, 6>(m, row, col),
            }
        }
        row += nt;
    }
}

/// See [`MatMul`].
#[inline(always)]
pub unsafe fn matmul<S: Simd>(m: &mut MatMul) {
    let mut col = 0;
    while col < m.cols {
        let kb = ((m.cols - col) / S::W).min(S::KB);
        unsafe {
            match kb {
                1 => rows::<S, 1>(m, col),
                2 => rows::<S, 2>(m, col),
                3 => rows::<S, 3>(m, col),
                _ => rows::<S, 4>(m, col),
            }
        }
        col += kb * S::W;
    }
}

/// `B^T d` along one line of six.
#[inline(always)]
unsafe fn bt<S: Simd>(d: [S::V; 6]) -> [S::V; 6] {
    unsafe {
        let k = |x: f32| S::splat(x);
        let (a, b) = (k(2.0 / 3.0), k(1.5));
        let e1 = S::fma(k(-4.0 / 9.0), d[2], d[4]);
        let o1 = S::sub(S::mul(b, d[3]), S::mul(a, d[1]));
        let e2 = S::fma(k(-2.25), d[2], d[4]);
        let o2 = S::sub(S::mul(a, d[3]), S::mul(b, d[1]));
        let c = k(-97.0 / 36.0);
        [
            S::add(S::fma(c, d[2], d[0]), d[4]),
            S::add(e1, o1),
            S::sub(e1, o1),
            S::add(e2, o2),
            S::sub(e2, o2),
            S::add(S::fma(c, d[3], d[1]), d[5]),
        ]
    }
}

/// `A^T m` along one line of six.
#[inline(always)]
unsafe fn at<S: Simd>(m: [S::V; 6]) -> [S::V; 4] {
    unsafe {
        let k = |x: f32| S::splat(x);
        let p12 = S::add(m[1], m[2]);
        let m12 = S::sub(m[1], m[2]);
        let p34 = S::add(m[3], m[4]);
        let m34 = S::sub(m[3], m[4]);
        [
            S::add(S::add(m[0], p12), p34),
            S::fma(k(1.5), m12, S::mul(k(2.0 / 3.0), m34)),
            S::fma(k(2.25), p12, S::mul(k(4.0 / 9.0), p34)),
            S::add(S::fma(k(27.0 / 8.0), m12, S::mul(k(8.0 / 27.0), m34)), m[5]),
        ]
    }
}

/// The input transform: `x` channels-last (`channels` padded) to `v`.
#[inline(always)]
pub unsafe fn input<S: Simd>(x: &[f32], channels: usize, positions: usize, v: &mut [f32]) {
    let tiles = positions * TILES;
    let (x, v) = (x.as_ptr(), v.as_mut_ptr());
    for t in 0..tiles {
        let (p, ty, tx) = (t / TILES, (t % TILES) / 2, t % 2);
        for c in (0..channels).step_by(S::W) {
            let mut d = [[unsafe { S::zero() }; 6]; 6];
            for (i, row) in d.iter_mut().enumerate() {
                let y = (4 * ty + i).wrapping_sub(1);
                if y >= 8 {
                    continue;
                }
                for (j, d) in row.iter_mut().enumerate() {
                    let xx = (4 * tx + j).wrapping_sub(1);
                    if xx < 8 {
                        *d = unsafe { S::load(x.add((p * 64 + y * 8 + xx) * channels + c)) };
                    }
                }
            }
            // columns, then rows
            let mut cols = [[unsafe { S::zero() }; 6]; 6];
            for j in 0..6 {
                let r = unsafe { bt::<S>(std::array::from_fn(|i| d[i][j])) };
                for i in 0..6 {
                    cols[i][j] = r[i];
                }
            }
            for (i, line) in cols.iter().enumerate() {
                let r = unsafe { bt::<S>(*line) };
                for (j, &r) in r.iter().enumerate() {
                    let e = i * 6 + j;
                    unsafe { S::store(v.add((e * tiles + t) * channels + c), r) };
                }
            }
        }
    }
}

/// The 36 products `m[e] = v[e] u[e]`, each `tiles x cin` by `cin x cout`.
#[inline(always)]
pub unsafe fn gemm<S: Simd>(
    u: &[f32],
    v: &[f32],
    m: &mut [f32],
    tiles: usize,
    cin: usize,
    cout: usize,
) {
    for e in 0..POINTS {
        let mut mm = MatMul {
            rows: tiles,
            depth: cin,
            cols: cout,
            a: &v[e * tiles * cin..(e + 1) * tiles * cin],
            lda: cin,
            b: &u[e * cin * cout..(e + 1) * cin * cout],
            c: &mut m[e * tiles * cout..(e + 1) * tiles * cout],
            ldc: cout,
        };
        unsafe { matmul::<S>(&mut mm) };
    }
}

/// The output transform, see [`Output`].
#[inline(always)]
pub unsafe fn output<S: Simd>(m: &[f32], o: &mut Output) {
    let (channels, tiles) = (o.channels, o.positions * TILES);
    let m = m.as_ptr();
    let out = o.out.as_mut_ptr();
    let skip = o.skip.map(<[f32]>::as_ptr);
    for t in 0..tiles {
        let (p, ty, tx) = (t / TILES, (t % TILES) / 2, t % 2);
        for c in (0..channels).step_by(S::W) {
            let mut cols = [[unsafe { S::zero() }; 6]; 4];
            for j in 0..6 {
                let line = std::array::from_fn(|i| unsafe {
                    S::load(m.add(((i * 6 + j) * tiles + t) * channels + c))
                });
                let r = unsafe { at::<S>(line) };
                for (col, r) in cols.iter_mut().zip(r) {
                    col[j] = r;
                }
            }
            let bias = unsafe { S::load(o.bias.as_ptr().add(c)) };
            let mut sum = unsafe { S::zero() };
            for (i, line) in cols.iter().enumerate() {
                let r = unsafe { at::<S>(*line) };
                for (j, &r) in r.iter().enumerate() {
                    let at = (p * 64 + (4 * ty + i) * 8 + 4 * tx + j) * channels + c;
                    unsafe {
                        let mut y = S::add(r, bias);
                        sum = S::add(sum, y);
                        y = match (o.act, skip) {
                            (Act::None, _) => y,
                            (Act::Relu, _) => S::max(y, S::zero()),
                            (Act::ResidualRelu, Some(s)) => {
                                S::max(S::add(y, S::load(s.add(at))), S::zero())
                            }
                            (Act::ResidualRelu, None) => unreachable!("checked by kernels"),
                        };
                        S::store(out.add(at), y);
                    }
                }
            }
            if let Some(pool) = o.pool.as_deref_mut() {
                unsafe {
                    let q = pool.as_mut_ptr().add(p * channels + c);
                    S::store(q, S::add(S::load(q), sum));
                }
            }
        }
    }
}

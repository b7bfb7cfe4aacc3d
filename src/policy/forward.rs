//! The forward pass: 3x3 convolutions as im2col + sgemm (matrixmultiply), squeeze-excitation,
//! the convolutional policy head and the WDL value head, for a batch of positions at once.
//!
//! Activations are `[channel][position * 64 + square]`, so one matrix product covers a whole
//! batch. Every buffer is sized at construction for the largest batch: evaluating allocates
//! nothing.

use super::weights::{Conv, Fc, Weights, INPUT_PLANES};

/// Scratch buffers of one evaluator.
pub struct Forward {
    pub max_batch: usize,
    /// The input planes, `[112][n]`.
    pub planes: Vec<f32>,
    /// The residual stream, `[filters][n]`.
    x: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    col: Vec<f32>,
    pool: Vec<f32>,
    hidden: Vec<f32>,
    gates: Vec<f32>,
    flat: Vec<f32>,
    fc1: Vec<f32>,
    /// The policy planes, `[planes][n]`.
    pub policy: Vec<f32>,
    /// Win, draw, loss per position.
    pub wdl: Vec<[f32; 3]>,
}

/// C (m x n, row-major) = A (m x k, row-major) times B (k x n, strides `rsb`, `csb`).
fn gemm(
    m: usize,
    k: usize,
    n: usize,
    a: &[f32],
    b: &[f32],
    (rsb, csb): (usize, usize),
    c: &mut [f32],
) {
    assert!(a.len() >= m * k);
    assert!(k == 0 || n == 0 || b.len() > (k - 1) * rsb + (n - 1) * csb);
    assert!(c.len() >= m * n);
    // SAFETY: the asserts above keep every access of the three matrices inside its slice.
    unsafe {
        matrixmultiply::sgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            k as isize,
            1,
            b.as_ptr(),
            rsb as isize,
            csb as isize,
            0.0,
            c.as_mut_ptr(),
            n as isize,
            1,
        );
    }
}

/// The nine shifted copies of each input channel that turn a 3x3 convolution (zero padding)
/// into one product: `col[(c * 9 + dy * 3 + dx)][p * 64 + sq]`.
fn im2col(input: &[f32], channels: usize, n: usize, col: &mut [f32]) {
    for c in 0..channels {
        let src = &input[c * n..(c + 1) * n];
        for dy in 0..3 {
            for dx in 0..3 {
                let row = &mut col[(c * 9 + dy * 3 + dx) * n..(c * 9 + dy * 3 + dx + 1) * n];
                for p in 0..n / 64 {
                    let s = &src[p * 64..p * 64 + 64];
                    let d = &mut row[p * 64..p * 64 + 64];
                    for y in 0..8 {
                        let sy = y + dy;
                        if !(1..=8).contains(&sy) {
                            d[y * 8..y * 8 + 8].fill(0.0);
                            continue;
                        }
                        let srow = &s[(sy - 1) * 8..(sy - 1) * 8 + 8];
                        let drow = &mut d[y * 8..y * 8 + 8];
                        for (x, d) in drow.iter_mut().enumerate() {
                            let sx = x + dx;
                            *d = if (1..=8).contains(&sx) {
                                srow[sx - 1]
                            } else {
                                0.0
                            };
                        }
                    }
                }
            }
        }
    }
}

/// Adds each output channel's bias, then ReLU when asked.
fn bias(out: &mut [f32], b: &[f32], n: usize, relu: bool) {
    for (o, &bo) in b.iter().enumerate() {
        let row = &mut out[o * n..(o + 1) * n];
        if relu {
            row.iter_mut().for_each(|v| *v = (*v + bo).max(0.0));
        } else {
            row.iter_mut().for_each(|v| *v += bo);
        }
    }
}

fn conv3(conv: &Conv, input: &[f32], n: usize, col: &mut [f32], out: &mut [f32], relu: bool) {
    im2col(input, conv.inp, n, col);
    gemm(conv.out, conv.inp * 9, n, &conv.w, col, (n, 1), out);
    bias(out, &conv.b, n, relu);
}

/// `out[p][o] = act(b[o] + sum_i w[o][i] in[p][i])` for `count` rows of input.
fn dense(fc: &Fc, input: &[f32], count: usize, out: &mut [f32], relu: bool) {
    for p in 0..count {
        let x = &input[p * fc.inp..(p + 1) * fc.inp];
        for o in 0..fc.out {
            let w = &fc.w[o * fc.inp..(o + 1) * fc.inp];
            let s: f32 = fc.b[o] + w.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
            out[p * fc.out + o] = if relu { s.max(0.0) } else { s };
        }
    }
}

impl Forward {
    pub fn new(w: &Weights, max_batch: usize) -> Forward {
        let n = max_batch * 64;
        let widest = [w.filters, w.policy1.out, w.policy.out, w.value.out]
            .into_iter()
            .max()
            .unwrap_or(0);
        let se_hidden = w
            .blocks
            .iter()
            .filter_map(|b| b.se.as_ref().map(|s| s.fc1.out))
            .max()
            .unwrap_or(0);
        let col_rows = 9 * INPUT_PLANES.max(w.filters).max(w.policy1.out);
        Forward {
            max_batch,
            planes: vec![0.0; INPUT_PLANES * n],
            x: vec![0.0; w.filters * n],
            a: vec![0.0; widest * n],
            b: vec![0.0; widest * n],
            col: vec![0.0; col_rows * n],
            pool: vec![0.0; w.filters * max_batch],
            hidden: vec![0.0; se_hidden * max_batch],
            gates: vec![0.0; 2 * w.filters * max_batch],
            flat: vec![0.0; w.value.out * 64 * max_batch],
            fc1: vec![0.0; w.ip1.out * max_batch],
            policy: vec![0.0; w.policy.out * n],
            wdl: vec![[0.0; 3]; max_batch],
        }
    }

    /// Runs the network on `count` positions whose planes fill `planes` as `[112][count * 64]`.
    pub fn run(&mut self, w: &Weights, count: usize) {
        assert!(count <= self.max_batch);
        let n = count * 64;
        conv3(&w.input, &self.planes, n, &mut self.col, &mut self.x, true);
        for block in &w.blocks {
            conv3(&block.conv1, &self.x, n, &mut self.col, &mut self.a, true);
            conv3(&block.conv2, &self.a, n, &mut self.col, &mut self.b, false);
            match &block.se {
                Some(se) => self.squeeze_excite(se, w.filters, count, n),
                None => {
                    let used = w.filters * n;
                    for (x, z) in self.x[..used].iter_mut().zip(&self.b[..used]) {
                        *x = (*x + z).max(0.0);
                    }
                }
            }
        }
        conv3(&w.policy1, &self.x, n, &mut self.col, &mut self.a, true);
        conv3(
            &w.policy,
            &self.a,
            n,
            &mut self.col,
            &mut self.policy,
            false,
        );
        self.value_head(w, count, n);
    }

    /// `x = relu(sigmoid(g) * b + beta + x)`, with the gate `g` and `beta` from the channel
    /// means of `b` through two dense layers.
    fn squeeze_excite(&mut self, se: &super::weights::Se, filters: usize, count: usize, n: usize) {
        for p in 0..count {
            for c in 0..filters {
                let s: f32 = self.b[c * n + p * 64..c * n + p * 64 + 64].iter().sum();
                self.pool[p * filters + c] = s / 64.0;
            }
        }
        dense(&se.fc1, &self.pool, count, &mut self.hidden, true);
        dense(&se.fc2, &self.hidden, count, &mut self.gates, false);
        for p in 0..count {
            let g = &self.gates[p * 2 * filters..(p + 1) * 2 * filters];
            for c in 0..filters {
                let scale = 1.0 / (1.0 + (-g[c]).exp());
                let shift = g[filters + c];
                let at = c * n + p * 64;
                let z = &self.b[at..at + 64];
                for (x, &zv) in self.x[at..at + 64].iter_mut().zip(z) {
                    *x = (scale * zv + shift + *x).max(0.0);
                }
            }
        }
    }

    fn value_head(&mut self, w: &Weights, count: usize, n: usize) {
        let v = &w.value;
        gemm(v.out, v.inp, n, &v.w, &self.x, (n, 1), &mut self.a);
        bias(&mut self.a, &v.b, n, true);
        let width = v.out * 64;
        for p in 0..count {
            for c in 0..v.out {
                self.flat[p * width + c * 64..p * width + c * 64 + 64]
                    .copy_from_slice(&self.a[c * n + p * 64..c * n + p * 64 + 64]);
            }
        }
        // fc1 = flat (count x width) times ip1's weights transposed (width x out)
        let ip1 = &w.ip1;
        gemm(
            count,
            width,
            ip1.out,
            &self.flat,
            &ip1.w,
            (1, width),
            &mut self.fc1,
        );
        for p in 0..count {
            for (o, v) in self.fc1[p * ip1.out..(p + 1) * ip1.out]
                .iter_mut()
                .enumerate()
            {
                *v = (*v + ip1.b[o]).max(0.0);
            }
        }
        for p in 0..count {
            let mut z = [0.0f32; 3];
            dense(&w.ip2, &self.fc1[p * w.ip1.out..], 1, &mut z, false);
            let m = z[0].max(z[1]).max(z[2]);
            let e = z.map(|v| (v - m).exp());
            let s = e[0] + e[1] + e[2];
            self.wdl[p] = e.map(|v| v / s);
        }
    }
}

//! The forward pass: the tower's 3x3 convolutions by Winograd F(4x4, 3x3) (`wino`), the
//! squeeze-excitation, the convolutional policy head and the WDL value head, for a batch of
//! positions at once, with the kernels of the instruction set the CPU runs (`kernels`).
//!
//! [`Layers`] is the network as the pass wants it, made once per net at load: Winograd-
//! transformed 3x3 filters, channel counts padded, the value head's weights reordered for the
//! channels-last layout. [`Forward`] holds one evaluator's buffers, sized at construction for the
//! largest batch: evaluating allocates nothing.

use super::kernels::Kernels;
use super::simd::Level;
use super::weights::{Conv, Fc, Se, Weights, INPUT_PLANES};
use super::wino::{padded, transform_weights, Act, MatMul, Output, POINTS, TILES};

/// A 3x3 convolution ready for the pass.
#[derive(Debug)]
struct Conv3 {
    cin: usize,
    cout: usize,
    /// `G g G^T`, `[36][cin][cout]` (padded).
    u: Vec<f32>,
    b: Vec<f32>,
}

impl Conv3 {
    fn new(c: &Conv) -> Conv3 {
        let mut b = c.b.clone();
        b.resize(padded(c.out), 0.0);
        Conv3 {
            cin: padded(c.inp),
            cout: padded(c.out),
            u: transform_weights(&c.w, c.out, c.inp),
            b,
        }
    }
}

#[derive(Debug)]
struct Block {
    conv1: Conv3,
    conv2: Conv3,
    se: Option<Se>,
}

/// The network's layers as the pass runs them.
#[derive(Debug)]
pub struct Layers {
    /// Residual filters, padded.
    filters: usize,
    input: Conv3,
    blocks: Vec<Block>,
    policy1: Conv3,
    policy: Conv3,
    /// The value head's 1x1 convolution, `[filters][value_out]` (padded).
    value_w: Vec<f32>,
    value_b: Vec<f32>,
    value_out: usize,
    /// The first dense layer, `[square * value_out + channel][ip1_out]` (padded): the
    /// channels-last order of its input.
    ip1_w: Vec<f32>,
    ip1_b: Vec<f32>,
    ip1_out: usize,
    ip2: Fc,
}

impl Layers {
    pub fn new(w: &Weights) -> Layers {
        let (filters, vout, hout) = (padded(w.filters), padded(w.value.out), padded(w.ip1.out));
        let mut value_w = vec![0.0; filters * vout];
        for k in 0..w.value.out {
            for c in 0..w.value.inp {
                value_w[c * vout + k] = w.value.w[k * w.value.inp + c];
            }
        }
        let mut value_b = w.value.b.clone();
        value_b.resize(vout, 0.0);
        let mut ip1_w = vec![0.0; 64 * vout * hout];
        for o in 0..w.ip1.out {
            for k in 0..w.value.out {
                for sq in 0..64 {
                    ip1_w[(sq * vout + k) * hout + o] = w.ip1.w[o * w.ip1.inp + k * 64 + sq];
                }
            }
        }
        let mut ip1_b = w.ip1.b.clone();
        ip1_b.resize(hout, 0.0);
        Layers {
            filters,
            input: Conv3::new(&w.input),
            blocks: w
                .blocks
                .iter()
                .map(|b| Block {
                    conv1: Conv3::new(&b.conv1),
                    conv2: Conv3::new(&b.conv2),
                    se: b.se.clone(),
                })
                .collect(),
            policy1: Conv3::new(&w.policy1),
            policy: Conv3::new(&w.policy),
            value_w,
            value_b,
            value_out: vout,
            ip1_w,
            ip1_b,
            ip1_out: hout,
            ip2: w.ip2.clone(),
        }
    }
}

/// Scratch buffers of one evaluator.
pub struct Forward {
    pub max_batch: usize,
    kernels: Kernels,
    /// The input planes, `[112][n]` (n = positions * 64), as the encoder writes them.
    pub planes: Vec<f32>,
    /// The planes channels-last.
    input: Vec<f32>,
    /// The residual stream and two more activations, channels-last.
    x: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    /// Winograd's transformed inputs and products.
    v: Vec<f32>,
    m: Vec<f32>,
    pool: Vec<f32>,
    hidden: Vec<f32>,
    gates: Vec<f32>,
    fc1: Vec<f32>,
    /// The policy planes, channels-last: `[position][square][plane]`.
    policy: Vec<f32>,
    policy_stride: usize,
    /// Win, draw, loss per position.
    pub wdl: Vec<[f32; 3]>,
}

/// `out[p][o] = act(b[o] + sum_i w[o][i] in[p][i])` for `count` rows of input `stride` apart.
fn dense(fc: &Fc, input: &[f32], stride: usize, count: usize, out: &mut [f32], relu: bool) {
    for p in 0..count {
        let x = &input[p * stride..p * stride + fc.inp];
        for o in 0..fc.out {
            let w = &fc.w[o * fc.inp..(o + 1) * fc.inp];
            let s: f32 = fc.b[o] + w.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
            out[p * fc.out + o] = if relu { s.max(0.0) } else { s };
        }
    }
}

impl Forward {
    pub fn new(l: &Layers, max_batch: usize) -> Forward {
        Forward::with_level(l, max_batch, Level::detect())
    }

    /// With the kernels of `level` (one of [`Level::available`]).
    pub fn with_level(l: &Layers, max_batch: usize, level: Level) -> Forward {
        let n = max_batch * 64;
        let widest = [l.filters, l.policy1.cout, l.policy.cout, l.value_out]
            .into_iter()
            .max()
            .unwrap_or(0);
        let cin = l.input.cin.max(widest);
        let se_hidden = l
            .blocks
            .iter()
            .filter_map(|b| b.se.as_ref().map(|s| s.fc1.out))
            .max()
            .unwrap_or(0);
        let tiles = max_batch * TILES;
        Forward {
            max_batch,
            kernels: Kernels::new(level),
            planes: vec![0.0; INPUT_PLANES * n],
            input: vec![0.0; l.input.cin * n],
            x: vec![0.0; l.filters * n],
            a: vec![0.0; widest * n],
            b: vec![0.0; widest * n],
            v: vec![0.0; POINTS * tiles * cin],
            m: vec![0.0; POINTS * tiles * widest],
            pool: vec![0.0; l.filters * max_batch],
            hidden: vec![0.0; se_hidden * max_batch],
            gates: vec![0.0; 2 * l.filters * max_batch],
            fc1: vec![0.0; l.ip1_out * max_batch],
            policy: vec![0.0; l.policy.cout * n],
            policy_stride: l.policy.cout,
            wdl: vec![[0.0; 3]; max_batch],
        }
    }

    /// The policy's output `plane` at `square` for the batch's position `p`.
    pub fn policy_logit(&self, p: usize, plane: usize, square: usize) -> f32 {
        self.policy[(p * 64 + square) * self.policy_stride + plane]
    }

    /// Runs the network on `count` positions whose planes fill `planes` as `[112][count * 64]`.
    pub fn run(&mut self, l: &Layers, count: usize) {
        assert!(count <= self.max_batch);
        let n = count * 64;
        let cin = l.input.cin;
        for (plane, src) in self.planes.chunks_exact(n).take(INPUT_PLANES).enumerate() {
            for (s, &v) in src.iter().enumerate() {
                self.input[s * cin + plane] = v;
            }
        }
        let k = &self.kernels;
        let (v, m) = (&mut self.v[..], &mut self.m[..]);
        let x = &self.input;
        conv(
            k,
            &l.input,
            x,
            (v, m),
            out(count, &l.input.b, Act::Relu, &mut self.x),
        );
        for block in &l.blocks {
            let c1 = &block.conv1;
            conv(
                k,
                c1,
                &self.x,
                (v, m),
                out(count, &c1.b, Act::Relu, &mut self.a),
            );
            let c2 = &block.conv2;
            match &block.se {
                Some(se) => {
                    let pool = &mut self.pool[..count * l.filters];
                    pool.fill(0.0);
                    let o = Output {
                        pool: Some(pool),
                        ..out(count, &c2.b, Act::None, &mut self.b)
                    };
                    conv(k, c2, &self.a, (v, m), o);
                    let scratch = (&mut self.hidden[..], &mut self.gates[..]);
                    squeeze_excite(
                        se,
                        l.filters,
                        count,
                        &mut self.pool,
                        scratch,
                        &self.b,
                        &mut self.x,
                    );
                }
                None => {
                    let o = Output {
                        skip: Some(&self.x),
                        ..out(count, &c2.b, Act::ResidualRelu, &mut self.b)
                    };
                    conv(k, c2, &self.a, (v, m), o);
                    std::mem::swap(&mut self.x, &mut self.b);
                }
            }
        }
        let p1 = &l.policy1;
        conv(
            k,
            p1,
            &self.x,
            (v, m),
            out(count, &p1.b, Act::Relu, &mut self.a),
        );
        let p = &l.policy;
        conv(
            k,
            p,
            &self.a,
            (v, m),
            out(count, &p.b, Act::None, &mut self.policy),
        );
        self.value_head(l, count);
    }

    fn value_head(&mut self, l: &Layers, count: usize) {
        let (vout, n) = (l.value_out, count * 64);
        self.kernels.matmul(&mut MatMul {
            rows: n,
            depth: l.filters,
            cols: vout,
            a: &self.x,
            lda: l.filters,
            b: &l.value_w,
            c: &mut self.a,
            ldc: vout,
        });
        for sq in self.a[..n * vout].chunks_exact_mut(vout) {
            for (v, b) in sq.iter_mut().zip(&l.value_b) {
                *v = (*v + b).max(0.0);
            }
        }
        let width = 64 * vout;
        self.kernels.matmul(&mut MatMul {
            rows: count,
            depth: width,
            cols: l.ip1_out,
            a: &self.a,
            lda: width,
            b: &l.ip1_w,
            c: &mut self.fc1,
            ldc: l.ip1_out,
        });
        for row in self.fc1[..count * l.ip1_out].chunks_exact_mut(l.ip1_out) {
            for (v, b) in row.iter_mut().zip(&l.ip1_b) {
                *v = (*v + b).max(0.0);
            }
        }
        for p in 0..count {
            let mut z = [0.0f32; 3];
            dense(
                &l.ip2,
                &self.fc1[p * l.ip1_out..],
                l.ip1_out,
                1,
                &mut z,
                false,
            );
            let m = z[0].max(z[1]).max(z[2]);
            let e = z.map(|v| (v - m).exp());
            let s = e[0] + e[1] + e[2];
            self.wdl[p] = e.map(|v| v / s);
        }
    }
}

/// An output of `count` positions without skip nor pooling.
fn out<'a>(count: usize, bias: &'a [f32], act: Act, out: &'a mut [f32]) -> Output<'a> {
    Output {
        positions: count,
        channels: 0,
        bias,
        act,
        skip: None,
        out,
        pool: None,
    }
}

fn conv(k: &Kernels, c: &Conv3, x: &[f32], (v, m): (&mut [f32], &mut [f32]), o: Output) {
    k.conv3(
        x,
        c.cin,
        &c.u,
        v,
        m,
        Output {
            channels: c.cout,
            ..o
        },
    );
}

/// `x = relu(sigmoid(g) * z + beta + x)`, with the gate `g` and `beta` from the channel means
/// of `z` (their sums in `pool`) through two dense layers.
fn squeeze_excite(
    se: &Se,
    filters: usize,
    count: usize,
    pool: &mut [f32],
    (hidden, gates): (&mut [f32], &mut [f32]),
    z: &[f32],
    x: &mut [f32],
) {
    pool[..count * filters].iter_mut().for_each(|s| *s /= 64.0);
    dense(&se.fc1, pool, filters, count, hidden, true);
    dense(&se.fc2, hidden, se.fc1.out, count, gates, false);
    let real = se.fc2.out / 2;
    for p in 0..count {
        let g = &mut gates[p * 2 * real..(p + 1) * 2 * real];
        for s in &mut g[..real] {
            *s = 1.0 / (1.0 + (-*s).exp());
        }
        let (scale, shift) = g.split_at(real);
        let at = p * 64 * filters;
        for (xs, zs) in x[at..at + 64 * filters]
            .chunks_exact_mut(filters)
            .zip(z[at..at + 64 * filters].chunks_exact(filters))
        {
            for c in 0..real {
                xs[c] = (scale[c] * zs[c] + shift[c] + xs[c]).max(0.0);
            }
        }
    }
}

//! Reading an lc0 network file (gzip of a protobuf `pblczero.Net`) into plain f32 layers:
//! LINEAR16 or FLOAT32 values decoded, batch norm folded into the convolutions, every shape
//! checked against the architecture this room runs (a convolutional SE-ResNet over the 112
//! classical input planes, convolutional policy, WDL value).

use std::io::Read;
use std::path::{Path, PathBuf};

use prost::Message;

use super::error::PolicyError;
use super::proto;

/// The input planes of the classical format.
pub const INPUT_PLANES: usize = 112;
/// The policy's planes that map onto moves (the convolution has more, unused).
pub const POLICY_PLANES: usize = 73;
/// lc0 folds batch norm with this epsilon (`network_legacy.cc`).
const BN_EPSILON: f32 = 1e-5;

/// A convolution with batch norm folded in: `w` is `[out][inp][k][k]`, row-major.
#[derive(Clone, Debug)]
pub struct Conv {
    pub out: usize,
    pub inp: usize,
    pub k: usize,
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

/// A fully connected layer: `w` is `[out][inp]`.
#[derive(Clone, Debug)]
pub struct Fc {
    pub out: usize,
    pub inp: usize,
    pub w: Vec<f32>,
    pub b: Vec<f32>,
}

/// Squeeze-excitation: pooled channels -> `fc1` (ReLU) -> `fc2` giving a scale (sigmoid) and
/// a bias per channel.
#[derive(Clone, Debug)]
pub struct Se {
    pub fc1: Fc,
    pub fc2: Fc,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub conv1: Conv,
    pub conv2: Conv,
    pub se: Option<Se>,
}

/// A whole network, ready to run.
#[derive(Clone, Debug)]
pub struct Weights {
    pub filters: usize,
    pub input: Conv,
    pub blocks: Vec<Block>,
    pub policy1: Conv,
    pub policy: Conv,
    pub value: Conv,
    pub ip1: Fc,
    pub ip2: Fc,
}

/// Where a refusal is reported: the file and the default encoding.
struct Ctx {
    path: PathBuf,
    default_encoding: i32,
}

impl Ctx {
    fn err(&self, field: &str, reason: impl Into<String>) -> PolicyError {
        PolicyError::Field {
            path: self.path.clone(),
            field: field.to_string(),
            reason: reason.into(),
        }
    }

    /// A layer's values (an absent layer is empty, as lc0 takes it).
    fn layer(&self, layer: Option<&proto::Layer>, field: &str) -> Result<Vec<f32>, PolicyError> {
        let Some(l) = layer else {
            return Ok(Vec::new());
        };
        let bytes = l.params.as_deref().unwrap_or(&[]);
        let encoding = match l.encoding.unwrap_or(0) {
            0 => self.default_encoding,
            e => e,
        };
        match encoding {
            1 => {
                if bytes.len() % 2 != 0 {
                    return Err(self.err(field, format!("{} bytes of LINEAR16", bytes.len())));
                }
                let (lo, hi) = (l.min_val.unwrap_or(0.0), l.max_val.unwrap_or(0.0));
                Ok(bytes
                    .chunks_exact(2)
                    .map(|c| {
                        let t = f32::from(u16::from_le_bytes([c[0], c[1]])) / 65535.0;
                        lo * (1.0 - t) + hi * t
                    })
                    .collect())
            }
            4 => {
                if bytes.len() % 4 != 0 {
                    return Err(self.err(field, format!("{} bytes of FLOAT32", bytes.len())));
                }
                Ok(bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect())
            }
            e => Err(self.err(
                &format!("{field}.encoding"),
                format!("encoding {e} is not supported (LINEAR16 = 1 and FLOAT32 = 4 are)"),
            )),
        }
    }

    /// A convolution of `inp` input channels and `k`x`k` filters, batch norm folded.
    fn conv(
        &self,
        block: Option<&proto::ConvBlock>,
        field: &str,
        inp: usize,
        k: usize,
    ) -> Result<Conv, PolicyError> {
        let block = block.ok_or_else(|| self.err(field, "missing"))?;
        let f = |name: &str| format!("{field}.{name}");
        let mut w = self.layer(block.weights.as_ref(), &f("weights"))?;
        let mut b = self.layer(block.biases.as_ref(), &f("biases"))?;
        let mut means = self.layer(block.bn_means.as_ref(), &f("bn_means"))?;
        let vars = self.layer(block.bn_stddivs.as_ref(), &f("bn_stddivs"))?;
        let mut gammas = self.layer(block.bn_gammas.as_ref(), &f("bn_gammas"))?;
        let mut betas = self.layer(block.bn_betas.as_ref(), &f("bn_betas"))?;
        if w.is_empty() {
            return Err(self.err(&f("weights"), "missing or empty"));
        }
        let out = if b.is_empty() { means.len() } else { b.len() };
        if out == 0 {
            return Err(self.err(field, "neither biases nor batch norm means"));
        }
        if w.len() != out * inp * k * k {
            return Err(self.err(
                &f("weights"),
                format!(
                    "{} values, expected {out} x {inp} x {k} x {k} = {}",
                    w.len(),
                    out * inp * k * k
                ),
            ));
        }
        if b.is_empty() {
            b = vec![0.0; out];
        }
        if !means.is_empty() {
            if betas.is_empty() {
                betas = vec![0.0; out];
                gammas = vec![1.0; out];
            }
            for (name, v) in [
                ("bn_means", &means),
                ("bn_stddivs", &vars),
                ("bn_gammas", &gammas),
                ("bn_betas", &betas),
            ] {
                if v.len() != out {
                    return Err(self.err(&f(name), format!("{} values, expected {out}", v.len())));
                }
            }
            // y = gamma (x + b - mean) / sqrt(var + eps) + beta, folded into w and b
            let per = inp * k * k;
            for o in 0..out {
                let scale = gammas[o] / (vars[o] + BN_EPSILON).sqrt();
                means[o] -= b[o];
                w[o * per..(o + 1) * per]
                    .iter_mut()
                    .for_each(|x| *x *= scale);
                b[o] = betas[o] - scale * means[o];
            }
        }
        Ok(Conv { out, inp, k, w, b })
    }

    fn fc(
        &self,
        w: Option<&proto::Layer>,
        b: Option<&proto::Layer>,
        field: (&str, &str),
        inp: usize,
    ) -> Result<Fc, PolicyError> {
        let w = self.layer(w, field.0)?;
        let b = self.layer(b, field.1)?;
        if b.is_empty() {
            return Err(self.err(field.1, "missing or empty"));
        }
        let out = b.len();
        if w.len() != out * inp {
            return Err(self.err(
                field.0,
                format!("{} values, expected {out} x {inp} = {}", w.len(), out * inp),
            ));
        }
        Ok(Fc { out, inp, w, b })
    }
}

/// Reads and checks a network file.
pub fn load_file(path: &Path) -> Result<Weights, PolicyError> {
    // a regular file, read up to a cap: `/dev/zero` or a FIFO named as a net must not hang
    let bytes = crate::fsutil::read_capped(path, crate::fsutil::NET_CAP).map_err(|source| {
        PolicyError::Io {
            path: path.to_path_buf(),
            source,
        }
    })?;
    load_bytes(&bytes, path)
}

/// Reads a network from the bytes of a `.pb.gz` file; `name` names it in errors.
pub fn load_bytes(gz: &[u8], name: &Path) -> Result<Weights, PolicyError> {
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut raw)
        .map_err(|source| PolicyError::Gzip {
            path: name.to_path_buf(),
            source,
        })?;
    let net = proto::Net::decode(raw.as_slice()).map_err(|source| PolicyError::Decode {
        path: name.to_path_buf(),
        source,
    })?;
    let format = net.format.as_ref();
    let ctx = Ctx {
        path: name.to_path_buf(),
        default_encoding: format.and_then(|f| f.weights_encoding).unwrap_or(1),
    };
    check_format(&ctx, format.and_then(|f| f.network_format.as_ref()))?;
    let w = net
        .weights
        .as_ref()
        .ok_or_else(|| ctx.err("weights", "missing"))?;
    build(&ctx, w)
}

/// Only what this room runs is accepted; anything else is named and refused.
fn check_format(ctx: &Ctx, nf: Option<&proto::NetworkFormat>) -> Result<(), PolicyError> {
    let nf = nf.ok_or_else(|| ctx.err("format.network_format", "missing"))?;
    let want = |field: &str, got: Option<i32>, ok: &[i32], what: &str| {
        let g = got.unwrap_or(0);
        if ok.contains(&g) {
            Ok(())
        } else {
            Err(ctx.err(
                &format!("format.network_format.{field}"),
                format!("value {g}; only {what} is supported"),
            ))
        }
    };
    want("input", nf.input, &[1], "INPUT_CLASSICAL_112_PLANE (1)")?;
    want(
        "network",
        nf.network,
        &[3, 4],
        "a residual net with head format (3 or 4)",
    )?;
    want("policy", nf.policy, &[2], "POLICY_CONVOLUTION (2)")?;
    want("value", nf.value, &[2], "VALUE_WDL (2)")?;
    want(
        "default_activation",
        nf.default_activation,
        &[0],
        "RELU (0)",
    )?;
    Ok(())
}

fn build(ctx: &Ctx, w: &proto::Weights) -> Result<Weights, PolicyError> {
    if w.ip_emb_w.is_some() {
        return Err(ctx.err("weights.ip_emb_w", "a transformer body is not supported"));
    }
    let input = ctx.conv(w.input.as_ref(), "weights.input", INPUT_PLANES, 3)?;
    let filters = input.out;
    let mut blocks = Vec::with_capacity(w.residual.len());
    for (i, r) in w.residual.iter().enumerate() {
        let field = format!("weights.residual[{i}]");
        let conv1 = ctx.conv(r.conv1.as_ref(), &format!("{field}.conv1"), filters, 3)?;
        let conv2 = ctx.conv(r.conv2.as_ref(), &format!("{field}.conv2"), filters, 3)?;
        for (name, c) in [("conv1", &conv1), ("conv2", &conv2)] {
            if c.out != filters {
                return Err(ctx.err(
                    &format!("{field}.{name}.biases"),
                    format!("{} outputs, expected {filters}", c.out),
                ));
            }
        }
        let se = match &r.se {
            None => None,
            Some(se) => {
                let f = |n: &str| format!("{field}.se.{n}");
                let fc1 = ctx.fc(
                    se.w1.as_ref(),
                    se.b1.as_ref(),
                    (&f("w1"), &f("b1")),
                    filters,
                )?;
                let fc2 = ctx.fc(
                    se.w2.as_ref(),
                    se.b2.as_ref(),
                    (&f("w2"), &f("b2")),
                    fc1.out,
                )?;
                if fc2.out != 2 * filters {
                    return Err(ctx.err(
                        &f("b2"),
                        format!("{} values, expected {}", fc2.out, 2 * filters),
                    ));
                }
                Some(Se { fc1, fc2 })
            }
        };
        blocks.push(Block { conv1, conv2, se });
    }
    let policy1 = ctx.conv(w.policy1.as_ref(), "weights.policy1", filters, 3)?;
    let policy = ctx.conv(w.policy.as_ref(), "weights.policy", policy1.out, 3)?;
    if policy.out < POLICY_PLANES {
        return Err(ctx.err(
            "weights.policy.biases",
            format!("{} planes, expected at least {POLICY_PLANES}", policy.out),
        ));
    }
    let value = ctx.conv(w.value.as_ref(), "weights.value", filters, 1)?;
    let ip1 = ctx.fc(
        w.ip1_val_w.as_ref(),
        w.ip1_val_b.as_ref(),
        ("weights.ip1_val_w", "weights.ip1_val_b"),
        value.out * 64,
    )?;
    let ip2 = ctx.fc(
        w.ip2_val_w.as_ref(),
        w.ip2_val_b.as_ref(),
        ("weights.ip2_val_w", "weights.ip2_val_b"),
        ip1.out,
    )?;
    if ip2.out != 3 {
        return Err(ctx.err(
            "weights.ip2_val_b",
            format!("{} outputs, expected 3 (win, draw, loss)", ip2.out),
        ));
    }
    Ok(Weights {
        filters,
        input,
        blocks,
        policy1,
        policy,
        value,
        ip1,
        ip2,
    })
}

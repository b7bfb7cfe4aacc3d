//! The subset of lc0's `pblczero.Net` protobuf schema (`proto/net.proto`, proto2) that a
//! convolutional SE-ResNet with a convolutional policy and a WDL value head needs, written as
//! prost messages by hand so that no `protoc` is needed at build time. Field numbers are the
//! schema's; fields left out are skipped by the decoder.

use prost::Message;

/// The file's top-level message.
#[derive(Clone, PartialEq, Message)]
pub struct Net {
    #[prost(fixed32, optional, tag = "1")]
    pub magic: Option<u32>,
    #[prost(string, optional, tag = "2")]
    pub license: Option<String>,
    #[prost(message, optional, tag = "3")]
    pub min_version: Option<EngineVersion>,
    #[prost(message, optional, tag = "4")]
    pub format: Option<Format>,
    #[prost(message, optional, tag = "10")]
    pub weights: Option<Weights>,
}

#[derive(Clone, PartialEq, Message)]
pub struct EngineVersion {
    #[prost(uint32, optional, tag = "1")]
    pub major: Option<u32>,
    #[prost(uint32, optional, tag = "2")]
    pub minor: Option<u32>,
    #[prost(uint32, optional, tag = "3")]
    pub patch: Option<u32>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Format {
    /// `Format.Encoding`: 0 unknown, 1 LINEAR16 (a layer's own encoding overrides it).
    #[prost(int32, optional, tag = "1")]
    pub weights_encoding: Option<i32>,
    #[prost(message, optional, tag = "2")]
    pub network_format: Option<NetworkFormat>,
}

/// Enumerations are kept as their numbers: the loader names the value it refuses.
#[derive(Clone, PartialEq, Message)]
pub struct NetworkFormat {
    #[prost(int32, optional, tag = "1")]
    pub input: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub output: Option<i32>,
    #[prost(int32, optional, tag = "3")]
    pub network: Option<i32>,
    #[prost(int32, optional, tag = "4")]
    pub policy: Option<i32>,
    #[prost(int32, optional, tag = "5")]
    pub value: Option<i32>,
    #[prost(int32, optional, tag = "6")]
    pub moves_left: Option<i32>,
    #[prost(int32, optional, tag = "7")]
    pub default_activation: Option<i32>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Weights {
    #[prost(message, optional, tag = "1")]
    pub input: Option<ConvBlock>,
    #[prost(message, repeated, tag = "2")]
    pub residual: Vec<Residual>,
    #[prost(message, optional, tag = "3")]
    pub policy: Option<ConvBlock>,
    #[prost(message, optional, tag = "4")]
    pub ip_pol_w: Option<Layer>,
    #[prost(message, optional, tag = "6")]
    pub value: Option<ConvBlock>,
    #[prost(message, optional, tag = "7")]
    pub ip1_val_w: Option<Layer>,
    #[prost(message, optional, tag = "8")]
    pub ip1_val_b: Option<Layer>,
    #[prost(message, optional, tag = "9")]
    pub ip2_val_w: Option<Layer>,
    #[prost(message, optional, tag = "10")]
    pub ip2_val_b: Option<Layer>,
    #[prost(message, optional, tag = "11")]
    pub policy1: Option<ConvBlock>,
    /// Present only in transformer-body nets: refused.
    #[prost(message, optional, tag = "25")]
    pub ip_emb_w: Option<Layer>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Layer {
    #[prost(float, optional, tag = "1")]
    pub min_val: Option<f32>,
    #[prost(float, optional, tag = "2")]
    pub max_val: Option<f32>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub params: Option<Vec<u8>>,
    /// `Layer.Encoding`: 0 unknown (the file's default), 1 LINEAR16, 2 FLOAT16, 3 BFLOAT16,
    /// 4 FLOAT32.
    #[prost(int32, optional, tag = "4")]
    pub encoding: Option<i32>,
    #[prost(uint32, repeated, packed = "false", tag = "5")]
    pub dims: Vec<u32>,
}

#[derive(Clone, PartialEq, Message)]
pub struct ConvBlock {
    #[prost(message, optional, tag = "1")]
    pub weights: Option<Layer>,
    #[prost(message, optional, tag = "2")]
    pub biases: Option<Layer>,
    #[prost(message, optional, tag = "3")]
    pub bn_means: Option<Layer>,
    /// Named "stddivs" in the schema, but lc0 reads it as the variance.
    #[prost(message, optional, tag = "4")]
    pub bn_stddivs: Option<Layer>,
    #[prost(message, optional, tag = "5")]
    pub bn_gammas: Option<Layer>,
    #[prost(message, optional, tag = "6")]
    pub bn_betas: Option<Layer>,
}

#[derive(Clone, PartialEq, Message)]
pub struct SeUnit {
    #[prost(message, optional, tag = "1")]
    pub w1: Option<Layer>,
    #[prost(message, optional, tag = "2")]
    pub b1: Option<Layer>,
    #[prost(message, optional, tag = "3")]
    pub w2: Option<Layer>,
    #[prost(message, optional, tag = "4")]
    pub b2: Option<Layer>,
}

#[derive(Clone, PartialEq, Message)]
pub struct Residual {
    #[prost(message, optional, tag = "1")]
    pub conv1: Option<ConvBlock>,
    #[prost(message, optional, tag = "2")]
    pub conv2: Option<ConvBlock>,
    #[prost(message, optional, tag = "3")]
    pub se: Option<SeUnit>,
}

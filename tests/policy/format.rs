//! Network files the policy room refuses, each with the file and the field named.

use std::io::{Read, Write};
use std::path::Path;

use prost::Message;
use skillcal::policy::load_bytes;
use skillcal::policy::proto::Net as NetProto;
use skillcal::policy::PolicyError;

const MAIA: &[u8] = include_bytes!("../../nets/maia/maia-1100.pb.gz");

fn decoded() -> NetProto {
    let mut raw = Vec::new();
    flate2::read::GzDecoder::new(MAIA)
        .read_to_end(&mut raw)
        .unwrap();
    NetProto::decode(raw.as_slice()).unwrap()
}

fn gzipped(net: &NetProto) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&net.encode_to_vec()).unwrap();
    enc.finish().unwrap()
}

fn field_error(bytes: &[u8]) -> (String, String) {
    match load_bytes(bytes, Path::new("test.pb.gz")) {
        Err(PolicyError::Field {
            path,
            field,
            reason,
        }) => {
            assert_eq!(path, Path::new("test.pb.gz"));
            (field, reason)
        }
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn the_real_file_round_trips() {
    let w = load_bytes(&gzipped(&decoded()), Path::new("x")).unwrap();
    assert_eq!(w.filters, 64);
    assert_eq!(w.blocks.len(), 6);
}

#[test]
fn another_input_format_is_refused() {
    let mut net = decoded();
    let nf = net
        .format
        .as_mut()
        .unwrap()
        .network_format
        .as_mut()
        .unwrap();
    nf.input = Some(3);
    let (field, reason) = field_error(&gzipped(&net));
    assert_eq!(field, "format.network_format.input");
    assert!(reason.contains("value 3"), "{reason}");
}

#[test]
fn a_short_layer_is_refused() {
    let mut net = decoded();
    let se = net.weights.as_mut().unwrap().residual[2]
        .se
        .as_mut()
        .unwrap();
    let params = se.w1.as_mut().unwrap().params.as_mut().unwrap();
    params.truncate(params.len() - 2);
    let (field, reason) = field_error(&gzipped(&net));
    assert_eq!(field, "weights.residual[2].se.w1");
    assert!(reason.contains("expected 8 x 64"), "{reason}");
}

#[test]
fn an_unknown_encoding_is_refused() {
    let mut net = decoded();
    net.weights
        .as_mut()
        .unwrap()
        .ip2_val_b
        .as_mut()
        .unwrap()
        .encoding = Some(2);
    let (field, reason) = field_error(&gzipped(&net));
    assert_eq!(field, "weights.ip2_val_b.encoding");
    assert!(reason.contains("encoding 2"), "{reason}");
}

#[test]
fn not_gzip_and_not_protobuf_are_refused() {
    let e = load_bytes(b"not a network", Path::new("junk.pb.gz")).unwrap_err();
    assert!(matches!(e, PolicyError::Gzip { .. }), "{e}");
    assert!(e.to_string().contains("junk.pb.gz"), "{e}");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&[0xff; 40]).unwrap();
    let e = load_bytes(&enc.finish().unwrap(), Path::new("junk.pb.gz")).unwrap_err();
    assert!(matches!(e, PolicyError::Decode { .. }), "{e}");
}

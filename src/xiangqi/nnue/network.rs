//! The quantised network and its file format.
//!
//! File layout (little-endian): a 40-byte header — magic `QXNN`, u32 version, u32 inputs,
//! u32 hidden width, u32 QA, u32 QB, u32 SCALE, u32 feature set, u64 FNV-1a hash of the
//! payload — then the payload: the first layer's weights as i16, feature-major (a feature's
//! `HIDDEN` weights are contiguous), its `HIDDEN` i16 biases, the output layer's `2 x HIDDEN`
//! i16 weights (side to move's half first) and its i32 bias.
//!
//! The first layer is scaled by [`QA`], the output weights by [`QB`], the output bias by
//! `QA * QB`; the network's output times [`SCALE`] is centipawns for the side to move.

use std::fmt;

use super::features::{INPUTS, MAX_ACTIVE};
use super::simd::{self, Row};
use crate::xiangqi::Color;

/// Width of the first layer (per perspective).
pub const HIDDEN: usize = 128;
/// Quantisation of the first layer: 1.0 is `QA`.
pub const QA: i32 = 255;
/// Quantisation of the output weights: 1.0 is `QB`.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's (pre-sigmoid) output.
pub const SCALE: i32 = 400;
/// Magic bytes of a network file.
pub const MAGIC: [u8; 4] = *b"QXNN";
/// The file format version.
pub const VERSION: u32 = 1;
/// The feature set: 1 = plain piece-square (1260 inputs per perspective, see `features`).
pub const FEATURE_SET: u32 = 1;
/// Header bytes.
pub const HEADER_BYTES: usize = 40;
/// Bytes of a complete file.
pub const FILE_BYTES: usize = HEADER_BYTES + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

/// Largest first-layer weight magnitude accepted: 1.98 x QA, so that 32 active features
/// plus the bias never leave the i16 range.
pub const MAX_FT_WEIGHT: i16 = 505;
/// Largest first-layer bias magnitude accepted (32767 - 32 x 505).
pub const MAX_FT_BIAS: i16 = 32767 - (MAX_ACTIVE as i16) * MAX_FT_WEIGHT;
/// Largest output weight magnitude accepted (1.98 x QB, so `v * w` fits in i16).
pub const MAX_OUT_WEIGHT: i16 = 127;

/// The embedded network, built into the binary.
pub static EMBEDDED: &[u8] = include_bytes!("../../../data/nnue/xiangqi-net-5.bin");

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read.
    Io(String),
    /// The file has the wrong length for this architecture (it may be truncated).
    Length {
        /// Bytes found.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// The magic bytes are not `QXNN`.
    Magic,
    /// The header describes another architecture or version.
    Architecture(String),
    /// The payload does not match the hash in the header (a damaged file).
    Hash,
    /// A weight lies outside the range the integer inference relies on.
    Range(&'static str),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the file: {e}"),
            LoadError::Length { found, expected } => {
                write!(
                    f,
                    "the file has {found} bytes, a network has {expected} (truncated?)"
                )
            }
            LoadError::Magic => write!(f, "not a Qilin Xiangqi network (bad magic)"),
            LoadError::Architecture(what) => write!(f, "another architecture: {what}"),
            LoadError::Hash => write!(f, "the weights do not match the header's hash (damaged)"),
            LoadError::Range(what) => write!(f, "{what} out of range"),
        }
    }
}

/// FNV-1a, 64 bits: the payload hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The quantised network. Invariant: every weight is within the `MAX_*` bounds.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    /// First layer, a row of `HIDDEN` weights per input feature.
    ft_weights: Vec<Row>,
    ft_bias: Row,
    /// Output weights: side to move's half, then the other side's.
    out_weights: [Row; 2],
    out_bias: i32,
    /// The payload hash, as an identifier.
    hash: u64,
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network({:016x})", self.hash)
    }
}

impl Network {
    /// The network built into the binary.
    pub fn embedded() -> Network {
        match Network::from_bytes(EMBEDDED) {
            Ok(n) => n,
            Err(e) => unreachable!("the embedded network is checked by a test: {e}"),
        }
    }

    /// Reads a network file.
    pub fn load(path: &str) -> Result<Network, LoadError> {
        let bytes = std::fs::read(path).map_err(|e| LoadError::Io(e.to_string()))?;
        Network::from_bytes(&bytes)
    }

    /// Parses and checks a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, LoadError> {
        if bytes.len() >= 4 && bytes[..4] != MAGIC {
            return Err(LoadError::Magic);
        }
        if bytes.len() != FILE_BYTES {
            return Err(LoadError::Length {
                found: bytes.len(),
                expected: FILE_BYTES,
            });
        }
        let u32_at =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let fields = [
            ("version", u32_at(4), VERSION),
            ("inputs", u32_at(8), INPUTS as u32),
            ("hidden width", u32_at(12), HIDDEN as u32),
            ("QA", u32_at(16), QA as u32),
            ("QB", u32_at(20), QB as u32),
            ("SCALE", u32_at(24), SCALE as u32),
            ("feature set", u32_at(28), FEATURE_SET),
        ];
        for (name, found, expected) in fields {
            if found != expected {
                return Err(LoadError::Architecture(format!(
                    "{name} {found}, this engine needs {expected}"
                )));
            }
        }
        let mut h = [0u8; 8];
        h.copy_from_slice(&bytes[32..40]);
        let hash = u64::from_le_bytes(h);
        let payload = &bytes[HEADER_BYTES..];
        if fnv1a(payload) != hash {
            return Err(LoadError::Hash);
        }
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = |max: i16| -> Result<Row, ()> {
            let mut r = [0i16; HIDDEN];
            for x in r.iter_mut() {
                *x = words.next().ok_or(())?;
                if x.unsigned_abs() > max as u16 {
                    return Err(());
                }
            }
            Ok(r)
        };
        let mut ft_weights = Vec::with_capacity(INPUTS);
        for _ in 0..INPUTS {
            ft_weights
                .push(row(MAX_FT_WEIGHT).map_err(|_| LoadError::Range("a first-layer weight"))?);
        }
        let ft_bias = row(MAX_FT_BIAS).map_err(|_| LoadError::Range("a first-layer bias"))?;
        let out_stm = row(MAX_OUT_WEIGHT).map_err(|_| LoadError::Range("an output weight"))?;
        let out_other = row(MAX_OUT_WEIGHT).map_err(|_| LoadError::Range("an output weight"))?;
        // The length was checked, so the bias is the payload's last four bytes.
        let tail = payload.len() - 4;
        let out_bias = i32::from_le_bytes([
            payload[tail],
            payload[tail + 1],
            payload[tail + 2],
            payload[tail + 3],
        ]);
        Ok(Network {
            ft_weights,
            ft_bias,
            out_weights: [out_stm, out_other],
            out_bias,
            hash,
        })
    }

    /// Builds a network from quantised parts (the trainer's export), checking the ranges.
    pub fn from_parts(
        ft_weights: Vec<Row>,
        ft_bias: Row,
        out_weights: [Row; 2],
        out_bias: i32,
    ) -> Result<Network, LoadError> {
        let mut net = Network {
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            hash: 0,
        };
        let bytes = net.to_bytes();
        net = Network::from_bytes(&bytes)?;
        Ok(net)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(FILE_BYTES - HEADER_BYTES);
        let rows = self
            .ft_weights
            .iter()
            .chain(std::iter::once(&self.ft_bias))
            .chain(self.out_weights.iter());
        for r in rows {
            for x in r {
                payload.extend_from_slice(&x.to_le_bytes());
            }
        }
        payload.extend_from_slice(&self.out_bias.to_le_bytes());
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(&MAGIC);
        for x in [
            VERSION,
            INPUTS as u32,
            HIDDEN as u32,
            QA as u32,
            QB as u32,
            SCALE as u32,
            FEATURE_SET,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// A short identifier: the payload hash.
    pub fn id(&self) -> u64 {
        self.hash
    }

    /// The first layer's row of feature `f` (`f < INPUTS`).
    #[inline]
    pub fn feature_row(&self, f: usize) -> &Row {
        &self.ft_weights[f]
    }

    /// The first layer's bias.
    #[inline]
    pub fn bias_row(&self) -> &Row {
        &self.ft_bias
    }

    /// The output in centipawns for `side` to move, from the two perspectives' accumulators
    /// (`acc[c]` is colour `c`'s).
    #[inline]
    pub fn output(&self, acc: &[Row; 2], side: Color) -> i32 {
        let us = simd::screlu_dot(&acc[side.index()], &self.out_weights[0]);
        let them = simd::screlu_dot(&acc[side.flip().index()], &self.out_weights[1]);
        let sum = i64::from(us.wrapping_add(them)) / i64::from(QA) + i64::from(self.out_bias);
        (sum * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

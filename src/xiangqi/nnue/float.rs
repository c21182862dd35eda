//! The network in floating point, as the trainer holds it: the forward pass the quantised
//! one approximates, and the export to [`Network`].

use super::features::INPUTS;
use super::network::{HIDDEN, LoadError, Network, QA, QB, SCALE};
use super::simd::Row;

/// Weights are kept in [-CLIP, CLIP] so that they quantise into the integer ranges.
pub const CLIP: f32 = 1.98;

/// The float network. Layout as in the file: `ft_weights[f * HIDDEN + j]`, then
/// `out_weights[0..HIDDEN]` for the side to move and `[HIDDEN..]` for the other side.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// First layer, feature-major.
    pub ft_weights: Vec<f32>,
    /// First layer biases.
    pub ft_bias: Vec<f32>,
    /// Output weights, side to move's half first.
    pub out_weights: Vec<f32>,
    /// Output bias.
    pub out_bias: f32,
}

/// The activation: clipped to [0, 1] and squared (SCReLU).
#[inline]
pub fn screlu(a: f32) -> f32 {
    let c = a.clamp(0.0, 1.0);
    c * c
}

impl FloatNetwork {
    /// All weights zero.
    pub fn zeros() -> FloatNetwork {
        FloatNetwork {
            ft_weights: vec![0.0; INPUTS * HIDDEN],
            ft_bias: vec![0.0; HIDDEN],
            out_weights: vec![0.0; 2 * HIDDEN],
            out_bias: 0.0,
        }
    }

    /// One perspective's first-layer output (before the activation) for its active features.
    pub fn accumulate(&self, features: &[usize], out: &mut [f32]) {
        out.copy_from_slice(&self.ft_bias);
        for &f in features {
            let row = &self.ft_weights[f * HIDDEN..(f + 1) * HIDDEN];
            for (o, &w) in out.iter_mut().zip(row) {
                *o += w;
            }
        }
    }

    /// The output (pre-sigmoid; times `SCALE` it is centipawns) for the side to move's
    /// features `us` and the other side's `them`.
    pub fn forward(&self, us: &[usize], them: &[usize]) -> f32 {
        let mut a = vec![0.0; HIDDEN];
        let mut sum = self.out_bias;
        for (half, features) in [us, them].into_iter().enumerate() {
            self.accumulate(features, &mut a);
            let w = &self.out_weights[half * HIDDEN..(half + 1) * HIDDEN];
            sum += a.iter().zip(w).map(|(&x, &w)| screlu(x) * w).sum::<f32>();
        }
        sum
    }

    /// The output in centipawns.
    pub fn forward_cp(&self, us: &[usize], them: &[usize]) -> f32 {
        self.forward(us, them) * SCALE as f32
    }

    /// Rounds the weights to the integer network (clipping them to the trained range first).
    pub fn quantise(&self) -> Result<Network, LoadError> {
        let q = |x: f32, scale: i32| (x.clamp(-CLIP, CLIP) * scale as f32).round() as i16;
        let row = |xs: &[f32], scale: i32| -> Row {
            let mut r = [0i16; HIDDEN];
            for (o, &x) in r.iter_mut().zip(xs) {
                *o = q(x, scale);
            }
            r
        };
        let ft = self
            .ft_weights
            .chunks_exact(HIDDEN)
            .map(|c| row(c, QA))
            .collect();
        let bias = row(&self.ft_bias, QA);
        let out = [
            row(&self.out_weights[..HIDDEN], QB),
            row(&self.out_weights[HIDDEN..], QB),
        ];
        let out_bias = (self.out_bias * (QA * QB) as f32).round() as i32;
        Network::from_parts(ft, bias, out, out_bias)
    }

    /// Every parameter in one vector (first layer, biases, output weights, output bias), the
    /// order of the trainer's checkpoints and optimiser state.
    pub fn flatten(&self) -> Vec<f32> {
        let mut v = Vec::with_capacity(self.len());
        v.extend_from_slice(&self.ft_weights);
        v.extend_from_slice(&self.ft_bias);
        v.extend_from_slice(&self.out_weights);
        v.push(self.out_bias);
        v
    }

    /// The number of parameters.
    pub fn len(&self) -> usize {
        INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN + 1
    }

    /// Never empty; for the `len` convention.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The network from [`FloatNetwork::flatten`]'s order; `None` for a wrong length.
    pub fn unflatten(v: &[f32]) -> Option<FloatNetwork> {
        let mut n = FloatNetwork::zeros();
        if v.len() != n.len() {
            return None;
        }
        let (ft, rest) = v.split_at(INPUTS * HIDDEN);
        let (b, rest) = rest.split_at(HIDDEN);
        let (o, rest) = rest.split_at(2 * HIDDEN);
        n.ft_weights.copy_from_slice(ft);
        n.ft_bias.copy_from_slice(b);
        n.out_weights.copy_from_slice(o);
        n.out_bias = rest[0];
        Some(n)
    }
}

//! The value network: a small neural network that corrects the learned linear
//! evaluation's logit from the whole board.
//!
//! Inputs are sparse and one-hot ([`inputs`]: what stands on each square, who moves, the
//! rule family, the board size). The first layer's outputs are kept as an accumulator
//! ([`accumulator`]): the sum of the columns of the inputs set, updated by adding and
//! subtracting the columns of the few inputs a turn changes; then a clipped ReLU, a dense
//! layer to a few units, another clipped ReLU, and one output: a logit added to the
//! linear model's (the network learns the residual, so a network of zeros is the linear
//! model). The search's evaluation with a network ([`crate::search::eval::StaticEval::Net`])
//! is the logistic of that sum.
//!
//! [`NetWeights`] holds the weights in single precision: what the file says, what the
//! trainer fits, and the reference the tests compare with. [`QuantizedNet`] is what the
//! search runs: the first layer in int16 (scale [`QA`]), the second in int16 (scale
//! [`QB`]) summed in int32, the last in single precision, with scalar and AVX2 kernels
//! that give the same numbers bit for bit.

pub mod accumulator;
mod file;
pub mod inputs;
pub mod policy_net;
mod quantized;
mod weights;

pub use quantized::{Accumulator, ActiveInputs, QuantizedNet};

/// Random weights of 32 and 8 hidden units for tests (seeded).
#[cfg(test)]
pub(crate) fn weights_for_tests(seed: u64) -> NetWeights {
    weights::tests::random_net(seed)
}
pub use weights::{NetFileError, NetWeights, ParsedNet};

/// The first layer's scale: an activation of 1.0 is `QA` in the accumulator.
pub const QA: i16 = 255;
/// The second layer's weights' scale.
pub const QB: i16 = 64;
/// The bound of the first layer's weights and biases (so the accumulator cannot
/// overflow: at most [`inputs::MAX_ACTIVE`] columns and the bias, each at most `QA`).
pub const W1_BOUND: f32 = 1.0;
/// The bound of the second layer's weights (int16 at scale [`QB`] with room to spare).
pub const W2_BOUND: f32 = 4.0;
/// The bound of the second layer's biases and of the last layer's weights and bias.
pub const OUT_BOUND: f32 = 64.0;
/// The most units of the first hidden layer (a multiple of 16: the AVX2 lanes).
pub const MAX_HIDDEN1: usize = 512;
/// The most units of the second hidden layer.
pub const MAX_HIDDEN2: usize = 64;

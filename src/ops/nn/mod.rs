//! Neural-network layers: softmax and NLL, convolution, pooling, resampling, attention,
//! normalization, losses, recurrent cells.

pub mod adaptive_pool;
pub mod antialias;
pub mod attention;
pub(crate) mod attention_gemm;
pub mod avg_pool;
pub mod batch_norm;
pub mod conv;
mod conv_gemm;
pub mod group_norm;
pub mod interpolate;
pub mod layer_norm;
pub mod loss;
pub mod nll;
pub mod pool;
pub mod rnn;
pub mod softmax;
pub mod sync_batch_norm;
pub mod unpool;
pub mod upsample;

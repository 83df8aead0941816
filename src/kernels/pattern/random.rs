//! Random draws.

use crate::dtype::DType;
use crate::kernels::expr::{Expr, UnaryOp};

/// What a random kernel draws (PyTorch's CUDA transforms of cuRAND's Philox4x32-10 output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Distribution {
    /// `from + u * range` (scalars `from`, `range`, `to`), `to` folded back to `from`.
    Uniform,
    /// Box-Muller normals, `mean + n * std` (scalars `mean`, `std`).
    Normal,
    /// `from + v % range` over 32-bit draws, or 64-bit ones when `wide` (scalars `from`,
    /// `range` as int64).
    Integer {
        wide: bool,
    },
    /// `u < p` (scalar `p`).
    Bernoulli,
    /// Dropout of input 0: a mask `u < keep` (scalars `keep`, `scale`) and `x * mask * scale`.
    Dropout,
    /// `u <= p` with `p` the element of input 0 (of dtype `p`).
    BernoulliTensor {
        p: DType,
    },
    /// `exp` of a normal (scalars `mean`, `std`).
    LogNormal,
    /// A transform of one uniform: `exponential` (scalar `lambda`), `geometric` (scalar `p`),
    /// `cauchy` (scalars `median`, `sigma`), in PyTorch's CUDA form.
    Exponential,
    Geometric,
    Cauchy,
    /// A Poisson count with the rate of input 0's element: multiplied uniforms below rate 10,
    /// Hörmann's transformed rejection (PTRS) above. Element `i` draws its own Philox
    /// subsequence `i`, block after block, as many as it needs.
    Poisson,
    /// randperm's pass over runs of equal sort keys (input 0, int64, sorted): the thread at
    /// the start of a run shuffles the run's slice of tensor 1 (int64) with Fisher-Yates,
    /// drawing 32-bit values from Philox subsequence = its index, as CUDA does.
    IslandShuffle,
}

/// Which element takes which Philox draw: CUDA's grid-stride kernel with `unroll` draws per
/// block (`Grid`), or its vectorised dropout kernel with `width` elements per thread step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mapping {
    Grid {
        unroll: u32,
    },
    Vector {
        width: u32,
    },
    /// `bernoulli_(Tensor)`: thread `i / 4` takes one block, component `i % 4`.
    Quad,
}

/// Random numbers identical to CUDA's for a seed and offset: element `i` (row-major) takes
/// subsequence, block and component from `mapping`. Tensor arguments: the dropout input, if
/// any, then the output (and the dropout mask).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RandomKernel {
    pub dtype: DType,
    pub distribution: Distribution,
    pub mapping: Mapping,
    /// Draw float64 uniforms (two per Philox block) instead of float32.
    pub double: bool,
}

impl RandomKernel {
    /// The scalar argument dtypes.
    pub fn scalars(&self) -> Vec<DType> {
        let acc = if self.double || self.dtype == DType::F64 {
            DType::F64
        } else {
            DType::F32
        };
        match self.distribution {
            Distribution::Uniform => vec![acc, acc, self.dtype],
            Distribution::Normal
            | Distribution::Dropout
            | Distribution::LogNormal
            | Distribution::Cauchy => vec![acc, acc],
            Distribution::Exponential | Distribution::Geometric => vec![acc],
            Distribution::BernoulliTensor { .. }
            | Distribution::Poisson
            | Distribution::IslandShuffle => vec![],
            Distribution::Integer { .. } => vec![DType::I64, DType::I64],
            Distribution::Bernoulli => vec![acc],
        }
    }
}

impl RandomKernel {
    /// Whether the transform reads the uniform's logarithm (input 1).
    pub fn uses_log(&self) -> bool {
        matches!(
            self.distribution,
            Distribution::Exponential | Distribution::Geometric
        )
    }

    /// The accumulation dtype the draws are transformed in.
    pub fn acc(&self) -> DType {
        if self.double || self.dtype == DType::F64 {
            DType::F64
        } else {
            DType::F32
        }
    }

    /// For the one-uniform transforms: the value from the uniform (input 0), its logarithm as
    /// CUDA computes it (input 1, see [`RandomKernel::uses_log`]) and the scalars.
    pub fn transform(&self) -> Option<Expr> {
        let acc = self.acc();
        let u = Expr::input(0, acc);
        let log_u = Expr::input(1, acc);
        let c = |v: f64| Expr::constant(acc, v);
        let (s0, s1) = (Expr::scalar(0, acc), Expr::scalar(1, acc));
        let epsilon = if acc == DType::F64 {
            f64::EPSILON
        } else {
            f64::from(f32::EPSILON)
        };
        Some(match self.distribution {
            Distribution::Exponential => {
                // log(u), but -eps/2 near 1 so that half results never round to 0.
                let log = u
                    .clone()
                    .ge(c(1.0 - epsilon / 2.0))
                    .select(c(-epsilon / 2.0), log_u);
                (c(-1.0) / s0) * log
            }
            Distribution::Geometric => (log_u / (-s0).unary(UnaryOp::Log1p)).unary(UnaryOp::Ceil),
            Distribution::Cauchy => {
                let clipped = if acc == DType::F64 {
                    u
                } else {
                    u.min(c(1.0 - epsilon)).max(c(epsilon))
                };
                s0 + s1 * (c(std::f64::consts::PI) * (clipped - c(0.5))).unary(UnaryOp::Tan)
            }
            _ => return None,
        })
    }
}

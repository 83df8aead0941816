//! The op table: every ATen overload the Rust core implements, by schema name (and the
//! project's own `mojo::` ops). The glue registers each name for the PrivateUse1 key and
//! calls back with the table index.

use std::ffi::CString;
use std::sync::OnceLock;

use crate::error::Result;
use crate::ops::core::call::Call;

/// An op implementation: reads its arguments from the call and records its returns.
pub type OpFn = fn(&mut Call) -> Result<()>;

/// Every op family's table.
fn families() -> [&'static [(&'static str, OpFn)]; 48] {
    [
        crate::ops::elementwise::math::OPS,
        crate::ops::elementwise::unary::OPS,
        crate::ops::nn::conv::OPS,
        crate::ops::nn::attention::OPS,
        crate::ops::nn::batch_norm::OPS,
        crate::ops::nn::sync_batch_norm::OPS,
        crate::ops::nn::group_norm::OPS,
        crate::ops::nn::pool::OPS,
        crate::ops::nn::avg_pool::OPS,
        crate::ops::nn::unpool::OPS,
        crate::ops::nn::upsample::OPS,
        crate::ops::shape::pad::OPS,
        crate::ops::shape::unfold::OPS,
        crate::ops::nn::interpolate::OPS,
        crate::ops::nn::antialias::OPS,
        crate::ops::nn::rnn::OPS,
        crate::ops::nn::adaptive_pool::OPS,
        crate::ops::elementwise::special::OPS,
        crate::ops::elementwise::gamma::OPS,
        crate::ops::elementwise::functions::OPS,
        crate::ops::elementwise::functions::POLYNOMIAL_OPS,
        crate::ops::elementwise::functions::BINARY_OPS,
        crate::ops::nn::loss::OPS,
        crate::ops::shape::factory::OPS,
        crate::ops::linalg::products::OPS,
        crate::ops::linalg::fft::OPS,
        crate::ops::linalg::solver::OPS,
        crate::ops::distributed::OPS,
        crate::ops::nn::softmax::OPS,
        crate::ops::nn::nll::OPS,
        crate::ops::nn::layer_norm::OPS,
        crate::ops::elementwise::activation::OPS,
        crate::ops::reduce::reductions::OPS,
        crate::ops::reduce::norms_and_scans::OPS,
        crate::ops::shape::rearrange::OPS,
        crate::ops::index::indexing::OPS,
        crate::ops::index::index_fill::OPS,
        crate::ops::index::take_put::OPS,
        crate::ops::index::advanced_index::OPS,
        crate::ops::reduce::sort::OPS,
        crate::ops::index::membership::OPS,
        crate::ops::optim::foreach::OPS,
        crate::ops::random::draws::OPS,
        crate::ops::random::sampling::OPS,
        crate::ops::index::histogram::OPS,
        crate::ops::optim::amp::OPS,
        crate::ops::optim::fused_optim::OPS,
        crate::ops::core::compiled::OPS,
    ]
}

/// The registered ops, with NUL-terminated names for the glue.
pub fn table() -> &'static [(CString, OpFn)] {
    static TABLE: OnceLock<Vec<(CString, OpFn)>> = OnceLock::new();
    TABLE.get_or_init(|| {
        families()
            .iter()
            .flat_map(|family| family.iter())
            .map(|(name, f)| (CString::new(*name).expect("op names have no NUL"), *f))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_schema_names() {
        let mut seen = std::collections::HashSet::new();
        for (name, _) in table() {
            let name = name.to_str().unwrap();
            assert!(seen.insert(name), "{name} registered twice");
            assert!(!name.contains(' ') && !name.starts_with("aten::"), "{name}");
            // Ops of our own namespace are defined in csrc/dispatch.cpp.
            assert!(!name.contains("::") || name.starts_with("mojo::"), "{name}");
        }
    }
}

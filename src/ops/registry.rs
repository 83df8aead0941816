//! The op table: every ATen overload the Rust core implements, by schema name (and the
//! project's own `mojo::` ops). The glue registers each name for the PrivateUse1 key and
//! calls back with the table index.

use std::ffi::CString;
use std::sync::OnceLock;

use super::call::Call;
use crate::error::Result;

/// An op implementation: reads its arguments from the call and records its returns.
pub type OpFn = fn(&mut Call) -> Result<()>;

/// Every op family's table.
fn families() -> [&'static [(&'static str, OpFn)]; 38] {
    [
        super::math::OPS,
        super::conv::OPS,
        super::attention::OPS,
        super::batch_norm::OPS,
        super::sync_batch_norm::OPS,
        super::group_norm::OPS,
        super::pool::OPS,
        super::unpool::OPS,
        super::upsample::OPS,
        super::pad::OPS,
        super::unfold::OPS,
        super::interpolate::OPS,
        super::antialias::OPS,
        super::rnn::OPS,
        super::adaptive_pool::OPS,
        super::special::OPS,
        super::gamma::OPS,
        super::functions::OPS,
        super::functions::POLYNOMIAL_OPS,
        super::functions::BINARY_OPS,
        super::loss::OPS,
        super::factory::OPS,
        super::linalg::OPS,
        super::nn::OPS,
        super::activation::OPS,
        super::reduce::OPS,
        super::shape::OPS,
        super::indexing::OPS,
        super::advanced_index::OPS,
        super::sort::OPS,
        super::membership::OPS,
        super::foreach::OPS,
        super::random::OPS,
        super::sampling::OPS,
        super::histogram::OPS,
        super::amp::OPS,
        super::fused_optim::OPS,
        super::compiled::OPS,
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

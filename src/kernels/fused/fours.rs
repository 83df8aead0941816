//! Which pointwise programs have a form that takes four consecutive `xindex` per work item
//! ([`FusedKernel::fours`]), and which of their loads and stores it moves four at a time.

use super::{FusedKernel, Stmt, XINDEX};
use crate::kernels::Expr;

/// Whether `e` is `xindex`, given the locals equal to it.
fn is_xindex(e: &Expr, equal: &[usize]) -> bool {
    match e {
        Expr::Input { index, dtype } => equal.contains(index) && dtype.is_int(),
        Expr::Cast(dtype, inner) => dtype.size() >= 4 && dtype.is_int() && is_xindex(inner, equal),
        _ => false,
    }
}

/// Whether a statement or any nested in it is one `pick` selects.
fn contains(s: &Stmt, pick: &impl Fn(&Stmt) -> bool) -> bool {
    pick(s)
        || match s {
            Stmt::Loop(body) | Stmt::Masked { body, .. } | Stmt::Part { body, .. } => {
                body.iter().any(|s| contains(s, pick))
            }
            _ => false,
        }
}

impl FusedKernel {
    /// The locals equal to `xindex`: itself and the top-level lets of it (Inductor's
    /// `x0 = xindex`).
    pub(crate) fn xindex_locals(&self) -> Vec<usize> {
        let mut equal = vec![XINDEX];
        for s in &self.body {
            if let Stmt::Let { local, value } = s {
                if is_xindex(value, &equal) {
                    equal.push(*local);
                }
            }
        }
        equal
    }

    /// The tensor that top-level statement `s` moves four elements at a time in the kernel's
    /// form of four `xindex` per work item: a load or store at `xindex` of at most four bytes.
    pub(crate) fn moved_by_fours(&self, s: &Stmt, equal: &[usize]) -> Option<usize> {
        let (tensor, index) = match s {
            Stmt::Load { tensor, index, .. } | Stmt::Store { tensor, index, .. } => {
                (*tensor, index)
            }
            _ => return None,
        };
        (self.tensors[tensor].size() <= 4 && is_xindex(index, equal)).then_some(tensor)
    }

    /// The tensors moved four at a time where this kernel can take four `xindex` per work
    /// item, or None where it cannot: it is pointwise, without parts or checks, stores only
    /// at `xindex` and only at its top level (so each work item owns the words of its four
    /// elements of every tensor it writes), loads nothing after its first store (the vector
    /// form loads before it stores), and moves some tensor four at a time.
    pub fn fours(&self) -> Option<Vec<usize>> {
        if self.reduction || self.has_parts() || !self.checks.is_empty() {
            return None;
        }
        let equal = self.xindex_locals();
        let is_store = |s: &Stmt| matches!(s, Stmt::Store { .. });
        let is_load = |s: &Stmt| matches!(s, Stmt::Load { .. });
        let mut stored = false;
        let mut tensors = Vec::new();
        for s in &self.body {
            if stored && contains(s, &is_load) {
                return None;
            }
            match s {
                Stmt::Store { index, .. } if !is_xindex(index, &equal) => return None,
                Stmt::Store { .. } => stored = true,
                _ if contains(s, &is_store) => return None,
                _ => {}
            }
            if let Some(t) = self.moved_by_fours(s, &equal) {
                if !tensors.contains(&t) {
                    tensors.push(t);
                }
            }
        }
        (!tensors.is_empty()).then_some(tensors)
    }
}

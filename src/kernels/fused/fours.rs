//! Which programs have a form that takes four consecutive elements at a time
//! ([`FusedKernel::by_fours`]), and which of their loads and stores it moves four at a time:
//! a pointwise program four `xindex` per work item, a reduction whose invocations walk their
//! rows alone four `r0_index` per step.

use super::{FusedKernel, Stmt, RINDEX, XINDEX};
use crate::kernels::{BinaryOp, Expr};

/// Whether `e` is a loop's index (`xindex`, a part's, `r0_index`), given the locals equal
/// to it.
fn is_index(e: &Expr, equal: &[usize]) -> bool {
    match e {
        Expr::Input { index, dtype } => equal.contains(index) && dtype.is_int(),
        Expr::Cast(dtype, inner) => dtype.size() >= 4 && dtype.is_int() && is_index(inner, equal),
        _ => false,
    }
}

/// `e` as `i + rest`, where `i` is one of the locals `equal` (to a loop's index) and `rest`
/// reads no local of `inner` (those the loop defines): Some(None) where `e` is `i`, None
/// where `e` has no such form.
fn split_unit(e: &Expr, equal: &[usize], inner: &[usize]) -> Option<Option<Expr>> {
    if is_index(e, equal) {
        return Some(None);
    }
    match e {
        Expr::Cast(dtype, x) if dtype.is_int() && dtype.size() >= 4 => split_unit(x, equal, inner),
        Expr::Binary(BinaryOp::Add, a, b) => [(a, b), (b, a)].into_iter().find_map(|(x, y)| {
            if !y.inputs_all(&|i| !inner.contains(&i)) {
                return None;
            }
            let rest = split_unit(x, equal, inner)?;
            Some(Some(match rest {
                None => y.as_ref().clone(),
                Some(r) => r.binary(BinaryOp::Add, y.as_ref().clone()),
            }))
        }),
        _ => None,
    }
}

/// What a reduction loop's form by fours needs to know of the loop: the locals equal to
/// `r0_index` and those the loop defines.
pub(crate) struct RowLoop {
    pub equal: Vec<usize>,
    pub inner: Vec<usize>,
}

impl RowLoop {
    /// The loop of `body`, None where it cannot go by fours: it nests a loop, or loads
    /// after it stores (its form by fours loads before it stores).
    pub(crate) fn of(body: &[Stmt]) -> Option<RowLoop> {
        let mut equal = vec![RINDEX];
        let mut inner = vec![RINDEX];
        let mut stored = false;
        let mut ordered = true;
        for s in body {
            if let Stmt::Let { local, value } = s {
                if is_index(value, &equal) {
                    equal.push(*local);
                }
            }
            s.visit(&mut |s| {
                match s {
                    Stmt::Store { .. } => stored = true,
                    Stmt::Load { .. } => ordered &= !stored,
                    Stmt::Loop(_) => ordered = false,
                    _ => {}
                }
                inner.extend(s.defines());
            });
        }
        ordered.then_some(RowLoop { equal, inner })
    }
}

/// Whether a statement or any nested in it is one `pick` selects.
fn contains(s: &Stmt, pick: &impl Fn(&Stmt) -> bool) -> bool {
    let mut found = false;
    s.visit(&mut |s| found |= pick(s));
    found
}

impl FusedKernel {
    /// The locals equal to the index of a loop over `body` (`xindex`, or a part's): itself
    /// and the lets of it at the top of `body` (Inductor's `x0 = xindex`).
    pub(crate) fn index_locals(body: &[Stmt], index: usize) -> Vec<usize> {
        let mut equal = vec![index];
        for s in body {
            if let Stmt::Let { local, value } = s {
                if is_index(value, &equal) {
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
        (self.tensors[tensor].size() <= 4 && is_index(index, equal)).then_some(tensor)
    }

    /// How top-level statement `s` of a reduction loop's body moves in the loop's form by
    /// fours: a load or store of four-byte elements (or a load of a smaller input's) at
    /// `r0_index + rest`, as its tensor and `rest` (None for 0).
    pub(crate) fn row_access(&self, s: &Stmt, row: &RowLoop) -> Option<(usize, Option<Expr>)> {
        let (tensor, index, load) = match s {
            Stmt::Load { tensor, index, .. } => (*tensor, index, true),
            Stmt::Store { tensor, index, .. } => (*tensor, index, false),
            _ => return None,
        };
        let size = self.tensors[tensor].size();
        if size > 4 || (size < 4 && !(load && tensor < self.inputs)) {
            return None;
        }
        Some((tensor, split_unit(index, &row.equal, &row.inner)?))
    }

    /// Whether a reduction whose invocations walk rows alone has a loop that its form by
    /// fours moves some tensor of four at a time in (its launch takes that form where it
    /// stores no elements of under four bytes, so that every binding is of 16-byte words).
    pub fn row_fours(&self) -> bool {
        fn any(k: &FusedKernel, body: &[Stmt]) -> bool {
            body.iter().any(|s| match s {
                Stmt::Loop(body) => RowLoop::of(body)
                    .is_some_and(|row| body.iter().any(|s| k.row_access(s, &row).is_some())),
                Stmt::Part { body, .. } => any(k, body),
                _ => false,
            })
        }
        self.reduction && any(self, &self.body)
    }

    /// Whether the kernel stores elements of under four bytes.
    pub fn stores_narrow(&self) -> bool {
        self.stores_narrow_in(&self.body)
    }

    /// Whether `body` stores elements of under four bytes.
    fn stores_narrow_in(&self, body: &[Stmt]) -> bool {
        let mut narrow = false;
        for s in body {
            s.visit(&mut |s| {
                if let Stmt::Store { tensor, .. } = s {
                    narrow |= self.tensors[*tensor].size() < 4;
                }
            });
        }
        narrow
    }

    /// The tensors moved four at a time where this kernel can take four `xindex` per work
    /// item, or None where it cannot: it is pointwise, without checks, and the loop over
    /// its elements (or some part's, the other parts going element by element unless they
    /// store elements under four bytes, whose words would be shared) has a form by fours
    /// (see `FusedKernel::loop_fours`).
    pub fn fours(&self) -> Option<Vec<usize>> {
        if self.reduction || !self.checks.is_empty() {
            return None;
        }
        if !self.has_parts() {
            return self.loop_fours(&self.body, XINDEX);
        }
        let mut tensors = Vec::new();
        for s in &self.body {
            let Stmt::Part { index, body, .. } = s else {
                continue;
            };
            match self.loop_fours(body, *index) {
                Some(moved) => {
                    for t in moved {
                        if !tensors.contains(&t) {
                            tensors.push(t);
                        }
                    }
                }
                None if self.stores_narrow_in(body) => return None,
                None => {}
            }
        }
        (!tensors.is_empty()).then_some(tensors)
    }

    /// The tensors that a pointwise loop over `index` (`xindex`, or a part's) with statements
    /// `body` moves four at a time in its form by fours, or None where it has none: it
    /// stores only at `index` and only at its top level (so each work item owns the words
    /// of its four elements of every tensor it writes), loads nothing after its first store
    /// (the form loads before it stores), and moves some tensor four at a time.
    pub(crate) fn loop_fours(&self, body: &[Stmt], index: usize) -> Option<Vec<usize>> {
        let equal = Self::index_locals(body, index);
        let is_store = |s: &Stmt| matches!(s, Stmt::Store { .. });
        let is_load = |s: &Stmt| matches!(s, Stmt::Load { .. });
        let mut stored = false;
        let mut tensors = Vec::new();
        for s in body {
            if stored && contains(s, &is_load) {
                return None;
            }
            match s {
                Stmt::Store { index, .. } if !is_index(index, &equal) => return None,
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

//! Kernels that `torch.compile` generates: Inductor's fused loops, sent by the Python code
//! generator (`torch_mojo_backend/compiler/kernel.py`) as a small text program and printed by
//! the one printer like every other pattern.
//!
//! The program, one statement per line:
//! ```text
//! fused 1                                 header: format version
//! tensors <inputs> <dtype>...             tensor arguments (the first <inputs> only read)
//! sizes <name>...                         int32 size arguments, by name
//! scalars (<name> <dtype>)...             scalar arguments (host scalars' values)
//! reduction 0|1                           whether the kernel reduces along `r0_index`
//! let <name> [<dtype>] <expr>             a local value (of its operands' dtype if not given)
//! load <name> <dtype> <tensor> <expr>     element <expr> of a tensor, converted to <dtype>
//! store <tensor> <expr> <expr>            writes the second at element index the first
//! loop / end                              the reduction loop over `r0_index`
//! part <expr> [<expr>] / end               a loop of the whole launch over `xindex` in
//!                                         [0, <expr>) with `xnumel` = <expr> (names local
//!                                         to it): several kernels in one launch, each a
//!                                         part; a program with parts has nothing else at
//!                                         its top level. In a reduction program the
//!                                         second expression is the part's `r0_numel`, and
//!                                         each invocation reduces its rows alone
//! reduce <op> <name>... <dtype> <expr>... a reduction inside the loop, valid after its end
//! random <name> <kind> <seed> <offset> [<low> <high>]
//!                                         Inductor's rand, randn or randint64 (Philox)
//! masked <name> <dtype> <expr>            a block (its names local to it) run where <expr>
//! yield <expr> <expr>                     holds, giving the first, else the second
//! check <lower> <upper> <expr> <expr> ; <message>
//!                                         an index that must be >= 0 (lower 1) and below
//!                                         the second (upper 1), else RuntimeError(message)
//! ```
//! Expressions are S-expressions: a name (`xindex`, `xnumel`, `r0_index`, `r0_numel`, a size
//! or a local), `(const <dtype> <value>)`, `(cast <dtype> e)`, `(where c a b)`, or
//! `(<op> e...)` with the unary and binary ops of [`UnaryOp`] and [`BinaryOp`] by their
//! Inductor names. Operands of different dtypes meet in the wider one.
//!
//! [`UnaryOp`]: crate::kernels::UnaryOp
//! [`BinaryOp`]: crate::kernels::BinaryOp

use std::hash::{Hash, Hasher};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::Expr;

mod fours;
mod operands;
mod parse;
#[cfg(test)]
mod tests;

pub(crate) use fours::RowLoop;
pub use operands::join;
use parse::Parser;

/// The loop iterations one invocation of a compiled kernel may take in all: the software
/// device stops an invocation after 65,535 (every loop of it, helper functions' included;
/// the margin covers the grid loop and a group's combine).
pub const INVOCATION_STEPS: u64 = 65_000;

/// The most rows one invocation of a reduction kernel takes in turn (as many elements as
/// the other patterns' bounded grids give an invocation).
const ROWS_PER_INVOCATION: u64 = 256;

/// A generated kernel: its tensors, size arguments and statements. Locals are numbered; the
/// first four are `xindex`, `r0_index`, `xnumel` and `r0_numel` (int32).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusedKernel {
    pub tensors: Vec<DType>,
    pub inputs: usize,
    pub sizes: usize,
    pub scalars: Vec<DType>,
    pub reduction: bool,
    /// A reduction whose invocations each reduce whole rows alone (one `xindex` each, no
    /// exchange through group memory): for devices where group memory and barriers cost
    /// more than walking a row (the software device). Chosen at launch, not in the program.
    pub each: bool,
    /// Four elements at a time, by 16-byte loads and stores: a pointwise kernel's work items
    /// each take four consecutive `xindex` ([`FusedKernel::fours`]; an add of 4M float32
    /// took 6.1 ms one element per item, against the eager map's 3.1), and an
    /// [`FusedKernel::each`] reduction walks each aligned row four elements per step
    /// ([`FusedKernel::row_fours`]). Chosen at launch, where the pointwise kernel's tensors
    /// are aligned or the reduction stores no elements under four bytes.
    pub by_fours: bool,
    pub body: Vec<Stmt>,
    /// How many locals the statements number (printers number their own from here).
    pub locals: usize,
    /// The messages of the `check` statements, in order: a kernel with any takes the
    /// device's fault word as one more tensor (int32), and a tag per check.
    pub checks: Vec<String>,
    /// A hash of everything above but `each`, taken once when parsed: a launch looks its
    /// pipeline up by it instead of hashing the statements again.
    pub(crate) fingerprint: u64,
    /// See [`FusedKernel::loops`].
    pub(crate) looping: bool,
    /// [`FusedKernel::row_steps`] as `fixed + per_element * rnumel`, found once when parsed
    /// (launches ask for it): exact where no loop nests in another, None otherwise.
    pub(crate) row_cost: Option<(u64, u64)>,
}

impl Hash for FusedKernel {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.fingerprint.hash(state);
        self.each.hash(state);
        self.by_fours.hash(state);
    }
}

/// The locals every program starts with.
pub const XINDEX: usize = 0;
pub const RINDEX: usize = 1;
pub const XNUMEL: usize = 2;
pub const RNUMEL: usize = 3;

/// How a reduction combines its values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FusedReduce {
    Sum,
    Prod,
    Max,
    Min,
    /// Logical or of bools.
    Any,
    XorSum,
    /// The reduction index of the first maximum (NaN the largest).
    ArgMax,
    ArgMin,
    /// Mean, sum of squared deviations and count of the values (Welford).
    Welford,
    /// Merges (mean, m2, count) triples.
    WelfordCombine,
}

/// Inductor's random numbers: a counter-based draw (Philox4x32-10 keyed by the seed, at the
/// offset) of a float32 uniform in [0, 1), a float32 standard normal, or an int64 in
/// `[low, high)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RandomKind {
    Uniform,
    Normal,
    Integer,
}

/// One statement; `local` numbers a value the statements after it read as `x{local}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    Let {
        local: usize,
        value: Expr,
    },
    Load {
        local: usize,
        dtype: DType,
        tensor: usize,
        index: Expr,
    },
    Store {
        tensor: usize,
        index: Expr,
        value: Expr,
    },
    /// The loop over the reduced elements.
    Loop(Vec<Stmt>),
    /// Accumulates `values` into `locals` (in `dtype`) inside a loop.
    Reduce {
        op: FusedReduce,
        locals: Vec<usize>,
        dtype: DType,
        values: Vec<Expr>,
    },
    /// A random number from an int64 `seed` and an `offset`; `range` is `[low, high)` of
    /// integers (int64).
    Random {
        local: usize,
        kind: RandomKind,
        seed: Expr,
        offset: Expr,
        range: Option<(Expr, Expr)>,
    },
    /// Reports check `check` (a fault, raised at the next synchronisation) unless
    /// `index >= 0` (where `lower`) and `index < size` (where `upper`).
    Check {
        check: usize,
        lower: bool,
        upper: bool,
        index: Expr,
        size: Expr,
    },
    /// A loop of the launch's invocations over `index` in `[0, numel)`, whose value is
    /// local `numel_local` (see the `part` statement); in a reduction, `rows` is the local
    /// holding the part's row length and that length.
    Part {
        index: usize,
        numel_local: usize,
        numel: Expr,
        rows: Option<(usize, Expr)>,
        body: Vec<Stmt>,
    },
    /// `local = mask ? (body; value) : other`.
    Masked {
        local: usize,
        mask: Expr,
        body: Vec<Stmt>,
        value: Expr,
        other: Expr,
    },
}

impl Stmt {
    /// Calls `f` on this statement and every statement nested in it, in order.
    pub fn visit(&self, f: &mut impl FnMut(&Stmt)) {
        f(self);
        if let Stmt::Loop(body) | Stmt::Masked { body, .. } | Stmt::Part { body, .. } = self {
            for s in body {
                s.visit(f);
            }
        }
    }

    /// The locals this statement (not those nested in it) defines.
    pub fn defines(&self) -> Vec<usize> {
        match self {
            Stmt::Let { local, .. }
            | Stmt::Load { local, .. }
            | Stmt::Random { local, .. }
            | Stmt::Masked { local, .. } => vec![*local],
            Stmt::Reduce { locals, .. } => locals.clone(),
            Stmt::Part {
                index,
                numel_local,
                rows,
                ..
            } => [*index, *numel_local]
                .into_iter()
                .chain(rows.as_ref().map(|r| r.0))
                .collect(),
            Stmt::Store { .. } | Stmt::Loop(_) | Stmt::Check { .. } => Vec::new(),
        }
    }
}

impl FusedKernel {
    /// Whether a statement's expression calls a helper function that loops a number of times
    /// depending on the values (its kernel then takes one element per invocation); found
    /// once when parsed, asked at every launch.
    pub fn loops(&self) -> bool {
        self.looping
    }

    fn find_loops(&self) -> bool {
        fn any(body: &[Stmt]) -> bool {
            body.iter().any(|s| match s {
                Stmt::Let { value, .. } => value.loops(),
                Stmt::Load { index, .. } => index.loops(),
                Stmt::Store { index, value, .. } => index.loops() || value.loops(),
                Stmt::Loop(body) => any(body),
                Stmt::Part {
                    numel, rows, body, ..
                } => numel.loops() || rows.as_ref().is_some_and(|r| r.1.loops()) || any(body),
                Stmt::Reduce { values, .. } => values.iter().any(Expr::loops),
                Stmt::Random { .. } | Stmt::Check { .. } => false,
                Stmt::Masked {
                    mask,
                    body,
                    value,
                    other,
                    ..
                } => mask.loops() || any(body) || value.loops() || other.loops(),
            })
        }
        any(&self.body)
    }

    /// At most how many loop iterations one invocation takes to reduce a row of `rnumel`
    /// elements alone (see [`FusedKernel::each`] and [`Expr::helper_steps`]): each loop's
    /// own iterations and its statements' helper loops per element, plus the statements
    /// outside the loops once.
    pub fn row_steps(&self, rnumel: u64) -> u64 {
        match self.row_cost {
            Some((fixed, per_element)) => fixed.saturating_add(per_element.saturating_mul(rnumel)),
            None => self.count_row_steps(rnumel),
        }
    }

    /// [`FusedKernel::row_cost`]: with no loop inside another, each loop's body costs the
    /// same whatever the row's length, so the steps grow linearly with it.
    fn find_row_cost(&self) -> Option<(u64, u64)> {
        fn nests(body: &[Stmt], inside_loop: bool) -> bool {
            body.iter().any(|s| match s {
                Stmt::Loop(body) => inside_loop || nests(body, true),
                Stmt::Masked { body, .. } | Stmt::Part { body, .. } => nests(body, inside_loop),
                _ => false,
            })
        }
        if nests(&self.body, false) {
            return None;
        }
        let fixed = self.count_row_steps(0);
        Some((fixed, self.count_row_steps(1) - fixed))
    }

    /// [`FusedKernel::row_steps`], counted statement by statement.
    fn count_row_steps(&self, rnumel: u64) -> u64 {
        fn steps(s: &Stmt, rnumel: u64) -> u64 {
            let e = |e: &Expr| e.helper_steps();
            match s {
                Stmt::Let { value, .. } => e(value),
                Stmt::Load { index, .. } => e(index),
                Stmt::Store { index, value, .. } => e(index) + e(value),
                Stmt::Reduce { values, .. } => values.iter().map(e).sum(),
                Stmt::Random { seed, offset, .. } => e(seed) + e(offset),
                Stmt::Check { index, size, .. } => e(index) + e(size),
                Stmt::Masked {
                    mask,
                    body,
                    value,
                    other,
                    ..
                } => e(mask) + e(value) + e(other) + all(body, rnumel),
                Stmt::Part {
                    numel, rows, body, ..
                } => e(numel) + rows.as_ref().map_or(0, |r| e(&r.1)) + all(body, rnumel),
                Stmt::Loop(body) => rnumel.saturating_mul(1 + all(body, rnumel)),
            }
        }
        fn all(body: &[Stmt], rnumel: u64) -> u64 {
            body.iter()
                .fold(0u64, |n, s| n.saturating_add(steps(s, rnumel)))
        }
        all(&self.body, rnumel)
    }

    /// Whether the program is a list of parts (several kernels in one launch).
    pub fn has_parts(&self) -> bool {
        self.body.iter().any(|s| matches!(s, Stmt::Part { .. }))
    }

    /// How many rows of `rnumel` elements one invocation of an [`FusedKernel::each`] kernel
    /// may reduce in turn within the software device's loop budget (at most 256; one where
    /// a helper function loops). A launch of many short rows then runs a bounded grid, as
    /// the other patterns do: each group costs the software device a scheduling step (the
    /// transformer LM's compiled attention products, 16,384 rows of 8 and two copies in one
    /// launch: 0.53 -> 0.20 ms).
    pub fn rows_per_invocation(&self, rnumel: u64) -> u64 {
        if self.looping {
            return 1;
        }
        let grid_loops = self
            .body
            .iter()
            .filter(|s| matches!(s, Stmt::Part { .. }))
            .count()
            .max(1) as u64;
        let per_row = self.row_steps(rnumel).saturating_add(grid_loops);
        (INVOCATION_STEPS / per_row).clamp(1, ROWS_PER_INVOCATION)
    }

    /// Parses a program (see the module documentation).
    pub fn parse(text: &str) -> Result<FusedKernel> {
        Parser::default()
            .program(text)
            .map_err(|e| Error::runtime(format!("mojo: invalid compiled kernel program: {e}")))
    }
}

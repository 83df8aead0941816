//! The one kernel printer: each pattern's skeleton is written once, here, over the
//! [`Dialect`] interface; WGSL (`kernels::wgsl`) and CUDA C++ (`kernels::cuda`) are dialects.
//!
//! Launch arguments are u32 words (the layout of each pattern is documented on its printer and
//! mirrored by `ops`); tensors are addressed in bytes from their offset word, which is zero
//! where the tensor's pointer carries its offset (CUDA).

mod attention;
mod conv;
mod conv_direct;
mod dialect;
mod elementwise;
mod fused;
mod gemm;
mod gemm_lanes;
mod index;
mod random;
mod reduce;
mod reduce_columns;
mod scan;
mod shared;
mod sort;
#[cfg(test)]
mod tests;

pub use attention::{BLOCK as ATTENTION_BLOCK, STAGE as ATTENTION_STAGE, WIDTH as ATTENTION_WIDTH};
pub use conv_direct::outputs as conv_direct_outputs;
pub use dialect::{Builtin, Dialect, Ty};
pub use gemm::{tile as gemm_tile, TILE as GEMM_TILE};
pub use gemm_lanes::LANES as GEMM_LANES;
pub use reduce_columns::{eligible as columns_eligible, COLUMN_OUTPUTS};
pub use sort::{ONE_PASS_BITS, RADIX_BITS};

use crate::dtype::DType;
use crate::kernels::functions::{self, Function};
use crate::kernels::{Distribution, Expr, Kernel};

/// Invocations per group, for every pattern (a GEMM group computes one tile of
/// `GEMM_TILE`² outputs, one per invocation).
pub const GROUP_SIZE: u32 = 64;

impl Kernel {
    /// Invocations per group of this kernel's launch on a CPU device (`cpu`: the software
    /// device, whose cores take whole groups) or any other. A radix pass has one invocation
    /// per tile of thousands of keys, so few that groups of `GROUP_SIZE` leave cores idle: on
    /// a CPU its groups are one SIMD batch (1M keys in tiles of 8,192: 16 groups, not 2;
    /// measured, an index_add of 1M values 17 -> 14 ms).
    pub fn group_size(&self, cpu: bool) -> u32 {
        match self {
            Kernel::Gemm(k) if k.lanes => GEMM_LANES,
            Kernel::RadixCount(_) | Kernel::RadixScatter(_) if cpu => CPU_LANES,
            _ => GROUP_SIZE,
        }
    }

    /// How many of the launch's work items one invocation may take in turn. Patterns whose
    /// item has no long inner loop take many, so that a large launch runs a bounded grid
    /// (fewer, longer-lived groups: each group costs the software device a scheduling step);
    /// the others one, as each item may already walk thousands of elements (the software
    /// device stops an invocation after 65,535 loop iterations in all).
    /// A compiled reduction whose invocations each reduce whole rows takes as many as fit the
    /// loop budget at the launch's row length (`words[1]`).
    pub fn items_per_invocation(&self, words: &[u32]) -> u64 {
        match self {
            Kernel::Fused(k) if k.each => {
                k.rows_per_invocation(words.get(1).map_or(0, |&r| u64::from(r)))
            }
            Kernel::Map(k) | Kernel::MapVector(k, ..) if k.loops() => 1,
            Kernel::Map(_)
            | Kernel::MapVector(..)
            | Kernel::Foreach(_)
            | Kernel::MaskedSelect(_)
            | Kernel::Index(_)
            | Kernel::AccumulateKeys(_)
            | Kernel::RunStarts(_) => 256,
            Kernel::Fused(k) if !k.reduction && !k.loops() => 256,
            Kernel::Random(k)
                if !matches!(
                    k.distribution,
                    Distribution::Poisson | Distribution::IslandShuffle
                ) =>
            {
                256
            }
            _ => 1,
        }
    }

    /// Groups to launch for `items` work items (of which a group's invocations take
    /// `group_size` at a time) on a device that keeps `resident` groups busy: one group per
    /// `group_size` items, but no more than the device keeps busy unless the per-invocation
    /// bound needs more (`words`: the launch's words).
    pub fn groups(&self, items: u64, resident: u64, cpu: bool, words: &[u32]) -> u64 {
        let size = u64::from(self.group_size(cpu));
        let all = items.div_ceil(size);
        let fewest = items.div_ceil(size * self.items_per_invocation(words));
        all.min(resident.max(fewest)).max(1)
    }
}

/// The SIMD lanes a CPU device's core runs a group's invocations in at a time (lavapipe on
/// AVX2: eight).
const CPU_LANES: u32 = 8;

/// The source of `kernel` in `dialect`.
pub fn render(kernel: &Kernel, dialect: &mut dyn Dialect) -> String {
    let (declarations, functions, body) = print(kernel, dialect);
    dialect.module(
        kernel,
        kernel.group_size(dialect.blocked_grid()),
        &declarations,
        &functions,
        &body,
    )
}

/// Helper functions printed apart from any kernel's skeleton: those `build` defines.
pub fn helper_functions(dialect: &mut dyn Dialect, build: impl FnOnce(&mut Printer)) -> String {
    let mut p = Printer::new(dialect, 1);
    build(&mut p);
    p.functions
}

/// What the skeleton prints for `kernel`: its declarations, helper functions and entry body.
fn print(kernel: &Kernel, dialect: &mut dyn Dialect) -> (String, String, String) {
    let group = kernel.group_size(dialect.blocked_grid());
    let mut p = Printer::new(dialect, group);
    match kernel {
        Kernel::Map(k) => elementwise::map(&mut p, k),
        Kernel::MapVector(k, splat, aligned) => {
            elementwise::map_vector(&mut p, k, *splat, *aligned)
        }
        Kernel::Foreach(k) => elementwise::foreach(&mut p, k),
        Kernel::MaskedSelect(dtype) => elementwise::masked_select(&mut p, *dtype),
        Kernel::Reduce(k) => reduce::reduce(&mut p, k, true),
        Kernel::ReduceEach(k) if k.columns => reduce_columns::reduce_columns(&mut p, k),
        Kernel::ReduceEach(k) => reduce::reduce(&mut p, k, false),
        Kernel::Scan(k) => scan::scan(&mut p, k),
        Kernel::Gemm(k) => gemm::gemm(&mut p, k),
        Kernel::Conv(k) => conv::conv(&mut p, k),
        Kernel::Attention(k) => attention::attention(&mut p, k),
        Kernel::Index(k) => index::index(&mut p, k),
        Kernel::Accumulate(k) => index::accumulate(&mut p, k),
        Kernel::AccumulateKeys(k) => index::accumulate_keys(&mut p, k),
        Kernel::RunStarts(key) => index::run_starts(&mut p, *key),
        Kernel::Sort(k) => sort::sort(&mut p, k),
        Kernel::Merge(k) => sort::merge(&mut p, k),
        Kernel::RadixCount(k) => sort::radix_count(&mut p, k),
        Kernel::RadixScatter(k) => sort::radix_scatter(&mut p, k),
        Kernel::RadixPick => sort::radix_pick(&mut p),
        Kernel::TopTiles(k) => sort::top_tiles(&mut p, k),
        Kernel::Random(k) => random::random(&mut p, k),
        Kernel::Fused(k) => fused::fused(&mut p, k),
    }
    (p.declarations, p.functions, p.body)
}

/// Builds one kernel's entry-point body, helper functions and declarations, indenting as it
/// goes. Blocks are opened by the `open*`/`for_`/`if_` methods and closed by [`Printer::close`].
pub struct Printer<'a> {
    pub d: &'a mut dyn Dialect,
    declarations: String,
    functions: String,
    body: String,
    depth: usize,
    /// The helper functions already printed, with their dtypes.
    defined: Vec<(Function, DType)>,
    /// Invocations per group of the kernel being printed.
    group: u32,
}

impl<'a> Printer<'a> {
    fn new(d: &'a mut dyn Dialect, group: u32) -> Self {
        Printer {
            d,
            declarations: String::new(),
            functions: String::new(),
            body: String::new(),
            depth: 1,
            defined: Vec::new(),
            group,
        }
    }

    /// One statement (or any line) at the current depth.
    pub fn line(&mut self, text: impl AsRef<str>) {
        for _ in 0..self.depth {
            self.body += "    ";
        }
        self.body += text.as_ref();
        self.body.push('\n');
    }

    /// Opens a block after `head` (`if (c)`, `while (c)`, or empty for a bare block).
    pub fn open(&mut self, head: impl AsRef<str>) {
        let head = head.as_ref();
        self.line(if head.is_empty() {
            "{".to_string()
        } else {
            format!("{head} {{")
        });
        self.depth += 1;
    }

    pub fn close(&mut self) {
        self.depth -= 1;
        self.line("}");
    }

    /// Closes the open `if` block and opens its `else` (`else if (c)` with a condition).
    pub fn else_(&mut self, cond: Option<&str>) {
        self.depth -= 1;
        match cond {
            Some(c) => self.line(format!("}} else if ({c}) {{")),
            None => self.line("} else {"),
        }
        self.depth += 1;
    }

    pub fn if_(&mut self, cond: impl AsRef<str>) {
        self.open(format!("if ({})", cond.as_ref()));
    }

    /// `for (u32 name = from; cond; step)`.
    pub fn for_(&mut self, name: &str, from: &str, cond: &str, step: &str) {
        let head = self.d.for_head(name, from, cond, step);
        self.open(head);
    }

    /// `for (u32 name = from; name < to; name += 1)`.
    pub fn for_up(&mut self, name: &str, from: &str, to: &str) {
        self.for_(
            name,
            from,
            &format!("{name} < {to}"),
            &format!("{name} += 1u"),
        );
    }

    /// The grid loop over `name` in `[0, n)`: each invocation takes every (invocations)-th
    /// value, or on a CPU each unit of `CPU_LANES` neighbouring invocations its own block of
    /// values in order, its lanes neighbouring values (see `Dialect::blocked_grid`).
    pub fn grid_loop(&mut self, name: &str, n: &str) {
        self.grid_loop_blocked_if(name, n, "true");
    }

    /// [`Printer::grid_loop`], whose values are taken in blocks on a CPU only where the
    /// condition `blocked` holds at run time: where a layout reads memory in order. A
    /// transposing copy reads rows far apart for neighbouring values, and its lanes reuse
    /// each other's lines only when neighbouring units take neighbouring values (4096²:
    /// 41 ms so, 91 ms in blocks).
    pub fn grid_loop_blocked_if(&mut self, name: &str, n: &str, blocked: &str) {
        let size = self.group;
        if !self.d.blocked_grid() {
            self.for_(
                name,
                &format!("group * {size}u + t"),
                &format!("{name} < {n}"),
                &format!("{name} += groups * {size}u"),
            );
            return;
        }
        // Every invocation takes up to `per` values: in blocks, a unit's values start at
        // `unit * per * CPU_LANES` and step by `CPU_LANES` (units past the last block take
        // none: their first value, whose product may wrap, is not used); else they step by
        // the invocations.
        let lanes = CPU_LANES;
        let v = |suffix: &str| format!("{name}_{suffix}");
        let all = format!("(groups * {size}u)");
        self.let_(
            &v("per"),
            Ty::U32,
            format!("{n} / {all} + u32({n} % {all} != 0u)"),
        );
        self.let_(&v("at"), Ty::U32, format!("group * {size}u + t"));
        self.let_(&v("blocked"), Ty::Bool, blocked);
        let (per, at, is_blocked) = (v("per"), v("at"), v("blocked"));
        let unit = format!("{at} / {lanes}u");
        let block_start = format!("({unit} * {per}) * {lanes}u + {at} % {lanes}u");
        let base = self.select(&is_blocked, &block_start, &at);
        self.let_(&v("base"), Ty::U32, base);
        let stride = self.select(&is_blocked, &format!("{lanes}u"), &all);
        self.let_(&v("stride"), Ty::U32, stride);
        let inside = format!("{unit} <= ({n} - 1u) / max({per} * {lanes}u, 1u)");
        let used = format!("!{is_blocked} || {inside}");
        let steps = self.select(&used, &per, "0u");
        self.let_(&v("steps"), Ty::U32, steps);
        let step = v("step");
        self.for_up(&step, "0u", &v("steps"));
        self.let_(
            name,
            Ty::U32,
            format!("{} + {step} * {}", v("base"), v("stride")),
        );
        self.if_(format!("{name} >= {n}"));
        self.line("break;");
        self.close();
    }

    /// The step between an invocation's values of the grid loop over `name` (in scope inside
    /// it).
    fn grid_stride(&self, name: &str) -> String {
        if self.d.blocked_grid() {
            format!("{name}_stride")
        } else {
            format!("(groups * {}u)", self.group)
        }
    }

    pub fn let_(&mut self, name: &str, ty: Ty, value: impl AsRef<str>) {
        let s = self.d.let_(name, ty, value.as_ref());
        self.line(s);
    }

    pub fn var(&mut self, name: &str, ty: Ty, value: impl AsRef<str>) {
        let s = self.d.var(name, ty, value.as_ref());
        self.line(s);
    }

    /// Launch word `index`.
    pub fn word(&self, index: impl AsRef<str>) -> String {
        self.d.word(index.as_ref())
    }

    /// A scalar expression, after printing the helper functions it calls.
    pub fn expr(&mut self, e: &Expr) -> String {
        self.define_functions(e);
        self.d.expr(e)
    }

    /// Prints each helper function `e` calls that is not printed yet (those its body calls
    /// first).
    fn define_functions(&mut self, e: &Expr) {
        match e {
            Expr::Call(f, args) => {
                args.iter().for_each(|a| self.define_functions(a));
                let key = (*f, e.dtype());
                if !self.defined.contains(&key) {
                    self.defined.push(key);
                    functions::define(self, key.0, key.1);
                }
            }
            Expr::Cast(_, x) | Expr::Unary(_, x) => self.define_functions(x),
            Expr::Binary(_, a, b) => {
                self.define_functions(a);
                self.define_functions(b);
            }
            Expr::Select(c, a, b) => {
                self.define_functions(c);
                self.define_functions(a);
                self.define_functions(b);
            }
            _ => {}
        }
    }

    pub fn select(&self, cond: &str, yes: &str, no: &str) -> String {
        self.d.select(cond, yes, no)
    }

    pub fn barrier(&mut self) {
        let b = self.d.barrier();
        self.line(format!("{b};"));
    }

    /// A group-shared array.
    pub fn shared(&mut self, name: &str, ty: Ty, len: u32) {
        self.declarations += &self.d.shared_array(name, ty, len);
        self.declarations.push('\n');
    }

    /// `name[k]` for launch words `0..count`, uniform across the group.
    pub fn uniform_words(&mut self, name: &str, count: usize) {
        let (declaration, statements) = self.d.uniform_words(name, count);
        self.declarations += &declaration;
        for s in statements {
            self.line(s);
        }
    }

    /// A helper function whose body `build` prints.
    pub fn function(
        &mut self,
        name: &str,
        params: &[(&str, Ty)],
        ret: Option<Ty>,
        build: impl FnOnce(&mut Printer),
    ) {
        let body = std::mem::take(&mut self.body);
        let depth = std::mem::replace(&mut self.depth, 1);
        build(self);
        let inner = std::mem::replace(&mut self.body, body);
        self.depth = depth;
        let f = self.d.function(name, params, ret, &inner);
        self.functions += &f;
    }

    /// `let s{k} = ...;` for each scalar argument, reading from word `start` on.
    pub fn scalars(&mut self, scalars: &[DType], start: &str) {
        let mut word = 0;
        for (k, &dtype) in scalars.iter().enumerate() {
            let value = self.d.scalar(dtype, &format!("{start} + {word}u"));
            self.let_(&format!("s{k}"), Ty::Value(dtype), value);
            word += if dtype.size() == 8 { 2 } else { 1 };
        }
    }

    /// The grid-stride loop over element `i` of a strided iteration space of `n` elements
    /// (`nd` dimensions, sizes at words `sizes + d`, tensor `t`'s offset at word
    /// `tensors + t * (1 + nd)` followed by its `nd` strides), opened with `a{t}`: the byte
    /// address of each tensor's element `i`. Spaces of up to three dimensions (most, after
    /// coalescing) skip the loop over dimensions and read their words once, before the loop
    /// (each word read is a load per lane on the software device), and divide only at an
    /// invocation's first element: later ones step its coordinates by the grid's stride with
    /// carries (a division is a scalar loop over the lanes on CPUs, and slow on GPUs). A
    /// convolution's tap copy of 1.5M float32 elements, `[N * C, H, W]`: 12 ms through the
    /// loop, 4.7 ms stepping. On a CPU the values are taken in blocks where the layout
    /// coalesced to one dimension.
    pub fn strided_loop(&mut self, dtypes: &[DType], n: &str, sizes: &str, tensors: &str) {
        self.strided_loop_blocked_if(dtypes, n, sizes, tensors, "nd == 1u");
    }

    /// [`Printer::strided_loop`], in blocks on a CPU where `blocked` holds at run time (it may
    /// read the innermost strides `sb{t}`).
    pub fn strided_loop_blocked_if(
        &mut self,
        dtypes: &[DType],
        n: &str,
        sizes: &str,
        tensors: &str,
        blocked: &str,
    ) {
        self.var("inner", Ty::U32, "1u");
        self.var("middle", Ty::U32, "1u");
        for t in 0..dtypes.len() {
            self.var(&format!("sp{t}"), Ty::U32, "0u");
            self.var(&format!("sa{t}"), Ty::U32, "0u");
            self.var(&format!("sb{t}"), Ty::U32, "0u");
            let offset = self.word(format!("{tensors} + {t}u * (1u + nd)"));
            self.let_(&format!("o{t}"), Ty::U32, offset);
        }
        self.if_("nd == 1u");
        for t in 0..dtypes.len() {
            let stride = self.word(format!("{tensors} + {t}u * 2u + 1u"));
            self.line(format!("sb{t} = {stride};"));
        }
        self.else_(Some("nd == 2u"));
        let inner = self.word(format!("{sizes} + 2u"));
        self.line(format!("inner = {inner};"));
        for t in 0..dtypes.len() {
            let (s0, s1) = (
                self.word(format!("{tensors} + {t}u * 3u + 1u")),
                self.word(format!("{tensors} + {t}u * 3u + 2u")),
            );
            self.line(format!("sp{t} = {s0};"));
            self.line(format!("sb{t} = {s1};"));
        }
        self.else_(Some("nd == 3u"));
        let (middle, inner) = (
            self.word(format!("{sizes} + 2u")),
            self.word(format!("{sizes} + 3u")),
        );
        self.line(format!("middle = {middle};"));
        self.line(format!("inner = {inner};"));
        for t in 0..dtypes.len() {
            for (d, name) in ["sp", "sa", "sb"].iter().enumerate() {
                let stride = self.word(format!("{tensors} + {t}u * 4u + {}u", d + 1));
                self.line(format!("{name}{t} = {stride};"));
            }
        }
        self.close();
        // The coordinates of `i` (column, then the middle and the plane, or the row) and the
        // grid stride's, set at the first element.
        for name in [
            "i_col",
            "i_mid",
            "i_top",
            "i_step_col",
            "i_step_mid",
            "i_step_top",
        ] {
            self.var(name, Ty::U32, "0u");
        }
        self.var("i_walked", Ty::Bool, "false");
        self.grid_loop_blocked_if("i", n, blocked);
        let stride = self.grid_stride("i");
        for t in 0..dtypes.len() {
            self.var(&format!("e{t}"), Ty::U32, "0u");
        }
        self.if_("nd == 1u");
        for t in 0..dtypes.len() {
            self.line(format!("e{t} = i * sb{t};"));
        }
        self.else_(Some("nd <= 3u"));
        // With two dimensions `middle` is 1: `i_mid` stays 0 and `i_top` is the row.
        self.if_("i_walked");
        self.line("i_col = i_col + i_step_col;");
        self.let_("i_carry", Ty::U32, "u32(i_col >= inner)");
        self.line("i_col = i_col - i_carry * inner;");
        self.line("i_mid = i_mid + i_step_mid + i_carry;");
        self.let_("i_carry_mid", Ty::U32, "u32(i_mid >= middle)");
        self.line("i_mid = i_mid - i_carry_mid * middle;");
        self.line("i_top = i_top + i_step_top + i_carry_mid;");
        self.else_(None);
        self.line("i_col = i % inner;");
        self.line("i_mid = (i / inner) % middle;");
        self.line("i_top = (i / inner) / middle;");
        self.line(format!("i_step_col = {stride} % inner;"));
        self.line(format!("i_step_mid = ({stride} / inner) % middle;"));
        self.line(format!("i_step_top = ({stride} / inner) / middle;"));
        self.line("i_walked = true;");
        self.close();
        for t in 0..dtypes.len() {
            self.line(format!(
                "e{t} = i_top * sp{t} + i_mid * sa{t} + i_col * sb{t};"
            ));
        }
        self.else_(None);
        self.var("r", Ty::U32, "i");
        self.for_("d", "nd", "d > 0u", "d -= 1u");
        let size = self.word(format!("{sizes} + d"));
        self.let_("c", Ty::U32, format!("r % {size}"));
        self.line(format!("r = r / {size};"));
        for t in 0..dtypes.len() {
            let stride = self.word(format!("{tensors} + {t}u * (1u + nd) + d"));
            self.line(format!("e{t} += c * {stride};"));
        }
        self.close();
        self.close();
        for (t, dtype) in dtypes.iter().enumerate() {
            self.let_(
                &format!("a{t}"),
                Ty::U32,
                format!("o{t} + e{t} * {}u", dtype.size()),
            );
        }
    }
}

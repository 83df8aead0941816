//! What a kernel language supplies to the printer: its types, declarations, the launch words,
//! group-shared memory and barriers, literals and conversions, the scalar expression language,
//! the few operations it spells its own way, and the module around the entry point.
//!
//! Everything else the skeletons print is the syntax WGSL and C++ share: arithmetic,
//! comparisons, `&&`/`||`/`!`, indexing, calls, functional casts such as `u32(x)`,
//! `if`/`else`, `while`, `break`, `continue`, assignments and `return`.

use crate::dtype::DType;
use crate::kernels::{Expr, Kernel};

/// The type of a printed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
    Bool,
    /// The type values of a dtype are computed in.
    Value(DType),
}

/// Operations each dialect spells its own way (an exhaustive match in each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// The high 32 bits of the 64-bit product of two u32 values.
    MulHi,
    /// `a * b + c` rounded once, in the type of the dtype (float32 or float64).
    Fma(DType),
    /// cuRAND's float32 logarithm, and the platform's fast sine and cosine (its normals use
    /// them).
    FastLogF32,
    FastSinF32,
    FastCosF32,
    /// CUDA's approximate float32 logarithm `__logf`, which ATen's device `at::log` is for
    /// float (exponential and geometric draws); elsewhere the dialect's logarithm.
    ApproxLogF32,
    /// The bits of a float32 value, as a u32.
    FloatBits,
    /// The float32 value of a u32's bits.
    BitsFloat,
    /// `sin(pi x)` and `cos(pi x)` in float64.
    SinPiF64,
    CosPiF64,
    /// `(value, lane)`: the float32 `value` of invocation `lane` (a constant) of the
    /// subgroup, for every invocation of it; all of the subgroup's invocations must be active.
    Broadcast,
}

/// One kernel language. Statements are returned without indentation or newline.
pub trait Dialect {
    /// Whether a grid loop gives each invocation a contiguous block of the items rather than
    /// every (invocations)-th one: for CPUs, where one core runs a group's invocations a SIMD
    /// batch at a time, so that each lane walks memory in order (an add of 16M float32 on
    /// lavapipe, 2 cores: 35 -> 16 ms), not GPUs, whose neighbouring invocations should read
    /// neighbouring elements.
    fn blocked_grid(&self) -> bool;
    /// The name of a type.
    fn ty(&self, ty: Ty) -> String;
    /// An immutable local.
    fn let_(&self, name: &str, ty: Ty, value: &str) -> String;
    /// An immutable local of the value's own type.
    fn let_inferred(&self, name: &str, value: &str) -> String;
    /// A mutable local.
    fn var(&self, name: &str, ty: Ty, value: &str) -> String;
    /// A mutable local array of `len` elements, uninitialised.
    fn local_array(&self, name: &str, ty: Ty, len: usize) -> String;
    /// The head of a counting loop over a u32 `name`, without the opening brace.
    fn for_head(&self, name: &str, from: &str, cond: &str, step: &str) -> String;
    /// A group-shared array of `len` elements.
    fn shared_array(&self, name: &str, ty: Ty, len: u32) -> String;
    /// A barrier over the group (memory of the group included).
    fn barrier(&self) -> &'static str;
    /// Launch word `index` (a u32 expression).
    fn word(&self, index: &str) -> String;
    /// Declarations and statements that make words `0..count` readable as `name[k]`, uniform
    /// across the group, from group-uniform control flow: (module-scope declarations,
    /// statements at the start of the entry point).
    fn uniform_words(&self, name: &str, count: usize) -> (String, Vec<String>);
    /// `cond ? yes : no`, all three evaluated.
    fn select(&self, cond: &str, yes: &str, no: &str) -> String;
    /// An int64 literal.
    fn int64(&self, value: i64) -> String;
    /// A constant of `dtype`'s compute type, exact.
    fn constant(&self, dtype: DType, value: f64) -> String;
    /// Scalar launch argument of `dtype` at word `word` (two words, low first, for 64 bits).
    fn scalar(&self, dtype: DType, word: &str) -> String;
    /// `x`, computed as `from`, converted with PyTorch's cast semantics to `to`'s compute type.
    fn convert(&mut self, x: &str, from: DType, to: DType) -> String;
    /// Four consecutive elements of tensor `t` (of at most four bytes each) from the byte
    /// offset `at`, aligned to four elements, as one vector value.
    fn load4(&self, t: usize, dtype: DType, at: &str) -> String;
    /// Component `k` of a vector of 32-bit values from [`Dialect::load4`].
    fn component(&self, vector: &str, k: usize) -> String;
    /// Element `k` of a vector of `dtype` from [`Dialect::load4`], as its compute value.
    fn lane(&self, vector: &str, dtype: DType, k: usize) -> String;
    /// Stores four values as consecutive elements of tensor `t` (of at most four bytes each)
    /// at the byte offset `at`, aligned to four elements.
    fn store4(&self, t: usize, dtype: DType, at: &str, values: &[String; 4]) -> String;
    /// The 16 bytes of tensor `t` at the byte offset `at` (a multiple of 16), as one value
    /// of four 32-bit words.
    fn load16(&self, t: usize, at: &str) -> String;
    /// Elements `4 f .. 4 f + 4` of `dtype` (under four bytes) in `chunk`, a value of
    /// [`Dialect::load16`], in [`Dialect::load4`]'s form.
    fn four_of16(&self, chunk: &str, dtype: DType, f: usize) -> String;
    /// A mutable local of 16 bytes, uninitialised, that [`Dialect::set_four_of16`] fills.
    fn chunk16(&self, name: &str) -> String;
    /// Sets elements `4 f .. 4 f + 4` of `dtype` (under four bytes) of the local `chunk` to
    /// `values`.
    fn set_four_of16(&self, chunk: &str, dtype: DType, f: usize, values: &[String; 4]) -> String;
    /// Stores the local `chunk` as the 16 bytes of tensor `t` at the byte offset `at` (a
    /// multiple of 16).
    fn store16(&self, t: usize, at: &str, chunk: &str) -> String;
    /// Copies four consecutive elements of `dtype` (at most four bytes each) from tensor
    /// `from.0` at byte offset `from.1` to tensor `to.0` at `to.1`, both aligned to four
    /// elements: their bytes as they are.
    fn move4(&self, dtype: DType, from: (usize, &str), to: (usize, &str)) -> String;
    /// A scalar expression; input `i` is named `x{i}` and scalar `k` is `s{k}`.
    fn expr(&mut self, expr: &Expr) -> String;
    /// A builtin applied to its arguments.
    fn builtin(&mut self, builtin: Builtin, args: &[&str]) -> String;
    /// A helper function the entry point can call (it may read the launch words and the
    /// tensors); `ret` is None for none.
    fn function(&self, name: &str, params: &[(&str, Ty)], ret: Option<Ty>, body: &str) -> String;
    /// The whole module: the element accessors `ld{t}(byte_offset)` and `st{t}(byte_offset,
    /// value)` of the kernel's tensors, `declarations`, `functions`, and the entry point with
    /// `group_size` invocations per group whose body (which sees `t`, the invocation in its
    /// group, `group`, the group's number, and `groups`, their count) is `body`.
    fn module(
        &mut self,
        kernel: &Kernel,
        group_size: u32,
        declarations: &str,
        functions: &str,
        body: &str,
    ) -> String;
}

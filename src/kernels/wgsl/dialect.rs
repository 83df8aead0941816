//! WGSL as a dialect of the kernel printer. Every tensor binding is an array of 32-bit words
//! (see `access`); launch words are binding 0; groups may form a 2-D grid (at most 65,535 a
//! side), numbered row-major.

use super::access::{bindings, load4, load_fn, store4, store_fn, word_fns, Slot};
use super::dtype::{compute_type, convert, from_bits, to_bits, HELPERS};
use super::math::Helpers;
use super::{emulated_f64, expr, Bindings, Target};
use crate::dtype::DType;
use crate::kernels::printer::{Builtin, Dialect, Ty};
use crate::kernels::{float8, Expr, Kernel};

/// The WGSL dialect for one kernel: how its tensors are bound, whether the device computes in
/// f64 or is a CPU, and the helper functions the kernel calls.
pub struct Wgsl<'a> {
    bindings: &'a Bindings,
    cpu: bool,
    helpers: Helpers,
    mulhi: bool,
    fma: bool,
}

impl<'a> Wgsl<'a> {
    /// Tensors bound as `bindings`, for a device `target`.
    pub fn new(bindings: &'a Bindings, target: Target) -> Self {
        Wgsl {
            bindings,
            cpu: target.cpu,
            helpers: Helpers::new(target.f64),
            mulhi: false,
            fma: false,
        }
    }

    /// The slot of tensor `t` and whether it is bound as windows.
    fn slot(&self, t: usize) -> (usize, bool) {
        let slot = self.bindings.slots[t];
        (
            slot,
            self.bindings.windows.get(slot).is_some_and(|&w| w > 1),
        )
    }
}

impl Dialect for Wgsl<'_> {
    fn ty(&self, ty: Ty) -> String {
        match ty {
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Bool => "bool",
            Ty::Value(dtype) => compute_type(dtype),
        }
        .to_string()
    }

    fn blocked_grid(&self) -> bool {
        self.cpu
    }

    fn let_(&self, name: &str, ty: Ty, value: &str) -> String {
        format!("let {name}: {} = {value};", self.ty(ty))
    }

    fn let_inferred(&self, name: &str, value: &str) -> String {
        format!("let {name} = {value};")
    }

    fn var(&self, name: &str, ty: Ty, value: &str) -> String {
        format!("var {name}: {} = {value};", self.ty(ty))
    }

    fn local_array(&self, name: &str, ty: Ty, len: usize) -> String {
        format!("var {name}: array<{}, {len}>;", self.ty(ty))
    }

    fn for_head(&self, name: &str, from: &str, cond: &str, step: &str) -> String {
        format!("for (var {name} = {from}; {cond}; {step})")
    }

    fn shared_array(&self, name: &str, ty: Ty, len: u32) -> String {
        format!("var<workgroup> {name}: array<{}, {len}>;", self.ty(ty))
    }

    fn barrier(&self) -> &'static str {
        "workgroupBarrier()"
    }

    fn word(&self, index: &str) -> String {
        format!("p[launch.words + {index}]")
    }

    fn uniform_words(&self, name: &str, count: usize) -> (String, Vec<String>) {
        (
            format!("var<workgroup> {name}_shared: array<u32, {count}>;\n"),
            vec![
                format!(
                    "if (t == 0u) {{ for (var k = 0u; k < {count}u; k += 1u) {{ {name}_shared[k] = {}; }} }}",
                    self.word("k")
                ),
                format!("let {name} = workgroupUniformLoad(&{name}_shared);"),
            ],
        )
    }

    fn select(&self, cond: &str, yes: &str, no: &str) -> String {
        format!("select({no}, {yes}, {cond})")
    }

    fn int64(&self, value: i64) -> String {
        if value < 0 {
            format!("({value}li)")
        } else {
            format!("{value}li")
        }
    }

    fn constant(&self, dtype: DType, value: f64) -> String {
        expr::lit(dtype, value)
    }

    fn scalar(&self, dtype: DType, word: &str) -> String {
        match dtype {
            DType::Bool => format!("{} != 0u", self.word(word)),
            DType::U8 | DType::U16 | DType::U32 => self.word(word),
            DType::I8 | DType::I16 | DType::I32 => format!("bitcast<i32>({})", self.word(word)),
            // Floats under eight bytes arrive as float32.
            DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => {
                format!("bitcast<f32>({})", self.word(word))
            }
            DType::I64 | DType::U64 | DType::F64 => format!(
                "bitcast<{}>((u64({}) << 32u) | u64({}))",
                compute_type(dtype),
                self.word(&format!("{word} + 1u")),
                self.word(word)
            ),
        }
    }

    fn convert(&mut self, x: &str, from: DType, to: DType) -> String {
        convert(x, from, to)
    }

    /// Elements under four bytes come as their words: one u32 of four bytes (`rw{t}`), a
    /// `vec2<u32>` of four halves (`rwp{t}`).
    fn load4(&self, t: usize, dtype: DType, at: &str) -> String {
        let (slot, windowed) = self.slot(t);
        match dtype.size() {
            1 => format!("rw{t}(({at}) >> 2u)"),
            2 => format!("rwp{t}(({at}) >> 2u)"),
            _ => format!(
                "bitcast<vec4<{}>>({})",
                compute_type(dtype),
                load4(slot, windowed, self.cpu, at)
            ),
        }
    }

    fn component(&self, vector: &str, k: usize) -> String {
        format!("{vector}[{k}]")
    }

    fn lane(&self, vector: &str, dtype: DType, k: usize) -> String {
        match dtype.size() {
            1 => from_bits(&format!("(({vector} >> {}u) & 0xffu)", 8 * k), dtype),
            2 => from_bits(
                &format!("(({vector}[{}] >> {}u) & 0xffffu)", k / 2, 16 * (k % 2)),
                dtype,
            ),
            _ => self.component(vector, k),
        }
    }

    fn store4(&self, t: usize, dtype: DType, at: &str, values: &[String; 4]) -> String {
        let (slot, windowed) = self.slot(t);
        match dtype.size() {
            1 => format!("ww{t}(({at}) >> 2u, {});", packed_words(dtype, values)[0]),
            2 => {
                let [low, high] = &packed_words(dtype, values)[..] else {
                    unreachable!("four halves fill two words")
                };
                format!("wwp{t}(({at}) >> 2u, vec2<u32>({low}, {high}));")
            }
            _ => {
                let value = format!(
                    "bitcast<vec4<u32>>(vec4<{}>({}))",
                    compute_type(dtype),
                    values.join(", ")
                );
                store4(slot, windowed, at, &value)
            }
        }
    }

    fn load16(&self, t: usize, at: &str) -> String {
        let (slot, windowed) = self.slot(t);
        load4(slot, windowed, self.cpu, at)
    }

    fn four_of16(&self, chunk: &str, dtype: DType, f: usize) -> String {
        match dtype.size() {
            1 => format!("{chunk}[{f}]"),
            _ => format!("vec2<u32>({chunk}[{}], {chunk}[{}])", 2 * f, 2 * f + 1),
        }
    }

    fn chunk16(&self, name: &str) -> String {
        format!("var {name}: vec4<u32>;")
    }

    fn set_four_of16(&self, chunk: &str, dtype: DType, f: usize, values: &[String; 4]) -> String {
        let words = packed_words(dtype, values);
        let first = f * words.len();
        (words.iter().enumerate())
            .map(|(w, word)| format!("{chunk}[{}] = {word};", first + w))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn store16(&self, t: usize, at: &str, chunk: &str) -> String {
        let (slot, windowed) = self.slot(t);
        store4(slot, windowed, at, chunk)
    }

    fn move4(&self, dtype: DType, (s, from): (usize, &str), (d, to): (usize, &str)) -> String {
        match dtype.size() {
            1 => format!("ww{d}(({to}) >> 2u, rw{s}(({from}) >> 2u));"),
            2 => format!("wwp{d}(({to}) >> 2u, rwp{s}(({from}) >> 2u));"),
            _ => {
                let ((from_slot, from_windows), (to_slot, to_windows)) =
                    (self.slot(s), self.slot(d));
                let words = load4(from_slot, from_windows, self.cpu, from);
                store4(to_slot, to_windows, to, &words)
            }
        }
    }

    fn expr(&mut self, e: &Expr) -> String {
        expr::render(e, &mut self.helpers)
    }

    fn builtin(&mut self, builtin: Builtin, args: &[&str]) -> String {
        let a = args.join(", ");
        match builtin {
            Builtin::MulHi => {
                self.mulhi = true;
                format!("mulhi({a})")
            }
            // WGSL's fma() need not fuse (lavapipe's does not): where the device has float64
            // the fused result is computed exactly (FMA).
            Builtin::Fma(DType::F64) => {
                self.fma = true;
                format!("fma64({a})")
            }
            Builtin::Fma(_) if self.helpers.f64 => {
                self.fma = true;
                format!("fma32({a})")
            }
            Builtin::Fma(_) => format!("fma({a})"),
            Builtin::FastLogF32 => format!("log({a})"),
            Builtin::FastSinF32 => format!("sin({a})"),
            Builtin::FastCosF32 => format!("cos({a})"),
            Builtin::ApproxLogF32 => format!("log({a})"),
            Builtin::FloatBits => format!("bitcast<u32>({a})"),
            Builtin::BitsFloat => format!("bitcast<f32>({a})"),
            Builtin::Broadcast => format!("subgroupBroadcast({a})"),
            Builtin::SinPiF64 | Builtin::CosPiF64 => {
                let name = if builtin == Builtin::SinPiF64 {
                    "sin_f64"
                } else {
                    "cos_f64"
                };
                let pi = expr::lit(DType::F64, std::f64::consts::PI);
                format!("{}({a} * {pi})", self.helpers.need(name))
            }
        }
    }

    fn function(&self, name: &str, params: &[(&str, Ty)], ret: Option<Ty>, body: &str) -> String {
        let params: Vec<String> = params
            .iter()
            .map(|(n, ty)| format!("{n}: {}", self.ty(*ty)))
            .collect();
        let ret = ret.map_or(String::new(), |ty| format!(" -> {}", self.ty(ty)));
        format!("fn {name}({}){ret} {{\n{body}}}\n", params.join(", "))
    }

    fn module(
        &mut self,
        kernel: &Kernel,
        group_size: u32,
        declarations: &str,
        functions: &str,
        body: &str,
    ) -> String {
        let dtypes = kernel.tensor_dtypes();
        // A vector map, reduction or scan binds its (non-atomic) tensors as 16-byte words.
        let wide = match kernel {
            Kernel::MapVector(..) => true,
            Kernel::Reduce(k) | Kernel::ReduceEach(k) => k.vector || k.columns,
            Kernel::Scan(k) => k.vector,
            Kernel::Gemm(k) => k.direct.is_some(),
            Kernel::RadixCount(k) | Kernel::RadixScatter(k) => k.vector(),
            Kernel::AccumulateKeys(k) => k.vector(),
            Kernel::Foreach(k) => k.vector(),
            Kernel::Index(k) => k.vector(),
            Kernel::Fused(k) => k.by_fours,
            _ => false,
        };
        // The invocations of a vector map, index or fused kernel store whole words: four
        // elements of at most four bytes.
        let whole_words = match kernel {
            Kernel::MapVector(..) => true,
            Kernel::Index(k) => k.vector(),
            Kernel::Fused(k) => k.by_fours,
            _ => false,
        };
        let mut src = String::from(HELPERS);
        let inputs = kernel.input_count();
        let slots = Slot::all(self.bindings, &dtypes, inputs, wide, whole_words, self.cpu);
        src += &bindings(&slots, self.cpu);
        for (t, (&dtype, &s)) in dtypes.iter().zip(&self.bindings.slots).enumerate() {
            src += &load_fn(t, dtype, s, &slots[s]);
            if t >= inputs {
                src += &store_fn(t, dtype, s, &slots[s]);
            }
            // Sub-word elements read (and, by whole words, written) four at a time.
            if dtype.size() < 4 && (whole_words || (wide && t < inputs)) {
                let written = whole_words && t >= inputs;
                src += &word_fns(t, dtype.size(), s, &slots[s], written);
            }
        }
        if self.mulhi {
            src += MULHI;
        }
        if self.fma {
            src += FMA;
        }
        src += declarations;
        src += functions;
        src += &format!(
            "@compute @workgroup_size({group_size})\n\
             fn main(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>, \
             @builtin(num_workgroups) ng: vec3<u32>) {{\n    \
             let group = wid.x + wid.y * ng.x;\n    let groups = ng.x * ng.y;\n{body}}}\n"
        );
        src += &self.helpers.source();
        src += &float8::helpers(self, &src);
        if src.contains("F64") {
            src.insert_str(0, emulated_f64::alias(self.helpers.f64));
        }
        src
    }
}

/// The high word of a 32×32-bit product, from 16-bit halves.
const MULHI: &str = "fn mulhi(a: u32, b: u32) -> u32 {
    let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
    let p01 = a0 * b1; let p10 = a1 * b0;
    let mid = ((a0 * b0) >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u);
}
";

/// Correctly rounded fused multiply-adds from float64 arithmetic (Boldo and Melquiond's
/// round-to-odd): error-free sums and products, the low parts added with rounding to odd, then
/// one rounding to nearest. `fma32` needs no split: a float32 product is exact in float64.
const FMA: &str = "fn two_sum(a: f64, b: f64) -> vec2<f64> {
    let s = a + b; let bb = s - a;
    return vec2<f64>(s, (a - (s - bb)) + (b - bb));
}
fn round_to_odd(s: f64, e: f64) -> f64 {
    let bits = bitcast<u64>(s);
    if (e == 0.0lf || (bits & 1lu) == 1lu) { return s; }
    if ((e > 0.0lf) == (s > 0.0lf)) { return bitcast<f64>(bits + 1lu); }
    return bitcast<f64>(bits - 1lu);
}
fn split(a: f64) -> vec2<f64> {
    let t = 134217729.0lf * a; let hi = t - (t - a);
    return vec2<f64>(hi, a - hi);
}
fn fma64(a: f64, b: f64, c: f64) -> f64 {
    let p = a * b; let x = split(a); let y = split(b);
    let pl = ((x.x * y.x - p) + x.x * y.y + x.y * y.x) + x.y * y.y;
    let t = two_sum(c, p); let low = two_sum(t.y, pl);
    return t.x + round_to_odd(low.x, low.y);
}
fn fma32(a: f32, b: f32, c: f32) -> f32 {
    let t = two_sum(f64(a) * f64(b), f64(c));
    return f32(round_to_odd(t.x, t.y));
}
";

/// The u32 words that four values of a dtype under four bytes fill, lowest element in the
/// lowest bits: one word of four bytes, two of four halves.
fn packed_words(dtype: DType, values: &[String; 4]) -> Vec<String> {
    let bits = |v: &String| to_bits(v, dtype);
    let per_word = 4 / dtype.size();
    (values.chunks(per_word))
        .map(|word| {
            let shift = 32 / word.len();
            (word.iter().enumerate())
                .map(|(k, v)| format!("({} << {}u)", bits(v), shift * k))
                .collect::<Vec<_>>()
                .join(" | ")
        })
        .collect()
}

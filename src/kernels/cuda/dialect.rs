//! CUDA C++ as a dialect of the kernel printer. Tensors are byte pointers (one kernel
//! parameter each) to which the offset words add, as on wgpu; launch words
//! are passed by value in a `Words` struct; the grid is one-dimensional.

use super::expr::{compute_type, convert, from_storage, lit, render, storage_type, to_storage};
use super::prelude::PRELUDE;
use crate::dtype::DType;
use crate::kernels::printer::{Builtin, Dialect, Ty};
use crate::kernels::{float8, Expr, Kernel};

/// The largest launch-argument word count passed by value.
pub const MAX_WORDS: usize = 256;
/// The kernel's entry point name.
pub const ENTRY: &str = "mojo_kernel";

/// The CUDA C++ dialect.
pub struct Cuda;

impl Dialect for Cuda {
    fn blocked_grid(&self) -> bool {
        false
    }

    fn ty(&self, ty: Ty) -> String {
        match ty {
            Ty::U32 => "u32",
            Ty::I32 => "int",
            Ty::U64 => "u64",
            Ty::I64 => "i64",
            Ty::F32 => "float",
            Ty::F64 => "double",
            Ty::Bool => "bool",
            Ty::Value(dtype) => compute_type(dtype),
        }
        .to_string()
    }

    fn let_(&self, name: &str, ty: Ty, value: &str) -> String {
        format!("const {} {name} = {value};", self.ty(ty))
    }

    fn let_inferred(&self, name: &str, value: &str) -> String {
        format!("const auto {name} = {value};")
    }

    fn var(&self, name: &str, ty: Ty, value: &str) -> String {
        format!("{} {name} = {value};", self.ty(ty))
    }

    fn local_array(&self, name: &str, ty: Ty, len: usize) -> String {
        format!("{} {name}[{len}];", self.ty(ty))
    }

    fn for_head(&self, name: &str, from: &str, cond: &str, step: &str) -> String {
        format!("for (u32 {name} = {from}; {cond}; {step})")
    }

    fn shared_array(&self, name: &str, ty: Ty, len: u32) -> String {
        format!("    __shared__ {} {name}[{len}];", self.ty(ty))
    }

    fn barrier(&self) -> &'static str {
        "__syncthreads()"
    }

    fn word(&self, index: &str) -> String {
        format!("p.w[{index}]")
    }

    fn uniform_words(&self, name: &str, _count: usize) -> (String, Vec<String>) {
        (String::new(), vec![format!("const u32* {name} = p.w;")])
    }

    fn select(&self, cond: &str, yes: &str, no: &str) -> String {
        format!("({cond} ? {yes} : {no})")
    }

    fn int64(&self, value: i64) -> String {
        format!("((i64){value}ll)")
    }

    fn constant(&self, dtype: DType, value: f64) -> String {
        lit(dtype, value)
    }

    fn scalar(&self, dtype: DType, word: &str) -> String {
        let w = |k: &str| format!("p.w[{word}{k}]");
        let wide = format!("(((u64){} << 32) | {})", w(" + 1u"), w(""));
        match dtype {
            DType::Bool => format!("({} != 0u)", w("")),
            DType::U8 | DType::U16 | DType::U32 => w(""),
            DType::I8 | DType::I16 | DType::I32 => format!("(int){}", w("")),
            // Floats under eight bytes arrive as float32.
            DType::F16 | DType::BF16 | DType::F32 | crate::float8_dtypes!() => {
                format!("__uint_as_float({})", w(""))
            }
            DType::I64 => format!("(i64){wide}"),
            DType::U64 => wide,
            DType::F64 => format!("__longlong_as_double((i64){wide})"),
        }
    }

    fn convert(&mut self, x: &str, from: DType, to: DType) -> String {
        convert(x, from, to)
    }

    fn load4(&self, t: usize, dtype: DType, at: &str) -> String {
        format!("*(const {}*)(b{t} + ({at}))", vector_type(dtype))
    }

    fn component(&self, vector: &str, k: usize) -> String {
        format!("{vector}.{}", ["x", "y", "z", "w"][k])
    }

    fn lane(&self, vector: &str, dtype: DType, k: usize) -> String {
        let stored = self.component(vector, k);
        match dtype {
            DType::F32 | DType::I32 | DType::U32 => stored,
            _ => from_storage(&stored, dtype),
        }
    }

    fn store4(&self, t: usize, dtype: DType, at: &str, values: &[String; 4]) -> String {
        let ty = vector_type(dtype);
        let values: Vec<String> = match dtype {
            DType::F32 | DType::I32 | DType::U32 => values.to_vec(),
            _ => values.iter().map(|v| to_storage(v, dtype)).collect(),
        };
        format!(
            "*({ty}*)(b{t} + ({at})) = make_{ty}({});",
            values.join(", ")
        )
    }

    fn load16(&self, t: usize, at: &str) -> String {
        format!("*(const uint4*)(b{t} + ({at}))")
    }

    fn four_of16(&self, chunk: &str, dtype: DType, f: usize) -> String {
        format!("((const {}*)&{chunk})[{f}]", vector_type(dtype))
    }

    fn chunk16(&self, name: &str) -> String {
        format!("uint4 {name};")
    }

    fn set_four_of16(&self, chunk: &str, dtype: DType, f: usize, values: &[String; 4]) -> String {
        let ty = vector_type(dtype);
        let values: Vec<String> = values.iter().map(|v| to_storage(v, dtype)).collect();
        format!("(({ty}*)&{chunk})[{f}] = make_{ty}({});", values.join(", "))
    }

    fn store16(&self, t: usize, at: &str, chunk: &str) -> String {
        format!("*(uint4*)(b{t} + ({at})) = {chunk};")
    }

    fn move4(&self, dtype: DType, (s, from): (usize, &str), (d, to): (usize, &str)) -> String {
        let ty = vector_type(dtype);
        format!("*({ty}*)(b{d} + ({to})) = *(const {ty}*)(b{s} + ({from}));")
    }

    fn expr(&mut self, e: &Expr) -> String {
        render(e)
    }

    fn builtin(&mut self, builtin: Builtin, args: &[&str]) -> String {
        let a = args.join(", ");
        match builtin {
            Builtin::MulHi => format!("__umulhi({a})"),
            Builtin::Fma(DType::F64) => format!("fma({a})"),
            Builtin::Fma(_) => format!("fmaf({a})"),
            Builtin::FastLogF32 => format!("logf({a})"),
            Builtin::FastSinF32 => format!("__sinf({a})"),
            Builtin::FastCosF32 => format!("__cosf({a})"),
            Builtin::ApproxLogF32 => format!("__logf({a})"),
            Builtin::FloatBits => format!("__float_as_uint({a})"),
            Builtin::BitsFloat => format!("__uint_as_float({a})"),
            Builtin::Broadcast => format!("__shfl_sync(0xffffffffu, {a})"),
            Builtin::SinPiF64 => format!("sinpi({a})"),
            Builtin::CosPiF64 => format!("cospi({a})"),
        }
    }

    fn function(&self, name: &str, params: &[(&str, Ty)], ret: Option<Ty>, body: &str) -> String {
        let params: Vec<String> = params
            .iter()
            .map(|(n, ty)| format!("{} {n}", self.ty(*ty)))
            .collect();
        let ret = ret.map_or("void".to_string(), |ty| self.ty(ty));
        let body: String = body.lines().map(|l| format!("    {l}\n")).collect();
        format!(
            "    auto {name} = [&]({}) -> {ret} {{\n{body}    }};\n",
            params.join(", ")
        )
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
        let params: Vec<String> = (0..dtypes.len())
            .map(|t| format!("char* __restrict__ b{t}"))
            .collect();
        let mut accessors = String::new();
        for (t, &dtype) in dtypes.iter().enumerate() {
            let (ct, st) = (compute_type(dtype), storage_type(dtype));
            accessors += &format!(
                "    auto ld{t} = [&](u32 e) -> {ct} {{ return {}; }};\n",
                from_storage(&format!("*(const {st}*)(b{t} + e)"), dtype)
            );
            if t >= kernel.input_count() {
                accessors += &format!(
                    "    auto st{t} = [&](u32 e, {ct} v) {{ *({st}*)(b{t} + e) = {}; }};\n",
                    to_storage("v", dtype)
                );
            }
        }
        let float8 = float8::helpers(self, &format!("{accessors}{functions}{body}"));
        format!(
            "{}\nextern \"C\" __global__ void __launch_bounds__({group_size}) {ENTRY}(Words p, {}) {{\n    \
             const u32 t = threadIdx.x, group = blockIdx.x, groups = gridDim.x;\n{float8}{accessors}{declarations}{functions}{body}}}\n",
            PRELUDE.replace("MAX_WORDS", &MAX_WORDS.to_string()),
            params.join(", "),
        )
    }
}

/// CUDA's four-element vector of a 4-byte dtype.
fn vector_type(dtype: DType) -> &'static str {
    match dtype {
        DType::F32 => "float4",
        DType::I32 => "int4",
        DType::U32 => "uint4",
        DType::Bool | DType::U8 => "uchar4",
        crate::float8_dtypes!() => "uchar4",
        DType::I8 => "char4",
        DType::I16 => "short4",
        DType::U16 | DType::F16 | DType::BF16 => "ushort4",
        DType::I64 | DType::U64 | DType::F64 => {
            unreachable!("vector loads take elements of at most 4 bytes")
        }
    }
}

//! Golden texts: what the printer prints for one small kernel of each pattern in each dialect
//! (declarations, helper functions and the entry body; the dialects' fixed preludes are left
//! out). `MOJO_BLESS=1 cargo test --lib golden` rewrites them after an intended change.

use smallvec::smallvec;

use super::print;
use crate::dtype::DType;
use crate::kernels::cuda::Cuda;
use crate::kernels::functions::Function;
use crate::kernels::pattern::*;
use crate::kernels::wgsl::{Bindings, Target, Wgsl};
use crate::kernels::{BinaryOp, Expr, UnaryOp};
use std::ops::{Div, Mul, Sub};
use std::path::PathBuf;

fn kernels() -> Vec<(&'static str, Kernel)> {
    let f = DType::F32;
    let sort = SortKernel {
        dtype: f,
        descending: false,
    };
    vec![
        (
            "map",
            Kernel::Map(MapKernel {
                inputs: smallvec![f, f],
                scalars: smallvec![f],
                outputs: vec![(
                    f,
                    Expr::input(0, f).binary(
                        BinaryOp::Add,
                        Expr::input(1, f).binary(BinaryOp::Mul, Expr::scalar(0, f)),
                    ),
                )]
                .into(),
            }),
        ),
        (
            "map_calling_a_function",
            Kernel::Map(MapKernel {
                inputs: smallvec![f, f],
                scalars: smallvec![],
                outputs: vec![(
                    f,
                    Expr::call(
                        Function::LegendreP,
                        vec![Expr::input(0, f), Expr::input(1, f)],
                    ),
                )]
                .into(),
            }),
        ),
        (
            // Both parts of a complex square root share the magnitude: printed once.
            "map_sharing_subexpressions",
            Kernel::Map({
                let z = (Expr::input(0, f), Expr::input(1, f));
                let (re, im) = crate::kernels::complex::sqrt(&z);
                MapKernel {
                    inputs: smallvec![f, f],
                    scalars: smallvec![],
                    outputs: smallvec![(f, re), (f, im)],
                }
            }),
        ),
        (
            "map_vector",
            Kernel::MapVector(
                MapKernel {
                    inputs: smallvec![f],
                    scalars: smallvec![],
                    outputs: smallvec![(f, Expr::input(0, f).exp())],
                },
                Splat(0),
                Aligned16(false),
            ),
        ),
        (
            // Four elements of under four bytes: one word of uint8, two of float16.
            "map_vector_narrow",
            Kernel::MapVector(
                MapKernel {
                    inputs: smallvec![DType::U8, DType::F16],
                    scalars: smallvec![],
                    outputs: smallvec![(
                        DType::F16,
                        Expr::input(0, DType::U8).cast(DType::F16) + Expr::input(1, DType::F16)
                    )],
                },
                Splat(0),
                Aligned16(false),
            ),
        ),
        (
            // The same with 16-byte aligned rows: 16 bytes of uint8 or float16 per load.
            "map_vector_aligned",
            Kernel::MapVector(
                MapKernel {
                    inputs: smallvec![DType::U8, DType::F16],
                    scalars: smallvec![],
                    outputs: smallvec![(
                        DType::F16,
                        Expr::input(0, DType::U8).cast(DType::F16) + Expr::input(1, DType::F16)
                    )],
                },
                Splat(0),
                Aligned16(true),
            ),
        ),
        (
            // A row's mean (input 1) read once per four elements of the row.
            "map_vector_splat",
            Kernel::MapVector(
                MapKernel {
                    inputs: smallvec![f, f, f],
                    scalars: smallvec![],
                    outputs: vec![(
                        f,
                        (Expr::input(0, f) - Expr::input(1, f)) * Expr::input(2, f),
                    )]
                    .into(),
                },
                Splat(0b10),
                Aligned16(false),
            ),
        ),
        (
            "reduce",
            Kernel::Reduce(ReduceKernel {
                input: f,
                scalars: vec![],
                pre: Expr::input(0, f),
                op: ReduceOp::Sum,
                acc: f,
                outputs: vec![(f, Expr::input(0, f))],
                per_output: None,
                indexed: false,
                elementwise: None,
                vector: true,
                columns: false,
            }),
        ),
        (
            "reduce_columns",
            Kernel::ReduceEach(ReduceKernel {
                input: f,
                scalars: vec![f],
                pre: Expr::input(0, f).mul(Expr::scalar(0, f)),
                op: ReduceOp::Sum,
                acc: f,
                outputs: vec![(f, Expr::input(0, f))],
                per_output: None,
                indexed: false,
                elementwise: None,
                vector: false,
                columns: true,
            }),
        ),
        (
            // A softmax: exp(x - m) stored as it is summed, then scaled by 1 / sum.
            "softmax_stashed",
            Kernel::ReduceEach(ReduceKernel {
                input: f,
                scalars: vec![],
                pre: Expr::input(0, f),
                op: ReduceOp::LogSumExp,
                acc: f,
                outputs: vec![],
                per_output: None,
                indexed: false,
                elementwise: Some(Elementwise {
                    dtype: f,
                    row: Expr::input(0, f).unary(UnaryOp::Log),
                    value: Expr::input(0, f)
                        .sub(Expr::input(2, f))
                        .sub(Expr::input(1, f))
                        .exp(),
                    stashed: Some(Expr::input(0, f).div(Expr::input(3, f))),
                }),
                vector: true,
                columns: false,
            }),
        ),
        (
            "reduce_each",
            Kernel::ReduceEach(ReduceKernel {
                input: f,
                scalars: vec![],
                pre: Expr::input(0, f),
                op: ReduceOp::Variance,
                acc: f,
                outputs: vec![(f, Expr::input(0, f))],
                per_output: None,
                indexed: false,
                // A row normalised by its mean (input 2) and variance (input 1).
                elementwise: Some(Elementwise {
                    dtype: f,
                    row: Expr::input(0, f).unary(UnaryOp::Sqrt),
                    value: Expr::input(0, f)
                        .sub(Expr::input(2, f))
                        .div(Expr::input(1, f)),
                    stashed: None,
                }),
                vector: false,
                columns: false,
            }),
        ),
        (
            "argmax",
            Kernel::Reduce(ReduceKernel {
                input: f,
                scalars: vec![],
                pre: Expr::input(0, f),
                op: ReduceOp::ArgMax,
                acc: f,
                outputs: vec![(DType::I64, Expr::input(1, DType::I64))],
                per_output: None,
                indexed: true,
                elementwise: None,
                vector: false,
                columns: false,
            }),
        ),
        (
            "scan",
            Kernel::Scan(ScanKernel {
                input: f,
                acc: f,
                output: f,
                op: ReduceOp::Sum,
                carry: true,
                vector: true,
            }),
        ),
        (
            "gemm",
            Kernel::Gemm(GemmKernel {
                input: f,
                acc: f,
                output: f,
                with_c: true,
                direct: None,
                lanes: false,
                elements: false,
            }),
        ),
        (
            "gemm_elements",
            Kernel::Gemm(GemmKernel {
                input: DType::F64,
                acc: DType::F64,
                output: DType::F64,
                with_c: false,
                direct: None,
                lanes: false,
                elements: true,
            }),
        ),
        (
            "gemm_direct",
            Kernel::Gemm(GemmKernel {
                input: f,
                acc: f,
                output: f,
                with_c: false,
                direct: Some(DirectGemm {
                    a_along_k: true,
                    b_along_k: false,
                }),
                lanes: false,
                elements: false,
            }),
        ),
        (
            "gemm_lanes",
            Kernel::Gemm(GemmKernel {
                input: DType::F16,
                acc: f,
                output: DType::F16,
                with_c: false,
                direct: None,
                lanes: true,
                elements: false,
            }),
        ),
        (
            "gemm_lanes_vector",
            Kernel::Gemm(GemmKernel {
                input: f,
                acc: f,
                output: f,
                with_c: true,
                direct: Some(DirectGemm {
                    a_along_k: false,
                    b_along_k: true,
                }),
                lanes: true,
                elements: false,
            }),
        ),
        (
            "conv",
            Kernel::Conv(ConvKernel {
                input: DType::F16,
                acc: f,
                output: DType::F16,
                pass: ConvPass::Transposed,
                bias: true,
                direct: false,
                strided: false,
            }),
        ),
        (
            "conv_direct",
            Kernel::Conv(ConvKernel {
                input: f,
                acc: f,
                output: f,
                pass: ConvPass::Weight,
                bias: false,
                direct: true,
                strided: false,
            }),
        ),
        (
            "conv_direct_transposed",
            Kernel::Conv(ConvKernel {
                input: DType::BF16,
                acc: f,
                output: DType::BF16,
                pass: ConvPass::Transposed,
                bias: false,
                direct: true,
                strided: true,
            }),
        ),
        (
            "attention",
            Kernel::Attention(AttentionKernel {
                dtype: DType::BF16,
                pass: AttentionPass::Forward,
                bias: true,
                dropout: false,
            }),
        ),
        (
            "attention_key_value",
            Kernel::Attention(AttentionKernel {
                dtype: f,
                pass: AttentionPass::KeyValue,
                bias: false,
                dropout: true,
            }),
        ),
        ("masked_select", Kernel::MaskedSelect(f)),
        (
            "index",
            Kernel::Index(IndexKernel {
                dtype: f,
                indices: vec![DType::I64],
                scatter: false,
                wrap: true,
                fours: 0,
            }),
        ),
        (
            // Rows scattered eight elements (two groups of four) at a time.
            "index_rows",
            Kernel::Index(IndexKernel {
                dtype: DType::I16,
                indices: vec![DType::I64],
                scatter: true,
                wrap: false,
                fours: 2,
            }),
        ),
        (
            "accumulate",
            Kernel::Accumulate(AccumulateKernel {
                dtype: f,
                index: DType::I32,
                op: Accumulate::Sum,
                include_self: true,
                chunked: true,
                lanes: false,
                runs: Runs::Sorted,
            }),
        ),
        (
            // Rows of an embedding's gradient: four neighbouring elements per run walk.
            "accumulate_lanes",
            Kernel::Accumulate(AccumulateKernel {
                dtype: f,
                index: DType::I64,
                op: Accumulate::Sum,
                include_self: true,
                chunked: false,
                lanes: true,
                runs: Runs::Sorted,
            }),
        ),
        (
            // Few keys and positions: each work item walks every key, four elements at a time.
            "accumulate_scanned",
            Kernel::Accumulate(AccumulateKernel {
                dtype: f,
                index: DType::I32,
                op: Accumulate::Sum,
                include_self: true,
                chunked: false,
                lanes: true,
                runs: Runs::Scanned,
            }),
        ),
        (
            // Values moved into key order by one radix pass: runs from its digit counts.
            "accumulate_presorted",
            Kernel::Accumulate(AccumulateKernel {
                dtype: f,
                index: DType::I32,
                op: Accumulate::Mean,
                include_self: false,
                chunked: true,
                lanes: false,
                runs: Runs::Presorted,
            }),
        ),
        (
            "accumulate_keys",
            Kernel::AccumulateKeys(AccumulateKeysKernel {
                indices: vec![DType::I64],
                key: DType::I32,
                wrap: true,
            }),
        ),
        ("sort", Kernel::Sort(sort.clone())),
        ("merge", Kernel::Merge(sort.clone())),
        (
            "radix_count",
            Kernel::RadixCount(RadixKernel {
                dtype: f,
                descending: false,
                digit: RadixDigit::Bits,
                positions: DType::I64,
                keep_keys: true,
            }),
        ),
        (
            "radix_count_narrowed",
            Kernel::RadixCount(RadixKernel {
                dtype: DType::BF16,
                descending: true,
                digit: RadixDigit::Narrowed,
                positions: DType::I64,
                keep_keys: true,
            }),
        ),
        ("radix_pick", Kernel::RadixPick),
        (
            "top_tiles",
            Kernel::TopTiles(SortKernel {
                dtype: f,
                descending: true,
            }),
        ),
        ("run_starts", Kernel::RunStarts(DType::I32)),
        (
            "radix_scatter",
            Kernel::RadixScatter(RadixKernel {
                dtype: DType::I32,
                descending: false,
                digit: RadixDigit::Bits,
                positions: DType::I32,
                keep_keys: true,
            }),
        ),
        (
            // Counting int64 indices into targets, negative ones from the end.
            "radix_count_targets",
            Kernel::RadixCount(RadixKernel {
                dtype: DType::I64,
                descending: false,
                digit: RadixDigit::Target { wrap: true },
                positions: f,
                keep_keys: false,
            }),
        ),
        (
            "radix_scatter_targets",
            Kernel::RadixScatter(RadixKernel {
                dtype: DType::I32,
                descending: false,
                digit: RadixDigit::Target { wrap: false },
                positions: f,
                keep_keys: false,
            }),
        ),
        (
            // Moving float32 values by int32 keys, which are not kept.
            "radix_scatter_moving",
            Kernel::RadixScatter(RadixKernel {
                dtype: DType::I32,
                descending: false,
                digit: RadixDigit::Bits,
                positions: f,
                keep_keys: false,
            }),
        ),
        (
            "radix_scatter_partition",
            Kernel::RadixScatter(RadixKernel {
                dtype: DType::I32,
                descending: false,
                digit: RadixDigit::Partition,
                positions: DType::I64,
                keep_keys: true,
            }),
        ),
        (
            "foreach",
            Kernel::Foreach(ForeachKernel {
                inputs: vec![(f, false), (f, true)],
                scalars: vec![f],
                outputs: vec![(
                    f,
                    Expr::input(0, f).binary(BinaryOp::Mul, Expr::input(1, f)),
                )],
                chunk: 2,
            }),
        ),
        (
            "random",
            Kernel::Random(RandomKernel {
                dtype: f,
                distribution: Distribution::Normal,
                mapping: Mapping::Grid { unroll: 4 },
                double: false,
            }),
        ),
        (
            "random_exponential",
            Kernel::Random(RandomKernel {
                dtype: f,
                distribution: Distribution::Exponential,
                mapping: Mapping::Grid { unroll: 4 },
                double: false,
            }),
        ),
        (
            "fused_pointwise",
            fused(
                "tensors 1 float32 float32\nsizes ks0\nscalars s float32\nreduction 0\n\
                 let x0 int32 (remainder xindex ks0)\n\
                 let tmp0 (ge (cast int64 x0) (const int64 2))\n\
                 masked tmp1 float32 tmp0\nload tmp2 float32 0 (add xindex -2)\n\
                 yield (mul s (exp tmp2)) (const float32 0.0)\n\
                 store 1 xindex tmp1",
            ),
        ),
        (
            // AdamW's bias correction: evaluated once per invocation, before the loop.
            "fused_invariant",
            fused(
                "tensors 1 float32 float32\nsizes\nscalars step float32\nreduction 0\n\
                 let tmp0 (pow (const float32 0.9) step)\n\
                 let tmp1 (sub (const float32 1.0) tmp0)\n\
                 load tmp2 float32 0 xindex\n\
                 store 1 xindex (truediv tmp2 tmp1)",
            ),
        ),
        (
            "fused_reduction",
            fused(
                "tensors 1 float16 float32 int64\nsizes\nscalars\nreduction 1\n\
                 let x0 int32 xindex\nloop\nlet r0_1 int32 r0_index\n\
                 load tmp0 float32 0 (add r0_1 (mul x0 r0_numel))\n\
                 reduce welford_reduce tmp1 tmp2 tmp3 float32 tmp0\n\
                 reduce argmax tmp4 float32 tmp0\nend\n\
                 store 1 x0 (truediv tmp2 tmp3)\nstore 2 x0 tmp4",
            ),
        ),
        (
            "fused_reduction_each",
            Kernel::Fused(std::sync::Arc::new(crate::kernels::fused::FusedKernel {
                each: true,
                ..fused_kernel(
                    "tensors 1 float32 float32 int64\nsizes\nscalars\nreduction 1\n\
                     let x0 int32 xindex\nloop\nlet r0_1 int32 r0_index\n\
                     load tmp0 float32 0 (add r0_1 (mul x0 r0_numel))\n\
                     reduce sum tmp1 float32 tmp0\nreduce argmax tmp2 float32 tmp0\nend\n\
                     store 1 x0 tmp1\nstore 2 x0 tmp2",
                )
            })),
        ),
        (
            // Four elements per work item: a bias (read element by element) added to a
            // float32 tensor, stored as bfloat16 (whole words per item) and as float64.
            "fused_pointwise_fours",
            Kernel::Fused(std::sync::Arc::new(crate::kernels::fused::FusedKernel {
                by_fours: true,
                ..fused_kernel(
                    "tensors 2 float32 float32 bfloat16 float64\nsizes\nscalars\nreduction 0\n\
                     let x2 int32 xindex\nlet x0 int32 (remainder xindex 1024)\n\
                     load tmp0 float32 0 x2\nload tmp1 float32 1 x0\n\
                     let tmp2 (add tmp0 tmp1)\nstore 2 x2 (cast bfloat16 tmp2)\n\
                     store 3 x2 (cast float64 tmp2)",
                )
            })),
        ),
        (
            // Rows walked four elements at a time where aligned: a row's mean (loaded once)
            // subtracted and the result stored, then summed with a weight along the row.
            "fused_reduction_each_fours",
            Kernel::Fused(std::sync::Arc::new(crate::kernels::fused::FusedKernel {
                each: true,
                by_fours: true,
                ..fused_kernel(
                    "tensors 3 float32 float32 float32 float32 float32\nsizes\nscalars\n\
                     reduction 1\nlet x0 int32 xindex\nloop\nlet r0_1 int32 r0_index\n\
                     load tmp0 float32 0 (add r0_1 (mul x0 r0_numel))\nload tmp1 float32 1 x0\n\
                     load tmp2 float32 2 r0_1\nlet tmp3 (sub tmp0 tmp1)\n\
                     reduce sum tmp4 float32 (mul tmp3 tmp2)\n\
                     store 3 (add r0_1 (mul x0 r0_numel)) tmp3\nend\nstore 4 x0 tmp4",
                )
            })),
        ),
        (
            // Two independent kernels in one launch (compiler/combo.py).
            "fused_combo",
            fused(
                "tensors 1 float32 float32 float32\nsizes s0\nscalars\nreduction 0\n\
                 part 3\nload tmp0 float32 0 xindex\nstore 1 xindex (exp tmp0)\nend\n\
                 part s0\nlet ks0 int32 s0\nlet x0 int32 (remainder xindex ks0)\n\
                 load tmp0 float32 2 x0\nstore 2 xindex (mul tmp0 tmp0)\nend",
            ),
        ),
        (
            // The same parts four elements per work item.
            "fused_combo_fours",
            Kernel::Fused(std::sync::Arc::new(crate::kernels::fused::FusedKernel {
                by_fours: true,
                ..fused_kernel(
                    "tensors 1 float32 float32 float32\nsizes s0\nscalars\nreduction 0\n\
                     part 3\nload tmp0 float32 0 xindex\nstore 1 xindex (exp tmp0)\nend\n\
                     part s0\nlet ks0 int32 s0\nlet x0 int32 (remainder xindex ks0)\n\
                     load tmp0 float32 2 x0\nstore 2 xindex (mul tmp0 tmp0)\nend",
                )
            })),
        ),
        (
            // A row sum and a pointwise kernel in one launch: the part's rows its own.
            "fused_combo_reduction",
            fused(
                "tensors 1 float32 float32 float32\nsizes\nscalars\nreduction 1\n\
                 part 3 (const int32 5)\nloop\n\
                 load tmp0 float32 0 (add r0_index (mul xindex r0_numel))\n\
                 reduce sum tmp1 float32 tmp0\nend\nstore 1 xindex tmp1\nend\n\
                 part 15 (const int32 1)\nload tmp0 float32 0 xindex\n\
                 store 2 xindex (exp tmp0)\nend",
            ),
        ),
    ]
}

fn fused_kernel(program: &str) -> crate::kernels::fused::FusedKernel {
    crate::kernels::fused::FusedKernel::parse(&format!("fused 1\n{program}\n")).unwrap()
}

fn fused(program: &str) -> Kernel {
    Kernel::Fused(std::sync::Arc::new(fused_kernel(program)))
}

fn golden(name: &str, dialect: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("src/kernels/printer/golden")
        .join(format!("{name}.{dialect}"));
    if std::env::var_os("MOJO_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (MOJO_BLESS=1 writes it)", path.display()));
    assert!(
        expected == text,
        "{name} in {dialect} differs from {}:\n{text}",
        path.display()
    );
}

fn parts(kernel: &Kernel, dialect: &mut dyn super::Dialect) -> String {
    let (declarations, functions, body) = print(kernel, dialect);
    format!("{declarations}{functions}fn main {{\n{body}}}\n")
}

#[test]
fn golden_wgsl() {
    for (name, kernel) in kernels() {
        let bindings = Bindings::separate(kernel.tensor_dtypes().len());
        golden(
            name,
            "wgsl",
            &parts(
                &kernel,
                &mut Wgsl::new(
                    &bindings,
                    Target {
                        f64: true,
                        cpu: false,
                    },
                ),
            ),
        );
    }
}

/// The kernels a CPU device prints differently: the maps, whose grid loops take blocks (the
/// vector map's always, the strided map's where its layout coalesced to one dimension), and
/// the radix passes, which count and keep cursors in group memory.
#[test]
fn golden_wgsl_cpu() {
    let cpu_kernels = ["map", "map_vector", "radix_count_targets", "radix_scatter"];
    for (name, kernel) in kernels() {
        if !cpu_kernels.contains(&name) {
            continue;
        }
        let bindings = Bindings::separate(kernel.tensor_dtypes().len());
        let target = Target {
            f64: true,
            cpu: true,
        };
        let text = parts(&kernel, &mut Wgsl::new(&bindings, target));
        golden(&format!("{name}_cpu"), "wgsl", &text);
    }
}

#[test]
fn golden_cuda() {
    for (name, kernel) in kernels() {
        golden(name, "cu", &parts(&kernel, &mut Cuda));
    }
}

/// A vector map widens on a CPU only for straight-line expressions: a uint8 add takes 64
/// elements per work item there (16 on a GPU), a uint8 map of a transcendental function, a
/// call or a power keeps four on every device.
#[test]
fn only_straight_line_maps_take_wide_items() {
    let u8 = DType::U8;
    let map = |value: Expr| MapKernel {
        inputs: smallvec![u8],
        scalars: smallvec![],
        outputs: smallvec![(DType::F32, value)],
    };
    let x = || Expr::input(0, u8);
    let add = MapKernel {
        outputs: smallvec![(u8, x() + x())],
        ..map(x().cast(DType::F32))
    };
    assert_eq!(add.vector_lanes(Splat(0), true), 64);
    assert_eq!(add.vector_lanes(Splat(0), false), 16);
    // Float32 outputs: 16 bytes of them on a GPU, but uint8 inputs set the width on a CPU.
    assert_eq!(map(x().cast(DType::F32)).vector_lanes(Splat(0), true), 64);
    let heavy = [
        x().cast(DType::F32).exp(),
        x().cast(DType::F32)
            .binary(BinaryOp::Pow, Expr::constant(DType::F32, 2.5)),
        Expr::call(Function::ModifiedBesselI0, vec![x().cast(DType::F32)]),
        x().cast(DType::F64).cast(DType::F32),
    ];
    for value in heavy {
        assert_eq!(map(value).vector_lanes(Splat(0), true), 4);
    }
}

/// The float8 conversions of one format of each kind of special values (IEEE infinities,
/// "fn", "fnuz", exponent-only), as each dialect prints them.
#[test]
fn golden_float8_helpers() {
    let calls =
        "f32_to_float8_e5m2 float8_e4m3fn_to_f32 f32_to_float8_e4m3fnuz float8_e8m0fnu_to_f32";
    let bindings = Bindings::separate(1);
    let target = Target {
        f64: true,
        cpu: false,
    };
    let wgsl = crate::kernels::float8::helpers(&mut Wgsl::new(&bindings, target), calls);
    golden("float8_helpers", "wgsl", &wgsl);
    golden(
        "float8_helpers",
        "cu",
        &crate::kernels::float8::helpers(&mut Cuda, calls),
    );
}

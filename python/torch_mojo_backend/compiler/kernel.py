"""Inductor's code generator for the mojo device.

Inductor schedules and fuses the graph as for any GPU; each fused kernel is written here as
a small program (its grammar: ``src/kernels/fused/``) that the Rust core prints to WGSL or
CUDA C++ through the same printer as the eager kernels, compiles and caches on disk. Matrix
products, convolutions and the other extern calls stay calls to the eager kernels.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Optional

import sympy
import torch
from torch._inductor.codegen.common import (
    BackendFeature,
    DeferredLine,
    IndentedBuffer,
    OpOverrides,
)
from torch._inductor.codegen.simd import SIMDKernel, SIMDScheduling
from torch._inductor.codegen.wrapper import PythonWrapperCodegen
from torch._inductor.ops_handler import OpsHandler
from torch._inductor.utils import get_kernel_metadata
from torch._inductor.virtualized import V, ops
from torch.utils._ordered_set import OrderedSet
from torch.utils._sympy.functions import (
    CleanDiv,
    FloorDiv,
    Identity,
    ModularIndexing,
    PythonMod,
    Where,
)

_DTYPES = {
    torch.float32: "float32",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.float64: "float64",
    torch.int64: "int64",
    torch.int32: "int32",
    torch.int16: "int16",
    torch.int8: "int8",
    torch.uint8: "uint8",
    torch.bool: "bool",
    # Computed in float32, rounded where stored or cast (the Rust core's float8 helpers).
    torch.float8_e4m3fn: "float8_e4m3fn",
    torch.float8_e5m2: "float8_e5m2",
    torch.float8_e4m3fnuz: "float8_e4m3fnuz",
    torch.float8_e5m2fnuz: "float8_e5m2fnuz",
}

# Inductor's reductions the printer implements (by the same names).
_REDUCTIONS = OrderedSet(
    [
        "sum",
        "prod",
        "max",
        "min",
        "any",
        "xor_sum",
        "argmax",
        "argmin",
        "welford_reduce",
        "welford_combine",
    ]
)


def dtype_name(dtype: torch.dtype) -> str:
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise NotImplementedError(f"mojo: compiled kernels do not support {dtype}") from None


def _literal(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    return str(int(value))


def _operand(value: Any) -> str:
    """A program operand: a variable's name, or a Python number as a constant."""
    if isinstance(value, bool):
        return f"(const bool {_literal(value)})"
    if isinstance(value, int):
        return f"(const int64 {value})"
    if isinstance(value, float):
        return f"(const float32 {_literal(value)})"
    return str(value)


def index_program(expr: sympy.Expr) -> str:
    """An int32 index expression (sympy) as a program expression."""
    if isinstance(expr, Identity):
        return index_program(expr.args[0])
    if isinstance(expr, sympy.Integer):
        return str(int(expr))
    if isinstance(expr, sympy.Symbol):
        return expr.name
    if isinstance(expr, sympy.Add):
        return _fold("add", expr.args)
    if isinstance(expr, sympy.Mul):
        return _fold("mul", expr.args)
    if isinstance(expr, (FloorDiv, CleanDiv)):
        a, b = expr.args
        return f"(floordiv {index_program(a)} {index_program(b)})"
    if isinstance(expr, ModularIndexing):
        x, div, mod = expr.args
        inner = (
            index_program(x) if div == 1 else f"(floordiv {index_program(x)} {index_program(div)})"
        )
        return f"(remainder {inner} {index_program(mod)})"
    if isinstance(expr, PythonMod):
        a, b = expr.args
        return f"(remainder {index_program(a)} {index_program(b)})"
    if isinstance(expr, sympy.Min):
        return _fold("minimum", expr.args)
    if isinstance(expr, sympy.Max):
        return _fold("maximum", expr.args)
    if isinstance(expr, Where):
        c, a, b = expr.args
        return f"(where {index_program(c)} {index_program(a)} {index_program(b)})"
    if isinstance(expr, sympy.Pow) and expr.exp.is_Integer and expr.exp > 0:
        return _fold("mul", [expr.base] * int(expr.exp))
    relations = {sympy.Lt: "lt", sympy.Le: "le", sympy.Gt: "gt", sympy.Ge: "ge", sympy.Eq: "eq"}
    for kind, name in relations.items():
        if isinstance(expr, kind):
            return f"({name} {index_program(expr.lhs)} {index_program(expr.rhs)})"
    if expr is sympy.true or expr is sympy.false:
        return f"(const bool {'true' if expr is sympy.true else 'false'})"
    raise NotImplementedError(f"mojo: compiled kernels cannot index with {type(expr).__name__}")


def _fold(op: str, args) -> str:
    out = index_program(args[0])
    for a in args[1:]:
        out = f"({op} {out} {index_program(a)})"
    return out


class MojoOverrides(OpOverrides):
    """Inductor's scalar ops as program expressions."""

    @staticmethod
    def to_dtype(x, dtype: torch.dtype, src_dtype=None, use_compute_types=True) -> str:
        return f"(cast {dtype_name(dtype)} {x})"

    @staticmethod
    def to_dtype_bitcast(x, dtype: torch.dtype, src_dtype: torch.dtype) -> str:
        raise NotImplementedError("mojo: bit casts inside compiled kernels are not supported yet")

    @staticmethod
    def constant(value, dtype: torch.dtype) -> str:
        return f"(const {dtype_name(dtype)} {_literal(value)})"

    @staticmethod
    def index_expr(expr: sympy.Expr, dtype: torch.dtype) -> str:
        var = V.kernel.cse.generate(V.kernel.compute, V.kernel.index(expr), dtype=torch.int32)
        return ops.to_dtype(var, dtype)

    @staticmethod
    def masked(mask, body, other) -> str:
        scoped = IndentedBuffer()
        with V.kernel.swap_buffers(scoped):
            # Fresh names per body, so that equal bodies print equally.
            V.kernel.cse.iter_buffer_ids = itertools.count()
            V.kernel.cse.name_prefix = "scoped"
            result = body()
        key = f"{mask}:{scoped.getvalue()}:{other}"
        var = V.kernel.cse.try_get(key)
        if not var:
            var = V.kernel.cse.newvar(dtype=result.dtype)
            V.kernel.cse.put(key, var)
            compute = V.kernel.compute
            compute.writeline(f"masked {var} {dtype_name(result.dtype)} {mask}")
            compute.splice(scoped)
            compute.writeline(f"yield {result} {_operand(other)}")
        return var

    @staticmethod
    def where(a, b, c) -> str:
        return f"(where {_operand(a)} {_operand(b)} {_operand(c)})"

    @staticmethod
    def int_truediv(a, b) -> str:
        return f"(truediv (cast float32 {_operand(a)}) (cast float32 {_operand(b)}))"

    @staticmethod
    def signbit(x) -> str:
        return f"(lt (copysign (const float32 1.0) {x}) (const float32 0.0))"

    @staticmethod
    def rand(seed, offset):
        return V.kernel.random("rand", torch.float32, seed, offset)

    @staticmethod
    def randn(seed, offset):
        return V.kernel.random("randn", torch.float32, seed, offset)

    @staticmethod
    def randint64(seed, offset, low, high):
        return V.kernel.random("randint64", torch.int64, seed, offset, low, high)


def _program_op(name: str, arity: int):
    def op(*args) -> str:
        return f"({name} {' '.join(_operand(a) for a in args[:arity])})"

    return staticmethod(op)


# Inductor's op names and the program's (which are mostly the same).
for _name, _program, _arity in [
    *(
        (n, n, 1)
        for n in (
            "neg",
            "abs",
            "ceil",
            "floor",
            "trunc",
            "round",
            "bitwise_not",
            "logical_not",
            "isnan",
            "isinf",
            "sign",
            "sqrt",
            "rsqrt",
            "exp",
            "exp2",
            "expm1",
            "log",
            "log2",
            "log10",
            "log1p",
            "sin",
            "cos",
            "tan",
            "asin",
            "acos",
            "atan",
            "sinh",
            "cosh",
            "tanh",
            "asinh",
            "acosh",
            "atanh",
            "erf",
            "erfc",
            "erfinv",
            "lgamma",
            "digamma",
            # kernels::functions (helper functions of the printed kernel)
            "i0",
            "i0e",
            "i1",
            "i1e",
            "bessel_j0",
            "bessel_j1",
            "bessel_y0",
            "bessel_y1",
            "modified_bessel_i0",
            "modified_bessel_i1",
            "modified_bessel_k0",
            "modified_bessel_k1",
            "scaled_modified_bessel_k0",
            "scaled_modified_bessel_k1",
            "airy_ai",
            "spherical_bessel_j0",
            "erfcx",
            "ndtri",
        )
    ),
    *(
        (n, n, 2)
        for n in (
            "add",
            "sub",
            "mul",
            "truediv",
            "floordiv",
            "minimum",
            "maximum",
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "bitwise_left_shift",
            "bitwise_right_shift",
            "logical_and",
            "logical_or",
            "logical_xor",
            "eq",
            "ne",
            "lt",
            "le",
            "gt",
            "ge",
            "pow",
            "atan2",
            "fmod",
            "remainder",
            "copysign",
            "hypot",
            "zeta",
            "polygamma",
            "igamma",
            "igammac",
            *(
                f"{stem}_polynomial_{kind}"
                for stem, kinds in (
                    ("chebyshev", "tuvw"),
                    ("shifted_chebyshev", "tuvw"),
                    ("hermite", ("h", "he")),
                    ("laguerre", "l"),
                    ("legendre", "p"),
                )
                for kind in kinds
            ),
        )
    ),
    ("mod", "fmod", 2),
    ("and_", "bitwise_and", 2),
    ("or_", "bitwise_or", 2),
    ("xor", "bitwise_xor", 2),
    ("lshift", "bitwise_left_shift", 2),
    ("rshift", "bitwise_right_shift", 2),
]:
    setattr(MojoOverrides, _name, _program_op(_program, _arity))


def _not_generated(name: str):
    def op(*args, **kwargs):
        raise NotImplementedError(
            f"mojo: torch.compile cannot put ops.{name} in a mojo kernel yet "
            f"(the eager op has no mojo kernel either, or Inductor decomposed it to {name})"
        )

    return staticmethod(op)


# The rest of Inductor's ops raise an error naming them.
for _name in dir(OpsHandler):
    if not _name.startswith("_") and MojoOverrides._is_unimplemented(_name):
        setattr(MojoOverrides, _name, _not_generated(_name))


class MojoKernel(SIMDKernel):
    """One fused kernel, written as a program for the Rust printer."""

    overrides = MojoOverrides  # type: ignore[assignment]
    suffix = ""
    newvar_prefix = ""

    def __init__(self, tiling: dict[str, sympy.Expr], **kwargs: Any) -> None:
        super().__init__(tiling, **kwargs)
        self.post_loop_store = IndentedBuffer()
        self.reduction_results: OrderedSet[Any] = OrderedSet()
        self.kept: OrderedSet[Any] = OrderedSet()
        # Host scalars (0-dim CPU tensors) the kernel reads, passed by value.
        self.host_scalars: dict[str, torch.dtype] = {}

    def dtype_to_str(self, dtype: torch.dtype) -> str:
        return dtype_name(dtype)

    # -- values --------------------------------------------------------------------------

    def index(self, index: sympy.Expr) -> str:
        """An index as a program expression over the kernel's range and size names."""
        return index_program(self.rename_indexing(self.prepare_indexing(index)))

    def _tensor(self, inner: str) -> str:
        return f"@{inner}"

    def load(self, name: str, index: sympy.Expr):
        dtype = V.graph.get_dtype(name)
        # Half precision computes in float32, as on CUDA.
        compute = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
        if V.graph.is_unspec_arg(name):
            self.host_scalars[name] = dtype
            return self.cse.generate(
                self.loads, f"(cast {dtype_name(compute)} {name})", dtype=compute
            )
        inner = self.args.input(name)
        line = f"{dtype_name(compute)} {self._tensor(inner)} {self.index(index)}"
        return self.cse.generate(self.loads, line, dtype=compute)

    def store(self, name: str, index: sympy.Expr, value, mode=None) -> None:
        if mode is not None:
            raise NotImplementedError(
                f"mojo: compiled stores with mode {mode} are not supported yet"
            )
        inner = self.args.output(name)
        line = f"store {self._tensor(inner)} {self.index(index)} {value}"
        self.stores.writeline(DeferredLine(name, line))

    def store_reduction(self, name: str, index: sympy.Expr, value) -> None:
        inner = self.args.output(name)
        line = f"store {self._tensor(inner)} {self.index(index)} {value}"
        self.post_loop_store.writeline(DeferredLine(name, line))

    def reduction(self, dtype, src_dtype, reduction_type, value):
        key = (src_dtype, reduction_type, value)
        if key in self.cse.reduction_cache:
            return self.cse.reduction_cache[key]
        if reduction_type not in _REDUCTIONS:
            raise NotImplementedError(
                f"mojo: compiled {reduction_type} reductions are not supported yet"
            )
        welford = reduction_type.startswith("welford")
        acc = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
        if reduction_type in ("argmax", "argmin"):
            acc = src_dtype if src_dtype not in (torch.float16, torch.bfloat16) else torch.float32
            results = (self.cse.newvar(dtype=torch.int64),)
        elif welford:
            results = tuple(self.cse.newvar(dtype=acc) for _ in range(3))
        else:
            results = (self.cse.newvar(dtype=acc),)
        values = value if isinstance(value, tuple) else (value,)
        names = " ".join(str(r) for r in results)
        self.compute.writeline(
            f"reduce {reduction_type} {names} {dtype_name(acc)} "
            + " ".join(_operand(v) for v in values)
        )
        self.reduction_results.update(results)
        result = results if welford else results[0]
        self.cse.reduction_cache[key] = result
        return result

    def random(self, kind: str, dtype: torch.dtype, *operands):
        """A random number statement (Inductor's rand, randn, randint64)."""
        var = self.cse.newvar(dtype=dtype)
        self.compute.writeline(f"random {var} {kind} {' '.join(_operand(o) for o in operands)}")
        return var

    def scan(self, *args, **kwargs):
        raise NotImplementedError("mojo: scans inside compiled kernels are not supported yet")

    def sort(self, *args, **kwargs):
        raise NotImplementedError("mojo: sorts inside compiled kernels are not supported yet")

    def bucketize(self, *args, **kwargs):
        raise NotImplementedError("mojo: bucketize inside compiled kernels is not supported yet")

    def check_bounds(self, expr, size, lower, upper) -> None:
        """An index read from a tensor must lie in [0, size): a `check` statement reports a
        violation as CPU's compiled kernels do (RuntimeError at the next synchronisation);
        the load itself stays within its tensor."""
        if not (lower or upper):
            return
        index = self.index(expr)
        bound = self.index(size) if upper else "0"
        name, limit = str(expr), str(self.rename_indexing(size))
        if lower and upper:
            condition = f"0 <= {name} < {limit}"
        else:
            condition = f"0 <= {name}" if lower else f"{name} < {limit}"
        line = f"check {int(lower)} {int(upper)} {index} {bound} ; index out of bounds: {condition}"
        self.compute.writeline(line)

    # -- structure -----------------------------------------------------------------------

    def codegen_iteration_ranges_entry(self, entry) -> None:
        line = f"let {entry.name} int32 {index_program(self.rename_indexing(entry.expr))}"
        if entry.root.is_loop:
            self.indexing_code.writeline(line)
        else:
            self.body.writeline(line)

    def codegen_body(self) -> None:
        if not (
            self.indexing_code or self.loads or self.compute or self.stores or self.post_loop_store
        ):
            return
        if self.inside_reduction and any(t.is_loop for t in self.range_trees):
            self.body.writeline("loop")
            with self.body.indent():
                self.body.splice(self.indexing_code)
                self.body.splice(self.loads)
                self.body.splice(self.compute)
                self.body.splice(self.stores)
            self.body.writeline("end")
            # What the loop computed is gone after it, but for its reductions.
            self.cse.invalidate(OrderedSet([*self.kept, *self.reduction_results]))
            for tree in self.range_trees:
                if tree.is_loop:
                    tree.cache_clear()
        else:
            self.body.splice(self.indexing_code)
            self.body.splice(self.loads)
            self.body.splice(self.compute)
            self.body.splice(self.stores)
            self.kept.update(v for v in self.cse._cache.values() if not isinstance(v, tuple))
        self.body.splice(self.post_loop_store)
        for buffer in (
            self.indexing_code,
            self.loads,
            self.compute,
            self.stores,
            self.post_loop_store,
        ):
            buffer.clear()

    def _tensors(self) -> tuple[list[str], list[str], int]:
        """Outer and inner names of the tensor arguments, those only read first, and how
        many are only read."""
        arg_defs, call_args, _, _ = self.args.python_argdefs()
        sizes = OrderedSet(self.args.sizevars.values())
        pairs = [
            (d.name, c) for d, c in zip(arg_defs, call_args, strict=True) if d.name not in sizes
        ]
        read = [(i, o) for i, o in pairs if i.startswith("in_ptr")]
        ordered = read + [(i, o) for i, o in pairs if not i.startswith("in_ptr")]
        return [o for _, o in ordered], [i for i, _ in ordered], len(read)

    def statements(self) -> list[str]:
        """The kernel's statements, its tensors still named `@<inner name>`."""
        self.codegen_body()
        return [
            self._statement(line.split())
            for line in self.body.getvalue().splitlines()
            if line.split()
        ]

    def codegen_kernel(self, name: Optional[str] = None) -> str:
        statements = self.statements()
        outer, inner, inputs = self._tensors()
        reduction = any(t.is_reduction for t in self.range_trees) and self.inside_reduction
        slots = {f"@{n}": str(k) for k, n in enumerate(inner)}
        self.mojo_outer = outer
        return program_source(
            [dtype_name(V.graph.get_dtype(n)) for n in outer],
            inputs,
            [str(v) for v in self.args.sizevars.values()],
            self.host_scalars,
            reduction,
            [" ".join(slots.get(w, w) for w in s.split()) for s in statements],
        )

    @staticmethod
    def _statement(words: list[str]) -> str:
        """A line of the kernel's buffers as a program statement: the CSE wrote values as
        `name = <expr>` and loads as `name = <dtype> <tensor> <index>`."""
        if len(words) > 2 and words[1] == "=":
            if words[2] in _DTYPES.values():
                return " ".join(["load", words[0], *words[2:]])
            return " ".join(["let", words[0], *words[2:]])
        return " ".join(words)

    def call_kernel(self, name: str, node: Any = None, deallocate_ws: bool = True) -> None:
        numel = {t.prefix: t.numel for t in self.range_trees}
        xnumel = numel.get("x", sympy.Integer(1))
        rnumel = numel.get("r0_", sympy.Integer(1)) if self.inside_reduction else sympy.Integer(1)
        call_program(name, self.mojo_outer, xnumel, rnumel, self.args.sizevars, self.host_scalars)


def program_source(
    dtypes: list[str],
    inputs: int,
    sizes: list[str],
    host_scalars: dict[str, torch.dtype],
    reduction: bool,
    statements: list[str],
) -> str:
    """The wrapper's source for a kernel: its program (`program_text`) handed to the
    runtime."""
    program = program_text(dtypes, inputs, sizes, host_scalars, reduction, statements)
    return f"mojo_compiled_kernel('''\n{program}\n''')"


def program_text(
    dtypes: list[str],
    inputs: int,
    sizes: list[str],
    host_scalars: dict[str, torch.dtype],
    reduction: bool,
    statements: list[str],
) -> str:
    """A kernel's program, in the grammar of `src/kernels/fused/`."""
    lines = [
        "fused 1",
        f"tensors {inputs} {' '.join(dtypes)}",
        f"sizes {' '.join(sizes)}".rstrip(),
        " ".join(["scalars", *(f"{n} {dtype_name(d)}" for n, d in host_scalars.items())]),
        f"reduction {int(reduction)}",
        *statements,
    ]
    return "\n".join(lines)


def call_program(name, tensors, xnumel, rnumel, sizes, host_scalars) -> None:
    """The wrapper's call of kernel `name` on `tensors` (buffer names) with `xnumel` x
    `rnumel` elements, the values of the `sizes` symbols and of the host scalars."""
    wrapper = V.graph.wrapper_code
    for v in sizes:
        wrapper.ensure_size_computed(v)
    numbers = [wrapper.codegen_python_sizevar(e) for e in (xnumel, rnumel)]
    numbers += [str(v) for v in sizes]
    scalars = f"[{', '.join(f'{n}.item()' for n in host_scalars)}]"
    wrapper.generate_kernel_call(
        name,
        [f"[{', '.join(tensors)}]", f"[{', '.join(numbers)}]", scalars],
        device=V.graph.get_current_device_or_throw(),
        triton=False,
    )


class MojoScheduling(SIMDScheduling):
    kernel_type = MojoKernel  # type: ignore[assignment]

    def __init__(self, scheduler) -> None:
        super().__init__(scheduler)
        wrapper = V.graph.wrapper_code
        if wrapper is not None:
            wrapper.header.splice(
                "from torch_mojo_backend.compiler.runtime import "
                "compiled_kernel as mojo_compiled_kernel"
            )

    def get_backend_features(self, device: torch.device) -> OrderedSet[BackendFeature]:
        # Foreach lists become combo nodes, each launched as few kernels (`combo.py`).
        return OrderedSet([BackendFeature.FOREACH])

    def codegen_combo_kernel(self, combo_kernel_node) -> None:
        from .combo import codegen_combo

        codegen_combo(self, combo_kernel_node)

    @classmethod
    def get_tiling_and_scores(
        cls, node_schedule, numel, reduction_numel=sympy.S.One, coalesce_analysis=None
    ):
        # One range per kind: the printer's loops are over xindex and r0_index.
        return cls.create_tiling([numel], [reduction_numel]), None

    def define_kernel(self, src_code: str, node_schedule, kernel: MojoKernel) -> str:
        wrapper = V.graph.wrapper_code
        if src_code in wrapper.src_to_kernel:
            return wrapper.src_to_kernel[src_code]
        name = f"mojo_kernel_{wrapper.next_kernel_suffix()}"
        wrapper.src_to_kernel[src_code] = name
        origins, detailed = get_kernel_metadata(node_schedule, wrapper)
        wrapper.define_kernel(name, src_code, f"{origins}\n{detailed}", gpu=False)
        return name


class MojoWrapperCodegen(PythonWrapperCodegen):
    """Python wrapper code that calls mojo's compiled kernels."""

    @staticmethod
    def create(is_subgraph, subgraph_name, parent_wrapper, partition_signatures=None):
        if is_subgraph:
            return PythonWrapperCodegen.create(
                is_subgraph, subgraph_name, parent_wrapper, partition_signatures
            )
        return MojoWrapperCodegen()

    def _generate_kernel_call_helper(
        self, kernel_name, call_args, *, device=None, triton=True, **kwargs
    ):
        device = device or V.graph.get_current_device_or_throw()
        if device.type == "mojo" and not triton:
            self.writeline(self.wrap_kernel_call(kernel_name, call_args))
            return
        super()._generate_kernel_call_helper(
            kernel_name, call_args, device=device, triton=triton, **kwargs
        )

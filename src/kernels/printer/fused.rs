//! The skeleton of `torch.compile`'s fused kernels ([`FusedKernel`]): Inductor's loop over
//! `xindex`, and for reductions a group per `xindex` whose invocations split the loop over
//! `r0_index` and combine their accumulators through group memory, or, where rows are
//! reduced each by one invocation ([`FusedKernel::each`]), the loop over `xindex` with a
//! row's whole loop inside.

use super::index::report_fault;
use super::random::{philox_rounds, uniform32};
use super::reduce::better_fn;
use super::{Printer, Ty, GROUP_SIZE};
use crate::dtype::DType;
use crate::kernels::fused::{
    FusedKernel, FusedReduce, RandomKind, RowLoop, Stmt, RINDEX, RNUMEL, XINDEX, XNUMEL,
};
use crate::kernels::{BinaryOp, Expr, ReduceOp, UnaryOp};

/// Fused arguments: `[xnumel, r0_numel, offset per tensor, element count per tensor, size
/// arguments (int32)..., scalar arguments (64-bit ones in two words, low first)...]`, then
/// for a kernel with checks the fault word's offset and each check's tag (the fault word is
/// the tensor after the kernel's own).
/// Indices are not trusted (Inductor's indirect indexing reads them from tensors): a load out
/// of its tensor reads the last element, a store out of it is dropped, so that bad indices
/// never touch other memory.
/// A pointwise kernel runs `xindex` over a grid-stride loop; a reduction gives each group one
/// `xindex` at a time, stores outside the reduction loop from its first invocation only.
pub fn fused(p: &mut Printer, k: &FusedKernel) {
    let tensors = k.tensors.len();
    let arguments: Vec<DType> = std::iter::repeat_n(DType::I32, k.sizes)
        .chain(k.scalars.iter().copied())
        .collect();
    let mut arg = 0;
    for s in &k.body {
        declare_reductions(p, s, &mut arg, k.each || k.has_parts());
    }
    // Reduction parts always reduce rows alone: a group's invocations would each be in a
    // different part's row.
    let grouped = k.reduction && !k.each && !k.has_parts();
    if grouped {
        // The loop over xindex meets barriers: its bound must be uniform across the group.
        p.uniform_words("wv", 2);
        p.let_("xn", Ty::U32, "wv[0]");
        p.let_("rn", Ty::U32, "wv[1]");
    } else {
        p.let_("xn", Ty::U32, p.word("0u"));
        p.let_("rn", Ty::U32, p.word("1u"));
    }
    for t in 0..tensors {
        p.let_(&format!("o{t}"), Ty::U32, p.word(format!("{}u", 2 + t)));
        let count = p.word(format!("{}u", 2 + tensors + t));
        p.let_(&format!("n{t}"), Ty::U32, count);
    }
    p.scalars(&arguments, &format!("{}u", 2 + 2 * tensors));
    if !k.checks.is_empty() {
        let words: usize = arguments.iter().map(|d| d.size().div_ceil(4)).sum();
        p.let_("fw", Ty::U32, format!("{}u", 2 + 2 * tensors + words));
    }
    let i32_ty = Ty::Value(DType::I32);
    let int = p.d.ty(Ty::I32);
    p.let_(&format!("x{XNUMEL}"), i32_ty, format!("{int}(xn)"));
    p.let_(&format!("x{RNUMEL}"), i32_ty, format!("{int}(rn)"));
    let mut ctx = Context {
        k,
        each: !grouped,
        guard_stores: grouped,
        reduction: 0,
        row_length: "rn".into(),
        hoisted: Vec::new(),
        loops: 0,
    };
    if k.has_parts() {
        // Each part loops over its own elements.
        for s in &k.body {
            stmt(p, &mut ctx, s);
        }
        return;
    }
    hoist(p, &mut ctx, &k.body, &[XNUMEL, RNUMEL]);
    if k.by_fours && !k.reduction {
        fours(p, &mut ctx, &k.body, XINDEX, "xn");
        return;
    }
    if grouped {
        p.for_("xg", "group", "xg < xn", "xg += groups");
    } else {
        p.grid_loop("xg", "xn");
    }
    p.let_(&format!("x{XINDEX}"), i32_ty, format!("{int}(xg)"));
    for s in &k.body {
        stmt(p, &mut ctx, s);
    }
    p.close();
}

/// The loop of a [`FusedKernel::by_fours`] kernel: work item `q` takes `xindex` from `4 q`
/// to `4 q + 3`. Where all four are inside the launch and the tensors moved four at a time,
/// it loads those before the four elements' statements and stores them after; elsewhere its
/// elements go one by one.
fn fours(p: &mut Printer, ctx: &mut Context, body: &[Stmt], index: usize, numel: &str) {
    let k = ctx.k;
    let equal = FusedKernel::index_locals(body, index);
    let moved = |s: &Stmt| k.moved_by_fours(s, &equal);
    let int = p.d.ty(Ty::I32);
    let i32_ty = Ty::Value(DType::I32);
    p.grid_loop("q", &format!("({numel} + 3u) / 4u"));
    p.let_("base", Ty::U32, "q * 4u");
    let mut inside = vec![format!("base + 4u <= {numel}")];
    for t in k.loop_fours(body, index).unwrap_or_default() {
        inside.push(format!("base + 4u <= n{t}"));
    }
    p.if_(inside.join(" && "));
    let moved: Vec<_> = body.iter().map(moved).collect();
    let at = |_: usize, t: usize| address(k, t, "base");
    four_elements(p, ctx, body, &moved, index, "base", &at);
    p.else_(None);
    p.for_up("xg", "base", &format!("min(base + 4u, {numel})"));
    p.let_(&format!("x{index}"), i32_ty, format!("{int}(xg)"));
    for s in body {
        stmt(p, ctx, s);
    }
    p.close();
    p.close();
    p.close();
}

struct Context<'a> {
    k: &'a FusedKernel,
    /// Whether each invocation reduces its rows alone.
    each: bool,
    /// Whether stores need `t == 0` (outside the loop of a reduction kernel).
    guard_stores: bool,
    /// The next reduction's number (it names its group arrays and helpers).
    reduction: usize,
    /// The length of the rows being reduced (u32): the launch's, or the current part's.
    row_length: String,
    /// The locals printed before the loop over `xindex` (see [`hoist`]).
    hoisted: Vec<usize>,
    /// The reduction loops printed by fours so far (see [`row_fours`]; they number their
    /// locals).
    loops: usize,
}

/// Prints before the loop over `xindex` the `let`s of `body` (outside its reduction loops)
/// whose values depend on no element: on scalar and size arguments, constants, `known`
/// locals and one another only (an optimizer's bias corrections, `pow(beta, step)`), so
/// that an invocation evaluates them once, not once per element.
fn hoist(p: &mut Printer, ctx: &mut Context, body: &[Stmt], known: &[usize]) {
    let mut invariant = known.to_vec();
    for s in body {
        if let Stmt::Let { local, value } = s {
            if value.inputs_all(&|i| invariant.contains(&i)) {
                invariant.push(*local);
                ctx.hoisted.push(*local);
                let v = p.expr(value);
                p.let_(&format!("x{local}"), Ty::Value(value.dtype()), v);
            }
        }
    }
}

/// The steps of four of an invocation's loop over its row (in a [`FusedKernel::by_fours`]
/// kernel): where every tensor the loop moves four at a time (see
/// [`FusedKernel::row_access`]) is aligned for this row and holds all of it, the loop walks
/// the row's fours, loading those tensors before the four elements' statements (whose
/// reductions take them in order) and storing them after. Returns where the loop element
/// by element starts: at the row's last elements that are not four, or at its start.
fn row_fours(p: &mut Printer, ctx: &mut Context, body: &[Stmt]) -> Option<String> {
    let k = ctx.k;
    let row = RowLoop::of(body)?;
    let moved: Vec<_> = body.iter().map(|s| k.row_access(s, &row)).collect();
    if moved.iter().all(Option::is_none) {
        return None;
    }
    let n = ctx.loops;
    ctx.loops += 1;
    let length = ctx.row_length.clone();
    let i32_ty = Ty::Value(DType::I32);
    // Where each moved tensor's row starts, and whether its fours are whole words inside it.
    let start = |j: usize| format!("w{n}_{j}");
    let mut aligned = Vec::new();
    for (j, m) in moved.iter().enumerate() {
        let Some((t, rest)) = m else { continue };
        let value = match rest {
            Some(e) => {
                let v = p.expr(e);
                p.d.convert(&v, e.dtype(), DType::I32)
            }
            None => p.d.constant(DType::I32, 0.0),
        };
        p.let_(&start(j), i32_ty, value);
        let size = k.tensors[*t].size();
        let w = start(j);
        aligned.push(format!(
            "{w} >= 0 && ((o{t} + u32({w}) * {size}u) & {}u) == 0u && u32({w}) + {length} <= n{t}",
            4 * size - 1
        ));
    }
    let ok = format!("fours{n}");
    p.let_(&ok, Ty::Bool, aligned.join(" && "));
    p.if_(&ok);
    p.for_("r", "0u", &format!("r + 4u <= {length}"), "r += 4u");
    let at = |j: usize, t: usize| address(k, t, &format!("u32({}) + r", start(j)));
    let tensors: Vec<_> = moved.iter().map(|m| m.as_ref().map(|(t, _)| *t)).collect();
    four_elements(p, ctx, body, &tensors, RINDEX, "r", &at);
    p.close();
    p.close();
    Some(p.select(&ok, &format!("{length} & ~3u"), "0u"))
}

/// Four elements' statements of `body` in a loop over local `index`, from element `first`
/// (a u32 expression): the tensors of the statements that `moved` names (statement `j`'s
/// at `moved[j]`) loaded four at a time from byte address `at(j, tensor)` before the four
/// elements and stored after them, the other statements element by element in each; the
/// reductions take the four elements in order.
fn four_elements(
    p: &mut Printer,
    ctx: &mut Context,
    body: &[Stmt],
    moved: &[Option<usize>],
    index: usize,
    first: &str,
    at: &dyn Fn(usize, usize) -> String,
) {
    let k = ctx.k;
    let reduction = ctx.reduction;
    for (j, (m, s)) in moved.iter().zip(body).enumerate() {
        if let (Some(t), Stmt::Load { local, .. }) = (m, s) {
            let v = p.d.load4(*t, k.tensors[*t], &at(j, *t));
            let line = p.d.let_inferred(&format!("v{local}"), &v);
            p.line(line);
        }
    }
    // Store `j`'s four values.
    let results = |j: usize| -> [String; 4] { std::array::from_fn(|lane| format!("r{j}_{lane}")) };
    for (j, (m, s)) in moved.iter().zip(body).enumerate() {
        if let (Some(t), Stmt::Store { .. }) = (m, s) {
            for name in results(j) {
                let zero = p.d.constant(k.tensors[*t], 0.0);
                p.var(&name, Ty::Value(k.tensors[*t]), zero);
            }
        }
    }
    let int = p.d.ty(Ty::I32);
    for lane in 0..4 {
        p.open("");
        let value = format!("{int}({first} + {lane}u)");
        p.let_(&format!("x{index}"), Ty::Value(DType::I32), value);
        ctx.reduction = reduction;
        for (j, (m, s)) in moved.iter().zip(body).enumerate() {
            match (m, s) {
                (Some(t), Stmt::Load { local, dtype, .. }) => {
                    let from = k.tensors[*t];
                    let raw = p.d.lane(&format!("v{local}"), from, lane);
                    let v = if from == *dtype {
                        raw
                    } else {
                        p.d.convert(&raw, from, *dtype)
                    };
                    p.let_(&format!("x{local}"), Ty::Value(*dtype), v);
                }
                (Some(_), Stmt::Store { value, .. }) => {
                    let v = p.expr(value);
                    p.line(format!("{} = {v};", results(j)[lane]));
                }
                _ => stmt(p, ctx, s),
            }
        }
        p.close();
    }
    for (j, (m, s)) in moved.iter().zip(body).enumerate() {
        if let (Some(t), Stmt::Store { .. }) = (m, s) {
            let line = p.d.store4(*t, k.tensors[*t], &at(j, *t), &results(j));
            p.line(line);
        }
    }
}

/// Prints before a reduction loop the loads of `body` (its top level) at an index that the
/// loop does not change, from a tensor the loop does not store to (Inductor loads a row's
/// mean and scale inside the loop): loaded once per row, not once per element.
fn hoist_loads(p: &mut Printer, ctx: &mut Context, body: &[Stmt]) {
    let mut inner = vec![RINDEX];
    let mut stored = Vec::new();
    for s in body {
        s.visit(&mut |s| match s {
            Stmt::Store { tensor, .. } => stored.push(*tensor),
            _ => inner.extend(s.defines()),
        });
    }
    for s in body {
        if let Stmt::Load {
            local,
            tensor,
            index,
            ..
        } = s
        {
            if !stored.contains(tensor) && index.inputs_all(&|i| !inner.contains(&i)) {
                stmt(p, ctx, s);
                ctx.hoisted.push(*local);
            }
        }
    }
}

/// The group arrays (none where invocations reduce rows alone) and helper functions of each
/// reduction, numbered in order.
fn declare_reductions(p: &mut Printer, s: &Stmt, next: &mut usize, each: bool) {
    match s {
        Stmt::Loop(body) | Stmt::Masked { body, .. } | Stmt::Part { body, .. } => {
            for s in body {
                declare_reductions(p, s, next, each);
            }
        }
        Stmt::Reduce { op, dtype, .. } => {
            let j = *next;
            *next += 1;
            for (c, ty) in components(*op, *dtype).into_iter().enumerate() {
                if !each {
                    p.shared(&format!("sh{j}_{c}"), ty, GROUP_SIZE);
                }
            }
            match op {
                FusedReduce::ArgMax => {
                    better_fn(p, &format!("better{j}"), ReduceOp::ArgMax, *dtype)
                }
                FusedReduce::ArgMin => {
                    better_fn(p, &format!("better{j}"), ReduceOp::ArgMin, *dtype)
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// The types of a reduction's accumulated components.
fn components(op: FusedReduce, dtype: DType) -> Vec<Ty> {
    let v = Ty::Value(dtype);
    match op {
        FusedReduce::ArgMax | FusedReduce::ArgMin => vec![v, Ty::I64],
        FusedReduce::Welford | FusedReduce::WelfordCombine => vec![v, v, v],
        _ => vec![v],
    }
}

fn stmt(p: &mut Printer, ctx: &mut Context, s: &Stmt) {
    match s {
        Stmt::Let { local, .. } | Stmt::Load { local, .. } if ctx.hoisted.contains(local) => {}
        Stmt::Let { local, value } => {
            let v = p.expr(value);
            p.let_(&format!("x{local}"), Ty::Value(value.dtype()), v);
        }
        Stmt::Load {
            local,
            dtype,
            tensor,
            index,
        } => {
            let from = ctx.k.tensors[*tensor];
            let i = p.expr(index);
            let element = format!("min(u32({i}), n{tensor} - 1u)");
            let raw = format!("ld{tensor}({})", address(ctx.k, *tensor, &element));
            let v = if from == *dtype {
                raw
            } else {
                p.d.convert(&raw, from, *dtype)
            };
            p.let_(&format!("x{local}"), Ty::Value(*dtype), v);
        }
        Stmt::Store {
            tensor,
            index,
            value,
        } => {
            let i = p.expr(index);
            p.open("");
            p.let_("e", Ty::U32, format!("u32({i})"));
            let at = address(ctx.k, *tensor, "e");
            let v = p.expr(value);
            let first = if ctx.guard_stores { "t == 0u && " } else { "" };
            p.if_(format!("{first}e < n{tensor}"));
            p.line(format!("st{tensor}({at}, {v});"));
            p.close();
            p.close();
        }
        Stmt::Random {
            local,
            kind,
            seed,
            offset,
            range,
        } => random(p, ctx.k, *local, *kind, seed, offset, range.as_ref()),
        Stmt::Check {
            check,
            lower,
            upper,
            index,
            size,
        } => {
            let zero = Expr::constant(DType::I64, 0.0);
            let below = index.clone().lt(zero);
            let past = index.clone().ge(size.clone());
            let bad = match (lower, upper) {
                (true, true) => below.or(past),
                (true, false) => below,
                (false, true) => past,
                (false, false) => return,
            };
            let bad = p.expr(&bad);
            p.if_(bad);
            report_fault(p, ctx.k.tensors.len(), &format!("fw + {}u", 1 + check));
            p.close();
        }
        Stmt::Masked {
            local,
            mask,
            body,
            value,
            other,
        } => {
            let ty = Ty::Value(value.dtype());
            let o = p.expr(other);
            p.var(&format!("x{local}"), ty, o);
            let m = p.expr(mask);
            p.if_(m);
            for s in body {
                stmt(p, ctx, s);
            }
            let v = p.expr(value);
            p.line(format!("x{local} = {v};"));
            p.close();
        }
        Stmt::Part {
            index,
            numel_local,
            numel,
            rows,
            body,
        } => {
            p.open("");
            let n = p.expr(numel);
            p.let_(&format!("x{numel_local}"), Ty::Value(DType::I32), n);
            if let Some((local, length)) = rows {
                let r = p.expr(length);
                p.let_(&format!("x{local}"), Ty::Value(DType::I32), r);
                ctx.row_length = format!("u32(max(x{local}, 0))");
            }
            let mut known = vec![XNUMEL, RNUMEL, *numel_local];
            known.extend(rows.as_ref().map(|r| r.0));
            hoist(p, ctx, body, &known);
            let numel = format!("u32(max(x{numel_local}, 0))");
            if ctx.k.by_fours && !ctx.k.reduction && ctx.k.loop_fours(body, *index).is_some() {
                fours(p, ctx, body, *index, &numel);
                p.close();
                return;
            }
            p.grid_loop("xg", &numel);
            let int = p.d.ty(Ty::I32);
            p.let_(
                &format!("x{index}"),
                Ty::Value(DType::I32),
                format!("{int}(xg)"),
            );
            for s in body {
                stmt(p, ctx, s);
            }
            p.close();
            p.close();
        }
        Stmt::Loop(body) => {
            let first = ctx.reduction;
            for s in body {
                if let Stmt::Reduce {
                    op, locals, dtype, ..
                } = s
                {
                    start(p, *op, locals, *dtype, ctx.reduction);
                    ctx.reduction += 1;
                }
            }
            ctx.reduction = first;
            let guard = std::mem::replace(&mut ctx.guard_stores, false);
            hoist_loads(p, ctx, body);
            if ctx.each {
                let from = if ctx.k.by_fours {
                    row_fours(p, ctx, body)
                } else {
                    None
                };
                ctx.reduction = first;
                let bound = format!("r < {}", ctx.row_length);
                p.for_("r", from.as_deref().unwrap_or("0u"), &bound, "r += 1u");
            } else {
                p.for_("r", "t", "r < rn", &format!("r += {GROUP_SIZE}u"));
            }
            let int = p.d.ty(Ty::I32);
            p.let_(
                &format!("x{RINDEX}"),
                Ty::Value(DType::I32),
                format!("{int}(r)"),
            );
            for s in body {
                stmt(p, ctx, s);
            }
            p.close();
            ctx.guard_stores = guard;
            ctx.reduction = first;
            if ctx.each {
                // Each invocation's accumulators hold its row's result.
                ctx.reduction += body
                    .iter()
                    .filter(|s| matches!(s, Stmt::Reduce { .. }))
                    .count();
                return;
            }
            for s in body {
                if let Stmt::Reduce {
                    op, locals, dtype, ..
                } = s
                {
                    finish(p, ctx.k, *op, locals, *dtype, ctx.reduction);
                    ctx.reduction += 1;
                }
            }
        }
        Stmt::Reduce {
            op,
            locals,
            dtype,
            values,
        } => {
            accumulate(p, ctx.k, *op, locals, *dtype, values, ctx.reduction);
            ctx.reduction += 1;
        }
    }
}

/// The byte address of element `element` (a u32 expression) of tensor `t`.
fn address(k: &FusedKernel, t: usize, element: &str) -> String {
    format!("o{t} + ({element}) * {}u", k.tensors[t].size())
}

/// The accumulators of reduction `j`, set to the reduction's identity before its loop.
fn start(p: &mut Printer, op: FusedReduce, locals: &[usize], dtype: DType, j: usize) {
    let v = Ty::Value(dtype);
    let identity = |p: &Printer, value: f64| p.d.constant(dtype, value);
    match op {
        FusedReduce::Sum | FusedReduce::XorSum | FusedReduce::Any => {
            p.var(&format!("x{}", locals[0]), v, identity(p, 0.0));
        }
        FusedReduce::Prod => p.var(&format!("x{}", locals[0]), v, identity(p, 1.0)),
        FusedReduce::Max | FusedReduce::Min => {
            let (low, high) = limits(dtype);
            let value = if op == FusedReduce::Max { low } else { high };
            p.var(&format!("x{}", locals[0]), v, identity(p, value));
        }
        FusedReduce::ArgMax | FusedReduce::ArgMin => {
            // The best value so far, whether there is one, and its index.
            p.var(&format!("a{j}"), v, identity(p, 0.0));
            p.var(&format!("ok{j}"), Ty::Bool, "false");
            let zero = p.d.int64(0);
            p.var(&format!("x{}", locals[0]), Ty::I64, zero);
        }
        FusedReduce::Welford | FusedReduce::WelfordCombine => {
            for l in locals {
                p.var(&format!("x{l}"), v, identity(p, 0.0));
            }
        }
    }
}

/// The smallest and largest values of `dtype` (infinities for floats).
fn limits(dtype: DType) -> (f64, f64) {
    match dtype {
        DType::Bool => (0.0, 1.0),
        DType::U8 => (0.0, 255.0),
        DType::I8 => (-128.0, 127.0),
        DType::I16 => (-32768.0, 32767.0),
        DType::I32 => (-2147483648.0, 2147483647.0),
        DType::I64 => (-9223372036854775808.0, 9223372036854775807.0),
        _ => (f64::NEG_INFINITY, f64::INFINITY),
    }
}

/// The binary op that combines two partial results of `op`, for the single-value reductions.
fn combiner(op: FusedReduce) -> Option<BinaryOp> {
    Some(match op {
        FusedReduce::Sum => BinaryOp::Add,
        FusedReduce::Prod => BinaryOp::Mul,
        FusedReduce::Max => BinaryOp::Max,
        FusedReduce::Min => BinaryOp::Min,
        FusedReduce::Any => BinaryOp::BitOr,
        FusedReduce::XorSum => BinaryOp::BitXor,
        _ => return None,
    })
}

/// One element's step of reduction `j` inside the loop.
fn accumulate(
    p: &mut Printer,
    k: &FusedKernel,
    op: FusedReduce,
    locals: &[usize],
    dtype: DType,
    values: &[Expr],
    j: usize,
) {
    let acc = |l: usize| Expr::input(l, dtype);
    if let Some(bop) = combiner(op) {
        let e = acc(locals[0]).binary(bop, values[0].clone());
        let v = p.expr(&e);
        p.line(format!("x{} = {v};", locals[0]));
        return;
    }
    // Scratch locals past the program's, distinct per reduction (they share the loop body).
    let c = k.locals + 16 * j;
    let value = p.expr(&values[0]);
    match op {
        FusedReduce::ArgMax | FusedReduce::ArgMin => {
            p.let_(&format!("x{c}"), Ty::Value(dtype), value);
            let i = p.d.convert(&format!("x{RINDEX}"), DType::I32, DType::I64);
            let x = locals[0];
            p.if_(format!("!ok{j} || better{j}(a{j}, x{x}, x{c}, {i})"));
            p.line(format!("a{j} = x{c};"));
            p.line(format!("x{x} = {i};"));
            p.line(format!("ok{j} = true;"));
            p.close();
        }
        FusedReduce::Welford => {
            // Welford's update with one more value.
            let (mean, m2, n) = (acc(locals[0]), acc(locals[1]), acc(locals[2]));
            let x = Expr::input(c, dtype);
            p.let_(&format!("x{c}"), Ty::Value(dtype), value);
            let count = p.expr(&n.clone().with(BinaryOp::Add, 1.0));
            p.line(format!("x{} = {count};", locals[2]));
            let delta = Expr::input(c + 1, dtype);
            let d = p.expr(&(x.clone() - mean.clone()));
            p.let_(&format!("x{}", c + 1), Ty::Value(dtype), d);
            let m = p.expr(&(mean.clone() + delta.clone() / n));
            p.line(format!("x{} = {m};", locals[0]));
            let s = p.expr(&(m2 + delta * (x - mean)));
            p.line(format!("x{} = {s};", locals[1]));
        }
        FusedReduce::WelfordCombine => {
            let values: Vec<String> = values.iter().map(|v| p.expr(v)).collect();
            merge(p, c, dtype, locals, [&values[0], &values[1], &values[2]]);
        }
        _ => unreachable!("single-value reductions combine above"),
    }
}

/// Chan's merge of the (mean, m2, count) in `locals` with another triple, in a block whose
/// scratch locals are numbered from `c`.
fn merge(p: &mut Printer, c: usize, dtype: DType, locals: &[usize], other: [&str; 3]) {
    let ty = Ty::Value(dtype);
    let var = |n: usize| Expr::input(c + n, dtype);
    let acc = |n: usize| Expr::input(locals[n], dtype);
    p.open("");
    p.let_(&format!("x{c}"), ty, other[0]);
    p.let_(&format!("x{}", c + 1), ty, other[1]);
    p.let_(&format!("x{}", c + 2), ty, other[2]);
    let n = p.expr(&(acc(2) + var(2)));
    p.let_(&format!("x{}", c + 3), ty, n);
    let d = p.expr(&(var(0) - acc(0)));
    p.let_(&format!("x{}", c + 4), ty, d);
    // The other's share of the count (0 when both are empty).
    let zero = Expr::constant(dtype, 0.0);
    let share = var(3).eq(zero.clone()).select(zero, var(2) / var(3));
    let f = p.expr(&share);
    p.let_(&format!("x{}", c + 5), ty, f);
    let m2 = p.expr(&(acc(1) + var(1) + var(4) * var(4) * acc(2) * var(5)));
    p.line(format!("x{} = {m2};", locals[1]));
    let mean = p.expr(&(acc(0) + var(4) * var(5)));
    p.line(format!("x{} = {mean};", locals[0]));
    p.line(format!("x{} = x{};", locals[2], c + 3));
    p.close();
}

/// Combines reduction `j`'s accumulators across the group; every invocation ends with the
/// result.
fn finish(
    p: &mut Printer,
    k: &FusedKernel,
    op: FusedReduce,
    locals: &[usize],
    dtype: DType,
    j: usize,
) {
    let arrays: Vec<String> = (0..components(op, dtype).len())
        .map(|c| format!("sh{j}_{c}"))
        .collect();
    let own: Vec<String> = match op {
        FusedReduce::ArgMax | FusedReduce::ArgMin => {
            // An invocation that saw no element holds the value at index i64 max.
            let none = p.d.int64(i64::MAX);
            vec![
                format!("a{j}"),
                p.select(&format!("ok{j}"), &format!("x{}", locals[0]), &none),
            ]
        }
        _ => locals.iter().map(|l| format!("x{l}")).collect(),
    };
    for (a, v) in arrays.iter().zip(&own) {
        p.line(format!("{a}[t] = {v};"));
    }
    p.barrier();
    let half = GROUP_SIZE / 2;
    p.for_("s", &format!("{half}u"), "s > 0u", "s = s >> 1u");
    p.if_("t < s");
    match op {
        FusedReduce::ArgMax | FusedReduce::ArgMin => {
            let (v, i) = (&arrays[0], &arrays[1]);
            p.if_(format!("better{j}({v}[t], {i}[t], {v}[t + s], {i}[t + s])"));
            p.line(format!("{v}[t] = {v}[t + s];"));
            p.line(format!("{i}[t] = {i}[t + s];"));
            p.close();
        }
        FusedReduce::Welford | FusedReduce::WelfordCombine => {
            // Merge into the invocation's own accumulators, then publish them.
            let c = k.locals + 6;
            let mine: Vec<usize> = (c..c + 3).collect();
            for (n, a) in arrays.iter().enumerate() {
                p.var(&format!("x{}", c + n), Ty::Value(dtype), format!("{a}[t]"));
            }
            let theirs: Vec<String> = arrays.iter().map(|a| format!("{a}[t + s]")).collect();
            merge(
                p,
                k.locals,
                dtype,
                &mine,
                [&theirs[0], &theirs[1], &theirs[2]],
            );
            for (n, a) in arrays.iter().enumerate() {
                p.line(format!("{a}[t] = x{};", c + n));
            }
        }
        _ => {
            let bop = combiner(op).expect("a single-value reduction");
            let c = k.locals;
            p.let_(
                &format!("x{c}"),
                Ty::Value(dtype),
                format!("{}[t]", arrays[0]),
            );
            p.let_(
                &format!("x{}", c + 1),
                Ty::Value(dtype),
                format!("{}[t + s]", arrays[0]),
            );
            let e = Expr::input(c, dtype).binary(bop, Expr::input(c + 1, dtype));
            let v = p.expr(&e);
            p.line(format!("{}[t] = {v};", arrays[0]));
        }
    }
    p.close();
    p.barrier();
    p.close();
    match op {
        FusedReduce::ArgMax | FusedReduce::ArgMin => {
            p.line(format!("x{} = {}[0];", locals[0], arrays[1]));
        }
        _ => {
            for (l, a) in locals.iter().zip(&arrays) {
                p.line(format!("x{l} = {a}[0];"));
            }
        }
    }
    // Nobody writes the arrays again before everyone has read them.
    p.barrier();
}

/// A random number (see [`RandomKind`]): Philox4x32-10 keyed by the seed's two words, at
/// counter (offset low word, offset high word, 0, 0).
fn random(
    p: &mut Printer,
    k: &FusedKernel,
    local: usize,
    kind: RandomKind,
    seed: &Expr,
    offset: &Expr,
    range: Option<&(Expr, Expr)>,
) {
    let dtype = if kind == RandomKind::Integer {
        DType::I64
    } else {
        DType::F32
    };
    let zero = p.d.constant(dtype, 0.0);
    p.var(&format!("x{local}"), Ty::Value(dtype), zero);
    p.open("");
    // The two 32-bit words of an int64 expression, as u32.
    let words = |p: &mut Printer, e: &Expr| -> [String; 2] {
        let low = p.expr(&e.clone().cast(DType::I32));
        let high = p.expr(
            &e.clone()
                .binary(BinaryOp::Shr, Expr::constant(DType::I64, 32.0))
                .cast(DType::I32),
        );
        [format!("u32({low})"), format!("u32({high})")]
    };
    let key = words(p, seed);
    let counter = words(p, offset);
    let draws = p.d.local_array("draw", Ty::U32, 4);
    p.line(draws);
    p.open("");
    philox_rounds(
        p,
        "draw",
        [&counter[0], &counter[1], "0u", "0u"],
        [&key[0], &key[1]],
    );
    p.close();
    let c = k.locals;
    let f32_ = Ty::Value(DType::F32);
    match kind {
        // The top 24 bits, exactly representable: [0, 1).
        RandomKind::Uniform => {
            p.line(format!("x{local} = f32(draw[0] >> 8u) * 5.9604645e-8f;"));
        }
        // Box-Muller of two uniforms in (0, 1].
        RandomKind::Normal => {
            p.let_(&format!("x{c}"), f32_, uniform32("draw[0]"));
            p.let_(&format!("x{}", c + 1), f32_, uniform32("draw[1]"));
            let u = Expr::input(c, DType::F32);
            let v = Expr::input(c + 1, DType::F32);
            let radius =
                (u.unary(UnaryOp::Log) * Expr::constant(DType::F32, -2.0)).unary(UnaryOp::Sqrt);
            let angle = v * Expr::constant(DType::F32, std::f64::consts::TAU);
            let z = p.expr(&(radius * angle.unary(UnaryOp::Cos)));
            p.line(format!("x{local} = {z};"));
        }
        // low + (the 64 bits, as a non-negative int64) mod (high - low).
        RandomKind::Integer => {
            let (low, high) = range.expect("randint64 has a range");
            let wide = p.d.ty(Ty::I64);
            p.let_(
                &format!("x{c}"),
                Ty::I64,
                format!("({wide}(draw[1] >> 1u) << 32u) | {wide}(draw[0])"),
            );
            let bits = Expr::input(c, DType::I64);
            let value = low.clone() + bits.binary(BinaryOp::Rem, high.clone() - low.clone());
            let v = p.expr(&value);
            p.line(format!("x{local} = {v};"));
        }
    }
    p.close();
}

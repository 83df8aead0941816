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

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use crate::dtype::{DType, ALL_DTYPES};
use crate::error::{Error, Result};
use crate::kernels::functions::Function;
use crate::kernels::{BinaryOp, Expr, UnaryOp};

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
}

impl Hash for FusedKernel {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.fingerprint.hash(state);
        self.each.hash(state);
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

    /// Parses a program (see the module documentation).
    pub fn parse(text: &str) -> Result<FusedKernel> {
        Parser::default()
            .program(text)
            .map_err(|e| Error::runtime(format!("mojo: invalid compiled kernel program: {e}")))
    }
}

#[derive(Default)]
struct Parser {
    /// The local each name means now (a later definition shadows an earlier one).
    names: HashMap<String, (usize, DType)>,
    locals: usize,
    /// Size and scalar arguments by name: their number and dtype.
    sizes: HashMap<String, (usize, DType)>,
    /// The values of locals defined as constants (an order such as polygamma's n is one).
    constants: HashMap<usize, f64>,
    /// The messages of the checks so far.
    checks: Vec<String>,
}

/// A block being read and the statement that opened it.
enum Open {
    Loop,
    Part {
        index: usize,
        numel_local: usize,
        numel: Expr,
        rows: Option<(usize, Expr)>,
        /// The names outside the part, restored when it closes.
        outside: HashMap<String, (usize, DType)>,
    },
    Masked {
        name: String,
        local: usize,
        dtype: DType,
        mask: Expr,
        /// The names outside the block, restored when it closes.
        outside: HashMap<String, (usize, DType)>,
    },
}

impl Parser {
    fn program(&mut self, text: &str) -> std::result::Result<FusedKernel, String> {
        let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
        if lines.next() != Some("fused 1") {
            return Err("expected the header `fused 1`".into());
        }
        let tensors_line = lines.next().ok_or("missing tensors")?;
        let mut words = tensors_line.split_whitespace();
        if words.next() != Some("tensors") {
            return Err("expected `tensors`".into());
        }
        let inputs: usize = words
            .next()
            .and_then(|w| w.parse().ok())
            .ok_or("bad input count")?;
        let tensors = words
            .map(dtype)
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let sizes_line = lines.next().ok_or("missing sizes")?;
        let mut words = sizes_line.split_whitespace();
        if words.next() != Some("sizes") {
            return Err("expected `sizes`".into());
        }
        for (k, name) in words.enumerate() {
            self.sizes.insert(name.to_string(), (k, DType::I32));
        }
        let scalars_line = lines.next().ok_or("missing scalars")?;
        let mut words = scalars_line.split_whitespace();
        if words.next() != Some("scalars") {
            return Err("expected `scalars`".into());
        }
        let words: Vec<&str> = words.collect();
        if !words.len().is_multiple_of(2) {
            return Err("scalars come as name and dtype pairs".into());
        }
        let sizes = self.sizes.len();
        let mut scalars = Vec::new();
        for (j, pair) in words.chunks(2).enumerate() {
            let d = dtype(pair[1])?;
            scalars.push(d);
            self.sizes.insert(pair[0].to_string(), (sizes + j, d));
        }
        let reduction = match lines.next() {
            Some("reduction 0") => false,
            Some("reduction 1") => true,
            _ => return Err("expected `reduction 0|1`".into()),
        };
        for name in ["xindex", "r0_index", "xnumel", "r0_numel"] {
            self.define(name, DType::I32);
        }
        let mut stack: Vec<(Open, Vec<Stmt>)> = Vec::new();
        let mut body = Vec::new();
        for line in lines {
            let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
            let stmt = match head {
                "loop" => {
                    stack.push((Open::Loop, std::mem::take(&mut body)));
                    continue;
                }
                "end" => match stack.pop() {
                    Some((Open::Loop, outer)) => {
                        let inner = std::mem::replace(&mut body, outer);
                        Stmt::Loop(inner)
                    }
                    Some((
                        Open::Part {
                            index,
                            numel_local,
                            numel,
                            rows,
                            outside,
                        },
                        outer,
                    )) => {
                        let inner = std::mem::replace(&mut body, outer);
                        self.names = outside;
                        Stmt::Part {
                            index,
                            numel_local,
                            numel,
                            rows,
                            body: inner,
                        }
                    }
                    _ => return Err("`end` without `loop` or `part`".into()),
                },
                "part" => {
                    if !stack.is_empty() {
                        return Err("a part inside a block".into());
                    }
                    let mut exprs = self.exprs(rest)?.into_iter().map(|e| e.cast(DType::I32));
                    let (Some(numel), row) = (exprs.next(), exprs.next()) else {
                        return Err("a part takes its element count".into());
                    };
                    if exprs.next().is_some() || row.is_some() != reduction {
                        return Err("a part takes its row length in reductions only".into());
                    }
                    let outside = self.names.clone();
                    let index = self.define("xindex", DType::I32);
                    let numel_local = self.define("xnumel", DType::I32);
                    let rows = row.map(|r| (self.define("r0_numel", DType::I32), r));
                    let open = Open::Part {
                        index,
                        numel_local,
                        numel,
                        rows,
                        outside,
                    };
                    stack.push((open, std::mem::take(&mut body)));
                    continue;
                }
                "masked" => {
                    let (name, rest) = rest.split_once(' ').ok_or("bad masked")?;
                    let (ty, rest) = rest.split_once(' ').ok_or("bad masked")?;
                    let dtype = dtype(ty)?;
                    let mask = self.expr_text(rest)?;
                    let local = self.locals;
                    self.locals += 1;
                    // The name is defined once the block closes.
                    let open = Open::Masked {
                        name: name.to_string(),
                        local,
                        dtype,
                        mask,
                        outside: self.names.clone(),
                    };
                    stack.push((open, std::mem::take(&mut body)));
                    continue;
                }
                "yield" => match stack.pop() {
                    Some((
                        Open::Masked {
                            name,
                            local,
                            dtype,
                            mask,
                            outside,
                        },
                        outer,
                    )) => {
                        let inner = std::mem::replace(&mut body, outer);
                        let exprs = self.exprs(rest)?;
                        self.names = outside;
                        let [value, other] = <[Expr; 2]>::try_from(exprs)
                            .map_err(|_| "yield takes two expressions")?;
                        self.names.insert(name, (local, dtype));
                        Stmt::Masked {
                            local,
                            mask,
                            body: inner,
                            value: value.cast(dtype),
                            other: other.cast(dtype),
                        }
                    }
                    _ => return Err("`yield` without `masked`".into()),
                },
                "let" => {
                    let (name, rest) = rest.split_once(' ').ok_or("bad let")?;
                    let value = match rest.split_once(' ').map(|(ty, e)| (dtype(ty), e)) {
                        Some((Ok(ty), e)) => self.expr_text(e)?.cast(ty),
                        _ => self.expr_text(rest)?,
                    };
                    let local = self.define(name, value.dtype());
                    if let Some(v) = constant(&value, &self.constants) {
                        self.constants.insert(local, v);
                    }
                    Stmt::Let { local, value }
                }
                "load" => {
                    let mut w = rest.splitn(4, ' ');
                    let (name, ty, tensor, index) = (
                        w.next().ok_or("bad load")?,
                        dtype(w.next().ok_or("bad load")?)?,
                        w.next()
                            .and_then(|t| t.parse::<usize>().ok())
                            .filter(|&t| t < tensors.len())
                            .ok_or("bad load tensor")?,
                        w.next().ok_or("bad load")?,
                    );
                    let index = self.expr_text(index)?.cast(DType::I32);
                    let local = self.define(name, ty);
                    Stmt::Load {
                        local,
                        dtype: ty,
                        tensor,
                        index,
                    }
                }
                "store" => {
                    let (tensor, rest) = rest.split_once(' ').ok_or("bad store")?;
                    let tensor = tensor
                        .parse::<usize>()
                        .ok()
                        .filter(|&t| t >= inputs && t < tensors.len())
                        .ok_or("bad store tensor")?;
                    let exprs = self.exprs(rest)?;
                    let [index, value] =
                        <[Expr; 2]>::try_from(exprs).map_err(|_| "store takes two expressions")?;
                    Stmt::Store {
                        tensor,
                        index: index.cast(DType::I32),
                        value: value.cast(tensors[tensor]),
                    }
                }
                "check" => self.check(rest)?,
                "reduce" => self.reduce(rest, !stack.is_empty())?,
                "random" => self.random(rest)?,
                _ => return Err(format!("unknown statement `{head}`")),
            };
            body.push(stmt);
        }
        if !stack.is_empty() {
            return Err("unclosed block".into());
        }
        let parts = body
            .iter()
            .filter(|s| matches!(s, Stmt::Part { .. }))
            .count();
        if parts > 0 && parts < body.len() {
            return Err("statements beside parts".into());
        }
        if inputs > tensors.len() {
            return Err("more inputs than tensors".into());
        }
        let mut kernel = FusedKernel {
            tensors,
            inputs,
            sizes,
            scalars,
            reduction,
            each: false,
            body,
            locals: self.locals,
            checks: std::mem::take(&mut self.checks),
            fingerprint: 0,
            looping: false,
        };
        kernel.looping = kernel.find_loops();
        let mut state = std::collections::hash_map::DefaultHasher::new();
        let k = &kernel;
        (&k.tensors, k.inputs, k.sizes, &k.scalars, k.reduction).hash(&mut state);
        (&k.body, k.locals, &k.checks).hash(&mut state);
        kernel.fingerprint = state.finish();
        Ok(kernel)
    }

    /// `reduce <op> <name>... <dtype> <expr>...` (three names and values for Welford
    /// merges, three names for Welford, one otherwise).
    /// `check <lower> <upper> <index> <size> ; <message>`.
    fn check(&mut self, rest: &str) -> std::result::Result<Stmt, String> {
        let (exprs, message) = rest.split_once(" ; ").ok_or("check needs `; <message>`")?;
        let flag = |w: &str| match w {
            "0" => Ok(false),
            "1" => Ok(true),
            _ => Err(format!("bad check bound flag `{w}`")),
        };
        let mut w = exprs.splitn(3, ' ');
        let lower = flag(w.next().ok_or("bad check")?)?;
        let upper = flag(w.next().ok_or("bad check")?)?;
        let exprs = self.exprs(w.next().ok_or("bad check")?)?;
        let [index, size] =
            <[Expr; 2]>::try_from(exprs).map_err(|_| "check takes two expressions")?;
        self.checks.push(message.trim().to_string());
        Ok(Stmt::Check {
            check: self.checks.len() - 1,
            lower,
            upper,
            index: index.cast(DType::I64),
            size: size.cast(DType::I64),
        })
    }

    fn reduce(&mut self, rest: &str, in_loop: bool) -> std::result::Result<Stmt, String> {
        if !in_loop {
            return Err("a reduction outside the loop".into());
        }
        let (op, rest) = rest.split_once(' ').ok_or("bad reduce")?;
        let op = match op {
            "sum" => FusedReduce::Sum,
            "prod" => FusedReduce::Prod,
            "max" => FusedReduce::Max,
            "min" => FusedReduce::Min,
            "any" => FusedReduce::Any,
            "xor_sum" => FusedReduce::XorSum,
            "argmax" => FusedReduce::ArgMax,
            "argmin" => FusedReduce::ArgMin,
            "welford_reduce" => FusedReduce::Welford,
            "welford_combine" => FusedReduce::WelfordCombine,
            _ => return Err(format!("unknown reduction `{op}`")),
        };
        let outputs = if matches!(op, FusedReduce::Welford | FusedReduce::WelfordCombine) {
            3
        } else {
            1
        };
        let mut parts = rest.splitn(outputs + 2, ' ');
        let names: Vec<&str> = (0..outputs).filter_map(|_| parts.next()).collect();
        let dtype = dtype(parts.next().ok_or("bad reduce")?)?;
        let values: Vec<Expr> = self
            .exprs(parts.next().ok_or("bad reduce")?)?
            .into_iter()
            .map(|v| v.cast(dtype))
            .collect();
        let inputs = if op == FusedReduce::WelfordCombine {
            3
        } else {
            1
        };
        if names.len() != outputs || values.len() != inputs {
            return Err("wrong number of reduction names or values".into());
        }
        let result = match op {
            FusedReduce::ArgMax | FusedReduce::ArgMin => DType::I64,
            _ => dtype,
        };
        let locals = names.iter().map(|n| self.define(n, result)).collect();
        Ok(Stmt::Reduce {
            op,
            locals,
            dtype,
            values,
        })
    }

    /// `random <name> <kind> <seed> <offset> [<low> <high>]`.
    fn random(&mut self, rest: &str) -> std::result::Result<Stmt, String> {
        let mut parts = rest.splitn(3, ' ');
        let (name, kind, args) = (
            parts.next().ok_or("bad random")?,
            parts.next().ok_or("bad random")?,
            parts.next().ok_or("bad random")?,
        );
        let (kind, dtype, count) = match kind {
            "rand" => (RandomKind::Uniform, DType::F32, 2),
            "randn" => (RandomKind::Normal, DType::F32, 2),
            "randint64" => (RandomKind::Integer, DType::I64, 4),
            _ => return Err(format!("unknown random kind `{kind}`")),
        };
        let mut args = self.exprs(args)?.into_iter().map(|e| e.cast(DType::I64));
        if args.len() != count {
            return Err(format!("random {name} takes {count} operands"));
        }
        let (seed, offset) = (args.next().unwrap(), args.next().unwrap());
        let range = args.next().zip(args.next());
        let local = self.define(name, dtype);
        Ok(Stmt::Random {
            local,
            kind,
            seed,
            offset,
            range,
        })
    }

    fn define(&mut self, name: &str, dtype: DType) -> usize {
        let local = self.locals;
        self.locals += 1;
        self.names.insert(name.to_string(), (local, dtype));
        local
    }

    fn expr_text(&self, text: &str) -> std::result::Result<Expr, String> {
        let exprs = self.exprs(text)?;
        <[Expr; 1]>::try_from(exprs)
            .map(|[e]| e)
            .map_err(|_| format!("expected one expression in `{text}`"))
    }

    /// The expressions of `text`, in order.
    fn exprs(&self, text: &str) -> std::result::Result<Vec<Expr>, String> {
        let tokens = tokenize(text);
        let mut at = 0;
        let mut out = Vec::new();
        while at < tokens.len() {
            out.push(self.expr(&tokens, &mut at)?);
        }
        Ok(out)
    }

    fn expr(&self, tokens: &[&str], at: &mut usize) -> std::result::Result<Expr, String> {
        let token = *tokens.get(*at).ok_or("unexpected end of expression")?;
        *at += 1;
        if token != "(" {
            return self.name(token);
        }
        let head = *tokens.get(*at).ok_or("empty expression")?;
        *at += 1;
        let e = match head {
            "const" => {
                let ty = dtype(tokens.get(*at).ok_or("bad const")?)?;
                let value = literal(tokens.get(*at + 1).ok_or("bad const")?)?;
                *at += 2;
                Expr::constant(ty, value)
            }
            "cast" => {
                let ty = dtype(tokens.get(*at).ok_or("bad cast")?)?;
                *at += 1;
                Expr::Cast(ty, Box::new(self.expr(tokens, at)?))
            }
            _ => {
                let mut args = Vec::new();
                while tokens.get(*at) != Some(&")") {
                    args.push(self.expr(tokens, at)?);
                }
                apply(head, args, &self.constants)?
            }
        };
        if tokens.get(*at) != Some(&")") {
            return Err(format!("expected `)` after `{head}`"));
        }
        *at += 1;
        Ok(e)
    }

    fn name(&self, token: &str) -> std::result::Result<Expr, String> {
        if let Some(&(local, dtype)) = self.names.get(token) {
            return Ok(Expr::input(local, dtype));
        }
        if let Some(&(k, dtype)) = self.sizes.get(token) {
            return Ok(Expr::scalar(k, dtype));
        }
        if let Ok(v) = token.parse::<i64>() {
            return Ok(Expr::constant(DType::I32, v as f64));
        }
        Err(format!("unknown name `{token}`"))
    }
}

fn tokenize(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c == '(' || c == ')' || c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push(&text[s..i]);
            }
            if !c.is_whitespace() {
                out.push(&text[i..i + 1]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

fn dtype(name: &str) -> std::result::Result<DType, String> {
    ALL_DTYPES
        .iter()
        .copied()
        .find(|d| d.name() == name)
        .ok_or_else(|| format!("unknown dtype `{name}`"))
}

fn literal(text: &str) -> std::result::Result<f64, String> {
    match text {
        "inf" => Ok(f64::INFINITY),
        "-inf" => Ok(f64::NEG_INFINITY),
        "nan" => Ok(f64::NAN),
        "True" | "true" => Ok(1.0),
        "False" | "false" => Ok(0.0),
        _ => text
            .parse::<f64>()
            .map_err(|_| format!("bad literal `{text}`")),
    }
}

/// The dtype two operands meet in: the floating one (float32 for two different half
/// types), else the wider integer, bool the narrowest.
pub fn join(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    match (a.is_float(), b.is_float()) {
        (true, false) => a,
        (false, true) => b,
        (true, true) => {
            if a == F64 || b == F64 {
                F64
            } else {
                F32
            }
        }
        (false, false) => {
            if a == Bool {
                b
            } else if b == Bool {
                a
            } else if a.size() != b.size() {
                if a.size() > b.size() {
                    a
                } else {
                    b
                }
            } else if a == U8 {
                b
            } else {
                a
            }
        }
    }
}

/// `op(args)` with the operands joined to one dtype.
fn apply(
    op: &str,
    mut args: Vec<Expr>,
    constants: &HashMap<usize, f64>,
) -> std::result::Result<Expr, String> {
    let unary = match op {
        "neg" => Some(UnaryOp::Neg),
        "abs" => Some(UnaryOp::Abs),
        "ceil" => Some(UnaryOp::Ceil),
        "floor" => Some(UnaryOp::Floor),
        "trunc" => Some(UnaryOp::Trunc),
        "round" => Some(UnaryOp::Round),
        "bitwise_not" | "logical_not" => Some(UnaryOp::Not),
        "isnan" => Some(UnaryOp::IsNan),
        "isinf" => Some(UnaryOp::IsInf),
        "sign" => Some(UnaryOp::Sign),
        "sqrt" => Some(UnaryOp::Sqrt),
        "rsqrt" => Some(UnaryOp::Rsqrt),
        "exp" => Some(UnaryOp::Exp),
        "exp2" => Some(UnaryOp::Exp2),
        "expm1" => Some(UnaryOp::Expm1),
        "log" => Some(UnaryOp::Log),
        "log2" => Some(UnaryOp::Log2),
        "log10" => Some(UnaryOp::Log10),
        "log1p" => Some(UnaryOp::Log1p),
        "sin" => Some(UnaryOp::Sin),
        "cos" => Some(UnaryOp::Cos),
        "tan" => Some(UnaryOp::Tan),
        "asin" => Some(UnaryOp::Asin),
        "acos" => Some(UnaryOp::Acos),
        "atan" => Some(UnaryOp::Atan),
        "sinh" => Some(UnaryOp::Sinh),
        "cosh" => Some(UnaryOp::Cosh),
        "tanh" => Some(UnaryOp::Tanh),
        "asinh" => Some(UnaryOp::Asinh),
        "acosh" => Some(UnaryOp::Acosh),
        "atanh" => Some(UnaryOp::Atanh),
        "erf" => Some(UnaryOp::Erf),
        "erfc" => Some(UnaryOp::Erfc),
        "erfinv" => Some(UnaryOp::Erfinv),
        _ => None,
    };
    if let Some(op) = unary {
        let [x] = <[Expr; 1]>::try_from(args).map_err(|_| "a unary op takes one operand")?;
        // Logical not reads any dtype as a truth value.
        let x = if op == UnaryOp::Not && x.dtype() != DType::Bool && !x.dtype().is_int() {
            x.cast(DType::Bool)
        } else {
            x
        };
        return Ok(x.unary(op));
    }
    if let Some(e) = special(op, &args, constants)? {
        return Ok(e);
    }
    if op == "where" {
        let [c, a, b] = <[Expr; 3]>::try_from(args).map_err(|_| "where takes three operands")?;
        let d = join(a.dtype(), b.dtype());
        return Ok(c.cast(DType::Bool).select(a.cast(d), b.cast(d)));
    }
    let binary = match op {
        "add" => BinaryOp::Add,
        "sub" => BinaryOp::Sub,
        "mul" => BinaryOp::Mul,
        "truediv" | "div" => BinaryOp::Div,
        "minimum" => BinaryOp::Min,
        "maximum" => BinaryOp::Max,
        "bitwise_and" | "logical_and" => BinaryOp::BitAnd,
        "bitwise_or" | "logical_or" => BinaryOp::BitOr,
        "bitwise_xor" | "logical_xor" => BinaryOp::BitXor,
        "bitwise_left_shift" => BinaryOp::Shl,
        "bitwise_right_shift" => BinaryOp::Shr,
        "eq" => BinaryOp::Eq,
        "ne" => BinaryOp::Ne,
        "lt" => BinaryOp::Lt,
        "le" => BinaryOp::Le,
        "gt" => BinaryOp::Gt,
        "ge" => BinaryOp::Ge,
        "pow" => BinaryOp::Pow,
        "atan2" => BinaryOp::Atan2,
        "fmod" => BinaryOp::Fmod,
        "remainder" => BinaryOp::Rem,
        "floordiv" => BinaryOp::FloorDiv,
        "copysign" => BinaryOp::CopySign,
        _ => return Err(format!("unknown op `{op}`")),
    };
    if args.len() != 2 {
        return Err(format!("`{op}` takes two operands"));
    }
    let b = args.pop().unwrap();
    let a = args.pop().unwrap();
    let d = if op.starts_with("logical_") {
        DType::Bool
    } else {
        join(a.dtype(), b.dtype())
    };
    Ok(a.cast(d).binary(binary, b.cast(d)))
}

/// The special functions of [`crate::kernels::special`], in the operands' float dtype
/// (float32 at least).
fn special(
    op: &str,
    args: &[Expr],
    constants: &HashMap<usize, f64>,
) -> std::result::Result<Option<Expr>, String> {
    use crate::kernels::special;
    let float = |e: &Expr| {
        let d = e.dtype();
        e.clone().cast(if d == DType::F64 { d } else { DType::F32 })
    };
    // Functions of one float format (nextafter's half types need theirs) and integer ones
    // stay eager calls.
    let float_function = Function::from_stem(op).filter(|f| {
        !matches!(
            f,
            Function::Gcd
                | Function::Lcm
                | Function::NextAfter
                | Function::NextAfterHalf
                | Function::NextAfterBFloat16
        )
    });
    if let Some(f) = float_function {
        if args.len() != f.arity() {
            return Err(format!("`{op}` takes {} operands", f.arity()));
        }
        let d = args
            .iter()
            .fold(DType::F32, |d, a| join(d, float(a).dtype()));
        return Ok(Some(Expr::call(
            f,
            args.iter().map(|a| a.clone().cast(d)).collect(),
        )));
    }
    let arity = match op {
        "lgamma" | "digamma" => 1,
        "hypot" | "zeta" | "polygamma" => 2,
        _ => return Ok(None),
    };
    if args.len() != arity {
        return Err(format!("`{op}` takes {arity} operands"));
    }
    let x = float(&args[arity - 1]);
    let d = x.dtype();
    Ok(Some(match op {
        "lgamma" => special::lgamma(x, d),
        "digamma" => special::digamma(x, d),
        "hypot" => special::hypot(float(&args[0]).cast(d), x, d),
        "zeta" => special::zeta(float(&args[0]).cast(d), x, d),
        _ => {
            let n = constant(&args[0], constants)
                .filter(|n| *n >= 0.0 && n.fract() == 0.0)
                .ok_or("polygamma needs a constant order n >= 0")?;
            special::polygamma(n as u32, x, d)
        }
    }))
}

/// The value of a constant expression (through casts and constant locals).
fn constant(e: &Expr, constants: &HashMap<usize, f64>) -> Option<f64> {
    match e {
        Expr::Const { dtype, bits } if dtype.is_float() => Some(f64::from_bits(*bits)),
        Expr::Const { bits, .. } => Some(*bits as i64 as f64),
        Expr::Cast(_, inner) => constant(inner, constants),
        Expr::Input { index, .. } => constants.get(index).copied(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_pointwise_program() {
        let k = FusedKernel::parse(
            "fused 1\ntensors 2 float32 float32 float32\nsizes ks0\nscalars\nreduction 0\n\
             let x0 int32 (remainder xindex ks0)\n\
             load tmp0 float32 0 xindex\nload tmp1 float32 1 x0\n\
             let tmp2 (maximum (add tmp0 tmp1) (const int32 0))\n\
             store 2 xindex tmp2\n",
        )
        .unwrap();
        assert_eq!(k.tensors.len(), 3);
        assert_eq!(k.inputs, 2);
        assert_eq!(k.sizes, 1);
        assert_eq!(k.body.len(), 5);
        match &k.body[3] {
            Stmt::Let { value, .. } => assert_eq!(value.dtype(), DType::F32),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn names_in_a_masked_block_stay_in_it() {
        let k = FusedKernel::parse(
            "fused 1\ntensors 1 float32 float32\nsizes\nscalars\nreduction 0\n\
             let a (const float32 1.0)\n\
             masked m float32 (lt xindex 4)\nlet a (const int64 2)\nyield a a\n\
             store 1 xindex (add a m)\n",
        )
        .unwrap();
        match &k.body[2] {
            Stmt::Store { value, .. } => match value {
                Expr::Binary(_, a, _) => assert_eq!(**a, Expr::input(4, DType::F32)),
                e => panic!("{e:?}"),
            },
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn parts_have_their_own_index_and_count() {
        let k = FusedKernel::parse(
            "fused 1\ntensors 0 float32\nsizes s0\nscalars\nreduction 0\n\
             part 3\nstore 0 xindex (cast float32 xnumel)\nend\n\
             part (add s0 1)\nstore 0 xindex (cast float32 xindex)\nend\n",
        )
        .unwrap();
        let [Stmt::Part {
            index: i0,
            numel_local: n0,
            ..
        }, Stmt::Part {
            index: i1, body, ..
        }] = &k.body[..]
        else {
            panic!("{:?}", k.body)
        };
        assert!(![XINDEX, XNUMEL].contains(i0) && *n0 != XNUMEL && i1 != i0);
        match &body[0] {
            Stmt::Store { index, .. } => assert_eq!(*index, Expr::input(*i1, DType::I32)),
            s => panic!("{s:?}"),
        }
    }

    #[test]
    fn reduction_parts_have_their_own_row_length() {
        let k = FusedKernel::parse(
            "fused 1\ntensors 1 float32 float32 float32\nsizes\nscalars\nreduction 1\n\
             part 3 (const int32 5)\nloop\nload a float32 0 r0_index\nreduce sum b float32 a\n\
             end\nstore 1 xindex b\nend\n\
             part 2 (const int32 1)\nstore 2 xindex (cast float32 r0_numel)\nend\n",
        )
        .unwrap();
        assert!(k.has_parts());
        let [Stmt::Part { rows: Some(r0), .. }, Stmt::Part {
            rows: Some(r1),
            body,
            ..
        }] = &k.body[..]
        else {
            panic!("{:?}", k.body)
        };
        assert!(r0.0 != RNUMEL && r1.0 != r0.0);
        match &body[0] {
            Stmt::Store { value, .. } => {
                assert_eq!(*value, Expr::input(r1.0, DType::I32).cast(DType::F32))
            }
            s => panic!("{s:?}"),
        }
        // Steps take every part's rows at the launch's longest.
        assert_eq!(k.row_steps(5), 5);
    }

    #[test]
    fn row_steps_weigh_helper_loops() {
        let program = |value: &str| {
            FusedKernel::parse(&format!(
                "fused 1\ntensors 1 float32 float32\nsizes\nscalars\nreduction 1\n\
                 loop\nload a float32 0 r0_index\nreduce sum b float32 {value}\nend\n\
                 store 1 xindex b\n"
            ))
            .unwrap()
        };
        assert_eq!(program("a").row_steps(100), 100);
        // A float32 logarithm's series: 16 steps an element at most.
        assert_eq!(program("(log a)").row_steps(100), 1_700);
        assert_eq!(program("(log (cast float64 a))").row_steps(100), 10_100);
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        for bad in [
            "fused 2\n",
            "fused 1\ntensors 1 float32\nsizes\nscalars\nreduction 0\nlet a (frobnicate xindex)\n",
            "fused 1\ntensors 1 float32\nsizes\nscalars\nreduction 0\nstore 0 xindex xindex\n",
            "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 1\nreduce sum a float32 xindex\n",
            "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 1\nloop\n",
            "fused 1\ntensors 0 float32\nsizes\nscalars s\nreduction 0\n",
            // Parts stand alone, outside blocks and reductions.
            "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 0\npart 3\nend\n\
             let a xindex\n",
            "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 1\npart 3\nend\n",
            "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 0\npart 3 4\nend\n",
            "fused 1\ntensors 0 float32\nsizes\nscalars\nreduction 0\npart 3\n",
        ] {
            assert!(FusedKernel::parse(bad).is_err(), "{bad}");
        }
    }
}

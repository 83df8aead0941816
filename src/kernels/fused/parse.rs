//! The reader of a program's text: its statements and S-expressions, checked and typed.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use super::operands::{apply, constant};
use super::{FusedKernel, FusedReduce, RandomKind, Stmt};
use crate::dtype::{DType, ALL_DTYPES};
use crate::kernels::Expr;

#[derive(Default)]
pub(super) struct Parser {
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
    pub(super) fn program(&mut self, text: &str) -> std::result::Result<FusedKernel, String> {
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
            by_fours: false,
            body,
            locals: self.locals,
            checks: std::mem::take(&mut self.checks),
            fingerprint: 0,
            looping: false,
            row_cost: None,
        };
        kernel.looping = kernel.find_loops();
        kernel.row_cost = kernel.find_row_cost();
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

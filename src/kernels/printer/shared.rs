//! Shared subexpressions of a kernel's values, printed once as locals. Expressions are
//! trees, so a formula that uses an intermediate result several times (complex functions
//! compose many) would otherwise print it as often, and the device compiler would have to
//! find the repetition again in text that grows with every composition.

use std::collections::HashMap;

use super::{Printer, Ty};
use crate::kernels::Expr;

/// Counts each subtree's uses; a repeated subtree's inside is counted once, so only its
/// outermost repetition becomes a local.
fn count<'e>(e: &'e Expr, uses: &mut HashMap<&'e Expr, usize>) {
    let n = uses.entry(e).or_insert(0);
    *n += 1;
    if *n > 1 {
        return;
    }
    match e {
        Expr::Cast(_, x) | Expr::Unary(_, x) => count(x, uses),
        Expr::Binary(_, a, b) => {
            count(a, uses);
            count(b, uses);
        }
        Expr::Select(c, a, b) => {
            count(c, uses);
            count(a, uses);
            count(b, uses);
        }
        Expr::Call(_, args) => args.iter().for_each(|a| count(a, uses)),
        _ => {}
    }
}

/// Whether printing `e` twice costs more than naming it.
fn worth_naming(e: &Expr) -> bool {
    match e {
        Expr::Input { .. }
        | Expr::Scalar { .. }
        | Expr::Index
        | Expr::Const { .. }
        | Expr::Local { .. } => false,
        Expr::Cast(_, x) => worth_naming(x),
        _ => true,
    }
}

struct Namer<'e> {
    uses: HashMap<&'e Expr, usize>,
    named: HashMap<&'e Expr, Expr>,
    first: usize,
}

impl<'e> Namer<'e> {
    /// `e` with its repeated subtrees replaced by locals, printing each local's definition
    /// before its first use.
    fn rewrite(&mut self, p: &mut Printer, e: &'e Expr) -> Expr {
        if let Some(local) = self.named.get(e) {
            return local.clone();
        }
        let rebuilt = match e {
            Expr::Cast(d, x) => Expr::Cast(*d, Box::new(self.rewrite(p, x))),
            Expr::Unary(op, x) => Expr::Unary(*op, Box::new(self.rewrite(p, x))),
            Expr::Binary(op, a, b) => Expr::Binary(
                *op,
                Box::new(self.rewrite(p, a)),
                Box::new(self.rewrite(p, b)),
            ),
            Expr::Select(c, a, b) => Expr::Select(
                Box::new(self.rewrite(p, c)),
                Box::new(self.rewrite(p, a)),
                Box::new(self.rewrite(p, b)),
            ),
            Expr::Call(f, args) => {
                Expr::Call(*f, args.iter().map(|a| self.rewrite(p, a)).collect())
            }
            other => other.clone(),
        };
        if self.uses.get(e).copied().unwrap_or(0) < 2 || !worth_naming(e) {
            return rebuilt;
        }
        let index = self.first + self.named.len();
        let local = Expr::Local {
            index,
            dtype: e.dtype(),
        };
        let value = p.expr(&rebuilt);
        p.let_(&format!("v{index}"), Ty::Value(e.dtype()), value);
        self.named.insert(e, local.clone());
        local
    }
}

impl Printer<'_> {
    /// Prints `values` for use in the current block: the subexpressions they repeat become
    /// locals `v{first}, v{first + 1}, ...` defined here, and the returned strings use them.
    pub fn values(&mut self, values: &[&Expr], first: usize) -> Vec<String> {
        let mut uses = HashMap::new();
        values.iter().for_each(|v| count(v, &mut uses));
        let mut namer = Namer {
            uses,
            named: HashMap::new(),
            first,
        };
        let rewritten: Vec<Expr> = values.iter().map(|v| namer.rewrite(self, v)).collect();
        rewritten.iter().map(|v| self.expr(v)).collect()
    }
}

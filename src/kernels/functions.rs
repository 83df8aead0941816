//! Scalar functions too long or too loopy for one expression (the Bessel family, the
//! orthogonal polynomials, the incomplete gamma functions): each is written once as a body of
//! statements over the expression language ([`Body`]), printed as a helper function of any
//! kernel whose expressions call it (`Expr::Call`), in every dialect.

use crate::dtype::DType;
use crate::kernels::printer::{Builtin, Printer, Ty};
use crate::kernels::{bessel, divisors, incomplete_gamma, next_after, polynomials, Expr};

/// Declares [`Function`] (each variant with its stem), its list and its stems, from one table.
macro_rules! functions {
    ($($(#[$doc:meta])* $variant:ident = $stem:literal,)*) => {
        /// A helper function; its arguments and result have one dtype (floating but for gcd
        /// and lcm).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Function {
            $($(#[$doc])* $variant,)*
        }

        impl Function {
            /// Every function, in declaration order.
            pub const ALL: &'static [Function] = &[$(Function::$variant,)*];

            /// Its name in `torch.special` (and Inductor's op), without the prefix; the parts
            /// of a function are named after it.
            pub fn stem(self) -> &'static str {
                match self {
                    $(Function::$variant => $stem,)*
                }
            }
        }
    };
}

functions! {
    BesselJ0 = "bessel_j0",
    BesselJ1 = "bessel_j1",
    BesselY0 = "bessel_y0",
    BesselY1 = "bessel_y1",
    /// `I0(x) exp(-|x|)` and `I1(x) exp(-|x|)`.
    I0e = "i0e",
    /// `torch.special.i1`: I1 with shorter float32 tables than `modified_bessel_i1`'s.
    I1 = "i1",
    I1e = "i1e",
    ModifiedBesselI0 = "modified_bessel_i0",
    ModifiedBesselI1 = "modified_bessel_i1",
    ModifiedBesselK0 = "modified_bessel_k0",
    ModifiedBesselK1 = "modified_bessel_k1",
    /// `K0(x) exp(x)` and `K1(x) exp(x)`.
    ScaledModifiedBesselK0 = "scaled_modified_bessel_k0",
    ScaledModifiedBesselK1 = "scaled_modified_bessel_k1",
    AiryAi = "airy_ai",
    SphericalBesselJ0 = "spherical_bessel_j0",
    /// `exp(x^2) erfc(x)`.
    Erfcx = "erfcx",
    /// The inverse of the normal CDF.
    Ndtri = "ndtri",
    /// The orthogonal polynomials of degree `n` (second argument, truncated) at `x`.
    ChebyshevT = "chebyshev_polynomial_t",
    ChebyshevU = "chebyshev_polynomial_u",
    ChebyshevV = "chebyshev_polynomial_v",
    ChebyshevW = "chebyshev_polynomial_w",
    ShiftedChebyshevT = "shifted_chebyshev_polynomial_t",
    ShiftedChebyshevU = "shifted_chebyshev_polynomial_u",
    ShiftedChebyshevV = "shifted_chebyshev_polynomial_v",
    ShiftedChebyshevW = "shifted_chebyshev_polynomial_w",
    HermiteH = "hermite_polynomial_h",
    HermiteHe = "hermite_polynomial_he",
    LaguerreL = "laguerre_polynomial_l",
    LegendreP = "legendre_polynomial_p",
    /// The greatest common divisor and least common multiple of two integers.
    Gcd = "gcd",
    Lcm = "lcm",
    /// The regularized lower and upper incomplete gamma functions `P(a, x)` and `Q(a, x)`,
    /// and their parts: `x^a e^-x / Gamma(a)`, the series of P and of Q, Q's continued
    /// fraction.
    Igamma = "igamma",
    Igammac = "igammac",
    IgammaFactor = "igamma_factor",
    IgammaSeries = "igamma_series",
    IgammacSeries = "igammac_series",
    IgammacFraction = "igammac_fraction",
    /// `P` or `Q` by a third argument (1 or 0): one body for both, and its asymptotic
    /// series likewise.
    IncompleteGamma = "incomplete_gamma",
    IncompleteGammaAsymptotic = "incomplete_gamma_asymptotic",
    /// `a * b + c` rounded once (where the CPU's and CUDA's compilers fuse a product).
    Fma = "fma",
    /// The neighbour of `x` towards `y` in its own format, in float16's, in bfloat16's.
    NextAfter = "nextafter",
    NextAfterHalf = "nextafter_half",
    NextAfterBFloat16 = "nextafter_bfloat16",
}

impl Function {
    /// The function of a stem (`i0` is the modified Bessel function).
    pub fn from_stem(stem: &str) -> Option<Function> {
        match stem {
            "i0" => Some(Function::ModifiedBesselI0),
            _ => Function::ALL.iter().copied().find(|f| f.stem() == stem),
        }
    }

    /// Its name in a kernel, for arguments of `dtype`.
    pub fn name(self, dtype: DType) -> String {
        format!("fn_{}_{}", self.stem(), dtype.name())
    }

    /// How many arguments it takes.
    pub fn arity(self) -> usize {
        if matches!(
            self,
            Function::Fma | Function::IncompleteGamma | Function::IncompleteGammaAsymptotic
        ) {
            return 3;
        }
        if self.is_polynomial()
            || self.is_incomplete_gamma()
            || matches!(
                self,
                Function::Gcd
                    | Function::Lcm
                    | Function::NextAfter
                    | Function::NextAfterHalf
                    | Function::NextAfterBFloat16
            )
        {
            2
        } else {
            1
        }
    }

    /// The orthogonal polynomials (`polynomials`); the rest are the Bessel family and
    /// its relatives (`bessel`).
    pub fn is_polynomial(self) -> bool {
        use Function::*;
        matches!(
            self,
            ChebyshevT
                | ChebyshevU
                | ChebyshevV
                | ChebyshevW
                | ShiftedChebyshevT
                | ShiftedChebyshevU
                | ShiftedChebyshevV
                | ShiftedChebyshevW
                | HermiteH
                | HermiteHe
                | LaguerreL
                | LegendreP
        )
    }

    /// The incomplete gamma functions and their parts (`incomplete_gamma`).
    pub fn is_incomplete_gamma(self) -> bool {
        use Function::*;
        matches!(
            self,
            Igamma
                | Igammac
                | IgammaFactor
                | IgammaSeries
                | IgammacSeries
                | IgammacFraction
                | IncompleteGamma
                | IncompleteGammaAsymptotic
        )
    }

    /// Whether its body (or one it calls) loops a number of times that depends on the
    /// arguments (hundreds of steps or more).
    pub fn loops(self) -> bool {
        self.is_polynomial() || self.is_incomplete_gamma()
    }
}

/// Prints `f` for arguments of `dtype` as a helper function of the kernel `p` prints.
pub fn define(p: &mut Printer, f: Function, dtype: DType) {
    let names: Vec<String> = (0..f.arity()).map(|i| format!("v{i}")).collect();
    let params: Vec<(&str, Ty)> = names
        .iter()
        .map(|n| (n.as_str(), Ty::Value(dtype)))
        .collect();
    p.function(&f.name(dtype), &params, Some(Ty::Value(dtype)), |p| {
        let mut body = Body {
            p,
            dtype,
            locals: f.arity(),
        };
        match f {
            _ if f.is_polynomial() => polynomials::body(&mut body, f),
            Function::Gcd | Function::Lcm => divisors::body(&mut body, f),
            Function::NextAfter | Function::NextAfterHalf | Function::NextAfterBFloat16 => {
                next_after::body(&mut body, f)
            }
            Function::Fma => {
                let (a, b, c) = (body.arg(0), body.arg(1), body.arg(2));
                let fused = body.fma(a, b, c);
                body.ret(fused);
            }
            _ if f.is_incomplete_gamma() => incomplete_gamma::body(&mut body, f),
            _ => bessel::body(&mut body, f),
        }
    });
}

/// The statements of a helper function's body. Values are expressions; locals are
/// `Expr::Local`s (the parameters are the first). Every path must end in [`Body::ret`].
pub struct Body<'p, 'a> {
    p: &'p mut Printer<'a>,
    dtype: DType,
    locals: usize,
}

impl Body<'_, '_> {
    /// The dtype of the arguments and the result.
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// Argument `i`.
    pub fn arg(&self, i: usize) -> Expr {
        Expr::Local {
            index: i,
            dtype: self.dtype,
        }
    }

    /// The constant `v` in the function's dtype.
    pub fn k(&self, v: f64) -> Expr {
        Expr::constant(self.dtype, v)
    }

    fn local(&mut self, mutable: bool, value: Expr) -> Expr {
        let text = self.p.expr(&value);
        self.local_text(mutable, value.dtype(), text)
    }

    fn local_text(&mut self, mutable: bool, dtype: DType, text: String) -> Expr {
        let index = self.locals;
        self.locals += 1;
        let name = format!("v{index}");
        if mutable {
            self.p.var(&name, Ty::Value(dtype), text);
        } else {
            self.p.let_(&name, Ty::Value(dtype), text);
        }
        Expr::Local { index, dtype }
    }

    /// An immutable local holding `value`.
    pub fn let_(&mut self, value: Expr) -> Expr {
        self.local(false, value)
    }

    /// A mutable local starting at `value`.
    pub fn var(&mut self, value: Expr) -> Expr {
        self.local(true, value)
    }

    /// `a * b + c` rounded once, as an immutable local (the CPU's compilers fuse the products
    /// of the recurrences they copy so).
    pub fn fma(&mut self, a: Expr, b: Expr, c: Expr) -> Expr {
        let (a, b, c) = (self.p.expr(&a), self.p.expr(&b), self.p.expr(&c));
        let text = self.p.d.builtin(Builtin::Fma(self.dtype), &[&a, &b, &c]);
        self.local_text(false, self.dtype, text)
    }

    /// `local = value`.
    pub fn set(&mut self, local: &Expr, value: Expr) {
        let (target, value) = (self.p.expr(local), self.p.expr(&value));
        self.p.line(format!("{target} = {value};"));
    }

    /// Opens `if (cond)`; closed by [`Body::end`].
    pub fn if_(&mut self, cond: Expr) {
        let cond = self.p.expr(&cond);
        self.p.if_(cond);
    }

    /// Closes the open `if` and opens its `else`.
    pub fn else_(&mut self) {
        self.p.else_(None);
    }

    /// Opens `while (cond)`; closed by [`Body::end`].
    pub fn while_(&mut self, cond: Expr) {
        let cond = self.p.expr(&cond);
        self.p.open(format!("while ({cond})"));
    }

    /// `break;` out of the innermost loop.
    pub fn break_(&mut self) {
        self.p.line("break;");
    }

    /// `if (cond) { break; }`.
    pub fn break_if(&mut self, cond: Expr) {
        self.if_(cond);
        self.break_();
        self.end();
    }

    /// Closes the innermost block.
    pub fn end(&mut self) {
        self.p.close();
    }

    /// `return value;`.
    pub fn ret(&mut self, value: Expr) {
        let value = self.p.expr(&value);
        self.p.line(format!("return {value};"));
    }

    /// `if (cond) { return value; }`.
    pub fn ret_if(&mut self, cond: Expr, value: Expr) {
        self.if_(cond);
        self.ret(value);
        self.end();
    }

    /// Horner's polynomial `c[0] x^n + ... + c[n]` (Cephes' `polevl`) at a local `x`.
    pub fn polevl(&self, x: &Expr, c: &[f64]) -> Expr {
        c[1..]
            .iter()
            .fold(self.k(c[0]), |acc, &a| acc * x.clone() + self.k(a))
    }

    /// `x^n + c[0] x^(n-1) + ... + c[n-1]` (Cephes' `p1evl`) at a local `x`.
    pub fn p1evl(&self, x: &Expr, c: &[f64]) -> Expr {
        c.iter()
            .fold(self.k(1.0), |acc, &a| acc * x.clone() + self.k(a))
    }

    /// The Chebyshev series `c` at a local `x` (Cephes' `chbevl`: Clenshaw's recurrence,
    /// unrolled, returning `(b0 - b2) / 2`).
    pub fn chbevl(&mut self, x: &Expr, c: &[f64]) -> Expr {
        let b0 = self.var(self.k(c[0]));
        let b1 = self.var(self.k(0.0));
        let b2 = self.var(self.k(0.0));
        for &a in &c[1..] {
            self.set(&b2, b1.clone());
            self.set(&b1, b0.clone());
            let next = x.clone() * b1.clone() - b2.clone() + self.k(a);
            self.set(&b0, next);
        }
        self.k(0.5) * (b0 - b2)
    }
}

//! `mojo::lu_factor`, `mojo::lu_solve` (and their `_batched` forms, cuBLAS's getrfBatched and
//! getrsBatched), `mojo::cholesky`, `mojo::cholesky_solve`,
//! `mojo::geqrf`, `mojo::ormqr`, `mojo::ldl_factor`, `mojo::ldl_solve`, `mojo::eigh`,
//! `mojo::eig`, `mojo::svd` and `mojo::triangular_solve`: LAPACK's getrf, getrs, potrf,
//! potrs, geqrf, ormqr, sytrf, sytrs, syevd, geev and gesvd through the device's solver
//! library
//! (cuSOLVER), and the BLAS's trsm (cuBLAS), for
//! `python/torch_mojo_backend/_linalg.py` where the device has one. Matrices arrive
//! column-major, as the library takes them: a contiguous (*batch, cols, rows) tensor holds
//! each matrix's transpose. Real or complex, single or double precision.

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::core::call::Call;
use crate::ops::core::launch::common_device;
use crate::ops::core::registry::OpFn;
use crate::ops::core::tensor::TensorRef;
use crate::runtime::backend::{Solve, SolverRoutine};

pub const OPS: &[(&str, OpFn)] = &[
    ("mojo::lu_factor", lu_factor),
    ("mojo::lu_solve", lu_solve),
    ("mojo::lu_factor_batched", lu_factor_batched),
    ("mojo::lu_solve_batched", lu_solve_batched),
    ("mojo::cholesky", cholesky),
    ("mojo::cholesky_solve", cholesky_solve),
    ("mojo::geqrf", geqrf),
    ("mojo::ormqr", ormqr),
    ("mojo::ldl_factor", ldl_factor),
    ("mojo::ldl_solve", ldl_solve),
    ("mojo::eigh", eigh),
    ("mojo::eig", eig),
    ("mojo::svd", svd),
    ("mojo::triangular_solve", triangular_solve),
];

/// The schemas of this file's `mojo::` ops, defined by `csrc/dispatch.cpp`.
pub const SCHEMAS: &[&str] = &[
    "lu_factor(Tensor(a!) a, Tensor(b!) pivots, Tensor(c!) info) -> ()",
    "lu_solve(Tensor a, Tensor pivots, Tensor(a!) b, bool adjoint) -> ()",
    "lu_factor_batched(Tensor(a!) a, Tensor(b!) pivots, Tensor(c!) info) -> ()",
    "lu_solve_batched(Tensor a, Tensor pivots, Tensor(a!) b, bool adjoint) -> ()",
    "cholesky(Tensor(a!) a, Tensor(b!) info) -> ()",
    "cholesky_solve(Tensor a, Tensor(a!) b) -> ()",
    "geqrf(Tensor(a!) a, Tensor(b!) tau, Tensor(c!) info) -> ()",
    "ormqr(Tensor a, Tensor tau, Tensor(a!) c, bool adjoint) -> ()",
    "ldl_factor(Tensor(a!) a, Tensor(b!) pivots, Tensor(c!) info) -> ()",
    "ldl_solve(Tensor a, Tensor pivots, Tensor(a!) b) -> ()",
    "eigh(Tensor(a!) a, Tensor(b!) values, Tensor(c!) info, bool vectors) -> ()",
    "eig(Tensor(a!) a, Tensor(b!) values, Tensor(c!) vectors, Tensor(d!) info, \
     bool compute_vectors) -> ()",
    "svd(Tensor(a!) a, Tensor(b!) values, Tensor(c!) u, Tensor(d!) vh, Tensor(e!) info, \
     bool vectors, bool full) -> ()",
    "triangular_solve(Tensor a, Tensor(a!) b, bool upper, bool unit) -> ()",
];

/// A batch of column-major matrices: the tensor (complex ones as pairs), whether complex,
/// and (batch, rows, cols).
struct Matrices {
    tensor: TensorRef,
    complex: bool,
    batch: u64,
    rows: u64,
    cols: u64,
}

fn matrices(call: &Call, index: usize) -> Result<Matrices> {
    // SAFETY: the glue describes a live tensor.
    let (tensor, complex) = unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(index)?)? };
    if !matches!(tensor.dtype, DType::F32 | DType::F64) {
        return Err(Error::type_error(format!(
            "mojo: the solver library takes float32, float64, complex64 or complex128 \
             matrices, not {}",
            tensor.dtype.torch_name()
        )));
    }
    let dims = &tensor.sizes[..tensor.sizes.len() - usize::from(complex)];
    if dims.len() < 2 || (tensor.numel() > 0 && !tensor.is_contiguous()) {
        return Err(Error::runtime(
            "mojo: the solver library takes contiguous batches of matrices",
        ));
    }
    let size = |d: usize| dims[d].max(0) as u64;
    let batch = (0..dims.len() - 2).map(size).product();
    Ok(Matrices {
        complex,
        batch,
        rows: size(dims.len() - 1),
        cols: size(dims.len() - 2),
        tensor,
    })
}

/// Checks that `t` holds `count` contiguous elements of `dtype`, as `what`.
fn check_vector(t: &TensorRef, dtype: DType, count: u64, what: &str) -> Result<()> {
    if t.dtype != dtype || t.numel() != count || (count > 0 && !t.is_contiguous()) {
        return Err(Error::runtime(format!(
            "mojo: the solver's {what} must be {count} contiguous {} elements",
            dtype.torch_name()
        )));
    }
    Ok(())
}

/// Right-hand sides matching `a`: the same element type, batch and rows.
fn right_hand_sides(call: &Call, index: usize, a: &Matrices) -> Result<Matrices> {
    let b = matrices(call, index)?;
    if b.tensor.dtype != a.tensor.dtype || b.complex != a.complex {
        return Err(Error::type_error(
            "mojo: the solver's matrices must share their dtype",
        ));
    }
    if b.batch != a.batch || b.rows != a.rows || a.rows != a.cols {
        return Err(Error::runtime(format!(
            "mojo: the solver takes square matrices and right-hand sides of as many rows and \
             matrices: got {} of {}x{} and {} of {}x{}",
            a.batch, a.rows, a.cols, b.batch, b.rows, b.cols
        )));
    }
    Ok(b)
}

/// The operands of a routine besides its matrices `a`, where it has them.
#[derive(Default)]
struct Operands<'a> {
    rhs: Option<&'a Matrices>,
    values: Option<&'a TensorRef>,
    pivots: Option<&'a TensorRef>,
    u: Option<&'a TensorRef>,
    vt: Option<&'a TensorRef>,
    tau: Option<&'a TensorRef>,
    info: Option<&'a TensorRef>,
}

/// Runs `routine` over `a` and `with`.
fn run(routine: SolverRoutine, a: &Matrices, with: Operands) -> Result<()> {
    let mut tensors = vec![&a.tensor];
    tensors.extend(with.rhs.map(|b| &b.tensor));
    tensors.extend(
        [
            with.values,
            with.pivots,
            with.u,
            with.vt,
            with.tau,
            with.info,
        ]
        .into_iter()
        .flatten(),
    );
    let device = common_device(&tensors)?;
    let rhs = with.rhs.map_or(0, |b| b.cols);
    if a.batch == 0 || a.rows == 0 || a.cols == 0 || with.rhs.is_some_and(|_| rhs == 0) {
        return Ok(());
    }
    let address = |t: Option<&TensorRef>| t.map_or(0, |t| t.address);
    let solve = Solve {
        routine,
        dtype: a.tensor.dtype,
        complex: a.complex,
        rows: a.rows,
        cols: a.cols,
        rhs,
        batch: a.batch,
        a: a.tensor.address,
        b: with.rhs.map_or(address(with.values), |b| b.tensor.address),
        pivots: address(with.pivots),
        u: address(with.u),
        vt: address(with.vt),
        tau: address(with.tau),
        info: address(with.info),
    };
    if !crate::runtime::backend()?.solve(device, &solve)? {
        return Err(Error::runtime(format!(
            "mojo: device {device} has no solver library for {routine:?}"
        )));
    }
    Ok(())
}

/// `lu_factor(Tensor(a!) a, Tensor(b!) pivots, Tensor(c!) info)`: P A = L U in place of `a`;
/// 1-based int64 pivots, int32 info. Empty pivots ask for A = L U without row exchanges.
fn lu_factor(call: &mut Call) -> Result<()> {
    factor_lu(call, SolverRoutine::LuFactor, DType::I64)
}

/// `lu_factor_batched(Tensor(a!) a, Tensor(b!) pivots, Tensor(c!) info)`: `lu_factor` of
/// square matrices in one call for the whole batch, with int32 pivots.
fn lu_factor_batched(call: &mut Call) -> Result<()> {
    factor_lu(call, SolverRoutine::LuFactorBatched, DType::I32)
}

fn factor_lu(call: &mut Call, routine: SolverRoutine, pivot_type: DType) -> Result<()> {
    let a = matrices(call, 0)?;
    let (pivots, info) = (call.tensor(1)?, call.tensor(2)?);
    let pivoting = pivots.numel() > 0;
    if pivoting {
        check_vector(&pivots, pivot_type, a.batch * a.rows.min(a.cols), "pivots")?;
    }
    check_vector(&info, DType::I32, a.batch, "info")?;
    if routine == SolverRoutine::LuFactorBatched && a.rows != a.cols {
        return Err(Error::runtime("mojo: the batched LU takes square matrices"));
    }
    let with = Operands {
        pivots: pivoting.then_some(&pivots),
        info: Some(&info),
        ..Operands::default()
    };
    run(routine, &a, with)
}

/// `lu_solve(Tensor a, Tensor pivots, Tensor(a!) b, bool adjoint)`: X with A X = B (or
/// A^H X = B) in place of `b`, from `lu_factor`'s results.
fn lu_solve(call: &mut Call) -> Result<()> {
    let adjoint = call.boolean(3)?;
    solve_lu(call, SolverRoutine::LuSolve { adjoint }, DType::I64)
}

/// `lu_solve_batched(Tensor a, Tensor pivots, Tensor(a!) b, bool adjoint)`: `lu_solve` in
/// one call for the whole batch, from `lu_factor_batched`'s int32 pivots.
fn lu_solve_batched(call: &mut Call) -> Result<()> {
    let adjoint = call.boolean(3)?;
    solve_lu(call, SolverRoutine::LuSolveBatched { adjoint }, DType::I32)
}

fn solve_lu(call: &mut Call, routine: SolverRoutine, pivot_type: DType) -> Result<()> {
    let a = matrices(call, 0)?;
    let pivots = call.tensor(1)?;
    let b = right_hand_sides(call, 2, &a)?;
    check_vector(&pivots, pivot_type, a.batch * a.rows, "pivots")?;
    let with = Operands {
        rhs: Some(&b),
        pivots: Some(&pivots),
        ..Operands::default()
    };
    run(routine, &a, with)
}

/// `cholesky(Tensor(a!) a, Tensor(b!) info)`: the lower factor of A's lower triangle in place
/// of that triangle; int32 info.
fn cholesky(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let info = call.tensor(1)?;
    check_vector(&info, DType::I32, a.batch, "info")?;
    if a.rows != a.cols {
        return Err(Error::runtime("mojo: cholesky takes square matrices"));
    }
    let with = Operands {
        info: Some(&info),
        ..Operands::default()
    };
    run(SolverRoutine::Cholesky, &a, with)
}

/// `cholesky_solve(Tensor a, Tensor(a!) b)`: X with L L^H X = B in place of `b`, L the lower
/// factor `cholesky` left in `a`.
fn cholesky_solve(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let b = right_hand_sides(call, 1, &a)?;
    let with = Operands {
        rhs: Some(&b),
        ..Operands::default()
    };
    run(SolverRoutine::CholeskySolve, &a, with)
}

/// Checks that `t` holds `count` contiguous matrix elements like `a`'s (pairs when complex).
fn check_like(
    call: &Call,
    index: usize,
    a: &Matrices,
    count: u64,
    what: &str,
) -> Result<TensorRef> {
    // SAFETY: the glue describes a live tensor.
    let (t, complex) = unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(index)?)? };
    if complex != a.complex {
        return Err(Error::type_error(format!(
            "mojo: the solver's {what} must have its matrices' dtype"
        )));
    }
    check_vector(
        &t,
        a.tensor.dtype,
        count * if complex { 2 } else { 1 },
        what,
    )?;
    Ok(t)
}

/// `geqrf(Tensor(a!) a, Tensor(b!) tau, Tensor(c!) info)`: R and the Householder reflectors
/// in place of `a` (LAPACK's layout), their factors into `tau`; int32 info.
fn geqrf(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let tau = check_like(call, 1, &a, a.batch * a.rows.min(a.cols), "tau")?;
    let info = call.tensor(2)?;
    check_vector(&info, DType::I32, a.batch, "info")?;
    let with = Operands {
        tau: Some(&tau),
        info: Some(&info),
        ..Operands::default()
    };
    run(SolverRoutine::Qr, &a, with)
}

/// `ormqr(Tensor a, Tensor tau, Tensor(a!) c, bool adjoint)`: C = Q C (or Q^H C) in place of
/// `c` (rows × p), Q given as `geqrf`'s reflectors `a` (rows × k, k ≤ rows) and `tau` (k).
fn ormqr(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let tau = check_like(call, 1, &a, a.batch * a.cols, "tau")?;
    let c = matrices(call, 2)?;
    let adjoint = call.boolean(3)?;
    if c.tensor.dtype != a.tensor.dtype || c.complex != a.complex {
        return Err(Error::type_error(
            "mojo: the solver's matrices must share their dtype",
        ));
    }
    if c.batch != a.batch || c.rows != a.rows || a.cols > a.rows {
        return Err(Error::runtime(format!(
            "mojo: ormqr takes k ≤ m reflectors of m rows and as many matrices of m rows: got \
             {} of {}x{} and {} of {}x{}",
            a.batch, a.rows, a.cols, c.batch, c.rows, c.cols
        )));
    }
    let with = Operands {
        rhs: Some(&c),
        tau: Some(&tau),
        ..Operands::default()
    };
    run(SolverRoutine::ApplyQ { adjoint }, &a, with)
}

/// `ldl_factor(Tensor(a!) a, Tensor(b!) pivots, Tensor(c!) info)`: L D L^T of the symmetric
/// matrices' lower triangles in place of them; 1-based int32 pivots, int32 info.
fn ldl_factor(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let (pivots, info) = (call.tensor(1)?, call.tensor(2)?);
    if a.rows != a.cols {
        return Err(Error::runtime("mojo: ldl_factor takes square matrices"));
    }
    check_vector(&pivots, DType::I32, a.batch * a.rows, "pivots")?;
    check_vector(&info, DType::I32, a.batch, "info")?;
    let with = Operands {
        pivots: Some(&pivots),
        info: Some(&info),
        ..Operands::default()
    };
    run(SolverRoutine::LdlFactor, &a, with)
}

/// `ldl_solve(Tensor a, Tensor pivots, Tensor(a!) b)`: X with A X = B in place of `b`, from
/// `ldl_factor`'s results (pivots as int64).
fn ldl_solve(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let pivots = call.tensor(1)?;
    let b = right_hand_sides(call, 2, &a)?;
    check_vector(&pivots, DType::I64, a.batch * a.rows, "pivots")?;
    let with = Operands {
        rhs: Some(&b),
        pivots: Some(&pivots),
        ..Operands::default()
    };
    run(SolverRoutine::LdlSolve, &a, with)
}

/// `eigh(Tensor(a!) a, Tensor(b!) values, Tensor(c!) info, bool vectors)`: the eigenvalues of
/// the Hermitian matrices' lower triangles, ascending (real), and with `vectors` their
/// eigenvectors as the columns of `a`; int32 info.
fn eigh(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let values = call.tensor(1)?;
    let info = call.tensor(2)?;
    let vectors = call.boolean(3)?;
    if a.rows != a.cols {
        return Err(Error::runtime("mojo: eigh takes square matrices"));
    }
    check_vector(&values, a.tensor.dtype, a.batch * a.rows, "eigenvalues")?;
    check_vector(&info, DType::I32, a.batch, "info")?;
    let with = Operands {
        values: Some(&values),
        info: Some(&info),
        ..Operands::default()
    };
    run(SolverRoutine::Eigh { vectors }, &a, with)
}

/// `eig(Tensor(a!) a, Tensor(b!) values, Tensor(c!) vectors, Tensor(d!) info,
/// bool compute_vectors)`: the eigenvalues of the general matrices (2 n reals for real
/// matrices: real parts, then imaginary parts; n complex elements for complex ones), and
/// with `compute_vectors` their right eigenvectors, column-major (packed as LAPACK's `dgeev`
/// packs them for real matrices); `a` is overwritten; int32 info.
fn eig(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    // SAFETY: the glue describes a live tensor.
    let (values, _) = unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(1)?)? };
    let info = call.tensor(3)?;
    let vectors = call.boolean(4)?;
    if a.rows != a.cols {
        return Err(Error::runtime("mojo: eig takes square matrices"));
    }
    check_vector(&values, a.tensor.dtype, a.batch * a.rows * 2, "eigenvalues")?;
    check_vector(&info, DType::I32, a.batch, "info")?;
    let u = if vectors {
        Some(check_like(
            call,
            2,
            &a,
            a.batch * a.rows * a.rows,
            "eigenvectors",
        )?)
    } else {
        None
    };
    let with = Operands {
        values: Some(&values),
        u: u.as_ref(),
        info: Some(&info),
        ..Operands::default()
    };
    run(SolverRoutine::Eig { vectors }, &a, with)
}

/// `svd(Tensor(a!) a, Tensor(b!) values, Tensor(c!) u, Tensor(d!) vh, Tensor(e!) info,
/// bool vectors, bool full)`: the singular values of the matrices (rows ≥ cols), descending
/// (real), and with `vectors` U (rows × cols, or rows × rows when `full`) and V^H (cols ×
/// cols), column-major; `a` is overwritten; int32 info.
fn svd(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let values = call.tensor(1)?;
    let info = call.tensor(4)?;
    let (vectors, full) = (call.boolean(5)?, call.boolean(6)?);
    if a.rows < a.cols {
        return Err(Error::runtime(
            "mojo: svd through the solver library takes matrices of at least as many rows as columns",
        ));
    }
    check_vector(&values, a.tensor.dtype, a.batch * a.cols, "singular values")?;
    check_vector(&info, DType::I32, a.batch, "info")?;
    let (u, vt) = if vectors {
        let u_columns = if full { a.rows } else { a.cols };
        (
            Some(check_like(call, 2, &a, a.batch * a.rows * u_columns, "U")?),
            Some(check_like(call, 3, &a, a.batch * a.cols * a.cols, "V^H")?),
        )
    } else {
        (None, None)
    };
    let with = Operands {
        values: Some(&values),
        u: u.as_ref(),
        vt: vt.as_ref(),
        info: Some(&info),
        ..Operands::default()
    };
    run(SolverRoutine::Svd { vectors, full }, &a, with)
}

/// `triangular_solve(Tensor a, Tensor(a!) b, bool upper, bool unit)`: X with T X = B in place
/// of `b`, T the lower (or `upper`) triangle of `a`, its diagonal taken as ones when `unit`.
fn triangular_solve(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let b = right_hand_sides(call, 1, &a)?;
    let (upper, unit) = (call.boolean(2)?, call.boolean(3)?);
    let with = Operands {
        rhs: Some(&b),
        ..Operands::default()
    };
    run(SolverRoutine::TriangularSolve { upper, unit }, &a, with)
}

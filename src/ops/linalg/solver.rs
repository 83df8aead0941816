//! `mojo::lu_factor`, `mojo::lu_solve`, `mojo::cholesky` and `mojo::cholesky_solve`: LAPACK's
//! getrf, getrs, potrf and potrs through the device's solver library (cuSOLVER), for
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
    ("mojo::cholesky", cholesky),
    ("mojo::cholesky_solve", cholesky_solve),
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

/// Runs `routine` over `a` (and `b`, the pivots and `info` where given).
fn run(
    routine: SolverRoutine,
    a: &Matrices,
    b: Option<&Matrices>,
    pivots: Option<&TensorRef>,
    info: Option<&TensorRef>,
) -> Result<()> {
    let mut tensors = vec![&a.tensor];
    tensors.extend(b.map(|b| &b.tensor));
    tensors.extend(pivots);
    tensors.extend(info);
    let device = common_device(&tensors)?;
    if a.batch == 0 || a.rows == 0 || a.cols == 0 || b.is_some_and(|b| b.cols == 0) {
        return Ok(());
    }
    let solve = Solve {
        routine,
        dtype: a.tensor.dtype,
        complex: a.complex,
        rows: a.rows,
        cols: a.cols,
        rhs: b.map_or(0, |b| b.cols),
        batch: a.batch,
        a: a.tensor.address,
        b: b.map_or(0, |b| b.tensor.address),
        pivots: pivots.map_or(0, |p| p.address),
        info: info.map_or(0, |i| i.address),
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
    let a = matrices(call, 0)?;
    let (pivots, info) = (call.tensor(1)?, call.tensor(2)?);
    let pivoting = pivots.numel() > 0;
    if pivoting {
        check_vector(&pivots, DType::I64, a.batch * a.rows.min(a.cols), "pivots")?;
    }
    check_vector(&info, DType::I32, a.batch, "info")?;
    let pivots = pivoting.then_some(&pivots);
    run(SolverRoutine::LuFactor, &a, None, pivots, Some(&info))
}

/// `lu_solve(Tensor a, Tensor pivots, Tensor(a!) b, bool adjoint)`: X with A X = B (or
/// A^H X = B) in place of `b`, from `lu_factor`'s results.
fn lu_solve(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let pivots = call.tensor(1)?;
    let b = right_hand_sides(call, 2, &a)?;
    let adjoint = call.boolean(3)?;
    check_vector(&pivots, DType::I64, a.batch * a.rows, "pivots")?;
    let routine = SolverRoutine::LuSolve { adjoint };
    run(routine, &a, Some(&b), Some(&pivots), None)
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
    run(SolverRoutine::Cholesky, &a, None, None, Some(&info))
}

/// `cholesky_solve(Tensor a, Tensor(a!) b)`: X with L L^H X = B in place of `b`, L the lower
/// factor `cholesky` left in `a`.
fn cholesky_solve(call: &mut Call) -> Result<()> {
    let a = matrices(call, 0)?;
    let b = right_hand_sides(call, 1, &a)?;
    run(SolverRoutine::CholeskySolve, &a, Some(&b), None, None)
}

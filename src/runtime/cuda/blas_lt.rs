//! Matrix products with a bias epilogue through cuBLASLt: addmm and linear with a 1-D bias
//! (`out = alpha * a @ b + bias`, the bias broadcast over rows) in one kernel, as PyTorch's
//! CUDA addmm does. Operands are laid out as for cuBLAS (`blas::plan`); each stream id has
//! its own workspace.

use std::collections::HashMap;
use std::ffi::c_void;

use cudarc::cublaslt::sys;
use cudarc::driver::sys::{CUdeviceptr, CUstream};
use parking_lot::Mutex;

use super::api::{driver, LtLayout, LtMatmul};
use super::blas::{allows_tf32, plan, status, Plan};
use super::driver::check_allocation;
use crate::dtype::DType;
use crate::error::Result;
use crate::runtime::backend::Gemm;

#[derive(Clone, Copy)]
struct Workspace(CUdeviceptr);

/// cuBLASLt for one device's primary context.
pub struct BlasLt {
    handle: sys::cublasLtHandle_t,
    workspace_bytes: usize,
    workspaces: Mutex<HashMap<u64, Workspace>>,
}

// SAFETY: a cuBLASLt handle may be used from any thread with its context current; each call
// names its stream and that stream's workspace.
unsafe impl Send for BlasLt {}
unsafe impl Sync for BlasLt {}

/// The largest power of two (up to 256) dividing `address`: what cuBLASLt may assume.
fn alignment(address: u64) -> u32 {
    1 << address.trailing_zeros().min(8)
}

fn data_type(dtype: DType) -> Option<sys::cudaDataType> {
    Some(match dtype {
        DType::F16 => sys::cudaDataType::CUDA_R_16F,
        DType::BF16 => sys::cudaDataType::CUDA_R_16BF,
        DType::F32 => sys::cudaDataType::CUDA_R_32F,
        _ => return None,
    })
}

/// (rows, cols, leading dimension) of the stored column-major matrices cuBLASLt reads: as
/// for cuBLAS, `outᵀ (n × m) = op(b) op(a)`, each operand stored as its strides say.
fn stored_matrices(g: &Gemm, p: &Plan) -> [(u64, u64, i64); 3] {
    let (n, m, k) = (g.n, g.m, g.k);
    let (b_rows, b_cols) = if p.trans_b { (k, n) } else { (n, k) };
    let (a_rows, a_cols) = if p.trans_a { (m, k) } else { (k, m) };
    [
        (b_rows, b_cols, p.ldb),
        (a_rows, a_cols, p.lda),
        (n, m, p.ldc),
    ]
}

impl BlasLt {
    /// A handle for the current context, or None when cuBLASLt cannot start; products take
    /// up to `workspace_bytes` of scratch per stream.
    pub fn create(workspace_bytes: usize) -> Option<BlasLt> {
        let mut handle: sys::cublasLtHandle_t = std::ptr::null_mut();
        // SAFETY: valid out-pointer; the device's context is current.
        status(
            unsafe { driver().cublasLtCreate(&mut handle) },
            "cublasLtCreate",
        )
        .ok()?;
        Some(BlasLt {
            handle,
            workspace_bytes,
            workspaces: Mutex::new(HashMap::new()),
        })
    }

    /// The workspace of stream id `id`, allocated on first use and kept for the process.
    fn workspace(&self, id: u64) -> Result<CUdeviceptr> {
        let mut workspaces = self.workspaces.lock();
        if let Some(w) = workspaces.get(&id) {
            return Ok(w.0);
        }
        let mut pointer: CUdeviceptr = 0;
        // SAFETY: valid out-pointer; the context is current.
        check_allocation(
            unsafe { driver().cuMemAlloc_v2(&mut pointer, self.workspace_bytes) },
            self.workspace_bytes as u64,
        )?;
        workspaces.insert(id, Workspace(pointer));
        Ok(pointer)
    }

    /// `out = alpha * a @ b + bias` (bias: `n` elements of the operands' dtype, added to every
    /// row) on `stream` (its id and CUDA stream); false when cuBLASLt does not take it.
    pub fn gemm_with_bias(
        &self,
        g: &Gemm,
        (a, b, out, bias): (CUdeviceptr, CUdeviceptr, CUdeviceptr, CUdeviceptr),
        (id, stream): (u64, CUstream),
    ) -> Result<bool> {
        let (Some(ty), Some(p)) = (data_type(g.dtype), plan(g)) else {
            return Ok(false);
        };
        if g.batch != 1 || g.m < 2 || g.n < 2 || bias % 16 != 0 || g.out_dtype != g.dtype {
            return Ok(false);
        }
        let compute = if g.dtype == DType::F32 && allows_tf32() {
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F_FAST_TF32
        } else {
            sys::cublasComputeType_t::CUBLAS_COMPUTE_32F
        };
        let layouts = stored_matrices(g, &p).map(|(rows, cols, ld)| LtLayout { rows, cols, ld });
        let call = LtMatmul {
            compute,
            scale: sys::cudaDataType::CUDA_R_32F,
            data: ty,
            // cuBLAS's transpose codes: 0 keeps an operand, 1 transposes it.
            trans_a: i32::from(p.trans_b),
            trans_b: i32::from(p.trans_a),
            epilogue: sys::cublasLtEpilogue_t::CUBLASLT_EPILOGUE_BIAS,
            bias: bias as *const c_void,
            bias_type: ty,
            layouts,
            alignments: [alignment(b), alignment(a), alignment(out)],
            alpha: g.alpha as f32,
            beta: 0.0,
            a: b as *const c_void,
            b: a as *const c_void,
            d: out as *mut c_void,
            workspace: self.workspace(id)? as *mut c_void,
            workspace_bytes: self.workspace_bytes,
            stream,
        };
        // SAFETY: the pointers address blocks holding the views the strides describe (checked
        // by the caller), and the workspace is this stream's.
        unsafe { driver().cublasLtMatmul(self.handle, &call) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::backend::MatrixView;

    /// Every stored matrix lies inside its operand's elements, with rows ≤ ld, for row-major
    /// and transposed views of each operand.
    #[test]
    fn stored_matrices_cover_each_operand_exactly() {
        let (m, n, k) = (3u64, 5u64, 4u64);
        let view = |row_stride: i64, col_stride: i64| MatrixView {
            address: 0,
            batch_stride: 0,
            row_stride,
            col_stride,
        };
        for a_t in [false, true] {
            for b_t in [false, true] {
                let a = if a_t {
                    view(1, m as i64)
                } else {
                    view(k as i64, 1)
                };
                let b = if b_t {
                    view(1, k as i64)
                } else {
                    view(n as i64, 1)
                };
                let g = Gemm {
                    dtype: DType::F32,
                    out_dtype: DType::F32,
                    batch: 1,
                    m,
                    n,
                    k,
                    a,
                    b,
                    out: view(n as i64, 1),
                    alpha: 1.0,
                    beta: 0.0,
                    bias: None,
                };
                let p = plan(&g).expect("dense views have a plan");
                let stored = stored_matrices(&g, &p);
                for ((rows, cols, ld), elements) in stored.into_iter().zip([k * n, m * k, m * n]) {
                    assert!(rows as i64 <= ld, "{a_t} {b_t}: {rows} rows, ld {ld}");
                    assert_eq!(rows * cols, elements);
                    assert_eq!(
                        (rows - 1) as i64 + (cols - 1) as i64 * ld + 1,
                        elements as i64
                    );
                }
                let op = |(rows, cols, _): (u64, u64, i64), t: bool| {
                    if t {
                        (cols, rows)
                    } else {
                        (rows, cols)
                    }
                };
                assert_eq!(op(stored[0], p.trans_b), (n, k), "op(b) is n × k");
                assert_eq!(op(stored[1], p.trans_a), (k, m), "op(a) is k × m");
            }
        }
    }
}

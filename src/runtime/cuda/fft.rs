//! Fourier transforms through cuFFT, loaded at run time. A plan per transform type, signal
//! sizes, batch and stream id, made once and bound to its stream (a plan's workspace must not
//! serve two streams at once), in cuFFT's basic layout: contiguous signals one after another.
//! Unnormalized, as cuFFT computes them; the caller scales.

use std::collections::HashMap;
use std::ffi::c_void;

use cudarc::cufft::sys::{cufftHandle, cufftResult, cufftType};
use cudarc::driver::sys::{CUdeviceptr, CUstream};
use parking_lot::Mutex;

use super::api::driver;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::runtime::backend::{Fft, FftKind};

/// The plans kept at most; past it they are all destroyed and made again on demand (each
/// holds device workspace, and varying shapes would otherwise pile them up).
const MAX_PLANS: usize = 64;

#[derive(Hash, PartialEq, Eq)]
struct Key {
    kind: cufftType,
    signal: Vec<u64>,
    batch: u64,
    stream: u64,
}

/// cuFFT for one device's primary context.
pub struct FftLibrary {
    plans: Mutex<HashMap<Key, cufftHandle>>,
}

fn status(rc: cufftResult, what: &str) -> Result<()> {
    if rc == cufftResult::CUFFT_SUCCESS {
        Ok(())
    } else {
        Err(Error::runtime(format!(
            "mojo: cuFFT error in {what}: {rc:?}"
        )))
    }
}

/// cuFFT's type for a transform of `dtype`'s precision.
fn plan_type(dtype: DType, kind: FftKind) -> Option<cufftType> {
    use cufftType as T;
    Some(match (dtype, kind) {
        (DType::F32, FftKind::ComplexToComplex) => T::CUFFT_C2C,
        (DType::F32, FftKind::RealToComplex) => T::CUFFT_R2C,
        (DType::F32, FftKind::ComplexToReal) => T::CUFFT_C2R,
        (DType::F64, FftKind::ComplexToComplex) => T::CUFFT_Z2Z,
        (DType::F64, FftKind::RealToComplex) => T::CUFFT_D2Z,
        (DType::F64, FftKind::ComplexToReal) => T::CUFFT_Z2D,
        _ => return None,
    })
}

impl FftLibrary {
    /// cuFFT when the library loads.
    pub fn create() -> Option<Self> {
        driver().fft_present().then(|| FftLibrary {
            plans: Mutex::new(HashMap::new()),
        })
    }

    /// Runs `f` from `input` into `output` on `stream` (its id and CUDA stream); false when
    /// cuFFT does not take it (a dtype, rank or size it has no plan for). A complex-to-real
    /// transform overwrites its input, as cuFFT's may.
    pub fn run(
        &self,
        f: &Fft,
        (input, output): (CUdeviceptr, CUdeviceptr),
        (id, stream): (u64, CUstream),
    ) -> Result<bool> {
        let Some(kind) = plan_type(f.dtype, f.kind) else {
            return Ok(false);
        };
        if !(1..=3).contains(&f.signal.len()) || f.batch == 0 {
            return Ok(false);
        }
        let key = Key {
            kind,
            signal: f.signal.clone(),
            batch: f.batch,
            stream: id,
        };
        let mut plans = self.plans.lock();
        let plan = match plans.get(&key) {
            Some(&plan) => plan,
            None => {
                if plans.len() >= MAX_PLANS {
                    for (_, plan) in plans.drain() {
                        // SAFETY: each plan was made here and is no longer used.
                        unsafe { driver().cufftDestroy(plan) };
                    }
                }
                let Some(plan) = make_plan(&key, stream)? else {
                    return Ok(false);
                };
                plans.insert(key, plan);
                plan
            }
        };
        let direction = if f.forward { -1 } else { 1 };
        // SAFETY: the plan describes contiguous signals that the caller's addresses hold.
        status(
            unsafe {
                driver().cufftExec(
                    plan,
                    kind,
                    input as *mut c_void,
                    output as *mut c_void,
                    direction,
                )
            },
            "cufftExec",
        )?;
        Ok(true)
    }
}

/// A plan for `key` in the basic layout, bound to `stream`; None when cuFFT declines it.
fn make_plan(key: &Key, stream: CUstream) -> Result<Option<cufftHandle>> {
    let mut plan: cufftHandle = 0;
    let mut sizes: Vec<i64> = key.signal.iter().map(|&s| s as i64).collect();
    let mut work = 0usize;
    // SAFETY: valid out-pointers; null embeddings ask for the basic layout.
    unsafe {
        status(driver().cufftCreate(&mut plan), "cufftCreate")?;
        let rc = driver().cufftMakePlanMany64(
            plan,
            sizes.len() as i32,
            sizes.as_mut_ptr(),
            std::ptr::null_mut(),
            1,
            0,
            std::ptr::null_mut(),
            1,
            0,
            key.kind,
            key.batch as i64,
            &mut work,
        );
        if rc != cufftResult::CUFFT_SUCCESS {
            driver().cufftDestroy(plan);
            return Ok(None);
        }
        status(driver().cufftSetStream(plan, stream), "cufftSetStream")?;
    }
    Ok(Some(plan))
}

//! `mojo::fft`: an unnormalized Fourier transform through the device's FFT library (cuFFT),
//! for `python/torch_mojo_backend/_fft.py` where the device has one. Complex data arrives as
//! its real view (pairs of floats).

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::ops::core::call::Call;
use crate::ops::core::launch::common_device;
use crate::ops::core::registry::OpFn;
use crate::runtime::backend::{Fft, FftKind};

pub const OPS: &[(&str, OpFn)] = &[("mojo::fft", fft)];

/// The schemas of this file's `mojo::` ops, defined by `csrc/dispatch.cpp`.
pub const SCHEMAS: &[&str] =
    &["fft(Tensor input, Tensor(a!) output, int kind, int[] signal, bool forward) -> ()"];

/// `fft(Tensor input, Tensor(a!) output, int kind, int[] signal, bool forward)`: kind 0
/// complex to complex, 1 real to complex, 2 complex to real, over the last `signal.len()`
/// dimensions of contiguous signals (a complex side's real view ends in a dimension of 2). A
/// complex-to-real transform overwrites its input.
fn fft(call: &mut Call) -> Result<()> {
    let input = call.tensor(0)?;
    let output = call.tensor(1)?;
    let kind = match call.int(2)? {
        0 => FftKind::ComplexToComplex,
        1 => FftKind::RealToComplex,
        2 => FftKind::ComplexToReal,
        other => return Err(Error::runtime(format!("mojo: fft kind {other}"))),
    };
    let signal: Vec<u64> = call.ints(3)?.iter().map(|&s| s.max(0) as u64).collect();
    let forward = call.boolean(4)?;
    let device = common_device(&[&input, &output])?;
    let dtype = input.dtype;
    if !matches!(dtype, DType::F32 | DType::F64) || output.dtype != dtype {
        return Err(Error::type_error("mojo: fft takes float32 or float64 data"));
    }
    if !input.is_contiguous() || !output.is_contiguous() {
        return Err(Error::runtime("mojo: fft takes contiguous tensors"));
    }
    let points: u64 = signal.iter().product();
    let last = signal.last().copied().unwrap_or(0);
    let half = points / last.max(1) * (last / 2 + 1) * 2;
    let (inputs, outputs) = match kind {
        FftKind::ComplexToComplex => (2 * points, 2 * points),
        FftKind::RealToComplex => (points, half),
        FftKind::ComplexToReal => (half, points),
    };
    let batch = input.numel().checked_div(inputs).unwrap_or(0);
    if signal.is_empty() || input.numel() != batch * inputs || output.numel() != batch * outputs {
        return Err(Error::runtime(format!(
            "mojo: fft of {signal:?} signals got {} input and {} output elements",
            input.numel(),
            output.numel()
        )));
    }
    if batch == 0 {
        return Ok(());
    }
    let transform = Fft {
        dtype,
        kind,
        forward,
        signal,
        batch,
        input: input.address,
        output: output.address,
    };
    if !crate::runtime::backend()?.fft(device, &transform)? {
        return Err(Error::runtime(format!(
            "mojo: the device's FFT library declined a {kind:?} transform of {:?}",
            transform.signal
        )));
    }
    Ok(())
}

//! Out-of-range indices found on the device. Index kernels never touch memory outside a
//! tensor: on a bad index they set their device's fault word instead, and the next
//! synchronising call (a read to the host, `synchronize`) reports the error that the op's CPU
//! kernel raises and clears the word, as CUDA reports device-side asserts.

use parking_lot::Mutex;

use crate::error::{Error, ErrorKind, Result};
use crate::runtime::backend;

/// One device's fault word and the report for the first launch since the last check.
#[derive(Default)]
struct Faults {
    word: Option<u64>,
    pending: Option<Error>,
}

static FAULTS: Mutex<Vec<Faults>> = Mutex::new(Vec::new());

/// The address of `device`'s fault word (an int32, zero while no fault is pending), for a
/// launch that raises `kind` with `message` if it finds a bad index.
pub fn word(device: usize, kind: ErrorKind, message: String) -> Result<u64> {
    let mut faults = FAULTS.lock();
    if faults.len() <= device {
        faults.resize_with(device + 1, Faults::default);
    }
    let entry = &mut faults[device];
    let address = match entry.word {
        Some(address) => address,
        None => {
            let b = backend()?;
            let address = b.allocate(device, 4)?;
            b.write(address, &[0; 4])?;
            entry.word = Some(address);
            address
        }
    };
    entry.pending.get_or_insert(Error { kind, message });
    Ok(address)
}

/// Raises the pending fault of `device`, if a launch since the last check found a bad index.
pub fn check(device: usize) -> Result<()> {
    let (address, report) = {
        let mut faults = FAULTS.lock();
        match faults.get_mut(device) {
            Some(Faults {
                word: Some(address),
                pending,
            }) if pending.is_some() => (*address, pending.take()),
            _ => return Ok(()),
        }
    };
    let b = backend()?;
    let mut bytes = [0u8; 4];
    b.read(address, &mut bytes)?;
    if bytes == [0; 4] {
        return Ok(());
    }
    b.write(address, &[0; 4])?;
    Err(report.unwrap_or_else(|| Error::index("index out of range")))
}

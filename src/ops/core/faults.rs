//! Out-of-range indices found on the device. Index kernels never touch memory outside a
//! tensor: on a bad index they set their device's fault word instead, and the next
//! synchronising call (a read to the host, `synchronize`) reports the error that the op's CPU
//! kernel raises and clears the word, as CUDA reports device-side asserts.

use parking_lot::Mutex;

use crate::error::{Error, ErrorKind, Result};
use crate::runtime::backend;

/// One device's fault word and the reports of the launches since the last check: a launch
/// that finds a bad index stores its report's tag (its position in `reports`, plus one) in
/// the word unless an earlier launch already stored one, so the first faulting launch is
/// the one reported, whatever ran between it and the check.
#[derive(Default)]
struct Faults {
    word: Option<u64>,
    reports: Vec<Error>,
}

static FAULTS: Mutex<Vec<Faults>> = Mutex::new(Vec::new());

/// The address of `device`'s fault word (a u32, zero while no fault is pending) and the tag
/// a launch stores there if it finds a bad index, which raises `kind` with `message`.
pub fn word(device: usize, kind: ErrorKind, message: String) -> Result<(u64, u32)> {
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
    let report = Error { kind, message };
    // Reports repeat (one op in a loop): each distinct one is kept once per check.
    let position = match entry.reports.iter().rposition(|r| *r == report) {
        Some(position) => position,
        None => {
            entry.reports.push(report);
            entry.reports.len() - 1
        }
    };
    Ok((address, position as u32 + 1))
}

/// Raises the fault of the first launch since the last check that found a bad index.
pub fn check(device: usize) -> Result<()> {
    let (address, reports) = {
        let mut faults = FAULTS.lock();
        match faults.get_mut(device) {
            Some(Faults {
                word: Some(address),
                reports,
            }) if !reports.is_empty() => (*address, std::mem::take(reports)),
            _ => return Ok(()),
        }
    };
    let b = backend()?;
    let mut bytes = [0u8; 4];
    b.read(address, &mut bytes)?;
    let tag = u32::from_le_bytes(bytes) as usize;
    if tag == 0 {
        return Ok(());
    }
    b.write(address, &[0; 4])?;
    Err(reports
        .get(tag - 1)
        .cloned()
        .unwrap_or_else(|| Error::index("index out of range")))
}

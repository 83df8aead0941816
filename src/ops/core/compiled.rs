//! `mojo::run_compiled`: launches a kernel that `torch.compile` generated (a
//! [`FusedKernel`] program) on its tensors.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use parking_lot::RwLock;

use crate::error::{Error, ErrorKind, Result};
use crate::kernels::fused::{FusedKernel, INVOCATION_STEPS};
use crate::kernels::printer::GROUP_SIZE;
use crate::kernels::Kernel;
use crate::ops::core::call::Call;
use crate::ops::core::faults;
use crate::ops::core::launch::{common_device, submit, word};
use crate::ops::core::registry::OpFn;
use crate::runtime::backend;

pub const OPS: &[(&str, OpFn)] = &[("mojo::run_compiled", run_compiled)];

/// The schemas of this file's `mojo::` ops, defined by `csrc/dispatch.cpp`.
pub const SCHEMAS: &[&str] =
    &["run_compiled(int program, Tensor(a!)[] tensors, SymInt[] numbers, Scalar[] scalars) -> ()"];

/// The longest reduction a compiled kernel takes per output: its group's invocations walk
/// it in steps of a group.
pub const MAX_REDUCED: i64 = GROUP_SIZE as i64 * INVOCATION_STEPS as i64;

/// The longest row a reduction kernel gives one invocation on devices that prefer direct
/// loads ([`FusedKernel::each`]); longer rows are split across a group.
const EACH_ROW: i64 = 8192;

/// Whether one invocation may reduce rows of `rnumel` elements of `fused` alone within the
/// software device's loop budget.
pub fn rows_fit(fused: &FusedKernel, rnumel: i64) -> bool {
    !fused.loops() && fused.row_steps(rnumel.max(0) as u64) <= INVOCATION_STEPS
}

/// A parsed program and what each launch asks of it, found once.
struct Program {
    /// Its kernel as a group's invocations reduce each output together.
    grouped: Arc<Kernel>,
    /// Its kernel as each invocation reduces whole rows alone ([`FusedKernel::each`]).
    each: Arc<Kernel>,
    /// Its kernel as each invocation reduces whole rows alone four elements at a time, where
    /// it has one ([`FusedKernel::row_fours`]) and stores no elements under four bytes.
    each_fours: Option<Arc<Kernel>>,
    /// Its kernel taking four elements per work item ([`FusedKernel::by_fours`]) and the
    /// tensors that kernel moves four at a time, where it has one.
    fours: Option<(Arc<Kernel>, Vec<usize>)>,
}

/// The programs loaded so far: a compiled graph loads each once and launches it by its
/// index, so a launch neither copies nor hashes the program's text.
#[derive(Default)]
struct Programs {
    loaded: Vec<Arc<Program>>,
    by_text: HashMap<String, usize>,
}

fn programs() -> &'static RwLock<Programs> {
    static PROGRAMS: OnceLock<RwLock<Programs>> = OnceLock::new();
    PROGRAMS.get_or_init(Default::default)
}

/// Parses `text` (once per text) and returns the handle `run_compiled` launches it by.
pub fn load_program(text: &str) -> Result<i64> {
    if let Some(&handle) = programs().read().by_text.get(text) {
        return Ok(handle as i64);
    }
    let fused = FusedKernel::parse(text)?;
    let fours = fused.fours().map(|tensors| {
        let kernel = FusedKernel {
            by_fours: true,
            ..fused.clone()
        };
        (Arc::new(Kernel::Fused(Arc::new(kernel))), tensors)
    });
    let each_fours = (fused.row_fours() && !fused.stores_narrow()).then(|| {
        Arc::new(Kernel::Fused(Arc::new(FusedKernel {
            each: true,
            by_fours: true,
            ..fused.clone()
        })))
    });
    let program = Program {
        fours,
        each_fours,
        each: Arc::new(Kernel::Fused(Arc::new(FusedKernel {
            each: true,
            ..fused.clone()
        }))),
        grouped: Arc::new(Kernel::Fused(Arc::new(fused))),
    };
    let mut programs = programs().write();
    if let Some(&handle) = programs.by_text.get(text) {
        return Ok(handle as i64);
    }
    let handle = programs.loaded.len();
    programs.loaded.push(Arc::new(program));
    programs.by_text.insert(text.to_string(), handle);
    Ok(handle as i64)
}

/// The program `handle` names.
fn program(handle: i64) -> Result<Arc<Program>> {
    let programs = programs().read();
    usize::try_from(handle)
        .ok()
        .and_then(|h| programs.loaded.get(h).cloned())
        .ok_or_else(|| {
            Error::value(format!(
                "mojo: run_compiled got program {handle}, which no load_compiled_program returned"
            ))
        })
}

/// Refuses a reduction with rows of `rnumel` elements that its invocations could not walk
/// within the software device's loop budget.
fn check_reduction(fused: &FusedKernel, rnumel: i64) -> Result<()> {
    if rnumel > MAX_REDUCED {
        return Err(Error::not_implemented(format!(
            "mojo: a compiled reduction of {rnumel} elements per output (more than {MAX_REDUCED}) \
             is not supported yet; Inductor splits most such reductions, run this one eagerly"
        )));
    }
    if fused.loops() && rnumel > i64::from(GROUP_SIZE) {
        // Each invocation would walk several elements, each a loop of its own: more steps
        // than the software device lets one invocation take.
        return Err(Error::not_implemented(format!(
            "mojo: a compiled reduction of {rnumel} elements per output over a looping special \
             function (a polynomial, igamma) is not supported yet; run it eagerly"
        )));
    }
    let group_steps = fused.row_steps((rnumel.max(0) as u64).div_ceil(u64::from(GROUP_SIZE)));
    if !fused.loops() && group_steps > INVOCATION_STEPS {
        return Err(Error::not_implemented(format!(
            "mojo: a compiled reduction of {rnumel} elements per output whose functions loop \
             (logarithms, powers, float64 functions) takes {group_steps} loop steps per \
             invocation, more than {INVOCATION_STEPS}; run it eagerly"
        )));
    }
    // Reduction parts always reduce rows alone (`rnumel` is then their longest row).
    if fused.has_parts() && !rows_fit(fused, rnumel) {
        return Err(Error::not_implemented(format!(
            "mojo: a compiled kernel of reduction parts with rows of {rnumel} elements takes \
             more than {INVOCATION_STEPS} loop steps per invocation; run it eagerly"
        )));
    }
    Ok(())
}

/// `run_compiled(int program, Tensor(a!)[] tensors, SymInt[] numbers, Scalar[] scalars)`:
/// `program` a handle from [`load_program`], `numbers` `[xnumel, r0_numel, size
/// arguments...]`, `scalars` the values of the kernel's scalar arguments.
fn run_compiled(call: &mut Call) -> Result<()> {
    let program = program(call.int(0)?)?;
    let Kernel::Fused(fused) = program.grouped.as_ref() else {
        unreachable!("programs parse to fused kernels")
    };
    let tensors = call.tensors(1)?;
    let numbers = call.ints(2)?;
    let scalars = call.scalar_list(3)?;
    if tensors.len() != fused.tensors.len()
        || numbers.len() != 2 + fused.sizes
        || scalars.len() != fused.scalars.len()
    {
        return Err(Error::runtime(format!(
            "mojo: run_compiled got {} tensors, {} numbers and {} scalars for a kernel of {} \
             tensors, {} sizes and {} scalars",
            tensors.len(),
            numbers.len(),
            scalars.len(),
            fused.tensors.len(),
            fused.sizes,
            fused.scalars.len()
        )));
    }
    for (t, (tensor, &dtype)) in tensors.iter().zip(&fused.tensors).enumerate() {
        if tensor.dtype != dtype {
            return Err(Error::runtime(format!(
                "mojo: run_compiled tensor {t} is {}, the kernel reads {}",
                tensor.dtype.name(),
                dtype.name()
            )));
        }
    }
    let (xnumel, rnumel) = (numbers[0], numbers[1]);
    if xnumel <= 0 || tensors.is_empty() {
        return Ok(());
    }
    // Programs index elements with int32 arithmetic.
    let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
    if elements > i32::MAX as u64
        || (xnumel as u64).saturating_mul(rnumel.max(1) as u64) > i32::MAX as u64
    {
        return Err(Error::not_implemented(
            "mojo: compiled kernels over 2**31 elements need 64-bit indexing, not supported yet",
        ));
    }
    let refs: Vec<_> = tensors.iter().collect();
    let device = common_device(&refs)?;
    let each = fused.reduction && {
        check_reduction(fused, rnumel)?;
        fused.has_parts()
            || rnumel <= EACH_ROW && rows_fit(fused, rnumel) && backend()?.direct_loads(device)
    };
    // The form by fours where each tensor it moves four at a time starts at a multiple of
    // four elements (16 bytes of float32; then its items own the words they store).
    let fours = program.fours.as_ref().filter(|(_, moved)| {
        moved.iter().all(|&t| {
            let tensor = &tensors[t];
            tensor
                .address
                .is_multiple_of(4 * tensor.dtype.size() as u64)
        })
    });
    let kernel = match fours {
        _ if each => program.each_fours.as_ref().unwrap_or(&program.each),
        Some((kernel, _)) => kernel,
        None => &program.grouped,
    };
    let mut words = vec![
        word(xnumel, "element count")?,
        word(rnumel.max(0), "reduction size")?,
    ];
    let offset_words: Vec<usize> = (0..tensors.len()).map(|t| 2 + t).collect();
    words.resize(2 + tensors.len(), 0);
    // How many elements from each tensor's first one its view reaches (at least one:
    // kernels clamp loads to the last).
    for t in &tensors {
        let (_, end) = t.byte_range();
        let reach = (end.saturating_sub(t.address) / t.dtype.size() as u64).max(1);
        words.push(word(reach as i64, "element count")?);
    }
    for &size in &numbers[2..] {
        let v = i32::try_from(size).map_err(|_| {
            Error::not_implemented(format!(
                "mojo: size {size} needs 64-bit indexing, not supported yet"
            ))
        })?;
        words.push(v as u32);
    }
    for (value, &dtype) in scalars.iter().zip(&fused.scalars) {
        words.extend(value.words(dtype));
    }
    let mut addresses: Vec<u64> = tensors.iter().map(|t| t.address).collect();
    let mut offset_words = offset_words;
    if !fused.checks.is_empty() {
        offset_words.push(words.len());
        words.push(0);
        for message in &fused.checks {
            let (fault_word, tag) = faults::word(device, ErrorKind::Runtime, message.clone())?;
            if addresses.len() == tensors.len() {
                addresses.push(fault_word);
            }
            words.push(tag);
        }
    }
    let threads = if fused.reduction && !each {
        xnumel as u64 * u64::from(GROUP_SIZE)
    } else if fours.is_some() {
        (xnumel as u64).div_ceil(4)
    } else {
        xnumel as u64
    };
    submit(device, kernel, &addresses, words, &offset_words, threads)
}

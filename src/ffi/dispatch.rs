//! The op table across the C ABI: its size, its names, and running one op.

use std::ffi::{c_char, c_void};

use super::ffi_call;
use crate::dtype::REFUSAL;
use crate::error::Error;
use crate::ops::core::call::{Call, CreateFn, PhiloxFn, ValueArg};
use crate::ops::core::output::ResizeFn;
use crate::ops::core::registry::table;
use crate::ops::index::element_moves;

/// Number of ops in the table.
#[no_mangle]
pub extern "C" fn mojo_op_count() -> i32 {
    table().len() as i32
}

/// The schema name of op `id` (for example `add.out`), or null.
#[no_mangle]
pub extern "C" fn mojo_op_name(id: i32) -> *const c_char {
    table()
        .get(id as usize)
        .map_or(std::ptr::null(), |(name, _)| name.as_ptr())
}

/// The schemas of the ops the `mojo` library defines (`torch.ops.mojo.*`), NUL-terminated.
fn own_schemas() -> &'static [std::ffi::CString] {
    static SCHEMAS: std::sync::OnceLock<Vec<std::ffi::CString>> = std::sync::OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let lists = [
            crate::ops::core::compiled::SCHEMAS,
            crate::ops::linalg::fft::SCHEMAS,
            crate::ops::linalg::solver::SCHEMAS,
            crate::ops::distributed::SCHEMAS,
        ];
        lists
            .iter()
            .flat_map(|list| list.iter())
            .map(|schema| std::ffi::CString::new(*schema).expect("no NUL in a schema"))
            .collect()
    })
}

/// The schema of the `index`-th op the `mojo` library defines, or null past the last.
#[no_mangle]
pub extern "C" fn mojo_own_schema(index: i32) -> *const c_char {
    usize::try_from(index)
        .ok()
        .and_then(|i| own_schemas().get(i))
        .map_or(std::ptr::null(), |schema| schema.as_ptr())
}

/// The most returns an op hands back (`kMaxResults` in `csrc/mojo.h`; a `Tensor[]` result
/// is read from the created tensors instead).
const MAX_RESULTS: usize = 16;

/// Runs op `id` on `nargs` arguments; writes its returns into `results` (at most
/// [`MAX_RESULTS`]).
///
/// # Safety
/// `args` must point to `nargs` live records; `resize` and `create` must accept `ctx`;
/// `results` must hold [`MAX_RESULTS`] values.
#[no_mangle]
pub unsafe extern "C" fn mojo_run_op(
    id: i32,
    args: *const ValueArg,
    nargs: i64,
    ctx: *mut c_void,
    resize: ResizeFn,
    create: CreateFn,
    philox: PhiloxFn,
    results: *mut i32,
    count: &mut i64,
) -> i32 {
    ffi_call(|| {
        let (name, op) = table()
            .get(id as usize)
            .ok_or_else(|| Error::runtime(format!("mojo: no op {id}")))?;
        let args = if nargs == 0 {
            &[][..]
        } else {
            std::slice::from_raw_parts(args, nargs as usize)
        };
        let mut call = Call::new(args, ctx, resize, create, philox);
        element_moves::run(name, &mut call, *op).map_err(|error| name_refusal(error, name))?;
        let returned = &call.results[..call.results.len().min(MAX_RESULTS)];
        std::ptr::copy_nonoverlapping(returned.as_ptr(), results, returned.len());
        *count = returned.len() as i64;
        Ok(())
    })
}

/// Names the op in a dtype refusal (the dtype check deep in the op cannot).
pub(super) fn name_refusal(mut error: Error, name: &std::ffi::CStr) -> Error {
    if error.message.starts_with(REFUSAL) {
        let op = format!("mojo: aten::{}", name.to_string_lossy());
        error.message = error.message.replacen("mojo: this operation", &op, 1);
    }
    error
}

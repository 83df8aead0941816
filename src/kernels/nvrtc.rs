//! NVRTC, loaded at run time: compiles the CUDA C++ renderer's output to a cubin for one
//! architecture. Found through `TORCH_MOJO_BACKEND_NVRTC` (a library path, set by the Python
//! package when the `nvidia-cuda-nvrtc` wheel is installed) or the system library path.

use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::OnceLock;

use crate::error::{Error, Result};

type Program = *mut c_void;

struct Api {
    _lib: libloading::Library,
    version: unsafe extern "C" fn(*mut c_int, *mut c_int) -> c_int,
    create: unsafe extern "C" fn(
        *mut Program,
        *const c_char,
        *const c_char,
        c_int,
        *const *const c_char,
        *const *const c_char,
    ) -> c_int,
    compile: unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int,
    log_size: unsafe extern "C" fn(Program, *mut usize) -> c_int,
    log: unsafe extern "C" fn(Program, *mut c_char) -> c_int,
    cubin_size: unsafe extern "C" fn(Program, *mut usize) -> c_int,
    cubin: unsafe extern "C" fn(Program, *mut c_char) -> c_int,
    destroy: unsafe extern "C" fn(*mut Program) -> c_int,
}

// SAFETY: NVRTC's functions are thread-safe; the table is immutable after loading.
unsafe impl Send for Api {}
unsafe impl Sync for Api {}

fn load() -> std::result::Result<Api, String> {
    let candidates: Vec<String> = crate::config::config()
        .nvrtc
        .clone()
        .into_iter()
        .chain(["libnvrtc.so.13".to_string(), "libnvrtc.so".to_string()])
        .collect();
    let mut last = String::new();
    for name in candidates {
        // SAFETY: loading NVRTC runs no initialisers with preconditions.
        match unsafe { libloading::Library::new(&name) } {
            Ok(lib) => return bind(lib).map_err(|e| format!("{name}: {e}")),
            Err(e) => last = format!("{name}: {e}"),
        }
    }
    Err(last)
}

fn bind(lib: libloading::Library) -> std::result::Result<Api, libloading::Error> {
    // SAFETY: the symbol types match NVRTC's C API.
    unsafe {
        Ok(Api {
            version: *lib.get(b"nvrtcVersion\0")?,
            create: *lib.get(b"nvrtcCreateProgram\0")?,
            compile: *lib.get(b"nvrtcCompileProgram\0")?,
            log_size: *lib.get(b"nvrtcGetProgramLogSize\0")?,
            log: *lib.get(b"nvrtcGetProgramLog\0")?,
            cubin_size: *lib.get(b"nvrtcGetCUBINSize\0")?,
            cubin: *lib.get(b"nvrtcGetCUBIN\0")?,
            destroy: *lib.get(b"nvrtcDestroyProgram\0")?,
            _lib: lib,
        })
    }
}

fn api() -> std::result::Result<&'static Api, &'static str> {
    static API: OnceLock<std::result::Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(|e| e.as_str())
}

/// Whether NVRTC could be loaded.
pub fn available() -> bool {
    api().is_ok()
}

/// NVRTC's version as "major.minor".
pub fn version() -> Result<String> {
    let api = api().map_err(|e| Error::runtime(format!("mojo: NVRTC unavailable: {e}")))?;
    let (mut major, mut minor) = (0, 0);
    // SAFETY: two valid out-pointers.
    unsafe { (api.version)(&mut major, &mut minor) };
    Ok(format!("{major}.{minor}"))
}

/// Compiles `source` for `arch` (e.g. `sm_90`) and returns the cubin.
pub fn compile(source: &str, name: &str, arch: &str) -> Result<Vec<u8>> {
    let api = api().map_err(|e| Error::runtime(format!("mojo: NVRTC unavailable: {e}")))?;
    let source = CString::new(source).map_err(|_| Error::runtime("mojo: NUL in kernel source"))?;
    let name = CString::new(name).unwrap_or_default();
    let options: Vec<CString> = [format!("--gpu-architecture={arch}"), "--std=c++17".into()]
        .into_iter()
        .map(|o| CString::new(o).expect("options have no NUL"))
        .collect();
    let option_ptrs: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let mut program: Program = std::ptr::null_mut();
    // SAFETY: valid NUL-terminated strings; no headers; program is an out-pointer.
    unsafe {
        let rc = (api.create)(
            &mut program,
            source.as_ptr(),
            name.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        );
        if rc != 0 {
            return Err(Error::runtime(format!(
                "mojo: nvrtcCreateProgram failed ({rc})"
            )));
        }
        let rc = (api.compile)(program, option_ptrs.len() as c_int, option_ptrs.as_ptr());
        let result = if rc != 0 {
            let mut size = 0usize;
            (api.log_size)(program, &mut size);
            let mut log = vec![0u8; size.max(1)];
            (api.log)(program, log.as_mut_ptr() as *mut c_char);
            let log = String::from_utf8_lossy(&log)
                .trim_end_matches('\0')
                .to_string();
            Err(Error::runtime(format!(
                "mojo: NVRTC failed to compile {} for {arch}:\n{log}",
                name.to_string_lossy()
            )))
        } else {
            let mut size = 0usize;
            (api.cubin_size)(program, &mut size);
            let mut cubin = vec![0u8; size];
            (api.cubin)(program, cubin.as_mut_ptr() as *mut c_char);
            Ok(cubin)
        };
        (api.destroy)(&mut program);
        result
    }
}

//! Modules and kernel launches of the emulated driver: an image from the host compiler is
//! loaded as a shared library; a launch copies its parameters as `cuLaunchKernel` does (by
//! the sizes the kernel's signature gives) and runs the grid on the CPU when its stream
//! reaches it.

use std::ffi::c_void;
use std::path::PathBuf;

use super::compiler::IMAGE_TAG;
use super::pool::run_grid;
use crate::kernels::cache::digest;

/// Runs blocks `[first, last)` of a grid (`dims`: grid x, y, z, block x, y, z).
type RunBlocks = unsafe extern "C" fn(*mut *mut c_void, *const u32, u64, u64);
/// Writes the byte size of each parameter; returns their count.
type ParamSizes = unsafe extern "C" fn(*mut usize) -> u32;

/// A loaded image, kept for the process (as the backend keeps its modules).
pub struct Module {
    library: libloading::Library,
}

/// A kernel of a module.
pub struct Function {
    run: RunBlocks,
    sizes: Vec<usize>,
}

/// The shared library inside `image`, or None when `image` is not the host compiler's.
///
/// # Safety
/// `image` must point to readable memory holding at least its header, and the whole image
/// when the header is ours.
pub unsafe fn library_bytes<'a>(image: *const c_void) -> Option<&'a [u8]> {
    let bytes = image as *const u8;
    // SAFETY: per the contract.
    let head = unsafe { std::slice::from_raw_parts(bytes, 16) };
    if &head[..8] != IMAGE_TAG {
        return None;
    }
    let len = u64::from_le_bytes(head[8..].try_into().expect("8 bytes")) as usize;
    // SAFETY: per the contract, the image holds `len` bytes after its header.
    Some(unsafe { std::slice::from_raw_parts(bytes.add(16), len) })
}

impl Module {
    /// Loads `library` (written to a temporary file for the dynamic loader). Each load has a
    /// file of its own: two threads loading the same kernel wrote one file, one truncating it
    /// while the other's loader read or had mapped it (an invalid image, or a bus error).
    pub fn load(library: &[u8]) -> Result<Module, String> {
        static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "torch-mojo-backend-emulation-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let load = LOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path: PathBuf = dir.join(format!("module-{:032x}-{load}.so", digest(library)));
        std::fs::write(&path, library).map_err(|e| e.to_string())?;
        // SAFETY: the library is one the host compiler built from a kernel and the prelude;
        // its initialisers only set up thread-local storage.
        let loaded = unsafe { libloading::Library::new(&path) }.map_err(|e| e.to_string());
        let _ = std::fs::remove_file(&path);
        Ok(Module { library: loaded? })
    }

    /// The kernel `name`, or None when the module has none of that name.
    pub fn function(&self, name: &str) -> Option<Function> {
        // SAFETY: the symbols have the types the prelude's entry points give them.
        unsafe {
            let run: RunBlocks = *self
                .library
                .get(format!("mojo_emu_run_{name}\0").as_bytes())
                .ok()?;
            let params: ParamSizes = *self
                .library
                .get(format!("mojo_emu_params_{name}\0").as_bytes())
                .ok()?;
            let mut sizes = vec![0usize; 64];
            let count = params(sizes.as_mut_ptr()) as usize;
            sizes.truncate(count);
            Some(Function { run, sizes })
        }
    }
}

/// A launch's parameters, copied at launch time, each 16-byte aligned.
pub struct Parameters {
    storage: Vec<u128>,
    offsets: Vec<usize>,
}

impl Function {
    /// Copies the values `params` points to, as many and as large as the kernel's signature.
    ///
    /// # Safety
    /// `params` must hold one valid pointer per kernel parameter, each to a value of its type.
    pub unsafe fn copy_parameters(&self, params: *mut *mut c_void) -> Parameters {
        let mut offsets = Vec::with_capacity(self.sizes.len());
        let mut total = 0;
        for size in &self.sizes {
            offsets.push(total);
            total += size.div_ceil(16) * 16;
        }
        let mut storage = vec![0u128; total / 16 + 1];
        let base = storage.as_mut_ptr() as *mut u8;
        for (i, (&size, &offset)) in self.sizes.iter().zip(&offsets).enumerate() {
            // SAFETY: per the contract; the storage holds every parameter.
            unsafe {
                std::ptr::copy_nonoverlapping(*params.add(i) as *const u8, base.add(offset), size);
            }
        }
        Parameters { storage, offsets }
    }

    /// Runs the grid with `params` on the CPU; returns when every block has finished.
    pub fn run(&self, grid: [u32; 3], block: [u32; 3], mut params: Parameters) {
        let base = params.storage.as_mut_ptr() as *mut u8;
        let pointers: Vec<usize> = params.offsets.iter().map(|&o| base as usize + o).collect();
        let dims = [grid[0], grid[1], grid[2], block[0], block[1], block[2]];
        let blocks = grid.iter().map(|&g| u64::from(g)).product::<u64>();
        let threads = block.iter().map(|&b| u64::from(b)).product::<u64>();
        let run = self.run;
        run_grid(blocks, threads, &|first, last| {
            // Each range gets its own copy of the pointer array; the values are shared and
            // only read.
            let mut pointers: Vec<*mut c_void> =
                pointers.iter().map(|&p| p as *mut c_void).collect();
            // SAFETY: the parameters match the kernel's signature; the blocks are in range.
            unsafe { run(pointers.as_mut_ptr(), dims.as_ptr(), first, last) };
        });
    }
}

//! Every environment variable the backend reads, read once, on first use (the Python package
//! sets the library paths before anything here runs). Mesa's own variables, which the
//! software device sets for Mesa, stay with it (`runtime::wgpu`).

use std::path::PathBuf;
use std::sync::OnceLock;

/// The backend's settings.
#[derive(Debug)]
pub struct Config {
    /// `TORCH_MOJO_BACKEND_PLATFORM`: "cuda", "wgpu", "cuda-emulated" or empty (choose).
    pub platform: String,
    /// `TORCH_MOJO_BACKEND_SOFTWARE=1`: the software device (Mesa lavapipe) is admitted.
    pub software: bool,
    /// `TORCH_MOJO_BACKEND_SOFTWARE_DEVICES`: how many software (or emulated) devices, ≥ 1.
    pub software_devices: usize,
    /// `TORCH_MOJO_BACKEND_WITHOUT_F64=1`: wgpu devices leave out shader-f64, as Apple GPUs.
    pub without_f64: bool,
    /// `TORCH_MOJO_BACKEND_STAGED_TRANSFERS=1`: the software device stages host transfers
    /// through staging buffers as a GPU does, instead of addressing its memory directly.
    pub staged_transfers: bool,
    /// `TORCH_MOJO_BACKEND_WIDE=0`: the software device runs every launch on its queue
    /// thread, large ones included (see `runtime::wgpu::wide`).
    pub wide: bool,
    /// `TORCH_MOJO_BACKEND_MAX_BINDING`: caps the wgpu device's largest kernel binding
    /// (bytes), so that tests reach the binding windows with small tensors.
    pub max_binding: Option<u64>,
    /// `TORCH_MOJO_BACKEND_TRACE=0` silences the kernel build lines.
    pub trace: bool,
    /// `TORCH_MOJO_BACKEND_SHADOW_NVRTC=1`: every kernel's CUDA rendering is also compiled.
    pub shadow_nvrtc: bool,
    /// `TORCH_MOJO_BACKEND_NVRTC`: NVRTC's path (set by the Python package from its wheel).
    pub nvrtc: Option<String>,
    /// `TORCH_MOJO_BACKEND_CUBLAS`: cuBLAS's path (set by the Python package from its wheel).
    pub cublas: Option<PathBuf>,
    /// `TORCH_MOJO_BACKEND_CUFFT`: cuFFT's path (set by the Python package from its wheel).
    pub cufft: Option<PathBuf>,
    /// `TORCH_MOJO_BACKEND_CUSOLVER`: cuSOLVER's path (set by the Python package from its wheel).
    pub cusolver: Option<PathBuf>,
    /// `TORCH_MOJO_BACKEND_NCCL`: NCCL's path (set by the Python package from its wheel).
    pub nccl: Option<PathBuf>,
    /// `TORCH_MOJO_BACKEND_RNG_SMS`: the multiprocessor count of the emulated CUDA RNG grid.
    pub rng_multiprocessors: Option<u64>,
    /// The kernel cache: `TORCH_MOJO_BACKEND_CACHE_DIR`, else `$XDG_CACHE_HOME` or
    /// `~/.cache`, `/torch-mojo-backend`.
    pub cache_dir: PathBuf,
    /// `TORCH_MOJO_BACKEND_EMULATED_MEMORY` (bytes, or with K/M/G): the emulated GPU's memory.
    pub emulated_memory: Option<String>,
    /// `TORCH_MOJO_BACKEND_EMULATED_FAULT=launch:N`: the emulated driver fails launch N.
    pub emulated_failing_launch: Option<u64>,
    /// `CXX`: the compiler of the emulated CUDA kernels (default `c++`).
    pub cxx: String,
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn flag(name: &str) -> bool {
    var(name).is_some_and(|v| v == "1")
}

fn number<T: std::str::FromStr>(name: &str) -> Option<T> {
    var(name).and_then(|v| v.parse().ok())
}

impl Config {
    fn read() -> Config {
        let cache_dir = var("TORCH_MOJO_BACKEND_CACHE_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                let base = std::env::var_os("XDG_CACHE_HOME")
                    .map(PathBuf::from)
                    .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
                    .unwrap_or_else(std::env::temp_dir);
                base.join("torch-mojo-backend")
            });
        Config {
            platform: var("TORCH_MOJO_BACKEND_PLATFORM").unwrap_or_default(),
            software: flag("TORCH_MOJO_BACKEND_SOFTWARE"),
            software_devices: number("TORCH_MOJO_BACKEND_SOFTWARE_DEVICES")
                .unwrap_or(1)
                .max(1),
            without_f64: flag("TORCH_MOJO_BACKEND_WITHOUT_F64"),
            staged_transfers: flag("TORCH_MOJO_BACKEND_STAGED_TRANSFERS"),
            wide: var("TORCH_MOJO_BACKEND_WIDE").is_none_or(|v| v != "0"),
            max_binding: number("TORCH_MOJO_BACKEND_MAX_BINDING").filter(|&b: &u64| b >= 256),
            trace: var("TORCH_MOJO_BACKEND_TRACE").is_none_or(|v| v != "0"),
            shadow_nvrtc: flag("TORCH_MOJO_BACKEND_SHADOW_NVRTC"),
            nvrtc: var("TORCH_MOJO_BACKEND_NVRTC"),
            cublas: var("TORCH_MOJO_BACKEND_CUBLAS").map(PathBuf::from),
            cufft: var("TORCH_MOJO_BACKEND_CUFFT").map(PathBuf::from),
            cusolver: var("TORCH_MOJO_BACKEND_CUSOLVER").map(PathBuf::from),
            nccl: var("TORCH_MOJO_BACKEND_NCCL").map(PathBuf::from),
            rng_multiprocessors: number("TORCH_MOJO_BACKEND_RNG_SMS").filter(|&v: &u64| v > 0),
            cache_dir,
            emulated_memory: var("TORCH_MOJO_BACKEND_EMULATED_MEMORY"),
            emulated_failing_launch: var("TORCH_MOJO_BACKEND_EMULATED_FAULT")
                .and_then(|v| v.strip_prefix("launch:")?.parse().ok()),
            cxx: var("CXX").unwrap_or_else(|| "c++".into()),
        }
    }
}

/// The settings, read on first use.
pub fn config() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(Config::read)
}

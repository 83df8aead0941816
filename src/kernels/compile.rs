//! Compiled CUDA kernels through the disk cache, and the shadow compile: with
//! `TORCH_MOJO_BACKEND_SHADOW_NVRTC=1`, every kernel the wgpu backend builds is also rendered
//! to CUDA C++ and compiled by NVRTC for sm_80 and sm_90, so that the CUDA renderer is checked
//! on machines without a GPU.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

use super::cache::{digest, DiskCache};
use super::{cuda, nvrtc, Kernel};
use crate::error::Result;

/// Architectures the shadow compile targets (A100 and H100/H200).
pub const SHADOW_ARCHS: [&str; 2] = ["sm_80", "sm_90"];

/// Counters of CUDA compilation work in this process.
#[derive(Default)]
pub struct CompileStats {
    pub compiled: AtomicU64,
    pub disk_hits: AtomicU64,
    pub failures: AtomicU64,
}

pub fn stats() -> &'static CompileStats {
    static STATS: OnceLock<CompileStats> = OnceLock::new();
    STATS.get_or_init(CompileStats::default)
}

fn disk() -> &'static DiskCache {
    static DISK: OnceLock<DiskCache> = OnceLock::new();
    DISK.get_or_init(|| DiskCache::new(crate::config::config().cache_dir.clone()))
}

/// Whether build lines go to stderr (`TORCH_MOJO_BACKEND_TRACE=0` silences them).
pub fn trace_enabled() -> bool {
    crate::config::config().trace
}

/// A kernel's name with a digest of its source, unique across kernels in traces.
pub fn traced_name(kernel: &Kernel, source: &str) -> String {
    format!(
        "{} [{:08x}]",
        kernel.name(),
        digest(source.as_bytes()) as u32
    )
}

/// What turns the CUDA renderer's source into a binary for `cuModuleLoadData`: NVRTC, or the
/// host compiler of the emulated driver.
pub trait CudaCompiler: Send + Sync {
    /// The compiler's name and version; part of every cached binary's key.
    fn version(&self) -> Result<String>;
    /// The binary of `source` (whose kernel is `name`) for `arch`.
    fn compile(&self, source: &str, name: &str, arch: &str) -> Result<Vec<u8>>;
}

/// NVRTC: cubins for a GPU architecture.
pub struct Nvrtc;

impl CudaCompiler for Nvrtc {
    fn version(&self) -> Result<String> {
        nvrtc::version().map(|v| format!("NVRTC {v}"))
    }

    fn compile(&self, source: &str, name: &str, arch: &str) -> Result<Vec<u8>> {
        nvrtc::compile(source, name, arch)
    }
}

/// The binary of `kernel` for `arch` by `compiler`, from the disk cache or compiled (and
/// stored).
pub fn cuda_binary(kernel: &Kernel, arch: &str, compiler: &dyn CudaCompiler) -> Result<Vec<u8>> {
    let source = cuda::render(kernel);
    let version = compiler.version()?;
    let source_digest = format!("{:032x}", digest(source.as_bytes()));
    let key = [
        "cuda",
        &source_digest,
        env!("CARGO_PKG_VERSION"),
        arch,
        &version,
    ];
    if let Some(binary) = disk().get(&key) {
        stats().disk_hits.fetch_add(1, Ordering::Relaxed);
        if trace_enabled() {
            // Built for this process from the cache: traced too, so that the trace lists every
            // kernel a process builds, warm cache or cold.
            eprintln!(
                "built {} for {arch} ({version}) from the disk cache",
                traced_name(kernel, &source)
            );
        }
        return Ok(binary);
    }
    let start = Instant::now();
    let binary = compiler
        .compile(&source, &kernel.name(), arch)
        .inspect_err(|_| {
            stats().failures.fetch_add(1, Ordering::Relaxed);
        })?;
    stats().compiled.fetch_add(1, Ordering::Relaxed);
    if trace_enabled() {
        eprintln!(
            "built {} for {arch} ({version}) in {} ms",
            traced_name(kernel, &source),
            start.elapsed().as_millis()
        );
    }
    disk().put(&key, &binary);
    Ok(binary)
}

/// Whether the shadow compile is on (and NVRTC loadable).
pub fn shadow_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| crate::config::config().shadow_nvrtc && nvrtc::available())
}

/// Compiles `kernel`'s CUDA rendering for every shadow architecture when the shadow compile
/// is on; a compile error is returned (and fails the op that needed the kernel).
pub fn shadow_compile(kernel: &Kernel) -> Result<()> {
    if shadow_enabled() {
        for arch in SHADOW_ARCHS {
            cuda_binary(kernel, arch, &Nvrtc)?;
        }
    }
    Ok(())
}

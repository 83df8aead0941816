//! The emulated driver's kernel compiler: the CUDA renderer's source, after the host prelude,
//! built by the host C++ compiler (`$CXX`, else `c++`) into a shared library, wrapped as the
//! image `cuModuleLoadData` takes. Images are cached on disk like NVRTC's cubins.

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::prelude::{entry_points, COOPERATIVE, HOST_PRELUDE};
use crate::error::{Error, Result};
use crate::kernels::cache::digest;
use crate::kernels::compile::CudaCompiler;

/// The first bytes of an image: a tag, then the library's length (u64, little-endian).
pub const IMAGE_TAG: &[u8; 8] = b"MOJOEMU1";

pub struct HostCompiler {
    version: OnceLock<std::result::Result<String, String>>,
}

fn compiler_command() -> String {
    crate::config::config().cxx.clone()
}

/// The names of the `__global__` functions in `source`.
fn kernel_names(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in source.match_indices("__global__") {
        let mut rest = &source[at + "__global__".len()..];
        while let Some(open) = rest.find('(') {
            let name = rest[..open]
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .next()
                .unwrap_or_default();
            if name == "__launch_bounds__" {
                rest = &rest[open + 1..];
                rest = &rest[rest.find(')').map_or(rest.len(), |c| c + 1)..];
                continue;
            }
            names.push(name.to_string());
            break;
        }
    }
    names
}

impl HostCompiler {
    pub fn new() -> Self {
        HostCompiler {
            version: OnceLock::new(),
        }
    }
}

impl CudaCompiler for HostCompiler {
    /// The host compiler's version line and a digest of the prelude.
    fn version(&self) -> Result<String> {
        self.version
            .get_or_init(|| {
                let out = Command::new(compiler_command())
                    .arg("--version")
                    .output()
                    .map_err(|e| format!("cannot run {}: {e}", compiler_command()))?;
                let line = String::from_utf8_lossy(&out.stdout)
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                Ok(format!(
                    "emulated ({line}, prelude {:08x})",
                    digest(HOST_PRELUDE.as_bytes()) as u32
                ))
            })
            .clone()
            .map_err(|e| Error::runtime(format!("mojo: the CUDA emulation's compiler: {e}")))
    }

    fn compile(&self, source: &str, name: &str, _arch: &str) -> Result<Vec<u8>> {
        let mut full = String::new();
        if source.contains("__syncthreads") {
            full += COOPERATIVE;
        }
        full += HOST_PRELUDE;
        full += source;
        for kernel in kernel_names(source) {
            full += &entry_points(&kernel);
        }
        let dir = std::env::temp_dir().join(format!(
            "torch-mojo-backend-emulation-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).map_err(|e| Error::runtime(format!("mojo: {e}")))?;
        let output = dir.join(format!(
            "{:016x}-{:?}.so",
            digest(full.as_bytes()),
            std::thread::current().id()
        ));
        let mut child = Command::new(compiler_command())
            .args(["-std=c++17", "-O2", "-fPIC", "-shared", "-w"])
            // GPU semantics: integers wrap, pointers of any type alias, no contraction.
            .args(["-fwrapv", "-fno-strict-aliasing", "-ffp-contract=off"])
            .args(["-x", "c++", "-", "-o"])
            .arg(&output)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| Error::runtime(format!("mojo: cannot run {}: {e}", compiler_command())))?;
        let written = child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(full.as_bytes());
        let result = child
            .wait_with_output()
            .map_err(|e| Error::runtime(format!("mojo: {e}")))?;
        if written.is_err() || !result.status.success() {
            return Err(Error::runtime(format!(
                "mojo: the host compiler failed to build {name} for the CUDA emulation:\n{}",
                String::from_utf8_lossy(&result.stderr)
            )));
        }
        let library = std::fs::read(&output).map_err(|e| Error::runtime(format!("mojo: {e}")));
        let _ = std::fs::remove_file(&output);
        let library = library?;
        let mut image = IMAGE_TAG.to_vec();
        image.extend_from_slice(&(library.len() as u64).to_le_bytes());
        image.extend_from_slice(&library);
        Ok(image)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_names_skip_launch_bounds() {
        let source = "extern \"C\" __global__ void __launch_bounds__(64) mojo_kernel(Words p) {}\n\
                      __global__ void other(int x) {}";
        assert_eq!(kernel_names(source), ["mojo_kernel", "other"]);
    }
}

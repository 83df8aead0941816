//! Compiled compute pipelines of one device, keyed by kernel and binding slots.

use std::collections::HashMap;
use std::time::Instant;

use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::kernels::compile::{shadow_compile, trace_enabled, traced_name};
use crate::kernels::wgsl::{self, Bindings};
use crate::kernels::Kernel;

/// Pipelines by kernel, then by bindings: a lookup borrows both, so the hot path clones no
/// kernel description.
type Table = HashMap<Kernel, HashMap<Bindings, wgpu::ComputePipeline>>;

/// The pipelines built so far on one device.
pub struct PipelineCache {
    device_name: String,
    built: Mutex<Table>,
}

impl PipelineCache {
    pub fn new(device_name: String) -> Self {
        PipelineCache {
            device_name,
            built: Mutex::new(HashMap::new()),
        }
    }

    /// The pipeline for `kernel` bound as `bindings`, rendered and built on first use.
    pub fn get(
        &self,
        device: &wgpu::Device,
        kernel: &Kernel,
        bindings: &Bindings,
    ) -> Result<wgpu::ComputePipeline> {
        if let Some(p) = self
            .built
            .lock()
            .get(kernel)
            .and_then(|by_bindings| by_bindings.get(bindings))
        {
            return Ok(p.clone());
        }
        shadow_compile(kernel)?;
        let start = Instant::now();
        let f64 = device.features().contains(wgpu::Features::SHADER_F64);
        let source = wgsl::render(kernel, bindings, f64);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(source.as_str().into()),
        });
        let label = traced_name(kernel, &source);
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&label),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(Error::runtime(format!(
                "mojo: kernel {} failed to compile: {e}\n{source}",
                kernel.name()
            )));
        }
        if trace_enabled() {
            eprintln!(
                "built {} for {} in {} ms",
                label,
                self.device_name,
                start.elapsed().as_millis()
            );
        }
        self.built
            .lock()
            .entry(kernel.clone())
            .or_default()
            .insert(bindings.clone(), pipeline.clone());
        Ok(pipeline)
    }
}

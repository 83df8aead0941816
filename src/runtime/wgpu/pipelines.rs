//! Compiled compute pipelines of one device, keyed by kernel and binding slots.

use std::collections::HashMap;
use std::time::Instant;

use parking_lot::Mutex;

use crate::error::{Error, Result};
use crate::kernels::compile::{shadow_compile, trace_enabled, traced_name};
use crate::kernels::wgsl::{self, Bindings};
use crate::kernels::Kernel;
use crate::runtime::fast_hash::FastMap;

/// Pipelines by kernel, then by bindings: a lookup borrows both, so the hot path clones no
/// kernel description.
type Table = FastMap<Kernel, FastMap<Bindings, Built>>;

/// A pipeline and the layout of its bind group.
pub type Built = (wgpu::ComputePipeline, wgpu::BindGroupLayout);

/// The pipelines built so far on one device, and the bind group layouts they share.
pub struct PipelineCache {
    device_name: String,
    /// Whether the device is a CPU (see `wgsl::Target`).
    cpu: bool,
    built: Mutex<Table>,
    layouts: Mutex<HashMap<u32, (wgpu::BindGroupLayout, wgpu::PipelineLayout)>>,
}

/// Immediate data per launch: the index of its first word in the arguments buffer. (Not a
/// dynamic offset: lavapipe copies a descriptor set per bind with dynamic offsets, two
/// system calls per launch.)
pub const IMMEDIATE_BYTES: u32 = 4;

impl PipelineCache {
    pub fn new(device_name: String, cpu: bool) -> Self {
        PipelineCache {
            device_name,
            cpu,
            built: Mutex::new(FastMap::default()),
            layouts: Mutex::new(HashMap::new()),
        }
    }

    /// The layout of `count` bindings: binding 0 the arguments buffer, whose words a launch
    /// reads from the word its immediate data names (so a bind group outlives the batch whose
    /// words it reads), the others storage buffers. Every kernel with that many bindings
    /// shares it, and so can share bind groups.
    pub fn layout(
        &self,
        device: &wgpu::Device,
        count: u32,
    ) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout) {
        self.layouts
            .lock()
            .entry(count)
            .or_insert_with(|| {
                let entry = |binding: u32| wgpu::BindGroupLayoutEntry {
                    binding,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Storage {
                            read_only: binding == 0,
                        },
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                };
                let entries: Vec<_> = (0..count).map(entry).collect();
                let group = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: None,
                    entries: &entries,
                });
                let pipeline = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: None,
                    bind_group_layouts: &[Some(&group)],
                    immediate_size: IMMEDIATE_BYTES,
                });
                (group, pipeline)
            })
            .clone()
    }

    /// The pipeline for `kernel` bound as `bindings` and its bind group layout, rendered and
    /// built on first use.
    pub fn get(
        &self,
        device: &wgpu::Device,
        kernel: &Kernel,
        bindings: &Bindings,
    ) -> Result<Built> {
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
        let target = wgsl::Target {
            f64: device.features().contains(wgpu::Features::SHADER_F64),
            cpu: self.cpu,
        };
        let source = wgsl::render(kernel, bindings, target);
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(source.as_str().into()),
        });
        let label = traced_name(kernel, &source);
        let count = bindings.windows.iter().sum::<u32>() + 1;
        let (group_layout, layout) = self.layout(device, count);
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(&label),
            layout: Some(&layout),
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
            .insert(bindings.clone(), (pipeline.clone(), group_layout.clone()));
        Ok((pipeline, group_layout))
    }
}

//! Sliding blocks: `im2col` (`nn.Unfold`) and `col2im` (`nn.Fold`), each the other's backward,
//! and the backward of `Tensor.unfold` (windows along one dimension).
//! For a fixed kernel tap the blocks read distinct image positions, so both are one strided
//! copy (`im2col`) or one in-place add (`col2im`) per tap over the positions whose source
//! lies inside the image; positions in the padding stay zero. Deterministic, no atomics.

use crate::error::{Error, Result};
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::call::{Call, Dest};
use crate::ops::core::launch::run_map;
use crate::ops::core::registry::OpFn;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::tensor::TensorRef;
use crate::ops::shape::copy::{copy, fill};
use smallvec::smallvec;
use std::ops::Add;

pub const OPS: &[(&str, OpFn)] = &[
    ("im2col", |c| im2col(c, Dest::New)),
    ("im2col.out", |c| im2col(c, Dest::Arg(5))),
    ("col2im", |c| col2im(c, Dest::New)),
    ("col2im.out", |c| col2im(c, Dest::Arg(6))),
    ("unfold_backward", unfold_backward),
];

/// Kernel size, dilation, padding and stride, two each (height, width).
struct Blocks {
    kernel: [i64; 2],
    dilation: [i64; 2],
    padding: [i64; 2],
    stride: [i64; 2],
}

impl Blocks {
    fn read(call: &Call, at: usize) -> Result<Self> {
        let pair = |i: usize, name: &str| -> Result<[i64; 2]> {
            let v = call.ints(at + i)?;
            match v[..] {
                [a, b] => Ok([a, b]),
                _ => Err(Error::runtime(format!(
                    "It is expected {name} equals to 2, but got size {}",
                    v.len()
                ))),
            }
        };
        let b = Blocks {
            kernel: pair(0, "kernel_size")?,
            dilation: pair(1, "dilation")?,
            padding: pair(2, "padding")?,
            stride: pair(3, "stride")?,
        };
        let positive = |v: [i64; 2], name: &str, min: i64| {
            if v[0] < min || v[1] < min {
                return Err(Error::runtime(format!(
                    "{name} should be {}, but got {name}_height: {} {name}_width: {}",
                    if min > 0 {
                        "greater than zero"
                    } else {
                        "non-negative"
                    },
                    v[0],
                    v[1]
                )));
            }
            Ok(())
        };
        positive(b.kernel, "kernel size", 1)?;
        positive(b.dilation, "dilation", 1)?;
        positive(b.stride, "stride", 1)?;
        positive(b.padding, "padding", 0)?;
        Ok(b)
    }

    /// The number of block positions along each dimension of an image of `size`.
    fn positions(&self, size: [i64; 2]) -> [i64; 2] {
        [0, 1].map(|d| {
            (size[d] + 2 * self.padding[d] - (self.dilation[d] * (self.kernel[d] - 1) + 1))
                / self.stride[d]
                + 1
        })
    }

    /// For tap `tap` along dimension `d`: the positions `lo..hi` whose source row or column
    /// lies inside an image of `size`, and the source of position `lo`.
    fn inside(&self, d: usize, tap: i64, size: i64, positions: i64) -> (i64, i64, i64) {
        let offset = tap * self.dilation[d] - self.padding[d];
        let (lo, hi) = inside(offset, self.stride[d], size, positions);
        (lo, hi, lo * self.stride[d] + offset)
    }

    /// Each tap's region: `(i, j)`, the image view it reads and the matching `[N, C, rows,
    /// cols]` view of the columns tensor `[N, C * taps, positions]`.
    fn regions(&self, image: &TensorRef, columns: &TensorRef) -> Vec<(TensorRef, TensorRef)> {
        let (n, c) = (image.sizes[0], image.sizes[1]);
        let size = [image.sizes[2], image.sizes[3]];
        let positions = self.positions(size);
        let taps = self.kernel[0] * self.kernel[1];
        let element = image.dtype.size() as i64;
        let mut regions = Vec::new();
        for i in 0..self.kernel[0] {
            for j in 0..self.kernel[1] {
                let (r_lo, r_hi, row) = self.inside(0, i, size[0], positions[0]);
                let (c_lo, c_hi, col) = self.inside(1, j, size[1], positions[1]);
                if r_lo >= r_hi || c_lo >= c_hi {
                    continue;
                }
                let shape = vec![n, c, r_hi - r_lo, c_hi - c_lo];
                let source = row * image.strides[2] + col * image.strides[3];
                let read = TensorRef {
                    address: (image.address as i64 + source * element) as u64,
                    sizes: shape.clone().into(),
                    strides: smallvec![
                        image.strides[0],
                        image.strides[1],
                        self.stride[0] * image.strides[2],
                        self.stride[1] * image.strides[3],
                    ],
                    ..image.clone()
                };
                let tap = i * self.kernel[1] + j;
                let (sn, sc, sl) = (columns.strides[0], columns.strides[1], columns.strides[2]);
                let start = tap * sc + (r_lo * positions[1] + c_lo) * sl;
                let column = TensorRef {
                    address: (columns.address as i64 + start * element) as u64,
                    sizes: shape.into(),
                    strides: smallvec![sn, taps * sc, positions[1] * sl, sl],
                    ..columns.clone()
                };
                regions.push((read, column));
            }
        }
        regions
    }
}

/// Of `positions` block positions, where position `p` reads `p * stride + offset` of an image
/// dimension of `size`: the range `lo..hi` that reads inside it (empty: `lo == hi`).
pub(crate) fn inside(offset: i64, stride: i64, size: i64, positions: i64) -> (i64, i64) {
    let lo = if offset >= 0 {
        0
    } else {
        (-offset + stride - 1) / stride
    };
    let hi = if size - 1 - offset < 0 {
        0
    } else {
        ((size - 1 - offset) / stride + 1).min(positions)
    };
    (lo, hi.max(lo))
}

/// `t` with a leading batch dimension of 1 when it is unbatched (`batched_rank - 1` dims).
fn batched(t: &TensorRef, batched_rank: usize) -> TensorRef {
    if t.sizes.len() == batched_rank {
        return t.clone();
    }
    TensorRef {
        sizes: [vec![1], t.sizes.to_vec()].concat().into(),
        strides: [vec![0], t.strides.to_vec()].concat().into(),
        ..t.clone()
    }
}

/// `im2col(self, kernel_size, dilation, padding, stride)`: `[N, C, H, W]` to `[N, C * kh *
/// kw, L]` (unbatched `[C, H, W]` to `[C * kh * kw, L]`).
fn im2col(call: &mut Call, dest: Dest) -> Result<()> {
    let x = call.tensor(0)?;
    let blocks = Blocks::read(call, 1)?;
    let rank = x.sizes.len();
    if !(rank == 3 || rank == 4) || x.sizes[rank - 3..].contains(&0) {
        return Err(Error::runtime(format!(
            "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for input, but got: {:?}",
            x.sizes
        )));
    }
    let image = batched(&x, 4);
    let size = [image.sizes[2], image.sizes[3]];
    let positions = blocks.positions(size);
    if positions[0] < 1 || positions[1] < 1 {
        return Err(Error::runtime(format!(
            "Given input with spatial size ({}, {}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), calculated shape of the array of sliding blocks as ({}, {}), but its components must be at least one.",
            size[0], size[1], blocks.kernel[0], blocks.kernel[1], blocks.dilation[0],
            blocks.dilation[1], blocks.padding[0], blocks.padding[1], positions[0], positions[1]
        )));
    }
    let rows = image.sizes[1] * blocks.kernel[0] * blocks.kernel[1];
    let mut sizes = vec![rows, positions[0] * positions[1]];
    if rank == 4 {
        sizes.insert(0, image.sizes[0]);
    }
    let out = call.result(dest, &sizes, x.dtype, x.device)?;
    if out.numel() == 0 {
        return Ok(());
    }
    fill(&out, &ScalarArg::int(0))?;
    let columns = batched(&out, 3);
    for (read, column) in blocks.regions(&image, &columns) {
        copy(&column, &read)?;
    }
    Ok(())
}

/// `col2im(self, output_size, kernel_size, dilation, padding, stride)`: the sum of every
/// block back into `[N, C, H, W]` (unbatched `[C, H, W]`).
fn col2im(call: &mut Call, dest: Dest) -> Result<()> {
    // Complex columns add each part along its own view of the pair views.
    let pairs = if call.complex_component_of(0).is_some() {
        // SAFETY: the glue describes a live tensor.
        Some(unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(0)?)? }.0)
    } else {
        None
    };
    let cols = match &pairs {
        Some(p) => p.part(0),
        None => call.tensor(0)?,
    };
    let output_size = call.ints(1)?;
    let blocks = Blocks::read(call, 2)?;
    let rank = cols.sizes.len();
    let taps = blocks.kernel[0] * blocks.kernel[1];
    let [h, w] = match output_size[..] {
        [h, w] => [h, w],
        _ => {
            return Err(Error::runtime(format!(
                "It is expected output_size equals to 2, but got size {}",
                output_size.len()
            )))
        }
    };
    if !(rank == 2 || rank == 3) || cols.sizes[rank - 2..].contains(&0) {
        return Err(Error::runtime(format!(
            "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions for input, but got: {:?}",
            cols.sizes
        )));
    }
    let rows = cols.sizes[rank - 2];
    if rows % taps != 0 {
        return Err(Error::runtime(format!(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={rows} and kernel_size=({}, {}).",
            blocks.kernel[0], blocks.kernel[1]
        )));
    }
    let positions = blocks.positions([h, w]);
    let length = cols.sizes[rank - 1];
    if positions[0] < 1 || positions[1] < 1 || positions[0] * positions[1] != length {
        return Err(Error::runtime(format!(
            "Given output_size=({h}, {w}), kernel_size=({}, {}), dilation=({}, {}), padding=({}, {}), stride=({}, {}), expected size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {}, but got input.size(2)={length}.",
            blocks.kernel[0], blocks.kernel[1], blocks.dilation[0], blocks.dilation[1],
            blocks.padding[0], blocks.padding[1], blocks.stride[0], blocks.stride[1],
            positions[0], positions[1], positions[0] * positions[1]
        )));
    }
    let columns = batched(&cols, 3);
    let channels = rows / taps;
    let mut sizes = vec![channels, h, w];
    if rank == 3 {
        sizes.insert(0, columns.sizes[0]);
    }
    let out = match pairs {
        Some(_) => call.complex_result(dest, &sizes, cols.dtype, cols.device)?,
        None => call.result(dest, &sizes, cols.dtype, cols.device)?,
    };
    if out.numel() == 0 {
        return Ok(());
    }
    fill(&out, &ScalarArg::int(0))?;
    match pairs {
        Some(p) => (0..2).try_for_each(|part| {
            let columns = batched(&p.part(part), 3);
            add_blocks(&blocks, &batched(&out.part(part), 4), &columns)
        }),
        None => add_blocks(&blocks, &batched(&out, 4), &columns),
    }
}

/// Adds every block of `columns` (`[N, C * taps, L]`) into `image` (`[N, C, H, W]`).
fn add_blocks(blocks: &Blocks, image: &TensorRef, columns: &TensorRef) -> Result<()> {
    let dtype = columns.dtype;
    let sum = Expr::input(0, dtype).add(Expr::input(1, dtype)).cast(dtype);
    for (target, column) in blocks.regions(image, columns) {
        let kernel = MapKernel {
            inputs: smallvec![dtype, dtype],
            scalars: smallvec![],
            outputs: smallvec![(dtype, sum.clone())],
        };
        run_map(kernel, &[&target, &column, &target], &target.sizes, &[])?;
    }
    Ok(())
}

/// `unfold_backward(grad_in, input_sizes, dim, size, step)`: the gradient of `Tensor.unfold`,
/// whose window `w` reads positions `w * step ..` of `dim` and puts them last. One in-place add
/// per window offset, the last offset first, so that each position sums its windows in order
/// (as the CPU's kernel does).
fn unfold_backward(call: &mut Call) -> Result<()> {
    // Complex gradients add both parts at once along their pair views, whose pair dimension
    // trails every view below.
    let complex = call.complex_component_of(0).is_some();
    let tail = usize::from(complex);
    let grad = if complex {
        // SAFETY: the glue describes a live tensor.
        unsafe { TensorRef::from_arg_or_pairs(call.tensor_arg(0)?)? }.0
    } else {
        call.tensor(0)?
    };
    let sizes = call.ints(1)?;
    let (size, step) = (call.int(3)?, call.int(4)?);
    let rank = sizes.len();
    let dim = crate::ops::reduce::reductions::wrap_dim(call.int(2)?, rank.max(1))?;
    let out = if complex {
        call.complex_result(Dest::New, &sizes, grad.dtype, grad.device)?
    } else {
        call.create(&sizes, grad.dtype, grad.device)?
    };
    if out.numel() == 0 {
        return Ok(());
    }
    fill(&out, &ScalarArg::int(0))?;
    // A 0-dim input unfolds as one dimension of one element.
    let (out, grad) = if rank == 0 {
        let one = |t: &TensorRef, mut sizes: Vec<i64>| {
            sizes.extend(&t.sizes[t.sizes.len() - tail..]);
            TensorRef {
                strides: TensorRef::contiguous_strides(&sizes).into(),
                sizes: sizes.into(),
                ..t.clone()
            }
        };
        let windows = (grad.numel() >> tail) as i64;
        (one(&out, vec![1]), one(&grad, vec![windows, 1]))
    } else {
        (out, grad)
    };
    let windows = grad.sizes[dim];
    if windows == 0 || size <= 0 || step <= 0 || grad.sizes.len() != out.sizes.len() + 1 {
        let shown = &grad.sizes[..grad.sizes.len() - tail];
        return Err(Error::runtime(format!(
            "unfold_backward: grad_in {shown:?} does not match input sizes {sizes:?} with size {size} and step {step}"
        )));
    }
    let dtype = grad.dtype;
    let sum = Expr::input(0, dtype).add(Expr::input(1, dtype)).cast(dtype);
    // The window dimension (the pair dimension, if any, after it).
    let last = grad.sizes.len() - 1 - tail;
    let without_last = |v: &[i64]| [&v[..last], &v[last + 1..]].concat();
    for offset in (0..size).rev() {
        let mut target = out.clone();
        target.sizes[dim] = windows;
        target.strides[dim] = out.strides[dim] * step;
        target.address += (offset * out.strides[dim]) as u64 * dtype.size() as u64;
        let source = TensorRef {
            sizes: without_last(&grad.sizes).into(),
            strides: without_last(&grad.strides).into(),
            address: grad
                .address
                .wrapping_add_signed(offset * grad.strides[last] * dtype.size() as i64),
            ..grad.clone()
        };
        let kernel = MapKernel {
            inputs: smallvec![dtype, dtype],
            scalars: smallvec![],
            outputs: smallvec![(dtype, sum.clone())],
        };
        run_map(kernel, &[&target, &source, &target], &target.sizes, &[])?;
    }
    Ok(())
}

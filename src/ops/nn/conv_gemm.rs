//! Convolution through the device's GEMM library (cuBLAS on NVIDIA), whose products use the
//! matrix units that the implicit GEMM of `printer::conv` does not, or on the software device
//! through its lanes GEMM (`printer::gemm_lanes`), whose loads are far fewer than the
//! implicit GEMM's staged tiles (float32 on 2 cores: a 3x3 convolution of 8x64x56², 440 ->
//! 150 ms; a 7x7 one of 32x3x224² at stride 1, 8.3 -> 4.0 s). The image's blocks are
//! copied into a columns matrix (one strided copy per kernel tap, zeros where a block reaches
//! into the padding, as `nn.Unfold`), and each of the three products of `conv.rs` is then one
//! library product with it: `G = W · columns`, `dW = G · columns` and `columns = G · W` for
//! `H`, whose columns are added back per tap (as `nn.Fold`). Sums that several products or
//! taps make are accumulated in float32 (float64 for float64).
//!
//! For one group, weights whose channel and tap dimensions flatten into one (contiguous or
//! channels-last), and `G` laid out channels-last or contiguous. The batch goes through in
//! parts whose columns take at most [`COLUMN_BYTES`]. Anything else, or a product the library
//! declines, returns false: the implicit GEMM then writes the whole result anew.

use smallvec::smallvec;
use std::ops::Add;

use super::conv::{spatial, Geometry};
use crate::dtype::DType;
use crate::error::Result;
use crate::kernels::{Expr, MapKernel};
use crate::ops::core::launch::run_map;
use crate::ops::core::scalar::ScalarArg;
use crate::ops::core::scratch::Scratch;
use crate::ops::core::tensor::TensorRef;
use crate::ops::linalg::library::matrix_product;
use crate::ops::shape::copy::{copy, fill};
use crate::ops::shape::unfold::inside;
use crate::runtime::backend::MatrixView;

/// The most bytes of one part's columns.
const COLUMN_BYTES: i64 = 64 << 20;

/// The shapes of a convolution between `G` (`[N, CG, *positions]`), `H` (`[N, CH, *image]`)
/// and weights `W` (`[CG, CH, *kernel]`).
struct Shapes {
    n: i64,
    cg: i64,
    ch: i64,
    /// Positions of `G`, per dimension and in all.
    positions: [i64; 3],
    p: i64,
    kernel: [i64; 3],
    taps: i64,
    /// Where channel `ch` and tap `o` of a row of columns lie: `ch * channel + o * tap`,
    /// the weights' own order.
    channel: i64,
    tap: i64,
    /// The weights' stride between output channels.
    w_row: i64,
    /// `G`'s strides: batch, channel and flattened position.
    g_strides: [i64; 3],
    /// Each image's columns laid out `[K, P]` (rows of positions) rather than `[P, K]`: for
    /// the software device, whose tap copies then write runs of neighbouring positions (a
    /// 3x3 convolution of 8x64x56²: 9 copies of 21 ms each with `[P, K]`, 2-12 ms so).
    k_major: bool,
}

impl Shapes {
    /// The shapes, where the device has a GEMM library and the layouts suit it.
    fn of(
        geometry: &Geometry,
        w: &TensorRef,
        g: &TensorRef,
        h: &TensorRef,
    ) -> Result<Option<Self>> {
        let floating = matches!(g.dtype, DType::F16 | DType::BF16 | DType::F32 | DType::F64);
        if geometry.groups != 1 || !floating {
            return Ok(None);
        }
        let backend = crate::runtime::backend()?;
        if backend.has_gemm_library(g.device) {
            return Ok(Self::new(w, g, h));
        }
        // The software device's lanes product, for float32 and contiguous `G` (K-major
        // columns of several images form no one matrix).
        let lanes = backend.lane_broadcast(g.device) && g.dtype == DType::F32;
        Ok(Self::new(w, g, h)
            .filter(|s| lanes && !s.g_rows())
            .map(|s| Shapes { k_major: true, ..s }))
    }

    fn new(w: &TensorRef, g: &TensorRef, h: &TensorRef) -> Option<Self> {
        let (positions, _) = spatial(g);
        let kernel = super::conv::three(&w.sizes[2..], 1);
        let (p, taps) = (
            positions.iter().product::<i64>(),
            kernel.iter().product::<i64>(),
        );
        let (cg, ch) = (w.sizes[0], w.sizes[1]);
        let w_flat = super::conv::flat_spatial(w)?;
        // The weights' channel and tap dimensions as one: contiguous or channels-last.
        let (channel, tap) = if taps == 1 {
            (1, 1)
        } else if w.strides[1] == taps && w_flat == 1 {
            (taps, 1)
        } else if w.strides[1] == 1 && w_flat == ch {
            (1, ch)
        } else {
            return None;
        };
        if (ch > 1 && w.strides[1] != channel) || w.strides[0] < ch * taps {
            return None;
        }
        let g_flat = super::conv::flat_spatial(g)?;
        Some(Shapes {
            n: g.sizes[0],
            cg,
            ch,
            positions,
            p,
            kernel,
            taps,
            channel,
            tap,
            w_row: w.strides[0],
            g_strides: [g.strides[0], g.strides[1], g_flat],
            k_major: false,
        })
        // G one matrix of rows (channels-last) or of contiguous positions per image.
        .filter(|s| s.g_rows() || s.g_strides[2] == 1)
        .filter(|s| s.n * s.p * s.cg * s.ch > 0 && h.sizes[1] == ch)
    }

    /// Elements of one row of columns.
    fn k(&self) -> i64 {
        self.ch * self.taps
    }

    /// Whether `G` is one `[N * P, CG]` matrix (channels-last).
    fn g_rows(&self) -> bool {
        let [b, c, p] = self.g_strides;
        c == 1 && b == self.p * p
    }

    /// The strides of a part's contiguous columns: image, position and k.
    fn column_strides(&self) -> [i64; 3] {
        let (p, k) = (self.p, self.k());
        if self.k_major {
            [k * p, 1, p]
        } else {
            [p * k, k, 1]
        }
    }

    /// The sizes of a part's contiguous columns of `count` images.
    fn column_sizes(&self, count: i64) -> [i64; 3] {
        if self.k_major {
            [count, self.k(), self.p]
        } else {
            [count, self.p, self.k()]
        }
    }

    /// Images per part.
    fn part(&self, dtype: DType) -> i64 {
        let bytes = self.p * self.k() * dtype.size() as i64;
        (COLUMN_BYTES / bytes).clamp(1, self.n)
    }
}

/// Matrices at `address` with `[batch, rows, cols]` strides `s`.
fn view(address: u64, s: [i64; 3]) -> MatrixView {
    MatrixView {
        address,
        batch_stride: s[0],
        row_stride: s[1],
        col_stride: s[2],
    }
}

/// `out = a @ b + beta * out` through the GEMM library or the software device's lanes
/// product (see [`matrix_product`]).
#[allow(clippy::too_many_arguments)]
fn product(
    device: usize,
    dtypes: (DType, DType),
    batch: i64,
    sizes: (i64, i64, i64),
    a: MatrixView,
    b: MatrixView,
    out: MatrixView,
    beta: f64,
) -> Result<bool> {
    matrix_product(device, dtypes, batch, sizes, (a, b, out), beta)
}

/// The address of element `offset` (in elements) of `t`.
fn at(t: &TensorRef, offset: i64) -> u64 {
    t.address
        .wrapping_add_signed(offset * t.dtype.size() as i64)
}

/// For each kernel tap: the view of images `[first, first + count)` of `h` that the tap's
/// blocks read (`[count, CH, *rows]`), and the matching view of the part's columns
/// (contiguous, see [`Shapes::column_strides`]). Taps whose blocks all lie in the padding are left out.
fn taps(
    s: &Shapes,
    geometry: &Geometry,
    h: &TensorRef,
    columns: &TensorRef,
    (first, count): (i64, i64),
) -> Vec<(TensorRef, TensorRef)> {
    let (image, image_strides) = spatial(h);
    let [image_stride, pos, k] = s.column_strides();
    let mut out = Vec::new();
    for o0 in 0..s.kernel[0] {
        for o1 in 0..s.kernel[1] {
            for o2 in 0..s.kernel[2] {
                let o = [o0, o1, o2];
                let tap = (o0 * s.kernel[1] + o1) * s.kernel[2] + o2;
                let mut lo = [0; 3];
                let mut hi = [0; 3];
                let mut source = first * h.strides[0];
                for d in 0..3 {
                    let offset = o[d] * geometry.dilation[d] - geometry.pad[d];
                    let st = geometry.stride[d];
                    (lo[d], hi[d]) = inside(offset, st, image[d], s.positions[d]);
                    source += (lo[d] * st + offset) * image_strides[d];
                }
                if (0..3).any(|d| lo[d] >= hi[d]) {
                    continue;
                }
                let sizes = vec![count, s.ch, hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]];
                let read = TensorRef {
                    address: at(h, source),
                    sizes: sizes.clone().into(),
                    strides: smallvec![
                        h.strides[0],
                        h.strides[1],
                        geometry.stride[0] * image_strides[0],
                        geometry.stride[1] * image_strides[1],
                        geometry.stride[2] * image_strides[2],
                    ],
                    ..h.clone()
                };
                let [_, p1, p2] = s.positions;
                let start = (lo[0] * p1 * p2 + lo[1] * p2 + lo[2]) * pos + tap * s.tap * k;
                let column = TensorRef {
                    address: at(columns, start),
                    sizes: sizes.into(),
                    strides: smallvec![image_stride, s.channel * k, p1 * p2 * pos, p2 * pos, pos],
                    ..columns.clone()
                };
                out.push((read, column));
            }
        }
    }
    out
}

/// A part's columns: `[count, P, K]` matrices at `address` with strides `[image, position,
/// k]` (elements of `h`'s dtype). A scratch filled from the image, or the image itself where
/// each block is one pixel (a 1x1 kernel at stride 1 without padding), which needs no copy.
struct Columns {
    address: u64,
    strides: [i64; 3],
    _scratch: Option<Scratch>,
}

impl Columns {
    /// The part's columns of `h`; `merged`: they must form one `[count * P, K]` matrix.
    fn of(
        s: &Shapes,
        geometry: &Geometry,
        h: &TensorRef,
        (first, count): (i64, i64),
        merged: bool,
    ) -> Result<Self> {
        if let Some(hp) = pixels(s, geometry, h) {
            let strides = [h.strides[0], hp, h.strides[1]];
            if !merged || strides[0] == s.p * hp {
                return Ok(Columns {
                    address: at(h, first * h.strides[0]),
                    strides,
                    _scratch: None,
                });
            }
        }
        let columns = Scratch::contiguous(h.device, &s.column_sizes(count), h.dtype)?;
        let regions = taps(s, geometry, h, &columns.tensor, (first, count));
        // Zeros where a block reaches into the padding: unless every tap reads every position.
        let whole = regions.len() as i64 == s.taps
            && regions
                .iter()
                .all(|(read, _)| read.sizes[2..] == s.positions);
        if !whole {
            fill(&columns.tensor, &ScalarArg::int(0))?;
        }
        for (read, column) in regions {
            copy(&column, &read)?;
        }
        Ok(Columns {
            address: columns.tensor.address,
            strides: s.column_strides(),
            _scratch: Some(columns),
        })
    }

    /// All the part's columns as one `[count * P, K]` matrix.
    fn merged(&self) -> MatrixView {
        view(self.address, [0, self.strides[1], self.strides[2]])
    }

    /// Each image's `[P, K]` columns (`[K, P]` when `transposed`), batched over images.
    fn images(&self, transposed: bool) -> MatrixView {
        let [b, p, k] = self.strides;
        view(self.address, if transposed { [b, k, p] } else { [b, p, k] })
    }

    /// Image `i`'s `[P, K]` columns.
    fn image(&self, i: i64, dtype: DType) -> MatrixView {
        let address = self
            .address
            .wrapping_add_signed(i * self.strides[0] * dtype.size() as i64);
        view(address, [0, self.strides[1], self.strides[2]])
    }
}

/// Where each block is one pixel of `h` (a 1x1 kernel at stride 1 without padding), the
/// stride of `h`'s flattened pixels: `h` is then its own block matrix.
fn pixels(s: &Shapes, geometry: &Geometry, h: &TensorRef) -> Option<i64> {
    let (image, _) = spatial(h);
    let one = s.taps == 1
        && (0..3).all(|d| geometry.stride[d] == 1 && geometry.pad[d] == 0)
        && image == s.positions;
    one.then(|| super::conv::flat_spatial(h)).flatten()
}

/// The parts of the batch: (first image, count).
fn parts(s: &Shapes, dtype: DType) -> Vec<(i64, i64)> {
    let per = s.part(dtype);
    (0..s.n)
        .step_by(per as usize)
        .map(|first| (first, per.min(s.n - first)))
        .collect()
}

/// `G` from `H` (see `conv::gather`) plus the bias if any (written into `G` first, which
/// the products then add to: one rounding, as CPU's); false when not served.
pub(super) fn gather(
    geometry: &Geometry,
    w: &TensorRef,
    h: &TensorRef,
    g: &TensorRef,
    bias: Option<&TensorRef>,
) -> Result<bool> {
    let Some(s) = Shapes::of(geometry, w, g, h)? else {
        return Ok(false);
    };
    let dtype = g.dtype;
    let k = s.k();
    let [gb, gc, gp] = s.g_strides;
    let beta = start_with_bias(g, bias)?;
    for part in parts(&s, dtype) {
        let columns = Columns::of(&s, geometry, h, part, s.g_rows())?;
        let (first, count) = part;
        let target = at(g, first * gb);
        let done = if s.g_rows() {
            // [count * P, CG] = columns [count * P, K] @ Wᵀ [K, CG]
            product(
                g.device,
                (dtype, dtype),
                1,
                (count * s.p, k, s.cg),
                columns.merged(),
                view(w.address, [0, 1, s.w_row]),
                view(target, [0, gp, 1]),
                beta,
            )?
        } else {
            // per image: [CG, P] = W [CG, K] @ columnsᵀ [K, P]
            product(
                g.device,
                (dtype, dtype),
                count,
                (s.cg, k, s.p),
                view(w.address, [0, s.w_row, 1]),
                columns.images(true),
                view(target, [gb, gc, 1]),
                beta,
            )?
        };
        if !done {
            return Ok(false);
        }
    }
    Ok(true)
}

/// `H` from `G` (see `conv::scatter`) plus the bias if any (added in the accumulator); false
/// when not served.
pub(super) fn scatter(
    geometry: &Geometry,
    w: &TensorRef,
    g: &TensorRef,
    h: &TensorRef,
    bias: Option<&TensorRef>,
) -> Result<bool> {
    let Some(s) = Shapes::of(geometry, w, g, h)? else {
        return Ok(false);
    };
    let (dtype, acc) = (h.dtype, h.dtype.float_acc());
    let k = s.k();
    let [gb, gc, gp] = s.g_strides;
    if let Some(done) = scatter_in_place(&s, geometry, w, g, h, bias)? {
        return Ok(done);
    }
    for (first, count) in parts(&s, acc) {
        // The part's columns of H, then each tap's added into a zeroed accumulator image.
        let columns = Scratch::contiguous(h.device, &s.column_sizes(count), acc)?;
        let [_, pos, kk] = s.column_strides();
        let c = columns.tensor.address;
        let source = at(g, first * gb);
        let done = if s.g_rows() {
            // columns [count * P, K] = G [count * P, CG] @ W [CG, K]
            product(
                h.device,
                (dtype, acc),
                1,
                (count * s.p, s.cg, k),
                view(source, [0, gp, 1]),
                view(w.address, [0, s.w_row, 1]),
                view(c, [0, pos, kk]),
                0.0,
            )?
        } else {
            // per image: columns [P, K] = Gᵀ [P, CG] @ W [CG, K]
            product(
                h.device,
                (dtype, acc),
                count,
                (s.p, s.cg, k),
                view(source, [gb, 1, gc]),
                view(w.address, [0, s.w_row, 1]),
                view(c, s.column_strides()),
                0.0,
            )?
        };
        if !done {
            return Ok(false);
        }
        let mut sizes = h.sizes.clone();
        sizes[0] = count;
        let image = Scratch::contiguous(h.device, &sizes, acc)?;
        match bias {
            Some(bias) => copy(&image.tensor, &per_channel(bias, &image.tensor))?,
            None => fill(&image.tensor, &ScalarArg::int(0))?,
        }
        let image5 = five(&image.tensor);
        let sum = Expr::input(0, acc).add(Expr::input(1, acc));
        let add = MapKernel {
            inputs: smallvec![acc, acc],
            scalars: smallvec![],
            outputs: smallvec![(acc, sum)],
        };
        for (target, column) in taps(&s, geometry, &image5, &columns.tensor, (0, count)) {
            run_map(
                add.clone(),
                &[&target, &column, &target],
                &target.sizes,
                &[],
            )?;
        }
        let part = TensorRef {
            address: at(h, first * h.strides[0]),
            sizes,
            ..h.clone()
        };
        copy(&part, &image.tensor)?;
    }
    Ok(true)
}

/// [`scatter`] where `h` is its own block matrix (see [`pixels`]) and laid out as the
/// product writes it: one product straight into `h` (after the bias, which it adds to);
/// None where that does not apply.
fn scatter_in_place(
    s: &Shapes,
    geometry: &Geometry,
    w: &TensorRef,
    g: &TensorRef,
    h: &TensorRef,
    bias: Option<&TensorRef>,
) -> Result<Option<bool>> {
    let Some(hp) = pixels(s, geometry, h) else {
        return Ok(None);
    };
    let ([gb, gc, gp], [hb, hc]) = (s.g_strides, [h.strides[0], h.strides[1]]);
    let (rows, images) = (
        s.g_rows() && hc == 1 && hb == s.p * hp,
        !s.g_rows() && gp == 1 && hp == 1,
    );
    if !rows && !images {
        return Ok(None);
    }
    let beta = start_with_bias(h, bias)?;
    let dtype = h.dtype;
    let done = if rows {
        // H [N * P, CH] = G [N * P, CG] @ W [CG, CH]
        product(
            h.device,
            (dtype, dtype),
            1,
            (s.n * s.p, s.cg, s.ch),
            view(g.address, [0, gp, 1]),
            view(w.address, [0, s.w_row, 1]),
            view(h.address, [0, hp, 1]),
            beta,
        )?
    } else {
        // per image: Hᵀ [CH, P] = Wᵀ [CH, CG] @ G [CG, P]
        product(
            h.device,
            (dtype, dtype),
            s.n,
            (s.ch, s.cg, s.p),
            view(w.address, [0, 1, s.w_row]),
            view(g.address, [gb, gc, 1]),
            view(h.address, [hb, hc, 1]),
            beta,
        )?
    };
    Ok(Some(done))
}

/// Writes the bias (if any) into `out`, which products then add to: their `beta`.
fn start_with_bias(out: &TensorRef, bias: Option<&TensorRef>) -> Result<f64> {
    match bias {
        Some(bias) => {
            copy(out, &per_channel(bias, out))?;
            Ok(1.0)
        }
        None => Ok(0.0),
    }
}

/// `bias` (`[C]`) broadcast over `t` (`[N, C, *spatial]`).
fn per_channel(bias: &TensorRef, t: &TensorRef) -> TensorRef {
    let mut strides = vec![0; t.sizes.len()];
    strides[1] = bias.strides[0];
    TensorRef {
        sizes: t.sizes.clone(),
        strides: strides.into(),
        ..bias.clone()
    }
}

/// `t` (`[N, C, *spatial]`) with three spatial dimensions (leading ones of size 1).
fn five(t: &TensorRef) -> TensorRef {
    let (sizes, strides) = spatial(t);
    TensorRef {
        sizes: [&t.sizes[..2], &sizes[..]].concat().into(),
        strides: [&t.strides[..2], &strides[..]].concat().into(),
        ..t.clone()
    }
}

/// The weight gradient (see `conv::weight_grad`) into `dw`, laid out as the weights it is
/// the gradient of; false when not served.
pub(super) fn weight_grad(
    geometry: &Geometry,
    g: &TensorRef,
    h: &TensorRef,
    dw: &TensorRef,
) -> Result<bool> {
    let Some(s) = Shapes::of(geometry, dw, g, h)? else {
        return Ok(false);
    };
    let (dtype, acc) = (dw.dtype, dw.dtype.float_acc());
    let k = s.k();
    let [gb, gc, gp] = s.g_strides;
    let parts = parts(&s, dtype);
    // One product straight into dw, or several summed in the accumulator.
    let single = s.g_rows() && parts.len() == 1;
    let sum = if single {
        None
    } else {
        Some(Scratch::contiguous(dw.device, &[s.cg, k], acc)?)
    };
    let (target, out_dtype, row) = match &sum {
        Some(sum) => (sum.tensor.address, acc, k),
        None => (dw.address, dtype, s.w_row),
    };
    let mut beta = 0.0;
    for part in parts {
        let columns = Columns::of(&s, geometry, h, part, s.g_rows())?;
        let (first, count) = part;
        let products = if s.g_rows() {
            // dw [CG, K] = Gᵀ [CG, count * P] @ columns [count * P, K]
            let g_t = view(at(g, first * gb), [0, 1, gp]);
            vec![(g_t, columns.merged(), count * s.p)]
        } else {
            // per image: dw [CG, K] += G [CG, P] @ columns [P, K]
            (0..count)
                .map(|i| {
                    let image = view(at(g, (first + i) * gb), [0, gc, 1]);
                    (image, columns.image(i, dtype), s.p)
                })
                .collect()
        };
        for (a, b, inner) in products {
            let done = product(
                dw.device,
                (dtype, out_dtype),
                1,
                (s.cg, inner, k),
                a,
                b,
                view(target, [0, row, 1]),
                beta,
            )?;
            if !done {
                return Ok(false);
            }
            beta = 1.0;
        }
    }
    if let Some(sum) = &sum {
        // The accumulator's [CG, K] in the weights' order, viewed with dw's dimensions.
        let [_, k1, k2] = s.kernel;
        let kernel_rank = dw.sizes.len() - 2;
        let strides_k = [k1 * k2 * s.tap, k2 * s.tap, s.tap];
        let mut strides = vec![k, s.channel];
        strides.extend_from_slice(&strides_k[3 - kernel_rank..]);
        let view = TensorRef {
            sizes: dw.sizes.clone(),
            strides: strides.into(),
            ..sum.tensor.clone()
        };
        copy(dw, &view)?;
    }
    Ok(true)
}

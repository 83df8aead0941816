"""`torch._scaled_mm` for mojo tensors: float8 matrix products with tensor-wise or row-wise
float32 scales, as the CPU computes them (each operand widened to float32 and scaled, one
float32 product, the bias added, the result scale applied to a float8 output, then rounded
to the output dtype), with its checks and errors.
"""

import torch

_library = None

FLOAT8 = (
    torch.float8_e4m3fn,
    torch.float8_e5m2,
    torch.float8_e4m3fnuz,
    torch.float8_e5m2fnuz,
)


def _scaling(mat, scale):
    """ "tensor" for one float32 scale, "row" for one per row of `mat` (a column), else None."""
    if scale.dtype != torch.float32:
        return None
    if scale.numel() == 1:
        return "tensor"
    if scale.dim() == 2 and scale.shape == (mat.shape[0], 1) and scale.is_contiguous():
        return "row"
    return None


def _c10_name(dtype):
    """c10's name of a dtype (`Float`, `BFloat16`) as its errors print it."""
    return str(torch.empty(0, dtype=dtype).type()).removeprefix("torch.").removesuffix("Tensor")


def _check(mat_a, mat_b, scale_a, scale_b, bias, scale_result):
    if mat_a.dim() != 2:
        raise RuntimeError("mat_a must be a matrix")
    if mat_b.dim() != 2:
        raise RuntimeError("mat_b must be a matrix")
    if mat_a.shape[1] != mat_b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({mat_a.shape[0]}x{mat_a.shape[1]} "
            f"and {mat_b.shape[0]}x{mat_b.shape[1]})"
        )
    for name, mat in (("mat1", mat_a), ("mat2", mat_b)):
        if mat.dtype not in FLOAT8:
            raise RuntimeError(f"Expected {name} to be Float8 matrix got {_c10_name(mat.dtype)}")
    # mat_b's scales are per column: rows of its transpose.
    kind_a, kind_b = _scaling(mat_a, scale_a), _scaling(mat_b.t(), scale_b.t())
    if kind_a is None or kind_a != kind_b:
        raise ValueError(
            "Invalid scaling configuration.\n"
            "- For TensorWise scaling, a and b should be float8, scales should be float and "
            "singletons.\n"
            "- For RowWise scaling, a and b should be float8, scales should be float, scale_a "
            f"should be ({mat_a.shape[0]}, 1) and scale_b should be (1, {mat_b.shape[1]}), "
            "and both should be contiguous.\n"
            f"Got mat_a.dtype()={mat_a.dtype}, scale_a.dtype()={scale_a.dtype}, "
            f"scale_a.size()={list(scale_a.shape)}, mat_b.dtype()={mat_b.dtype}, "
            f"scale_b.dtype()={scale_b.dtype} and scale_b.size()={list(scale_b.shape)}"
        )
    if scale_result is not None and (
        scale_result.numel() != 1 or scale_result.dtype != torch.float32
    ):
        raise RuntimeError("scale_result must be a float scalar")
    if bias is not None and bias.numel() != mat_b.shape[1]:
        raise RuntimeError(f"Bias must be size {mat_b.shape[1]} but got {bias.numel()}")


def _product(mat_a, mat_b, scale_a, scale_b, bias, scale_result, out_dtype):
    """The float32 product, scaled and biased, rounded to `out_dtype`."""
    a = mat_a.float() * scale_a.reshape(-1, 1) if scale_a.numel() > 1 else mat_a.float() * scale_a
    b = mat_b.float() * scale_b.reshape(1, -1) if scale_b.numel() > 1 else mat_b.float() * scale_b
    product = a @ b
    if bias is not None:
        product.add_(bias)
    if scale_result is not None and out_dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        product = product * torch.reciprocal(scale_result.reshape(()))
    return product.to(out_dtype)


def scaled_mm(
    mat_a,
    mat_b,
    scale_a,
    scale_b,
    bias=None,
    scale_result=None,
    out_dtype=None,
    use_fast_accum=False,
):
    _check(mat_a, mat_b, scale_a, scale_b, bias, scale_result)
    out_dtype = mat_a.dtype if out_dtype is None else out_dtype
    return _product(mat_a, mat_b, scale_a, scale_b, bias, scale_result, out_dtype)


def scaled_mm_out(
    mat_a,
    mat_b,
    scale_a,
    scale_b,
    bias=None,
    scale_result=None,
    out_dtype=None,
    use_fast_accum=False,
    *,
    out,
):
    if out_dtype is not None and out_dtype != out.dtype:
        raise ValueError("out_dtype must match output matrix type")
    _check(mat_a, mat_b, scale_a, scale_b, bias, scale_result)
    result = _product(mat_a, mat_b, scale_a, scale_b, bias, scale_result, out.dtype)
    out.resize_(result.shape)
    return out.copy_(result)


def register():
    """Registers `_scaled_mm` and its `out=` form for mojo tensors."""
    global _library
    if _library is not None:
        return
    _library = torch.library.Library("aten", "IMPL")
    _library.impl("_scaled_mm", scaled_mm, "PrivateUse1")
    _library.impl("_scaled_mm.out", scaled_mm_out, "PrivateUse1")

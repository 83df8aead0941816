"""Scaled dot-product attention on mojo against the CPU: the fused kernel's route and what it
declines to the math path, masks, causal, grouped-query attention, head widths, dtypes, strided
operands, sequences past one launch's chunk, O(sequence) memory at T=4096, two threads, and
dropout (its mask read back through identity values)."""

import os
import threading

import pytest
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import torch_mojo_backend

FUSED = "ScaledDotProductFusedAttentionOverrideableBackward0"
MATH = "any of the math path's"
SOFTWARE = os.environ.get("TORCH_MOJO_BACKEND_SOFTWARE") == "1" and os.environ.get(
    "TORCH_MOJO_BACKEND_PLATFORM", "wgpu"
) in ("", "wgpu")

# The tests of the routing itself, which choose the backends they allow.
ROUTING = {
    "test_declined_inputs_take_the_math_path",
    "test_no_backend_left_raises",
    "test_the_software_device_routes_small_attention_to_math",
}


@pytest.fixture(autouse=True)
def fused_only(request):
    """These tests are about the fused kernel: they rank it first, as the software device
    would otherwise serve small calls through the math path (faster there)."""
    if request.node.originalname in ROUTING:
        yield
        return
    with sdpa_kernel([SDPBackend.OVERRIDEABLE, SDPBackend.MATH], set_priority=True):
        yield


def attention(device, q, k, v, grad, **kwargs):
    """Output and q/k/v gradients of SDPA on `device`, and the output's grad_fn name."""
    ours = [t.detach().to(device).requires_grad_() for t in (q, k, v)]
    mask = kwargs.pop("attn_mask", None)
    mask = None if mask is None else mask.to(device)
    out = F.scaled_dot_product_attention(*ours, attn_mask=mask, **kwargs)
    out.backward(grad.to(device))
    return [t.cpu() for t in (out, *(x.grad for x in ours))], type(out.grad_fn).__name__


def check(device, shape_q, shape_kv, dtype=torch.float32, dv=None, route=FUSED, **kwargs):
    b, h, tq, d = shape_q
    hk, tk = shape_kv
    q = torch.randn(b, h, tq, d).to(dtype)
    k = torch.randn(b, hk, tk, d).to(dtype)
    v = torch.randn(b, hk, tk, dv or d).to(dtype)
    grad = torch.randn(b, h, tq, dv or d).to(dtype)
    expected, _ = attention("cpu", q, k, v, grad, **dict(kwargs))
    actual, grad_fn = attention(device, q, k, v, grad, **kwargs)
    assert grad_fn != FUSED if route == MATH else grad_fn == route
    tol = {torch.float32: 2e-5, torch.float16: 2e-3, torch.bfloat16: 2e-2}[dtype]
    for name, a, e in zip(("out", "dq", "dk", "dv"), actual, expected, strict=True):
        torch.testing.assert_close(a, e, atol=tol, rtol=tol, msg=lambda m, n=name: f"{n}: {m}")


@pytest.mark.parametrize("causal", [False, True])
def test_plain_and_causal(device, causal):
    check(device, (2, 3, 70, 64), (3, 130), is_causal=causal)


def test_causal_with_more_queries_than_keys(device):
    check(device, (1, 2, 90, 16), (2, 40), is_causal=True)


def test_boolean_mask_with_a_fully_masked_row(device):
    mask = torch.rand(10, 12) > 0.5
    mask[3] = False  # this query sees no key: zeros out and no gradient, as the math path
    check(device, (2, 2, 10, 16), (2, 12), attn_mask=mask)


@pytest.mark.parametrize("shape", [(10, 12), (1, 1, 10, 12), (2, 1, 1, 12), (2, 2, 10, 12)])
def test_additive_masks_broadcast(device, shape):
    check(device, (2, 2, 10, 16), (2, 12), attn_mask=torch.randn(shape))


def test_grouped_query_attention(device):
    check(device, (2, 6, 33, 32), (2, 40), enable_gqa=True, is_causal=True)


@pytest.mark.parametrize("d, dv", [(8, 8), (72, 40), (128, 128), (256, 200)])
def test_head_widths(device, d, dv):
    check(device, (1, 2, 20, d), (2, 30), dv=dv)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_half_precision(device, dtype):
    check(device, (1, 2, 40, 96), (2, 50), dtype=dtype, is_causal=True)


@pytest.mark.parametrize("length", [9, 150])
def test_strided_operands(device, length):
    """[B, T, H, D] projections viewed as [B, H, T, D], as attention layers pass them; past the
    GEMM threshold (150) the output's heads interleave, so that route writes them through a
    contiguous scratch."""
    q, k, v = (torch.randn(2, length, 3, 16).transpose(1, 2) for _ in range(3))
    grad = torch.randn(2, 3, length, 16)
    expected, _ = attention("cpu", q, k, v, grad)
    actual, route = attention(device, q, k, v, grad)
    assert route == FUSED
    for a, e in zip(actual, expected, strict=True):
        torch.testing.assert_close(a, e, atol=2e-5, rtol=2e-5)


# Past the GEMM library's threshold (16,384 scores per head), where a device has one: its
# route's masks, rows without keys, grouped heads, dtypes and layouts.
LONG = {
    "fully_masked_row": dict(shape_q=(1, 2, 130, 16), shape_kv=(2, 140), mask="bool"),
    "additive_mask": dict(shape_q=(2, 2, 130, 16), shape_kv=(2, 140), mask=(1, 130, 140)),
    "causal_more_queries": dict(shape_q=(1, 2, 200, 16), shape_kv=(2, 130), is_causal=True),
    "grouped_causal": dict(
        shape_q=(2, 6, 130, 32), shape_kv=(2, 140), enable_gqa=True, is_causal=True
    ),
    "bfloat16": dict(shape_q=(1, 2, 130, 64), shape_kv=(2, 140), dtype=torch.bfloat16),
    # Rows of keys longer than one reduction work item (8,192): the split logsumexp.
    "keys_past_one_row_pass": dict(shape_q=(1, 1, 8, 16), shape_kv=(1, 9000), mask="bool"),
    "float16_causal": dict(
        shape_q=(1, 2, 130, 64), shape_kv=(2, 140), dtype=torch.float16, is_causal=True
    ),
}


@pytest.mark.parametrize("name", LONG)
def test_long_sequences(device, name):
    case = dict(LONG[name])
    mask = case.pop("mask", None)
    if mask == "bool":
        torch.manual_seed(3)
        mask = torch.rand(case["shape_q"][2], case["shape_kv"][1]) > 0.3
        mask[5] = False
        case["attn_mask"] = mask
    elif mask is not None:
        case["attn_mask"] = torch.randn(mask)
    check(device, **case)


def test_sequences_past_one_chunk(device):
    """Keys past one launch's chunk (the state carried between launches), queries past one
    tile, key gradients over several chunks of query blocks."""
    check(device, (1, 1, 300, 64), (1, 5000))
    check(device, (1, 2, 2100, 128), (1, 40), enable_gqa=True, is_causal=True)


def test_score_matrices_past_one_unit(device):
    """Score matrices over one unit of the GEMM path's budget (64 MiB: 4,200 float32 keys for
    4,000 query rows), which splits the query rows; causal and grouped-query, so that key
    heads gather the gradients of several units."""
    check(device, (1, 2, 4200, 16), (1, 4200), enable_gqa=True, is_causal=True)


def test_more_workgroups_than_one_grid_row(device):
    """66,000 heads of two queries: the forward pass launches 66,000 groups (past 65,535, a
    second grid row; the backward passes walk their groups with the same loop), the combine
    pass 1,056,000 items."""
    q, k, v = (torch.randn(1, 66_000, n, 8) for n in (2, 3, 3))
    expected = F.scaled_dot_product_attention(q, k, v)
    actual = F.scaled_dot_product_attention(*(x.to(device) for x in (q, k, v)))
    torch.testing.assert_close(actual.cpu(), expected, atol=2e-5, rtol=2e-5)


def peak_memory(device, t):
    """Bytes allocated at the peak of SDPA forward and backward at sequence length `t`, with
    the operands, output and gradients; the operands and the output."""
    q, k, v = (torch.randn(1, 1, t, 64, device=device, requires_grad=True) for _ in range(3))
    torch.accelerator.synchronize()
    base = torch.accelerator.memory_allocated()
    torch.accelerator.reset_peak_memory_stats()
    out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    out.backward(torch.ones_like(out))
    torch.accelerator.synchronize()
    assert type(out.grad_fn).__name__ == FUSED
    return torch.accelerator.max_memory_allocated() - base, (q, k, v, out)


def test_memory_grows_with_the_sequence_not_its_square(device):
    """T=4096 forward and backward: no T x T buffer (64 MiB in float32) is ever allocated, and
    doubling T doubles the memory used (the output, gradients and per-row state). Devices
    with a GEMM library hold score matrices of a bounded size besides (two in the backward)."""
    scores = 2 * torch_mojo_backend._C.attention_score_bytes(device.index or 0)
    half, _ = peak_memory(device, 2048)
    t = 4096
    extra, (q, k, v, out) = peak_memory(device, t)
    assert extra - scores < t * t * 4 // 4, f"{extra} bytes at T={t}"
    assert extra - scores < 2.2 * half, f"{half} bytes at T={t // 2}, {extra} at T={t}"
    cpu = [x.detach().cpu().requires_grad_() for x in (q, k, v)]
    expected = F.scaled_dot_product_attention(*cpu, is_causal=True)
    expected.backward(torch.ones_like(expected))
    torch.testing.assert_close(out.cpu(), expected, atol=2e-5, rtol=2e-5)
    for ours, theirs in zip((q, k, v), cpu, strict=True):
        torch.testing.assert_close(ours.grad.cpu(), theirs.grad, atol=5e-5, rtol=5e-5)


def test_two_threads(device):
    results, errors = {}, []

    def run(seed):
        try:
            g = torch.Generator().manual_seed(seed)
            q, k, v = (torch.randn(2, 2, 50, 32, generator=g) for _ in range(3))
            expected = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            for _ in range(3):
                ours = [x.to(device) for x in (q, k, v)]
                actual = F.scaled_dot_product_attention(*ours, is_causal=True).cpu()
                torch.testing.assert_close(actual, expected, atol=2e-5, rtol=2e-5)
            results[seed] = True
        except Exception as exc:  # reported below, from the main thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(seed,)) for seed in (1, 2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    assert len(results) == 2


def test_declined_inputs_take_the_math_path(device):
    with sdpa_kernel([SDPBackend.OVERRIDEABLE, SDPBackend.MATH], set_priority=True):
        check(device, (1, 2, 10, 16), (2, 12), dtype=torch.float32, route=FUSED)
    q = torch.randn(1, 2, 10, 16, dtype=torch.float64)
    out, route = attention(device, q, q, q, torch.randn_like(q))
    assert route != FUSED
    with sdpa_kernel(SDPBackend.MATH):
        check(device, (1, 2, 10, 16), (2, 12), route="UnsafeViewBackward0")


def test_the_software_device_routes_small_attention_to_math(device):
    """With PyTorch's default ranking (math before the fused kernel), the software device
    takes the math path for score matrices up to 2**24 elements (its fused kernel is slower
    there); other devices, and every device when the fused kernel ranks first, the fused
    kernel."""
    route = MATH if SOFTWARE else FUSED
    check(device, (2, 3, 70, 64), (3, 130), is_causal=True, route=route)
    check(device, (1, 2, 40, 96), (2, 50), dtype=torch.bfloat16, route=route)
    with sdpa_kernel([SDPBackend.OVERRIDEABLE, SDPBackend.MATH], set_priority=True):
        check(device, (2, 3, 70, 64), (3, 130), is_causal=True)


def test_no_backend_left_raises(device):
    q = torch.randn(1, 2, 10, 16, device=device)
    only_flash = sdpa_kernel(SDPBackend.FLASH_ATTENTION)
    with only_flash, pytest.raises(RuntimeError, match="No available kernel"):
        F.scaled_dot_product_attention(q, q, q)


def dropout_mask(device, q, k, p, seed, **kwargs):
    """The fused kernel's dropout factors for `q`, `k` under `seed`: with the identity as the
    values, the output is the dropped-out probability matrix itself."""
    tk = k.shape[-2]  # at most 256: the fused kernel's widest values
    eye = torch.eye(tk).expand(*k.shape[:-1], tk).contiguous()
    torch.mojo.manual_seed(seed)
    out = F.scaled_dot_product_attention(
        q.to(device), k.to(device), eye.to(device), dropout_p=p, **kwargs
    )
    return out.cpu().reshape(*q.shape[:-1], tk)


@pytest.mark.parametrize("p", [0.1, 0.5])
def test_fused_dropout_keeps_each_probability_with_one_minus_p(device, p):
    """Kept probabilities are the softmax's scaled by 1 / (1 - p), the rest zero, kept with
    frequency 1 - p (over 480,000 draws: within 0.5%), from mojo's generator: the same seed
    gives the same mask, the next call another."""
    torch.manual_seed(0)
    q, k = torch.randn(2, 4, 300, 16), torch.randn(2, 4, 200, 16)
    dropped = dropout_mask(device, q, k, p, seed=7)
    probs = torch.softmax(q @ k.transpose(-1, -2) / 4.0, dim=-1)
    kept = dropped != 0
    assert abs(kept.float().mean().item() - (1 - p)) < 0.005
    torch.testing.assert_close(dropped[kept], (probs / (1 - p))[kept], rtol=1e-5, atol=1e-7)
    assert torch.equal(dropout_mask(device, q, k, p, seed=7), dropped)
    torch.mojo.manual_seed(7)
    first = F.scaled_dot_product_attention(q.to(device), k.to(device), k.to(device), dropout_p=p)
    second = F.scaled_dot_product_attention(q.to(device), k.to(device), k.to(device), dropout_p=p)
    assert not torch.equal(first.cpu(), second.cpu())


@pytest.mark.parametrize("causal", [False, True])
def test_fused_dropout_gradients_use_the_forward_mask(device, causal):
    """Output and gradients equal the CPU's attention with the mask the kernel drew (read back
    through the identity), over several query tiles and with grouped heads."""
    torch.manual_seed(0)
    b, h, hk, tq, tk, d = 1, 4, 2, 300, 200, 16
    q, k, v = torch.randn(b, h, tq, d), torch.randn(b, hk, tk, d), torch.randn(b, hk, tk, d)
    grad = torch.randn(b, h, tq, d)
    p = 0.2
    mask = dropout_mask(device, q, k, p, seed=3, is_causal=causal, enable_gqa=True) != 0
    torch.mojo.manual_seed(3)
    actual, route = attention(device, q, k, v, grad, dropout_p=p, is_causal=causal, enable_gqa=True)
    assert route == FUSED
    qc, kc, vc = (t.clone().requires_grad_() for t in (q, k, v))
    scores = qc @ kc.repeat_interleave(h // hk, 1).transpose(-1, -2) / d**0.5
    if causal:
        scores = scores.masked_fill(torch.ones(tq, tk, dtype=torch.bool).triu(1), float("-inf"))
    weights = torch.softmax(scores, dim=-1) * mask / (1 - p)
    out = weights @ vc.repeat_interleave(h // hk, 1)
    out.backward(grad)
    expected = (out, qc.grad, kc.grad, vc.grad)
    for name, a, e in zip(("out", "dq", "dk", "dv"), actual, expected, strict=True):
        message = lambda m, n=name: f"{n}: {m}"  # noqa: E731
        torch.testing.assert_close(a, e.detach(), atol=2e-5, rtol=2e-5, msg=message)


def test_fused_dropout_masks_agree_across_chunks(device):
    """Past one launch's chunk of keys: with equal scores, values and output gradients of
    one, the output counts the kept weights by row and the value gradient by key, so the
    counts' totals agree only if the forward and the backward drew the same mask (two
    independent masks would differ by about a thousand)."""
    tq, tk, p = 1100, 2600, 0.3
    q = torch.zeros(1, 2, tq, 8, device=device, requires_grad=True)
    k = torch.zeros(1, 2, tk, 8, device=device, requires_grad=True)
    v = torch.ones(1, 2, tk, 8, device=device, requires_grad=True)
    out = F.scaled_dot_product_attention(q, k, v, dropout_p=p)
    assert type(out.grad_fn).__name__ == FUSED
    out.backward(torch.ones_like(out))
    counts = []
    for t in (out.detach(), v.grad):
        scaled = t.cpu()[..., 0].double() * tk * (1 - p)
        count = scaled.round()
        assert (scaled - count).abs().max() < 0.05
        counts.append(count.sum().item())
    assert counts[0] == counts[1]
    assert abs(counts[0] / (2 * tq * tk) - (1 - p)) < 0.005


def test_fused_dropout_rows_average_one(device):
    """With equal scores and values of one, each output averages the kept weights: one."""
    q = torch.zeros(1, 1, 256, 8, device=device)
    v = torch.ones(1, 1, 256, 8, device=device)
    out = F.scaled_dot_product_attention(q, q, v, dropout_p=0.25)
    assert abs(out.mean().item() - 1.0) < 0.02
    assert out.std().item() > 0.01, "dropout was applied"
    everything = F.scaled_dot_product_attention(q, q, v, dropout_p=1.0)
    assert torch.equal(everything.cpu(), torch.zeros(1, 1, 256, 8))


def test_mismatched_dtypes_raise_like_cpu(device):
    q = torch.randn(1, 2, 4, 8, device=device)
    with pytest.raises(RuntimeError, match="same dtype"):
        F.scaled_dot_product_attention(q, q.half(), q)

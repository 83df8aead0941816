"""The NVIDIA check: mojo on the CUDA backend against stock torch CUDA on the same GPU.

Run through bench/gpu_check.sh, which calls each part with its own time limit:
    python bench/gpu_check.py ops|rng|bench|firstcall|compile RESULTS_DIR
Each part writes its table to RESULTS_DIR and prints it. Ratios compare against stock torch
CUDA measured in the same run.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch

import torch_mojo_backend

# Registering mojo makes it torch's accelerator, and from then on PyTorch's autograd engine
# fails any backward over CUDA tensors (pytorch/pytorch#161129): the reference's backward
# passes run in child processes that leave mojo out (GPU_CHECK_WITHOUT_MOJO=1).
WITHOUT_MOJO = os.environ.get("GPU_CHECK_WITHOUT_MOJO") == "1"
if not WITHOUT_MOJO:
    torch_mojo_backend.register_mojo_devices()

MOJO = None if WITHOUT_MOJO else torch.device("mojo")
# The reference: stock torch CUDA (GPU_CHECK_REFERENCE=cpu tries the script without a GPU).
CUDA = torch.device(os.environ.get("GPU_CHECK_REFERENCE", "cuda"))
# Small sizes, for trying the script on the software device.
QUICK = os.environ.get("GPU_CHECK_QUICK") == "1"
FLOATS = [torch.float32, torch.float16, torch.bfloat16, torch.float64]


def short(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


# ----------------------------------------------------------------------------- op agreement


def inputs(shape, dtype, seed, positive=False):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        x = torch.randn(shape, generator=g, dtype=torch.float64)
        x = x.abs() + 0.1 if positive else x
        return x.to(dtype)
    return torch.randint(1 if positive else -50, 50, shape, generator=g).to(dtype)


UNARY = {
    "neg": torch.neg,
    "abs": torch.abs,
    "exp": torch.exp,
    "log": lambda x: torch.log(x.abs() + 1),
    "sqrt": lambda x: torch.sqrt(x.abs()),
    "sin": torch.sin,
    "tanh": torch.tanh,
    "sigmoid": torch.sigmoid,
    "relu": torch.relu,
    "gelu": torch.nn.functional.gelu,
    "silu": torch.nn.functional.silu,
}
BINARY = {
    "add": torch.add,
    "mul": torch.mul,
    "div": torch.div,
    "maximum": torch.maximum,
    "pow": lambda a, b: torch.pow(a.abs() + 0.5, b.clamp(-2, 2)),
}
REDUCE = {
    "sum": lambda x: x.sum(dim=-1),
    "mean": lambda x: x.mean(dim=-1),
    "amax": lambda x: x.amax(dim=-1),
    "argmax": lambda x: x.argmax(dim=-1),
    "softmax": lambda x: torch.softmax(x, dim=-1),
    "log_softmax": lambda x: torch.log_softmax(x, dim=-1),
    "cumsum": lambda x: x.cumsum(dim=-1),
    "var": lambda x: x.var(dim=-1),
    "layer_norm": lambda x: torch.nn.functional.layer_norm(x, x.shape[-1:]),
}
MATMUL = {
    "mm": lambda a, b: a @ b,
    "addmm": lambda a, b: torch.addmm(b[0], a, b, beta=0.5, alpha=2.0),
    "bmm": lambda a, b: torch.bmm(a.expand(3, -1, -1), b.expand(3, -1, -1)),
    "linear": lambda a, b: torch.nn.functional.linear(a, b.t(), b[0]),
    "mm_t": lambda a, b: a.t().contiguous().t() @ b.t().contiguous().t(),
}


def raw(t: torch.Tensor) -> torch.Tensor:
    """The bytes of a floating tensor (so NaNs and signed zeros compare), else the tensor."""
    return t.contiguous().view(-1).view(torch.uint8) if t.is_floating_point() else t


def label(device) -> str:
    return "mojo" if device.type == "mojo" else "torch"


def synchronizer(device):
    if device.type == "mojo":
        return torch.mojo.synchronize
    return torch.cuda.synchronize if device.type == "cuda" else (lambda: None)


def compare(name, dtype, fn, args, atol=None, rtol=None):
    """One row: the op on mojo and on CUDA from the same CPU inputs."""
    row = {"op": name, "dtype": short(dtype)}
    try:
        want = fn(*[a.to(CUDA) for a in args])
        got = fn(*[a.to(MOJO) for a in args]).cpu()
        want = want.cpu()
        if got.dtype != want.dtype or got.shape != want.shape:
            row["result"] = f"MISMATCH dtype/shape {got.dtype}{tuple(got.shape)}"
            return row
        if torch.equal(raw(got), raw(want)):
            row["result"] = "bit-equal"
            return row
        diff = (got.double() - want.double()).abs()
        finite = torch.isfinite(want.double())
        row["max_abs_diff"] = float(diff[finite].max()) if finite.any() else float("nan")
        try:
            torch.testing.assert_close(got, want, atol=atol, rtol=rtol, equal_nan=True)
            row["result"] = "within tolerance"
        except AssertionError:
            row["result"] = "OUT OF TOLERANCE"
    except Exception as e:  # noqa: BLE001 - reported in the table
        row["result"] = f"ERROR {type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return row


def compare_to_truth(name, dtype, fn, args):
    """One row for an op whose CUDA kernel rounds partial results to the half type (cumsum
    adds in float16/bfloat16 along a tree; mojo accumulates in float32, as the CPU does): mojo
    must be no further from the float64 result than CUDA is."""
    row = {"op": name, "dtype": short(dtype)}
    try:
        truth = fn(*[a.double() for a in args])
        want = fn(*[a.to(CUDA) for a in args]).cpu().double()
        got = fn(*[a.to(MOJO) for a in args]).cpu().double()
        ours, theirs = float((got - truth).abs().max()), float((want - truth).abs().max())
        row["max_abs_diff"] = float((got - want).abs().max())
        row["mojo_vs_float64"], row["cuda_vs_float64"] = ours, theirs
        row["result"] = "no further from float64" if ours <= theirs else "OUT OF TOLERANCE"
    except Exception as e:  # noqa: BLE001 - reported in the table
        row["result"] = f"ERROR {type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return row


def part_ops(results):
    rows = []
    shape = (37, 257)
    for dtype in FLOATS:
        for name, fn in UNARY.items():
            rows.append(compare(name, dtype, fn, [inputs(shape, dtype, 1)]))
        for name, fn in BINARY.items():
            rows.append(
                compare(name, dtype, fn, [inputs(shape, dtype, 2), inputs(shape, dtype, 3, True)])
            )
        for name, fn in REDUCE.items():
            check = compare_to_truth if name == "cumsum" and dtype.itemsize == 2 else compare
            rows.append(check(name, dtype, fn, [inputs(shape, dtype, 4)]))
        for name, fn in MATMUL.items():
            rows.append(
                compare(name, dtype, fn, [inputs((64, 96), dtype, 5), inputs((96, 96), dtype, 6)])
            )
    for dtype in [torch.int32, torch.int64, torch.uint8, torch.int16]:
        for name in ("add", "mul", "maximum"):
            rows.append(
                compare(
                    name, dtype, BINARY[name], [inputs(shape, dtype, 7), inputs(shape, dtype, 8)]
                )
            )
        rows.append(compare("sum", dtype, REDUCE["sum"], [inputs(shape, dtype, 9)]))
        rows.append(compare("cumsum", dtype, REDUCE["cumsum"], [inputs(shape, dtype, 9)]))
    # Through cuFFT on both sides: the same library, so within a few roundings.
    for dtype in (torch.float32, torch.float64):
        for name, fn in FFT.items():
            rows.append(compare(name, dtype, fn, [inputs((6, 40, 257), dtype, 10)]))
    # Through cuSOLVER on both sides (many small matrices through cuBLAS's batched LU on
    # both sides).
    for dtype in (torch.float32, torch.float64, torch.complex64):
        for name, fn in SOLVER.items():
            shape = (4, 48, 48) if name != "lu_many_small" else (500, 4, 4)
            a = torch.randn(shape, dtype=dtype, generator=torch.Generator().manual_seed(11))
            rows.append(compare(name, dtype, fn, [a], atol=1e-3, rtol=1e-3))
    write_rows(results, "ops.csv", rows)


def rebuilt_eigh(a):
    """V diag(w) V^H from eigh's factors (the eigenvectors' phases are arbitrary)."""
    w, v = torch.linalg.eigh(a)
    return v @ torch.diag_embed(w.to(a.dtype)) @ v.mH


def rebuilt_svd(a):
    """U diag(S) V^H from the full SVD's factors, and U^H U (the phases are arbitrary)."""
    u, s, vh = torch.linalg.svd(a, full_matrices=True)
    k = s.shape[-1]
    return torch.cat([(u[..., :k] * s[..., None, :].to(a.dtype)) @ vh, u.mH @ u], -1)


def sorted_eigvals(a):
    """eigvals by real part, then imaginary part (geev promises no order)."""
    w = torch.linalg.eigvals(a)
    w = w.gather(-1, w.imag.argsort(dim=-1, stable=True))
    return w.gather(-1, w.real.argsort(dim=-1, stable=True))


def rebuilt_eig(a):
    """V diag(w) V^-1 from eig's factors."""
    w, v = torch.linalg.eig(a)
    return torch.linalg.solve(v.mT, (v * w[..., None, :]).mT).mT


def well_conditioned(a):
    return a + a.shape[-1] * torch.eye(a.shape[-1], dtype=a.dtype, device=a.device)


SOLVER = {
    "lu_factor": lambda a: torch.linalg.lu_factor(well_conditioned(a)).LU,
    "lu_many_small": lambda a: torch.linalg.lu_factor(well_conditioned(a)).LU,
    "solve": lambda a: torch.linalg.solve(well_conditioned(a), a[..., :3]),
    "solve_adjoint": lambda a: torch.linalg.solve(well_conditioned(a).mH, a[..., :3]),
    "inv": lambda a: torch.linalg.inv(well_conditioned(a)),
    "slogdet": lambda a: torch.linalg.slogdet(well_conditioned(a)).logabsdet,
    "cholesky": lambda a: torch.linalg.cholesky(a @ a.mH + torch.eye(a.shape[-1], device=a.device)),
    "qr_r": lambda a: torch.linalg.qr(a).R,
    "qr_q": lambda a: torch.linalg.qr(a[..., :, :30]).Q,
    "ormqr": lambda a: torch.ormqr(*torch.geqrf(a), a[..., :5].mT, left=False, transpose=True),
    "ldl_solve": lambda a: torch.linalg.ldl_solve(
        *torch.linalg.ldl_factor(well_conditioned(a + a.mT)), a[..., :3]
    ),
    "eigvalsh": lambda a: torch.linalg.eigvalsh(a + a.mH),
    "eigh_rebuilt": lambda a: rebuilt_eigh(a + a.mH),
    "eigvals_sorted": sorted_eigvals,
    "eig_rebuilt": rebuilt_eig,
    "svdvals": lambda a: torch.linalg.svdvals(a),
    "svd_rebuilt": lambda a: rebuilt_svd(a[..., :, :40]),
    "cholesky_solve": lambda a: torch.cholesky_solve(
        a[..., :2], torch.linalg.cholesky(a @ a.mH + torch.eye(a.shape[-1], device=a.device))
    ),
}


FFT = {
    "fft": lambda x: torch.fft.fft(x),
    "rfft2": lambda x: torch.fft.rfft2(x, norm="ortho"),
    "irfftn": lambda x: torch.fft.irfftn(torch.fft.rfftn(x), s=x.shape),
    "fftn_4d": lambda x: torch.fft.fftn(x[None].expand(2, -1, -1, -1), norm="forward"),
}


# ----------------------------------------------------------------------------- random numbers

RANDOM = {
    "rand": lambda n, d, dev: torch.rand(n, dtype=d, device=dev),
    "randn": lambda n, d, dev: torch.randn(n, dtype=d, device=dev),
    "randint": lambda n, d, dev: torch.randint(-1000, 1000, (n,), device=dev),
    "randint64": lambda n, d, dev: torch.randint(-(2**40), 2**40, (n,), device=dev),
    "bernoulli": lambda n, d, dev: torch.bernoulli(torch.full((n,), 0.3, dtype=d, device=dev)),
    "dropout": lambda n, d, dev: torch.nn.functional.dropout(
        torch.ones(n, dtype=d, device=dev), 0.4
    ),
    "normal_": lambda n, d, dev: torch.empty(n, dtype=d, device=dev).normal_(1.5, 2.0),
    "exponential_": lambda n, d, dev: torch.empty(n, dtype=d, device=dev).exponential_(),
}


def part_rng(results):
    rows = []
    for name, make in RANDOM.items():
        dtypes = [torch.float32] if name.startswith("randint") else FLOATS
        for dtype in dtypes:
            for n in (7, 1000) if QUICK else (7, 1000, 270337, 4_000_001):
                row = {"op": name, "dtype": short(dtype), "n": n}
                try:
                    torch.manual_seed(1234)
                    want = make(n, dtype, CUDA).cpu()
                    torch.manual_seed(1234)
                    got = make(n, dtype, MOJO).cpu()
                    same = torch.equal(raw(got), raw(want))
                    row["result"] = "bit-equal" if same else "DIFFERENT"
                    if not same:
                        bad = (got.double() != want.double()).sum().item()
                        row["differing"] = int(bad)
                        row["max_abs_diff"] = float((got.double() - want.double()).abs().max())
                except Exception as e:  # noqa: BLE001 - reported in the table
                    row["result"] = f"ERROR {type(e).__name__}: {str(e).splitlines()[0][:120]}"
                rows.append(row)
    write_rows(results, "rng.csv", rows)


# ----------------------------------------------------------------------------- speed


def timed(fn, device, repeat=20, warmup=3):
    """Median seconds per call of `fn` on `device`, synchronising around each call."""
    sync = synchronizer(device)
    for _ in range(warmup):
        fn()
    sync()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


# A child process's timing of `step` (defined by the source in argv[2]) on argv[1].
TIMING_CHILD = """
import statistics, sys, time, torch
device = torch.device(sys.argv[1])
sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
exec(sys.argv[2])
for _ in range(3):
    step()
sync()
times = []
for _ in range(5):
    start = time.perf_counter()
    step()
    sync()
    times.append(time.perf_counter() - start)
print(statistics.median(times) * 1e3)
"""


def backward_ms(source, device):
    """Milliseconds per call of the `step` that `source` defines (it sees `torch` and
    `device`): here for mojo, in a child process for the reference (see WITHOUT_MOJO)."""
    if device.type == "mojo":
        scope = {"torch": torch, "device": device}
        exec(source, scope)
        return timed(scope["step"], device, repeat=5) * 1e3
    env = dict(os.environ, GPU_CHECK_WITHOUT_MOJO="1")
    run = subprocess.run(
        [sys.executable, "-c", TIMING_CHILD, str(device), source],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-2000:])
    return float(run.stdout.split()[-1])


SDPA_STEP = """
q, k, v = (
    torch.randn({shape}, device=device, dtype=torch.bfloat16, requires_grad=True)
    for _ in range(3)
)
def step():
    out = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
    out.backward(torch.ones_like(out))
"""
CONV_STEP = """
x = torch.randn({n}, {c_in}, {size}, {size}, device=device, dtype=torch.bfloat16)
x = x.to(memory_format=torch.channels_last).requires_grad_()
w = torch.randn({c_out}, {c_in}, {kernel}, {kernel}, device=device, dtype=torch.bfloat16)
w = w.to(memory_format=torch.channels_last).requires_grad_()
def step():
    y = torch.nn.functional.conv2d(x, w, padding={kernel} // 2)
    y.backward(torch.ones_like(y))
"""


def layer_rows():
    """Attention (forward + backward, bfloat16) and convolution (channels_last bfloat16,
    forward + backward) against torch's flash attention and cuDNN."""
    out = {}
    sdpa_shapes = ((1, 2, 128, 64),) if QUICK else ((4, 16, 1024, 64), (2, 16, 4096, 128))
    for b, h, t, d in sdpa_shapes:
        key = f"sdpa_{b}x{h}x{t}x{d}_ms"
        source = SDPA_STEP.format(shape=(b, h, t, d))
        for device in (CUDA, MOJO):
            out[f"{key}_{label(device)}"] = backward_ms(source, device)
        out[f"{key}_ratio"] = out[f"{key}_torch"] / out[f"{key}_mojo"]
        print(key, out[f"{key}_mojo"], out[f"{key}_torch"], flush=True)
    conv_shapes = ((2, 64, 56, 64, 3),) if QUICK else ((32, 64, 56, 64, 3), (32, 256, 14, 256, 3))
    for n, c_in, size, c_out, kernel in conv_shapes:
        key = f"conv_{n}x{c_in}x{size}_{c_out}k{kernel}_ms"
        source = CONV_STEP.format(n=n, c_in=c_in, size=size, c_out=c_out, kernel=kernel)
        for device in (CUDA, MOJO):
            out[f"{key}_{label(device)}"] = backward_ms(source, device)
        out[f"{key}_ratio"] = out[f"{key}_torch"] / out[f"{key}_mojo"]
        print(key, out[f"{key}_mojo"], out[f"{key}_torch"], flush=True)

    return out


def part_layers(results):
    out = layer_rows()
    with open(os.path.join(results, "layers.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1))


def part_bench(results):
    out = {}
    n = 1 << 16 if QUICK else 64 << 20  # 64 Mi float32 elements: 256 MiB per tensor
    for device in (CUDA, MOJO):
        a = torch.ones(n, device=device)
        b = torch.ones(n, device=device)
        c = torch.empty(n, device=device)
        copy_s = timed(lambda a=a, c=c: c.copy_(a), device)
        add_s = timed(lambda a=a, b=b, c=c: torch.add(a, b, out=c), device)
        out[f"copy_GBps_{label(device)}"] = 2 * 4 * n / copy_s / 1e9
        out[f"add_GBps_{label(device)}"] = 3 * 4 * n / add_s / 1e9
        del a, b, c
    out["add_vs_torch_copy"] = out["add_GBps_mojo"] / out["copy_GBps_torch"]
    out["add_vs_torch_add"] = out["add_GBps_mojo"] / out["add_GBps_torch"]
    out["copy_vs_torch_copy"] = out["copy_GBps_mojo"] / out["copy_GBps_torch"]
    print(json.dumps(out, indent=1), flush=True)

    for dtype in (torch.bfloat16, torch.float32):
        for size in (128,) if QUICK else (4096, 8192):
            for device in (CUDA, MOJO):
                a = torch.randn(size, size, device=device, dtype=dtype)
                b = torch.randn(size, size, device=device, dtype=dtype)
                s = timed(lambda a=a, b=b: a @ b, device, repeat=10)
                out[f"gemm_{short(dtype)}_{size}_TFLOPs_{label(device)}"] = 2 * size**3 / s / 1e12
                del a, b
            key = f"gemm_{short(dtype)}_{size}_TFLOPs"
            out[f"{key}_ratio"] = out[f"{key}_mojo"] / out[f"{key}_torch"]
            print(key, out[f"{key}_mojo"], out[f"{key}_torch"], flush=True)

    for size in (64,) if QUICK else (1024, 4096):
        for device in (CUDA, MOJO):
            a = well_conditioned(torch.randn(size, size, device=device, dtype=torch.float64))
            b = torch.randn(size, 8, device=device, dtype=torch.float64)
            s = timed(lambda a=a, b=b: torch.linalg.solve(a, b), device, repeat=5)
            out[f"solve_f64_{size}_ms_{label(device)}"] = s * 1e3
        key = f"solve_f64_{size}_ms"
        out[f"{key}_ratio"] = out[f"{key}_mojo"] / out[f"{key}_torch"]
    # Many small systems: one batched cuBLAS LU and solve on both sides.
    for device in (CUDA, MOJO):
        count = 64 if QUICK else 16384
        a = well_conditioned(torch.randn(count, 8, 8, device=device, dtype=torch.float32))
        b = torch.randn(count, 8, 1, device=device, dtype=torch.float32)
        s = timed(lambda a=a, b=b: torch.linalg.solve(a, b), device, repeat=5)
        out[f"solve_many_8x8_ms_{label(device)}"] = s * 1e3
    key = "solve_many_8x8_ms"
    out[f"{key}_ratio"] = out[f"{key}_mojo"] / out[f"{key}_torch"]
    out.update(layer_rows())
    # Host time per tiny op: issue many small in-place adds, then wait once.
    for device in (CUDA, MOJO):
        x = torch.ones(16, device=device)
        sync = synchronizer(device)
        for _ in range(200):
            x.add_(1.0)
        sync()
        count = 200 if QUICK else 5000
        start = time.perf_counter()
        for _ in range(count):
            x.add_(1.0)
        issued = time.perf_counter() - start
        sync()
        out[f"tiny_op_us_{label(device)}"] = issued / count * 1e6
    out["tiny_op_ratio"] = out["tiny_op_us_mojo"] / out["tiny_op_us_torch"]
    out.update(stream_overlap())
    gemm_sizes = (128,) if QUICK else (4096, 8192)
    out["targets_met"] = {
        "add bandwidth >= 0.9 of torch's": out["add_vs_torch_add"] >= 0.9,
        "bf16 GEMM >= 0.95 of torch's": all(
            out[f"gemm_bfloat16_{size}_TFLOPs_ratio"] >= 0.95 for size in gemm_sizes
        ),
        "host time per tiny op <= 1.2 of torch's": out["tiny_op_ratio"] <= 1.2,
        "SDPA >= 0.7 of torch's flash attention": all(
            v >= 0.7 for k, v in out.items() if k.startswith("sdpa_") and k.endswith("_ratio")
        ),
        "conv >= 0.7 of cuDNN (channels_last bfloat16)": all(
            v >= 0.7 for k, v in out.items() if k.startswith("conv_") and k.endswith("_ratio")
        ),
    }
    with open(os.path.join(results, "bench.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1))


def stream_overlap():
    """Two independent chains of small products, one after the other on one stream and then
    side by side on two streams: the time ratio (near 0.5 when streams run concurrently)."""
    out = {}
    size, steps = (64, 5) if QUICK else (512, 200)
    for device in (CUDA, MOJO):
        if device.type == "cpu":  # the dry run's reference has no streams
            continue
        a = torch.randn(size, size, device=device) / size**0.5
        b = a.clone()
        sync = synchronizer(device)
        # torch.Stream's context manager takes only the accelerator's (mojo's) streams.
        if device.type == "cuda":
            current = torch.cuda.current_stream()
            streams = [torch.cuda.Stream(), torch.cuda.Stream()]
            entering = torch.cuda.stream
        else:
            current = torch.accelerator.current_stream(device)
            streams = [torch.Stream(device), torch.Stream(device)]
            entering = lambda stream: stream  # noqa: E731

        def chain(x):
            for _ in range(steps):
                x = torch.tanh(x @ x)
            return x

        chain(a)
        sync()
        start = time.perf_counter()
        chain(a)
        chain(b)
        sync()
        serial = time.perf_counter() - start
        start = time.perf_counter()
        for stream, x in zip(streams, (a, b), strict=True):
            stream.wait_stream(current)
            with entering(stream):
                chain(x)
        sync()
        out[f"two_streams_vs_serial_{label(device)}"] = (time.perf_counter() - start) / serial
    return out


# ----------------------------------------------------------------------------- first calls

FIRST_CALLS = """
import time, torch, torch_mojo_backend
torch_mojo_backend.register_mojo_devices()
x = torch.ones(4096, device="mojo")
h = x.half()
torch.mojo.synchronize()
ops = {
    "add": lambda: x + 2 * x, "sin": lambda: x.sin() * 3, "sum": lambda: x.sum(0),
    "softmax": lambda: torch.softmax(x, 0), "cumsum": lambda: x.cumsum(0),
    "half_mul": lambda: h * h + 1, "argmax": lambda: x.argmax(),
    "where": lambda: torch.where(x > 0, x, -x),
}
for name, op in ops.items():
    start = time.perf_counter(); op(); torch.mojo.synchronize()
    first = time.perf_counter() - start
    start = time.perf_counter(); op(); torch.mojo.synchronize()
    again = time.perf_counter() - start
    print(f"{name} {first * 1e3:.2f} {again * 1e3:.3f}")
"""


def first_calls(cache_dir):
    env = dict(os.environ, TORCH_MOJO_BACKEND_CACHE_DIR=cache_dir, TORCH_MOJO_BACKEND_TRACE="0")
    run = subprocess.run(
        [sys.executable, "-c", FIRST_CALLS], env=env, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise RuntimeError(run.stderr[-2000:])
    rows = {}
    for line in run.stdout.splitlines():
        name, first, again = line.split()
        rows[name] = (float(first), float(again))
    return rows


def part_firstcall(results):
    with tempfile.TemporaryDirectory() as cache:
        cold = first_calls(cache)
        warm = first_calls(cache)
    rows = []
    for name in cold:
        rows.append(
            {
                "op": name,
                "cold_first_ms": cold[name][0],
                "warm_first_ms": warm[name][0],
                "steady_ms": warm[name][1],
                "cold_ok(<=200)": cold[name][0] - cold[name][1] <= 200,
                "warm_ok(<=2)": warm[name][0] - warm[name][1] <= 2,
            }
        )
    write_rows(results, "firstcall.csv", rows)


# ----------------------------------------------------------------------------- output


def part_compile(results):
    """A nanoGPT-style training step (forward, backward, AdamW) compiled by torch.compile's
    default backend: on mojo through mojo's code generator, on torch CUDA through Triton.
    Losses of the first steps are checked against the same model uncompiled on each device."""
    from torch import nn

    width, layers, context, batch, vocab = (32, 1, 16, 2, 64) if QUICK else (256, 4, 128, 16, 512)

    def make_step(device):
        torch.manual_seed(0)
        layer = nn.TransformerEncoderLayer(
            width, 4, 4 * width, dropout=0.0, batch_first=True, norm_first=True
        )
        model = nn.Sequential(
            nn.Embedding(vocab, width),
            nn.TransformerEncoder(layer, layers, enable_nested_tensor=False),
            nn.Linear(width, vocab),
        ).to(device)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        data = torch.randint(0, vocab, (batch, context + 1)).to(device)

        def step():
            optimizer.zero_grad()
            logits = model(data[:, :-1])
            loss = nn.functional.cross_entropy(logits.reshape(-1, vocab), data[:, 1:].reshape(-1))
            loss.backward()
            optimizer.step()
            return loss

        return step

    out = {}
    for device in (CUDA,) if WITHOUT_MOJO else (MOJO,):
        name = label(device)
        try:
            eager = [make_step(device)().item()]
            torch._dynamo.reset()
            compiled = torch.compile(make_step(device))
            sync = synchronizer(device)
            start = time.perf_counter()
            first = compiled().item()
            sync()
            out[f"first_step_s_{name}"] = time.perf_counter() - start
            out[f"first_loss_matches_{name}"] = abs(first - eager[0]) <= 1e-3 * abs(eager[0])
            out[f"step_ms_{name}"] = timed(compiled, device, repeat=10) * 1e3
        except Exception as e:  # a failure is a result: record it, measure the other
            out[f"error_{name}"] = f"{type(e).__name__}: {str(e)[:300]}"
    print(json.dumps(out), flush=True)  # what is known so far, should the part's time run out
    if WITHOUT_MOJO:
        return
    # The reference in a child process (see WITHOUT_MOJO); it prints its results.
    env = dict(os.environ, GPU_CHECK_WITHOUT_MOJO="1")
    child = [sys.executable, __file__, "compile", results]
    try:
        run = subprocess.run(child, env=env, capture_output=True, text=True, timeout=240)
        out.update(json.loads(run.stdout[run.stdout.index("{") :]))
    except (ValueError, subprocess.TimeoutExpired) as e:
        out["error_torch"] = f"{type(e).__name__}: {str(e)[-600:]}"
    if "step_ms_mojo" in out and "step_ms_torch" in out:
        out["speed_vs_torch_compile"] = out["step_ms_torch"] / out["step_ms_mojo"]
        out["target_met (>= 0.9)"] = out["speed_vs_torch_compile"] >= 0.9
    with open(os.path.join(results, "compile.json"), "w") as f:
        json.dump(out, f, indent=1)
    print(json.dumps(out, indent=1), flush=True)


def write_rows(results, name, rows):
    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys]
    lines = [",".join(keys)] + [",".join(str(row.get(k, "")) for k in keys) for row in rows]
    with open(os.path.join(results, name), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)
    failing = ("ERROR", "OUT", "MISMATCH", "DIFF")
    bad = [r for r in rows if str(r.get("result", "ok")).startswith(failing)]
    print(f"{name}: {len(rows)} rows, {len(bad)} not equal or within tolerance", flush=True)


if __name__ == "__main__":
    part, results = sys.argv[1], sys.argv[2]
    os.makedirs(results, exist_ok=True)
    if not WITHOUT_MOJO:
        backend = torch_mojo_backend._C.backend_name()
        print(f"backend: {backend}, device: {torch.mojo.get_device_name()}")
    parts = {
        "ops": part_ops,
        "rng": part_rng,
        "bench": part_bench,
        "layers": part_layers,
        "firstcall": part_firstcall,
        "compile": part_compile,
    }
    parts[part](results)

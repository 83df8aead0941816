"""Random numbers equal CUDA's for a seed: the device's draws are compared bit for bit with an
independent numpy model of cuRAND's Philox and PyTorch's CUDA kernels (philox_reference.py),
itself checked against CUDA's published numbers."""

import math

import numpy as np
import philox_reference as ref
import pytest
import torch

# Below, at and above the grid cap (132 SMs x 2048 threads = 270336 subsequences).
SIZES = [7, 1000, 270337]


def draw(fn, seed=3):
    torch.manual_seed(seed)
    return fn().cpu()


def test_the_spec_numbers(device):
    torch.manual_seed(0)
    expected = torch.tensor([0.3990, 0.5167, 0.0249, 0.9401])
    torch.testing.assert_close(torch.rand(4, device=device).cpu(), expected, atol=1e-4, rtol=0)
    torch.manual_seed(0)
    normals = torch.tensor([-0.9247, -0.4253, -2.6438, 0.1452])  # CUDA's randn(4) for seed 0
    torch.testing.assert_close(torch.randn(4, device=device).cpu(), normals, atol=1e-4, rtol=0)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_uniform_is_bit_exact(device, n, dtype):
    ours = draw(lambda: torch.empty(n, device=device, dtype=getattr(torch, dtype)).uniform_(-2, 3))
    expected = ref.uniform(n, seed=3, dtype=dtype, low=-2.0, high=3.0)
    if dtype == "float64":
        assert np.array_equal(ours.numpy(), expected)
    else:
        # Half types widen exactly to float32; bfloat16 comes from the model as float32 values.
        assert np.array_equal(ours.float().numpy(), np.asarray(expected, dtype=np.float32))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("low, high", [(0, 10), (-5, 2**40)])
def test_randint_is_bit_exact(device, n, low, high):
    ours = draw(lambda: torch.randint(low, high, (n,), device=device))
    assert np.array_equal(ours.numpy(), ref.randint(n, low, high, seed=3))


@pytest.mark.parametrize("n", SIZES)
def test_bernoulli_and_dropout_masks_are_bit_exact(device, n):
    ours = draw(lambda: torch.empty(n, device=device).bernoulli_(0.3))
    assert np.array_equal(ours.numpy().astype(bool), ref.bernoulli_scalar(n, 0.3, seed=3))
    for dtype in ["float32", "float16", "float64"]:
        x = torch.ones(n, device=device, dtype=getattr(torch, dtype))
        out, mask = draw(lambda x=x: torch.stack(torch.native_dropout(x, 0.25, True)))
        assert np.array_equal(mask.numpy().astype(bool), ref.dropout_mask(n, 0.25, 3, dtype=dtype))
        torch.testing.assert_close(out, mask.to(out.dtype) / 0.75)


def test_float64_normals_are_within_a_few_ulp(device):
    n = 5000
    ours = draw(lambda: torch.randn(n, device=device, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(ours, ref.normal_float64(n, seed=3), rtol=1e-14, atol=1e-14)


def test_offsets_advance_like_cuda(device):
    torch.manual_seed(11)
    torch.rand(300000, device=device)
    state = torch.mojo.get_rng_state()
    assert int.from_bytes(bytes(state[:8].tolist()), "little") == 11
    assert int.from_bytes(bytes(state[8:].tolist()), "little") == ref.offset_increment(300000, 4)


def test_generator_state_api(device):
    g = torch.Generator(device=device)
    assert g.initial_seed() == 67280421310721
    g.manual_seed(5)
    first = torch.rand(3, device=device, generator=g)
    state = g.get_state()
    assert state.dtype == torch.uint8 and state.numel() == 16
    second = torch.rand(3, device=device, generator=g)
    g.set_state(state)
    assert torch.equal(torch.rand(3, device=device, generator=g), second)
    g.set_state(torch.tensor(list((5).to_bytes(8, "little")), dtype=torch.uint8))
    assert torch.equal(torch.rand(3, device=device, generator=g), first)
    with pytest.raises(RuntimeError, match="wrong size"):
        g.set_state(torch.zeros(12, dtype=torch.uint8))


def test_fork_rng_restores_the_device_state(device):
    torch.manual_seed(1)
    with torch.random.fork_rng(device_type="mojo"):
        torch.rand(10, device=device)
    after = torch.rand(3, device=device)
    torch.manual_seed(1)
    assert torch.equal(torch.rand(3, device=device), after)


def test_dropout_backward_uses_the_mask(device):
    x = torch.randn(64, 32).to(device).requires_grad_()
    torch.manual_seed(0)
    y = torch.nn.functional.dropout(x, 0.5, training=True)
    y.sum().backward()
    kept = y.detach() != 0
    torch.testing.assert_close(x.grad, kept.float() * 2.0)


@pytest.mark.parametrize(
    "name, fill, transform",
    [
        (
            "exponential",
            lambda t: t.exponential_(2.0),
            lambda u: (
                np.float32(-1.0)
                / np.float32(2.0)
                * np.where(u >= 1 - 2.0**-24, -(2.0**-24), np.log(u))
            ),
        ),
        (
            "geometric",
            lambda t: t.geometric_(0.3),
            lambda u: np.ceil(np.log(u) / np.log1p(np.float32(-0.3))),
        ),
        (
            "cauchy",
            lambda t: t.cauchy_(1.0, 2.0),
            lambda u: 1.0 + 2.0 * np.tan(np.pi * (np.clip(u, 2.0**-23, 1 - 2.0**-23) - 0.5)),
        ),
    ],
)
def test_uniform_transforms_follow_cudas_formulas(device, name, fill, transform):
    n = 3000
    ours = draw(lambda: fill(torch.empty(n, device=device))).numpy()
    expected = transform(ref.uniform(n, seed=3)).astype(np.float32)
    np.testing.assert_allclose(ours, expected, rtol=2e-6, atol=1e-6, err_msg=name)


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.int16, torch.uint8])
def test_geometric_integers_are_cudas_float_draws_converted(device, dtype):
    """CUDA draws geometric integers in float (`DiscreteDistributionType`) and converts."""
    n = 3000
    ours = draw(lambda: torch.empty(n, device=device, dtype=dtype).geometric_(0.3)).numpy()
    u = ref.uniform(n, seed=3)
    expected = np.ceil(np.log(u) / np.log1p(np.float32(-0.3))).astype(np.float32)
    assert np.array_equal(ours, expected.astype(ours.dtype))
    with pytest.raises(NotImplementedError, match="Bool"):
        torch.empty(3, device=device, dtype=torch.bool).geometric_(0.3)


def test_log_normal_is_the_exp_of_the_same_normals(device):
    normals = draw(lambda: torch.empty(2000, device=device, dtype=torch.float64).normal_(0.5, 2.0))
    logs = draw(lambda: torch.empty(2000, device=device, dtype=torch.float64).log_normal_(0.5, 2.0))
    torch.testing.assert_close(logs, normals.exp(), rtol=1e-13, atol=0)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_bernoulli_with_a_probability_tensor_is_bit_exact(device, dtype):
    probs = torch.rand(37, 11, dtype=torch.float64)
    ours = draw(lambda: torch.bernoulli(probs.to(device=device, dtype=dtype)))
    expected = ref.bernoulli_tensor(probs.to(dtype).numpy(), seed=3, dtype=str(dtype)[6:])
    assert np.array_equal(ours.numpy().astype(bool), expected)
    assert int.from_bytes(bytes(torch.mojo.get_rng_state()[8:].tolist()), "little") == 12


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8", "bool", "float32", "float64"])
def test_random_over_the_whole_range_is_bit_exact(device, dtype):
    n = 1001
    ours = draw(lambda: torch.empty(n, device=device, dtype=getattr(torch, dtype)).random_())
    assert np.array_equal(ours.numpy(), ref.random_default(n, seed=3, dtype=dtype))


@pytest.mark.parametrize("dtype", ["uint8", "int8", "int16", "int32"])
def test_randint_into_sub_word_dtypes_is_bit_exact(device, dtype):
    """Byte and half-word outputs share 32-bit words on wgpu; every element still lands."""
    n = 1001
    ours = draw(lambda: torch.randint(0, 100, (n,), device=device, dtype=getattr(torch, dtype)))
    assert np.array_equal(ours.numpy(), ref.randint(n, 0, 100, seed=3, dtype=dtype))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_bernoulli_into_half_types_is_bit_exact(device, dtype):
    n = 1001
    ours = draw(lambda: torch.empty(n, device=device, dtype=getattr(torch, dtype)).bernoulli_(0.3))
    assert np.array_equal(
        ours.float().numpy().astype(bool), ref.bernoulli_scalar(n, 0.3, 3, dtype=dtype)
    )


@pytest.mark.parametrize("dtype, low", [("int64", -7), ("int32", 5), ("int16", -3), ("uint8", 9)])
def test_random_from_without_to_is_bit_exact(device, dtype, low):
    """``random_(from, None)`` draws ``[from, dtype max]``, like ``random_(from, max + 1)``."""
    n = 1001
    top = {"int64": 2**63, "int32": 2**31, "int16": 2**15, "uint8": 2**8}[dtype]
    ours = draw(
        lambda: torch.empty(n, device=device, dtype=getattr(torch, dtype)).random_(low, None)
    )
    assert np.array_equal(ours.numpy(), ref.randint(n, low, top, seed=3, dtype=dtype))


def test_random_over_all_64_bit_values_takes_the_draw_whole(device):
    n = 1001
    ours = draw(lambda: torch.empty(n, device=device, dtype=torch.int64).random_(-(2**63), None))
    xyzw, c = ref._grid_stride_draws(n, 3, 0, 2, ref.DEFAULT_SMS, ref.DEFAULT_THREADS_PER_SM)
    assert np.array_equal(ours.numpy(), ref._u64_pair_values(xyzw, c).view(np.int64))
    with pytest.raises(RuntimeError, match="handles only int64"):
        torch.empty(3, device=device, dtype=torch.int32).random_(-(2**63), None)


def randperm_model(n, seed):
    """CUDA's randperm: keys from random_(min, max) over int32 (int64 past 32 bits), stably
    ordered by their low `bits` bits, then each run of equal keys shuffled by the thread at
    its start (Fisher-Yates over `curand` after `curand_init(seed, start, offset)`). Returns
    the permutation and whether any keys were equal."""
    bits = min(64, math.ceil(math.log2(n - (6 * n * n + 1) / (math.log(0.9) * 12))))
    if bits <= 32:
        keys = ref.randint(n, -(2**31), 2**31 - 1, seed, dtype="int32").astype(np.int64)
        width = 32
    else:
        keys = ref.randint(n, -(2**63), 2**63 - 1, seed, dtype="int64")
        width = 64
    order_by = keys if bits == width else keys & ((1 << bits) - 1)
    order = np.argsort(order_by, kind="stable")
    key = order_by[order]
    block = ref.offset_increment(n, 2) // 4
    for start in range(n - 1):
        if key[start + 1] != key[start] or (start > 0 and key[start - 1] == key[start]):
            continue
        size = 1
        while start + size < n and key[start + size] == key[start]:
            size += 1
        draws = (int(w) for b in range(size) for w in ref.philox4x32(seed, start, block + b))
        for j in range(size - 1, 0, -1):
            r = next(draws) % (j + 1)
            order[[start + j, start + r]] = order[[start + r, start + j]]
    return order, len(np.unique(order_by)) < n


@pytest.mark.parametrize("n", [1, 2, 10, 1000, 40000])
def test_randperm_is_cudas(device, n):
    ours = draw(lambda: torch.randperm(n, device=device))
    assert sorted(ours.tolist()) == list(range(n))
    expected, _ = randperm_model(n, seed=3)
    assert np.array_equal(ours.numpy(), expected)
    state = torch.mojo.get_rng_state()
    offset = int.from_bytes(bytes(state[8:].tolist()), "little")
    assert offset == ref.offset_increment(n, 2) + -(-n // 4) * 4


def test_randperm_shuffles_runs_of_equal_keys_as_cuda(device):
    runs = 0
    for seed in range(40):
        for n in (12, 40):
            expected, had_runs = randperm_model(n, seed)
            ours = draw(lambda n=n: torch.randperm(n, device=device), seed=seed)
            assert np.array_equal(ours.numpy(), expected), (seed, n)
            runs += had_runs
    assert runs >= 3  # the seeds above do draw equal keys


def test_randperm_dtypes_and_errors(device):
    perm = torch.randperm(100, device=device, dtype=torch.float16)
    assert perm.dtype == torch.float16 and sorted(perm.cpu().tolist()) == list(range(100))
    out = torch.empty(0, dtype=torch.int32, device=device)
    assert torch.randperm(7, out=out) is out and sorted(out.cpu().tolist()) == list(range(7))
    assert torch.randperm(0, device=device).numel() == 0
    with pytest.raises(RuntimeError, match="2049 for Half"):
        torch.randperm(3000, device=device, dtype=torch.float16)
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.randperm(300, device=device, dtype=torch.int8)


@pytest.mark.parametrize("rate", [0.0, 0.7, 9.5, 10.0, 40.0, 2000.0])
def test_poisson_has_the_rates_mean_and_variance(device, rate):
    n = 200_000
    counts = draw(lambda: torch.poisson(torch.full((n,), rate, device=device))).double()
    assert torch.equal(counts, counts.round()) and counts.min() >= 0
    # Five standard errors of the sample mean and of the sample variance (for a Poisson
    # variable the fourth central moment is rate + 3 rate², so Var(s²) ≈ (rate + 2 rate²) / n).
    assert abs(counts.mean().item() - rate) <= 5 * math.sqrt(rate / n)
    assert abs(counts.var().item() - rate) <= 5 * math.sqrt((rate + 2 * rate**2) / n) + 1e-9


def test_poisson_keeps_dtype_and_shape_and_advances_like_cuda(device):
    rates = torch.tensor([[1.0, 20.0], [0.0, 3.5]], dtype=torch.float16, device=device)
    torch.manual_seed(5)
    counts = torch.poisson(rates)
    assert counts.dtype == torch.float16 and counts.shape == (2, 2) and counts[1, 0] == 0
    offset = int.from_bytes(bytes(torch.mojo.get_rng_state()[8:].tolist()), "little")
    assert offset == 20
    with pytest.raises(RuntimeError, match="non-negative"):
        torch.poisson(torch.tensor([1.0, -1.0], device=device))

"""Checks of the pure-numpy CUDA RNG reference in philox_reference.py against known numbers.

No device is needed: these tests pin the reference itself (Random123's known-answer vectors,
the documented ``torch.rand`` output on CUDA, the launch arithmetic, exact FMA emulation), so
that the backend's generator can then be compared against it.
"""

import os
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))

import philox_reference as ref  # noqa: E402

# --------------------------------------------------------------------------------------------
# Philox4x32-10
# --------------------------------------------------------------------------------------------

# Random123's kat_vectors for philox4x32_10: (counter c0..c3, key k0..k1) -> output.
RANDOM123_KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    (
        (0xFFFFFFFF,) * 4,
        (0xFFFFFFFF,) * 2,
        (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD),
    ),
    (
        (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
        (0xA4093822, 0x299F31D0),
        (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1),
    ),
]


@pytest.mark.parametrize("counter,key,expected", RANDOM123_KAT)
def test_philox_known_answers(counter, key, expected):
    c0, c1, c2, c3 = counter
    seed = key[0] | key[1] << 32
    block = c0 | c1 << 32  # (c0, c1) is cuRAND's block index
    subsequence = c2 | c3 << 32  # (c2, c3) is the subsequence
    out = ref.philox4x32(seed, subsequence, block)
    assert tuple(int(v) for v in out) == expected
    assert all(v.dtype == np.uint32 for v in out)


def test_philox_vectorises_and_broadcasts():
    subs = np.array([0, 1, 2**40 + 5], dtype=np.uint64)
    blocks = np.array([0, 3, 2**33], dtype=np.uint64)
    x, y, z, w = ref.philox4x32(123, subs, blocks)
    for j in range(3):
        one = ref.philox4x32(123, int(subs[j]), int(blocks[j]))
        assert (x[j], y[j], z[j], w[j]) == tuple(one)
    # a scalar block broadcasts over an array of subsequences
    xs = ref.philox4x32(123, np.arange(4), 7)[0]
    assert xs.shape == (4,)
    assert xs[2] == ref.philox4x32(123, 2, 7)[0]


# --------------------------------------------------------------------------------------------
# Golden values from stock PyTorch on CUDA
# --------------------------------------------------------------------------------------------


def test_torch_rand_golden_seed0():
    # torch.manual_seed(0); torch.rand(4, device="cuda") prints
    # tensor([0.3990, 0.5167, 0.0249, 0.9401], device='cuda:0')
    values = ref.uniform(4, seed=0)
    assert values.dtype == np.float32
    np.testing.assert_array_equal(np.round(values, 4), np.float32([0.3990, 0.5167, 0.0249, 0.9401]))


def test_small_rand_uses_x_of_block_zero_per_thread():
    # n <= 256: one thread per element, each using the .x of its first curand4.
    x = ref.philox4x32(0, np.arange(4), 0)[0]
    expected = x.astype(np.float32) * np.float32(2.0**-32) + np.float32(2.0**-33)
    np.testing.assert_array_equal(ref.uniform(4, 0), expected)


# --------------------------------------------------------------------------------------------
# Launch geometry and offset increments
# --------------------------------------------------------------------------------------------

CAP_H100 = 132 * 2048  # 1056 blocks of 256 threads


def test_grid_threads():
    assert ref.grid_threads(1) == 256
    assert ref.grid_threads(4) == 256
    assert ref.grid_threads(257) == 512
    assert ref.grid_threads(10**8) == CAP_H100
    assert ref.grid_threads(10**8, sms=108) == 108 * 2048  # A100
    assert ref.grid_threads(0) == 0


@pytest.mark.parametrize(
    "n,unroll,expected",
    [
        (1, 4, 4),
        (4, 4, 4),
        (4, 2, 4),
        (1000, 4, 4),
        (CAP_H100, 4, 4),
        (CAP_H100 * 4, 4, 4),
        (CAP_H100 * 4 + 1, 4, 8),
        (CAP_H100 * 2, 2, 4),
        (CAP_H100 * 2 + 1, 2, 8),
        (CAP_H100 * 40, 4, 40),
        (10**8, 4, 4 * -(-(10**8) // (CAP_H100 * 4))),
        (0, 4, 0),
    ],
)
def test_offset_increment(n, unroll, expected):
    assert ref.offset_increment(n, unroll) == expected


def test_offset_increment_depends_on_sms():
    n = CAP_H100 * 4  # one round per thread on an H100, more on an A100
    assert ref.offset_increment(n, 4, sms=132) == 4
    assert ref.offset_increment(n, 4, sms=108) == 8


def test_offset_must_be_a_multiple_of_four():
    with pytest.raises(ValueError):
        ref.uniform(4, 0, offset=2)


# --------------------------------------------------------------------------------------------
# Element mapping
# --------------------------------------------------------------------------------------------


def _u(x):
    return x.astype(np.float32) * np.float32(2.0**-32) + np.float32(2.0**-33)


def test_grid_stride_mapping_float():
    # sms=1 caps the grid at 8 blocks: T = 2048 threads, 4 components per curand4 call.
    T = 2048
    n = 2 * 4 * T + 3
    seed, offset = 99, 8
    values = ref.uniform(n, seed, offset, sms=1)
    for i in (0, 5, T - 1, T, 3 * T + 7, 4 * T, 4 * T + 2, 7 * T + 1, 8 * T + 2):
        t, q = i % T, i // T
        xyzw = ref.philox4x32(seed, t, offset // 4 + q // 4)
        assert values[i] == _u(xyzw[q % 4]), i


def test_grid_stride_mapping_double():
    T = 2048
    n = 3 * 2 * T
    seed, offset = 7, 4
    values = ref.uniform(n, seed, offset, dtype="float64", sms=1)
    for i in (0, T - 1, T, 2 * T, 3 * T + 1, 5 * T + 9):
        t, q = i % T, i // T
        x, y, z, w = (int(v) for v in ref.philox4x32(seed, t, offset // 4 + q // 2))
        a, b = (x, y) if q % 2 == 0 else (z, w)
        expected = (a ^ (b << 21)) * 2.0**-53 + 2.0**-54
        assert values[i] == expected, i


def test_offset_advances_to_the_next_block():
    # For n <= T, offset 4 makes every thread start at block 1.
    first = ref.uniform(16, 5, offset=4)
    x = ref.philox4x32(5, np.arange(16), 1)[0]
    np.testing.assert_array_equal(first, _u(x))


def test_prefix_is_stable_while_the_grid_is_the_same():
    a = ref.uniform(200, 3)
    b = ref.uniform(256, 3)
    np.testing.assert_array_equal(a, b[:200])


# --------------------------------------------------------------------------------------------
# Determinism and seeds
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
def test_deterministic_and_seed_sensitive(dtype):
    a = ref.uniform(1000, 1234, 8, dtype=dtype)
    b = ref.uniform(1000, 1234, 8, dtype=dtype)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, ref.uniform(1000, 1235, 8, dtype=dtype))
    assert not np.array_equal(a, ref.uniform(1000, 1234, 12, dtype=dtype))
    # the high 32 bits of the seed are the second key word
    assert not np.array_equal(a, ref.uniform(1000, 1234 + (1 << 32), 8, dtype=dtype))


def test_uniform_range_and_distribution():
    v = ref.uniform(100_000, 11)
    assert v.min() >= 0.0 and v.max() < 1.0
    assert abs(v.mean() - 0.5) < 0.01
    w = ref.uniform(100_000, 11, low=-2.0, high=3.0)
    assert w.min() >= -2.0 and w.max() < 3.0
    d = ref.uniform(100_000, 11, dtype="float64", low=5.0, high=6.0)
    assert d.dtype == np.float64 and d.min() >= 5.0 and d.max() < 6.0


def test_uniform_upper_bound_maps_to_lower():
    # A half draw that rounds up to `high` becomes `low`: with u close to 1, half(u) == 1.0.
    v = ref.rand_half(200_000, 0)
    assert v.dtype == np.float16
    assert v.max() < 1.0
    u = ref.uniform(200_000, 0)  # the same float draws, before rounding to half
    rounds_to_one = u.astype(np.float16) == 1.0
    assert rounds_to_one.any()
    assert (v[rounds_to_one] == 0.0).all()


def test_half_and_bf16_round_the_float_value():
    u = ref.uniform(5000, 21)
    np.testing.assert_array_equal(
        ref.rand_half(5000, 21), np.where(u.astype(np.float16) == 1, 0, u.astype(np.float16))
    )
    bf = ref.rand_bf16(5000, 21)
    assert bf.dtype == np.float32
    assert (bf.view(np.uint32) & 0xFFFF == 0).all()


def test_to_bfloat16_matches_torch():
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(10_000).astype(np.float32)
    ties = np.float32([1 + 2**-8, 1 + 3 * 2**-8, -(1 + 2**-8), 2**-130, np.inf, -np.inf])
    x = np.concatenate([x, ties])
    expected = torch.from_numpy(x).to(torch.bfloat16).float().numpy()
    np.testing.assert_array_equal(ref.to_bfloat16(x), expected)
    assert ref.to_bfloat16(np.float32(1 + 2**-8)) == 1.0  # tie to even, down
    assert ref.to_bfloat16(np.float32(1 + 3 * 2**-8)) == 1 + 2**-6  # tie to even, up


# --------------------------------------------------------------------------------------------
# Exact FMA emulation
# --------------------------------------------------------------------------------------------


def _round_fraction_to_f32(x):
    """The float32 nearest the rational x, ties to even (a slow, obviously-correct version)."""
    d = np.float32(float(x))
    cands = [np.nextafter(d, np.float32(-np.inf)), d, np.nextafter(d, np.float32(np.inf))]
    best = min(abs(Fraction(float(c)) - x) for c in cands)
    near = [c for c in cands if abs(Fraction(float(c)) - x) == best]
    return min(near, key=lambda c: int(np.float32(c).view(np.uint32)) & 1)


def test_fma64_is_correctly_rounded():
    rng = np.random.default_rng(1)
    a = rng.standard_normal(2000) * np.exp2(rng.integers(-20, 20, 2000))
    b = rng.standard_normal(2000)
    c = rng.standard_normal(2000) * np.exp2(rng.integers(-40, 40, 2000))
    got = ref._fma64(a, b, c)
    for j in range(len(a)):
        exact = Fraction(a[j]) * Fraction(b[j]) + Fraction(c[j])
        assert got[j] == float(exact), j  # float(Fraction) is correctly rounded


def test_fma64_hard_tie():
    # a*b + c = 1 + 2**-52 + 2**-53 - 2**-105: just below a tie. Unfused a*b + c rounds twice
    # and lands on 1 + 2**-51; the fused result is 1 + 2**-52.
    a, b, c = 1 + 2.0**-52, 2.0**-53 * (1 - 2.0**-52), 1 + 2.0**-52
    assert a * b + c == 1 + 2.0**-51
    assert ref._fma64(np.float64(a), np.float64(b), np.float64(c)) == 1 + 2.0**-52


def test_fma32_is_correctly_rounded():
    rng = np.random.default_rng(2)
    a = rng.random(2000).astype(np.float32)
    b = (rng.standard_normal(2000) * 100).astype(np.float32)
    c = (rng.standard_normal(2000) * np.exp2(rng.integers(-10, 10, 2000))).astype(np.float32)
    got = ref._fma32(a, b, c)
    for j in range(len(a)):
        exact = Fraction(float(a[j])) * Fraction(float(b[j])) + Fraction(float(c[j]))
        assert got[j] == _round_fraction_to_f32(exact), j


def test_fma32_hard_tie():
    # exact = 1 + 2**-23 + 2**-24 - 2**-70, just below the midpoint of 1 + 2**-23 and
    # 1 + 2**-22; rounding through float64 would see the midpoint and go to even (up).
    a = np.float32(1 + 2.0**-23)
    b = np.float32(2.0**-24 * (1 - 2.0**-23))
    c = np.float32(1 + 2.0**-23)
    assert np.float32(np.float64(a) * np.float64(b) + np.float64(c)) == np.float32(1 + 2.0**-22)
    assert ref._fma32(a, b, c) == np.float32(1 + 2.0**-23)


# --------------------------------------------------------------------------------------------
# random_
# --------------------------------------------------------------------------------------------


def test_randint_32bit_path():
    seed, low, high = 42, -5, 1000
    x = ref.philox4x32(seed, np.arange(8), 0)[0].astype(np.int64)
    values = ref.randint(8, low, high, seed)
    assert values.dtype == np.int64
    np.testing.assert_array_equal(values, x % (high - low) + low)


def test_randint_64bit_path_from_2_pow_28():
    seed = 42
    x, y, _, _ = (v.astype(object) for v in ref.philox4x32(seed, np.arange(8), 0))
    for rng in (2**28, 2**40 + 3, 2**63 + 11):
        expected = [((int(a) << 32 | int(b)) % rng) for a, b in zip(x, y, strict=True)]
        got = ref.randint(8, 0, rng, seed)
        # (v % range) + from, reinterpreted as int64
        expected = [(e + 2**63) % 2**64 - 2**63 for e in expected]
        assert got.tolist() == expected
    # just below the threshold: the 32-bit .x component
    below = ref.randint(8, 0, 2**28 - 1, seed)
    assert below.tolist() == [int(a) % (2**28 - 1) for a in x]


def test_randint_64bit_path_uses_pairs_with_unroll_2():
    T = 2048
    seed = 3
    values = ref.randint(2 * T + 1, 0, 2**62, seed, sms=1)
    x, y, z, w = (int(v) for v in ref.philox4x32(seed, 0, 0))
    assert values[0] == ((x << 32) | y) % 2**62
    assert values[T] == ((z << 32) | w) % 2**62
    x1, y1, _, _ = (int(v) for v in ref.philox4x32(seed, 0, 1))
    assert values[2 * T] == ((x1 << 32) | y1) % 2**62


def test_randint_casts():
    v64 = ref.randint(100, 0, 1000, 8)
    np.testing.assert_array_equal(ref.randint(100, 0, 1000, 8, dtype="int16"), v64)
    np.testing.assert_array_equal(ref.randint(100, 0, 1000, 8, dtype="float32"), v64)
    with pytest.raises(ValueError):
        ref.randint(4, 5, 5, 0)


def test_random_default():
    seed = 17
    x, y, _, _ = (int(v) for v in ref.philox4x32(seed, 0, 0))
    assert ref.random_default(1, seed)[0] == ((x << 32) | y) % 2**63
    assert ref.random_default(1, seed, dtype="int32")[0] == x % 2**31
    assert ref.random_default(1, seed, dtype="float32")[0] == x % (2**24 + 1)
    assert ref.random_default(1, seed, dtype="bool")[0] == bool(x & 1)


# --------------------------------------------------------------------------------------------
# bernoulli_
# --------------------------------------------------------------------------------------------


def test_bernoulli_scalar_float_path():
    seed, n, p = 9, 300, 0.3
    x = ref.philox4x32(seed, np.arange(n), 0)[0]
    np.testing.assert_array_equal(ref.bernoulli_scalar(n, p, seed), _u(x) < np.float32(p))
    assert not ref.bernoulli_scalar(n, 0.0, seed).any()
    big = ref.bernoulli_scalar(200_000, p, seed)
    assert abs(big.mean() - p) < 0.01


def test_bernoulli_scalar_double_path():
    seed = 9
    x, y, _, _ = (int(v) for v in ref.philox4x32(seed, 0, 0))
    u = (x ^ (y << 21)) * 2.0**-53 + 2.0**-54
    for p in (u, np.nextafter(u, 2.0)):
        assert ref.bernoulli_scalar(1, p, seed, dtype="float64")[0] == (u < p)


def test_bernoulli_tensor_mapping_and_le():
    seed, offset = 4, 8
    u = _u(np.stack(ref.philox4x32(seed, np.arange(3), offset // 4), axis=1).reshape(-1))
    u = u[:10]  # element i: thread i // 4, component i % 4
    np.testing.assert_array_equal(ref.bernoulli_tensor(u, seed, offset), np.ones(10, bool))
    below = np.nextafter(u, np.float32(0))
    np.testing.assert_array_equal(ref.bernoulli_tensor(below, seed, offset), np.zeros(10, bool))
    probs = np.full((4, 5), 0.5)
    assert ref.bernoulli_tensor(probs, seed).shape == (4, 5)
    assert not ref.bernoulli_tensor(np.zeros(64), seed).any()
    assert ref.bernoulli_tensor(np.ones(64), seed).all()
    assert ref.BERNOULLI_TENSOR_INCREMENT == 12


# --------------------------------------------------------------------------------------------
# Dropout
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,dtype,expected",
    [
        (16, "float32", 4),
        (12, "float32", 4),
        (6, "float32", 2),
        (7, "float32", 1),
        (16, "float16", 8),
        (12, "bfloat16", 4),
        (16, "float64", 2),
        (9, "float64", 1),
    ],
)
def test_dropout_vec_size(n, dtype, expected):
    assert ref.dropout_vec_size(n, dtype) == expected


def test_dropout_vec_size_alignment_limit():
    assert ref.dropout_vec_size(16, "float16", max_vec=2) == 2


def _raw(seed, sub, block, comp):
    return _u(np.asarray(ref.philox4x32(seed, sub, block)[comp]))


def test_dropout_mask_vec4():
    seed, offset, p = 5, 4, 0.4
    n = 1024  # T = 1024 threads, 256 of them busy with 4 lanes each
    keep = ref.dropout_mask(n, p, seed, offset)
    u = np.array([_raw(seed, e // 4, offset // 4, e % 4) for e in range(n)])
    np.testing.assert_array_equal(keep, u < np.float32(1 - p))


def test_dropout_mask_vec8_and_vec2():
    seed, p = 5, 0.5
    T = 2048  # sms=1
    n = 8 * T + 8 * 3  # VEC 8 for half: thread 0..2 run a second iteration
    keep = ref.dropout_mask(n, p, seed, dtype="float16", sms=1)
    for e in (0, 3, 4, 7, 8, 8 * T, 8 * T + 5, 8 * T + 23):
        g, lane = e // 8, e % 8
        expected = _raw(seed, g % T, 2 * (g // T) + lane // 4, lane % 4) < np.float32(1 - p)
        assert keep[e] == expected, e
    n2 = 2 * T + 4  # VEC 2 for double: .x and .y of a fresh draw each iteration
    keep2 = ref.dropout_mask(n2, p, seed, dtype="float64", sms=1)
    for e in (0, 1, 2, 2 * T, 2 * T + 3):
        g, lane = e // 2, e % 2
        expected = _raw(seed, g % T, g // T, lane).astype(np.float64) < 1 - p
        assert keep2[e] == expected, e


def test_dropout_mask_vec1_is_the_grid_stride_mapping():
    seed, p, n = 6, 0.25, 2 * 2048 + 1  # odd: VEC 1
    keep = ref.dropout_mask(n, p, seed, sms=1)
    for i in (0, 1, 2047, 2048, 4096):
        t, q = i % 2048, i // 2048
        assert keep[i] == (_raw(seed, t, q // 4, q % 4) < np.float32(1 - p)), i


def test_dropout_keep_rate():
    keep = ref.dropout_mask(400_000, 0.2, 1)
    assert abs(keep.mean() - 0.8) < 0.01


# --------------------------------------------------------------------------------------------
# normal_ (float64)
# --------------------------------------------------------------------------------------------


def test_sincospi_within_an_ulp_of_mpmath():
    rng = np.random.default_rng(3)
    v = np.concatenate([rng.random(500) * 2, [0.25, 0.5, 1.0, 1.5, 2.0, 2.0**-53, 1 - 2.0**-53]])
    sin, cos = ref._sincospi(v)
    mpmath.mp.prec = 113
    for j, vj in enumerate(v):
        s_exact = float(mpmath.sinpi(mpmath.mpf(float(vj))))
        c_exact = float(mpmath.cospi(mpmath.mpf(float(vj))))
        for got, want in ((sin[j], s_exact), (cos[j], c_exact)):
            assert abs(got - want) <= 2 * np.spacing(abs(want)), (vj, got, want)
    assert sin[v == 1.0][0] == 0.0 and not np.signbit(sin[v == 1.0][0])


def test_normal_float64_box_muller_pairs():
    T = 2048
    seed = 12
    z = ref.normal_float64(2 * T, seed, sms=1)
    # element i and i + T are the sine and cosine of thread i's first pair
    for i in (0, 1, 100, T - 1):
        x, y, _, _ = (int(v) for v in ref.philox4x32(seed, i, 0))
        u = (x ^ (y << 21)) * 2.0**-53 + 2.0**-54
        np.testing.assert_allclose(z[i] ** 2 + z[i + T] ** 2, -2 * np.log(u), rtol=1e-12)


def test_normal_float64_moments_and_affine():
    z = ref.normal_float64(200_000, 2)
    assert abs(z.mean()) < 0.01 and abs(z.std() - 1) < 0.01
    w = ref.normal_float64(1000, 2, mean=3.0, std=0.5)
    np.testing.assert_allclose(w, z[:1000] * 0.5 + 3.0, rtol=0, atol=1e-15 * 8)

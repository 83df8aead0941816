"""A pure-numpy reference of the random numbers stock PyTorch draws on CUDA.

This module is independent of the mojo backend: it only uses numpy. It reproduces, bit for bit
where that is possible, what ``torch.rand`` / ``randint`` / ``bernoulli`` / ``dropout`` give on
an NVIDIA GPU, so that the backend's generator can be checked off-GPU. The spec is section 5 of
``/work/shared/reference/privateuse1.md``; the sources it summarises (and that this file was
checked against) are cuRAND's ``curand_philox4x32_x.h``, ``curand_uniform.h``,
``curand_normal.h`` and PyTorch's ``ATen/native/cuda/DistributionTemplates.h``,
``ATen/core/TransformationHelper.h`` and ``ATen/native/cuda/Dropout.cu``.

Conventions shared by every sampler:

* ``seed`` is the generator's 64-bit seed, ``offset`` its philox offset
  (``philox_offset_per_thread``), which PyTorch keeps a multiple of 4.
* ``sms`` is the emulated multiprocessor count (132 on an H100/H200 SXM, 108 on an A100) and
  ``threads_per_sm`` the maximum resident threads per multiprocessor (2048 on all three). They
  fix the launch grid, and with it which thread (philox subsequence) draws which element.
* Outputs are flat arrays of ``n`` elements in the TensorIterator's linear order, which is memory
  order for a dense output.
* The samplers do not advance anything: the caller adds the op's increment to ``offset``
  (``offset_increment`` for the grid-stride ops and dropout, ``BERNOULLI_TENSOR_INCREMENT`` for
  ``bernoulli_(Tensor)``).

Exactness: the Philox stream, the uniform transforms, ``randint``/``random_``, both bernoulli
forms and the dropout masks are exact integer or correctly rounded IEEE arithmetic, so they match
CUDA bit for bit. ``normal_float64`` goes through ``log`` and ``sincospi``, which libdevice
computes to within 1 ulp but not always correctly rounded, so it matches CUDA only to a few ulp.
The float32 ``randn`` path is not provided: it uses the ``__sincosf`` hardware approximation.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "BERNOULLI_TENSOR_INCREMENT",
    "bernoulli_scalar",
    "bernoulli_tensor",
    "dropout_mask",
    "dropout_vec_size",
    "grid_threads",
    "normal_float64",
    "offset_increment",
    "philox4x32",
    "rand_bf16",
    "rand_half",
    "randint",
    "random_default",
    "to_bfloat16",
    "uniform",
]

# ---------------------------------------------------------------------------------------------
# Philox4x32-10 (curand_philox4x32_x.h; identical to Random123's philox4x32_10)
# ---------------------------------------------------------------------------------------------

_M0 = np.uint64(0xD2511F53)  # PHILOX_M4x32_0, multiplies counter word 0
_M1 = np.uint64(0xCD9E8D57)  # PHILOX_M4x32_1, multiplies counter word 2
_W0 = 0x9E3779B9  # PHILOX_W32_0, added to key word 0 between rounds
_W1 = 0xBB67AE85  # PHILOX_W32_1, added to key word 1 between rounds
_MASK32 = np.uint64(0xFFFFFFFF)
_MASK64 = (1 << 64) - 1
_SHIFT32 = np.uint64(32)

BLOCK_SIZE = 256  # threads per block of every grid-stride RNG kernel
DEFAULT_SMS = 132  # H100 / H200 SXM
DEFAULT_THREADS_PER_SM = 2048  # maxThreadsPerMultiProcessor on A100, H100 and H200

# bernoulli_(Tensor p) asks philox_cuda_state for 10, which the generator rounds up to 12.
BERNOULLI_TENSOR_INCREMENT = 12


def philox4x32(seed, subsequence, block):
    """One Philox4x32-10 block, as cuRAND's ``curand4`` returns it with ``STATE == 0``.

    The key is ``(lo32(seed), hi32(seed))`` and the counter is ``(c0, c1, c2, c3)`` with
    ``(c0, c1) = block`` (the 64-bit block index, low word first) and ``(c2, c3) = subsequence``.
    After ``curand_init(seed, subsequence, offset)`` with ``offset % 4 == 0``, the k-th
    ``curand4`` of that state is ``philox4x32(seed, subsequence, offset // 4 + k)``.

    ``subsequence`` and ``block`` may be Python ints or integer arrays (broadcast together);
    values are taken modulo 2**64. (cuRAND carries a block index overflowing 2**64 into the
    subsequence words; that needs 2**66 draws per thread and is not modelled.)

    Returns four ``np.uint32`` arrays ``(x, y, z, w)``.
    """
    seed = int(seed) & _MASK64
    k0 = seed & 0xFFFFFFFF
    k1 = seed >> 32
    sub = np.asarray(_as_u64(subsequence))
    blk = np.asarray(_as_u64(block))
    sub, blk = np.broadcast_arrays(sub, blk)
    c0 = blk & _MASK32
    c1 = blk >> _SHIFT32
    c2 = sub & _MASK32
    c3 = sub >> _SHIFT32
    for rnd in range(10):
        if rnd:
            k0 = (k0 + _W0) & 0xFFFFFFFF
            k1 = (k1 + _W1) & 0xFFFFFFFF
        # 32x32 -> 64-bit products; both factors are below 2**32, so uint64 never wraps.
        p0 = _M0 * c0
        p1 = _M1 * c2
        hi0, lo0 = p0 >> _SHIFT32, p0 & _MASK32
        hi1, lo1 = p1 >> _SHIFT32, p1 & _MASK32
        c0, c1, c2, c3 = (
            hi1 ^ c1 ^ np.uint64(k0),
            lo1,
            hi0 ^ c3 ^ np.uint64(k1),
            lo0,
        )
    return tuple(c.astype(np.uint32) for c in (c0, c1, c2, c3))


def _as_u64(value):
    """An int or integer array as uint64, reduced modulo 2**64 (negative ints wrap)."""
    if isinstance(value, (int, np.integer)):
        return np.uint64(int(value) & _MASK64)
    arr = np.asarray(value)
    if arr.dtype.kind not in "iub":
        raise TypeError(f"expected integers, got {arr.dtype}")
    return arr.astype(np.int64).view(np.uint64) if arr.dtype.kind == "i" else arr.astype(np.uint64)


# ---------------------------------------------------------------------------------------------
# Launch geometry and the element -> (subsequence, block, component) mapping
# ---------------------------------------------------------------------------------------------


def grid_threads(n, sms=DEFAULT_SMS, threads_per_sm=DEFAULT_THREADS_PER_SM):
    """``T = 256 * grid`` with ``grid = min(ceil(n / 256), sms * threads_per_sm / 256)``.

    This is ``calc_execution_policy`` (DistributionTemplates.h) and the identical launch in
    ``dropout_cuda``. It is the number of philox subsequences a launch uses.
    """
    n = int(n)
    if n < 0:
        raise ValueError("n must be non-negative")
    blocks_per_sm = threads_per_sm // BLOCK_SIZE
    grid = min(-(-n // BLOCK_SIZE), sms * blocks_per_sm)
    return BLOCK_SIZE * grid


def offset_increment(n, unroll, sms=DEFAULT_SMS, threads_per_sm=DEFAULT_THREADS_PER_SM):
    """How far a grid-stride RNG launch over ``n`` elements advances the philox offset.

    ``4 * ceil(n / (T * unroll))``: the number of ``curand4`` calls each thread makes, times the
    four 32-bit values a call consumes. ``unroll`` is 4 for float/half/bf16 ``uniform_`` and
    ``normal_``, bernoulli-scalar on non-double outputs, the 32-bit ``random_`` paths and dropout
    (any vector width); 2 for double ``uniform_``/``normal_``/bernoulli and the 64-bit
    ``random_`` paths. An empty tensor launches nothing and returns 0. (A tensor that needs
    64-bit indexing is split into sub-launches, each taking its own increment; not modelled.)
    """
    n = int(n)
    if n == 0:
        return 0
    per_call = grid_threads(n, sms, threads_per_sm) * unroll
    return 4 * (-(-n // per_call))


def _check_offset(offset):
    offset = int(offset)
    if offset < 0 or offset % 4:
        # cuRAND would shift its output window by offset % 4; PyTorch never asks for that.
        raise ValueError(f"philox offset must be a non-negative multiple of 4, got {offset}")
    return offset


def _grid_stride_draws(n, seed, offset, unroll, sms, threads_per_sm):
    """The ``curand4`` block behind each element of ``distribution_elementwise_grid_stride_kernel``.

    Element ``i`` is handled by thread ``t = i mod T`` (its subsequence) in its ``k``-th call,
    ``k = (i div T) div unroll``, and takes lane ``c = (i div T) mod unroll`` of that call's
    result (a u32 / float component for ``unroll == 4``, a pair of components for 2).

    Returns ``((x, y, z, w), c)``.
    """
    offset = _check_offset(offset)
    i = np.arange(int(n), dtype=np.uint64)
    T = np.uint64(max(grid_threads(n, sms, threads_per_sm), 1))  # n == 0: nothing is drawn
    q = i // T
    block = np.uint64(offset // 4) + q // np.uint64(unroll)
    return philox4x32(seed, i % T, block), (q % np.uint64(unroll)).astype(np.intp)


def _pick4(xyzw, c):
    """Component ``c`` (0..3) of a ``curand4`` result, element-wise."""
    return np.choose(c, xyzw)


def _pick_pair(xyzw, c):
    """Pair ``c`` (0: ``(x, y)``, 1: ``(z, w)``) of a ``curand4`` result, element-wise."""
    x, y, z, w = xyzw
    first = c == 0
    return np.where(first, x, z), np.where(first, y, w)


# ---------------------------------------------------------------------------------------------
# cuRAND transforms (curand_uniform.h, curand_normal.h)
# ---------------------------------------------------------------------------------------------

_TWO_M32 = np.float32(2.0**-32)  # CURAND_2POW32_INV, 2.3283064e-10f, which is exactly 2**-32
_TWO_M53 = 2.0**-53  # CURAND_2POW53_INV_DOUBLE


def _curand_uniform(x):
    """``_curand_uniform``: ``float(x) * 2**-32 + 2**-33`` in float32, in (0, 1].

    ``float(x)`` rounds to nearest even (``cvt.rn.f32.u32``); the product by a power of two is
    exact, so whether nvcc fuses the multiply-add makes no difference.
    """
    return x.astype(np.float32) * _TWO_M32 + np.float32(2.0**-33)


def _z53(a, b):
    """The 53-bit integer ``a ^ (b << 21)`` cuRAND builds a double from."""
    return a.astype(np.uint64) ^ (b.astype(np.uint64) << np.uint64(21))


def _curand_uniform_double(a, b):
    """``_curand_uniform_double_hq``: ``z53 * 2**-53 + 2**-54`` in double, in (0, 1]."""
    # z53 < 2**53 converts exactly and the product is exact, so FMA contraction is irrelevant.
    return _z53(a, b).astype(np.float64) * _TWO_M53 + _TWO_M53 / 2.0


# ---------------------------------------------------------------------------------------------
# Exact fused multiply-add emulation (nvcc contracts ``a * b + c`` to an FMA)
# ---------------------------------------------------------------------------------------------


def _two_sum(a, b):
    """Knuth's TwoSum: ``s + e == a + b`` exactly, with ``s = fl(a + b)``."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def _split(a):
    """Veltkamp split of a double into two 26-bit halves, ``hi + lo == a``."""
    t = 134217729.0 * a  # 2**27 + 1
    hi = t - (t - a)
    return hi, a - hi


def _two_prod(a, b):
    """Dekker's TwoProduct: ``p + e == a * b`` exactly, with ``p = fl(a * b)``."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _fma64(a, b, c):
    """``a * b + c`` rounded once to double (the contracted ``DFMA``), vectorised.

    Boldo and Melquiond's emulation through rounding to odd ("Emulation of FMA and correctly
    rounded sums: proved algorithms using rounding to odd", IEEE TC 2008, algorithm 5.4):
    ``uh + ul = a * b`` and ``th + tl = c + uh`` exactly, ``v = RO(tl + ul)``, result
    ``RN(th + v)``. Valid away from overflow and underflow, which the callers never reach.
    """
    a, b, c = (np.asarray(v, dtype=np.float64) for v in (a, b, c))
    uh, ul = _two_prod(a, b)
    th, tl = _two_sum(c, uh)
    v, err = _two_sum(tl, ul)
    # Round to odd: an inexact v whose last mantissa bit is even moves one ulp towards the
    # exact value, which lands on the odd neighbour.
    even = (v.view(np.int64) & 1) == 0
    towards = np.where(err > 0, np.inf, -np.inf)
    v = np.where((err != 0) & even, np.nextafter(v, towards), v)
    return th + v


def _round_to_float32(s, err):
    """Round the exact value ``s + err`` (``s`` a double, ``|err|`` below half an ulp of ``s``)
    to float32 once.

    Rounding ``s`` alone is already right unless ``s`` sits exactly halfway between two floats;
    then the sign of ``err`` decides, instead of ties-to-even.
    """
    f = s.astype(np.float32)
    other = np.nextafter(f, np.where(s > f, np.float32(np.inf), np.float32(-np.inf)))
    tie = (s != f) & ((f.astype(np.float64) + other.astype(np.float64)) * 0.5 == s)
    up, down = np.maximum(f, other), np.minimum(f, other)
    return np.where(tie & (err > 0), up, np.where(tie & (err < 0), down, f))


def _fma32(a, b, c):
    """``a * b + c`` on float32 operands rounded once to float32 (the contracted ``FFMA``).

    The float64 product of two floats is exact (24 + 24 bits); the float64 sum is then rounded
    with its exact error kept, so the final rounding to float32 is a single correct one (plain
    ``float32(float64(a) * b + c)`` rounds twice and can differ in rare ties).
    """
    a, b, c = (np.asarray(v, dtype=np.float32).astype(np.float64) for v in (a, b, c))
    s, err = _two_sum(a * b, c)
    return _round_to_float32(s, err)


# ---------------------------------------------------------------------------------------------
# Reduced-precision conversions
# ---------------------------------------------------------------------------------------------


def to_bfloat16(x):
    """Round float32 values to bfloat16 (nearest, ties to even), returned as float32 values.

    This is c10's ``round_to_nearest_even`` and CUDA's ``__float2bfloat16``; NaN becomes the
    canonical quiet NaN 0x7FC0.
    """
    f = np.asarray(x, dtype=np.float32)
    bits = f.view(np.uint32).astype(np.uint64)
    bias = ((bits >> np.uint64(16)) & np.uint64(1)) + np.uint64(0x7FFF)
    rounded = (((bits + bias) >> np.uint64(16)) << np.uint64(16)).astype(np.uint32)
    rounded = np.where(np.isnan(f), np.uint32(0x7FC00000), rounded)
    return rounded.view(np.float32)


def _to_half(x):
    """float32 -> float16, nearest even (numpy's conversion is correctly rounded)."""
    return np.asarray(x, dtype=np.float32).astype(np.float16)


def _scalar_to(value, dtype):
    """``static_cast<scalar_t>(double)``: c10's Half and BFloat16 go through float first."""
    f = np.float32(value)
    if dtype == "float16":
        return np.float16(f)
    if dtype == "bfloat16":
        return to_bfloat16(f)[()]
    return np.float64(value) if dtype == "float64" else f


_DTYPE_ALIASES = {
    "float": "float32",
    "double": "float64",
    "half": "float16",
    "bf16": "bfloat16",
    "long": "int64",
    "int": "int32",
    "short": "int16",
    "bool_": "bool",
}


def _canon_dtype(dtype):
    """A dtype name: accepts ``"float32"``, ``torch.float32``, ``np.float32`` and aliases."""
    if isinstance(dtype, str):
        name = dtype
    elif isinstance(dtype, type) and issubclass(dtype, np.generic):
        name = np.dtype(dtype).name
    else:
        name = str(dtype)
    name = name.removeprefix("torch.")
    return _DTYPE_ALIASES.get(name, name)


# ---------------------------------------------------------------------------------------------
# uniform_ (torch.rand, rand_like, Tensor.uniform_)
# ---------------------------------------------------------------------------------------------


def uniform(
    n,
    seed,
    offset=0,
    dtype="float32",
    low=0.0,
    high=1.0,
    sms=DEFAULT_SMS,
    threads_per_sm=DEFAULT_THREADS_PER_SM,
):
    """``torch.empty(n, dtype=dtype, device="cuda").uniform_(low, high)``.

    ``dtype`` is ``"float32"``, ``"float64"``, ``"float16"`` or ``"bfloat16"``. The result is a
    numpy array of that dtype, except bfloat16, returned as float32 values that bfloat16
    represents exactly. Offset increment: ``offset_increment(n, 2 if float64 else 4)``.

    The transform is ``uniform_kernel``'s: with ``from``/``to`` cast to the dtype and
    ``range = opmath(to - from)`` (the subtraction done in the dtype), ``value =
    scalar_t(u * range + from)`` with the multiply-add fused by nvcc into one FMA in opmath
    (float for float/half/bf16, double for double; emulated exactly here), then ``value == to ?
    from : value``, which turns the (0, 1] of cuRAND into [0, 1).
    """
    dtype = _canon_dtype(dtype)
    if dtype not in ("float32", "float64", "float16", "bfloat16"):
        raise ValueError(f"uniform_ supports floating dtypes, got {dtype}")
    frm, to = _scalar_to(low, dtype), _scalar_to(high, dtype)
    if dtype == "float64":
        xyzw, c = _grid_stride_draws(n, seed, offset, 2, sms, threads_per_sm)
        u = _curand_uniform_double(*_pick_pair(xyzw, c))
        value = _fma64(u, to - frm, frm)
        return np.where(value == to, frm, value)
    xyzw, c = _grid_stride_draws(n, seed, offset, 4, sms, threads_per_sm)
    u = _curand_uniform(_pick4(xyzw, c))
    if dtype == "float32":
        value = _fma32(u, to - frm, frm)
    elif dtype == "float16":
        value = _to_half(_fma32(u, np.float32(to - frm), np.float32(frm)))
    else:
        rng = to_bfloat16(np.float32(to) - np.float32(frm))
        value = to_bfloat16(_fma32(u, rng, frm))
    return np.where(value == to, frm, value)


def rand_half(n, seed, offset=0, low=0.0, high=1.0, sms=DEFAULT_SMS):
    """``uniform(..., dtype="float16")``: a ``np.float16`` array."""
    return uniform(n, seed, offset, "float16", low, high, sms)


def rand_bf16(n, seed, offset=0, low=0.0, high=1.0, sms=DEFAULT_SMS):
    """``uniform(..., dtype="bfloat16")``: float32 values rounded to bfloat16."""
    return uniform(n, seed, offset, "bfloat16", low, high, sms)


# ---------------------------------------------------------------------------------------------
# random_ (torch.randint, Tensor.random_)
# ---------------------------------------------------------------------------------------------

_INT_DTYPES = ("int64", "int32", "int16", "int8", "uint8", "bool")
_FLOAT_DTYPES = ("float64", "float32", "float16", "bfloat16")


def _u64_pair_values(xyzw, c):
    """The ``ulonglong2`` lane: ``(x << 32) | y`` for pair 0, ``(z << 32) | w`` for pair 1."""
    hi, lo = _pick_pair(xyzw, c)
    return (hi.astype(np.uint64) << _SHIFT32) | lo.astype(np.uint64)


def _cast_int64(values, dtype):
    """``static_cast<scalar_t>(int64_t)`` for the supported output dtypes."""
    if dtype in ("int64",):
        return values
    if dtype in _INT_DTYPES:
        return values.astype(dtype)  # two's-complement wrap, as the C++ cast
    if dtype == "float64":
        return values.astype(np.float64)
    f = values.astype(np.float32)  # c10::Half / BFloat16 convert through float
    if dtype == "float16":
        return f.astype(np.float16)
    if dtype == "bfloat16":
        return to_bfloat16(f)
    return f


def randint(
    n,
    low,
    high,
    seed,
    offset=0,
    dtype="int64",
    sms=DEFAULT_SMS,
    threads_per_sm=DEFAULT_THREADS_PER_SM,
):
    """``torch.randint(low, high, (n,), dtype=dtype, device="cuda")``, i.e. ``random_(from, to)``.

    ``range = high - low`` (as uint64). With ``range >= 2**28`` each element takes a 64-bit value
    ``(x << 32) | y`` or ``(z << 32) | w`` (unroll 2); otherwise a 32-bit component (unroll 4).
    The element is ``int64((v % range) + low)`` then cast to ``dtype``. Offset increment:
    ``offset_increment(n, 2 if range >= 2**28 else 4)``.

    The ``2**28`` threshold, for every dtype, is the stock (non-``FBCODE_CAFFE2``) branch of
    ``random_from_to_kernel``; Meta's internal builds use ``range >= 2**32`` and only for
    int64/double/float/bfloat16.
    """
    dtype = _canon_dtype(dtype)
    if dtype not in _INT_DTYPES + _FLOAT_DTYPES:
        raise ValueError(f"unsupported dtype {dtype}")
    low, high = int(low), int(high)
    if low >= high:
        raise ValueError("random_ expects low < high")
    rng = (high - low) & _MASK64
    if rng >= 1 << 28:
        xyzw, c = _grid_stride_draws(n, seed, offset, 2, sms, threads_per_sm)
        v = _u64_pair_values(xyzw, c)
    else:
        xyzw, c = _grid_stride_draws(n, seed, offset, 4, sms, threads_per_sm)
        v = _pick4(xyzw, c).astype(np.uint64)
    # (val % range) + base in uint64 (wrapping), reinterpreted as int64.
    values = ((v % np.uint64(rng)) + np.uint64(low & _MASK64)).view(np.int64)
    return _cast_int64(values, dtype)


# Modulus of ``uniform_int`` (Tensor.random_() without bounds) per dtype: max + 1 for integers,
# 2**digits + 1 for floating types; None marks bool, which takes the lowest bit.
_RANDOM_MODULUS = {
    "int64": 1 << 63,
    "int32": 1 << 31,
    "int16": 1 << 15,
    "int8": 1 << 7,
    "uint8": 1 << 8,
    "bool": None,
    "float64": (1 << 53) + 1,
    "float32": (1 << 24) + 1,
    "float16": (1 << 11) + 1,
    "bfloat16": (1 << 8) + 1,
}


def random_default(
    n, seed, offset=0, dtype="int64", sms=DEFAULT_SMS, threads_per_sm=DEFAULT_THREADS_PER_SM
):
    """``torch.empty(n, dtype=dtype, device="cuda").random_()`` (``random_kernel``).

    int64 and float64 use the 64-bit values (unroll 2); every other dtype a 32-bit component
    (unroll 4). The value is ``v % (max + 1)`` for integers, ``v % (2**digits + 1)`` for floating
    types, ``v & 1`` for bool, then cast to the dtype.
    """
    dtype = _canon_dtype(dtype)
    if dtype not in _RANDOM_MODULUS:
        raise ValueError(f"unsupported dtype {dtype}")
    if dtype in ("int64", "float64"):
        xyzw, c = _grid_stride_draws(n, seed, offset, 2, sms, threads_per_sm)
        v = _u64_pair_values(xyzw, c)
    else:
        xyzw, c = _grid_stride_draws(n, seed, offset, 4, sms, threads_per_sm)
        v = _pick4(xyzw, c).astype(np.uint64)
    modulus = _RANDOM_MODULUS[dtype]
    if modulus is None:
        return (v & np.uint64(1)).astype(bool)
    return _cast_int64((v % np.uint64(modulus)).astype(np.int64), dtype)


# ---------------------------------------------------------------------------------------------
# bernoulli_ (scalar and tensor probabilities)
# ---------------------------------------------------------------------------------------------


def bernoulli_scalar(
    n, p, seed, offset=0, dtype="float32", sms=DEFAULT_SMS, threads_per_sm=DEFAULT_THREADS_PER_SM
):
    """``torch.empty(n, dtype=dtype, device="cuda").bernoulli_(p)`` as a boolean array.

    ``uniform_and_transform`` with ``u < p``: for float64 outputs the double uniform (unroll 2)
    against ``p`` in double; for every other dtype (integers and bool too) the float uniform
    (unroll 4) against ``float(p)``. Cast the booleans to ``dtype`` for the tensor's values.
    Offset increment: ``offset_increment(n, 2 if float64 else 4)``.
    """
    dtype = _canon_dtype(dtype)
    if dtype == "float64":
        xyzw, c = _grid_stride_draws(n, seed, offset, 2, sms, threads_per_sm)
        return _curand_uniform_double(*_pick_pair(xyzw, c)) < np.float64(p)
    xyzw, c = _grid_stride_draws(n, seed, offset, 4, sms, threads_per_sm)
    return _curand_uniform(_pick4(xyzw, c)) < np.float32(p)


def bernoulli_tensor(p, seed, offset=0, dtype="float32"):
    """``torch.bernoulli(p)`` / ``self.bernoulli_(p)`` with a probability tensor, as booleans.

    ``bernoulli_tensor_cuda_kernel`` (CUDA_tensor_apply2, step 4): element ``i`` (in ``p``'s C
    order) belongs to thread ``i div 4``, which makes one ``curand_uniform4`` at block
    ``offset / 4`` and uses component ``i mod 4``; the test is ``u <= p`` (not ``<``). ``p`` is
    cast to float32 unless the output is float64, where it stays double and the float ``u`` is
    widened. The launch does not depend on the SM count. Offset increment:
    ``BERNOULLI_TENSOR_INCREMENT`` (12), whatever the size.
    """
    dtype = _canon_dtype(dtype)
    p = np.asarray(p)
    offset = _check_offset(offset)
    i = np.arange(p.size, dtype=np.uint64)
    xyzw = philox4x32(seed, i // np.uint64(4), np.uint64(offset // 4))
    u = _curand_uniform(_pick4(xyzw, (i % np.uint64(4)).astype(np.intp)))
    probs = p.astype(np.float64 if dtype == "float64" else np.float32).reshape(-1)
    return (u.astype(probs.dtype) <= probs).reshape(p.shape)


# ---------------------------------------------------------------------------------------------
# Dropout (aten::native_dropout -> dropout_cuda, Dropout.cu)
# ---------------------------------------------------------------------------------------------

_ITEMSIZE = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2}


def dropout_vec_size(n, dtype="float32", max_vec=None):
    """``get_vector_size`` for a dense input: the vector width of ``fused_dropout_kernel_vec``.

    It starts at ``min(16 / sizeof(T), can_vectorize_up_to<T>(ptr))``, which for a 512-byte
    aligned pointer (CUDA's caching allocator) is 4 for float32, 8 for half/bf16 and 2 for
    double; ``max_vec`` models a less aligned input (e.g. a view at an odd element offset). It
    is then halved until it divides ``n``. 1 selects the non-vectorised kernel.
    """
    dtype = _canon_dtype(dtype)
    vec = 16 // _ITEMSIZE[dtype]
    if max_vec is not None:
        vec = min(vec, int(max_vec))
    while vec > 1 and n % vec:
        vec //= 2
    return max(vec, 1)


def dropout_mask(
    n,
    p,
    seed,
    offset=0,
    dtype="float32",
    sms=DEFAULT_SMS,
    threads_per_sm=DEFAULT_THREADS_PER_SM,
    max_vec=None,
):
    """The boolean mask of ``torch.nn.functional.dropout(x, p, training=True)`` on CUDA.

    ``x`` is a dense tensor of ``n`` elements of ``dtype``, 512-byte aligned unless ``max_vec``
    says otherwise. ``p`` is the drop probability; the kernel keeps an element when
    ``u < p_keep`` with ``p_keep = accscalar(1 - p)`` (float, or double for float64 inputs,
    where the float ``u`` is widened). The output is ``x * mask * scale`` with
    ``scale = accscalar(1.0 / p_keep)``.

    Threads: ``T = grid_threads(n)`` (from ``n``, not ``n / VEC``). With ``VEC > 1`` element
    ``e`` is lane ``l = e mod VEC`` of group ``g = e div VEC``, handled by thread ``g mod T`` in
    its iteration ``j = g div T``; each iteration draws ``ceil(VEC / 4)`` ``curand_uniform4``,
    so lane ``l`` uses block ``offset/4 + ceil(VEC/4) * j + l div 4``, component ``l mod 4``
    (VEC 2 uses only ``.x`` and ``.y`` of a fresh draw each iteration). With ``VEC == 1`` the
    mapping is the grid-stride one with unroll 4. Offset increment: ``offset_increment(n, 4)``.
    """
    dtype = _canon_dtype(dtype)
    offset = _check_offset(offset)
    vec = dropout_vec_size(n, dtype, max_vec)
    if vec == 1:
        xyzw, c = _grid_stride_draws(n, seed, offset, 4, sms, threads_per_sm)
        u = _curand_uniform(_pick4(xyzw, c))
    else:
        e = np.arange(int(n), dtype=np.uint64)
        T = np.uint64(max(grid_threads(n, sms, threads_per_sm), 1))
        g, lane = e // np.uint64(vec), e % np.uint64(vec)
        draws_per_iter = np.uint64(-(-vec // 4))
        block = np.uint64(offset // 4) + draws_per_iter * (g // T) + lane // np.uint64(4)
        xyzw = philox4x32(seed, g % T, block)
        u = _curand_uniform(_pick4(xyzw, (lane % np.uint64(4)).astype(np.intp)))
    p_keep = 1.0 - float(p)
    if dtype == "float64":
        return u.astype(np.float64) < np.float64(p_keep)
    return u < np.float32(p_keep)


# ---------------------------------------------------------------------------------------------
# normal_ for float64 (curand_normal2_double)
# ---------------------------------------------------------------------------------------------

# pi to long-double precision where the platform has one (x86: 64-bit mantissa); elsewhere this
# is just the double pi and the reference loses about an ulp.
_PI_LD = np.longdouble("3.14159265358979323846264338327950288")


def _sincospi(v):
    """``(sin(pi v), cos(pi v))`` for doubles ``v``, within about half an ulp on x86.

    ``v`` is reduced exactly to ``r = v - k/2`` with ``|r| <= 1/4``; ``sin``/``cos`` of ``pi r``
    are taken in long double and rotated by the quadrant ``k mod 4``. Exact multiples of 1/2
    give exact zeros and ones (``sinpi(+n) = +0``), as CUDA's ``sincospi``.
    """
    k = np.rint(2.0 * v)
    r = v - 0.5 * k  # exact: v and k/2 are within 1/4 of each other
    angle = _PI_LD * r.astype(np.longdouble)
    sr = np.sin(angle).astype(np.float64)
    cr = np.cos(angle).astype(np.float64)
    quadrant = k.astype(np.int64) % 4
    sin = np.choose(quadrant, [sr, cr, -sr, -cr])
    cos = np.choose(quadrant, [cr, -sr, -cr, sr])
    sin = np.where(sin == 0, 0.0, sin)  # +0, not -0, at integers
    cos = np.where(cos == 0, 0.0, cos)
    return sin, cos


def normal_float64(
    n,
    seed,
    offset=0,
    mean=0.0,
    std=1.0,
    sms=DEFAULT_SMS,
    threads_per_sm=DEFAULT_THREADS_PER_SM,
):
    """``torch.empty(n, dtype=torch.float64, device="cuda").normal_(mean, std)`` (``randn``).

    ``curand_normal2_double`` (one ``curand4``, unroll 2) gives one Box-Muller pair:
    ``u = z53(x, y) * 2**-53 + 2**-54``, ``v = z53(z, w) * 2**-52 + 2**-53``,
    ``s = sqrt(-2 log u)``, ``(s * sinpi(v), s * cospi(v))``; pair lane 0 takes the sine, lane 1
    the cosine. Then ``value = fma(z, std, mean)``. Offset increment: ``offset_increment(n, 2)``.

    Not bit-exact: CUDA's libdevice ``log`` and ``sincospi`` are within 1 ulp but not correctly
    rounded, and numpy's ``log`` may differ from them; expect agreement to a few ulp.
    """
    xyzw, c = _grid_stride_draws(n, seed, offset, 2, sms, threads_per_sm)
    x, y, z, w = xyzw
    u = _z53(x, y).astype(np.float64) * _TWO_M53 + _TWO_M53 / 2.0
    v = _z53(z, w).astype(np.float64) * (2.0 * _TWO_M53) + _TWO_M53
    s = np.sqrt(-2.0 * np.log(u))
    sin, cos = _sincospi(v)
    normal = np.where(c == 0, sin * s, cos * s)
    return _fma64(normal, np.float64(std), np.float64(mean))

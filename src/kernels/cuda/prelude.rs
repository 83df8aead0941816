//! What every CUDA kernel includes: the integer and float type names the printer uses, the
//! launch words struct, exact half conversions (no CUDA header needed) and the integer and
//! float helpers PyTorch's semantics need.

pub const PRELUDE: &str = r#"typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;
typedef float f32;
typedef double f64;
struct Words { u32 w[MAX_WORDS]; };

__device__ __forceinline__ float mojo_h2f(u32 h) {
    u32 s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0u) return __uint_as_float(s | __float_as_uint((float)m * 5.9604644775390625e-8f));
    if (e == 31u) return __uint_as_float(s | 0x7f800000u | (m << 13));
    return __uint_as_float(s | ((e + 112u) << 23) | (m << 13));
}

__device__ __forceinline__ u32 mojo_f2h(float f) {
    u32 x = __float_as_uint(f), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return sign | 0x7e00u;
    if (a >= 0x477ff000u) return sign | 0x7c00u;
    if (a < 0x38800000u) {
        u32 e = a >> 23;
        if (e < 102u) return sign;
        u32 m = (a & 0x7fffffu) | 0x800000u, shift = 126u - e;
        u32 q = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1u);
        return sign | (q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u));
    }
    return sign | ((a + 0xfffu + ((a >> 13) & 1u) - 0x38000000u) >> 13);
}

__device__ __forceinline__ float mojo_b2f(u32 h) { return __uint_as_float(h << 16); }

__device__ __forceinline__ u32 mojo_f2b(float f) {
    u32 x = __float_as_uint(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return 0x7fc0u;
    return (x + 0x7fffu + ((x >> 16) & 1u)) >> 16;
}

template <class T> __device__ __forceinline__ T mojo_rem(T a, T b) {
    T m = fmod(a, b);
    return (m != T(0) && ((b < T(0)) != (m < T(0)))) ? m + b : m;
}

template <class T> __device__ __forceinline__ T mojo_floordiv(T a, T b) {
    if (b == T(0)) return a / b;
    T m = fmod(a, b);
    T d = (a - m) / b;
    if (m != T(0) && ((b < T(0)) != (m < T(0)))) d -= T(1);
    if (d == T(0)) return copysign(T(0), a / b);
    T f = floor(d);
    return (d - f > T(0.5)) ? f + T(1) : f;
}

template <class T> __device__ __forceinline__ T mojo_ipow(T a, T b) {
    if (b < T(0)) {
        if (a == T(1)) return T(1);
        if (a == T(0) - T(1)) return (b & T(1)) ? a : T(1);
        return T(0);
    }
    T r = T(1);
    while (b > T(0)) {
        if (b & T(1)) r = r * a;
        a = a * a;
        b = b >> 1;
    }
    return r;
}
"#;

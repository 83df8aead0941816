//! What the host C++ compiler needs to build a kernel the CUDA renderer printed for NVRTC:
//! CUDA's qualifiers, thread and block ids, `__syncthreads`, the bit casts and the math
//! functions the renderer uses, and the loop that runs a launch's blocks.
//!
//! Accuracy: the math functions are the host's libm (correctly rounded or within 1 ulp),
//! which CUDA's are not always (`expf` 2 ulp, `__sinf`/`__cosf` hardware approximations), so
//! values can differ from a GPU's in the last bits; `erfinv` is Giles' approximation refined
//! by Newton steps to double precision. Floating-point contraction (FMA) is off.
//!
//! Threads: without a barrier in the kernel, a block's threads run one after another. With
//! one, each thread is a fiber with its own stack on the OS thread running the block; a
//! barrier switches back to the block's scheduler, which runs every live fiber up to its next
//! barrier in turn, so shared memory (`__shared__`, one copy per OS thread) behaves as on a
//! GPU. The fiber switch is written for x86-64 and AArch64 (System V / AAPCS64).

/// Defined before the kernel's source when it calls `__syncthreads`.
pub const COOPERATIVE: &str = "#define MOJO_EMU_COOPERATIVE 1\n";

pub const HOST_PRELUDE: &str = r#"#include <math.h>
#include <string.h>
#include <stdlib.h>
#define __device__
#define __global__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(n)
#define __shared__ static thread_local
#define __syncthreads() mojo_emu::barrier()

namespace mojo_emu {
struct Dim3 { unsigned x, y, z; };
static thread_local Dim3 block_id, block_dim, grid_dim;
static thread_local unsigned thread_linear;
inline Dim3 thread_id() {
    unsigned t = thread_linear;
    return Dim3{t % block_dim.x, (t / block_dim.x) % block_dim.y, t / (block_dim.x * block_dim.y)};
}
}
#define threadIdx (mojo_emu::thread_id())
#define blockIdx (mojo_emu::block_id)
#define blockDim (mojo_emu::block_dim)
#define gridDim (mojo_emu::grid_dim)

template <class T> inline T mojo_bits_as(const void* p) { T v; memcpy(&v, p, sizeof v); return v; }
inline float __uint_as_float(unsigned x) { return mojo_bits_as<float>(&x); }
inline float __int_as_float(int x) { return mojo_bits_as<float>(&x); }
inline unsigned __float_as_uint(float x) { return mojo_bits_as<unsigned>(&x); }
inline int __float_as_int(float x) { return mojo_bits_as<int>(&x); }
inline double __longlong_as_double(long long x) { return mojo_bits_as<double>(&x); }
inline long long __double_as_longlong(double x) { return mojo_bits_as<long long>(&x); }
inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
template <class A, class B> inline auto min(A a, B b) -> decltype(a + b) { return a < b ? a : b; }
template <class A, class B> inline auto max(A a, B b) -> decltype(a + b) { return a > b ? a : b; }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __expf(float x) { return expf(x); }
inline float __logf(float x) { return logf(x); }
inline double sinpi(double x) { double r = fmod(x, 2.0); return sin(M_PI * r); }
inline double cospi(double x) { double r = fmod(x, 2.0); return cos(M_PI * r); }
inline double erfinv(double y) {
    if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? INFINITY : y == -1.0 ? -INFINITY : NAN;
    // Giles' single-precision approximation, then Newton steps on erf to double precision.
    double w = -log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w; x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w; x = -0.00125372503 + x * w; x = -0.00417768164 + x * w;
        x = 0.246640727 + x * w; x = 1.50140941 + x * w;
    } else {
        w = sqrt(w) - 3.0;
        x = -0.000200214257;
        x = 0.000100950558 + x * w; x = 0.00134934322 + x * w; x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w; x = -0.0076224613 + x * w; x = 0.00943887047 + x * w;
        x = 1.00167406 + x * w; x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 2; ++i) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    return x;
}
inline float erfinvf(float y) { return (float)erfinv((double)y); }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
#define MOJO_VECTOR4(name, T, align) \
    struct __attribute__((aligned(align))) name { T x, y, z, w; }; \
    inline name make_##name(T x, T y, T z, T w) { return name{x, y, z, w}; }
MOJO_VECTOR4(float4, float, 16)
MOJO_VECTOR4(int4, int, 16)
MOJO_VECTOR4(uint4, unsigned int, 16)
MOJO_VECTOR4(uchar4, unsigned char, 4)
MOJO_VECTOR4(char4, signed char, 4)
MOJO_VECTOR4(short4, short, 8)
MOJO_VECTOR4(ushort4, unsigned short, 8)

namespace mojo_emu {
#ifdef MOJO_EMU_COOPERATIVE
// Each thread of a block is a fiber on the calling OS thread; a barrier switches back to the
// block's scheduler, which runs every live fiber to its next barrier in turn.
extern "C" void mojo_emu_switch(void** save, void* to) __attribute__((visibility("hidden")));
#if defined(__x86_64__)
asm(".text\n.p2align 4\n.globl mojo_emu_switch\n.hidden mojo_emu_switch\n.type mojo_emu_switch,@function\n"
    "mojo_emu_switch:\n"
    "pushq %rbp\npushq %rbx\npushq %r12\npushq %r13\npushq %r14\npushq %r15\n"
    "movq %rsp, (%rdi)\nmovq %rsi, %rsp\n"
    "popq %r15\npopq %r14\npopq %r13\npopq %r12\npopq %rbx\npopq %rbp\nret\n");
const int saved_words = 6;
#elif defined(__aarch64__)
asm(".text\n.p2align 4\n.globl mojo_emu_switch\n.hidden mojo_emu_switch\n.type mojo_emu_switch,%function\n"
    "mojo_emu_switch:\n"
    "sub sp, sp, #160\n"
    "stp x19, x20, [sp, #0]\nstp x21, x22, [sp, #16]\nstp x23, x24, [sp, #32]\n"
    "stp x25, x26, [sp, #48]\nstp x27, x28, [sp, #64]\nstp x29, x30, [sp, #80]\n"
    "stp d8, d9, [sp, #96]\nstp d10, d11, [sp, #112]\nstp d12, d13, [sp, #128]\nstp d14, d15, [sp, #144]\n"
    "mov x9, sp\nstr x9, [x0]\nmov sp, x1\n"
    "ldp x19, x20, [sp, #0]\nldp x21, x22, [sp, #16]\nldp x23, x24, [sp, #32]\n"
    "ldp x25, x26, [sp, #48]\nldp x27, x28, [sp, #64]\nldp x29, x30, [sp, #80]\n"
    "ldp d8, d9, [sp, #96]\nldp d10, d11, [sp, #112]\nldp d12, d13, [sp, #128]\nldp d14, d15, [sp, #144]\n"
    "add sp, sp, #160\nret\n");
#else
#error "the CUDA emulation's fibers support x86-64 and AArch64"
#endif
const unsigned long stack_bytes = 64 << 10;
struct Fiber { void* sp; bool done; };
static thread_local Fiber* fibers;
static thread_local char* stacks;
static thread_local unsigned capacity;
static thread_local void* scheduler;
static thread_local void (*body)(void**);
static thread_local void** body_params;

inline void barrier() { mojo_emu_switch(&fibers[thread_linear].sp, scheduler); }

static void fiber_main() {
    body(body_params);
    fibers[thread_linear].done = true;
    mojo_emu_switch(&fibers[thread_linear].sp, scheduler);
    __builtin_trap();
}

static void run_block(unsigned threads) {
    if (threads > capacity) {
        free(fibers); free(stacks);
        fibers = (Fiber*)malloc(sizeof(Fiber) * threads);
        stacks = (char*)malloc(stack_bytes * threads);
        capacity = threads;
    }
    for (unsigned t = 0; t < threads; ++t) {
        void** sp = (void**)(stacks + stack_bytes * (t + 1));
#if defined(__x86_64__)
        *--sp = 0;
        *--sp = (void*)fiber_main;
        for (int r = 0; r < 6; ++r) *--sp = 0;
#else
        sp -= 20;
        for (int r = 0; r < 20; ++r) sp[r] = 0;
        sp[11] = (void*)fiber_main;
#endif
        fibers[t] = Fiber{sp, false};
    }
    for (bool live = true; live;) {
        live = false;
        for (unsigned t = 0; t < threads; ++t) {
            if (fibers[t].done) continue;
            thread_linear = t;
            mojo_emu_switch(&scheduler, fibers[t].sp);
            live = live || !fibers[t].done;
        }
    }
}
#else
inline void barrier() {}
#endif

// Runs blocks [first, last) of a launch (dims: grid x, y, z, block x, y, z) on this thread.
inline void run(void (*kernel)(void**), void** params, const unsigned* dims,
                unsigned long long first, unsigned long long last) {
    grid_dim = Dim3{dims[0], dims[1], dims[2]};
    block_dim = Dim3{dims[3], dims[4], dims[5]};
    unsigned threads = dims[3] * dims[4] * dims[5];
    for (unsigned long long b = first; b < last; ++b) {
        block_id = Dim3{(unsigned)(b % dims[0]), (unsigned)(b / dims[0] % dims[1]), (unsigned)(b / dims[0] / dims[1])};
#ifdef MOJO_EMU_COOPERATIVE
        body = kernel; body_params = params;
        run_block(threads);
#else
        for (unsigned t = 0; t < threads; ++t) { thread_linear = t; kernel(params); }
#endif
    }
}

template <unsigned... I> struct Seq {};
template <unsigned N, unsigned... I> struct MakeSeq : MakeSeq<N - 1, N - 1, I...> {};
template <unsigned... I> struct MakeSeq<0, I...> { typedef Seq<I...> type; };
template <class... A, unsigned... I> inline void apply(void (*k)(A...), void** p, Seq<I...>) { k(*(A*)p[I]...); }
template <class... A> inline void call(void (*k)(A...), void** p) { apply(k, p, typename MakeSeq<sizeof...(A)>::type()); }
template <class... A> inline unsigned sizes(void (*)(A...), unsigned long* out) {
    unsigned long s[] = {sizeof(A)..., 0};
    for (unsigned i = 0; i < sizeof...(A); ++i) out[i] = s[i];
    return sizeof...(A);
}
}  // namespace mojo_emu
"#;

/// The entry points of kernel `name`: its parameter sizes, and the runner of a range of blocks.
pub fn entry_points(name: &str) -> String {
    format!(
        "static void mojo_emu_body_{name}(void** p) {{ mojo_emu::call({name}, p); }}\n\
         extern \"C\" unsigned mojo_emu_params_{name}(unsigned long* sizes) {{ return mojo_emu::sizes({name}, sizes); }}\n\
         extern \"C\" void mojo_emu_run_{name}(void** p, const unsigned* dims, unsigned long long first, unsigned long long last) {{ mojo_emu::run(mojo_emu_body_{name}, p, dims, first, last); }}\n"
    )
}

// ascend_sim: the C library routines a kernel's own code may call, each one charged as scalar work.
//
// Why: the kernel's translation unit is instrumented (scalar_hooks.h), but the host's libm and
// libc are not: `erff()` in a scalar loop, or a `memcpy` the compiler emits for std::fill_n or a
// large struct copy, used to cost nothing. What a kernel may call outside the AscendC API is an
// allow-list (bench_runner/device_code.py); the C routines on it are defined here, in the
// prebuilt runtime object only, as `ascend_sim_kernel_<name>`. The cpu-sim toolchain renames the
// kernel object's references (`objcopy --redefine-sym expf=ascend_sim_kernel_expf`, the list
// read from this object's symbols), so every call the kernel's code makes lands here and is
// charged; any other routine it calls is refused when its object is checked.
//
// * Math: a fixed cost per call on the S pipe (soc.h, kMath*Cycles), whatever the precision.
//   Calls the emulator makes itself (the lanes of an Exp instruction) happen inside an API call
//   (CoreCtx::in_api) and cost nothing here. Functions g++ compiles to a single instruction
//   (fabs, copysign, sqrt but for its errno path) cost only the basic block they sit in.
// * memcpy / memmove / memset: charged as the scalar loads and stores of the bytes they touch,
//   through the same call-backs as the kernel's own accesses (__asan_loadN/storeN), so global
//   and local memory cost what an element-by-element copy would, and the stack nothing. A struct
//   copy the compiler checked already is charged twice (the model errs on the slow side).
//
// Functions taking pointers for results are left out (frexp, modf, remquo), except sincos,
// which g++ makes of a sin and a cos of the same argument; its stores are charged like memcpy's.
#pragma once

#if defined(ASCEND_SIM_BUILDING_RUNTIME)
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdint>
#include <cstring>

extern "C" {
void __asan_loadN_noabort(uintptr_t a, size_t n);
void __asan_storeN_noabort(uintptr_t a, size_t n);
}

namespace AscendC {
namespace sim {
// One call of a math routine by the kernel's own code: `cycles` on the S pipe.
static inline void charge_math_call(uint64_t cycles) {
    CoreCtx* c = tl_core;
    if (!c || c->in_api) return;
    const ApiScope api_scope_;
    charge_scalar(*c, cycles);
}
}  // namespace sim
}  // namespace AscendC

#define ASCEND_SIM_CHARGE(cycles) ::AscendC::sim::charge_math_call(::AscendC::sim::cycles)
// name(x) in float, double and long double
#define ASCEND_SIM_MATH1(name, cycles)                                                                       \
    float ascend_sim_kernel_##name##f(float x) { ASCEND_SIM_CHARGE(cycles); return ::name##f(x); }           \
    double ascend_sim_kernel_##name(double x) { ASCEND_SIM_CHARGE(cycles); return ::name(x); }               \
    long double ascend_sim_kernel_##name##l(long double x) { ASCEND_SIM_CHARGE(cycles); return ::name##l(x); }
#define ASCEND_SIM_MATH2(name, cycles)                                                                       \
    float ascend_sim_kernel_##name##f(float x, float y) { ASCEND_SIM_CHARGE(cycles); return ::name##f(x, y); } \
    double ascend_sim_kernel_##name(double x, double y) { ASCEND_SIM_CHARGE(cycles); return ::name(x, y); }  \
    long double ascend_sim_kernel_##name##l(long double x, long double y) {                                  \
        ASCEND_SIM_CHARGE(cycles);                                                                           \
        return ::name##l(x, y);                                                                              \
    }
// name(x) -> R (lround, lrint …), and ldexp(x, int)
#define ASCEND_SIM_MATH_TO(name, R, cycles)                                                                  \
    R ascend_sim_kernel_##name##f(float x) { ASCEND_SIM_CHARGE(cycles); return ::name##f(x); }               \
    R ascend_sim_kernel_##name(double x) { ASCEND_SIM_CHARGE(cycles); return ::name(x); }                    \
    R ascend_sim_kernel_##name##l(long double x) { ASCEND_SIM_CHARGE(cycles); return ::name##l(x); }

extern "C" {
ASCEND_SIM_MATH1(fabs, kMathSimpleCycles)
ASCEND_SIM_MATH1(floor, kMathSimpleCycles)
ASCEND_SIM_MATH1(ceil, kMathSimpleCycles)
ASCEND_SIM_MATH1(trunc, kMathSimpleCycles)
ASCEND_SIM_MATH1(round, kMathSimpleCycles)
ASCEND_SIM_MATH1(rint, kMathSimpleCycles)
ASCEND_SIM_MATH1(nearbyint, kMathSimpleCycles)
ASCEND_SIM_MATH_TO(lround, long, kMathSimpleCycles)
ASCEND_SIM_MATH_TO(llround, long long, kMathSimpleCycles)
ASCEND_SIM_MATH_TO(lrint, long, kMathSimpleCycles)
ASCEND_SIM_MATH_TO(llrint, long long, kMathSimpleCycles)
ASCEND_SIM_MATH2(fmin, kMathSimpleCycles)
ASCEND_SIM_MATH2(fmax, kMathSimpleCycles)
ASCEND_SIM_MATH2(fdim, kMathSimpleCycles)
ASCEND_SIM_MATH2(copysign, kMathSimpleCycles)
ASCEND_SIM_MATH1(sqrt, kMathSqrtCycles)
ASCEND_SIM_MATH2(fmod, kMathExpLogCycles)
ASCEND_SIM_MATH2(remainder, kMathExpLogCycles)
ASCEND_SIM_MATH2(hypot, kMathExpLogCycles)
ASCEND_SIM_MATH1(cbrt, kMathExpLogCycles)
ASCEND_SIM_MATH1(exp, kMathExpLogCycles)
ASCEND_SIM_MATH1(exp2, kMathExpLogCycles)
ASCEND_SIM_MATH1(expm1, kMathExpLogCycles)
ASCEND_SIM_MATH1(log, kMathExpLogCycles)
ASCEND_SIM_MATH1(log2, kMathExpLogCycles)
ASCEND_SIM_MATH1(log10, kMathExpLogCycles)
ASCEND_SIM_MATH1(log1p, kMathExpLogCycles)
ASCEND_SIM_MATH1(sin, kMathTrigCycles)
ASCEND_SIM_MATH1(cos, kMathTrigCycles)
ASCEND_SIM_MATH1(tan, kMathTrigCycles)
ASCEND_SIM_MATH1(asin, kMathTrigCycles)
ASCEND_SIM_MATH1(acos, kMathTrigCycles)
ASCEND_SIM_MATH1(atan, kMathTrigCycles)
ASCEND_SIM_MATH2(atan2, kMathTrigCycles)
ASCEND_SIM_MATH1(sinh, kMathTrigCycles)
ASCEND_SIM_MATH1(cosh, kMathTrigCycles)
ASCEND_SIM_MATH1(tanh, kMathTrigCycles)
ASCEND_SIM_MATH1(asinh, kMathTrigCycles)
ASCEND_SIM_MATH1(acosh, kMathTrigCycles)
ASCEND_SIM_MATH1(atanh, kMathTrigCycles)
ASCEND_SIM_MATH1(erf, kMathTrigCycles)
ASCEND_SIM_MATH1(erfc, kMathTrigCycles)
ASCEND_SIM_MATH2(pow, kMathPowCycles)

float ascend_sim_kernel_ldexpf(float x, int e) { ASCEND_SIM_CHARGE(kMathSimpleCycles); return ::ldexpf(x, e); }
double ascend_sim_kernel_ldexp(double x, int e) { ASCEND_SIM_CHARGE(kMathSimpleCycles); return ::ldexp(x, e); }
long double ascend_sim_kernel_ldexpl(long double x, int e) {
    ASCEND_SIM_CHARGE(kMathSimpleCycles);
    return ::ldexpl(x, e);
}
float ascend_sim_kernel_fmaf(float x, float y, float z) { ASCEND_SIM_CHARGE(kMathSimpleCycles); return ::fmaf(x, y, z); }
double ascend_sim_kernel_fma(double x, double y, double z) { ASCEND_SIM_CHARGE(kMathSimpleCycles); return ::fma(x, y, z); }
long double ascend_sim_kernel_fmal(long double x, long double y, long double z) {
    ASCEND_SIM_CHARGE(kMathSimpleCycles);
    return ::fmal(x, y, z);
}

// sincos(x, &s, &c): g++ merges sinf(x) and cosf(x) into it. Both results are stored through
// the call-backs, like the kernel's own stores.
#define ASCEND_SIM_SINCOS(name, T)                                                                           \
    void ascend_sim_kernel_##name(T x, T* s, T* c) {                                                         \
        ASCEND_SIM_CHARGE(kMathTrigCycles);                                                                  \
        T sv, cv;                                                                                            \
        ::name(x, &sv, &cv);                                                                                 \
        __asan_storeN_noabort(reinterpret_cast<uintptr_t>(s), sizeof(T));                                   \
        __asan_storeN_noabort(reinterpret_cast<uintptr_t>(c), sizeof(T));                                    \
        *s = sv;                                                                                             \
        *c = cv;                                                                                             \
    }
ASCEND_SIM_SINCOS(sincosf, float)
ASCEND_SIM_SINCOS(sincos, double)
ASCEND_SIM_SINCOS(sincosl, long double)

// The memory routines g++ emits for copies and fills (std::copy, std::fill_n, char_traits, a
// large struct assignment or zero-initialisation): the bytes they read and write, as scalar work.
void* ascend_sim_kernel_memcpy(void* d, const void* s, size_t n) {
    __asan_storeN_noabort(reinterpret_cast<uintptr_t>(d), n);
    __asan_loadN_noabort(reinterpret_cast<uintptr_t>(s), n);
    return std::memcpy(d, s, n);
}
void* ascend_sim_kernel_memmove(void* d, const void* s, size_t n) {
    __asan_storeN_noabort(reinterpret_cast<uintptr_t>(d), n);
    __asan_loadN_noabort(reinterpret_cast<uintptr_t>(s), n);
    return std::memmove(d, s, n);
}
void* ascend_sim_kernel_memset(void* d, int v, size_t n) {
    __asan_storeN_noabort(reinterpret_cast<uintptr_t>(d), n);
    return std::memset(d, v, n);
}

// printf from the kernel's own code (g++ keeps plain `printf` calls; AscendC::printf comes here
// too): console output, free of charge like AscendC::printf, but never a `%n` store.
int ascend_sim_kernel_printf(const char* fmt, ...) {
    ::AscendC::sim::check_print_format(fmt, "printf");
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vprintf(fmt, ap);
    va_end(ap);
    return n;
}
}  // extern "C"

namespace AscendC {
namespace sim {
ASCEND_SIM_API void check_print_format(const char* fmt, const char* api) {
    if (!fmt) return;
    for (const char* p = fmt; *p; ++p) {
        if (*p != '%') continue;
        ++p;
        p += std::strspn(p, "-+ #0'123456789.*$hlLqjzt");  // flags, width, precision, length
        if (*p == 'n') {
            CoreCtx* c = tl_core;
            fail("BAD_PARAM", api, c ? c->last_loc : SrcLoc("?", 0),
                 "%s's format \"%.60s\" has a %%n conversion, which stores through a pointer argument: it is "
                 "not supported on the AI core",
                 api, fmt);
        }
        if (!*p) break;
    }
}
}  // namespace sim
}  // namespace AscendC

#undef ASCEND_SIM_SINCOS
#undef ASCEND_SIM_MATH_TO
#undef ASCEND_SIM_MATH2
#undef ASCEND_SIM_MATH1
#undef ASCEND_SIM_CHARGE
#endif  // ASCEND_SIM_BUILDING_RUNTIME

// ascend_sim: qualifiers, built-in enums and small shared helpers.
//
// In CANN's CPU-debug mode the NPU keywords (__global__, __aicore__, __gm__ ...) are defined
// empty; we do the same so kernels written for the NPU compile unchanged with g++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#ifndef ASCENDC_CPU_DEBUG
#define ASCENDC_CPU_DEBUG 1
#endif

#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif

// The AI core generation, as CANN's compilers define it next to __NPU_ARCH__ (220 = Atlas A2
// 910B, 200 = 310P, 100 = 910A, 300 = 310B, 310 = 950; asc-devkit's device AST analyser).
// build.py passes both per SoC; without the flag it follows __NPU_ARCH__. Public kernels
// select code with `#if __CCE_AICORE__ == 220`, which an undefined macro would silently drop.
#ifndef __CCE_AICORE__
#if __NPU_ARCH__ == 2002
#define __CCE_AICORE__ 200
#elif __NPU_ARCH__ == 1001
#define __CCE_AICORE__ 100
#elif __NPU_ARCH__ == 3002
#define __CCE_AICORE__ 300
#elif __NPU_ARCH__ == 3510
#define __CCE_AICORE__ 310
#else
#define __CCE_AICORE__ 220
#endif
#endif

// Older (2023) samples hide the NPU-only launch code behind this CPU-twin macro.
#ifndef __CCE_KT_TEST__
#define __CCE_KT_TEST__ 1
#endif

// ---- execution-space and address-space qualifiers (empty on the CPU, as in CANN's twin) ----
#define __global__
#define __aicore__
#define __host__
#define __device__
#define __gm__
#define __ubuf__
#define __ca__
#define __cb__
#define __cc__
#define __cbuf__
#define __fbuf__
#define __ssbuf__
#define __vector__
#define __cube__
#define __mix__(...)
#define __simd_vf__
// The Matmul API's KFC (kernel function call) workspace parameter qualifier: empty off the NPU.
#define __kfc_workspace__
#define __inout_pipe__(...)
#define __in_pipe__(...)
#define __out_pipe__(...)

#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

// Kernel-type selection macros: they only matter to the NPU toolchain's launcher.
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)
#define ASCEND_IS_AIV (!::AscendC::sim::core_is_aic())
#define ASCEND_IS_AIC (::AscendC::sim::core_is_aic())
#define ASCEND_IS_NOT_AIV (::AscendC::sim::core_is_aic())
#define ASCEND_IS_NOT_AIC (!::AscendC::sim::core_is_aic())

// Built-in pipe identifiers (a compiler built-in enum on the NPU, hence global).
enum pipe_t : uint8_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
};

// CPU-twin launch mode (global in CANN's stub headers: host code writes KernelMode::AIV_MODE).
enum class KernelMode { MIX_MODE = 0, AIC_MODE, AIV_MODE };

// Kernel-type constants used with KERNEL_TASK_TYPE_DEFAULT.
enum KernelType {
    KERNEL_TYPE_AIV_ONLY = 0,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
};

// Runtime functions are `inline` in header-only builds; with the prebuilt runtime object
// (ASCEND_SIM_PREBUILT_RUNTIME) they are plain declarations resolved at link time.
#if defined(ASCEND_SIM_PREBUILT_RUNTIME) || defined(ASCEND_SIM_BUILDING_RUNTIME)
#define ASCEND_SIM_API
#else
#define ASCEND_SIM_API inline
#endif

// The kernel's translation unit is compiled with call-back instrumentation (build.py:
// INSTRUMENT_FLAGS): every basic block and every load/store of the kernel's own code calls the
// runtime, which charges them to the scalar unit. The emulator's code in that translation unit
// must cost nothing, so every emulator function carries this attribute (noinstr_begin.h adds it
// to every `inline` function of the emulator's headers). GCC will not inline such a function
// into instrumented code, so the emulator's loops stay uninstrumented.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#define ASCEND_SIM_NOINSTR __attribute__((no_sanitize_address, no_sanitize_coverage))
#else
#define ASCEND_SIM_NOINSTR
#endif

namespace AscendC {

using ::KernelMode;

// Call-site capture: every public API takes `SrcLoc loc = SrcLoc()` as its last parameter so
// findings name the kernel's own file and line. The constructor is explicit so no user value
// can silently bind to that parameter.
namespace sim {
struct SrcLoc {
    const char* file;
    int line;
    explicit constexpr SrcLoc(const char* f = __builtin_FILE(), int l = __builtin_LINE())
        : file(f), line(l) {}
};
}  // namespace sim

#define ASCEND_SIM_LOC ::AscendC::sim::SrcLoc loc = ::AscendC::sim::SrcLoc()

// ---- APIs as template arguments and function pointers ----
// Public kernels pass AscendC APIs where a function type is asked for (NPUKernelBench foreach
// kernels, 15 tasks):
//     template <typename T>
//     using OneScalarBinaryOp = void (const LocalTensor<T>&, const LocalTensor<T>&, const T&, const int32_t&);
//     template <typename T, typename P, OneScalarBinaryOp<P>* op, ...> class ForeachOneScalarBinary;
//     ForeachOneScalarBinary<half, half, Muls, 1> op;
// The trailing SrcLoc parameter is part of an API's function type, so on its own no API matches
// such a target. ASCEND_SIM_EXACT_FORM(RET, NAME, (template params), (template args),
// (params), (args)) emits, next to an API, a companion with CANN's exact parameter list and a
// trailing parameter pack that must stay empty:
//  * in a call both are viable with identical conversions; partial ordering then prefers the
//    template without the trailing pack (C++17 [temp.deduct.partial]/11), so a direct call keeps
//    its call-site SrcLoc (GCC 12 verified: tests/bench_runner/ascend_sim/test_mechanics.py);
//  * taking the address for CANN's function type matches only the companion (the pack deduces
//    empty; the SrcLoc form has one parameter too many);
//  * extra arguments still find no match (the pack must be empty), as on the NPU.
// Called through a pointer, the call site is not known: the companion reports the location of
// the core's previous API call, as the other entry points without a SrcLoc do (operator(),
// Trap). Chosen over recovering call sites from return addresses, which needs debug line
// tables in every kernel build (docs/ascend_sim.md, "APIs as template arguments").
#define ASCEND_SIM_UNPAREN(...) __VA_ARGS__
#define ASCEND_SIM_INDIRECT_LOC \
    (::AscendC::sim::tl_core ? ::AscendC::sim::tl_core->last_loc : ::AscendC::sim::SrcLoc("?", 0))
#define ASCEND_SIM_EXACT_FORM(RET, NAME, TPARAMS, TARGS, PARAMS, ARGS)                               \
    template <ASCEND_SIM_UNPAREN TPARAMS, typename... AscendSimNoLoc,                                \
              typename ::std::enable_if<sizeof...(AscendSimNoLoc) == 0, int>::type = 0>               \
    __aicore__ inline RET NAME(ASCEND_SIM_UNPAREN PARAMS, AscendSimNoLoc...) {                       \
        return NAME<ASCEND_SIM_UNPAREN TARGS>(ASCEND_SIM_UNPAREN ARGS, ASCEND_SIM_INDIRECT_LOC);    \
    }

enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};

enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class BlockMode : uint8_t { BLOCK_MODE_NORMAL = 0, BLOCK_MODE_MATRIX, BLOCK_MODE_VECTOR, BLOCK_MODE_SMALL_CHANNEL, BLOCK_MODE_DEPTHWISE };
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };
enum class CacheLine : uint8_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint8_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class AtomicDtype : uint8_t { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp : uint8_t { ATOMIC_SUM = 0 };

using TEventID = int8_t;
using TTagType = int32_t;

// Event identifiers (valid range 0..7 on 910B). On the NPU `event_t` is a compiler built-in
// unscoped enum (hence global, and `event_t::EVENT_ID0` also works); kernels pass its values to
// SetFlag/WaitFlag (int32_t) and to the set_flag/wait_flag intrinsics (event_t). AscendC:: names
// the same enumerators, so `AscendC::EVENT_ID0` works and `using namespace AscendC` stays unambiguous.
}  // namespace AscendC
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
namespace AscendC {
using ::event_t;
using ::EVENT_ID0;
using ::EVENT_ID1;
using ::EVENT_ID2;
using ::EVENT_ID3;
using ::EVENT_ID4;
using ::EVENT_ID5;
using ::EVENT_ID6;
using ::EVENT_ID7;

// Public constants of the real headers (kernel_utils_constants.h).
constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr int32_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr int32_t ONE_BYTE_BIT_SIZE = 8;
constexpr uint32_t B16_BYTE_SIZE = 2;
constexpr uint32_t B32_BYTE_SIZE = 4;
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
constexpr int32_t QUE_MAX_EVENT = 8;
constexpr int32_t QBUF_MAX_LEN = 64;
constexpr int32_t MAX_BLOCK_COUNT = 4095;
constexpr int32_t MAX_BLOCK_LEN = 65535;
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t FULL_MASK = 0xFFFFFFFFFFFFFFFFULL;
constexpr uint32_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint32_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;

// AscendC::Std (type traits, tuple, min/max ...) lives in ascend_std.h.

}  // namespace AscendC

namespace AscendC {
namespace sim {
// A host container for the emulator's headers that a kernel may include after the device-code
// poison (device_code.h forbids the name `vector` in kernel code, not the emulator's use of it).
template <typename T>
using DeviceHidden = std::vector<T>;
}  // namespace sim
}  // namespace AscendC

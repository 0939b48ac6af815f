// ascend_sim: debugging and utility APIs — PRINTF, DumpTensor, assertions, cache maintenance,
// workspaces and the level-3 tensor operators (dst = a + b ...).
#pragma once

#include <cstdio>

#include "vec_cmpsel.h"
#include "vec_ops.h"

namespace AscendC {
namespace sim {
// Varargs cannot carry half/bfloat16_t; print them as double.
template <typename A>
inline auto printable(const A& a) {
    if constexpr (std::is_same<A, half>::value || std::is_same<A, bfloat16_t>::value) {
        return static_cast<double>(static_cast<float>(a));
    } else {
        return a;
    }
}
}  // namespace sim

template <typename... Args>
__aicore__ inline void PRINTF(const char* fmt, Args... args) {
    sim::check_print_format(fmt, "PRINTF");
    std::printf(fmt, sim::printable(args)...);
}
template <typename... Args>
__aicore__ inline void printf(const char* fmt, Args... args) {
    sim::check_print_format(fmt, "printf");
    std::printf(fmt, sim::printable(args)...);
}

template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, ASCEND_SIM_LOC) {
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("DumpTensor", loc);
    sim::LocalView v = sim::view(tensor, "DumpTensor", "tensor", loc, 1);
    const uint64_t n = std::min<uint64_t>(dumpSize, v.extent / sizeof(T));
    std::printf("DumpTensor: desc=%u, core=%d, %llu elements of %s:\n", desc, sim::tl_core->block_idx,
                static_cast<unsigned long long>(n), sim::TypeName<T>::value);
    for (uint64_t i = 0; i < n; ++i) {
        T x;
        std::memcpy(&x, v.data + i * sizeof(T), sizeof(T));
        std::printf("%g%s", static_cast<double>(sim::to_f<T>(x)), (i + 1) % 16 == 0 ? "\n" : " ");
    }
    std::printf("\n");
}
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize, ASCEND_SIM_LOC) {
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("DumpTensor", loc);
    sim::check_gm(tensor.GetPhyAddr(), static_cast<uint64_t>(dumpSize) * sizeof(T), false, "DumpTensor", loc);
    std::printf("DumpTensor: desc=%u, core=%d, %u elements of %s:\n", desc, sim::tl_core->block_idx, dumpSize,
                sim::TypeName<T>::value);
    for (uint32_t i = 0; i < dumpSize; ++i) {
        std::printf("%g%s", static_cast<double>(sim::to_f<T>(tensor.GetPhyAddr()[i])), (i + 1) % 16 == 0 ? "\n" : " ");
    }
    std::printf("\n");
}

__aicore__ inline void Trap(ASCEND_SIM_LOC) {
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("Trap", loc);
    sim::fail("CRASH", "Trap", loc, "the kernel called Trap()");
}

template <typename T, CacheLine entireType = CacheLine::SINGLE_CACHE_LINE, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
    (void)dst;
}
template <typename T, CacheLine entireType = CacheLine::SINGLE_CACHE_LINE, DcciDst dcciDst = DcciDst::CACHELINE_OUT>
__aicore__ inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
    (void)dst;
}

// Workspaces: the system part (16 MiB on 910B, 2 MiB on 310P) precedes the user part.
namespace sim {
inline thread_local GM_ADDR sys_workspace = nullptr;
inline uint64_t sys_workspace_bytes() {
    const SocProfile* s = current_soc();
    return (s && s->npu_arch == 2002) ? (2u << 20) : (16u << 20);
}
}  // namespace sim
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace) { sim::sys_workspace = workspace; }
__aicore__ inline GM_ADDR GetSysWorkSpacePtr() { return sim::sys_workspace; }
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
    return workspace ? workspace + sim::sys_workspace_bytes() : nullptr;
}

// ---- level 3: whole-tensor operators (count = dst.GetSize()) ----
namespace sim {
enum class L3Op { ADD, SUB, MUL, DIV, AND, OR };
template <typename T>
struct L3Expr {
    using ascend_sim_l3 = T;
    L3Op op;
    LocalTensor<T> a;
    LocalTensor<T> b;
};
template <typename T>
inline void run_l3(const LocalTensor<T>& dst, const L3Expr<T>& e) {
    const SrcLoc loc = tl_core ? tl_core->last_loc : SrcLoc("?", 0);
    const int32_t n = static_cast<int32_t>(dst.GetSize());
    switch (e.op) {
        case L3Op::ADD: Add(dst, e.a, e.b, n, loc); break;
        case L3Op::SUB: Sub(dst, e.a, e.b, n, loc); break;
        case L3Op::MUL: Mul(dst, e.a, e.b, n, loc); break;
        case L3Op::DIV:
            if constexpr (OneOf<T, half, float>::value) Div(dst, e.a, e.b, n, loc);
            break;
        case L3Op::AND:
            if constexpr (OneOf<T, int16_t, uint16_t>::value) And(dst, e.a, e.b, n, loc);
            break;
        case L3Op::OR:
            if constexpr (OneOf<T, int16_t, uint16_t>::value) Or(dst, e.a, e.b, n, loc);
            break;
    }
}
template <typename T, typename E>
inline void assign_l3(const LocalTensor<T>& dst, const E& e) {
    static_assert(std::is_same<E, L3Expr<T>>::value, "level-3 expression and destination element types differ");
    run_l3(dst, e);
}
}  // namespace sim

template <typename T>
inline sim::L3Expr<T> operator+(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {sim::L3Op::ADD, a, b}; }
template <typename T>
inline sim::L3Expr<T> operator-(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {sim::L3Op::SUB, a, b}; }
template <typename T>
inline sim::L3Expr<T> operator*(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {sim::L3Op::MUL, a, b}; }
template <typename T>
inline sim::L3Expr<T> operator/(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    static_assert(sim::OneOf<T, half, float>::value, "Failed to check dtype in Div, current api support dtype "
                                                     "combination is src and dst both: half / float.");
    return {sim::L3Op::DIV, a, b};
}
template <typename T>
inline sim::L3Expr<T> operator&(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    static_assert(sim::OneOf<T, int16_t, uint16_t>::value, "Failed to check dtype in And, current api support dtype "
                                                           "combination is src and dst both: int16_t / uint16_t.");
    return {sim::L3Op::AND, a, b};
}
template <typename T>
inline sim::L3Expr<T> operator|(const LocalTensor<T>& a, const LocalTensor<T>& b) {
    static_assert(sim::OneOf<T, int16_t, uint16_t>::value, "Failed to check dtype in Or, current api support dtype "
                                                           "combination is src and dst both: int16_t / uint16_t.");
    return {sim::L3Op::OR, a, b};
}

}  // namespace AscendC

// ISA-level barrier intrinsic used by older kernels (`pipe_barrier(PIPE_ALL);`).
inline void pipe_barrier(pipe_t pipe, ASCEND_SIM_LOC) { ::AscendC::sim::pipe_barrier(pipe, loc); }

// Profiling markers: no effect on the CPU.
#define TRACE_START(id)
#define TRACE_STOP(id)

// Kernel-side assertion: a failed one is reported as CRASH with the kernel's line.
#define ascendc_assert(cond, ...)                                                                     \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            ::AscendC::sim::enter("ascendc_assert", ::AscendC::sim::SrcLoc());                        \
            ::AscendC::sim::fail("CRASH", "ascendc_assert", ::AscendC::sim::SrcLoc(), "assertion '%s' failed", #cond); \
        }                                                                                             \
    } while (0)

// ASSERT: compat.h (nothing, as in CANN's device build).

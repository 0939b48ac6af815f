// ascend_sim: Compare / CompareScalar (Compares), Select and Gather.
//
// Compare writes one bit per element, least significant bit first; Select takes src0 where the
// bit is 1 and src1 where it is 0.
#pragma once

#include "vec_common.h"

namespace AscendC {
namespace sim {

template <typename T>
inline bool cmp_apply(CMPMODE m, T a, T b) {
    const auto x = ld(a);
    const auto y = ld(b);
    switch (m) {
        case CMPMODE::LT: return x < y;
        case CMPMODE::GT: return x > y;
        case CMPMODE::EQ: return x == y;
        case CMPMODE::LE: return x <= y;
        case CMPMODE::GE: return x >= y;
        case CMPMODE::NE: return x != y;
    }
    return false;
}

template <typename T>
inline void cmp_mode_check(CMPMODE m, const char* api, const SrcLoc& loc) {
    if (std::is_same<T, int32_t>::value && m != CMPMODE::EQ) {
        fail("BAD_PARAM", api, loc, "%s on int32_t supports only CMPMODE::EQ", api);
    }
}

template <typename T>
inline void cmp_count_check(uint64_t count, const char* api, const SrcLoc& loc) {
    if ((count * sizeof(T)) % ONE_REPEAT_BYTE_SIZE != 0) {
        fail("BAD_PARAM", api, loc,
             "%s count %llu x sizeof(%s) = %llu bytes must be a multiple of 256 bytes (whole repeats)", api,
             static_cast<unsigned long long>(count), TypeName<T>::value,
             static_cast<unsigned long long>(count * sizeof(T)));
    }
}

// Level 2 compare, scalar or tensor right-hand side.
template <typename T, typename U, typename Rhs>
inline void compare_l2(const char* api, VecClass k, const LocalTensor<U>& dst, const LocalTensor<T>& src0, Rhs rhs,
                       const LocalTensor<T>* src1, CMPMODE mode, uint32_t count, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    cmp_mode_check<T>(mode, api, loc);
    cmp_count_check<T>(count, api, loc);
    LocalView d = view(dst, api, "dst", loc);
    LocalView a = view(src0, api, "src0", loc);
    LocalView b{};
    const uint64_t n = count;
    need(a, n * sizeof(T), api, "src0", loc);
    check_init(a, 0, n * sizeof(T), api, "src0", loc);
    if (src1) {
        b = view(*src1, api, "src1", loc);
        need(b, n * sizeof(T), api, "src1", loc);
        check_init(b, 0, n * sizeof(T), api, "src1", loc);
    }
    const uint64_t out_bytes = (n + 7) / 8;
    need(d, out_bytes, api, "dst", loc);
    const T* ap = reinterpret_cast<const T*>(a.data);
    const T* bp = src1 ? reinterpret_cast<const T*>(b.data) : nullptr;
    std::vector<uint8_t> bits(out_bytes, 0);
    for (uint64_t i = 0; i < n; ++i) {
        const T rv = bp ? bp[i] : rhs;
        if (cmp_apply<T>(mode, ap[i], rv)) bits[i / 8] = static_cast<uint8_t>(bits[i / 8] | (1u << (i % 8)));
    }
    std::memcpy(d.data, bits.data(), out_bytes);
    mark_written(d, 0, out_bytes);
    charge(c, Pipe::V, vec_cycles(c, k, sizeof(T), l2_repeats(n, sizeof(T))), api, loc,
           {{a.blk, false}, {src1 ? b.blk : nullptr, false}, {d.blk, true}}, c.soc->level2_extra);
}

// Level 0 compare: repeat r's bits land at byte r * (lanes / 8) of dst (or in CMPMASK).
template <typename T, typename U, typename Rhs>
inline void compare_l0(const char* api, VecClass k, const LocalTensor<U>* dst, const LocalTensor<T>& src0, Rhs rhs,
                       const LocalTensor<T>* src1, CMPMODE mode, bool is_set_mask, bool bit_mode, uint64_t mask_count,
                       const uint64_t* bits, int64_t repeat, uint64_t s0_blk, uint64_t s0_rep, uint64_t s1_blk,
                       uint64_t s1_rep, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    cmp_mode_check<T>(mode, api, loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, bits, repeat, epr, api, loc);
    L0Operand ops[2];
    ops[0] = L0Operand{view(src0, api, "src0", loc), sizeof(T), s0_blk, s0_rep, "src0", false};
    int nops = 1;
    if (src1) {
        ops[1] = L0Operand{view(*src1, api, "src1", loc), sizeof(T), s1_blk, s1_rep, "src1", false};
        nops = 2;
    }
    LocalView d{};
    if (dst) d = view(*dst, api, "dst", loc);
    if (p.repeats == 0) return;
    l0_check(p, ops, nops, api, loc);
    const uint64_t bytes_per_rep = static_cast<uint64_t>(epr) / 8;
    if (dst) need(d, bytes_per_rep * p.repeats, api, "dst", loc);
    for (int r = 0; r < p.repeats; ++r) {
        uint8_t out[32] = {};
        for (int lane = 0; lane < epr; ++lane) {
            if (!p.lane_on(r, lane)) continue;
            T a;
            std::memcpy(&a, ops[0].v.data + ops[0].offset(r, lane), sizeof(T));
            T b = rhs;
            if (src1) std::memcpy(&b, ops[1].v.data + ops[1].offset(r, lane), sizeof(T));
            if (cmp_apply<T>(mode, a, b)) out[lane / 8] = static_cast<uint8_t>(out[lane / 8] | (1u << (lane % 8)));
        }
        if (dst) {
            std::memcpy(d.data + r * bytes_per_rep, out, bytes_per_rep);
            mark_written(d, r * bytes_per_rep, bytes_per_rep);
        } else {
            std::memcpy(c.cmp_mask, out, 16);
        }
    }
    charge(c, Pipe::V, vec_cycles(c, k, sizeof(T), static_cast<uint64_t>(p.repeats)), api, loc,
           {{ops[0].v.blk, false}, {src1 ? ops[1].v.blk : nullptr, false}, {dst ? d.blk : nullptr, true}},
           is_set_mask ? 1 : 0);
}

template <typename T, typename U>
constexpr bool cmp_types_ok() {
    return OneOf<T, half, float, int32_t>::value && OneOf<U, uint8_t, int8_t>::value;
}

}  // namespace sim

#define ASCEND_SIM_CMP_CHECK(NAME)                                                                             \
    static_assert(sim::cmp_types_ok<T, U>(), "Failed to check dtype in " #NAME                                  \
                                             ", current api support dtype combination is src: half / float / " \
                                             "int32_t, dst: uint8_t / int8_t")

// ---- Compare ----
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count, ASCEND_SIM_LOC) {
    ASCEND_SIM_CMP_CHECK(Compare);
    sim::compare_l2("Compare", sim::VecClass::CMP, dst, src0, T(0), &src1, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_CMP_CHECK(Compare);
    sim::compare_l0("Compare", sim::VecClass::CMP, &dst, src0, T(0), &src1, cmpMode, isSetMask, true, 0, mask, repeatTime,
                    repeatParams.src0BlkStride, repeatParams.src0RepStride, repeatParams.src1BlkStride,
                    repeatParams.src1RepStride, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_CMP_CHECK(Compare);
    sim::compare_l0("Compare", sim::VecClass::CMP, &dst, src0, T(0), &src1, cmpMode, isSetMask, false, mask, nullptr,
                    repeatTime, repeatParams.src0BlkStride, repeatParams.src0RepStride, repeatParams.src1BlkStride,
                    repeatParams.src1RepStride, loc);
}
// One repeat into the CMPMASK register (read back with GetCmpMask).
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    using U = uint8_t;
    ASCEND_SIM_CMP_CHECK(Compare);
    sim::compare_l0<T, U>("Compare", sim::VecClass::CMP, nullptr, src0, T(0), &src1, cmpMode, isSetMask, true, 0, mask, 1,
                          repeatParams.src0BlkStride, repeatParams.src0RepStride, repeatParams.src1BlkStride,
                          repeatParams.src1RepStride, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    using U = uint8_t;
    ASCEND_SIM_CMP_CHECK(Compare);
    sim::compare_l0<T, U>("Compare", sim::VecClass::CMP, nullptr, src0, T(0), &src1, cmpMode, isSetMask, false, mask,
                          nullptr, 1, repeatParams.src0BlkStride, repeatParams.src0RepStride, repeatParams.src1BlkStride,
                          repeatParams.src1RepStride, loc);
}

template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst, ASCEND_SIM_LOC) {
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("GetCmpMask", loc);
    sim::LocalView d = sim::view(dst, "GetCmpMask", "dst", loc);
    sim::need(d, 16, "GetCmpMask", "dst", loc);
    std::memcpy(d.data, c.cmp_mask, 16);
    sim::mark_written(d, 0, 16);
}
template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src, ASCEND_SIM_LOC) {
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("SetCmpMask", loc);
    sim::LocalView s = sim::view(src, "SetCmpMask", "src", loc);
    sim::need(s, 16, "SetCmpMask", "src", loc);
    std::memcpy(c.cmp_mask, s.data, 16);
}

// ---- CompareScalar / Compares (the scalar is `const T`: it must have the tensor's type) ----
#define ASCEND_SIM_CMPS(NAME)                                                                                      \
    template <typename T, typename U>                                                                              \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,          \
                                CMPMODE cmpMode, uint32_t count, ASCEND_SIM_LOC) {                                 \
        ASCEND_SIM_CMP_CHECK(NAME);                                                                                \
        sim::compare_l2(#NAME, sim::VecClass::CMPS, dst, src0, src1Scalar, static_cast<const LocalTensor<T>*>(nullptr), \
                        cmpMode, count, loc);                                                                      \
    }                                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                                       \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,          \
                                CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,                        \
                                const UnaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {                           \
        ASCEND_SIM_CMP_CHECK(NAME);                                                                                \
        sim::compare_l0(#NAME, sim::VecClass::CMPS, &dst, src0, src1Scalar, static_cast<const LocalTensor<T>*>(nullptr), \
                        cmpMode, isSetMask, true, 0, mask, repeatTime, repeatParams.srcBlkStride,                   \
                        repeatParams.srcRepStride, 0, 0, loc);                                                     \
    }                                                                                                              \
    template <typename T, typename U, bool isSetMask = true>                                                       \
    __aicore__ inline void NAME(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,          \
                                CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,                          \
                                const UnaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {                           \
        ASCEND_SIM_CMP_CHECK(NAME);                                                                                \
        sim::compare_l0(#NAME, sim::VecClass::CMPS, &dst, src0, src1Scalar, static_cast<const LocalTensor<T>*>(nullptr), \
                        cmpMode, isSetMask, false, mask, nullptr, repeatTime, repeatParams.srcBlkStride,            \
                        repeatParams.srcRepStride, 0, 0, loc);                                                     \
    }
ASCEND_SIM_CMPS(CompareScalar)
ASCEND_SIM_CMPS(Compares)
#undef ASCEND_SIM_CMPS
#undef ASCEND_SIM_CMP_CHECK

// ---- Select ----
namespace sim {

// CANN's Select checks its dtypes with ASCENDC_ASSERT, which only the CPU-debug build evaluates
// (kernel_operator_vec_cmpsel_impl.h): half / float data, an unsigned mask. On the NPU the vsel
// instruction selects 16- or 32-bit lanes by the mask's bits whatever the C++ types say, and
// NPUKernelBench's answers pass an int8_t mask or select int32 lanes. So only what the hardware
// cannot do is a compile error here; the rest runs, with a CPU_DEBUG_ASSERT warning.
template <typename T, typename U>
constexpr bool select_types_ok() {
    return OneOf<T, half, float>::value && OneOf<U, uint8_t, uint16_t, uint32_t, uint64_t>::value;
}
template <typename T, typename U>
constexpr bool select_types_run() {
    return (sizeof(T) == 2 || sizeof(T) == 4) && std::is_integral<U>::value;
}
template <typename T, typename U>
inline void select_types_note(const SrcLoc& loc) {
    if constexpr (!select_types_ok<T, U>()) {
        warn("CPU_DEBUG_ASSERT", "Select", loc,
             "Select with %s data and a %s mask runs on the NPU (vsel selects %zu-bit lanes by the mask's bits), "
             "but CANN's CPU-debug build asserts \"Failed to check dtype in Select\": it supports half / float "
             "data and a uint8_t / uint16_t / uint32_t / uint64_t mask",
             TypeName<T>::value, TypeName<U>::value, sizeof(T) * 8);
    }
}

inline bool mask_bit(const uint8_t* bits, uint64_t i) { return ((bits[i / 8] >> (i % 8)) & 1u) != 0; }

// Level 2 select. Mode 0 (VSEL_CMPMASK_SPR) reuses the same first `lanes` bits in every repeat;
// modes 1 and 2 consume the mask bits continuously.
template <typename T, typename U>
inline void select_l2(const LocalTensor<T>& dst, const LocalTensor<U>& sel, const LocalTensor<T>& src0,
                      const LocalTensor<T>* src1, T scalar, SELMODE mode, uint32_t count, const SrcLoc& loc) {
    const char* api = "Select";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    select_types_note<T, U>(loc);
    const uint64_t n = count;
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    LocalView d = view(dst, api, "dst", loc);
    LocalView m = view(sel, api, "selMask", loc);
    LocalView a = view(src0, api, "src0", loc);
    LocalView b{};
    need(d, n * sizeof(T), api, "dst", loc);
    need(a, n * sizeof(T), api, "src0", loc);
    check_init(a, 0, n * sizeof(T), api, "src0", loc);
    if (src1) {
        b = view(*src1, api, "src1", loc);
        need(b, n * sizeof(T), api, "src1", loc);
        check_init(b, 0, n * sizeof(T), api, "src1", loc);
    }
    const bool same_each_repeat = mode == SELMODE::VSEL_CMPMASK_SPR;
    const uint64_t mask_bits = same_each_repeat ? std::min<uint64_t>(n, epr) : n;
    need(m, (mask_bits + 7) / 8, api, "selMask", loc);
    check_init(m, 0, (mask_bits + 7) / 8, api, "selMask", loc);
    T* dp = reinterpret_cast<T*>(d.data);
    const T* ap = reinterpret_cast<const T*>(a.data);
    const T* bp = src1 ? reinterpret_cast<const T*>(b.data) : nullptr;
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t bit = same_each_repeat ? i % epr : i;
        dp[i] = mask_bit(m.data, bit) ? ap[i] : (bp ? bp[i] : scalar);
    }
    mark_written(d, 0, n * sizeof(T));
    charge(c, Pipe::V, vec_cycles(c, VecClass::BINARY, sizeof(T), l2_repeats(n, sizeof(T))), api, loc,
           {{a.blk, false}, {m.blk, false}, {src1 ? b.blk : nullptr, false}, {d.blk, true}}, c.soc->level2_extra);
}

template <typename T, typename U>
inline void select_l0(const LocalTensor<T>& dst, const LocalTensor<U>* sel, const LocalTensor<T>& src0,
                      const LocalTensor<T>* src1, T scalar, SELMODE mode, bool is_set_mask, bool bit_mode,
                      uint64_t mask_count, const uint64_t* bits, int64_t repeat, const BinaryRepeatParams& rp,
                      const SrcLoc& loc) {
    const char* api = "Select";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    select_types_note<T, U>(loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, bits, repeat, epr, api, loc);
    L0Operand ops[3];
    ops[0] = L0Operand{view(dst, api, "dst", loc), sizeof(T), rp.dstBlkStride, rp.dstRepStride, "dst", true};
    ops[1] = L0Operand{view(src0, api, "src0", loc), sizeof(T), rp.src0BlkStride, rp.src0RepStride, "src0", false};
    int nops = 2;
    if (src1) {
        ops[2] = L0Operand{view(*src1, api, "src1", loc), sizeof(T), rp.src1BlkStride, rp.src1RepStride, "src1", false};
        nops = 3;
    }
    LocalView m{};
    if (sel) m = view(*sel, api, "selMask", loc);
    if (p.repeats == 0) return;
    l0_check(p, ops, nops, api, loc);
    const bool same_each_repeat = mode == SELMODE::VSEL_CMPMASK_SPR;
    if (sel) need(m, same_each_repeat ? epr / 8 : static_cast<uint64_t>(p.repeats) * epr / 8, api, "selMask", loc);
    const uint8_t* mb = sel ? m.data : reinterpret_cast<const uint8_t*>(c.cmp_mask);
    for (int r = 0; r < p.repeats; ++r) {
        for (int lane = 0; lane < epr; ++lane) {
            if (!p.lane_on(r, lane)) continue;
            const uint64_t bit = same_each_repeat ? lane : static_cast<uint64_t>(r) * epr + lane;
            T a;
            std::memcpy(&a, ops[1].v.data + ops[1].offset(r, lane), sizeof(T));
            T b = scalar;
            if (src1) std::memcpy(&b, ops[2].v.data + ops[2].offset(r, lane), sizeof(T));
            const T out = mask_bit(mb, bit) ? a : b;
            const uint64_t od = ops[0].offset(r, lane);
            std::memcpy(ops[0].v.data + od, &out, sizeof(T));
            std::memset(ops[0].v.shadow + od, 1, sizeof(T));
        }
    }
    charge(c, Pipe::V, vec_cycles(c, VecClass::BINARY, sizeof(T), static_cast<uint64_t>(p.repeats)), api, loc,
           {{ops[1].v.blk, false}, {src1 ? ops[2].v.blk : nullptr, false}, {ops[0].v.blk, true}}, is_set_mask ? 1 : 0);
}

}  // namespace sim

#define ASCEND_SIM_SEL_CHECK()                                                                            \
    static_assert(sim::select_types_run<T, U>(), "Failed to check dtype in Select: vsel selects 16- or 32-bit " \
                                                 "lanes (half / float) by the bits of an integer mask (uint8_t / " \
                                                 "uint16_t / uint32_t / uint64_t)")

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, ASCEND_SIM_LOC) {
    ASCEND_SIM_SEL_CHECK();
    sim::select_l2(dst, selMask, src0, &src1, T(0), selMode, count, loc);
}
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint32_t count, ASCEND_SIM_LOC) {
    ASCEND_SIM_SEL_CHECK();
    sim::select_l2(dst, selMask, src0, static_cast<const LocalTensor<T>*>(nullptr), src1, selMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_SEL_CHECK();
    sim::select_l0(dst, &selMask, src0, &src1, T(0), selMode, isSetMask, true, 0, mask, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_SEL_CHECK();
    sim::select_l0(dst, &selMask, src0, &src1, T(0), selMode, isSetMask, false, mask, nullptr, repeatTime, repeatParams,
                   loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_SEL_CHECK();
    sim::select_l0(dst, &selMask, src0, static_cast<const LocalTensor<T>*>(nullptr), src1, selMode, isSetMask, true, 0,
                   mask, repeatTime, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_SEL_CHECK();
    sim::select_l0(dst, &selMask, src0, static_cast<const LocalTensor<T>*>(nullptr), src1, selMode, isSetMask, false, mask,
                   nullptr, repeatTime, repeatParams, loc);
}
// Mode-0 select driven by the CMPMASK register (after a dst-less Compare).
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    using U = uint8_t;
    ASCEND_SIM_SEL_CHECK();
    sim::select_l0<T, U>(dst, nullptr, src0, &src1, T(0), SELMODE::VSEL_CMPMASK_SPR, false, false, 0, nullptr,
                         repeatTime, repeatParams, loc);
}
#undef ASCEND_SIM_SEL_CHECK

// ---- Gather: dst[i] = src at byte offset srcOffset[i] (+ srcBaseOffset) ----
namespace sim {
template <typename T>
inline void gather_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& off,
                        uint32_t base, uint64_t n, const SrcLoc& loc, uint64_t repeats) {
    const char* api = "Gather";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    LocalView d = view(dst, api, "dst", loc);
    LocalView s = view(src, api, "src", loc);
    LocalView o = view(off, api, "srcOffset", loc);
    need(d, n * sizeof(T), api, "dst", loc);
    need(o, n * sizeof(uint32_t), api, "srcOffset", loc);
    check_init(o, 0, n * sizeof(uint32_t), api, "srcOffset", loc);
    const uint32_t* op = reinterpret_cast<const uint32_t*>(o.data);
    T* dp = reinterpret_cast<T*>(d.data);
    for (uint64_t i = 0; i < n; ++i) {
        const uint64_t byte = static_cast<uint64_t>(op[i]) + base;
        if (byte % sizeof(T) != 0) {
            fail("ADDR_ALIGN", api, loc, "srcOffset[%llu] + srcBaseOffset = %llu bytes is not a multiple of sizeof(%s)",
                 static_cast<unsigned long long>(i), static_cast<unsigned long long>(byte), TypeName<T>::value);
        }
        if (byte + sizeof(T) > s.extent) {
            fail("LOCAL_OOB", api, loc, "srcOffset[%llu] + srcBaseOffset = %llu bytes lies outside src (%llu bytes)",
                 static_cast<unsigned long long>(i), static_cast<unsigned long long>(byte),
                 static_cast<unsigned long long>(s.extent));
        }
        if (!s.shadow[byte]) {
            warn("UNINIT_READ", api, loc, "Gather reads src memory that was never written (byte %llu)",
                 static_cast<unsigned long long>(byte));
        }
        std::memcpy(&dp[i], s.data + byte, sizeof(T));
    }
    mark_written(d, 0, n * sizeof(T));
    charge(c, Pipe::V, vec_cycles(c, VecClass::GATHER, sizeof(T), repeats ? repeats : l2_repeats(n, sizeof(T))), api, loc,
           {{s.blk, false}, {o.blk, false}, {d.blk, true}}, c.soc->level2_extra);
}
}  // namespace sim

#define ASCEND_SIM_GATHER_CHECK()                                                                              \
    static_assert(sim::OneOf<T, int16_t, uint16_t, int32_t, uint32_t, float, half, bfloat16_t>::value,        \
                  "Failed to check dtype in Gather, current api support dtype is int16_t / uint16_t / int32_t / " \
                  "uint32_t / float / half / bfloat16_t")

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset, const uint32_t count,
                              ASCEND_SIM_LOC) {
    ASCEND_SIM_GATHER_CHECK();
    sim::gather_impl(dst, src, srcOffset, srcBaseOffset, count, loc, 0);
}
namespace sim {
// Level-0 Gather: repeat r gathers its active lanes; lane l of repeat r reads offset r*lanes + l
// and writes dst element r*dstRepStride*(32/sizeof(T)) + l.
template <typename T>
inline void gather_l0(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& off,
                      uint32_t base, bool bit_mode, uint64_t mask, const uint64_t* bits, uint8_t repeat,
                      uint16_t dst_rep, const SrcLoc& loc) {
    const char* api = "Gather";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, true, bit_mode, mask, bits, repeat, epr, api, loc);
    LocalView d = view(dst, api, "dst", loc);
    LocalView s = view(src, api, "src", loc);
    LocalView o = view(off, api, "srcOffset", loc);
    const uint64_t epb = ONE_BLK_SIZE / sizeof(T);
    for (int r = 0; r < p.repeats; ++r) {
        for (int lane = 0; lane < epr; ++lane) {
            if (!p.lane_on(r, lane)) continue;
            const uint64_t oi = static_cast<uint64_t>(r) * epr + lane;
            need(o, (oi + 1) * 4, api, "srcOffset", loc);
            uint32_t ob;
            std::memcpy(&ob, o.data + oi * 4, 4);
            const uint64_t byte = static_cast<uint64_t>(ob) + base;
            if (byte % sizeof(T) != 0 || byte + sizeof(T) > s.extent) {
                fail("LOCAL_OOB", api, loc, "srcOffset[%llu] + srcBaseOffset = %llu bytes is outside or misaligned in src",
                     static_cast<unsigned long long>(oi), static_cast<unsigned long long>(byte));
            }
            const uint64_t di = static_cast<uint64_t>(r) * dst_rep * epb + lane;
            need(d, (di + 1) * sizeof(T), api, "dst", loc);
            std::memcpy(d.data + di * sizeof(T), s.data + byte, sizeof(T));
            std::memset(d.shadow + di * sizeof(T), 1, sizeof(T));
        }
    }
    charge(c, Pipe::V, vec_cycles(c, VecClass::GATHER, sizeof(T), static_cast<uint64_t>(p.repeats)), api, loc,
           {{s.blk, false}, {o.blk, false}, {d.blk, true}}, 1);
}
}  // namespace sim

template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset, const uint64_t mask,
                              const uint8_t repeatTime, const uint16_t dstRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_GATHER_CHECK();
    sim::gather_l0(dst, src, srcOffset, srcBaseOffset, false, mask, nullptr, repeatTime, dstRepStride, loc);
}
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset, const uint64_t mask[],
                              const uint8_t repeatTime, const uint16_t dstRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_GATHER_CHECK();
    sim::gather_l0(dst, src, srcOffset, srcBaseOffset, true, 0, mask, repeatTime, dstRepStride, loc);
}
#undef ASCEND_SIM_GATHER_CHECK

}  // namespace AscendC

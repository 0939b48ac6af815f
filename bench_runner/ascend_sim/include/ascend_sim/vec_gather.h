// ascend_sim: vector data-rearranging APIs public kernels use — GatherMask (built-in patterns 1..7
// and the tensor-pattern form, reduce/counter mode, rsvdCnt), Copy (UB -> UB, level 0 with
// CopyRepeatParams), Brcb (each element broadcast to one 32-byte block) and CreateVecIndex.
//
// Signatures, parameter structs and dtype tables are those of the ASC API docs (asc-devkit
// docs/zh/api/SIMD-API/基础API/Memory矢量计算/{比较与选择/GatherMask, 数据搬运/Copy（UBToUB掩码式…）,
// 数据填充/Brcb, 数据填充/CreateVecIndex}.md and include/basic_api/kernel_struct_{gather,brcb,
// data_copy}.h), Atlas A2 (910B) column.
#pragma once

#include "vec_common.h"

namespace AscendC {

// ---------------------------------------------------------------------------- GatherMask
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
constexpr GatherMaskMode defaultGahterMaskMode = GatherMaskMode::VERSION_V1;  // sic, CANN's spelling too

struct GatherMaskParams {
    __aicore__ GatherMaskParams() {}
    __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                                const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn),
          repeatTimes(repeatTimesIn),
          src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}

    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};

namespace sim {

// Built-in patterns (docs): 1 even, 2 odd, 3..6 one of every four (1st..4th), 7 all.
inline bool gather_builtin_bit(uint8_t pattern, uint64_t j) {
    switch (pattern) {
        case 1: return j % 2 == 0;
        case 2: return j % 2 == 1;
        case 3: case 4: case 5: case 6: return j % 4 == static_cast<uint64_t>(pattern - 3);
        default: return true;
    }
}

// vreducev2: keeps the src0 elements whose pattern bit is 1, packed from dst[0]. Normal mode
// (reduceMode false): repeatTimes repeats of 256 bytes, the pattern of repeat r starting
// src1RepeatStride blocks after the previous one. Counter mode (reduceMode true; Atlas A2 reads
// it as "mask elements per repeat, repeatTimes repeats"): `mask` elements per repeat, the
// pattern consumed bit by bit from the repeat's pattern start. Built-in patterns ignore
// src1RepeatStride. Afterwards the mask mode is Normal (documented: a kernel in counter mode
// must set it again).
template <typename T>
inline void gather_mask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const TensorRef* pattern_t,
                        uint8_t pattern, bool reduce_mode, uint32_t mask,
                        const GatherMaskParams& p, uint64_t& rsvdCnt, const SrcLoc& loc) {
    const char* api = "GatherMask";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    if (!pattern_t && (pattern < 1 || pattern > 7)) {
        fail("BAD_PARAM", api, loc, "Failed to check src1Pattern value in GatherMask, its valid range is 1 ~ 7, current value is %u",
             static_cast<unsigned>(pattern));
    }
    if (p.repeatTimes > MAX_REPEAT_TIMES) {
        fail("BAD_PARAM", api, loc, "Failed to check repeatTimes value in GatherMask, its valid range is 0 ~ %d, current value is %u",
             MAX_REPEAT_TIMES, static_cast<unsigned>(p.repeatTimes));
    }
    if (reduce_mode && mask == 0) {
        fail("BAD_PARAM", api, loc, "Failed to check mask value in GatherMask (counter mode), its valid range is 1 ~ 4294967295, current value is 0");
    }
    LocalView d = view(dst, api, "dst", loc);
    LocalView s = view(src0, api, "src0", loc);
    LocalView pv{};
    if (pattern_t) pv = view_raw(*pattern_t, api, "src1Pattern", loc, ONE_BLK_SIZE);
    const uint64_t es = sizeof(T);
    const uint64_t epr = ONE_REPEAT_BYTE_SIZE / es;
    const uint64_t epb = ONE_BLK_SIZE / es;
    const uint64_t per_rep = reduce_mode ? mask : epr;
    const uint64_t reps = p.repeatTimes;
    // Checks first (bounds of every element read, pattern bits read, uninitialised reads).
    uint64_t src_end = 0, pat_end = 0;
    for (uint64_t r = 0; r < reps && per_rep; ++r) {
        const uint64_t last = per_rep - 1;
        src_end = std::max(src_end, r * p.src0RepeatStride * ONE_BLK_SIZE + (last / epb) * p.src0BlockStride * ONE_BLK_SIZE +
                                        (last % epb) * es + es);
        if (pattern_t) pat_end = std::max(pat_end, r * p.src1RepeatStride * ONE_BLK_SIZE + (last / 8) + 1);
    }
    need(s, src_end, api, "src0", loc);
    if (pattern_t) {
        need(pv, pat_end, api, "src1Pattern", loc);
        check_init(pv, 0, pat_end, api, "src1Pattern", loc);
    }
    // Gather into a scratch list first: dst may alias src0 (the docs' own example does).
    uint64_t kept = 0;
    bool uninit = false;
    std::vector<T> out;
    for (uint64_t r = 0; r < reps; ++r) {
        for (uint64_t j = 0; j < per_rep; ++j) {
            bool on;
            if (pattern_t) {
                const uint64_t byte = r * p.src1RepeatStride * ONE_BLK_SIZE + j / 8;
                on = ((pv.data[byte] >> (j % 8)) & 1u) != 0;
            } else {
                on = gather_builtin_bit(pattern, j);
            }
            if (!on) continue;
            const uint64_t off = r * p.src0RepeatStride * ONE_BLK_SIZE + (j / epb) * p.src0BlockStride * ONE_BLK_SIZE +
                                 (j % epb) * es;
            if (!s.shadow[off]) uninit = true;
            T v;
            std::memcpy(&v, s.data + off, es);
            out.push_back(v);
            ++kept;
        }
    }
    if (uninit) warn("UNINIT_READ", api, loc, "src0 reads UB memory that was never written since its buffer was allocated");
    need(d, kept * es, api, "dst", loc);
    if (kept) {
        std::memcpy(d.data, out.data(), kept * es);
        mark_written(d, 0, kept * es);
    }
    rsvdCnt = kept;
    c.mask_counter_mode = false;
    const uint64_t vreps = reduce_mode ? reps * ((per_rep * es + ONE_REPEAT_BYTE_SIZE - 1) / ONE_REPEAT_BYTE_SIZE) : reps;
    // [model] vreducev2 is not in msKPP's table: charged as a binary-class instruction (2 cycles/repeat).
    charge(c, Pipe::V, vec_cycles(c, VecClass::BINARY, es, vreps), api, loc,
           {{s.blk, false}, {pattern_t ? pv.blk : nullptr, false}, {d.blk, true}}, 1);
}

template <typename T, typename U>
constexpr bool gather_mask_types_ok() {
    return (sizeof(T) == 2 && std::is_same<U, uint16_t>::value) || (sizeof(T) == 4 && std::is_same<U, uint32_t>::value);
}

}  // namespace sim

#define ASCEND_SIM_GATHERMASK_T_CHECK()                                                                                \
    static_assert(sim::OneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>::value,                 \
                  "Failed to check dtype in GatherMask, current api support dtype combination is src0: int16_t / "    \
                  "uint16_t / half / bfloat16_t, src1Pattern: uint16_t; src0: int32_t / uint32_t / float, "            \
                  "src1Pattern: uint32_t")

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt, ASCEND_SIM_LOC) {
    ASCEND_SIM_GATHERMASK_T_CHECK();
    static_assert(sim::gather_mask_types_ok<T, U>(),
                  "Failed to check dtype in GatherMask, current api support dtype combination is src0: int16_t / "
                  "uint16_t / half / bfloat16_t, src1Pattern: uint16_t; src0: int32_t / uint32_t / float, "
                  "src1Pattern: uint32_t");
    const sim::TensorRef pr = sim::ref_of(src1Pattern);
    sim::gather_mask(dst, src0, &pr, 0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt, ASCEND_SIM_LOC) {
    ASCEND_SIM_GATHERMASK_T_CHECK();
    sim::gather_mask(dst, src0, nullptr, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
#undef ASCEND_SIM_GATHERMASK_T_CHECK

// ---------------------------------------------------------------------------- Copy (UB -> UB, level 0)
struct CopyRepeatParams {
    __aicore__ CopyRepeatParams() {}
    __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                                uint16_t srcRepeatSizeIn)
        : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn) {}

    uint16_t dstStride = DEFAULT_DATA_COPY_STRIDE;  // block stride inside a repeat (32-byte blocks)
    uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
    uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;  // repeat stride (32-byte blocks)
    uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace sim {
inline void copy_params_range(const CopyRepeatParams& p, const SrcLoc& loc) {
    if (p.dstRepeatSize > 4095 || p.srcRepeatSize > 4095) {
        fail("BAD_PARAM", "Copy", loc,
             "Failed to check dstRepeatSize/srcRepeatSize value in Copy, its valid range is 0 ~ 4095, current value is %u/%u",
             static_cast<unsigned>(p.dstRepeatSize), static_cast<unsigned>(p.srcRepeatSize));
    }
}
}  // namespace sim

#define ASCEND_SIM_COPY_CHECK()                                                                                      \
    static_assert(sim::OneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>::value,               \
                  "Failed to check dtype in Copy, current api support dtype combination is src and dst both: "       \
                  "int16_t / uint16_t / half / bfloat16_t / int32_t / uint32_t / float.")

// vcopy: lane-for-lane copy under the mask (msKPP: vcopy is a unary-class instruction).
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_COPY_CHECK();
    sim::copy_params_range(repeatParams, loc);
    sim::unary_l0("Copy", sim::VecClass::UNARY, dst, src, isSetMask, true, 0, mask, repeatTime, repeatParams.dstStride,
                  repeatParams.srcStride, repeatParams.dstRepeatSize, repeatParams.srcRepeatSize, loc,
                  [](T a, T) ASCEND_SIM_NOINSTR -> T { return a; });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask,
                            const uint8_t repeatTime, const CopyRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_COPY_CHECK();
    sim::copy_params_range(repeatParams, loc);
    sim::unary_l0("Copy", sim::VecClass::UNARY, dst, src, isSetMask, false, mask, nullptr, repeatTime,
                  repeatParams.dstStride, repeatParams.srcStride, repeatParams.dstRepeatSize, repeatParams.srcRepeatSize,
                  loc, [](T a, T) ASCEND_SIM_NOINSTR -> T { return a; });
}
#undef ASCEND_SIM_COPY_CHECK

// ---------------------------------------------------------------------------- Brcb
struct BrcbRepeatParams {
    __aicore__ BrcbRepeatParams() {}
    __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstRepStride(dstRepStrideIn), dstBlkStride(dstBlkStrideIn) {}

    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};

// vbrcb: repeat r reads 8 consecutive src elements (src + 8r) and fills dst block i of the repeat
// (r * dstRepStride + i * dstBlkStride blocks) with element i. b16 / b32 types; src != dst.
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>::value,
                  "Failed to check dtype in Brcb, current api support dtype combination is src and dst both: int16_t / "
                  "uint16_t / half / bfloat16_t / int32_t / uint32_t / float.");
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("Brcb", loc);
    sim::LocalView d = sim::view(dst, "Brcb", "dst", loc);
    sim::LocalView s = sim::view(src, "Brcb", "src", loc);
    const uint64_t reps = repeatTime;
    if (reps == 0) return;
    if (d.data == s.data) sim::fail("BAD_PARAM", "Brcb", loc, "dst and src must not be the same address");
    const uint64_t es = sizeof(T), epb = ONE_BLK_SIZE / sizeof(T);
    sim::need(s, reps * 8 * es, "Brcb", "src", loc);
    sim::check_init(s, 0, reps * 8 * es, "Brcb", "src", loc);
    const uint64_t last = (reps - 1) * repeatParams.dstRepStride + 7ull * repeatParams.dstBlkStride;
    sim::need(d, (last + 1) * ONE_BLK_SIZE, "Brcb", "dst", loc);
    for (uint64_t r = 0; r < reps; ++r) {
        for (uint64_t i = 0; i < 8; ++i) {
            T v;
            std::memcpy(&v, s.data + (r * 8 + i) * es, es);
            const uint64_t off = (r * repeatParams.dstRepStride + i * repeatParams.dstBlkStride) * ONE_BLK_SIZE;
            for (uint64_t k = 0; k < epb; ++k) std::memcpy(d.data + off + k * es, &v, es);
            sim::mark_written(d, off, ONE_BLK_SIZE);
        }
    }
    sim::charge(c, sim::Pipe::V, sim::vec_cycles(c, sim::VecClass::UNARY, es, reps), "Brcb", loc,
                {{s.blk, false}, {d.blk, true}});
}

// ---------------------------------------------------------------------------- CreateVecIndex
// dst[i] = firstValue + i (level 2); level 0: lane l of repeat r gets firstValue + r * lanes + l.
#define ASCEND_SIM_VECINDEX_CHECK()                                                                                 \
    static_assert(sim::OneOf<T, int16_t, half, int32_t, float>::value,                                              \
                  "Failed to check dtype in CreateVecIndex, current api support dtype is int16_t / half / int32_t / " \
                  "float.")

namespace sim {
template <typename T>
inline void vec_index_l0(LocalTensor<T>& dst, const T& first, bool bit_mode, uint64_t mask, const uint64_t* bits,
                         uint8_t repeat, uint16_t blk, uint8_t rep, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("CreateVecIndex", loc);
    const int epr = static_cast<int>(ONE_REPEAT_BYTE_SIZE / sizeof(T));
    L0Plan p = plan_l0(c, true, bit_mode, mask, bits, repeat, epr, "CreateVecIndex", loc);
    L0Operand op{view(dst, "CreateVecIndex", "dst", loc), sizeof(T), blk, rep, "dst", true};
    if (p.repeats == 0) return;
    l0_check(p, &op, 1, "CreateVecIndex", loc);
    const double f = static_cast<double>(ld(first));
    for (int r = 0; r < p.repeats; ++r) {
        for (int lane = 0; lane < epr; ++lane) {
            if (!p.lane_on(r, lane)) continue;
            const T v = st<T>(f + static_cast<double>(r) * epr + lane);
            const uint64_t off = op.offset(r, lane);
            std::memcpy(op.v.data + off, &v, sizeof(T));
            std::memset(op.v.shadow + off, 1, sizeof(T));
        }
    }
    charge(c, Pipe::V, vec_cycles(c, VecClass::UNARY, sizeof(T), static_cast<uint64_t>(p.repeats)), "CreateVecIndex", loc,
           {{op.v.blk, true}}, 1);
}
}  // namespace sim

template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_VECINDEX_CHECK();
    sim::vec_index_l0(dst, firstValue, false, mask, nullptr, repeatTime, dstBlkStride, dstRepStride, loc);
}
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[], uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_VECINDEX_CHECK();
    sim::vec_index_l0(dst, firstValue, true, 0, mask, repeatTime, dstBlkStride, dstRepStride, loc);
}
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count, ASCEND_SIM_LOC) {
    ASCEND_SIM_VECINDEX_CHECK();
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("CreateVecIndex", loc);
    sim::LocalView d = sim::view(dst, "CreateVecIndex", "dst", loc);
    const uint64_t n = count;
    sim::need(d, n * sizeof(T), "CreateVecIndex", "dst", loc);
    const double f = static_cast<double>(sim::ld(firstValue));
    T* p = reinterpret_cast<T*>(d.data);
    for (uint64_t i = 0; i < n; ++i) p[i] = sim::st<T>(f + static_cast<double>(i));
    sim::mark_written(d, 0, n * sizeof(T));
    sim::charge(c, sim::Pipe::V, sim::vec_cycles(c, sim::VecClass::UNARY, sizeof(T), sim::l2_repeats(n, sizeof(T))),
                "CreateVecIndex", loc, {{d.blk, true}}, c.soc->level2_extra);
}
#undef ASCEND_SIM_VECINDEX_CHECK

}  // namespace AscendC

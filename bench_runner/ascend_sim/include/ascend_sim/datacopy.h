// ascend_sim: DataCopy and DataCopyPad between global memory and the Unified Buffer. The work
// is done out of line (runtime_impl.h); these templates check dtypes and pass sizes.
#pragma once

#include "pipe.h"

namespace AscendC {

template <typename T>
struct DataCopyPadExtParams {
    __aicore__ DataCopyPadExtParams() {}
    __aicore__ DataCopyPadExtParams(const bool isPadValue, const uint8_t leftPadValue, const uint8_t rightPadValue,
                                    T padValue)
        : isPad(isPadValue), leftPadding(leftPadValue), rightPadding(rightPadValue), paddingValue(padValue) {}

    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue = T(0);
};

struct DataCopyEnhancedParams {
    BlockMode blockMode = BlockMode::BLOCK_MODE_NORMAL;
    uint64_t deqValue = 0;
    uint8_t sidStoreMode = 0;
    bool isRelu = false;
    uint64_t padValue = 0;
};

namespace sim {
template <typename T>
constexpr void check_datacopy_type() {
    // bool moves as the byte it is stored in (NPUKernelBench's CastMath copies bool tensors).
    static_assert(OneOf<T, bool, int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float,
                        int64_t, uint64_t, double>::value,
                  "Failed to check dtype in DataCopy, current api support dtype is bool / int8_t / uint8_t / int16_t / "
                  "uint16_t / half / bfloat16_t / int32_t / uint32_t / float / int64_t / uint64_t / double");
}
}  // namespace sim

// ---- count form: GM -> UB (MTE2), UB -> GM (MTE3), UB -> UB (vector pipe) ----
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::copy_gm_to_ub(sim::ref_of(dst), src.GetPhyAddr(), count, sizeof(T), sim::dtype_of<T>(), loc);
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::copy_ub_to_gm(dst.GetPhyAddr(0), sim::ref_of(src), count, sizeof(T), sim::dtype_of<T>(), loc);
}
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::copy_ub_to_ub(sim::ref_of(dst), sim::ref_of(src), count, sizeof(T), loc);
}

// ---- strided form: blockCount bursts of blockLen 32-byte blocks, gaps in 32-byte blocks ----
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& repeatParams,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::copy_gm_to_ub_params(sim::ref_of(dst), src.GetPhyAddr(), repeatParams, loc);
}
template <typename T>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::copy_ub_to_gm_params(dst.GetPhyAddr(0), sim::ref_of(src), repeatParams, sizeof(T), sim::dtype_of<T>(), loc);
}
// L1 (C1) -> bias table (C2), DataCopyParams form (ASC "DataCopy（L1ToBiasTable Buffer数据搬运）",
// Atlas A2 column): blockLen in 64-byte units of the source, srcGap in 32-byte blocks, dstGap in
// 64-byte units; src half / float / int32_t, dst float / int32_t, half widened to float on the
// way (the Matmul bias path: half bias in L1, float in the table). Runs on MTE1.
namespace sim {
template <typename T>
inline bool is_bias_table(const LocalTensor<T>& t) {
    const BlockInfo* b = TensorAccess::block(t);
    return b != nullptr && b->hw == Hardware::BIAS;
}
template <typename T, typename U>
inline void copy_l1_to_bt(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& p,
                          const SrcLoc& loc) {
    const char* api = "DataCopy";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    constexpr bool ok = (std::is_same<U, half>::value && std::is_same<T, float>::value) ||
                        (std::is_same<U, float>::value && std::is_same<T, float>::value) ||
                        (std::is_same<U, int32_t>::value && std::is_same<T, int32_t>::value);
    if (!ok) {
        fail("BAD_PARAM", api, loc,
             "Failed to check dtype in DataCopy (L1 -> BiasTable), supported src/dst are half/float, float/float, "
             "int32_t/int32_t; current is %s/%s",
             TypeName<U>::value, TypeName<T>::value);
    }
    if (p.blockCount > MAX_BLOCK_COUNT) {
        fail("BAD_PARAM", api, loc, "DataCopyParams.blockCount is %u, valid range is 0 ~ %d", p.blockCount, MAX_BLOCK_COUNT);
    }
    LocalView d = view_raw(ref_of(dst), api, "dst (LocalTensor)", loc, 64, hw_bit(Hardware::BIAS));
    LocalView s = view_raw(ref_of(src), api, "src (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
    if (p.blockCount == 0 || p.blockLen == 0) return;
    const uint64_t sburst = static_cast<uint64_t>(p.blockLen) * 64;
    const uint64_t elems = sburst / sizeof(U);
    const uint64_t dburst = elems * sizeof(T);
    const uint64_t sstep = sburst + static_cast<uint64_t>(p.srcGap) * ONE_BLK_SIZE;
    const uint64_t dstep = dburst + static_cast<uint64_t>(p.dstGap) * 64;
    need(s, (p.blockCount - 1) * sstep + sburst, api, "src (LocalTensor)", loc);
    need(d, (p.blockCount - 1) * dstep + dburst, api, "dst (LocalTensor)", loc);
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        check_init(s, i * sstep, sburst, api, "src (LocalTensor)", loc);
        const U* sp = reinterpret_cast<const U*>(s.data + i * sstep);
        T* dp = reinterpret_cast<T*>(d.data + i * dstep);
        for (uint64_t e = 0; e < elems; ++e) {
            if constexpr (std::is_same<U, half>::value) {
                dp[e] = static_cast<T>(to_f<half>(sp[e]));
            } else {
                dp[e] = static_cast<T>(sp[e]);
            }
        }
        mark_written(d, i * dstep, dburst);
    }
    charge(c, Pipe::MTE1, c.soc->mte1_latency + (sburst * p.blockCount + 63) / 64, api, loc,
           {{s.blk, false}, {d.blk, true}});
}
}  // namespace sim

template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& repeatParams,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    if (sim::is_bias_table(dst)) return sim::copy_l1_to_bt(dst, src, repeatParams, loc);
    sim::copy_ub_to_ub_params(sim::ref_of(dst), sim::ref_of(src), repeatParams, loc);
}
template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& repeatParams,
                                ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    if (sim::is_bias_table(dst)) return sim::copy_l1_to_bt(dst, src, repeatParams, loc);
    sim::copy_ub_to_ub_params(sim::ref_of(dst), sim::ref_of(src), repeatParams, loc);
}

// ---- DataCopyPad (910B: unaligned lengths; blockLen in bytes) ----
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams, const DataCopyPadExtParams<T>& padParams,
                                   ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    const T pad = padParams.paddingValue;
    sim::pad_copy_in(sim::ref_of(dst), src.GetPhyAddr(), dataCopyParams.blockCount, dataCopyParams.blockLen,
                     dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding,
                     padParams.rightPadding, &pad, sizeof(T), loc);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyExtParams& dataCopyParams, ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::pad_copy_out(dst.GetPhyAddr(0), sim::ref_of(src), dataCopyParams.blockCount, dataCopyParams.blockLen,
                      dataCopyParams.srcStride, dataCopyParams.dstStride, sizeof(T), sim::dtype_of<T>(), loc);
}
// Older parameter structs (DataCopyParams with blockLen in bytes, DataCopyPadParams).
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                   const DataCopyParams& dataCopyParams, const DataCopyPadParams& padParams,
                                   ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    T pad;
    const uint64_t raw = padParams.paddingValue;
    std::memcpy(&pad, &raw, sizeof(T) < 8 ? sizeof(T) : 8);
    sim::pad_copy_in(sim::ref_of(dst), src.GetPhyAddr(), dataCopyParams.blockCount, dataCopyParams.blockLen,
                     dataCopyParams.srcStride, dataCopyParams.dstStride, padParams.isPad, padParams.leftPadding,
                     padParams.rightPadding, &pad, sizeof(T), loc);
}
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                                   const DataCopyParams& dataCopyParams, ASCEND_SIM_LOC) {
    sim::check_datacopy_type<T>();
    sim::pad_copy_out(dst.GetPhyAddr(0), sim::ref_of(src), dataCopyParams.blockCount, dataCopyParams.blockLen,
                      dataCopyParams.srcStride, dataCopyParams.dstStride, sizeof(T), sim::dtype_of<T>(), loc);
}

// ---- InitGlobalMemory (InitOutput, its earlier name): fill `size` elements of GM with `value` ----
template <typename T>
__aicore__ inline void InitGlobalMemory(const GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
                                        ASCEND_SIM_LOC) {
    sim::gm_fill(const_cast<T*>(gmWorkspaceAddr.GetPhyAddr()), &value, size, sizeof(T), sim::dtype_of<T>(),
                 "InitGlobalMemory", loc);
}
template <typename T>
__aicore__ inline void InitOutput(const GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value,
                                  ASCEND_SIM_LOC) {
    sim::gm_fill(const_cast<T*>(gmWorkspaceAddr.GetPhyAddr()), &value, size, sizeof(T), sim::dtype_of<T>(),
                 "InitOutput", loc);
}

// ---- atomic accumulation on UB -> GM copies ----
template <typename T>
__aicore__ inline void SetAtomicAdd() {
    static_assert(sim::OneOf<T, float, half, int16_t, int32_t, int8_t, bfloat16_t>::value,
                  "Failed to check dtype in SetAtomicAdd, current api support dtype is float / half / int16_t / "
                  "int32_t / int8_t / bfloat16_t");
    sim::set_atomic(1);
}
template <typename T>
__aicore__ inline void SetAtomicMax() {
    sim::set_atomic(2);
}
template <typename T>
__aicore__ inline void SetAtomicMin() {
    sim::set_atomic(3);
}
__aicore__ inline void SetAtomicNone() { sim::set_atomic(0); }

}  // namespace AscendC

// tiling/tiling_api.h — host-side tiling of the high-level APIs (ascend_sim subset): the Matmul
// tiling classes matmul_tiling::MatmulApiTiling (one core) and MultiCoreMatmulTiling, and the
// SoftMax / LayerNorm temporary-size queries and tiling functions (namespace AscendC).
//
// GetTiling fills TCubeTiling with a deterministic choice: the M x N output split over at most
// SetDim() cores (the split with the least work on the busiest core, then the fewest cores),
// base blocks of at most 128 x 256 (16-aligned, L0C-sized), baseK 64 (32 for float), and L1 steps
// of 4 base K blocks. It returns 0, or -1 when a shape or type is missing.
#pragma once
#include "../ascend_sim/dt_macros_set_aside.h"

#include "../ascend_sim/std_headers.h"
#include "../ascend_sim/noinstr_begin.h"
#include <cstdint>

#include "../ascend_sim/adv_tiling.h"
#include "../ascend_sim/matmul_tiling_data.h"
#include "../ascend_sim/noinstr_end.h"
// As CANN's tiling_api.h, it brings the platform query to host code; a kernel translation unit
// (which reads op_host tiling headers for their structs, where GeGluGradV2 keeps a SocVersion)
// gets the enums alone: the query is host code.
#ifdef ASCEND_SIM_DEVICE_CODE
#include "../ascend_sim/platform_enums.h"
#else
#include "platform/platform_ascendc.h"
#endif

namespace matmul_tiling {

enum class TPosition : int32_t { GM = 0, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, TSCM };
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_BF16 = 27,
    DT_INT4 = 29,
};

class MatmulApiTiling {
  public:
    MatmulApiTiling() = default;
    template <typename Platform>
    explicit MatmulApiTiling(const Platform&) {}
    virtual ~MatmulApiTiling() = default;

    int32_t SetAType(TPosition pos, CubeFormat fmt, DataType t, bool isTrans = false) {
        (void)pos;
        (void)fmt;
        aType_ = t;
        transA_ = isTrans;
        hasA_ = true;
        return 0;
    }
    int32_t SetBType(TPosition pos, CubeFormat fmt, DataType t, bool isTrans = false) {
        (void)pos;
        (void)fmt;
        (void)t;
        transB_ = isTrans;
        hasB_ = true;
        return 0;
    }
    int32_t SetCType(TPosition pos, CubeFormat fmt, DataType t) {
        (void)pos;
        (void)fmt;
        (void)t;
        return 0;
    }
    int32_t SetBiasType(TPosition pos, CubeFormat fmt, DataType t) {
        (void)pos;
        (void)fmt;
        (void)t;
        return 0;
    }
    int32_t SetShape(int32_t m, int32_t n, int32_t k) {
        m_ = m;
        n_ = n;
        k_ = k;
        if (orgM_ == 0) {
            orgM_ = m;
            orgN_ = n;
            orgKa_ = orgKb_ = k;
        }
        return 0;
    }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgK) { return SetOrgShape(orgM, orgN, orgK, orgK); }
    int32_t SetOrgShape(int32_t orgM, int32_t orgN, int32_t orgKa, int32_t orgKb) {
        orgM_ = orgM;
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
        return 0;
    }
    int32_t SetBias(bool isBias = false) {
        bias_ = isBias;
        return 0;
    }
    // The newer name of SetBias (CANN's matmul_tiling_base.h: "Enable the bias").
    int32_t EnableBias(bool isBiasIn = false) { return SetBias(isBiasIn); }
    int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1) {
        (void)l1;
        (void)l0c;
        (void)ub;
        (void)bt;
        return 0;
    }
    int32_t SetFixSplit(int32_t baseM = -1, int32_t baseN = -1, int32_t baseK = -1) {
        fixM_ = baseM;
        fixN_ = baseN;
        fixK_ = baseK;
        return 0;
    }
    int32_t SetTraverse(int32_t order) {
        order_ = order;
        return 0;
    }
    int32_t SetDim(int32_t dim) {
        dim_ = dim > 0 ? dim : 1;
        return 0;
    }

    int64_t GetTiling(TCubeTiling& t) {
        if (!hasA_ || !hasB_ || m_ <= 0 || n_ <= 0 || k_ <= 0) return -1;
        t = TCubeTiling();
        // Split M x N over the cores: least work on the busiest core, then the fewest cores.
        int32_t bestM = 1, bestN = 1;
        int64_t bestWork = -1;
        for (int32_t md = 1; md <= dim_; ++md) {
            for (int32_t nd = 1; md * nd <= dim_; ++nd) {
                const int64_t sm = Up16(Ceil(m_, md)), sn = Up16(Ceil(n_, nd));
                const int32_t used = Ceil(m_, static_cast<int32_t>(sm)) * Ceil(n_, static_cast<int32_t>(sn));
                const int64_t work = sm * sn;
                if (bestWork < 0 || work < bestWork || (work == bestWork && used < bestM * bestN)) {
                    bestWork = work;
                    bestM = Ceil(m_, static_cast<int32_t>(sm));
                    bestN = Ceil(n_, static_cast<int32_t>(sn));
                }
            }
        }
        const int32_t sm = Up16(Ceil(m_, bestM)), sn = Up16(Ceil(n_, bestN));
        t.usedCoreNum = bestM * bestN;
        t.M = orgM_;
        t.N = orgN_;
        t.Ka = orgKa_;
        t.Kb = orgKb_;
        t.singleCoreM = sm < m_ ? sm : m_;
        t.singleCoreN = sn < n_ ? sn : n_;
        t.singleCoreK = k_;
        const bool f32 = aType_ == DataType::DT_FLOAT;
        t.baseM = fixM_ > 0 ? fixM_ : (sm < 128 ? sm : 128);
        t.baseN = fixN_ > 0 ? fixN_ : (sn < 256 ? sn : 256);
        const int32_t kCap = f32 ? 32 : 64;
        t.baseK = fixK_ > 0 ? fixK_ : (Up16(k_) < kCap ? Up16(k_) : kCap);
        t.stepKa = t.stepKb = 4;
        t.stepM = t.stepN = 1;
        t.depthA1 = t.depthB1 = 8;
        t.isBias = bias_ ? 1 : 0;
        t.iterateOrder = order_;
        t.dbL0A = t.dbL0B = 2;
        t.dbL0C = 2 * t.baseM * t.baseN * 4 <= 128 * 1024 ? 2 : 1;
        t.transLength = 0;
        t.shareMode = 0;
        t.shareL1Size = 512 * 1024;
        t.shareL0CSize = 128 * 1024;
        t.shareUbSize = 0;
        t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
        t.BatchNum = 1;
        return 0;
    }
    // CANN also offers GetTiling(optiling::TCubeTiling&) — the same type here.

    bool transA() const { return transA_; }
    bool transB() const { return transB_; }

  protected:
    static int32_t Ceil(int32_t a, int32_t b) { return (a + b - 1) / b; }
    static int32_t Up16(int64_t a) { return static_cast<int32_t>((a + 15) / 16 * 16); }

    int32_t m_ = 0, n_ = 0, k_ = 0;
    int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int32_t dim_ = 1;
    int32_t fixM_ = -1, fixN_ = -1, fixK_ = -1;
    int32_t order_ = 0;
    bool bias_ = false, transA_ = false, transB_ = false, hasA_ = false, hasB_ = false;
    DataType aType_ = DataType::DT_FLOAT16;
};

class MultiCoreMatmulTiling : public MatmulApiTiling {
  public:
    MultiCoreMatmulTiling() = default;
    template <typename Platform>
    explicit MultiCoreMatmulTiling(const Platform& p) : MatmulApiTiling(p) {}
    int32_t SetSingleShape(int32_t sm = -1, int32_t sn = -1, int32_t sk = -1) {
        (void)sm;
        (void)sn;
        (void)sk;
        return 0;
    }
    int32_t GetSingleShape(int32_t& sm, int32_t& sn, int32_t& sk) {
        TCubeTiling t;
        if (GetTiling(t) != 0) return -1;
        sm = t.singleCoreM;
        sn = t.singleCoreN;
        sk = t.singleCoreK;
        return 0;
    }
    int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
        TCubeTiling t;
        if (GetTiling(t) != 0) return -1;
        mDim = (m_ + t.singleCoreM - 1) / t.singleCoreM;
        nDim = (n_ + t.singleCoreN - 1) / t.singleCoreN;
        dim = mDim * nDim;
        return 0;
    }
};

}  // namespace matmul_tiling

namespace AscendC {

// ---- SoftMax: src shape [M, K] (the product of the leading axes, the last axis) ----
inline uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    const size_t n = srcShape.GetDimNum();
    return sim::softmax_min_tmp(n ? static_cast<uint32_t>(srcShape.GetDim(n - 1)) : 0, dataTypeSize);
}
inline uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
    (void)isReuseSource;
    const size_t n = srcShape.GetDimNum();
    const uint32_t k = n ? static_cast<uint32_t>(srcShape.GetDim(n - 1)) : 0;
    const uint32_t m = k ? static_cast<uint32_t>(srcShape.GetShapeSize() / k) : 0;
    return sim::softmax_max_tmp(m, k, dataTypeSize);
}
inline void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                              SoftMaxTiling& softmaxTiling) {
    const size_t n = srcShape.GetDimNum();
    const uint32_t k = n ? static_cast<uint32_t>(srcShape.GetDim(n - 1)) : 0;
    const uint32_t m = k ? static_cast<uint32_t>(srcShape.GetShapeSize() / k) : 0;
    const uint32_t perRow = sim::softmax_min_tmp(k, dataTypeSize);
    uint32_t rows = perRow ? localWorkSpaceSize / perRow : 0;
    if (rows == 0) rows = 1;
    if (rows > m) rows = m;
    softmaxTiling = SoftMaxTiling();
    softmaxTiling.srcM = m;
    softmaxTiling.srcK = k;
    softmaxTiling.srcSize = m * k;
    softmaxTiling.outMaxM = m;
    softmaxTiling.outMaxK = 32 / (dataTypeSize ? dataTypeSize : 4);
    softmaxTiling.outMaxSize = m * softmaxTiling.outMaxK;
    softmaxTiling.splitM = rows;
    softmaxTiling.splitK = k;
    softmaxTiling.splitSize = rows * k;
    softmaxTiling.reduceM = rows;
    softmaxTiling.reduceK = softmaxTiling.outMaxK;
    softmaxTiling.reduceSize = rows * softmaxTiling.outMaxK;
    softmaxTiling.rangeM = rows ? m / rows : 0;
    softmaxTiling.tailM = rows ? m % rows : 0;
    softmaxTiling.tailSplitSize = softmaxTiling.tailM * k;
    softmaxTiling.tailReduceSize = softmaxTiling.tailM * softmaxTiling.outMaxK;
}

// ---- LayerNorm: src shape [B, S, H] ----
inline void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
    (void)isReuseSource;
    const uint32_t h = static_cast<uint32_t>(srcShape.GetDim(srcShape.GetDimNum() ? srcShape.GetDimNum() - 1 : 0));
    const uint32_t bs = h ? static_cast<uint32_t>(srcShape.GetShapeSize() / h) : 0;
    minValue = sim::layernorm_min_tmp(h, typeSize);
    maxValue = sim::layernorm_max_tmp(bs, h, typeSize);
}
inline void GetLayerNormNDTillingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                      const bool isReuseSource, LayerNormTiling& tilling) {
    (void)isReuseSource;
    tilling = LayerNormTiling();
    const size_t n = srcShape.GetDimNum();
    tilling.bLength = n >= 3 ? static_cast<uint32_t>(srcShape.GetDim(n - 3)) : 1;
    tilling.sLength = n >= 2 ? static_cast<uint32_t>(srcShape.GetDim(n - 2)) : 1;
    tilling.hLength = n >= 1 ? static_cast<uint32_t>(srcShape.GetDim(n - 1)) : 0;
    tilling.originalHLength = tilling.hLength;
    tilling.inputXSize = tilling.bLength * tilling.sLength * tilling.hLength;
    tilling.meanVarSize = tilling.bLength * tilling.sLength;
    tilling.tmpBufSize = stackBufferSize / (typeSize ? typeSize : 4);
    tilling.numberOfTmpBuf = 2;
    tilling.lastDimValueBack = tilling.hLength ? 1.0f / static_cast<float>(tilling.hLength) : 0.0f;
}
// Same, with the unpadded last axis (H padded for alignment, originalH the real length).
inline void GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                                     const bool isReuseSource, LayerNormTiling& tiling) {
    GetLayerNormNDTillingInfo(srcShape, stackBufferSize, typeSize, isReuseSource, tiling);
}

// ---- Sort (Atlas A2 figures: Concat needs no temporary space; Sort's is one 8-byte (score,
// index) structure per element) ----
template <typename Platform>
inline uint32_t GetConcatTmpSize(const Platform& ascendcPlatform, const uint32_t elemCount, const uint32_t dataTypeSize) {
    (void)ascendcPlatform;
    (void)elemCount;
    (void)dataTypeSize;
    return 0;
}
template <typename Platform>
inline uint32_t GetSortTmpSize(const Platform& ascendcPlatform, const uint32_t elemCount, const uint32_t dataTypeSize) {
    (void)ascendcPlatform;
    if (elemCount == 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return 0;
    return elemCount * 8u;
}

// ---- TopK: rows of `inner` (a multiple of 32) elements, `outter` rows ----
template <typename Platform>
inline bool GetTopKMaxMinTmpSize(const Platform& ascendcPlatform, const int32_t inner, const int32_t outter,
                                 const bool isReuseSource, const bool isInitIndex, enum TopKMode mode,
                                 const bool isLargest, const uint32_t dataTypeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
    (void)ascendcPlatform;
    (void)isReuseSource;
    (void)isInitIndex;
    (void)mode;
    (void)isLargest;
    if (inner <= 0 || outter <= 0 || inner % 32 != 0 || (dataTypeSize != 2 && dataTypeSize != 4)) return false;
    minValue = sim::topk_min_tmp(static_cast<uint32_t>(inner), dataTypeSize);
    maxValue = minValue;
    return true;
}
template <typename Platform>
inline bool TopKTilingFunc(const Platform& ascendcPlatform, const int32_t inner, const int32_t outter, const int32_t k,
                           const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                           const bool isLargest, TopkTiling& topKTiling) {
    (void)ascendcPlatform;
    (void)isInitIndex;
    (void)isLargest;
    if (inner <= 0 || outter <= 0 || inner % 32 != 0 || k < 1 || k > inner) return false;
    topKTiling = TopkTiling();
    topKTiling.tmpLocalSize = static_cast<int32_t>(sim::topk_min_tmp(static_cast<uint32_t>(inner), dataTypeSize));
    topKTiling.allDataSize = inner * outter;
    topKTiling.innerDataSize = inner;
    topKTiling.sortRepeat = static_cast<uint32_t>(inner / 32);
    topKTiling.mrgSortRepeat = inner / 32;
    topKTiling.kAlignFourBytes = (k + 7) / 8 * 8;
    topKTiling.kAlignTwoBytes = (k + 15) / 16 * 16;
    topKTiling.srcIndexOffset = mode == TopKMode::TOPK_NSMALL ? inner * outter : inner;
    return true;
}

}  // namespace AscendC
#include "../ascend_sim/dt_macros_restore.h"

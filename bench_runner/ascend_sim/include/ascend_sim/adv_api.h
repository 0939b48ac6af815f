// ascend_sim: high-level vector APIs — SoftMax and LayerNorm (kernel side). Results are computed
// in float per row, exactly as written in the docs' formulas; the cost is charged to the vector
// pipe as the instruction sequence the library runs (reduce, subtract, exp, reduce, divide; for
// LayerNorm two reductions, subtract, multiply, rsqrt, scale and shift). Temporary buffers are
// checked against the sizes the host helpers (tiling/tiling_api.h) report.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "adv_tiling.h"
#include "vec_common.h"

namespace AscendC {

struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {};

struct TopKInfo {
    int32_t outter = 1;  // rows
    int32_t inner = 32;  // row length in the buffers (a multiple of 32)
    int32_t n = 32;      // real row length (n <= inner)
};

namespace sim {

template <typename T>
inline float adv_load(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return to_f<T>(v);
}
template <typename T>
inline void adv_store(uint8_t* p, float f) {
    const T v = from_f<T>(f);
    std::memcpy(p, &v, sizeof(T));
}

inline uint64_t adv_cycles(CoreCtx& c, std::initializer_list<VecClass> classes, uint64_t elems, uint64_t rows) {
    const uint64_t reps = l2_repeats(elems, 4);
    uint64_t cyc = 0;
    for (VecClass k : classes) cyc += vec_cycles(c, k, 4, reps ? reps : 1);
    return cyc + rows * 2 * c.soc->issue_cycles;  // per-row scalar set-up of the row loop
}

template <typename T, typename S>
inline void softmax_run(const LocalTensor<T>& dst, const LocalTensor<S>* sum, const LocalTensor<S>* max,
                        const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                        const SoftMaxShapeInfo& shape, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in SoftMax, current api support dtype is half / float");
    static_assert(OneOf<S, half, float>::value, "Failed to check dtype in SoftMax, sum / max support half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("SoftMax", loc);
    const uint32_t M = shape.srcM ? shape.srcM : tiling.srcM;
    const uint32_t K = shape.srcK ? shape.srcK : tiling.srcK;
    const uint32_t oriM = shape.oriSrcM ? shape.oriSrcM : M;
    const uint32_t oriK = shape.oriSrcK ? shape.oriSrcK : K;
    if (M == 0 || K == 0) fail("BAD_PARAM", "SoftMax", loc, "SoftMax shape is %u x %u: give SoftMaxShapeInfo or a filled SoftMaxTiling", M, K);
    if (oriK > K || oriM > M) {
        fail("BAD_PARAM", "SoftMax", loc, "SoftMaxShapeInfo oriSrcM x oriSrcK = %u x %u exceeds srcM x srcK = %u x %u", oriM,
             oriK, M, K);
    }
    if ((static_cast<uint64_t>(K) * sizeof(T)) % ONE_BLK_SIZE != 0) {
        fail("BAD_PARAM", "SoftMax", loc, "srcK = %u elements is not a whole number of 32-byte blocks (pad the last axis)", K);
    }
    const uint64_t bytes = static_cast<uint64_t>(M) * K * sizeof(T);
    LocalView d = view(dst, "SoftMax", "dst (LocalTensor)", loc);
    LocalView s = view(src, "SoftMax", "src (LocalTensor)", loc);
    need(d, bytes, "SoftMax", "dst (LocalTensor)", loc);
    need(s, bytes, "SoftMax", "src (LocalTensor)", loc);
    const uint32_t blk = ONE_BLK_SIZE / sizeof(S);
    LocalView vs{}, vm{};
    if (sum) {
        vs = view(*sum, "SoftMax", "sumTensor (LocalTensor)", loc);
        vm = view(*max, "SoftMax", "maxTensor (LocalTensor)", loc);
        need(vs, static_cast<uint64_t>(M) * ONE_BLK_SIZE, "SoftMax", "sumTensor (LocalTensor)", loc);
        need(vm, static_cast<uint64_t>(M) * ONE_BLK_SIZE, "SoftMax", "maxTensor (LocalTensor)", loc);
    }
    LocalView vt{};
    if (tmp) {
        vt = view(*tmp, "SoftMax", "sharedTmpBuffer (LocalTensor)", loc);
        const uint32_t want = softmax_min_tmp(K, sizeof(T));
        if (vt.extent < want) {
            fail("LOCAL_OOB", "SoftMax", loc,
                 "sharedTmpBuffer holds %llu bytes; SoftMax of rows of %u needs at least %u (GetSoftMaxMinTmpSize)",
                 static_cast<unsigned long long>(vt.extent), K, want);
        }
    }
    std::vector<float> row(K);
    for (uint32_t r = 0; r < oriM; ++r) {
        const uint64_t base = static_cast<uint64_t>(r) * K * sizeof(T);
        check_init(s, base, static_cast<uint64_t>(oriK) * sizeof(T), "SoftMax", "src (LocalTensor)", loc);
        float mx = -INFINITY;
        for (uint32_t k = 0; k < oriK; ++k) {
            row[k] = adv_load<T>(s.data + base + k * sizeof(T));
            mx = std::max(mx, row[k]);
        }
        float sm = 0.0f;
        for (uint32_t k = 0; k < oriK; ++k) {
            row[k] = std::exp(row[k] - mx);
            sm += row[k];
        }
        for (uint32_t k = 0; k < K; ++k) adv_store<T>(d.data + base + k * sizeof(T), k < oriK ? row[k] / sm : 0.0f);
        mark_written(d, base, static_cast<uint64_t>(K) * sizeof(T));
        if (sum) {
            for (uint32_t j = 0; j < blk; ++j) {
                adv_store<S>(vs.data + (static_cast<uint64_t>(r) * blk + j) * sizeof(S), sm);
                adv_store<S>(vm.data + (static_cast<uint64_t>(r) * blk + j) * sizeof(S), mx);
            }
            mark_written(vs, static_cast<uint64_t>(r) * ONE_BLK_SIZE, ONE_BLK_SIZE);
            mark_written(vm, static_cast<uint64_t>(r) * ONE_BLK_SIZE, ONE_BLK_SIZE);
        }
    }
    if (tmp) mark_written(vt, 0, std::min<uint64_t>(vt.extent, softmax_min_tmp(K, sizeof(T))));
    const uint64_t elems = static_cast<uint64_t>(oriM) * K;
    uint64_t cyc = adv_cycles(c, {VecClass::WREDUCE_MAX, VecClass::BINARY, VecClass::EXP_LN, VecClass::WREDUCE_SUM,
                                  VecClass::DIV},
                              elems, oriM);
    if (sizeof(T) == 2) cyc += 2 * vec_cycles(c, VecClass::UNARY, 4, l2_repeats(elems, 4));  // casts to/from float
    charge(c, Pipe::V, cyc, "SoftMax", loc,
           {{s.blk, false}, {d.blk, true}, {sum ? vs.blk : nullptr, true}, {sum ? vm.blk : nullptr, true},
            {tmp ? vt.blk : nullptr, true}});
}

template <typename T>
inline void layernorm_run(const LocalTensor<T>& out, const LocalTensor<T>& mean, const LocalTensor<T>& var,
                          const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                          const LocalTensor<uint8_t>* tmp, float eps, const LayerNormTiling& t, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in LayerNorm, current api support dtype is half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("LayerNorm", loc);
    const uint32_t rows = t.bLength * t.sLength, H = t.hLength;
    const uint32_t oriH = t.originalHLength ? t.originalHLength : H;
    if (rows == 0 || H == 0) fail("BAD_PARAM", "LayerNorm", loc, "LayerNormTiling has B x S x H = %u x %u x %u", t.bLength, t.sLength, H);
    if (oriH > H) fail("BAD_PARAM", "LayerNorm", loc, "originalHLength %u exceeds hLength %u", oriH, H);
    const uint64_t bytes = static_cast<uint64_t>(rows) * H * sizeof(T);
    LocalView vo = view(out, "LayerNorm", "output (LocalTensor)", loc);
    LocalView vx = view(x, "LayerNorm", "inputX (LocalTensor)", loc);
    LocalView vg = view(gamma, "LayerNorm", "gamma (LocalTensor)", loc);
    LocalView vb = view(beta, "LayerNorm", "beta (LocalTensor)", loc);
    LocalView vmean = view(mean, "LayerNorm", "outputMean (LocalTensor)", loc);
    LocalView vvar = view(var, "LayerNorm", "outputVariance (LocalTensor)", loc);
    need(vo, bytes, "LayerNorm", "output (LocalTensor)", loc);
    need(vx, bytes, "LayerNorm", "inputX (LocalTensor)", loc);
    need(vg, static_cast<uint64_t>(oriH) * sizeof(T), "LayerNorm", "gamma (LocalTensor)", loc);
    need(vb, static_cast<uint64_t>(oriH) * sizeof(T), "LayerNorm", "beta (LocalTensor)", loc);
    need(vmean, static_cast<uint64_t>(rows) * sizeof(T), "LayerNorm", "outputMean (LocalTensor)", loc);
    need(vvar, static_cast<uint64_t>(rows) * sizeof(T), "LayerNorm", "outputVariance (LocalTensor)", loc);
    check_init(vg, 0, static_cast<uint64_t>(oriH) * sizeof(T), "LayerNorm", "gamma (LocalTensor)", loc);
    check_init(vb, 0, static_cast<uint64_t>(oriH) * sizeof(T), "LayerNorm", "beta (LocalTensor)", loc);
    LocalView vt{};
    if (tmp) {
        vt = view(*tmp, "LayerNorm", "sharedTmpBuffer (LocalTensor)", loc);
        const uint32_t want = layernorm_min_tmp(H, sizeof(T));
        if (vt.extent < want) {
            fail("LOCAL_OOB", "LayerNorm", loc,
                 "sharedTmpBuffer holds %llu bytes; LayerNorm of rows of %u needs at least %u (GetLayerNormMaxMinTmpSize)",
                 static_cast<unsigned long long>(vt.extent), H, want);
        }
        mark_written(vt, 0, want);
    }
    for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t base = static_cast<uint64_t>(r) * H * sizeof(T);
        check_init(vx, base, static_cast<uint64_t>(oriH) * sizeof(T), "LayerNorm", "inputX (LocalTensor)", loc);
        float m = 0.0f;
        for (uint32_t h = 0; h < oriH; ++h) m += adv_load<T>(vx.data + base + h * sizeof(T));
        m /= static_cast<float>(oriH);
        float v = 0.0f;
        for (uint32_t h = 0; h < oriH; ++h) {
            const float d = adv_load<T>(vx.data + base + h * sizeof(T)) - m;
            v += d * d;
        }
        v /= static_cast<float>(oriH);
        const float inv = 1.0f / std::sqrt(v + eps);
        for (uint32_t h = 0; h < H; ++h) {
            float y = 0.0f;
            if (h < oriH) {
                const float xv = adv_load<T>(vx.data + base + h * sizeof(T));
                y = (xv - m) * inv * adv_load<T>(vg.data + h * sizeof(T)) + adv_load<T>(vb.data + h * sizeof(T));
            }
            adv_store<T>(vo.data + base + h * sizeof(T), y);
        }
        mark_written(vo, base, static_cast<uint64_t>(H) * sizeof(T));
        adv_store<T>(vmean.data + static_cast<uint64_t>(r) * sizeof(T), m);
        adv_store<T>(vvar.data + static_cast<uint64_t>(r) * sizeof(T), v);
    }
    mark_written(vmean, 0, static_cast<uint64_t>(rows) * sizeof(T));
    mark_written(vvar, 0, static_cast<uint64_t>(rows) * sizeof(T));
    const uint64_t elems = static_cast<uint64_t>(rows) * H;
    uint64_t cyc = adv_cycles(c, {VecClass::WREDUCE_SUM, VecClass::BINARY, VecClass::BINARY, VecClass::WREDUCE_SUM,
                                  VecClass::UNARY, VecClass::BINARY, VecClass::BINARY},
                              elems, rows);
    if (sizeof(T) == 2) cyc += 2 * vec_cycles(c, VecClass::UNARY, 4, l2_repeats(elems, 4));
    charge(c, Pipe::V, cyc, "LayerNorm", loc,
           {{vx.blk, false}, {vg.blk, false}, {vb.blk, false}, {vo.blk, true}, {vmean.blk, true}, {vvar.blk, true},
            {tmp ? vt.blk : nullptr, true}});
}

template <typename T>
inline void topk_run(const LocalTensor<T>& dstValue, const LocalTensor<int32_t>& dstIndex, const LocalTensor<T>& src,
                     const LocalTensor<int32_t>* srcIndex, const LocalTensor<uint8_t>* tmp, int32_t k,
                     const TopKInfo& info, bool largest, bool nsmall, const SrcLoc& loc) {
    static_assert(OneOf<T, half, float>::value, "Failed to check dtype in TopK, current api support dtype is half / float");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("TopK", loc);
    if (info.inner <= 0 || info.inner % 32 != 0) {
        fail("BAD_PARAM", "TopK", loc, "TopKInfo.inner is %d; the value of inner must be an integer multiple of 32",
             info.inner);
    }
    if (info.n < 1 || info.n > info.inner) {
        fail("BAD_PARAM", "TopK", loc,
             "TopKInfo.n is %d; the value of n must be greater than or equal to 1 and less than or equal to inner (%d)",
             info.n, info.inner);
    }
    if (k < 1 || k > info.n) {
        fail("BAD_PARAM", "TopK", loc,
             "k is %d; the value of k must be greater than or equal to 1 and less than or equal to n (%d)", k, info.n);
    }
    if (info.outter < 1) fail("BAD_PARAM", "TopK", loc, "TopKInfo.outter is %d, must be at least 1", info.outter);
    const uint32_t rows = static_cast<uint32_t>(info.outter), inner = static_cast<uint32_t>(info.inner);
    const uint32_t n = static_cast<uint32_t>(info.n), kk = static_cast<uint32_t>(k);
    const uint32_t kv = (kk * sizeof(T) + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE / sizeof(T);  // 32-byte rows
    const uint32_t ki = (kk + 7) / 8 * 8;
    LocalView s = view(src, "TopK", "srcLocal (LocalTensor)", loc);
    LocalView dv = view(dstValue, "TopK", "dstValueLocal (LocalTensor)", loc);
    LocalView di = view(dstIndex, "TopK", "dstIndexLocal (LocalTensor)", loc);
    need(s, static_cast<uint64_t>(rows) * inner * sizeof(T), "TopK", "srcLocal (LocalTensor)", loc);
    need(dv, static_cast<uint64_t>(rows) * kv * sizeof(T), "TopK", "dstValueLocal (LocalTensor)", loc);
    need(di, static_cast<uint64_t>(rows) * ki * 4, "TopK", "dstIndexLocal (LocalTensor)", loc);
    LocalView si{};
    const uint64_t idx_elems = nsmall ? static_cast<uint64_t>(rows) * inner : inner;
    if (srcIndex) {
        si = view(*srcIndex, "TopK", "srcIndexLocal (LocalTensor)", loc);
        need(si, idx_elems * 4, "TopK", "srcIndexLocal (LocalTensor)", loc);
        check_init(si, 0, idx_elems * 4, "TopK", "srcIndexLocal (LocalTensor)", loc);
    }
    LocalView vt{};
    if (tmp) {
        vt = view(*tmp, "TopK", "tmpLocal (LocalTensor)", loc);
        const uint32_t want = topk_min_tmp(inner, sizeof(T));
        if (vt.extent < want) {
            fail("LOCAL_OOB", "TopK", loc, "tmpLocal holds %llu bytes; TopK of rows of %u needs at least %u (GetTopKMaxMinTmpSize)",
                 static_cast<unsigned long long>(vt.extent), inner, want);
        }
        mark_written(vt, 0, want);
    }
    std::vector<std::pair<float, int32_t>> row(n);
    for (uint32_t r = 0; r < rows; ++r) {
        const uint64_t base = static_cast<uint64_t>(r) * inner;
        check_init(s, base * sizeof(T), static_cast<uint64_t>(n) * sizeof(T), "TopK", "srcLocal (LocalTensor)", loc);
        for (uint32_t j = 0; j < n; ++j) {
            int32_t id = static_cast<int32_t>(j);
            if (srcIndex) std::memcpy(&id, si.data + ((nsmall ? base : 0) + j) * 4, 4);
            row[j] = {adv_load<T>(s.data + (base + j) * sizeof(T)), id};
        }
        // value order, ties by position (the merge sort of the hardware is stable)
        std::stable_sort(row.begin(), row.end(), [largest](const std::pair<float, int32_t>& a,
                                                           const std::pair<float, int32_t>& b) ASCEND_SIM_NOINSTR {
            return largest ? a.first > b.first : a.first < b.first;
        });
        for (uint32_t i = 0; i < kk; ++i) {
            adv_store<T>(dv.data + (static_cast<uint64_t>(r) * kv + i) * sizeof(T), row[i].first);
            std::memcpy(di.data + (static_cast<uint64_t>(r) * ki + i) * 4, &row[i].second, 4);
        }
        mark_written(dv, static_cast<uint64_t>(r) * kv * sizeof(T), static_cast<uint64_t>(kk) * sizeof(T));
        mark_written(di, static_cast<uint64_t>(r) * ki * 4, static_cast<uint64_t>(kk) * 4);
    }
    // sort of 32-element regions, then log2(regions) merge passes (msKPP vmrgsort: 22 start-up,
    // 16 per repeat) [model]
    const uint64_t regions = inner / 32;
    uint64_t passes = 0;
    for (uint64_t w = 1; w < regions; w *= 4) ++passes;
    const uint64_t per_row = regions * 16 + passes * (22 + regions * 16 / 4) + 2 * vec_cycles(c, VecClass::COPY, 4, 1);
    charge(c, Pipe::V, rows * per_row, "TopK", loc,
           {{s.blk, false}, {srcIndex ? si.blk : nullptr, false}, {dv.blk, true}, {di.blk, true},
            {tmp ? vt.blk : nullptr, true}});
}

}  // namespace sim

// ---- TopK (last axis; rows of TopKInfo.inner, the first n real) ----
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const LocalTensor<uint8_t>& tmpLocal, const int32_t k,
                            const TopkTiling& tilling, const TopKInfo& topKInfo, const bool isLargest = true,
                            ASCEND_SIM_LOC) {
    static_assert(!isHasfinish, "ascend_sim: TopK with isHasfinish = true is not emulated");
    (void)finishLocal;
    (void)tilling;
    if (sim::core_is_aic()) return;  // only for the vector cores
    sim::topk_run<T>(dstValueLocal, dstIndexLocal, srcLocal, isInitIndex ? &srcIndexLocal : nullptr, &tmpLocal, k,
                     topKInfo, isLargest, topkMode == TopKMode::TOPK_NSMALL, loc);
}
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          enum TopKMode topkMode = TopKMode::TOPK_NORMAL>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, const LocalTensor<int32_t>& srcIndexLocal,
                            const LocalTensor<bool>& finishLocal, const int32_t k, const TopkTiling& tilling,
                            const TopKInfo& topKInfo, const bool isLargest = true, ASCEND_SIM_LOC) {
    static_assert(!isHasfinish, "ascend_sim: TopK with isHasfinish = true is not emulated");
    (void)finishLocal;
    (void)tilling;
    if (sim::core_is_aic()) return;
    sim::topk_run<T>(dstValueLocal, dstIndexLocal, srcLocal, isInitIndex ? &srcIndexLocal : nullptr, nullptr, k,
                     topKInfo, isLargest, topkMode == TopKMode::TOPK_NSMALL, loc);
}

// ---- SoftMax ----
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               ASCEND_SIM_LOC) {
    static_assert(!isDataFormatNZ, "ascend_sim: SoftMax on NZ data is not emulated");
    sim::softmax_run<T, T>(dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               ASCEND_SIM_LOC) {
    static_assert(!isDataFormatNZ, "ascend_sim: SoftMax on NZ data is not emulated");
    sim::softmax_run<half, float>(dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCEND_SIM_LOC) {
    static_assert(!isDataFormatNZ, "ascend_sim: SoftMax on NZ data is not emulated");
    sim::softmax_run<T, T>(dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCEND_SIM_LOC) {
    static_assert(!isDataFormatNZ, "ascend_sim: SoftMax on NZ data is not emulated");
    sim::softmax_run<half, float>(dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling,
                                  softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {},
                               ASCEND_SIM_LOC) {
    sim::softmax_run<T, T>(dstTensor, nullptr, nullptr, srcTensor, nullptr, tiling, softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}, ASCEND_SIM_LOC) {
    sim::softmax_run<T, T>(dstTensor, nullptr, nullptr, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

// ---- LayerNorm ([B, S, H], statistics over H) ----
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, LayerNormTiling& tiling,
                                 ASCEND_SIM_LOC) {
    sim::layernorm_run<T>(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer,
                          sim::to_f<T>(epsilon), tiling, loc);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling, ASCEND_SIM_LOC) {
    sim::layernorm_run<T>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, sim::to_f<T>(epsilon),
                          tiling, loc);
}

}  // namespace AscendC

// High-level vector APIs: SoftMax (float; half with float sum/max; padded rows) and LayerNorm.
// Buffers: x (float or half in), y (out), stats (float out: sum | max or mean | var), p (int32
// params: op, M, K, oriK, eps bits). Tiling from the host helpers of tiling/tiling_api.h.
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;

#ifndef T
#define T float
#endif

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR stats, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const int32_t op = p.GetValue(0);
    const uint32_t M = p.GetValue(1), K = p.GetValue(2), oriK = p.GetValue(3);
    const int32_t epsBits = p.GetValue(4);
    GlobalTensor<T> gx, gy;
    gx.SetGlobalBuffer((__gm__ T *)x, M * K);
    gy.SetGlobalBuffer((__gm__ T *)y, M * K);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bs, bm, bt, bg, bb;
    pipe.InitBuffer(bx, M * K * sizeof(T));
    pipe.InitBuffer(by, M * K * sizeof(T));
    pipe.InitBuffer(bs, M * 32);
    pipe.InitBuffer(bm, M * 32);
    LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>();
    DataCopy(lx, gx, M * K);
    if (op == 0 || op == 1) {  // SoftMax with sum / max (op 1: with a shared tmp buffer)
        using S = float;
        LocalTensor<S> ls = bs.Get<S>(), lm = bm.Get<S>();
        SoftMaxTiling tiling;
        const uint32_t tmp = GetSoftMaxMinTmpSize(ge::Shape({M, K}), sizeof(T), false);
        SoftMaxTilingFunc(ge::Shape({M, K}), sizeof(T), tmp, tiling);
        SoftMaxShapeInfo shape{M, K, M, oriK};
        if (op == 1) {
            pipe.InitBuffer(bt, tmp);
            SoftMax<T>(ly, ls, lm, lx, bt.Get<uint8_t>(), tiling, shape);
        } else {
            SoftMax<T>(ly, ls, lm, lx, tiling, shape);
        }
        GlobalTensor<S> gs;
        gs.SetGlobalBuffer((__gm__ S *)stats, 2 * M * 8);
        DataCopy(gs, ls, M * 8);
        DataCopy(gs[M * 8], lm, M * 8);
    } else if (op == 2) {  // SoftMax without sum / max
        SoftMaxTiling tiling;
        SoftMaxTilingFunc(ge::Shape({M, K}), sizeof(T), 0, tiling);
        SoftMax<T>(ly, lx, tiling, SoftMaxShapeInfo{M, K, M, oriK});
    } else if (op == 4) {  // TopK of the first oriK of each row of K; k = p[5], largest = p[6]
        const int32_t topk = p.GetValue(5);
        const bool largest = p.GetValue(6) != 0;
        TopkTiling tiling;
        uint32_t maxTmp = 0, minTmp = 0;
        GetTopKMaxMinTmpSize(0, K, M, false, false, TopKMode::TOPK_NORMAL, largest, sizeof(T), maxTmp, minTmp);
        TopKTilingFunc(0, K, M, topk, sizeof(T), false, TopKMode::TOPK_NORMAL, largest, tiling);
        pipe.InitBuffer(bt, minTmp);
        pipe.InitBuffer(bg, 32);
        pipe.InitBuffer(bb, M * 32 * 4);
        TopKInfo info;
        info.outter = M;
        info.inner = K;
        info.n = oriK;
        LocalTensor<int32_t> idx = bb.Get<int32_t>();
        TopK<T>(ly, idx, lx, idx, bg.Get<bool>(), bt.Get<uint8_t>(), topk, tiling, info, largest);
        GlobalTensor<int32_t> gi;
        gi.SetGlobalBuffer((__gm__ int32_t *)stats, M * 32);
        DataCopy(gi, idx, M * ((topk + 7) / 8 * 8));
    } else {  // LayerNorm over rows of K (gamma = 1 + j / K, beta = j / K)
        pipe.InitBuffer(bg, K * sizeof(T));
        pipe.InitBuffer(bb, K * sizeof(T));
        LocalTensor<T> lg = bg.Get<T>(), lb = bb.Get<T>();
        for (uint32_t j = 0; j < K; ++j) {
            lg.SetValue(j, static_cast<T>(1.0f + static_cast<float>(j) / K));
            lb.SetValue(j, static_cast<T>(static_cast<float>(j) / K));
        }
        LayerNormTiling tiling;
        uint32_t maxTmp = 0, minTmp = 0;
        GetLayerNormMaxMinTmpSize(ge::Shape({1, M, K}), sizeof(T), false, maxTmp, minTmp);
        GetLayerNormNDTillingInfo(ge::Shape({1, M, K}), minTmp, sizeof(T), false, tiling);
        tiling.originalHLength = oriK;
        pipe.InitBuffer(bt, minTmp);
        LocalTensor<T> mean = bs.Get<T>(), var = bm.Get<T>();
        float eps;
        __builtin_memcpy(&eps, &epsBits, 4);
        LayerNorm<T>(ly, mean, var, lx, lg, lb, bt.Get<uint8_t>(), static_cast<T>(eps), tiling);
        GlobalTensor<T> gs;
        gs.SetGlobalBuffer((__gm__ T *)stats, 2 * M * 8);
        DataCopy(gs, mean, M * 32 / sizeof(T));
        DataCopy(gs[M * 32 / sizeof(T)], var, M * 32 / sizeof(T));
    }
    DataCopy(gy, ly, M * K);
}

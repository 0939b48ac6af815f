// Adversarial: GELU (erf form) with the host's libm. Each tile comes in by DMA, std::copy moves it
// onto the stack (a memmove nobody charged), a scalar loop unrolled by hand calls erff on the stack copy
// (libm: uninstrumented, and the stack is not modelled memory), std::copy moves it back, DMA out.
#include "kernel_operator.h"
#include <algorithm>
#include <cmath>
#include "gelu_erf_tiling.h"

using namespace AscendC;

constexpr uint32_t kChunk = 1024;
#define GELU(k) buf[k] = 0.5f * buf[k] * (1.0f + erff(buf[k] * 0.70710678118654752f))

extern "C" __global__ __aicore__ void gelu_erf_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(GeluErfTilingData, t, tiling);
    const uint32_t start = t.blockLength * GetBlockIdx();
    if (start >= t.totalLength) return;
    const uint32_t length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, length);
    yGm.SetGlobalBuffer((__gm__ float*)y + start, length);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, t.tileLength * sizeof(float));
    pipe.InitBuffer(outQ, 1, t.tileLength * sizeof(float));
    float buf[kChunk];
    for (uint32_t off = 0; off < length; off += t.tileLength) {
        const uint32_t n = length - off < t.tileLength ? length - off : t.tileLength;
        LocalTensor<float> xl = inQ.AllocTensor<float>();
        DataCopyPad(xl, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        inQ.EnQue(xl);
        xl = inQ.DeQue<float>();
        LocalTensor<float> yl = outQ.AllocTensor<float>();
        const float* in = xl.GetPhyAddr();
        float* out = yl.GetPhyAddr();
        for (uint32_t c = 0; c < n; c += kChunk) {
            const uint32_t m = n - c < kChunk ? n - c : kChunk;
            std::copy(in + c, in + c + m, buf);
            for (uint32_t i = 0; i < m; i += 8) {  // unrolled by hand: one basic block per 8 elements
                GELU(i); GELU(i + 1); GELU(i + 2); GELU(i + 3); GELU(i + 4); GELU(i + 5); GELU(i + 6); GELU(i + 7);
            }
            std::copy(buf, buf + m, out + c);
        }
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        yl = outQ.DeQue<float>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
        outQ.FreeTensor(yl);
    }
}

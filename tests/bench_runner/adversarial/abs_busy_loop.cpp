// Adversarial: the expert kernel plus a scalar busy loop of 2M iterations on every core.
#include "kernel_operator.h"
#include "abs_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AbsTilingData, t, tiling);
    const uint32_t start = t.blockLength * GetBlockIdx();
    if (start >= t.totalLength) return;
    const uint32_t length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
    volatile uint32_t spin = 0;
    for (uint32_t i = 0; i < 2000000u; ++i) spin = spin + i;
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ half*)x + start, length);
    yGm.SetGlobalBuffer((__gm__ half*)y + start, length);
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    pipe.InitBuffer(inQ, 2, t.tileLength * sizeof(half));
    pipe.InitBuffer(outQ, 2, t.tileLength * sizeof(half));
    for (uint32_t off = 0; off < length; off += t.tileLength) {
        const uint32_t n = length - off < t.tileLength ? length - off : t.tileLength;
        LocalTensor<half> xl = inQ.AllocTensor<half>();
        DataCopyPad(xl, xGm[off], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0},
                    DataCopyPadExtParams<half>{false, 0, 0, half(0)});
        inQ.EnQue(xl);
        xl = inQ.DeQue<half>();
        LocalTensor<half> yl = outQ.AllocTensor<half>();
        Abs(yl, xl, static_cast<int32_t>(n));
        outQ.EnQue(yl);
        inQ.FreeTensor(xl);
        yl = outQ.DeQue<half>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
        outQ.FreeTensor(yl);
    }
}

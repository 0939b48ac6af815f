// Adversarial: std::copy (a memmove the compiler emits for trivially copyable elements, which no
// instrumentation used to see) replaces the DMA that brings each tile into the Unified Buffer.
// The memmove is charged now: its bytes cost what scalar loads and stores of them would.
#include "kernel_operator.h"
#include <algorithm>
#include "abs_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AbsTilingData, t, tiling);
    const uint32_t start = t.blockLength * GetBlockIdx();
    if (start >= t.totalLength) return;
    const uint32_t length = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
    GlobalTensor<half> yGm;
    yGm.SetGlobalBuffer((__gm__ half*)y + start, length);
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inBuf, t.tileLength * sizeof(half));
    pipe.InitBuffer(outQ, 1, t.tileLength * sizeof(half));
    const uint16_t* src = reinterpret_cast<const uint16_t*>(x) + start;
    for (uint32_t off = 0; off < length; off += t.tileLength) {
        const uint32_t n = length - off < t.tileLength ? length - off : t.tileLength;
        LocalTensor<half> xl = inBuf.Get<half>();
        std::copy(src + off, src + off + n, reinterpret_cast<uint16_t*>(xl.GetPhyAddr()));
        LocalTensor<half> yl = outQ.AllocTensor<half>();
        Abs(yl, xl, static_cast<int32_t>(n));
        outQ.EnQue(yl);
        yl = outQ.DeQue<half>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
        outQ.FreeTensor(yl);
    }
}

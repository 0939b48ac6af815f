// Adversarial: a libc routine outside the old deny-list (bcopy) replaces the DMA that brings each
// tile into the Unified Buffer: uninstrumented, so the copy costs nothing. Then Abs and a
// DataCopyPad out. test_adversarial.py swaps in mempcpy, memccpy, wmemcpy, swab and bzero.
#include "kernel_operator.h"
#include <cstring>
#include <cwchar>
#include "abs_tiling.h"

using namespace AscendC;

static void CopyTile(void* dst, const void* src, uint32_t bytes) {
    bcopy(src, dst, bytes);
}

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
    const half* src = reinterpret_cast<const half*>(x) + start;
    for (uint32_t off = 0; off < length; off += t.tileLength) {
        const uint32_t n = length - off < t.tileLength ? length - off : t.tileLength;
        LocalTensor<half> xl = inBuf.Get<half>();
        CopyTile(xl.GetPhyAddr(), src + off, n * sizeof(half));
        LocalTensor<half> yl = outQ.AllocTensor<half>();
        Abs(yl, xl, static_cast<int32_t>(n));
        outQ.EnQue(yl);
        yl = outQ.DeQue<half>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
        outQ.FreeTensor(yl);
    }
}

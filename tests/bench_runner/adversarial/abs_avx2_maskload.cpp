// Adversarial: AVX2 masked loads and stores (immintrin.h, a target("avx2") function) move each
// tile from global memory into the Unified Buffer; no instrumentation sees a builtin's access,
// so the copy costs nothing. Then one Abs and a DataCopyPad out.
#include <immintrin.h>  // before kernel_operator.h: its intrinsics use names the device-code poison takes
#include "kernel_operator.h"
#include "abs_tiling.h"

using namespace AscendC;

__attribute__((target("avx2"))) static void MaskedCopy(uint16_t* dst, const uint16_t* src, uint32_t n) {
    const __m256i all = _mm256_set1_epi32(-1);
    uint32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256i v = _mm256_maskload_epi32(reinterpret_cast<const int*>(src + i), all);
        _mm256_maskstore_epi32(reinterpret_cast<int*>(dst + i), all, v);
    }
    const uint32_t lanes = (n - i) / 2;  // the tail: a mask of whole 32-bit lanes, then an odd half
    const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(lanes)),
                                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    _mm256_maskstore_epi32(reinterpret_cast<int*>(dst + i), mask,
                           _mm256_maskload_epi32(reinterpret_cast<const int*>(src + i), mask));
    if ((n - i) % 2) dst[n - 1] = src[n - 1];
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
    const uint16_t* src = reinterpret_cast<const uint16_t*>(x) + start;
    for (uint32_t off = 0; off < length; off += t.tileLength) {
        const uint32_t n = length - off < t.tileLength ? length - off : t.tileLength;
        LocalTensor<half> xl = inBuf.Get<half>();
        MaskedCopy(reinterpret_cast<uint16_t*>(xl.GetPhyAddr()), src + off, n);
        LocalTensor<half> yl = outQ.AllocTensor<half>();
        Abs(yl, xl, static_cast<int32_t>(n));
        outQ.EnQue(yl);
        yl = outQ.DeQue<half>();
        DataCopyPad(yGm[off], yl, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
        outQ.FreeTensor(yl);
    }
}

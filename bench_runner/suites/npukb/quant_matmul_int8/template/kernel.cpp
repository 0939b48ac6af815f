// quant_matmul_int8: y = (x @ w^T) * scale with x int8 [M, K], w int8 [N, K], deq_scale uint64 [N]
// (float32 scale in the low 32 bits), y half [M, N]. Cube cores (AIC); tiling in qmm_tiling.h.
#include "kernel_operator.h"
#include "qmm_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void quant_matmul_custom(GM_ADDR x, GM_ADDR w, GM_ADDR deq_scale, GM_ADDR y,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(QuantMatmulTilingData, tilingData, tiling);
    // TODO: per output tile: x and w K-slices GM -> L1 (Nd2Nz, C0 = 32 int8), L1 -> L0A / L0B
    // (w^T's NZ fractals are already in the Zn order), Mmad int8 x int8 -> int32, the tile's
    // scales GM -> L1, Fixpipe with QuantMode_t::VDEQF16 and the scale table -> half.
    (void)tilingData;
}

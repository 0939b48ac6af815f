// attention_scores_fp16: p = softmax(q @ k^T / sqrt(D)) over the last axis, q [BH, S, D],
// k [BH, T, D], p [BH, S, T] in half. A MIX kernel (1 AIC + 2 AIV per block); tiling and
// workspace size from the host (attn_tiling.h).
#include "kernel_operator.h"
#include "attn_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void attention_scores_custom(GM_ADDR q, GM_ADDR k, GM_ADDR p, GM_ADDR workspace,
                                                              GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AttnScoresTilingData, tilingData, tiling);
    // TODO: if ASCEND_IS_AIC: for each tile (bh, row block) compute the scores q_rows @ k^T
    // chunk by chunk (Nd2Nz, LoadData, Mmad, Fixpipe float) into the workspace, then
    // CrossCoreSetFlag; if ASCEND_IS_AIV: CrossCoreWaitFlag, softmax each row (scale, max, exp,
    // sum, divide), cast to half and write p.
    (void)tilingData;
}

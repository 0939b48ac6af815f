// embedding_backward_fp32: grad_weight[v, :] = sum over k with ids[k] == v of grad_out[k, :]
// (0 for unused rows and for padding_idx); tiling data from the host.
#include "kernel_operator.h"
#include "embedding_backward_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void embedding_backward_custom(GM_ADDR grad_out, GM_ADDR ids, GM_ADDR grad_weight,
                                                                GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(EmbeddingBackwardTilingData, tilingData, tiling);
    // TODO: for each block of this core's grad_weight rows: start from zeros, scan ids, add every
    // grad_out row whose id falls in the block (skipping padding_idx), write the block.
    (void)tilingData;
}

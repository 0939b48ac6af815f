// moe_token_routing_fp32: stable counting sort of the (token, slot) pairs by expert id:
// expanded_x[p] = x[token of the p-th pair], expanded_row_idx[t * K + k] = p, and the number of
// pairs per expert.
#include "kernel_operator.h"
#include "moe_routing_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void moe_token_routing_custom(GM_ADDR x, GM_ADDR expert_ids, GM_ADDR expanded_x,
                                                               GM_ADDR expanded_row_idx, GM_ADDR expert_counts,
                                                               GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MoeRoutingTilingData, tilingData, tiling);
    // TODO: pass 1: per-core histogram of expert ids, published in the user workspace
    // (GetUserWorkspace(workspace)); SyncAll; pass 2: each core's start position per expert =
    // all pairs of smaller experts + pairs of the same expert on earlier cores; scatter rows of
    // x to expanded_x, write expanded_row_idx; core 0 writes expert_counts.
    (void)tilingData;
}

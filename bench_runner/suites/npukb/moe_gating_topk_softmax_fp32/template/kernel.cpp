// moe_gating_topk_softmax_fp32: per token, softmax over the expert logits, then the k largest
// probabilities (descending, ties -> smaller expert id) and their expert ids; optionally
// renormalised to sum to 1.
#include "kernel_operator.h"
#include "moe_gating_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void moe_gating_topk_softmax_custom(GM_ADDR logits, GM_ADDR weights,
                                                                     GM_ADDR expert_ids, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MoeGatingTilingData, tilingData, tiling);
    // TODO: for each of this core's tokens: softmax over E (ReduceMax, Adds, Exp, ReduceSum),
    // k rounds of ReduceMax with calIndex to select the top experts, write weights and ids.
    (void)tilingData;
}

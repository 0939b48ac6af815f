// kv_rmsnorm_rope_cache_fp16: per token and kv head, k' = RoPE(RMSNorm(k) * gamma) (rotate-half
// form), then k_cache[slot] = k', v_cache[slot] = v for every token whose slot is >= 0.
#include "kernel_operator.h"
#include "kv_rmsnorm_rope_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void kv_rmsnorm_rope_cache_custom(GM_ADDR k, GM_ADDR v, GM_ADDR gamma,
                                                                   GM_ADDR cos, GM_ADDR sin,
                                                                   GM_ADDR slot_mapping, GM_ADDR k_cache,
                                                                   GM_ADDR v_cache, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(KvRmsNormRopeTilingData, tilingData, tiling);
    // TODO: for each of this core's tokens: RMSNorm every head row of k (float math), scale by
    // gamma, apply rotate-half RoPE with the token's cos/sin, cast back to half and write it to
    // k_cache[slot]; copy v to v_cache[slot]; skip tokens whose slot is negative.
    (void)tilingData;
}

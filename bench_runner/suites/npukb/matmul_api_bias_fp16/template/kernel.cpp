// matmul_api_bias_fp16: c = a @ b + bias with a [M, K], b [K, N] half, bias [N] and c [M, N]
// float, on the cube cores (AIC) with the high-level Matmul API (lib/matmul_intf.h); the
// TCubeTiling comes from the host (mm_api_tiling.h).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "mm_api_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_api_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                        GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MatmulApiTilingData, tilingData, tiling);
    // TODO: this core's singleCoreM x singleCoreN block (block index -> (m, n) block), a
    // matmul::Matmul<A, B, C, Bias> registered with REGIST_MATMUL_OBJ, SetTensorA/B, SetBias,
    // SetTail for the edge blocks, IterateAll, End.
    (void)tilingData;
}

// matmul_splitk_fp16: c = a @ b with a [M, K], b [K, N] in half and c [M, N] in float; M <= 128,
// N <= 256, K long. Runs on the AI cores (cube); tiling data from the host (splitk_tiling.h).
#include "kernel_operator.h"
#include "splitk_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_splitk_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SplitKTilingData, tilingData, tiling);
    // TODO: multiply this core's K slice (GM -> L1 -> L0A / L0B -> Mmad) and add the partial
    // product into c: c starts as garbage, so one core writes and the others add after it
    // (SyncAll, then SetAtomicAdd<float>() around Fixpipe).
    (void)tilingData;
}

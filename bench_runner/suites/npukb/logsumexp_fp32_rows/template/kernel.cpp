// logsumexp_fp32_rows: y[m] = log(sum_n exp(x[m, n])) computed stably; tiling data from the host.
#include "kernel_operator.h"
#include "logsumexp_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void logsumexp_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogSumExpTilingData, tilingData, tiling);
    // TODO: for each of this core's rows, stream the row through UB in chunks of tileCols
    // (DataCopyPad): keep a running maximum and a running sum of exp(x - max), rescaling the sum
    // when the maximum grows (or make two passes: max, then the exp-sum); finally
    // y = max + log(sum), written with DataCopyPad.
    (void)tilingData;
}

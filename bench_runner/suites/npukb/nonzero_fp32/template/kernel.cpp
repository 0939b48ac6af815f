// nonzero_fp32: indices of the nonzero elements of x in ascending order, a count, and -1 in
// every index slot past the count.
#include "kernel_operator.h"
#include "nonzero_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void nonzero_custom(GM_ADDR x, GM_ADDR indices, GM_ADDR count,
                                                     GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(NonzeroTilingData, tilingData, tiling);
    // TODO: pass 1: each core counts the nonzeros of its range and publishes the count in the
    // user workspace (GetUserWorkspace(workspace)); SyncAll; pass 2: each core sums the counts
    // of the cores before it, writes its indices from there on, fills -1 over its share of
    // [count, N); core 0 writes count.
    (void)tilingData;
}

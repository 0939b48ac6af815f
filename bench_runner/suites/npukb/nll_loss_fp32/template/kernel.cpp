// nll_loss_fp32: loss = -mean over rows with target != ignore_index of logp[m, target[m]];
// tiling data from the host.
#include "kernel_operator.h"
#include "nll_loss_tiling.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void nll_loss_custom(GM_ADDR logp, GM_ADDR target, GM_ADDR loss, GM_ADDR workspace,
                                                      GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(NllLossTilingData, tilingData, tiling);
    // TODO: per core, sum logp[m, target[m]] over its non-ignored rows and count them; write
    // {sum, count} to this core's workspace slot, SyncAll, and let core 0 write -sum / count.
    (void)tilingData;
}

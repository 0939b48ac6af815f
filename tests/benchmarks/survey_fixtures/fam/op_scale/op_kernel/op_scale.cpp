// Survey fixture: an op_kernel that needs DTYPE_X / DTYPE_Y from the op build and the tiling
// struct from op_host (GET_TILING_DATA), as NPUKernelBench's answers do.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void op_scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA(td, tiling);
    AscendC::GlobalTensor<DTYPE_X> xg;
    AscendC::GlobalTensor<DTYPE_Y> yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X*)x, td.totalLength);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y*)y, td.totalLength);
    (void)workspace;
}

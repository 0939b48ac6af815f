// Survey fixture: a complete kernel that cpu-sim compiles (y = -x on 1024 floats per core).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void negate_fixture(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x + 1024 * AscendC::GetBlockIdx(), 1024);
    yg.SetGlobalBuffer((__gm__ float*)y + 1024 * AscendC::GetBlockIdx(), 1024);
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xg, 1024);
    AscendC::Muls(t, t, -1.0f, 1024);
    AscendC::DataCopy(yg, t, 1024);
}

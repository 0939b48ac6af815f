// Survey fixture: the kernel of a CPU-debug sample, z = x + y on 2 x 2048 floats.
#include "kernel_operator.h"

constexpr uint32_t kPerCore = 2048;

extern "C" __global__ __aicore__ void add_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by;
    AscendC::GlobalTensor<float> xg, yg, zg;
    const uint32_t off = kPerCore * AscendC::GetBlockIdx();
    xg.SetGlobalBuffer((__gm__ float*)x + off, kPerCore);
    yg.SetGlobalBuffer((__gm__ float*)y + off, kPerCore);
    zg.SetGlobalBuffer((__gm__ float*)z + off, kPerCore);
    pipe.InitBuffer(bx, kPerCore * sizeof(float));
    pipe.InitBuffer(by, kPerCore * sizeof(float));
    AscendC::LocalTensor<float> a = bx.Get<float>();
    AscendC::LocalTensor<float> b = by.Get<float>();
    AscendC::DataCopy(a, xg, kPerCore);
    AscendC::DataCopy(b, yg, kPerCore);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(a, a, b, kPerCore);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg, a, kPerCore);
}

// Includes its own header (which includes kernel_operator.h) before kernel_operator.h, so
// kernel_operator.h is included twice and is not the first include (test_mechanics.py).
#include "mech_inc.h"
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    constexpr int32_t n = 1024;
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float*)x, n);
    gz.SetGlobalBuffer((__gm__ float*)z, n);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, n * sizeof(float));
    pipe.InitBuffer(qout, 1, n * sizeof(float));
    LocalTensor<float> a = qin.AllocTensor<float>();
    DataCopy(a, gx, n);
    qin.EnQue(a);
    a = qin.DeQue<float>();
    LocalTensor<float> b = qout.AllocTensor<float>();
    ScaleInto(b, a, 3.0f, n);
    qout.EnQue(b);
    qin.FreeTensor(a);
    b = qout.DeQue<float>();
    DataCopy(gz, b, n);
    qout.FreeTensor(b);
#ifdef USE_HOST_LIBC
    memcpy((__gm__ float*)z, (__gm__ float*)x, 4);  // still device code: must not compile
#endif
}

// z = x + y with a scalar loop over GetValue/SetValue (the add example's "case 0"), one core,
// TILE-element chunks moved with DataCopy. With RAW_POINTERS the loop reads and writes the
// same unified-buffer tiles through GetPhyAddr() pointers instead: the scalar unit does the
// same work, so the model must charge the same time.
#include "kernel_operator.h"
using namespace AscendC;

#ifndef TOTAL
#define TOTAL (1024 * 1024)
#endif
#ifndef TILE
#define TILE 4096
#endif

extern "C" __global__ __aicore__ void scalar_add(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ half *)x, TOTAL);
    gy.SetGlobalBuffer((__gm__ half *)y, TOTAL);
    gz.SetGlobalBuffer((__gm__ half *)z, TOTAL);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, TILE * sizeof(half));
    pipe.InitBuffer(qy, 1, TILE * sizeof(half));
    pipe.InitBuffer(qz, 1, TILE * sizeof(half));
    for (int32_t t = 0; t < TOTAL / TILE; ++t) {
        LocalTensor<half> a = qx.AllocTensor<half>(), b = qy.AllocTensor<half>();
        DataCopy(a, gx[t * TILE], TILE);
        DataCopy(b, gy[t * TILE], TILE);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<half>();
        b = qy.DeQue<half>();
        LocalTensor<half> c = qz.AllocTensor<half>();
#ifdef RAW_POINTERS
        __ubuf__ half *pa = (__ubuf__ half *)a.GetPhyAddr(), *pb = (__ubuf__ half *)b.GetPhyAddr();
        __ubuf__ half *pc = (__ubuf__ half *)c.GetPhyAddr();
        for (int32_t i = 0; i < TILE; ++i) {
            pc[i] = (half)((float)pa[i] + (float)pb[i]);
        }
#else
        for (int32_t i = 0; i < TILE; ++i) {
            c.SetValue(i, (half)((float)a.GetValue(i) + (float)b.GetValue(i)));
        }
#endif
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<half>();
        DataCopy(gz[t * TILE], c, TILE);
        qz.FreeTensor(c);
    }
}

// Kernel reading its tiling from global memory with GET_TILING_DATA; TILING_KEY_IS selects the
// branch (key 1: z = x + y, key 2: z = (x + y) * scale).
#include "kernel_operator.h"
#include "add_tiling.h"
using namespace AscendC;

struct PlainTiling {
    uint32_t totalLength;
    uint32_t tileNum;
};

extern "C" __global__ __aicore__ void add_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GET_TILING_DATA_WITH_STRUCT(PlainTiling, plain, tiling);
    const uint32_t per = t.totalLength / GetBlockNum();
    const uint32_t tile = per / t.tileNum;
    if (plain.totalLength != t.totalLength || t.extra[2] != 7) return;
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ float *)x + per * GetBlockIdx(), per);
    gy.SetGlobalBuffer((__gm__ float *)y + per * GetBlockIdx(), per);
    gz.SetGlobalBuffer((__gm__ float *)z + per * GetBlockIdx(), per);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 2, tile * sizeof(float));
    pipe.InitBuffer(qy, 2, tile * sizeof(float));
    pipe.InitBuffer(qz, 2, tile * sizeof(float));
    for (uint32_t i = 0; i < t.tileNum; ++i) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, gx[i * tile], tile);
        DataCopy(b, gy[i * tile], tile);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<float>();
        b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        if (TILING_KEY_IS(1)) {
            Add(c, a, b, tile);
        } else if (TILING_KEY_IS(2)) {
            Add(c, a, b, tile);
            Muls(c, c, t.scale, tile);
        }
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopy(gz[i * tile], c, tile);
        qz.FreeTensor(c);
    }
}

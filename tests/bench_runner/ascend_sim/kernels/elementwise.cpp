// Element-wise half kernel for the cost-model checks: z = f(x, y) over TOTAL elements on CORES
// cores, TILE elements per step, BUFFER_NUM buffers per queue (1 = single, 2 = double buffering).
// HEAVY=1 adds enough vector work per tile to match the copies; HEAVY=0 is a plain Add.
#include "kernel_operator.h"
using namespace AscendC;

#ifndef TOTAL
#define TOTAL (8 * 65536)
#endif
#ifndef CORES
#define CORES 8
#endif
#ifndef TILE
#define TILE 4096
#endif
#ifndef BUFFER_NUM
#define BUFFER_NUM 2
#endif
#ifndef HEAVY
#define HEAVY 0
#endif

constexpr int32_t BLOCK = TOTAL / CORES;
constexpr int32_t STEPS = BLOCK / TILE;

class Kernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK * GetBlockIdx(), BLOCK);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK * GetBlockIdx(), BLOCK);
        zGm.SetGlobalBuffer((__gm__ half *)z + BLOCK * GetBlockIdx(), BLOCK);
        pipe.InitBuffer(qx, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(qy, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(qz, BUFFER_NUM, TILE * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < STEPS; ++i) {
            LocalTensor<half> a = qx.AllocTensor<half>();
            LocalTensor<half> b = qy.AllocTensor<half>();
            DataCopy(a, xGm[i * TILE], TILE);
            DataCopy(b, yGm[i * TILE], TILE);
            qx.EnQue(a);
            qy.EnQue(b);
            a = qx.DeQue<half>();
            b = qy.DeQue<half>();
            LocalTensor<half> c = qz.AllocTensor<half>();
#if HEAVY
            Exp(c, a, TILE);
            Mul(c, c, b, TILE);
            Exp(c, c, TILE);
            Add(c, c, a, TILE);
#else
            Add(c, a, b, TILE);
#endif
            qz.EnQue(c);
            qx.FreeTensor(a);
            qy.FreeTensor(b);
            c = qz.DeQue<half>();
            DataCopy(zGm[i * TILE], c, TILE);
            qz.FreeTensor(c);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    GlobalTensor<half> xGm, yGm, zGm;
};

extern "C" __global__ __aicore__ void elementwise(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    Kernel op;
    op.Init(x, y, z);
    op.Process();
}

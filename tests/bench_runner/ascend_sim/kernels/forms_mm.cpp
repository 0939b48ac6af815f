// The high-level Matmul with C in the Unified Buffer (MatmulType<TPosition::VECIN, …>), as MIX
// kernels with a vector epilogue write it: Iterate + GetTensorC(LocalTensor) per base block, or
// IterateAll(LocalTensor); the AIV then copies C out. A (M x K half), B (K x N half), C (M x N
// float), p (int32: M, K, N, baseM, baseN, baseK, mode: 0 Iterate / 1 IterateAll).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

using aType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using bType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using cType = matmul::MatmulType<TPosition::VECIN, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    TCubeTiling t;
    t.usedCoreNum = 1;
    t.M = t.singleCoreM = p.GetValue(0);
    t.Ka = t.Kb = t.singleCoreK = p.GetValue(1);
    t.N = t.singleCoreN = p.GetValue(2);
    t.baseM = p.GetValue(3);
    t.baseN = p.GetValue(4);
    t.baseK = p.GetValue(5);
    t.stepKa = t.stepKb = 1;
    t.iterateOrder = 0;
    const int32_t mode = p.GetValue(6);
    GlobalTensor<half> ga, gb;
    GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a);
    gb.SetGlobalBuffer((__gm__ half *)b);
    gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe;
    matmul::Matmul<aType, bType, cType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);  // the AIC serves the requests and returns here
    TQue<TPosition::VECIN, 1> cq;
    pipe.InitBuffer(cq, 1, t.M * t.N * sizeof(float));
    if (GetSubBlockIdx() != 0) return;
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if (mode == 0) {
        const int nb = (t.N + t.baseN - 1) / t.baseN;
        int blk = 0;
        while (mm.Iterate()) {
            LocalTensor<float> cl = cq.AllocTensor<float>();
            mm.GetTensorC(cl);
            cq.EnQue(cl);
            cl = cq.DeQue<float>();
            const int i = blk / nb, j = blk % nb;
            const int rows = t.M - i * t.baseM < t.baseM ? t.M - i * t.baseM : t.baseM;
            const int cols = t.N - j * t.baseN < t.baseN ? t.N - j * t.baseN : t.baseN;
            for (int r = 0; r < rows; ++r) {  // the tile has rows of baseN; the block may be narrower
                DataCopyPad(gc[(uint64_t)(i * t.baseM + r) * t.N + j * t.baseN], cl[r * t.baseN],
                            DataCopyExtParams(1, cols * sizeof(float), 0, 0, 0));
            }
            cq.FreeTensor(cl);
            ++blk;
        }
    } else {
        LocalTensor<float> cl = cq.AllocTensor<float>();
        mm.IterateAll(cl);
        cq.EnQue(cl);
        cl = cq.DeQue<float>();
        DataCopyPad(gc, cl, DataCopyExtParams(1, t.M * t.N * sizeof(float), 0, 0, 0));
        cq.FreeTensor(cl);
    }
    mm.End();
}

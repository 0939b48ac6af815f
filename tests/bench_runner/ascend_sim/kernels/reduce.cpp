// Reductions: ReduceSum/Max/Min (level 2 and level 0), WholeReduceSum/Max/Min,
// BlockReduceSum/Max/Min and PairReduceSum. Buffers: x, z (result), p (int32 parameters).
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
constexpr uint32_t CAP = 4096;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const int32_t op = p.GetValue(0), n = p.GetValue(1), mask = p.GetValue(2), repeat = p.GetValue(3);
    const int32_t dstRep = p.GetValue(4), srcBlk = p.GetValue(5), srcRep = p.GetValue(6);
    const ReduceOrder order = static_cast<ReduceOrder>(p.GetValue(7));
    uint64_t bits[2] = {(uint32_t)p.GetValue(8) | ((uint64_t)(uint32_t)p.GetValue(9) << 32),
                        (uint32_t)p.GetValue(10) | ((uint64_t)(uint32_t)p.GetValue(11) << 32)};
    GlobalTensor<T> gx, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bt;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(bz, CAP * sizeof(T));
    pipe.InitBuffer(bt, CAP * sizeof(T));
    LocalTensor<T> lx = bx.Get<T>(), lz = bz.Get<T>(), tmp = bt.Get<T>();
    DataCopy(lx, gx, CAP);
    DataCopy(lz, gz, CAP);
    switch (op) {
        case 0: ReduceSum(lz, lx, tmp, n); break;
        case 1: ReduceMax(lz, lx, tmp, n, true); break;
        case 2: ReduceMin(lz, lx, tmp, n, true); break;
        case 3: ReduceSum(lz, lx, tmp, mask, repeat, srcRep); break;
        case 4: ReduceMax(lz, lx, tmp, mask, repeat, srcRep, true); break;
        case 5: WholeReduceSum(lz, lx, mask, repeat, dstRep, srcBlk, srcRep); break;
        case 6: WholeReduceMax(lz, lx, mask, repeat, dstRep, srcBlk, srcRep, order); break;
        case 7: WholeReduceMin(lz, lx, mask, repeat, dstRep, srcBlk, srcRep, order); break;
        case 8: BlockReduceSum(lz, lx, repeat, mask, dstRep, srcBlk, srcRep); break;
        case 9: BlockReduceMax(lz, lx, repeat, mask, dstRep, srcBlk, srcRep); break;
        case 10: BlockReduceMin(lz, lx, repeat, mask, dstRep, srcBlk, srcRep); break;
        case 11: PairReduceSum(lz, lx, repeat, mask, dstRep, srcBlk, srcRep); break;
        case 12: WholeReduceSum(lz, lx, bits, repeat, dstRep, srcBlk, srcRep); break;
        case 13: ReduceMin(lz, lx, tmp, bits, repeat, srcRep, true); break;
        default: break;
    }
    DataCopy(gz, lz, CAP);
}

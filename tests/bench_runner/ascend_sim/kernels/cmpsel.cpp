// Compare / CompareScalar / Select / Gather. Buffers: x, y (DTYPE), m (uint8 mask / uint32
// offsets), z (DTYPE result, also the uint8 compare output), p (int32 parameters).
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
constexpr uint32_t CAP = 2048;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR m, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const int32_t op = p.GetValue(0), n = p.GetValue(1);
    const CMPMODE cmp = static_cast<CMPMODE>(p.GetValue(2));
    const SELMODE sel = static_cast<SELMODE>(p.GetValue(3));
    int32_t sb = p.GetValue(4);
    float sf;
    __builtin_memcpy(&sf, &sb, 4);
    const T s = (T)sf;
    const uint64_t mask = (uint64_t)p.GetValue(5);
    const uint8_t repeat = (uint8_t)p.GetValue(6);
    GlobalTensor<T> gx, gy, gz;
    GlobalTensor<uint8_t> gm, gzb;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gy.SetGlobalBuffer((__gm__ T *)y, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    gm.SetGlobalBuffer((__gm__ uint8_t *)m, CAP * 4);
    gzb.SetGlobalBuffer((__gm__ uint8_t *)z, CAP * sizeof(T));
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bm, bz;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(by, CAP * sizeof(T));
    pipe.InitBuffer(bm, CAP * 4);
    pipe.InitBuffer(bz, CAP * sizeof(T));
    LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>(), lz = bz.Get<T>();
    LocalTensor<uint8_t> lm = bm.Get<uint8_t>();
    LocalTensor<uint8_t> lzb = lz.template ReinterpretCast<uint8_t>();
    DataCopy(lx, gx, CAP);
    DataCopy(ly, gy, CAP);
    DataCopy(lm, gm, CAP * 4);
    DataCopy(lz, gz, CAP);
    switch (op) {
        case 0: Compare(lzb, lx, ly, cmp, n); break;
        case 1: CompareScalar(lzb, lx, s, cmp, n); break;
        case 2: Compare(lzb, lx, ly, cmp, mask, repeat, BinaryRepeatParams()); break;
        case 3: CompareScalar(lzb, lx, s, cmp, mask, repeat, UnaryRepeatParams()); break;
        case 4: Select(lz, lm, lx, ly, sel, n); break;
        case 5: Select(lz, lm, lx, s, sel, n); break;
        case 6: Select(lz, lm, lx, ly, sel, mask, repeat, BinaryRepeatParams()); break;
        case 7: Gather(lz, lx, lm.template ReinterpretCast<uint32_t>(), (uint32_t)p.GetValue(7), (uint32_t)n); break;
        case 8: {  // Compare into the CMPMASK register, read it back, select with it
            Compare(lx, ly, cmp, mask, BinaryRepeatParams());
            LocalTensor<uint8_t> reg = lm[CAP * 2];
            GetCmpMask(reg);
            Select<T, SELMODE::VSEL_CMPMASK_SPR>(lz, lx, ly, 1, BinaryRepeatParams());
            DataCopy(gm[CAP * 2], reg, 32);
            break;
        }
        case 9: Compares(lzb, lx, s, cmp, n); break;
        case 10: Gather(lz, lx, lm.template ReinterpretCast<uint32_t>(), (uint32_t)p.GetValue(7), mask, repeat, 8); break;
        default: break;
    }
    DataCopy(gz, lz, CAP);
}

// Integer element-wise APIs (Add/Sub/Mul/Max/Min/Adds/Muls/Maxs/Mins/Relu/And/Or/Not/ShiftLeft/
// ShiftRight), level 2 and a level-0 sample. Same buffer layout as vec_ops.cpp.
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE int16_t
#endif
using T = DTYPE;
constexpr uint32_t CAP = 4096;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 32);
    const int32_t op = p.GetValue(0);
    const int32_t n = p.GetValue(1);
    const T s = (T)p.GetValue(2);
    const uint64_t maskCount = (uint64_t)p.GetValue(7);
    const uint8_t repeat = (uint8_t)p.GetValue(8);
    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gy.SetGlobalBuffer((__gm__ T *)y, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(by, CAP * sizeof(T));
    pipe.InitBuffer(bz, CAP * sizeof(T));
    LocalTensor<T> lx = bx.Get<T>(), ly = by.Get<T>(), lz = bz.Get<T>();
    DataCopy(lx, gx, CAP);
    DataCopy(ly, gy, CAP);
    DataCopy(lz, gz, CAP);
    switch (op) {
#if defined(ARITH)
        case 0: Add(lz, lx, ly, n); break;
        case 1: Sub(lz, lx, ly, n); break;
        case 2: Mul(lz, lx, ly, n); break;
        case 4: Max(lz, lx, ly, n); break;
        case 5: Min(lz, lx, ly, n); break;
        case 6: Adds(lz, lx, s, n); break;
        case 7: Muls(lz, lx, s, n); break;
        case 8: Maxs(lz, lx, s, n); break;
        case 9: Mins(lz, lx, s, n); break;
        case 100: Add(lz, lx, ly, maskCount, repeat, BinaryRepeatParams()); break;
#endif
#if defined(RELU)
        case 16: Relu(lz, lx, n); break;
#endif
#if defined(BITWISE)
        case 30: And(lz, lx, ly, n); break;
        case 31: Or(lz, lx, ly, n); break;
        case 32: Not(lz, lx, n); break;
        case 33: ShiftLeft(lz, lx, s, n); break;
        case 34: ShiftRight(lz, lx, s, n); break;
        case 130: And(lz, lx, ly, maskCount, repeat, BinaryRepeatParams()); break;
        case 132: Not(lz, lx, maskCount, repeat, UnaryRepeatParams()); break;
#endif
#if defined(SHIFT)  // the shifts alone: they take int32_t too, which And/Or/Not do not
        case 33: ShiftLeft(lz, lx, s, n); break;
        case 34: ShiftRight(lz, lx, s, n); break;
#endif
        default: break;
    }
    DataCopy(gz, lz, CAP);
}

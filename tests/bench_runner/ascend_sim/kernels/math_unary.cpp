// The element-wise high-level math APIs of ascend_sim/adv_math.h, one per op code, in each of
// their call forms. Buffers: x (CAP elements of T), z (CAP elements of T), p (int32 parameters:
// op, count, form, tmp bytes). Built with -DDTYPE=float (default) or -DDTYPE=half. See test_adv_math.py.
#include "lib/math/kernel_operator_sin_intf.h"
#include "lib/math/kernel_operator_asin_intf.h"
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
constexpr uint32_t CAP = 2048;

// form 0: (tmp, calCount), 1: (calCount), 2: (tmp), 3: whole tensor
#define MATH_CALL4(NAME)                   \
    if (form == 0) NAME(lz, lx, tmp, n);   \
    else if (form == 1) NAME(lz, lx, n);   \
    else if (form == 2) NAME(lz, lx, tmp); \
    else NAME(lz, lx)
#define MATH_CALL2(NAME)                 \
    if (form == 0) NAME(lz, lx, tmp, n); \
    else NAME(lz, lx, n)

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const int32_t op = p.GetValue(0), form = p.GetValue(2);
    const uint32_t n = p.GetValue(1), tmpBytes = p.GetValue(3);
    GlobalTensor<T> gx, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bt;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(bz, CAP * sizeof(T));
    pipe.InitBuffer(bt, tmpBytes ? tmpBytes : 32);
    LocalTensor<T> lx = bx.Get<T>(), lz = bz.Get<T>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    DataCopy(lx, gx, CAP);
    DataCopy(lz, gz, CAP);
    PipeBarrier<PIPE_ALL>();
    switch (op) {
        case 0: MATH_CALL4(Sin); break;
        case 1: MATH_CALL4(Cos); break;
        case 2: MATH_CALL4(Tan); break;
        case 3: MATH_CALL4(Asin); break;
        case 4: MATH_CALL4(Acos); break;
        case 5: MATH_CALL4(Atan); break;
        case 6: MATH_CALL4(Sinh); break;
        case 7: MATH_CALL4(Cosh); break;
        case 8: MATH_CALL4(Asinh); break;
        case 9: MATH_CALL4(Acosh); break;
        case 10: MATH_CALL4(Atanh); break;
        case 11: MATH_CALL4(Erf); break;
        case 12: MATH_CALL4(Erfc); break;
        case 13: MATH_CALL4(Trunc); break;
        case 14: MATH_CALL4(Frac); break;
        case 15: MATH_CALL2(Floor); break;
        case 16: MATH_CALL2(Ceil); break;
        case 17: MATH_CALL2(Round); break;
        case 18: Sin<T, true>(lz, lx, n); break;  // isReuseSource = true
        default: break;
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, CAP);
}

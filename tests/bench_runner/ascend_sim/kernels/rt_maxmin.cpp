// GetReduceMaxMinCount after WholeReduceMax/Min (ReduceRepeat) and ReduceMax/Min. Buffers: x (input),
// z (the reduce's own output), p (int32: op, mask, repeat, n in; value bits, index out at 30 / 31).
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
using U = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;
constexpr uint32_t CAP = 4096;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 32);
    const int32_t op = p.GetValue(0), mask = p.GetValue(1), repeat = p.GetValue(2), n = p.GetValue(3);
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
    Duplicate(lz, (T)0, CAP);
    PipeBarrier<PIPE_ALL>();
    switch (op) {
        case 0: WholeReduceMax(lz, lx, mask, repeat, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX); break;
        case 1: WholeReduceMin(lz, lx, mask, repeat, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE); break;
        case 2: ReduceMax(lz, lx, tmp, n, true); break;
        case 3: ReduceMin(lz, lx, tmp, mask, repeat, 8, false); break;
        default: break;
    }
    PipeBarrier<PIPE_ALL>();
    T value, index;
    if (op == 4) {
        GetReduceMaxMinCount<T>(value);  // misuse: not on Atlas A2/A3
    } else if (op == 3) {
        GetReduceRepeatMaxMinSpr<T>(value, index);
    } else {
        GetReduceMaxMinCount<T>(value, index);
    }
    p.SetValue(30, (int32_t)*reinterpret_cast<U *>(&value));
    p.SetValue(31, (int32_t)*reinterpret_cast<U *>(&index));
    DataCopy(gz, lz, CAP);
}

// Cast between the dtypes given by -DSRC / -DDST with the RoundMode read at run time, level 2 or
// level 0. Buffers: x (SRC), z (DST, initial contents + result), p (int32 parameters).
#include "kernel_operator.h"
using namespace AscendC;

using S = SRC;
using D = DST;
constexpr uint32_t CAP = 2048;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const RoundMode mode = static_cast<RoundMode>(p.GetValue(0));
    const int32_t n = p.GetValue(1);
    const bool level0 = p.GetValue(2) != 0;
    GlobalTensor<S> gx;
    GlobalTensor<D> gz;
    gx.SetGlobalBuffer((__gm__ S *)x, CAP);
    gz.SetGlobalBuffer((__gm__ D *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, CAP * sizeof(S));
    pipe.InitBuffer(bz, CAP * sizeof(D));
    LocalTensor<S> lx = bx.Get<S>();
    LocalTensor<D> lz = bz.Get<D>();
    DataCopy(lx, gx, CAP);
    DataCopy(lz, gz, CAP);
    if (level0) {
        UnaryRepeatParams rp(1, 1, (uint8_t)p.GetValue(5), (uint8_t)p.GetValue(6));
        Cast(lz, lx, mode, (uint64_t)p.GetValue(3), (uint8_t)p.GetValue(4), rp);
    } else {
        Cast(lz, lx, mode, (uint32_t)n);
    }
    DataCopy(gz, lz, CAP);
}

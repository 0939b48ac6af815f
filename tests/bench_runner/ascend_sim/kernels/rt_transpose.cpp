// Transpose (16 x 16 and TransposeParamsExt) and TransDataTo5HD in its four call forms. Buffers: x (input,
// CAP bytes), z (output, CAP bytes, pre-filled by the test), p (int32 parameters).
//   p[0] op: 0 Transpose 16x16, 1 Transpose ext, 2..5 TransDataTo5HD (LocalTensor list, uint64_t list,
//            uint64_t LocalTensor, TransDataTo5HDImpl with __ubuf__ T* list)
//   p[1] repeatTimes, p[2] dstRepStride, p[3] srcRepStride, p[4] dstHighHalf, p[5] srcHighHalf
//   p[6..21] src element offsets, p[22..37] dst element offsets (multiples of one DataBlock)
//   ext: p[38..42] n, c, h, w, TransposeType
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE half
#endif
using T = DTYPE;
constexpr uint32_t CAP_B = 16384;
constexpr uint32_t CAP = CAP_B / sizeof(T);

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 64);
    const int32_t op = p.GetValue(0);
    TransDataTo5HDParams tp((bool)p.GetValue(4), (bool)p.GetValue(5), (uint8_t)p.GetValue(1),
                            (uint16_t)p.GetValue(2), (uint16_t)p.GetValue(3));
    uint32_t so[16], dof[16];
    for (int i = 0; i < 16; ++i) {
        so[i] = (uint32_t)p.GetValue(6 + i);
        dof[i] = (uint32_t)p.GetValue(22 + i);
    }
    GlobalTensor<T> gx, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bt, ba;
    pipe.InitBuffer(bx, CAP_B);
    pipe.InitBuffer(bz, CAP_B);
    pipe.InitBuffer(bt, CAP_B);
    pipe.InitBuffer(ba, 256);
    LocalTensor<T> lx = bx.Get<T>(), lz = bz.Get<T>();
    DataCopy(lx, gx, CAP);
    DataCopy(lz, gz, CAP);
    PipeBarrier<PIPE_ALL>();
    if (op == 0) {
        if constexpr (sizeof(T) == 2) Transpose(lz, lx);  // 16-bit types only (a static_assert otherwise)
    } else if (op == 1) {
        if constexpr (sizeof(T) >= 2) {
        TransposeParamsExt ep((uint16_t)p.GetValue(38), (uint16_t)p.GetValue(39), (uint16_t)p.GetValue(40),
                              (uint16_t)p.GetValue(41), (TransposeType)p.GetValue(42));
        Transpose(lz, lx, bt.Get<uint8_t>(), ep);
        }
    } else if (op == 2) {
        LocalTensor<T> dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
            dl[i] = lz[dof[i]];
            sl[i] = lx[so[i]];
        }
        TransDataTo5HD<T>(dl, sl, tp);
    } else if (op == 3 || op == 4) {
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
            dl[i] = (uint64_t)lz[dof[i]].GetPhyAddr();
            sl[i] = (uint64_t)lx[so[i]].GetPhyAddr();
        }
        if (op == 3) {
            TransDataTo5HD<T>(dl, sl, tp);
        } else {
            LocalTensor<uint64_t> addr = ba.Get<uint64_t>();
            for (int i = 0; i < 16; ++i) {
                addr.SetValue(i, dl[i]);
                addr.SetValue(16 + i, sl[i]);
            }
            PipeBarrier<PIPE_ALL>();
            TransDataTo5HD<T>(addr, addr[16], tp);
        }
    } else if (op == 5) {
        __ubuf__ T *dl[16];
        __ubuf__ T *sl[16];
        __ubuf__ T *dbase = (__ubuf__ T *)lz.GetPhyAddr();
        __ubuf__ T *sbase = (__ubuf__ T *)lx.GetPhyAddr();
        for (int i = 0; i < 16; ++i) {
            dl[i] = dbase + dof[i];
            sl[i] = sbase + so[i];
        }
        TransDataTo5HDImpl(dl, sl, tp);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, CAP);
}

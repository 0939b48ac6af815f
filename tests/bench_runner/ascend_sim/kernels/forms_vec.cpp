// Vector API forms real kernels use (GatherMask, Copy, Brcb, CreateVecIndex, the vcadd /
// vector_dup / copy_ubuf_to_ubuf intrinsics), selected at run time by an op code. Buffers:
// x (T in), y (pattern / second input, raw bytes), z (T out, initial contents given), p (int32
// parameters; p[31] receives rsvdCnt). See test_vector_forms.py for the op codes.
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
#ifndef PTYPE
#define PTYPE uint32_t
#endif
using T = DTYPE;
using U = PTYPE;
constexpr uint32_t CAP = 4096;  // elements per buffer

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 32);
    const int32_t op = p.GetValue(0);
    const int32_t n = p.GetValue(1);
    const uint8_t pattern = (uint8_t)p.GetValue(2);
    const uint16_t repeat = (uint16_t)p.GetValue(3);
    const uint16_t blk0 = (uint16_t)p.GetValue(4);
    const uint16_t blk1 = (uint16_t)p.GetValue(5);
    const bool reduceMode = p.GetValue(6) != 0;
    const uint32_t mask = (uint32_t)p.GetValue(7);
    const uint8_t rep1 = (uint8_t)p.GetValue(8);
    const uint16_t rep0 = (uint16_t)p.GetValue(9);
    const uint16_t rep2 = (uint16_t)p.GetValue(10);
    const T first = (T)(float)p.GetValue(11);
    uint64_t maskBits[2] = {(uint32_t)p.GetValue(12) | ((uint64_t)(uint32_t)p.GetValue(13) << 32),
                            (uint32_t)p.GetValue(14) | ((uint64_t)(uint32_t)p.GetValue(15) << 32)};

    GlobalTensor<T> gx, gz;
    GlobalTensor<U> gy;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gy.SetGlobalBuffer((__gm__ U *)y, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(by, CAP * sizeof(U));
    pipe.InitBuffer(bz, CAP * sizeof(T));
    LocalTensor<T> lx = bx.Get<T>();
    LocalTensor<U> ly = by.Get<U>();
    LocalTensor<T> lz = bz.Get<T>();
    DataCopy(lx, gx, CAP);
    DataCopy(ly, gy, CAP);
    DataCopy(lz, gz, CAP);
    PipeBarrier<PIPE_ALL>();

    uint64_t rsvdCnt = 0;
    if (op == 0) {
        GatherMask(lz, lx, pattern, reduceMode, mask, {(uint8_t)blk0, repeat, rep0, 0}, rsvdCnt);
    } else if (op == 1) {
        GatherMaskParams gp;
        gp.src0BlockStride = (uint8_t)blk0;
        gp.repeatTimes = repeat;
        gp.src0RepeatStride = rep0;
        gp.src1RepeatStride = rep1;
        GatherMask(lz, lx, ly, reduceMode, mask, gp, rsvdCnt);
    } else if (op == 2) {
        Copy(lz, lx, (uint64_t)mask, (uint8_t)repeat, {blk0, blk1, rep0, rep2});
    } else if (op == 3) {
        Copy(lz, lx, maskBits, (uint8_t)repeat, {blk0, blk1, rep0, rep2});
    } else if (op == 4) {
        Brcb(lz, lx, (uint8_t)repeat, {blk0, rep0});
    } else if (op == 5) {
        CreateVecIndex(lz, first, (uint32_t)n);
    } else if (op == 6) {
        CreateVecIndex(lz, first, (uint64_t)mask, (uint8_t)repeat, blk0, (uint8_t)rep0);
    } else if (op == 7) {  // raw intrinsic, as rms_norm-style kernels call it
        SetMaskNorm();
        SetVectorMask<T, MaskMode::NORMAL>(mask);
        vcadd((__ubuf__ T *)lz.GetPhyAddr(), (__ubuf__ T *)lx.GetPhyAddr(), (uint8_t)repeat, 1, 1, 8, false);
        ResetMask();
    } else if (op == 8) {
        SetVectorMask<T, MaskMode::NORMAL>(mask);
        vector_dup((__ubuf__ T *)lz.GetPhyAddr(), first, (uint8_t)repeat, 1, 1, 8, 0);
        ResetMask();
    } else if (op == 9) {
        copy_ubuf_to_ubuf((__ubuf__ void *)lz.GetPhyAddr(), (__ubuf__ void *)lx.GetPhyAddr(), 0, (uint16_t)n, blk0,
                          blk1, rep0);
    } else if (op == 10) {  // misuse: Brcb in place
        Brcb(lx, lx, 1, {1, 8});
    } else if (op == 11) {  // misuse: no built-in pattern 9
        GatherMask(lz, lx, (uint8_t)9, false, 0, {1, 1, 8, 0}, rsvdCnt);
    } else if (op == 12) {  // misuse: intrinsic on a pointer that is not in UB
        int32_t local[8];
        vcadd((T *)local, (T *)lx.GetPhyAddr(), 1, 1, 1, 8, false);
    } else if (op == 13) {  // vcadd into the ACC register, counter mode over n elements (ReduceSum style)
        SetMaskCount();
        SetVectorMask<T, MaskMode::COUNTER>(0, (uint64_t)n);
        vcadd(nullptr, (__ubuf__ T *)lx.GetPhyAddr(), 1, 1, 1, 8, true);
        SetMaskNorm();
        ResetMask();
        PipeBarrier<PIPE_ALL>();
        p.SetValue(30, (int32_t)(uint32_t)get_acc_val());
    }
    PipeBarrier<PIPE_ALL>();
    p.SetValue(31, (int32_t)rsvdCnt);
    DataCopy(gz, lz, CAP);
}

// Foreach-style kernel (the NPUKernelBench pattern): the math API is a template argument of
// function-pointer type, `Computer<T, Sin<T, false>>`. Also the scalar bf16 helpers ToFloat /
// ToBfloat16 (op 100). Buffers: x, z (CAP floats or bf16), p (op, count). See test_adv_math.py.
#include "lib/math/kernel_operator_erf_intf.h"
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
constexpr uint32_t CAP = 1024;

template <typename U>
using UnaryMathOp = void(const LocalTensor<U>&, const LocalTensor<U>&, const uint32_t);
template <typename U>
using UnaryMathTmpOp = void(const LocalTensor<U>&, const LocalTensor<U>&, const LocalTensor<uint8_t>&,
                            const uint32_t);

template <typename U, UnaryMathOp<U>* op>
struct Computer {
    __aicore__ inline void Run(const LocalTensor<U>& dst, const LocalTensor<U>& src, uint32_t n) { op(dst, src, n); }
};
template <typename U, UnaryMathTmpOp<U>* op>
__aicore__ inline void RunTmp(const LocalTensor<U>& dst, const LocalTensor<U>& src, const LocalTensor<uint8_t>& tmp,
                              uint32_t n)
{
    op(dst, src, tmp, n);
}

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const int32_t op = p.GetValue(0);
    const uint32_t n = p.GetValue(1);
    if (op == 100) {  // z[i] = ToBfloat16(ToFloat(x[i]) * 3 + 0.5)
        GlobalTensor<bfloat16_t> bx, bz;
        bx.SetGlobalBuffer((__gm__ bfloat16_t *)x, CAP);
        bz.SetGlobalBuffer((__gm__ bfloat16_t *)z, CAP);
        for (uint32_t i = 0; i < n; i++) bz.SetValue(i, ToBfloat16(ToFloat(bx.GetValue(i)) * 3.0f + 0.5f));
        return;
    }
    GlobalTensor<T> gx, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz, bt;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(bz, CAP * sizeof(T));
    pipe.InitBuffer(bt, 1024);
    LocalTensor<T> lx = bx.Get<T>(), lz = bz.Get<T>();
    LocalTensor<uint8_t> tmp = bt.Get<uint8_t>();
    DataCopy(lx, gx, CAP);
    DataCopy(lz, gz, CAP);
    PipeBarrier<PIPE_ALL>();
    if (op == 0) Computer<T, Sin<T, false>>().Run(lz, lx, n);
    if (op == 1) Computer<T, Erf<T, false>>().Run(lz, lx, n);
    if (op == 2) Computer<T, Tanh<T, false>>().Run(lz, lx, n);
    if (op == 3) Computer<T, Sigmoid<T, false>>().Run(lz, lx, n);
    if (op == 4) Computer<T, Atan<T, false>>().Run(lz, lx, n);
    if (op == 5) RunTmp<T, Cosh<T, false>>(lz, lx, tmp, n);
    if (op == 6) RunTmp<T, Floor<T, false>>(lz, lx, tmp, n);
    if (op == 7) Sin(lz, lx, n);  // MARK:direct (a direct call keeps its own source location)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, CAP);
}

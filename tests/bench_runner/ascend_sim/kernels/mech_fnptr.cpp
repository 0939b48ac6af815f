// AscendC APIs passed as template arguments (non-type parameters of function-pointer and
// function-reference type), the way library-style kernels choose their operation at compile
// time. Buffers: x, y, z (receives the result) and p (int32: p[0] op code, p[1] count, p[2] the
// scalar's float bits). test_mechanics.py compares every op with numpy.
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
constexpr int32_t CAP = 2048;

// The operation types, spelled with CANN's exact parameter lists.
template <typename U>
using ScalarFn = void(const LocalTensor<U>&, const LocalTensor<U>&, const U&, const int32_t&);
template <typename U>
using BinaryFn = void(const LocalTensor<U>&, const LocalTensor<U>&, const LocalTensor<U>&, const int32_t&);
template <typename U>
using UnaryFn = void(const LocalTensor<U>&, const LocalTensor<U>&, const int32_t&);
template <typename U>
using MaskedFn = void(const LocalTensor<U>&, const LocalTensor<U>&, const LocalTensor<U>&, uint64_t, const uint8_t,
                      const BinaryRepeatParams&);

template <typename U, ScalarFn<U>* op>
struct ScalarStage {
    __aicore__ inline void Run(const LocalTensor<U>& d, const LocalTensor<U>& a, U s, int32_t n) {
        PipeBarrier<PIPE_V>();  // MARK:indirect-prev
        op(d, a, s, n);
        PipeBarrier<PIPE_V>();
    }
};

template <typename U, ScalarFn<U>& op>  // a function reference works the same way
struct ScalarRefStage {
    __aicore__ inline void Run(const LocalTensor<U>& d, const LocalTensor<U>& a, U s, int32_t n) { op(d, a, s, n); }
};

template <typename U, BinaryFn<U>* op>
struct BinaryStage {
    __aicore__ inline void Run(const LocalTensor<U>& d, const LocalTensor<U>& a, const LocalTensor<U>& b, int32_t n) {
        op(d, a, b, n);
    }
};

template <typename U, UnaryFn<U>* op>
struct UnaryStage {
    __aicore__ inline void Run(const LocalTensor<U>& d, const LocalTensor<U>& a, int32_t n) { op(d, a, n); }
};

template <typename U, MaskedFn<U>* op>
struct MaskedStage {
    __aicore__ inline void Run(const LocalTensor<U>& d, const LocalTensor<U>& a, const LocalTensor<U>& b, int32_t n) {
        constexpr uint64_t lanes = 256 / sizeof(U);
        op(d, a, b, lanes, static_cast<uint8_t>(n / lanes), {1, 1, 1, 8, 8, 8});
    }
};

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t*)params, 8);
    const int32_t op = p.GetValue(0);
    const int32_t n = p.GetValue(1);
    const int32_t bits = p.GetValue(2);
    float sf;
    __builtin_memcpy(&sf, &bits, 4);
    const T s = static_cast<T>(sf);

    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T*)x, CAP);
    gy.SetGlobalBuffer((__gm__ T*)y, CAP);
    gz.SetGlobalBuffer((__gm__ T*)z, CAP);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, CAP * sizeof(T));
    pipe.InitBuffer(by, CAP * sizeof(T));
    pipe.InitBuffer(bz, CAP * sizeof(T));
    LocalTensor<T> lx = bx.Get<T>();
    LocalTensor<T> ly = by.Get<T>();
    LocalTensor<T> lz = bz.Get<T>();
    DataCopy(lx, gx, CAP);
    DataCopy(ly, gy, CAP);
    DataCopy(lz, gz, CAP);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

    switch (op) {
        case 0: ScalarStage<T, Muls>().Run(lz, lx, s, n); break;
        case 1: ScalarStage<T, Adds>().Run(lz, lx, s, n); break;
        case 2: ScalarStage<T, Maxs>().Run(lz, lx, s, n); break;
        case 3: ScalarStage<T, Mins>().Run(lz, lx, s, n); break;
        case 4: BinaryStage<T, Mul>().Run(lz, lx, ly, n); break;
        case 5: BinaryStage<T, Max>().Run(lz, lx, ly, n); break;
        case 6: BinaryStage<T, Div>().Run(lz, lx, ly, n); break;
        case 7: BinaryStage<T, Sub>().Run(lz, lx, ly, n); break;
        case 8: UnaryStage<T, Exp>().Run(lz, lx, n); break;
        case 9: UnaryStage<T, Sqrt>().Run(lz, lx, n); break;
        case 10: MaskedStage<T, Sub>().Run(lz, lx, ly, n); break;
        case 11: MaskedStage<T, Div>().Run(lz, lx, ly, n); break;
        case 12: ScalarStage<T, Muls<T>>().Run(lz, lx, s, n); break;          // explicit template argument
        case 13: ScalarRefStage<T, Adds>().Run(lz, lx, s, n); break;          // reference parameter
        case 14: {                                                             // a plain function pointer
            ScalarFn<T>* fp = &Mins<T>;
            fp(lz, lx, s, n);
            break;
        }
        case 20: Adds(lz, lx, s, n); break;  // MARK:direct (a direct call: its own line)
        default: break;
    }

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gz, lz, CAP);
}

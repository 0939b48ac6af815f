// Element-wise vector APIs, level 2 and level 0, selected at run time by an op code so one
// compiled program covers a whole dtype. Buffers: x, y, z (z holds the initial dst contents and
// receives the result) and p (int32 parameters, see OP_* below and test_vector_api.py).
#include "kernel_operator.h"
using namespace AscendC;

#ifndef DTYPE
#define DTYPE float
#endif
using T = DTYPE;
constexpr uint32_t CAP = 4096;  // elements per buffer

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 32);
    const int32_t op = p.GetValue(0);
    const int32_t n = p.GetValue(1);
    int32_t sbits = p.GetValue(2);
    float sf;
    __builtin_memcpy(&sf, &sbits, 4);
    const T s = (T)sf;
    uint64_t maskBits[2] = {(uint32_t)p.GetValue(3) | ((uint64_t)(uint32_t)p.GetValue(4) << 32),
                            (uint32_t)p.GetValue(5) | ((uint64_t)(uint32_t)p.GetValue(6) << 32)};
    const uint64_t maskCount = (uint64_t)p.GetValue(7);
    const uint8_t repeat = (uint8_t)p.GetValue(8);
    BinaryRepeatParams bp((uint8_t)p.GetValue(9), (uint8_t)p.GetValue(10), (uint8_t)p.GetValue(11),
                          (uint8_t)p.GetValue(12), (uint8_t)p.GetValue(13), (uint8_t)p.GetValue(14));
    UnaryRepeatParams up((uint16_t)p.GetValue(9), (uint16_t)p.GetValue(10), (uint8_t)p.GetValue(12),
                         (uint8_t)p.GetValue(13));
    const bool bitMode = p.GetValue(15) != 0;

    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ T *)x, CAP);
    gy.SetGlobalBuffer((__gm__ T *)y, CAP);
    gz.SetGlobalBuffer((__gm__ T *)z, CAP);
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

#define L0_BIN(F) (bitMode ? F(lz, lx, ly, maskBits, repeat, bp) : F(lz, lx, ly, maskCount, repeat, bp))
#define L0_UN(F) (bitMode ? F(lz, lx, maskBits, repeat, up) : F(lz, lx, maskCount, repeat, up))
#define L0_SC(F) (bitMode ? F(lz, lx, s, maskBits, repeat, up) : F(lz, lx, s, maskCount, repeat, up))
    switch (op) {
        case 0: Add(lz, lx, ly, n); break;
        case 1: Sub(lz, lx, ly, n); break;
        case 2: Mul(lz, lx, ly, n); break;
        case 3: Div(lz, lx, ly, n); break;
        case 4: Max(lz, lx, ly, n); break;
        case 5: Min(lz, lx, ly, n); break;
        case 6: Adds(lz, lx, s, n); break;
        case 7: Muls(lz, lx, s, n); break;
        case 8: Maxs(lz, lx, s, n); break;
        case 9: Mins(lz, lx, s, n); break;
        case 10: Exp(lz, lx, n); break;
        case 11: Ln(lz, lx, n); break;
        case 12: Abs(lz, lx, n); break;
        case 13: Sqrt(lz, lx, n); break;
        case 14: Rsqrt(lz, lx, n); break;
        case 15: Reciprocal(lz, lx, n); break;
        case 16: Relu(lz, lx, n); break;
        case 17: LeakyRelu(lz, lx, s, n); break;
        case 18: Duplicate(lz, s, n); break;
        case 19: Axpy(lz, lx, s, n); break;
        case 20: lz = lx + ly; break;
        case 21: lz = lx * ly; break;
        case 100: L0_BIN(Add); break;
        case 101: L0_BIN(Sub); break;
        case 102: L0_BIN(Mul); break;
        case 103: L0_BIN(Div); break;
        case 104: L0_BIN(Max); break;
        case 105: L0_BIN(Min); break;
        case 106: L0_SC(Adds); break;
        case 107: L0_SC(Muls); break;
        case 108: L0_SC(Maxs); break;
        case 109: L0_SC(Mins); break;
        case 110: L0_UN(Exp); break;
        case 111: L0_UN(Ln); break;
        case 112: L0_UN(Abs); break;
        case 113: L0_UN(Sqrt); break;
        case 114: L0_UN(Rsqrt); break;
        case 115: L0_UN(Reciprocal); break;
        case 116: L0_UN(Relu); break;
        case 117: L0_SC(LeakyRelu); break;
        case 118:
            if (bitMode) Duplicate(lz, s, maskBits, repeat, (uint16_t)p.GetValue(9), (uint8_t)p.GetValue(12));
            else Duplicate(lz, s, maskCount, repeat, (uint16_t)p.GetValue(9), (uint8_t)p.GetValue(12));
            break;
        case 119: L0_SC(Axpy); break;
        default: break;
    }
    DataCopy(gz, lz, CAP);
}

// Cube forms: Fill (L0A fractals, L1 32-byte blocks) and the L1 -> bias-table DataCopy with
// DataCopyParams from half to float (blockLen in 64-byte units of the source), feeding Mmad's
// bias overload. Buffers: x (half, 1024), bias (half, 64), z (float, 256 = 16 x 16), l1 (half,
// 512: the L1 buffer after Fill), p (int32: op).
//   op 0: the computation above          op 1: DataCopyParams L1 -> bias table of int8 (misuse)
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR bias, GM_ADDR z, GM_ADDR l1, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const int32_t op = p.GetValue(0);
    GlobalTensor<half> gx, gb, gl;
    gx.SetGlobalBuffer((__gm__ half *)x, 1024);
    gb.SetGlobalBuffer((__gm__ half *)bias, 64);
    gl.SetGlobalBuffer((__gm__ half *)l1, 512);
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer((__gm__ float *)z, 256);
    TPipe pipe;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> c1;
    TBuf<TPosition::C1> bl1, f1;
    TBuf<TPosition::C2> bt;
    pipe.InitBuffer(a2, 512);
    pipe.InitBuffer(b2, 512);
    pipe.InitBuffer(c1, 1024);
    pipe.InitBuffer(bl1, 128);
    pipe.InitBuffer(f1, 1024);
    pipe.InitBuffer(bt, 256);
    LocalTensor<half> la = a2.Get<half>(), lb = b2.Get<half>(), lbias = bl1.Get<half>(), lf = f1.Get<half>();
    LocalTensor<float> lc = c1.Get<float>(), lbt = bt.Get<float>();
    if (op == 1) {
        LocalTensor<int8_t> lbt8 = bt.Get<int8_t>();
        DataCopy(lbias, gb, 64);
        DataCopy(lbt8, lbias, DataCopyParams(1, 1, 0, 0));
        return;
    }
    Fill(la, InitConstValueParams<half>(1, 1, 0, half(1.0f)));  // A = ones (one 16 x 16 fractal)
    LoadData(lb, gx, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    DataCopy(lbias, gb, 64);                         // 64 halves GM -> L1
    DataCopy(lbt, lbias, DataCopyParams(1, 1, 0, 0));  // 64 bytes of half -> 32 floats in the table
    Mmad(lc, la, lb, lbt, MmadParams(16, 16, 16, 0, false, true));
    Fixpipe(gz, lc, FixpipeParamsV220(16, 16, 16, 16, false));
    // L1: 3 repeats of 2 blocks of 32 bytes (16 halves), 1 block skipped between repeats.
    DataCopy(lf, gx, 512);
    Fill(lf, InitConstValueParams<half>(3, 2, 1, half(5.0f)));
    DataCopy(gl, lf, 512);
}

// Load3D (img2col) on one AI core: a feature map in C1 x H x W x C0 (half) goes GM -> L1 as is,
// LoadData3DParamsV2 builds the img2col matrix in L0A; the conv weights (CO x K in (c1, kh, kw, c0)
// order, i.e. B^T) go GM -> L1 by Nd2Nz and into L0B; Mmad + Fixpipe give y [P, CO] (float).
// Buffers: fm, w, y, p (int32: C1, H, W, CO, KH, KW, stride, pad, dilation).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void k(GM_ADDR fm, GM_ADDR w, GM_ADDR y, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const uint32_t C1 = p.GetValue(0), H = p.GetValue(1), W = p.GetValue(2), CO = p.GetValue(3);
    const uint32_t KH = p.GetValue(4), KW = p.GetValue(5), S = p.GetValue(6), PAD = p.GetValue(7), DIL = p.GetValue(8);
    const uint32_t HO = (H + 2 * PAD - DIL * (KH - 1) - 1) / S + 1, WO = (W + 2 * PAD - DIL * (KW - 1) - 1) / S + 1;
    const uint32_t P = HO * WO, P16 = (P + 15) / 16 * 16, K = C1 * KH * KW * 16, CO16 = (CO + 15) / 16 * 16;
    GlobalTensor<half> gf, gw;
    GlobalTensor<float> gy;
    gf.SetGlobalBuffer((__gm__ half *)fm);
    gw.SetGlobalBuffer((__gm__ half *)w);
    gy.SetGlobalBuffer((__gm__ float *)y);
    TPipe pipe;
    TBuf<TPosition::A1> tf;
    TBuf<TPosition::B1> tw;
    TBuf<TPosition::A2> ta;
    TBuf<TPosition::B2> tb;
    TBuf<TPosition::CO1> tc;
    pipe.InitBuffer(tf, C1 * H * W * 16 * 2);
    pipe.InitBuffer(tw, CO16 * K * 2);
    pipe.InitBuffer(ta, P16 * K * 2);
    pipe.InitBuffer(tb, CO16 * K * 2);
    pipe.InitBuffer(tc, P16 * CO16 * 4);
    LocalTensor<half> f1 = tf.Get<half>(), w1 = tw.Get<half>(), a2 = ta.Get<half>(), b2 = tb.Get<half>();
    LocalTensor<float> c1 = tc.Get<float>();
    DataCopy(f1, gf, C1 * H * W * 16);
    DataCopy(w1, gw, Nd2NzParams(1, CO, K, 0, K, CO16, 1, 0));
    uint8_t pads[4] = {static_cast<uint8_t>(PAD), static_cast<uint8_t>(PAD), static_cast<uint8_t>(PAD),
                       static_cast<uint8_t>(PAD)};
    LoadData3DParamsV2<half> l3(pads, H, W, C1 * 16, K, P16, 0, 0, S, S, KW, KH, DIL, DIL, false, false, half(0.0f));
    LoadData(a2, f1, l3);
    LoadData(b2, w1, LoadData2DParams(0, (K / 16) * (CO16 / 16), 1, 0, 0, false, 0));
    Mmad(c1, a2, b2, MmadParams(P, CO, K, 0, false, true));
    Fixpipe(gy, c1, FixpipeParamsV220(CO, P, P16, CO, false));
}

// A MIX kernel (1 AIC + 2 AIV per block): the AIC multiplies a 32 x K row block of A by B
// (K x 32, half) into a float workspace in GM and raises cross-core flag 3; each AIV waits for it,
// reads its 16 rows of the workspace and writes out = 2 * C + 1. Buffers: a, b, ws, out, p.
// p[0] = K, p[1] = 1 to skip the AIC's flag (deadlock test), p[2] = 1 to set it twice (leak).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t TM = 32, TN = 32, MAXK = 128;

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR out, GM_ADDR params)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const uint32_t K = p.GetValue(0);
    const bool skipFlag = p.GetValue(1) != 0;
    TPipe pipe;
    if ASCEND_IS_AIC {
        const uint32_t blk = GetBlockIdx();
        GlobalTensor<half> ga, gb;
        GlobalTensor<float> gw;
        ga.SetGlobalBuffer((__gm__ half *)a + blk * TM * K);
        gb.SetGlobalBuffer((__gm__ half *)b);
        gw.SetGlobalBuffer((__gm__ float *)ws + blk * TM * TN);
        TBuf<TPosition::A1> ta1;
        TBuf<TPosition::B1> tb1;
        TBuf<TPosition::A2> ta2;
        TBuf<TPosition::B2> tb2;
        TBuf<TPosition::CO1> tc;
        pipe.InitBuffer(ta1, TM * MAXK * 2);
        pipe.InitBuffer(tb1, MAXK * TN * 2);
        pipe.InitBuffer(ta2, TM * MAXK * 2);
        pipe.InitBuffer(tb2, MAXK * TN * 2);
        pipe.InitBuffer(tc, TM * TN * 4);
        LocalTensor<half> a1 = ta1.Get<half>(), b1 = tb1.Get<half>(), a2 = ta2.Get<half>(), b2 = tb2.Get<half>();
        LocalTensor<float> c1 = tc.Get<float>();
        DataCopy(a1, ga, Nd2NzParams(1, TM, K, 0, K, TM, 1, 0));
        DataCopy(b1, gb, Nd2NzParams(1, K, TN, 0, TN, K, 1, 0));
        SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
        const uint32_t k1 = K / 16;
        for (uint32_t i = 0; i < TM / 16; ++i) {
            LoadData(a2[i * k1 * 256], a1, LoadData2DParams(i, k1, TM / 16, 0, 0, false, 0));
        }
        for (uint32_t j = 0; j < k1; ++j) {
            LoadData(b2[j * (TN / 16) * 256], b1, LoadData2DParams(j, TN / 16, k1, 0, 0, true, 0));
        }
        SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
        WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        Mmad(c1, a2, b2, MmadParams(TM, TN, K, 0, false, true));
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        Fixpipe(gw, c1, FixpipeParamsV220(TN, TM, TM, TN, false));
        if (!skipFlag) CrossCoreSetFlag<2, PIPE_FIX>(3);
        if (p.GetValue(2) != 0) CrossCoreSetFlag<2, PIPE_FIX>(3);  // one set too many
    }
    if ASCEND_IS_AIV {
        const uint32_t blk = GetBlockIdx() / GetTaskRatio();
        const uint32_t half_rows = TM / 2;
        const uint64_t off = blk * TM * TN + GetSubBlockIdx() * half_rows * TN;
        GlobalTensor<float> gw, go;
        gw.SetGlobalBuffer((__gm__ float *)ws + off);
        go.SetGlobalBuffer((__gm__ float *)out + off);
        TQue<TPosition::VECIN, 1> qi;
        TQue<TPosition::VECOUT, 1> qo;
        pipe.InitBuffer(qi, 1, half_rows * TN * 4);
        pipe.InitBuffer(qo, 1, half_rows * TN * 4);
        CrossCoreWaitFlag(3);
        LocalTensor<float> x = qi.AllocTensor<float>();
        DataCopy(x, gw, half_rows * TN);
        qi.EnQue(x);
        x = qi.DeQue<float>();
        LocalTensor<float> y = qo.AllocTensor<float>();
        Muls(y, x, 2.0f, half_rows * TN);
        Adds(y, y, 1.0f, half_rows * TN);
        qo.EnQue(y);
        qi.FreeTensor(x);
        y = qo.DeQue<float>();
        DataCopy(go, y, half_rows * TN);
        qo.FreeTensor(y);
    }
}

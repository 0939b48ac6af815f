// Synchronisation: SetFlag/WaitFlag with event IDs from the pipe, TQueSync, PipeBarrier,
// SyncAll across cores through a GM workspace, and SetAtomicAdd. Buffers: x (float), z (float),
// w (float workspace, one 32-byte slot per core), p (int32 params).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t N = 256;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR w, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 16);
    const int32_t op = p.GetValue(0);
    const int32_t idx = (int32_t)GetBlockIdx();
    const int32_t num = (int32_t)GetBlockNum();
    GlobalTensor<float> gx, gz, gw;
    gx.SetGlobalBuffer((__gm__ float *)x + idx * N, N);
    gz.SetGlobalBuffer((__gm__ float *)z, N * num);
    gw.SetGlobalBuffer((__gm__ float *)w, 8 * num);
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bt;
    pipe.InitBuffer(ba, N * sizeof(float));
    pipe.InitBuffer(bb, N * sizeof(float));
    pipe.InitBuffer(bt, 2 * N * sizeof(float));
    LocalTensor<float> a = ba.Get<float>(), b = bb.Get<float>(), tmp = bt.Get<float>();
    switch (op) {
        case 0: {  // explicit flags between the pipes, IDs from the pipe
            DataCopy(a, gx, N);
            TEventID e0 = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
            SetFlag<HardEvent::MTE2_V>(e0);
            WaitFlag<HardEvent::MTE2_V>(e0);
            Muls(b, a, 2.0f, N);
            TEventID e1 = pipe.AllocEventID<HardEvent::V_MTE3>();
            SetFlag<HardEvent::V_MTE3>(e1);
            WaitFlag<HardEvent::V_MTE3>(e1);
            pipe.ReleaseEventID<HardEvent::V_MTE3>(e1);
            DataCopy(gz[idx * N], b, N);
            TQueSync<PIPE_MTE3, PIPE_S> qs;
            qs.SetFlag(0);
            qs.WaitFlag(0);
            PipeBarrier<PIPE_V>();
            PipeBarrier<PIPE_ALL>();
            break;
        }
        case 1: {  // SyncAll: every core publishes a partial sum, core 0 adds them after the barrier
            DataCopy(a, gx, N);
            Duplicate(b, 0.0f, 8);
            ReduceSum(b, a, tmp, N);
            DataCopy(gw[idx * 8], b, 8);
            SyncAll();
            if (idx == 0) {
                DataCopy(tmp, gw, 8 * num);
                float s = 0;
                for (int i = 0; i < num; ++i) s += tmp.GetValue(i * 8);
                gz.SetValue(0, s);
            }
            break;
        }
        case 2: {  // atomic accumulation of every core's tile into the same output
            DataCopy(a, gx, N);
            SetAtomicAdd<float>();
            DataCopy(gz[0], a, N);
            SetAtomicNone();
            break;
        }
        case 3: {  // WaitFlag with no SetFlag: the core would hang
            DataCopy(a, gx, N);
            WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
            break;
        }
        case 4: {  // core 1 leaves before SyncAll: the others would hang
            if (idx == 1) return;
            SyncAll();
            break;
        }
        case 5: {  // SetFlag never waited: warning at kernel end
            SetFlag<HardEvent::V_MTE3>(EVENT_ID2);
            break;
        }
        case 6: {  // PipeBarrier<PIPE_S> is illegal
            PipeBarrier<PIPE_S>();
            break;
        }
        default: break;
    }
}

// Cross-core flag modes 0 and 1 in a MIX launch (1 AIC + 2 AIV per block). Each participating
// core writes (its index + 1) * 10 to its slot of `slots`, sets the flag, waits for it, then sums
// the slots of everyone the mode synchronises into its slot of `out`. p[0] selects:
//   0: mode 1 (the two AIVs of each group)     1: mode 0 over all AIVs     2: mode 0 over all AICs
//   3: mode 1, AIV 1 of block 0 never sets (deadlock)   4: mode 0, the last AIV never sets (deadlock)
//   5: mode 1 on the AIC (misuse)
//   9: mode 1 set by AIV 0 of each block only, nobody waits (leftover warning)
//   6: SyncAll<false>() on every AIC and AIV; then each AIC sums the AIV slots, each AIV the AIC slots
//   7: as 6, the AIC of the last block skips it (deadlock)     8: SyncAll<true>() on the AIC (misuse)
// The writer with the highest index first burns vector time so the others wait for it.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void k(GM_ADDR slots, GM_ADDR out, GM_ADDR params)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> p, s, o;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    s.SetGlobalBuffer((__gm__ int32_t *)slots, 64);
    o.SetGlobalBuffer((__gm__ int32_t *)out, 64);
    const int32_t op = p.GetValue(0);
    const int32_t nb = GetBlockNum();
    const int32_t me = GetBlockIdx();
    if (op >= 6 && op <= 8) {
        const bool aic = ASCEND_IS_AIC;
        s.SetValue(aic ? 32 + me : me, (me + 1) * (aic ? 100 : 1));
        if (aic && op == 8) SyncAll();
        else if (!(aic && op == 7 && me == nb - 1)) SyncAll<false>();
        int32_t sum = 0;
        for (int32_t i = 0; i < (aic ? 2 * nb : nb); ++i) sum += s.GetValue(aic ? i : 32 + i);
        o.SetValue(aic ? 32 + me : me, sum);
        return;
    }
    if ASCEND_IS_AIC {
        if (op == 2) {
            s.SetValue(32 + me, (me + 1) * 10);
            CrossCoreSetFlag<0, PIPE_S>(5);
            CrossCoreWaitFlag(5);
            int32_t sum = 0;
            for (int32_t i = 0; i < nb; ++i) sum += s.GetValue(32 + i);
            o.SetValue(32 + me, sum);
        } else if (op == 5) {
            CrossCoreSetFlag<1, PIPE_S>(5);
        }
        return;
    }
    if (op == 2 || op == 5) return;
    if (op == 9) {
        if (GetSubBlockIdx() == 0) CrossCoreSetFlag<1, PIPE_S>(6);
        return;
    }
    const int32_t nv = nb * 2;
    if (me == nv - 1 || (op == 0 && GetSubBlockIdx() == 1)) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> t;
        pipe.InitBuffer(t, 64 * 1024);
        LocalTensor<float> lt = t.Get<float>();
        for (int i = 0; i < 20; ++i) Duplicate(lt, 1.0f, 16 * 1024);  // keeps the vector pipe busy
    }
    s.SetValue(me, (me + 1) * 10);
    const bool skip = (op == 3 && me == 1) || (op == 4 && me == nv - 1);
    if (!skip) {
        if (op == 0 || op == 3) CrossCoreSetFlag<1, PIPE_V>(7);
        else CrossCoreSetFlag<0, PIPE_V>(7);
    }
    CrossCoreWaitFlag(7);
    int32_t sum = 0;
    if (op == 0 || op == 3) {
        const int32_t base = me / 2 * 2;
        sum = s.GetValue(base) + s.GetValue(base + 1);
    } else {
        for (int32_t i = 0; i < nv; ++i) sum += s.GetValue(i);
    }
    o.SetValue(me, sum);
}

// Sorting APIs of the vector core (Atlas A2 layout): Concat, Sort<T, isFullSort>, Extract, MrgSort.
// Buffers: x (T, n = R * 32 scores, padded by the host), ix (uint32 indices in), srt (the sorted
// 8-byte structures, n * 8 bytes out), val (T out), idx (uint32 out), p (int32: op, R, then
// sortedNum out at 4..7).
//   op 0: full sort, Extract           op 1: sort per 32 (not full)
//   op 2: sort per 32, MrgSort of 4 lists of 32, Extract
//   op 3: MrgSort4Info, exhausted mode, 2 lists (32 and 16 structures)
//   op 4: full sort with a tmp buffer one block short (misuse)
//   op 5: MrgSort of an unsorted list (misuse)
#include "kernel_operator.h"
#include "tiling/tiling_api.h"
using namespace AscendC;

#ifndef T
#define T float
#endif

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR ix, GM_ADDR srt, GM_ADDR val, GM_ADDR idx, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const int32_t op = p.GetValue(0), R = p.GetValue(1);
    const uint32_t n = R * 32;
    GlobalTensor<T> gx, gv;
    GlobalTensor<uint32_t> gix, gidx;
    GlobalTensor<float> gs;
    gx.SetGlobalBuffer((__gm__ T *)x, n);
    gv.SetGlobalBuffer((__gm__ T *)val, n);
    gix.SetGlobalBuffer((__gm__ uint32_t *)ix, n);
    gidx.SetGlobalBuffer((__gm__ uint32_t *)idx, n);
    gs.SetGlobalBuffer((__gm__ float *)srt, n * 2);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bc, bi, bd, bd2, bt, bv, bo;
    pipe.InitBuffer(bx, n * sizeof(T));
    pipe.InitBuffer(bc, n * sizeof(T));
    pipe.InitBuffer(bi, n * 4);
    pipe.InitBuffer(bd, n * 8);
    pipe.InitBuffer(bd2, n * 8);
    uint32_t tmpBytes = GetSortTmpSize(0, n, sizeof(T));
    if (op == 4) tmpBytes -= 32;
    pipe.InitBuffer(bt, tmpBytes);
    pipe.InitBuffer(bv, n * sizeof(T));
    pipe.InitBuffer(bo, n * 4);
    LocalTensor<T> lx = bx.Get<T>(), lc = bc.Get<T>(), lt = bt.Get<T>(), lv = bv.Get<T>();
    LocalTensor<uint32_t> li = bi.Get<uint32_t>(), lo = bo.Get<uint32_t>();
    LocalTensor<T> ld = bd.Get<T>(), ld2 = bd2.Get<T>();
    DataCopy(lx, gx, n);
    DataCopy(li, gix, n);
    PipeBarrier<PIPE_ALL>();
    Concat(lc, lx, lt, n / 16);
    LocalTensor<T> result = ld;
    if (op == 0 || op == 4) {
        Sort<T, true>(ld, lc, li, lt, R);
    } else if (op == 1) {
        Sort<T, false>(ld, lc, li, lt, R);
    } else if (op == 2) {
        Sort<T, false>(ld, lc, li, lt, R);
        const uint32_t L = GetSortLen<T>(32);
        MrgSortSrcList<T> list(ld[0], ld[GetSortOffset<T>(32)], ld[2 * L], ld[3 * L]);
        const uint16_t counts[4] = {32, 32, 32, 32};
        uint32_t sortedNum[4];
        MrgSort<T>(ld2, list, counts, sortedNum, 0b1111, 1);
        result = ld2;
    } else if (op == 3) {
        Sort<T, false>(ld, lc, li, lt, R);
        Duplicate(ld2.template ReinterpretCast<float>(), 0.0f, n * 2);
        const uint16_t counts[4] = {32, 16, 0, 0};
        MrgSortSrcList<T> list(ld[0], ld[GetSortLen<T>(32)], ld[0], ld[0]);
        MrgSort4Info info(counts, true, 0b11, 1);
        MrgSort(ld2, list, info);
        uint32_t sortedNum[4];
        MrgSort<T, true>(ld2, list, counts, sortedNum, 0b11, 1);
        for (int i = 0; i < 4; ++i) p.SetValue(4 + i, static_cast<int32_t>(sortedNum[i]));
        result = ld2;
    } else if (op == 5) {
        const uint16_t counts[4] = {32, 32, 0, 0};
        Duplicate(ld.template ReinterpretCast<float>(), 1.0f, n * 2);
        ld.template ReinterpretCast<float>().SetValue(2, 5.0f);
        MrgSortSrcList<T> list(ld[0], ld[GetSortLen<T>(32)], ld[0], ld[0]);
        uint32_t sortedNum[4];
        MrgSort<T>(ld2, list, counts, sortedNum, 0b11, 1);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gs, result.template ReinterpretCast<float>(), n * 2);
    if (op == 0 || op == 2) {
        Extract(lv, lo, result, R);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gv, lv, n);
        DataCopy(gidx, lo, n);
    }
}

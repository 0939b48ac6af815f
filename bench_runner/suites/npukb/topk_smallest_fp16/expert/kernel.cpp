// topk_smallest_fp16, expert version. Rows are split over cores and copied in as tiles of whole
// rows (double-buffered, DataCopyPad). Per row, k rounds of level-2 ReduceMin with calIndex
// (the first minimum, i.e. the smaller index on ties) pick the winners in ascending order;
// each winner is knocked out with +inf before the next round. Values and indices of the tile
// are collected in output tiles and written with one DataCopyPad each.
#include "kernel_operator.h"
#include "topk_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelTopk {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR v, GM_ADDR i, const TopkTilingData& t) {
        t_ = t;
        row0_ = t.rowsPerCore * GetBlockIdx();
        rows_ = row0_ >= t.rows ? 0 : (t.rows - row0_ < t.rowsPerCore ? t.rows - row0_ : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x, t.rows * t.cols);
        vGm.SetGlobalBuffer((__gm__ half*)v, t.rows * t.k);
        iGm.SetGlobalBuffer((__gm__ int32_t*)i, t.rows * t.k);
        const uint32_t outLen = (t.rowTile * t.k + 15) / 16 * 16;
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.rowTile * t.colsAligned * sizeof(half));
        pipe.InitBuffer(vQueue, BUFFER_NUM, outLen * sizeof(half));
        pipe.InitBuffer(iQueue, BUFFER_NUM, outLen * sizeof(int32_t));
        pipe.InitBuffer(workBuf, t.workLength * sizeof(half));
        pipe.InitBuffer(scBuf, 16 * sizeof(half));
    }

    __aicore__ inline void Process() {
        for (uint32_t r0 = 0; r0 < rows_; r0 += t_.rowTile) {
            const uint32_t nr = rows_ - r0 < t_.rowTile ? rows_ - r0 : t_.rowTile;
            CopyIn(r0, nr);
            Compute(nr);
            CopyOut(r0, nr);
        }
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr) {
        LocalTensor<half> x = inQueue.AllocTensor<half>();
        DataCopyExtParams params{static_cast<uint16_t>(nr), static_cast<uint32_t>(t_.cols * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(x, xGm[(row0_ + r0) * t_.cols], params, pad);
        inQueue.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t nr) {
        LocalTensor<half> x = inQueue.DeQue<half>();
        LocalTensor<half> vOut = vQueue.AllocTensor<half>();
        LocalTensor<int32_t> iOut = iQueue.AllocTensor<int32_t>();
        LocalTensor<half> work = workBuf.Get<half>();
        LocalTensor<half> sc = scBuf.Get<half>();
        LocalTensor<uint16_t> scIdx = sc.ReinterpretCast<uint16_t>();
        const int32_t n = static_cast<int32_t>(t_.cols);
        const half knockOut = static_cast<half>(__builtin_huge_valf());
        for (uint32_t r = 0; r < nr; ++r) {
            LocalTensor<half> row = x[r * t_.colsAligned];
            for (uint32_t j = 0; j < t_.k; ++j) {
                ReduceMin(sc, row, work, n, true);
                SyncPipes<HardEvent::V_S>();
                const uint32_t idx = scIdx.GetValue(1);
                vOut.SetValue(r * t_.k + j, sc.GetValue(0));
                iOut.SetValue(r * t_.k + j, static_cast<int32_t>(idx));
                row.SetValue(idx, knockOut);
                SyncPipes<HardEvent::S_V>();
            }
        }
        SyncPipes<HardEvent::S_MTE3>();
        vQueue.EnQue<half>(vOut);
        iQueue.EnQue<int32_t>(iOut);
        inQueue.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr) {
        LocalTensor<half> vOut = vQueue.DeQue<half>();
        LocalTensor<int32_t> iOut = iQueue.DeQue<int32_t>();
        DataCopyExtParams vp{1, static_cast<uint32_t>(nr * t_.k * sizeof(half)), 0, 0, 0};
        DataCopyExtParams ip{1, static_cast<uint32_t>(nr * t_.k * sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(vGm[(row0_ + r0) * t_.k], vOut, vp);
        DataCopyPad(iGm[(row0_ + r0) * t_.k], iOut, ip);
        vQueue.FreeTensor(vOut);
        iQueue.FreeTensor(iOut);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> vQueue, iQueue;
    TBuf<QuePosition::VECCALC> workBuf, scBuf;
    GlobalTensor<half> xGm, vGm;
    GlobalTensor<int32_t> iGm;
    TopkTilingData t_;
    uint32_t row0_ = 0;
    uint32_t rows_ = 0;
};

extern "C" __global__ __aicore__ void topk_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(TopkTilingData, tilingData, tiling);
    KernelTopk op;
    op.Init(x, values, indices, tilingData);
    op.Process();
}

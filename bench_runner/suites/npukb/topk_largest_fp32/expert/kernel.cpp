// topk_largest_fp32, expert version. Rows are split over cores and copied in as tiles of whole
// rows (double-buffered, DataCopyPad). Per row, k rounds of level-2 ReduceMax with calIndex
// (the first maximum, i.e. the smaller index on ties) pick the winners in descending order;
// each winner is knocked out with -inf before the next round. Values and indices of the tile
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
        xGm.SetGlobalBuffer((__gm__ float*)x, t.rows * t.cols);
        vGm.SetGlobalBuffer((__gm__ float*)v, t.rows * t.k);
        iGm.SetGlobalBuffer((__gm__ int32_t*)i, t.rows * t.k);
        const uint32_t outLen = (t.rowTile * t.k + 7) / 8 * 8;
        pipe.InitBuffer(inQueue, BUFFER_NUM, t.rowTile * t.colsAligned * sizeof(float));
        pipe.InitBuffer(vQueue, BUFFER_NUM, outLen * sizeof(float));
        pipe.InitBuffer(iQueue, BUFFER_NUM, outLen * sizeof(int32_t));
        pipe.InitBuffer(workBuf, t.workLength * sizeof(float));
        pipe.InitBuffer(scBuf, 8 * sizeof(float));
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
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(nr), static_cast<uint32_t>(t_.cols * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, xGm[(row0_ + r0) * t_.cols], params, pad);
        inQueue.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t nr) {
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> vOut = vQueue.AllocTensor<float>();
        LocalTensor<int32_t> iOut = iQueue.AllocTensor<int32_t>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sc = scBuf.Get<float>();
        LocalTensor<uint32_t> scIdx = sc.ReinterpretCast<uint32_t>();
        const int32_t n = static_cast<int32_t>(t_.cols);
        const float knockOut = -__builtin_huge_valf();
        for (uint32_t r = 0; r < nr; ++r) {
            LocalTensor<float> row = x[r * t_.colsAligned];
            for (uint32_t j = 0; j < t_.k; ++j) {
                ReduceMax(sc, row, work, n, true);
                SyncPipes<HardEvent::V_S>();
                const uint32_t idx = scIdx.GetValue(1);
                vOut.SetValue(r * t_.k + j, sc.GetValue(0));
                iOut.SetValue(r * t_.k + j, static_cast<int32_t>(idx));
                row.SetValue(idx, knockOut);
                SyncPipes<HardEvent::S_V>();
            }
        }
        SyncPipes<HardEvent::S_MTE3>();
        vQueue.EnQue<float>(vOut);
        iQueue.EnQue<int32_t>(iOut);
        inQueue.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr) {
        LocalTensor<float> vOut = vQueue.DeQue<float>();
        LocalTensor<int32_t> iOut = iQueue.DeQue<int32_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(nr * t_.k * sizeof(float)), 0, 0, 0};
        DataCopyPad(vGm[(row0_ + r0) * t_.k], vOut, params);
        DataCopyPad(iGm[(row0_ + r0) * t_.k], iOut, params);
        vQueue.FreeTensor(vOut);
        iQueue.FreeTensor(iOut);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> vQueue, iQueue;
    TBuf<QuePosition::VECCALC> workBuf, scBuf;
    GlobalTensor<float> xGm, vGm;
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

// iamax_fp32, expert version: per tile, Abs + ReduceMax with calIndex gives the tile's largest |x|
// and its first position; a strict '>' keeps the earliest one across tiles. Each core publishes
// (value, index) in its 32-byte workspace slot; after SyncAll core 0 scans the slots in core
// order (strict '>' again, so the lowest index wins a tie) and writes the int32 index.
#include "kernel_operator.h"
#include "iamax_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelIamax {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR idx, GM_ADDR workspace, const IamaxTilingData& t) {
        first_ = t.blockLength * GetBlockIdx();
        length_ = first_ >= t.totalLength ? 0 : (t.totalLength - first_ < t.blockLength ? t.totalLength - first_
                                                                                        : t.blockLength);
        tile_ = t.tileLength;
        used_ = t.usedCores;
        xGm.SetGlobalBuffer((__gm__ float*)x + first_, length_);
        idxGm.SetGlobalBuffer((__gm__ int32_t*)idx, 1);
        wsGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), used_ * 8);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(absBuf, tile_ * sizeof(float));
        pipe.InitBuffer(workBuf, tile_ * sizeof(float));
        pipe.InitBuffer(redBuf, 8 * sizeof(float));
        pipe.InitBuffer(slotBuf, ((used_ * 8 + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            CopyIn(offset, n);
            Scan(offset, n);
        }
        Publish();
        PipeBarrier<PIPE_ALL>();
        SyncAll();
        if (GetBlockIdx() == 0) {
            Combine();
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Scan(uint32_t offset, uint32_t n) {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> absx = absBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        Abs(absx, xLocal, n);
        inQueue.FreeTensor(xLocal);
        ReduceMax(red, absx, workBuf.Get<float>(), static_cast<int32_t>(n), true);   // [max, index bits]
        Wait<HardEvent::V_S>();
        const float v = red.GetValue(0);
        const uint32_t i = static_cast<uint32_t>(red.ReinterpretCast<int32_t>().GetValue(1));
        if (v > best_) {   // strict: an equal value in a later tile does not replace the earlier one
            best_ = v;
            bestIdx_ = static_cast<int32_t>(first_ + offset + i);
        }
        Wait<HardEvent::S_V>();   // the next ReduceMax overwrites red
    }

    __aicore__ inline void Publish() {
        LocalTensor<float> slot = redBuf.Get<float>();
        slot.SetValue(0, best_);
        slot.ReinterpretCast<int32_t>().SetValue(1, bestIdx_);
        for (uint32_t k = 2; k < 8; ++k) {
            slot.SetValue(k, 0.0f);
        }
        Wait<HardEvent::S_MTE3>();
        DataCopy(wsGm[GetBlockIdx() * 8], slot, 8);
    }

    __aicore__ inline void Combine() {
        LocalTensor<float> slots = slotBuf.Get<float>();
        DataCopy(slots, wsGm, used_ * 8);
        Wait<HardEvent::MTE2_S>();
        LocalTensor<int32_t> slotIdx = slots.ReinterpretCast<int32_t>();
        float bestV = -1.0f;
        int32_t bestI = 0;
        for (uint32_t c = 0; c < used_; ++c) {   // core order = index order
            const float v = slots.GetValue(c * 8);
            if (v > bestV) {
                bestV = v;
                bestI = slotIdx.GetValue(c * 8 + 1);
            }
        }
        LocalTensor<int32_t> res = redBuf.Get<int32_t>();
        Wait<HardEvent::MTE3_S>();   // redBuf was the source of this core's own slot copy
        res.SetValue(0, bestI);
        Wait<HardEvent::S_MTE3>();
        DataCopyExtParams params{1, static_cast<uint32_t>(sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(idxGm, res, params);
    }

    template <HardEvent E>
    __aicore__ inline void Wait() {
        const auto ev = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TBuf<QuePosition::VECCALC> absBuf, workBuf, redBuf, slotBuf;
    GlobalTensor<float> xGm, wsGm;
    GlobalTensor<int32_t> idxGm;
    uint32_t first_ = 0;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
    uint32_t used_ = 0;
    float best_ = -1.0f;   // below every |x|
    int32_t bestIdx_ = 0;
};

extern "C" __global__ __aicore__ void iamax_custom(GM_ADDR x, GM_ADDR idx, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(IamaxTilingData, tilingData, tiling);
    KernelIamax op;
    op.Init(x, idx, workspace, tilingData);
    op.Process();
}

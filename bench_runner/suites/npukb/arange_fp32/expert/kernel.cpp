// arange_fp32, expert version: the index ramp 0, 1, 2, ... of one tile is built once (eight
// scalar writes, then doubling with Adds); each tile is (ramp + tile start) * step + start.
#include "kernel_operator.h"
#include "arange_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelArange {
  public:
    __aicore__ inline void Init(GM_ADDR y, const ArangeTilingData& t) {
        first_ = t.blockLength * GetBlockIdx();
        length_ = first_ >= t.totalLength ? 0 : (t.totalLength - first_ < t.blockLength ? t.totalLength - first_
                                                                                        : t.blockLength);
        tile_ = t.tileLength;
        start_ = t.start;
        step_ = t.step;
        yGm.SetGlobalBuffer((__gm__ float*)y + first_, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(idxBuf, tile_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (length_ == 0) {
            return;
        }
        LocalTensor<float> idx = idxBuf.Get<float>();
        for (uint32_t i = 0; i < 8; ++i) {
            idx.SetValue(i, static_cast<float>(i));
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
        for (uint32_t len = 8; len < tile_; len *= 2) {   // idx[len, 2 len) = idx[0, len) + len
            const uint32_t m = tile_ - len < len ? tile_ - len : len;
            Adds(idx[len], idx, static_cast<float>(len), static_cast<int32_t>(m));
        }
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            LocalTensor<float> out = outQueue.AllocTensor<float>();
            // global index of every element (exact in float32 below 2^24), then * step + start
            Adds(out, idx, static_cast<float>(first_ + offset), n);
            Muls(out, out, step_, n);
            Adds(out, out, start_, n);
            outQueue.EnQue(out);
            CopyOut(offset, n);
        }
    }

  private:
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> out = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], out, params);
        outQueue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> idxBuf;
    GlobalTensor<float> yGm;
    uint32_t first_ = 0;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
    float start_ = 0.0f;
    float step_ = 0.0f;
};

extern "C" __global__ __aicore__ void arange_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    (void)x;
    GET_TILING_DATA_WITH_STRUCT(ArangeTilingData, tilingData, tiling);
    KernelArange op;
    op.Init(y, tilingData);
    op.Process();
}

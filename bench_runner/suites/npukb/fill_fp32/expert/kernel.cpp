// fill_fp32, expert version: one tile is filled once with Duplicate and copied out to every
// tile of the core's range; x is never read (it only gives the shape).
#include "kernel_operator.h"
#include "fill_tiling.h"

using namespace AscendC;

class KernelFill {
  public:
    __aicore__ inline void Init(GM_ADDR y, const FillTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        value_ = t.value;
        yGm.SetGlobalBuffer((__gm__ float*)y + first, length_);
        pipe.InitBuffer(outQueue, 1, tile_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (length_ == 0) {
            return;
        }
        LocalTensor<float> fill = outQueue.AllocTensor<float>();
        Duplicate(fill, value_, static_cast<int32_t>(tile_));
        outQueue.EnQue(fill);
        fill = outQueue.DeQue<float>();
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm[offset], fill, params);
        }
        outQueue.FreeTensor(fill);
    }

  private:
    TPipe pipe;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> yGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
    float value_ = 0.0f;
};

extern "C" __global__ __aicore__ void fill_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    (void)x;
    GET_TILING_DATA_WITH_STRUCT(FillTilingData, tilingData, tiling);
    KernelFill op;
    op.Init(y, tilingData);
    op.Process();
}

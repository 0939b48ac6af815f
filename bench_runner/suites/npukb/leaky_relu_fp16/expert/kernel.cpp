// leaky_relu_fp16, expert version: double-buffered tiles, one LeakyRelu per tile in half (a
// single rounding).
#include "kernel_operator.h"
#include "leaky_relu_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLeakyRelu {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LeakyReluTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        negative_slope_ = t.negative_slope;
        xGm.SetGlobalBuffer((__gm__ half*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
        outGm.SetGlobalBuffer((__gm__ half*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(half));
    }

    __aicore__ inline void Process() {
        for (uint32_t offset = 0; offset < length_; offset += tile_) {
            const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
            CopyIn(offset, n);
            Compute(n);
            CopyOut(offset, n);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
        DataCopyPad(xLocal, xGm[offset], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<half> outLocal = outQueue.AllocTensor<half>();
        LeakyRelu(outLocal, xLocal, static_cast<half>(negative_slope_), static_cast<int32_t>(n));
        outQueue.EnQue<half>(outLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<half> outLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm;
    GlobalTensor<half> outGm;
    float negative_slope_ = 0.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LeakyReluTilingData, tilingData, tiling);
    KernelLeakyRelu op;
    op.Init(x, y, tilingData);
    op.Process();
}

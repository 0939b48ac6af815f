// log_fp32, expert version: double-buffered tiles, one Ln per tile, DataCopyPad for any length.
#include "kernel_operator.h"
#include "log_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLog {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm_.SetGlobalBuffer((__gm__ float*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + start, length_);
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, tile_ * sizeof(float));
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
        LocalTensor<float> xLocal = xQue_.AllocTensor<float>();
        DataCopyPad(xLocal, xGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, float(0)});
        xQue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        const int32_t cnt = static_cast<int32_t>(n);
        LocalTensor<float> xLocal = xQue_.DeQue<float>();
        LocalTensor<float> yLocal = yQue_.AllocTensor<float>();
        Ln(yLocal, xLocal, cnt);
        yQue_.EnQue<float>(yLocal);
        xQue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> yLocal = yQue_.DeQue<float>();
        DataCopyPad(yGm_[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
        yQue_.FreeTensor(yLocal);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void log_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogTilingData, tilingData, tiling);
    KernelLog op;
    op.Init(x, y, tilingData);
    op.Process();
}

// sub_fp16, expert version: double-buffered tiles, one Sub per tile, DataCopyPad for any length.
#include "kernel_operator.h"
#include "sub_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSub {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const SubTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm_.SetGlobalBuffer((__gm__ half*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ half*)y + start, length_);
        zGm_.SetGlobalBuffer((__gm__ half*)z + start, length_);
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tile_ * sizeof(half));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, tile_ * sizeof(half));
        pipe_.InitBuffer(zQue_, BUFFER_NUM, tile_ * sizeof(half));
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
        LocalTensor<half> xLocal = xQue_.AllocTensor<half>();
        DataCopyPad(xLocal, xGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0},
                    DataCopyPadExtParams<half>{false, 0, 0, half(0)});
        xQue_.EnQue(xLocal);
        LocalTensor<half> yLocal = yQue_.AllocTensor<half>();
        DataCopyPad(yLocal, yGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0},
                    DataCopyPadExtParams<half>{false, 0, 0, half(0)});
        yQue_.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        const int32_t cnt = static_cast<int32_t>(n);
        LocalTensor<half> xLocal = xQue_.DeQue<half>();
        LocalTensor<half> yLocal = yQue_.DeQue<half>();
        LocalTensor<half> zLocal = zQue_.AllocTensor<half>();
        Sub(zLocal, xLocal, yLocal, cnt);
        zQue_.EnQue<half>(zLocal);
        xQue_.FreeTensor(xLocal);
        yQue_.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<half> zLocal = zQue_.DeQue<half>();
        DataCopyPad(zGm_[offset], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
        zQue_.FreeTensor(zLocal);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> yQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> zQue_;
    GlobalTensor<half> xGm_;
    GlobalTensor<half> yGm_;
    GlobalTensor<half> zGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void sub_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SubTilingData, tilingData, tiling);
    KernelSub op;
    op.Init(x, y, z, tilingData);
    op.Process();
}

// add_bf16, expert version: Cast both inputs to float32, Add, Cast back with CAST_RINT (no bf16 vector Add on 910B).
#include "kernel_operator.h"
#include "add_bf16_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAddBf16 {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddBf16TilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm_.SetGlobalBuffer((__gm__ bfloat16_t*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ bfloat16_t*)y + start, length_);
        zGm_.SetGlobalBuffer((__gm__ bfloat16_t*)z + start, length_);
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tile_ * sizeof(bfloat16_t));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, tile_ * sizeof(bfloat16_t));
        pipe_.InitBuffer(zQue_, BUFFER_NUM, tile_ * sizeof(bfloat16_t));
        pipe_.InitBuffer(xfBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(yfBuf_, tile_ * sizeof(float));
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
        LocalTensor<bfloat16_t> xLocal = xQue_.AllocTensor<bfloat16_t>();
        DataCopyPad(xLocal, xGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(bfloat16_t)), 0, 0, 0},
                    DataCopyPadExtParams<bfloat16_t>{false, 0, 0, bfloat16_t(0)});
        xQue_.EnQue(xLocal);
        LocalTensor<bfloat16_t> yLocal = yQue_.AllocTensor<bfloat16_t>();
        DataCopyPad(yLocal, yGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(bfloat16_t)), 0, 0, 0},
                    DataCopyPadExtParams<bfloat16_t>{false, 0, 0, bfloat16_t(0)});
        yQue_.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        const int32_t cnt = static_cast<int32_t>(n);
        LocalTensor<bfloat16_t> xLocal = xQue_.DeQue<bfloat16_t>();
        LocalTensor<bfloat16_t> yLocal = yQue_.DeQue<bfloat16_t>();
        LocalTensor<bfloat16_t> zLocal = zQue_.AllocTensor<bfloat16_t>();
        LocalTensor<float> xf = xfBuf_.Get<float>();
        LocalTensor<float> yf = yfBuf_.Get<float>();
        Cast(xf, xLocal, RoundMode::CAST_NONE, n);
        Cast(yf, yLocal, RoundMode::CAST_NONE, n);
        Add(xf, xf, yf, cnt);
        Cast(zLocal, xf, RoundMode::CAST_RINT, n);
        zQue_.EnQue<bfloat16_t>(zLocal);
        xQue_.FreeTensor(xLocal);
        yQue_.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<bfloat16_t> zLocal = zQue_.DeQue<bfloat16_t>();
        DataCopyPad(zGm_[offset], zLocal, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(bfloat16_t)), 0, 0, 0});
        zQue_.FreeTensor(zLocal);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> yQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> zQue_;
    TBuf<QuePosition::VECCALC> xfBuf_;
    TBuf<QuePosition::VECCALC> yfBuf_;
    GlobalTensor<bfloat16_t> xGm_;
    GlobalTensor<bfloat16_t> yGm_;
    GlobalTensor<bfloat16_t> zGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddBf16TilingData, tilingData, tiling);
    KernelAddBf16 op;
    op.Init(x, y, z, tilingData);
    op.Process();
}

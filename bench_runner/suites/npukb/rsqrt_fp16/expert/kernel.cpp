// rsqrt_fp16, expert version: Cast to float32, Rsqrt in float32, Cast back with CAST_RINT (one rounding to half).
#include "kernel_operator.h"
#include "rsqrt_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRsqrt {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const RsqrtTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm_.SetGlobalBuffer((__gm__ half*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ half*)y + start, length_);
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tile_ * sizeof(half));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, tile_ * sizeof(half));
        pipe_.InitBuffer(workBuf_, tile_ * sizeof(float));
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
    }

    __aicore__ inline void Compute(uint32_t n) {
        const int32_t cnt = static_cast<int32_t>(n);
        LocalTensor<half> xLocal = xQue_.DeQue<half>();
        LocalTensor<half> yLocal = yQue_.AllocTensor<half>();
        LocalTensor<float> work = workBuf_.Get<float>();
        Cast(work, xLocal, RoundMode::CAST_NONE, n);
        Rsqrt(work, work, cnt);
        Cast(yLocal, work, RoundMode::CAST_RINT, n);
        yQue_.EnQue<half>(yLocal);
        xQue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<half> yLocal = yQue_.DeQue<half>();
        DataCopyPad(yGm_[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0});
        yQue_.FreeTensor(yLocal);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue_;
    TBuf<QuePosition::VECCALC> workBuf_;
    GlobalTensor<half> xGm_;
    GlobalTensor<half> yGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void rsqrt_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RsqrtTilingData, tilingData, tiling);
    KernelRsqrt op;
    op.Init(x, y, tilingData);
    op.Process();
}

// masked_fill_fp32, expert version: double-buffered tiles; the mask bytes (0/1) are cast to half,
// CompareScalar(== 0) turns them into a bit mask (1 = keep x), and Select writes x or the value.
#include "kernel_operator.h"
#include "masked_fill_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelMaskedFill {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR mask, GM_ADDR y, const MaskedFillTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        value_ = t.value;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, length_);
        mGm.SetGlobalBuffer((__gm__ uint8_t*)mask + start, length_);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(mQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(halfBuf, tile_ * sizeof(half));
        pipe.InitBuffer(bitBuf, tile_ / 8);
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
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        LocalTensor<uint8_t> mLocal = mQueue.AllocTensor<uint8_t>();
        DataCopyExtParams xp{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> xpad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[offset], xp, xpad);
        DataCopyExtParams mp{1, n, 0, 0, 0};
        DataCopyPadExtParams<uint8_t> mpad{false, 0, 0, 0};
        DataCopyPad(mLocal, mGm[offset], mp, mpad);
        xQueue.EnQue(xLocal);
        mQueue.EnQue(mLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<uint8_t> mLocal = mQueue.DeQue<uint8_t>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<half> mHalf = halfBuf.Get<half>();
        LocalTensor<uint8_t> bits = bitBuf.Get<uint8_t>();
        const uint32_t padded = (n + 127) / 128 * 128;  // Compare works on whole 256-byte repeats
        if (padded != n) {
            Duplicate(mHalf, static_cast<half>(0.0f), static_cast<int32_t>(padded));
            PipeBarrier<PIPE_V>();
        }
        Cast(mHalf, mLocal, RoundMode::CAST_NONE, n);
        PipeBarrier<PIPE_V>();
        CompareScalar(bits, mHalf, static_cast<half>(0.0f), CMPMODE::EQ, padded);
        PipeBarrier<PIPE_V>();
        Select(yLocal, bits, xLocal, value_, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
        outQueue.EnQue<float>(yLocal);
        xQueue.FreeTensor(xLocal);
        mQueue.FreeTensor(mLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[offset], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue, mQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> halfBuf, bitBuf;
    GlobalTensor<float> xGm, yGm;
    GlobalTensor<uint8_t> mGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
    float value_ = 0.0f;
};

extern "C" __global__ __aicore__ void masked_fill_custom(GM_ADDR x, GM_ADDR mask, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MaskedFillTilingData, tilingData, tiling);
    KernelMaskedFill op;
    op.Init(x, mask, y, tilingData);
    op.Process();
}

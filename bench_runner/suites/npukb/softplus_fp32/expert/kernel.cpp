// softplus_fp32, expert version: stable max(z, 0) + log(1 + exp(-|z|)), then CompareScalar +
// Select for the threshold branch.
#include "kernel_operator.h"
#include "softplus_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSoftplus {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftplusTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        beta_ = t.beta;
        threshold_ = t.threshold;
        xGm.SetGlobalBuffer((__gm__ float*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ float*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(zBuf, tile_ * sizeof(float));
        pipe.InitBuffer(spBuf, tile_ * sizeof(float));
        pipe.InitBuffer(maskBuf, tile_ / 8 * sizeof(uint8_t));
        // Compare works on whole 256-byte repeats: its tail lanes read z beyond n, so start z defined.
        Duplicate(zBuf.Get<float>(), 0.0f, tile_);
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
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[offset], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> z = zBuf.Get<float>();
        LocalTensor<float> sp = spBuf.Get<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        const uint32_t cnt = (n + 63) / 64 * 64;           // whole 256-byte repeats for CompareScalar
        Muls(z, xLocal, beta_, n);                          // z = beta * x
        Abs(sp, z, n);                                      // log(1 + exp(z)) = max(z, 0) + log(1 + exp(-|z|))
        Muls(sp, sp, -1.0f, n);
        Exp(sp, sp, n);
        Adds(sp, sp, 1.0f, n);
        Ln(sp, sp, n);
        Maxs(outLocal, z, 0.0f, n);
        Add(sp, sp, outLocal, n);
        Muls(sp, sp, 1.0f / beta_, n);
        CompareScalar(mask, z, threshold_, CMPMODE::GT, cnt);
        Select(outLocal, mask, xLocal, sp, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        outQueue.EnQue<float>(outLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> zBuf, spBuf, maskBuf;
    GlobalTensor<float> xGm;
    GlobalTensor<float> outGm;
    float beta_ = 0.0f;
    float threshold_ = 0.0f;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void softplus_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SoftplusTilingData, tilingData, tiling);
    KernelSoftplus op;
    op.Init(x, y, tilingData);
    op.Process();
}

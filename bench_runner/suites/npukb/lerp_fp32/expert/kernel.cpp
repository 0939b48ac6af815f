// lerp_fp32, expert version: double-buffered tiles of three inputs; Sub, Mul, Add.
#include "kernel_operator.h"
#include "lerp_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLerp {
  public:
    __aicore__ inline void Init(GM_ADDR start, GM_ADDR end, GM_ADDR weight, GM_ADDR out, const LerpTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        startGm.SetGlobalBuffer((__gm__ float*)start + first, length_);
        pipe.InitBuffer(startQueue, BUFFER_NUM, tile_ * sizeof(float));
        endGm.SetGlobalBuffer((__gm__ float*)end + first, length_);
        pipe.InitBuffer(endQueue, BUFFER_NUM, tile_ * sizeof(float));
        weightGm.SetGlobalBuffer((__gm__ float*)weight + first, length_);
        pipe.InitBuffer(weightQueue, BUFFER_NUM, tile_ * sizeof(float));
        outGm.SetGlobalBuffer((__gm__ float*)out + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
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
        LocalTensor<float> startLocal = startQueue.AllocTensor<float>();
        DataCopyPad(startLocal, startGm[offset], params, pad);
        startQueue.EnQue(startLocal);
        LocalTensor<float> endLocal = endQueue.AllocTensor<float>();
        DataCopyPad(endLocal, endGm[offset], params, pad);
        endQueue.EnQue(endLocal);
        LocalTensor<float> weightLocal = weightQueue.AllocTensor<float>();
        DataCopyPad(weightLocal, weightGm[offset], params, pad);
        weightQueue.EnQue(weightLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> startLocal = startQueue.DeQue<float>();
        LocalTensor<float> endLocal = endQueue.DeQue<float>();
        LocalTensor<float> weightLocal = weightQueue.DeQue<float>();
        LocalTensor<float> outLocal = outQueue.AllocTensor<float>();
        Sub(outLocal, endLocal, startLocal, n);
        Mul(outLocal, outLocal, weightLocal, n);
        Add(outLocal, outLocal, startLocal, n);
        outQueue.EnQue<float>(outLocal);
        startQueue.FreeTensor(startLocal);
        endQueue.FreeTensor(endLocal);
        weightQueue.FreeTensor(weightLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> outLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> startQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> endQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> weightQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> startGm, endGm, weightGm;
    GlobalTensor<float> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void lerp_custom(GM_ADDR start, GM_ADDR end, GM_ADDR weight, GM_ADDR out, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LerpTilingData, tilingData, tiling);
    KernelLerp op;
    op.Init(start, end, weight, out, tilingData);
    op.Process();
}

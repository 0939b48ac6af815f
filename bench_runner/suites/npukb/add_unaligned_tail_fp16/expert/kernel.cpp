// add_unaligned_tail_fp16, expert version: double-buffered tiles; DataCopyPad moves exactly n
// elements, so the unaligned tail is neither over-read nor over-written.
#include "kernel_operator.h"
#include "add_tail_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelAddTail {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTailTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ half*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(half));
        yGm.SetGlobalBuffer((__gm__ half*)y + first, length_);
        pipe.InitBuffer(yQueue, BUFFER_NUM, tile_ * sizeof(half));
        outGm.SetGlobalBuffer((__gm__ half*)z + first, length_);
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
        LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
        DataCopyPad(yLocal, yGm[offset], params, pad);
        yQueue.EnQue(yLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<half> yLocal = yQueue.DeQue<half>();
        LocalTensor<half> outLocal = outQueue.AllocTensor<half>();
        Add(outLocal, xLocal, yLocal, n);
        outQueue.EnQue<half>(outLocal);
        xQueue.FreeTensor(xLocal);
        yQueue.FreeTensor(yLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<half> outLocal = outQueue.DeQue<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(half)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> yQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<half> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void add_tail_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddTailTilingData, tilingData, tiling);
    KernelAddTail op;
    op.Init(x, y, z, tilingData);
    op.Process();
}

// logical_and_bool, expert version: bool bytes reinterpreted as int16 lanes, one vector And per
// tile; DataCopyPad for odd lengths.
#include "kernel_operator.h"
#include "logical_and_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLogicalAnd {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const LogicalAndTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        aGm.SetGlobalBuffer((__gm__ uint8_t*)a + first, length_);
        pipe.InitBuffer(aQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        bGm.SetGlobalBuffer((__gm__ uint8_t*)b + first, length_);
        pipe.InitBuffer(bQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        outGm.SetGlobalBuffer((__gm__ uint8_t*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
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
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPadExtParams<uint8_t> pad{false, 0, 0, 0};
        LocalTensor<uint8_t> aLocal = aQueue.AllocTensor<uint8_t>();
        DataCopyPad(aLocal, aGm[offset], params, pad);
        aQueue.EnQue(aLocal);
        LocalTensor<uint8_t> bLocal = bQueue.AllocTensor<uint8_t>();
        DataCopyPad(bLocal, bGm[offset], params, pad);
        bQueue.EnQue(bLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<uint8_t> aLocal = aQueue.DeQue<uint8_t>();
        LocalTensor<uint8_t> bLocal = bQueue.DeQue<uint8_t>();
        LocalTensor<uint8_t> outLocal = outQueue.AllocTensor<uint8_t>();
        // Bools are bytes 0/1: a bitwise AND on pairs of bytes (int16 lanes) is the logical AND.
        const int32_t words = static_cast<int32_t>((n + 1) / 2);
        And(outLocal.ReinterpretCast<int16_t>(), aLocal.ReinterpretCast<int16_t>(), bLocal.ReinterpretCast<int16_t>(),
            words);
        outQueue.EnQue<uint8_t>(outLocal);
        aQueue.FreeTensor(aLocal);
        bQueue.FreeTensor(bLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<uint8_t> outLocal = outQueue.DeQue<uint8_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> aQueue;
    TQue<QuePosition::VECIN, BUFFER_NUM> bQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<uint8_t> aGm, bGm;
    GlobalTensor<uint8_t> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void logical_and_custom(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogicalAndTilingData, tilingData, tiling);
    KernelLogicalAnd op;
    op.Init(a, b, y, tilingData);
    op.Process();
}

// logical_not_bool, expert version: bool bytes as int16 lanes: Not, then And with 0x0101 so
// every byte is 0 or 1.
#include "kernel_operator.h"
#include "logical_not_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelLogicalNot {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogicalNotTilingData& t) {
        const uint32_t first = t.blockLength * GetBlockIdx();
        length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ uint8_t*)x + first, length_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        outGm.SetGlobalBuffer((__gm__ uint8_t*)y + first, length_);
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(uint8_t));
        pipe.InitBuffer(onesBuf, tile_ / 2 * sizeof(int16_t));
        Duplicate(onesBuf.Get<int16_t>(), static_cast<int16_t>(0x0101), tile_ / 2);   // byte pattern 01 01
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
        LocalTensor<uint8_t> xLocal = xQueue.AllocTensor<uint8_t>();
        DataCopyPad(xLocal, xGm[offset], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<uint8_t> xLocal = xQueue.DeQue<uint8_t>();
        LocalTensor<uint8_t> outLocal = outQueue.AllocTensor<uint8_t>();
        LocalTensor<int16_t> ones = onesBuf.Get<int16_t>();
        // Bools are bytes 0/1: NOT of each byte gives FF/FE, AND 0x01 per byte leaves 1/0.
        const int32_t words = static_cast<int32_t>((n + 1) / 2);
        LocalTensor<int16_t> dst = outLocal.ReinterpretCast<int16_t>();
        Not(dst, xLocal.ReinterpretCast<int16_t>(), words);
        And(dst, dst, ones, words);
        outQueue.EnQue<uint8_t>(outLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<uint8_t> outLocal = outQueue.DeQue<uint8_t>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPad(outGm[offset], outLocal, params);
        outQueue.FreeTensor(outLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> onesBuf;
    GlobalTensor<uint8_t> xGm;
    GlobalTensor<uint8_t> outGm;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void logical_not_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogicalNotTilingData, tilingData, tiling);
    KernelLogicalNot op;
    op.Init(x, y, tilingData);
    op.Process();
}

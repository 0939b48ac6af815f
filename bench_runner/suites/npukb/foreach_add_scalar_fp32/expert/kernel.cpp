// foreach_add_scalar_fp32, expert version: each core owns one slice of the virtual range a|b|c
// (balanced whatever the three lengths), intersects it with each tensor, and streams those
// pieces through double-buffered tiles (DataCopyPad: pieces start at any element), writing the
// sums back in place.
#include "kernel_operator.h"
#include "foreach_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t kTensors = 3;

class KernelForeachAdd {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const ForeachTilingData& t) {
        tile_ = t.tileLength;
        scalar_ = t.scalar;
        begin_ = t.blockLength * GetBlockIdx();
        end_ = begin_ + t.blockLength;
        GM_ADDR addrs[kTensors] = {a, b, c};
        uint32_t base = 0;
        for (uint32_t k = 0; k < kTensors; ++k) {
            base_[k] = base;
            len_[k] = t.length[k];
            gm_[k].SetGlobalBuffer((__gm__ float*)addrs[k], len_[k]);
            base += len_[k];
        }
        pipe.InitBuffer(inQueue, BUFFER_NUM, tile_ * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tile_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t k = 0; k < kTensors; ++k) {
            // This core's part of tensor k, in tensor k's own element offsets.
            const uint32_t lo = begin_ > base_[k] ? begin_ - base_[k] : 0;
            const uint32_t hiVirtual = end_ < base_[k] + len_[k] ? end_ : base_[k] + len_[k];
            if (hiVirtual <= base_[k] + lo) continue;
            const uint32_t hi = hiVirtual - base_[k];
            for (uint32_t offset = lo; offset < hi; offset += tile_) {
                const uint32_t n = hi - offset < tile_ ? hi - offset : tile_;
                CopyIn(gm_[k], offset, n);
                Compute(n);
                CopyOut(gm_[k], offset, n);
            }
        }
    }

  private:
    __aicore__ inline void CopyIn(const GlobalTensor<float>& g, uint32_t offset, uint32_t n) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, g[offset], params, pad);
        inQueue.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t n) {
        LocalTensor<float> x = inQueue.DeQue<float>();
        LocalTensor<float> y = outQueue.AllocTensor<float>();
        Adds(y, x, scalar_, static_cast<int32_t>(n));
        outQueue.EnQue<float>(y);
        inQueue.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(const GlobalTensor<float>& g, uint32_t offset, uint32_t n) {
        LocalTensor<float> y = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(g[offset], y, params);
        outQueue.FreeTensor(y);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> gm_[kTensors];
    uint32_t base_[kTensors] = {0, 0, 0};
    uint32_t len_[kTensors] = {0, 0, 0};
    uint32_t begin_ = 0, end_ = 0, tile_ = 0;
    float scalar_ = 0.0f;
};

extern "C" __global__ __aicore__ void foreach_add_scalar_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(ForeachTilingData, tilingData, tiling);
    KernelForeachAdd op;
    op.Init(a, b, c, tilingData);
    op.Process();
}

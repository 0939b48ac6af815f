// nrm2_fp32, expert version: each core accumulates x² of its range lane-wise in a tile-sized
    // accumulator (double-buffered input), reduces it with ReduceSum and publishes the partial in its
    // 32-byte workspace slot; after SyncAll core 0 sums the slots and takes the square root and writes the scalar.
    #include "kernel_operator.h"
    #include "nrm2_tiling.h"

    using namespace AscendC;

    constexpr int32_t BUFFER_NUM = 2;

    class KernelNrm2 {
      public:
        __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, const Nrm2TilingData& t) {
            const uint32_t first = t.blockLength * GetBlockIdx();
            length_ = first >= t.totalLength ? 0 : (t.totalLength - first < t.blockLength ? t.totalLength - first
                                                                                          : t.blockLength);
            tile_ = t.tileLength;
            used_ = t.usedCores;
            xGm.SetGlobalBuffer((__gm__ float*)x + first, length_);
            yGm.SetGlobalBuffer((__gm__ float*)y, 1);
            wsGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), used_ * 8);
            pipe.InitBuffer(inQueue, BUFFER_NUM, tile_ * sizeof(float));
            pipe.InitBuffer(outQueue, 1, 8 * sizeof(float));
            pipe.InitBuffer(accBuf, tile_ * sizeof(float));
            pipe.InitBuffer(workBuf, tile_ * sizeof(float));
            pipe.InitBuffer(slotQueue, 1, ((used_ * 8 + 63) / 64 * 64) * sizeof(float));
        }

        __aicore__ inline void Process() {
            LocalTensor<float> acc = accBuf.Get<float>();
            Duplicate(acc, 0.0f, tile_);
            for (uint32_t offset = 0; offset < length_; offset += tile_) {
                const uint32_t n = length_ - offset < tile_ ? length_ - offset : tile_;
                CopyIn(offset, n);
                Accumulate(n);
            }
            // The core's partial: slot = [sum, 0, 0, 0, 0, 0, 0, 0] (whole 32 bytes, so core 0 can add them all).
            LocalTensor<float> slot = outQueue.AllocTensor<float>();
            Duplicate(slot, 0.0f, 8);
            ReduceSum(slot, acc, workBuf.Get<float>(), static_cast<int32_t>(tile_));
            outQueue.EnQue(slot);
            slot = outQueue.DeQue<float>();
            DataCopy(wsGm[GetBlockIdx() * 8], slot, 8);
            outQueue.FreeTensor(slot);
            PipeBarrier<PIPE_ALL>();
            SyncAll();
            if (GetBlockIdx() == 0) {
                Combine();
            }
        }

      private:
        __aicore__ inline void CopyIn(uint32_t offset, uint32_t n) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
            DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
            DataCopyPad(xLocal, xGm[offset], params, pad);
            inQueue.EnQue(xLocal);
        }

        __aicore__ inline void Accumulate(uint32_t n) {
            LocalTensor<float> xLocal = inQueue.DeQue<float>();
            LocalTensor<float> acc = accBuf.Get<float>();
        Mul(xLocal, xLocal, xLocal, n);
            Add(acc, acc, xLocal, n);
            inQueue.FreeTensor(xLocal);
        }

        __aicore__ inline void Combine() {
            LocalTensor<float> slots = slotQueue.AllocTensor<float>();
            DataCopy(slots, wsGm, used_ * 8);
            slotQueue.EnQue(slots);
            slots = slotQueue.DeQue<float>();
            LocalTensor<float> res = outQueue.AllocTensor<float>();
            ReduceSum(res, slots, workBuf.Get<float>(), static_cast<int32_t>(used_ * 8));
            Sqrt(res, res, 1);
            outQueue.EnQue(res);
            slotQueue.FreeTensor(slots);
            res = outQueue.DeQue<float>();
            DataCopyExtParams params{1, static_cast<uint32_t>(sizeof(float)), 0, 0, 0};
            DataCopyPad(yGm, res, params);
            outQueue.FreeTensor(res);
        }

        TPipe pipe;
        TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
        TQue<QuePosition::VECIN, 1> slotQueue;
        TQue<QuePosition::VECOUT, 1> outQueue;
        TBuf<QuePosition::VECCALC> accBuf, workBuf;
        GlobalTensor<float> xGm, yGm, wsGm;
        uint32_t length_ = 0;
        uint32_t tile_ = 0;
        uint32_t used_ = 0;
    };

    extern "C" __global__ __aicore__ void nrm2_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
        GET_TILING_DATA_WITH_STRUCT(Nrm2TilingData, tilingData, tiling);
        KernelNrm2 op;
        op.Init(x, y, workspace, tilingData);
        op.Process();
    }

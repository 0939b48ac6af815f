// softmax_grad_fp32_rows, expert version: one row per tile, y and dy in double-buffered input
// queues, the row dot product sum(dy * y) reduced on the vector unit and read by the scalar unit
// after a V->S synchronisation, then dx = (dy - dot) * y. The output queue is double-buffered
// when two row buffers fit in the Unified Buffer next to the four input buffers (N <= 4096).
#include "kernel_operator.h"
#include "softmax_grad_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;   // reduction scratch: >= N / 64 floats
constexpr uint32_t DOUBLE_OUT_MAX = 4096;

class KernelSoftmaxGrad {
  public:
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR dy, GM_ADDR dx, const SoftmaxGradTilingData& t) {
        cols_ = t.cols;
        stride_ = t.colsAligned;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        const uint64_t offset = static_cast<uint64_t>(first) * cols_;
        const uint64_t count = static_cast<uint64_t>(rows_) * cols_;
        yGm.SetGlobalBuffer((__gm__ float*)y + offset, count);
        dyGm.SetGlobalBuffer((__gm__ float*)dy + offset, count);
        dxGm.SetGlobalBuffer((__gm__ float*)dx + offset, count);
        pipe.InitBuffer(yQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(dyQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(dxQueue, stride_ <= DOUBLE_OUT_MAX ? BUFFER_NUM : 1, stride_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < rows_; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t r) {
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        LocalTensor<float> dyLocal = dyQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        const uint64_t offset = static_cast<uint64_t>(r) * cols_;
        DataCopyPad(yLocal, yGm[offset], params, pad);
        DataCopyPad(dyLocal, dyGm[offset], params, pad);
        yQueue.EnQue(yLocal);
        dyQueue.EnQue(dyLocal);
    }

    __aicore__ inline void Compute() {
        LocalTensor<float> yLocal = yQueue.DeQue<float>();
        LocalTensor<float> dyLocal = dyQueue.DeQue<float>();
        LocalTensor<float> dxLocal = dxQueue.AllocTensor<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        const int32_t n = static_cast<int32_t>(cols_);

        Mul(dxLocal, dyLocal, yLocal, n);          // dy * y
        ReduceSum(scalar, dxLocal, work, n);       // dot = sum(dy * y)
        const float dot = ReadScalar(scalar);
        Adds(dxLocal, dyLocal, -dot, n);
        Mul(dxLocal, dxLocal, yLocal, n);          // dx = (dy - dot) * y

        dxQueue.EnQue<float>(dxLocal);
        yQueue.FreeTensor(yLocal);
        dyQueue.FreeTensor(dyLocal);
    }

    // The vector unit wrote the scalar: make the scalar unit wait for it.
    __aicore__ inline float ReadScalar(const LocalTensor<float>& scalar) {
        const auto eventVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eventVS);
        WaitFlag<HardEvent::V_S>(eventVS);
        return scalar.GetValue(0);
    }

    __aicore__ inline void CopyOut(uint32_t r) {
        LocalTensor<float> dxLocal = dxQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(dxGm[static_cast<uint64_t>(r) * cols_], dxLocal, params);
        dxQueue.FreeTensor(dxLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> yQueue, dyQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> dxQueue;
    TBuf<QuePosition::VECCALC> workBuf, scalarBuf;
    GlobalTensor<float> yGm, dyGm, dxGm;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t stride_ = 0;
};

extern "C" __global__ __aicore__ void softmax_grad_custom(GM_ADDR y, GM_ADDR dy, GM_ADDR dx,
                                                          GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SoftmaxGradTilingData, tilingData, tiling);
    KernelSoftmaxGrad op;
    op.Init(y, dy, dx, tilingData);
    op.Process();
}

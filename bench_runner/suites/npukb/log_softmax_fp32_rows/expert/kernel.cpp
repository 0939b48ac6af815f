// log_softmax_fp32_rows, expert version: one row per tile, double-buffered queues, the row sum
// of exp(x - max) in a scratch buffer, its logarithm taken on the vector unit (Ln of one lane)
// and V->S synchronisation before each scalar read.
#include "kernel_operator.h"
#include "log_softmax_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;

class KernelLogSoftmax {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const LogSoftmaxTilingData& t) {
        cols_ = t.cols;
        stride_ = t.colsAligned;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + first * cols_, rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + first * cols_, rows_ * cols_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(expBuf, stride_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));  // reduction scratch: >= N / 64 floats
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
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[r * cols_], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute() {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> e = expBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        const int32_t n = static_cast<int32_t>(cols_);

        ReduceMax(scalar, xLocal, work, n);
        const float rowMax = ReadScalar(scalar);
        Adds(yLocal, xLocal, -rowMax, n);        // shifted = x - max  (<= 0)
        Exp(e, yLocal, n);
        ReduceSum(scalar, e, work, n);           // sum in [1, N]
        Ln(scalar, scalar, 1);
        const float logSum = ReadScalar(scalar);
        Adds(yLocal, yLocal, -logSum, n);

        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    // The vector unit wrote the scalar: make the scalar unit wait for it.
    __aicore__ inline float ReadScalar(const LocalTensor<float>& scalar) {
        const auto eventVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eventVS);
        WaitFlag<HardEvent::V_S>(eventVS);
        return scalar.GetValue(0);
    }

    __aicore__ inline void CopyOut(uint32_t r) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[r * cols_], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> expBuf, workBuf, scalarBuf;
    GlobalTensor<float> xGm, yGm;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t stride_ = 0;
};

extern "C" __global__ __aicore__ void log_softmax_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LogSoftmaxTilingData, tilingData, tiling);
    KernelLogSoftmax op;
    op.Init(x, y, tilingData);
    op.Process();
}

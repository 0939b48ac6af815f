// softmax_fp16_rows, expert version: one row per tile with double-buffered input and output queues,
// row statistics by vector reductions into a one-block scalar tensor (V->S synchronisation before
// each scalar read, the reciprocal square root taken on the vector unit); half rows cast to float32, all arithmetic in float32, one rounding back to half.
#include "kernel_operator.h"
#include "softmax_fp16_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;   // reduction scratch (>= N / 64 floats)

class KernelSoftmaxFp16 {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxFp16TilingData& t) {
        cols_ = t.cols;
        stride_ = t.colsAligned;
        invCols_ = 1.0f / static_cast<float>(t.cols);
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ half*)x + first * cols_, rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ half*)y + first * cols_, rows_ * cols_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, stride_ * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, stride_ * sizeof(half));
        pipe.InitBuffer(tmpBuf, stride_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
        pipe.InitBuffer(xfBuf, stride_ * sizeof(float));
        pipe.InitBuffer(yfBuf, stride_ * sizeof(float));
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
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, 0};
        LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
        DataCopyPad(xLocal, xGm[r * cols_], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute() {
        const int32_t n = static_cast<int32_t>(cols_);
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        LocalTensor<float> xf = xfBuf.Get<float>();
        LocalTensor<float> yf = yfBuf.Get<float>();
        Cast(xf, xLocal, RoundMode::CAST_NONE, n);
        LocalTensor<float>& src = xf;
        ReduceMax(scalar, src, work, n);
        const float rowMax = ReadScalar(scalar);
        Adds(yf, src, -rowMax, n);
        Exp(yf, yf, n);
        ReduceSum(scalar, yf, work, n);
        const float rowSum = ReadScalar(scalar);
        Muls(yf, yf, 1.0f / rowSum, n);
        Cast(yLocal, yf, RoundMode::CAST_RINT, n);
        yQueue.EnQue<half>(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    // The vector unit wrote the scalar: make the scalar unit wait for it.
    __aicore__ inline float ReadScalar(const LocalTensor<float>& scalar) {
        const auto eventVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eventVS);
        WaitFlag<HardEvent::V_S>(eventVS);
        return scalar.GetValue(0);
    }

    __aicore__ inline void CopyOut(uint32_t r) {
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(half)), 0, 0, 0};
        LocalTensor<half> yLocal = yQueue.DeQue<half>();
        DataCopyPad(yGm[r * cols_], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> tmpBuf, workBuf, scalarBuf, xfBuf, yfBuf;
    GlobalTensor<half> xGm, yGm;
    float invCols_ = 1.0f;
    float eps_ = 0.0f;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t stride_ = 0;
};

extern "C" __global__ __aicore__ void softmax_fp16_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SoftmaxFp16TilingData, tilingData, tiling);
    KernelSoftmaxFp16 op;
    op.Init(x, y, tilingData);
    op.Process();
}

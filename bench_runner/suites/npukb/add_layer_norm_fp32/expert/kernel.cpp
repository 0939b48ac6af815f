// add_layer_norm_fp32, expert version: one row per tile with double-buffered input and output queues,
// row statistics by vector reductions into a one-block scalar tensor (V->S synchronisation before
// each scalar read, the reciprocal square root taken on the vector unit).
#include "kernel_operator.h"
#include "add_layer_norm_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;   // reduction scratch (>= N / 64 floats)

class KernelAddLayerNorm {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR r, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR s, const AddLayerNormTilingData& t) {
        cols_ = t.cols;
        stride_ = t.colsAligned;
        invCols_ = 1.0f / static_cast<float>(t.cols);
        eps_ = t.eps;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x + first * cols_, rows_ * cols_);
        rGm.SetGlobalBuffer((__gm__ float*)r + first * cols_, rows_ * cols_);
        yGm.SetGlobalBuffer((__gm__ float*)y + first * cols_, rows_ * cols_);
        sGm.SetGlobalBuffer((__gm__ float*)s + first * cols_, rows_ * cols_);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, cols_);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, cols_);
        pipe.InitBuffer(xQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(rQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(yQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(sQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(tmpBuf, stride_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
        pipe.InitBuffer(gamBuf, stride_ * sizeof(float));
        pipe.InitBuffer(betBuf, stride_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        LoadParams();
        for (uint32_t r = 0; r < rows_; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

  private:
    // gamma/beta are the same for every row: loaded once, kept in UB as float.
    __aicore__ inline void LoadParams() {
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
        {
            LocalTensor<float> dst = gamBuf.Get<float>();
            DataCopyPad(dst, gammaGm, params, pad);
        }
        {
            LocalTensor<float> dst = betBuf.Get<float>();
            DataCopyPad(dst, betaGm, params, pad);
        }
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t r) {
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[r * cols_], params, pad);
        xQueue.EnQue(xLocal);
        LocalTensor<float> rLocal = rQueue.AllocTensor<float>();
        DataCopyPad(rLocal, rGm[r * cols_], params, pad);
        rQueue.EnQue(rLocal);
    }

    __aicore__ inline void Compute() {
        const int32_t n = static_cast<int32_t>(cols_);
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> rLocal = rQueue.DeQue<float>();
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        LocalTensor<float> sLocal = sQueue.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        LocalTensor<float> gam = gamBuf.Get<float>();
        LocalTensor<float> bet = betBuf.Get<float>();
        LocalTensor<float>& yf = yLocal;
        LocalTensor<float>& xf = xLocal;
        LocalTensor<float>& rf = rLocal;
        LocalTensor<float>& sf = sLocal;
        Add(sf, xf, rf, n);
        LocalTensor<float>& src = sf;
        ReduceSum(scalar, src, work, n);
        const float mean = ReadScalar(scalar) * invCols_;
        Adds(tmp, src, -mean, n);                 // centred row
        Mul(yf, tmp, tmp, n);
        ReduceSum(scalar, yf, work, n);
        Muls(scalar, scalar, invCols_, 1);        // biased variance
        Adds(scalar, scalar, eps_, 1);
        Rsqrt(scalar, scalar, 1);
        const float rstd = ReadScalar(scalar);
        Muls(yf, tmp, rstd, n);
        Mul(yf, yf, gam, n);
        Add(yf, yf, bet, n);
        yQueue.EnQue<float>(yLocal);
        sQueue.EnQue<float>(sLocal);
        rQueue.FreeTensor(rLocal);
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
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        LocalTensor<float> yLocal = yQueue.DeQue<float>();
        DataCopyPad(yGm[r * cols_], yLocal, params);
        yQueue.FreeTensor(yLocal);
        LocalTensor<float> sLocal = sQueue.DeQue<float>();
        DataCopyPad(sGm[r * cols_], sLocal, params);
        sQueue.FreeTensor(sLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue, rQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue, sQueue;
    TBuf<QuePosition::VECCALC> tmpBuf, workBuf, scalarBuf, gamBuf, betBuf;
    GlobalTensor<float> xGm, rGm, gammaGm, betaGm, yGm, sGm;
    float invCols_ = 1.0f;
    float eps_ = 0.0f;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t stride_ = 0;
};

extern "C" __global__ __aicore__ void add_layer_norm_custom(GM_ADDR x, GM_ADDR r, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR s, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AddLayerNormTilingData, tilingData, tiling);
    KernelAddLayerNorm op;
    op.Init(x, r, gamma, beta, y, s, tilingData);
    op.Process();
}

// layer_norm_grad_fp32, expert version: one row per tile (dy and x double-buffered), the row statistics
// recomputed with vector reductions, dx written row by row; dgamma/dbeta partial sums kept in UB
// for all of this core's rows, then combined across cores: block 0 zeroes the outputs, SyncAll,
// every block adds its partials with an atomic-add DataCopyPad.
#include "kernel_operator.h"
#include "layer_norm_grad_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;   // reduction scratch (>= N / 64)

class KernelLayerNormGrad {
  public:
    __aicore__ inline void Init(GM_ADDR dy, GM_ADDR x, GM_ADDR gamma, GM_ADDR dx, GM_ADDR dgamma, GM_ADDR dbeta, const LayerNormGradTilingData& t) {
        cols_ = t.cols;
        stride_ = t.colsAligned;
        invCols_ = 1.0f / static_cast<float>(t.cols);
        eps_ = t.eps;
        const uint32_t first = t.rowsPerCore * GetBlockIdx();
        rows_ = first >= t.rows ? 0 : (t.rows - first < t.rowsPerCore ? t.rows - first : t.rowsPerCore);
        dyGm.SetGlobalBuffer((__gm__ float*)dy + first * cols_, rows_ * cols_);
        xGm.SetGlobalBuffer((__gm__ float*)x + first * cols_, rows_ * cols_);
        dxGm.SetGlobalBuffer((__gm__ float*)dx + first * cols_, rows_ * cols_);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, cols_);
        dgammaGm.SetGlobalBuffer((__gm__ float*)dgamma, cols_);
        dbetaGm.SetGlobalBuffer((__gm__ float*)dbeta, cols_);
        pipe.InitBuffer(dyQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(xQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(dxQueue, BUFFER_NUM, stride_ * sizeof(float));
        pipe.InitBuffer(gamBuf, stride_ * sizeof(float));
        pipe.InitBuffer(xhatBuf, stride_ * sizeof(float));
        pipe.InitBuffer(gBuf, stride_ * sizeof(float));
        pipe.InitBuffer(dgAccBuf, stride_ * sizeof(float));
        pipe.InitBuffer(dbAccBuf, stride_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
    }

    __aicore__ inline void Process() {
        const int32_t n = static_cast<int32_t>(cols_);
        LocalTensor<float> dgAcc = dgAccBuf.Get<float>();
        LocalTensor<float> dbAcc = dbAccBuf.Get<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        // Block 0 clears the parameter gradients before anyone adds to them.
        if (GetBlockIdx() == 0) {
            Duplicate(dgAcc, 0.0f, n);
            Duplicate(dbAcc, 0.0f, n);
            SyncPipes<HardEvent::V_MTE3>();
            DataCopyPad(dgammaGm, dgAcc, params);
            DataCopyPad(dbetaGm, dbAcc, params);
            SyncPipes<HardEvent::MTE3_V>();
        }
        Duplicate(dgAcc, 0.0f, n);
        Duplicate(dbAcc, 0.0f, n);
        LoadGamma();
        for (uint32_t r = 0; r < rows_; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
        SyncPipes<HardEvent::V_MTE3>();
        SyncAll();   // the zeroed outputs are in GM before the first atomic add
        SetAtomicAdd<float>();
        DataCopyPad(dgammaGm, dgAcc, params);
        DataCopyPad(dbetaGm, dbAcc, params);
        SetAtomicNone();
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto ev = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(ev);
        WaitFlag<E>(ev);
    }

    __aicore__ inline void LoadGamma() {
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(gamBuf.Get<float>(), gammaGm, params, pad);
        SyncPipes<HardEvent::MTE2_V>();
    }

    __aicore__ inline void CopyIn(uint32_t r) {
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        LocalTensor<float> dyLocal = dyQueue.AllocTensor<float>();
        DataCopyPad(dyLocal, dyGm[r * cols_], params, pad);
        dyQueue.EnQue(dyLocal);
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        DataCopyPad(xLocal, xGm[r * cols_], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute() {
        const int32_t n = static_cast<int32_t>(cols_);
        LocalTensor<float> dyLocal = dyQueue.DeQue<float>();
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> dxLocal = dxQueue.AllocTensor<float>();
        LocalTensor<float> gam = gamBuf.Get<float>();
        LocalTensor<float> xhat = xhatBuf.Get<float>();
        LocalTensor<float> g = gBuf.Get<float>();
        LocalTensor<float> dgAcc = dgAccBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();

        ReduceSum(scalar, xLocal, work, n);
        const float mean = ReadScalar(scalar) * invCols_;
        Adds(xhat, xLocal, -mean, n);           // centred row
        Mul(dxLocal, xhat, xhat, n);            // dx is scratch until the end
        ReduceSum(scalar, dxLocal, work, n);
        Muls(scalar, scalar, invCols_, 1);
        Adds(scalar, scalar, eps_, 1);
        Rsqrt(scalar, scalar, 1);
        const float rstd = ReadScalar(scalar);
        Muls(xhat, xhat, rstd, n);             // normalised row
        // parameter gradients: dgamma += dy * xhat; dbeta += dy
        Mul(dxLocal, dyLocal, xhat, n);
        Add(dgAcc, dgAcc, dxLocal, n);
        LocalTensor<float> dbAcc = dbAccBuf.Get<float>();
        Add(dbAcc, dbAcc, dyLocal, n);
        // g = dy * gamma; dx = rstd * (g - mean(g) - xhat * mean(g * xhat))
        Mul(g, dyLocal, gam, n);
        Mul(dxLocal, g, xhat, n);
        ReduceSum(scalar, dxLocal, work, n);
        const float meanGX = ReadScalar(scalar) * invCols_;
        ReduceSum(scalar, g, work, n);
        const float meanG = ReadScalar(scalar) * invCols_;
        Adds(g, g, -meanG, n);
        Muls(xhat, xhat, meanGX, n);
        Sub(g, g, xhat, n);
        Muls(dxLocal, g, rstd, n);
        dxQueue.EnQue<float>(dxLocal);
        dyQueue.FreeTensor(dyLocal);
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
        LocalTensor<float> dxLocal = dxQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(dxGm[r * cols_], dxLocal, params);
        dxQueue.FreeTensor(dxLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> dyQueue, xQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> dxQueue;
    TBuf<QuePosition::VECCALC> gamBuf, xhatBuf, gBuf, dgAccBuf, dbAccBuf, workBuf, scalarBuf;
    GlobalTensor<float> dyGm, xGm, dxGm, gammaGm, dgammaGm, dbetaGm;
    float invCols_ = 1.0f;
    float eps_ = 0.0f;
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
    uint32_t stride_ = 0;
};

extern "C" __global__ __aicore__ void layer_norm_grad_custom(GM_ADDR dy, GM_ADDR x, GM_ADDR gamma, GM_ADDR dx, GM_ADDR dgamma, GM_ADDR dbeta, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(LayerNormGradTilingData, tilingData, tiling);
    KernelLayerNormGrad op;
    op.Init(dy, x, gamma, dx, dgamma, dbeta, tilingData);
    op.Process();
}

// batch_norm_train_fp32, expert version: each core owns a channel range. Per channel, pass 1
// streams the N strided HW segments in tiles of tileN segments (one DataCopyPad: blockCount =
// segments, source gap = the other channels, zero right-padding to 32 bytes) and accumulates the
// sum and the sum of squares (the zero padding adds nothing to either); pass 2 streams them again
// and writes y = x * (rstd * gamma) + (beta - mean * rstd * gamma) with the same strided pattern.
// mean/var of the core's channels are collected in UB and written once.
#include "kernel_operator.h"
#include "batch_norm_train_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;   // reduction scratch (>= 8192 / 64)

class KernelBatchNormTrain {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                                const BatchNormTrainTilingData& t) {
        batch_ = t.batch;
        channels_ = t.channels;
        hw_ = t.hw;
        hwA_ = t.hwAligned;
        tileN_ = t.tileN;
        eps_ = t.eps;
        invCount_ = 1.0f / static_cast<float>(t.batch * t.hw);
        first_ = t.chPerCore * GetBlockIdx();
        myCh_ = first_ >= t.channels ? 0 : (t.channels - first_ < t.chPerCore ? t.channels - first_ : t.chPerCore);
        const uint64_t total = static_cast<uint64_t>(t.batch) * t.channels * t.hw;
        xGm.SetGlobalBuffer((__gm__ float*)x, total);
        yGm.SetGlobalBuffer((__gm__ float*)y, total);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, t.channels);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, t.channels);
        meanGm.SetGlobalBuffer((__gm__ float*)mean + first_, myCh_);
        varGm.SetGlobalBuffer((__gm__ float*)var + first_, myCh_);
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileN_ * hwA_ * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileN_ * hwA_ * sizeof(float));
        pipe.InitBuffer(sqBuf, tileN_ * hwA_ * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
        const uint32_t statLen = (myCh_ + 7) / 8 * 8 + 8;
        pipe.InitBuffer(statBuf, 2 * statLen * sizeof(float));
        statLen_ = statLen;
    }

    __aicore__ inline void Process() {
        if (myCh_ == 0) return;
        LocalTensor<float> meanOut = statBuf.Get<float>();
        LocalTensor<float> varOut = meanOut[statLen_];
        for (uint32_t k = 0; k < myCh_; ++k) {
            const uint32_t ch = first_ + k;
            sum_ = 0.0f;
            sumSq_ = 0.0f;
            for (uint32_t n = 0; n < batch_; n += tileN_) {
                const uint32_t nt = batch_ - n < tileN_ ? batch_ - n : tileN_;
                CopyIn(ch, n, nt);
                Accumulate(nt);
            }
            const float mean = sum_ * invCount_;
            const float var = sumSq_ * invCount_ - mean * mean;
            const float rstd = Rstd(var);
            const float scale = rstd * gammaGm.GetValue(ch);
            const float shift = betaGm.GetValue(ch) - mean * scale;
            for (uint32_t n = 0; n < batch_; n += tileN_) {
                const uint32_t nt = batch_ - n < tileN_ ? batch_ - n : tileN_;
                CopyIn(ch, n, nt);
                Normalize(nt, scale, shift);
                CopyOut(ch, n, nt);
            }
            meanOut.SetValue(k, mean);
            varOut.SetValue(k, var);
        }
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::S_MTE3);
        SetFlag<HardEvent::S_MTE3>(ev);
        WaitFlag<HardEvent::S_MTE3>(ev);
        DataCopyExtParams params{1, static_cast<uint32_t>(myCh_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(meanGm, meanOut, params);
        DataCopyPad(varGm, varOut, params);
    }

  private:
    // nt segments of HW elements, channel ch, samples n .. n + nt - 1: consecutive segments are
    // C * HW apart in GM; each lands on a 32-byte aligned UB row, zero-padded.
    __aicore__ inline void CopyIn(uint32_t ch, uint32_t n, uint32_t nt) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(nt), static_cast<uint32_t>(hw_ * sizeof(float)),
                                 static_cast<uint32_t>((channels_ - 1) * hw_ * sizeof(float)), 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(hwA_ - hw_), 0.0f};
        DataCopyPad(xLocal, xGm[(static_cast<uint64_t>(n) * channels_ + ch) * hw_], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Accumulate(uint32_t nt) {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> sq = sqBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        const int32_t len = static_cast<int32_t>(nt * hwA_);
        ReduceSum(scalar, xLocal, work, len);
        sum_ += ReadScalar(scalar);
        Mul(sq, xLocal, xLocal, len);
        ReduceSum(scalar, sq, work, len);
        sumSq_ += ReadScalar(scalar);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline float Rstd(float var) {
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        scalar.SetValue(0, var + eps_);
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(ev);
        WaitFlag<HardEvent::S_V>(ev);
        Rsqrt(scalar, scalar, 1);
        return ReadScalar(scalar);
    }

    __aicore__ inline void Normalize(uint32_t nt, float scale, float shift) {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        const int32_t len = static_cast<int32_t>(nt * hwA_);
        Muls(yLocal, xLocal, scale, len);
        Adds(yLocal, yLocal, shift, len);
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t ch, uint32_t n, uint32_t nt) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{static_cast<uint16_t>(nt), static_cast<uint32_t>(hw_ * sizeof(float)), 0,
                                 static_cast<uint32_t>((channels_ - 1) * hw_ * sizeof(float)), 0};
        DataCopyPad(yGm[(static_cast<uint64_t>(n) * channels_ + ch) * hw_], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    // The vector unit wrote the scalar: make the scalar unit wait for it.
    __aicore__ inline float ReadScalar(const LocalTensor<float>& scalar) {
        const auto eventVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eventVS);
        WaitFlag<HardEvent::V_S>(eventVS);
        return scalar.GetValue(0);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> sqBuf, workBuf, scalarBuf, statBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm, meanGm, varGm;
    float eps_ = 0.0f;
    float invCount_ = 1.0f;
    float sum_ = 0.0f;
    float sumSq_ = 0.0f;
    uint32_t batch_ = 0;
    uint32_t channels_ = 0;
    uint32_t hw_ = 0;
    uint32_t hwA_ = 0;
    uint32_t tileN_ = 1;
    uint32_t first_ = 0;
    uint32_t myCh_ = 0;
    uint32_t statLen_ = 8;
};

extern "C" __global__ __aicore__ void batch_norm_train_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                              GM_ADDR mean, GM_ADDR var, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(BatchNormTrainTilingData, tilingData, tiling);
    KernelBatchNormTrain op;
    op.Init(x, gamma, beta, y, mean, var, tilingData);
    op.Process();
}

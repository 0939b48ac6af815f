// instance_norm_fp32, expert version: one group per tile (one channel row of HW elements, brought in by one
// DataCopyPad with blockCount = channels per group and zero right-padding to 32 bytes, so every
// channel row starts 32-byte aligned in UB). Mean from ReduceSum over the padded tile (the zeros
// add nothing); variance from the centred squares minus the padding's known contribution
// padCount * mean^2; rstd by Rsqrt on the vector unit; per-channel Muls/Adds with gamma/beta
// read as scalars from a UB copy loaded once.
#include "kernel_operator.h"
#include "instance_norm_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t WORK_FLOATS = 1024;   // reduction scratch (>= 8192 / 64)

class KernelInstanceNorm {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, const InstanceNormTilingData& t) {
        chPerGroup_ = t.chPerGroup;
        channels_ = t.channels;
        hw_ = t.hw;
        hwA_ = t.hwAligned;
        eps_ = t.eps;
        const uint32_t count = t.chPerGroup * t.hw;
        invCount_ = 1.0f / static_cast<float>(count);
        padCount_ = t.chPerGroup * (t.hwAligned - t.hw);
        first_ = t.groupsPerCore * GetBlockIdx();
        myGroups_ = first_ >= t.groups ? 0 : (t.groups - first_ < t.groupsPerCore ? t.groups - first_ : t.groupsPerCore);
        groupsPerSample_ = t.channels / t.chPerGroup;
        xGm.SetGlobalBuffer((__gm__ float*)x + static_cast<uint64_t>(first_) * count, static_cast<uint64_t>(myGroups_) * count);
        yGm.SetGlobalBuffer((__gm__ float*)y + static_cast<uint64_t>(first_) * count, static_cast<uint64_t>(myGroups_) * count);
        gammaGm.SetGlobalBuffer((__gm__ float*)gamma, t.channels);
        betaGm.SetGlobalBuffer((__gm__ float*)beta, t.channels);
        const uint32_t tileElems = t.chPerGroup * t.hwAligned;
        pipe.InitBuffer(inQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, tileElems * sizeof(float));
        pipe.InitBuffer(tmpBuf, tileElems * sizeof(float));
        pipe.InitBuffer(workBuf, WORK_FLOATS * sizeof(float));
        pipe.InitBuffer(scalarBuf, 8 * sizeof(float));
        pipe.InitBuffer(paramBuf, 2 * ((t.channels + 7) / 8 * 8) * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (myGroups_ == 0) return;
        LoadParams();
        for (uint32_t g = 0; g < myGroups_; ++g) {
            CopyIn(g);
            Compute(first_ + g);
            CopyOut(g);
        }
    }

  private:
    __aicore__ inline void LoadParams() {
        const uint32_t cA = (channels_ + 7) / 8 * 8;
        gamma_ = paramBuf.Get<float>();
        beta_ = gamma_[cA];
        DataCopyExtParams params{1, static_cast<uint32_t>(channels_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(gamma_, gammaGm, params, pad);
        DataCopyPad(beta_, betaGm, params, pad);
        const auto ev = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
        SetFlag<HardEvent::MTE2_S>(ev);
        WaitFlag<HardEvent::MTE2_S>(ev);
    }

    __aicore__ inline void CopyIn(uint32_t g) {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(chPerGroup_), static_cast<uint32_t>(hw_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(hwA_ - hw_), 0.0f};
        DataCopyPad(xLocal, xGm[static_cast<uint64_t>(g) * chPerGroup_ * hw_], params, pad);
        inQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t group) {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> scalar = scalarBuf.Get<float>();
        const int32_t len = static_cast<int32_t>(chPerGroup_ * hwA_);
        const int32_t hwA = static_cast<int32_t>(hwA_);

        ReduceSum(scalar, xLocal, work, len);
        const float mean = ReadScalar(scalar) * invCount_;
        Adds(tmp, xLocal, -mean, len);
        Mul(yLocal, tmp, tmp, len);
        ReduceSum(scalar, yLocal, work, len);
        const float ss = ReadScalar(scalar);
        // The padding lanes were 0, so they contributed mean^2 each to the centred squares.
        const float var = (ss - static_cast<float>(padCount_) * mean * mean) * invCount_;
        scalar.SetValue(0, var + eps_);
        const auto evSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        Rsqrt(scalar, scalar, 1);
        const float rstd = ReadScalar(scalar);

        const uint32_t ch0 = (group % groupsPerSample_) * chPerGroup_;
        for (uint32_t k = 0; k < chPerGroup_; ++k) {
            const uint32_t ch = ch0 + k;
            LocalTensor<float> yk = yLocal[k * hwA_];
            Muls(yk, tmp[k * hwA_], rstd * gamma_.GetValue(ch), hwA);
            Adds(yk, yk, beta_.GetValue(ch), hwA);
        }
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

    __aicore__ inline void CopyOut(uint32_t g) {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{static_cast<uint16_t>(chPerGroup_), static_cast<uint32_t>(hw_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[static_cast<uint64_t>(g) * chPerGroup_ * hw_], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> tmpBuf, workBuf, scalarBuf, paramBuf;
    GlobalTensor<float> xGm, yGm, gammaGm, betaGm;
    LocalTensor<float> gamma_, beta_;
    float eps_ = 0.0f;
    float invCount_ = 1.0f;
    uint32_t padCount_ = 0;
    uint32_t chPerGroup_ = 1;
    uint32_t channels_ = 1;
    uint32_t groupsPerSample_ = 1;
    uint32_t hw_ = 0;
    uint32_t hwA_ = 0;
    uint32_t first_ = 0;
    uint32_t myGroups_ = 0;
};

extern "C" __global__ __aicore__ void instance_norm_custom(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(InstanceNormTilingData, tilingData, tiling);
    KernelInstanceNorm op;
    op.Init(x, gamma, beta, y, tilingData);
    op.Process();
}

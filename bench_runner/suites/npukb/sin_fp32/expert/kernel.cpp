// sin_fp32, expert version: range reduction k = rint(x/pi) with a three-part pi, degree-11 odd polynomial (Horner), sign from the parity of k.
#include "kernel_operator.h"
#include "sin_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
// Cody-Waite split of pi: PI_A and PI_B have few significant bits, so k * PI_A and k * PI_B are
// exact for |k| < 8192 (|x| < 25000), and x - k * PI_A is exact.
constexpr float INV_PI = 0.318309886183790671f;
constexpr float PI_A = 3.140625f;
constexpr float PI_B = 9.67502593994140625e-4f;
constexpr float PI_C = 1.509957990978376432e-7f;
// sin(r) = r + r^3 * (S1 + r^2 * (S2 + r^2 * (S3 + r^2 * (S4 + r^2 * S5)))) on [-pi/2, pi/2].
constexpr float S1 = -1.66666666666666667e-1f;
constexpr float S2 = 8.33333333333333333e-3f;
constexpr float S3 = -1.98412698412698413e-4f;
constexpr float S4 = 2.75573192239858907e-6f;
constexpr float S5 = -2.50521083854417188e-8f;

class KernelSin {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SinTilingData& t) {
        const uint32_t start = t.blockLength * GetBlockIdx();
        length_ = start >= t.totalLength ? 0 : (t.totalLength - start < t.blockLength ? t.totalLength - start
                                                                                      : t.blockLength);
        tile_ = t.tileLength;
        xGm_.SetGlobalBuffer((__gm__ float*)x + start, length_);
        yGm_.SetGlobalBuffer((__gm__ float*)y + start, length_);
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, tile_ * sizeof(float));
        pipe_.InitBuffer(kBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(rBuf_, tile_ * sizeof(float));
        pipe_.InitBuffer(r2Buf_, tile_ * sizeof(float));
        pipe_.InitBuffer(pBuf_, tile_ * sizeof(float));
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
        LocalTensor<float> xLocal = xQue_.AllocTensor<float>();
        DataCopyPad(xLocal, xGm_[offset], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, float(0)});
        xQue_.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t n) {
        const int32_t cnt = static_cast<int32_t>(n);
        LocalTensor<float> xLocal = xQue_.DeQue<float>();
        LocalTensor<float> yLocal = yQue_.AllocTensor<float>();
        LocalTensor<float> k = kBuf_.Get<float>();
        LocalTensor<float> r = rBuf_.Get<float>();
        LocalTensor<float> r2 = r2Buf_.Get<float>();
        LocalTensor<float> p = pBuf_.Get<float>();
        // k = rint(x / pi), r = x - k * pi in [-pi/2, pi/2] (three-part pi, no precision loss).
        Muls(r, xLocal, INV_PI, cnt);
        Cast(k, r, RoundMode::CAST_RINT, n);
        Muls(r, k, PI_A, cnt);
        Sub(r, xLocal, r, cnt);
        Muls(p, k, PI_B, cnt);
        Sub(r, r, p, cnt);
        Muls(p, k, PI_C, cnt);
        Sub(r, r, p, cnt);
        Mul(r2, r, r, cnt);

        // sin(r): Horner in r^2.
        Muls(p, r2, S5, cnt);
        Adds(p, p, S4, cnt);
        Mul(p, p, r2, cnt);
        Adds(p, p, S3, cnt);
        Mul(p, p, r2, cnt);
        Adds(p, p, S2, cnt);
        Mul(p, p, r2, cnt);
        Adds(p, p, S1, cnt);
        Mul(p, p, r2, cnt);
        Mul(p, p, r, cnt);
        Add(p, p, r, cnt);

        // (-1)^k = 1 - 2 * (k - 2 * floor(k / 2)), built in r2 (r2 is no longer needed).
        Muls(r2, k, 0.5f, cnt);
        Cast(k, r2, RoundMode::CAST_FLOOR, n);
        Muls(k, k, -2.0f, cnt);
        Muls(r2, r2, 2.0f, cnt);
        Add(k, k, r2, cnt);
        Muls(k, k, -2.0f, cnt);
        Adds(k, k, 1.0f, cnt);
        Mul(yLocal, p, k, cnt);
        yQue_.EnQue<float>(yLocal);
        xQue_.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n) {
        LocalTensor<float> yLocal = yQue_.DeQue<float>();
        DataCopyPad(yGm_[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0});
        yQue_.FreeTensor(yLocal);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQue_;
    TBuf<QuePosition::VECCALC> kBuf_;
    TBuf<QuePosition::VECCALC> rBuf_;
    TBuf<QuePosition::VECCALC> r2Buf_;
    TBuf<QuePosition::VECCALC> pBuf_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t length_ = 0;
    uint32_t tile_ = 0;
};

extern "C" __global__ __aicore__ void sin_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SinTilingData, tilingData, tiling);
    KernelSin op;
    op.Init(x, y, tilingData);
    op.Process();
}

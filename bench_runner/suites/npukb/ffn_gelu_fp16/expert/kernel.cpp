// ffn_gelu_fp16, expert version: a MIX kernel (1 AIC + 2 AIV per block); a block owns whole row
// blocks of baseM rows.
//
// Per row block: (1) AIC: pre = x_rows @ w1 in column chunks of baseN (the matmul cube path:
// stepK slices GM -> L1 with Nd2Nz, baseK pieces into L0A / L0B, Mmad into L0C, Fixpipe as float
// into the block's pre area, row stride fPad), flag READY. (2) AIV: wait READY; its half of the
// rows, rowChunk rows at a time: + b1, GELU (x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3))),
// Cast to half into the hidden area; flag DONE. (3) AIC: waits for DONE from both AIVs, then
// y_rows = hidden @ w2 with the same cube path, Fixpipe F322F16 into y. The AIC only writes the
// pre area of the next row block after it has read this block's hidden area, and the AIVs only
// write the hidden area after the next READY, so the two areas need no extra flags.
#include "kernel_operator.h"
#include "ffn_tiling.h"

using namespace AscendC;

constexpr uint16_t FLAG_READY = 1;
constexpr uint16_t FLAG_DONE = 2;

__aicore__ inline uint32_t Up16(uint32_t x) { return (x + 15) / 16 * 16; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

class CubePart {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w1, GM_ADDR w2, GM_ADDR y, GM_ADDR ws, const FfnTilingData& t) {
        t_ = t;
        xGm.SetGlobalBuffer((__gm__ half*)x, static_cast<uint64_t>(t.M) * t.H);
        w1Gm.SetGlobalBuffer((__gm__ half*)w1, static_cast<uint64_t>(t.H) * t.F);
        w2Gm.SetGlobalBuffer((__gm__ half*)w2, static_cast<uint64_t>(t.F) * t.H);
        yGm.SetGlobalBuffer((__gm__ half*)y, static_cast<uint64_t>(t.M) * t.H);
        const uint64_t area = static_cast<uint64_t>(t.baseM) * t.fPad;
        preGm.SetGlobalBuffer((__gm__ float*)ws + GetBlockIdx() * area, area);
        hidGm.SetGlobalBuffer((__gm__ half*)((__gm__ float*)ws + t.usedCores * area) + GetBlockIdx() * area, area);
        pipe.InitBuffer(qA1, 2, t.baseM * t.stepK * sizeof(half));
        pipe.InitBuffer(qB1, 2, t.stepK * t.baseN * sizeof(half));
        pipe.InitBuffer(qA2, 2, t.baseM * t.baseK * sizeof(half));
        pipe.InitBuffer(qB2, 2, t.baseK * t.baseN * sizeof(half));
        pipe.InitBuffer(qC, 2, t.baseM * t.baseN * sizeof(float));
    }

    __aicore__ inline void Process() {
        for (uint32_t mt = GetBlockIdx(); mt < t_.mTiles; mt += t_.usedCores) {
            const uint32_t m0 = mt * t_.baseM, mLen = Min(t_.M - m0, t_.baseM);
            // (1) pre = x_rows @ w1 (float, row stride fPad)
            for (uint32_t n0 = 0; n0 < t_.F; n0 += t_.baseN) {
                const uint32_t nLen = Min(t_.F - n0, t_.baseN);
                LocalTensor<float> c1 = qC.AllocTensor<float>();
                Product(c1, xGm[static_cast<uint64_t>(m0) * t_.H], t_.H, w1Gm[n0], t_.F, mLen, nLen, t_.H);
                qC.EnQue(c1);
                c1 = qC.DeQue<float>();
                Fixpipe(preGm[n0], c1, FixpipeParamsV220(nLen, mLen, Up16(mLen), t_.fPad, false));
                qC.FreeTensor(c1);
            }
            CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY);
            CrossCoreWaitFlag(FLAG_DONE);  // both AIVs wrote the hidden rows
            // (3) y_rows = hidden @ w2 (half out)
            for (uint32_t n0 = 0; n0 < t_.H; n0 += t_.baseN) {
                const uint32_t nLen = Min(t_.H - n0, t_.baseN);
                LocalTensor<float> c1 = qC.AllocTensor<float>();
                Product(c1, hidGm, t_.fPad, w2Gm[n0], t_.H, mLen, nLen, t_.F);
                qC.EnQue(c1);
                c1 = qC.DeQue<float>();
                FixpipeParamsV220 fp(nLen, mLen, Up16(mLen), t_.H, false);
                fp.quantPre = QuantMode_t::F322F16;
                Fixpipe(yGm[static_cast<uint64_t>(m0) * t_.H + n0], c1, fp);
                qC.FreeTensor(c1);
            }
        }
    }

  private:
    // c1 = A (mLen x K, row stride lda) @ B (K x nLen, row stride ldb), both half in GM.
    __aicore__ inline void Product(LocalTensor<float>& c1, const GlobalTensor<half>& a, uint32_t lda,
                                   const GlobalTensor<half>& b, uint32_t ldb, uint32_t mLen, uint32_t nLen, uint32_t K) {
        const uint32_t m1 = Up16(mLen) / 16, n1 = Up16(nLen) / 16;
        for (uint32_t kc = 0; kc < K; kc += t_.stepK) {
            const uint32_t kLen = Min(K - kc, t_.stepK), kBlocks = Up16(kLen) / 16;
            LocalTensor<half> a1 = qA1.AllocTensor<half>();
            LocalTensor<half> b1 = qB1.AllocTensor<half>();
            DataCopy(a1, a[kc], Nd2NzParams(1, mLen, kLen, 0, lda, Up16(mLen), 1, 0));
            DataCopy(b1, b[static_cast<uint64_t>(kc) * ldb], Nd2NzParams(1, kLen, nLen, 0, ldb, Up16(kLen), 1, 0));
            qA1.EnQue(a1);
            qB1.EnQue(b1);
            a1 = qA1.DeQue<half>();
            b1 = qB1.DeQue<half>();
            for (uint32_t kb = 0; kb < kLen; kb += t_.baseK) {
                const uint32_t kbLen = Min(kLen - kb, t_.baseK), kb1 = Up16(kbLen) / 16, kbStart = kb / 16;
                LocalTensor<half> a2 = qA2.AllocTensor<half>();
                for (uint32_t r = 0; r < m1; ++r) {
                    LoadData(a2[r * kb1 * 256], a1, LoadData2DParams(kbStart * m1 + r, kb1, m1, 0, 0, false, 0));
                }
                LocalTensor<half> b2 = qB2.AllocTensor<half>();
                for (uint32_t j = 0; j < kb1; ++j) {
                    LoadData(b2[j * n1 * 256], b1, LoadData2DParams(kbStart + j, n1, kBlocks, 0, 0, true, 0));
                }
                qA2.EnQue(a2);
                qB2.EnQue(b2);
                a2 = qA2.DeQue<half>();
                b2 = qB2.DeQue<half>();
                MmadParams mp;
                mp.m = mLen;
                mp.n = nLen;
                mp.k = kbLen;
                mp.cmatrixInitVal = (kc == 0 && kb == 0);
                Mmad(c1, a2, b2, mp);
                qA2.FreeTensor(a2);
                qB2.FreeTensor(b2);
            }
            qA1.FreeTensor(a1);
            qB1.FreeTensor(b1);
        }
    }

    TPipe pipe;
    TQue<TPosition::A1, 2> qA1;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 2> qA2;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 2> qC;
    GlobalTensor<half> xGm, w1Gm, w2Gm, yGm, hidGm;
    GlobalTensor<float> preGm;
    FfnTilingData t_;
};

class VecPart {
  public:
    __aicore__ inline void Init(GM_ADDR b1, GM_ADDR ws, const FfnTilingData& t) {
        t_ = t;
        block_ = GetBlockIdx() / GetTaskRatio();
        sub_ = GetSubBlockIdx();
        const uint64_t area = static_cast<uint64_t>(t.baseM) * t.fPad;
        b1Gm.SetGlobalBuffer((__gm__ half*)b1, t.F);
        preGm.SetGlobalBuffer((__gm__ float*)ws + block_ * area, area);
        hidGm.SetGlobalBuffer((__gm__ half*)((__gm__ float*)ws + t.usedCores * area) + block_ * area, area);
        const uint32_t chunk = t.rowChunk * t.fPad;
        pipe.InitBuffer(qIn, 2, chunk * sizeof(float));
        pipe.InitBuffer(qOut, 2, chunk * sizeof(half));
        pipe.InitBuffer(tmpBuf, chunk * sizeof(float));
        pipe.InitBuffer(biasHBuf, t.fPad * sizeof(half));
        pipe.InitBuffer(biasBuf, t.fPad * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (block_ >= t_.mTiles) return;
        // b1 as float, once
        LocalTensor<half> biasH = biasHBuf.Get<half>();
        LocalTensor<float> biasF = biasBuf.Get<float>();
        DataCopyPad(biasH, b1Gm, DataCopyExtParams(1, t_.F * sizeof(half), 0, 0, 0),
                    DataCopyPadExtParams<half>(true, 0, static_cast<uint8_t>(t_.fPad - t_.F), half(0.0f)));
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Cast(biasF, biasH, RoundMode::CAST_NONE, t_.fPad);
        for (uint32_t mt = block_; mt < t_.mTiles; mt += t_.usedCores) {
            const uint32_t m0 = mt * t_.baseM, mLen = Min(t_.M - m0, t_.baseM);
            const uint32_t upper = (mLen + 1) / 2;
            const uint32_t r0 = sub_ == 0 ? 0 : upper, rows = sub_ == 0 ? upper : mLen - upper;
            CrossCoreWaitFlag(FLAG_READY);
            for (uint32_t r = 0; r < rows; r += t_.rowChunk) {
                const uint32_t nr = Min(rows - r, t_.rowChunk);
                CopyIn(r0 + r, nr);
                Compute(nr, biasF);
                CopyOut(r0 + r, nr);
            }
            CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_DONE);
        }
    }

  private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t nr) {
        LocalTensor<float> x = qIn.AllocTensor<float>();
        DataCopyExtParams p(static_cast<uint16_t>(nr), t_.F * sizeof(float), (t_.fPad - t_.F) * sizeof(float), 0, 0);
        DataCopyPad(x, preGm[static_cast<uint64_t>(row) * t_.fPad], p, DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        qIn.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t nr, const LocalTensor<float>& biasF) {
        LocalTensor<float> x = qIn.DeQue<float>();
        LocalTensor<half> out = qOut.AllocTensor<half>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        const uint32_t inRow = (t_.F + 7) / 8 * 8;  // UB rows of DataCopyPad: 32-byte padded
        const int32_t n = static_cast<int32_t>(nr * inRow);
        for (uint32_t r = 0; r < nr; ++r) {
            Add(x[r * inRow], x[r * inRow], biasF, static_cast<int32_t>(inRow));
        }
        Mul(t, x, x, n);
        Muls(t, t, 0.044715f, n);
        Adds(t, t, 1.0f, n);
        Mul(t, t, x, n);
        Muls(t, t, -1.5957691216f, n);
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);
        Div(x, x, t, n);
        for (uint32_t r = 0; r < nr; ++r) {  // half rows of fPad (32-byte aligned)
            Cast(out[r * t_.fPad], x[r * inRow], RoundMode::CAST_RINT, static_cast<int32_t>(t_.F));
        }
        qOut.EnQue(out);
        qIn.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t nr) {
        LocalTensor<half> out = qOut.DeQue<half>();
        DataCopyExtParams p(static_cast<uint16_t>(nr), t_.F * sizeof(half), 0, (t_.fPad - t_.F) * sizeof(half), 0);
        DataCopyPad(hidGm[static_cast<uint64_t>(row) * t_.fPad], out, p);
        qOut.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> qIn;
    TQue<TPosition::VECOUT, 2> qOut;
    TBuf<TPosition::VECCALC> tmpBuf, biasHBuf, biasBuf;
    GlobalTensor<half> b1Gm, hidGm;
    GlobalTensor<float> preGm;
    FfnTilingData t_;
    uint32_t block_ = 0, sub_ = 0;
};

extern "C" __global__ __aicore__ void ffn_gelu_custom(GM_ADDR x, GM_ADDR w1, GM_ADDR b1, GM_ADDR w2, GM_ADDR y,
                                                      GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(FfnTilingData, tilingData, tiling);
    GM_ADDR ws = GetUserWorkspace(workspace);
    if ASCEND_IS_AIC {
        CubePart op;
        op.Init(x, w1, w2, y, ws, tilingData);
        op.Process();
    }
    if ASCEND_IS_AIV {
        VecPart op;
        op.Init(b1, ws, tilingData);
        op.Process();
    }
}

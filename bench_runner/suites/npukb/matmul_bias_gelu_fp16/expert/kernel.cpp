// matmul_bias_gelu_fp16, expert version: a MIX kernel (1 AIC + 2 AIV per block).
//
// AIC: for each of its output tiles (baseM x baseN), the cube path of the matmul task — K steps
// GM -> L1 (Nd2Nz), L1 -> L0A / L0B (LoadData, B transposed per fractal), Mmad accumulating in
// L0C — then Fixpipe writes the float tile into one of two workspace slots of the block and
// raises flag READY. Before reusing a slot it waits for flag FREE from both AIVs.
// AIV: waits for READY, takes half the tile's rows (AIV 0 the upper, AIV 1 the lower half) in
// chunks of rowChunk rows: DataCopyPad in (rows padded to 8 floats), + bias, GELU as
// x * sigmoid(2 * sqrt(2 / pi) * (x + 0.044715 x^3)) (= the tanh form), Cast to half, DataCopyPad
// out; then raises FREE. Vector queues are double buffered.
#include "kernel_operator.h"
#include "mm_gelu_tiling.h"

using namespace AscendC;

constexpr uint16_t FLAG_READY = 1;
constexpr uint16_t FLAG_FREE = 2;

__aicore__ inline uint32_t Up16(uint32_t x) { return (x + 15) / 16 * 16; }
__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }

class CubePart {
  public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR ws, const MatmulGeluTilingData& t) {
        t_ = t;
        aGm.SetGlobalBuffer((__gm__ half*)a, static_cast<uint64_t>(t.M) * t.K);
        bGm.SetGlobalBuffer((__gm__ half*)b, static_cast<uint64_t>(t.K) * t.N);
        wsGm.SetGlobalBuffer((__gm__ float*)ws + static_cast<uint64_t>(GetBlockIdx()) * 2 * t.baseM * t.baseN,
                             2 * t.baseM * t.baseN);
        pipe.InitBuffer(qA1, 2, t.baseM * t.stepK * sizeof(half));
        pipe.InitBuffer(qB1, 2, t.stepK * t.baseN * sizeof(half));
        pipe.InitBuffer(qA2, 2, t.baseM * t.baseK * sizeof(half));
        pipe.InitBuffer(qB2, 2, t.baseK * t.baseN * sizeof(half));
        pipe.InitBuffer(qC, 1, t.baseM * t.baseN * sizeof(float));
    }

    __aicore__ inline void Process() {
        const uint32_t tiles = t_.mTiles * t_.nTiles;
        uint32_t i = 0;
        for (uint32_t tile = GetBlockIdx(); tile < tiles; tile += t_.usedCores, ++i) {
            if (i >= 2) CrossCoreWaitFlag(FLAG_FREE);  // both AIVs are done with slot i % 2
            Tile(tile / t_.nTiles, tile % t_.nTiles, i % 2);
            CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY);
        }
        for (uint32_t left = i < 2 ? i : 2; left > 0; --left) CrossCoreWaitFlag(FLAG_FREE);
    }

  private:
    __aicore__ inline void Tile(uint32_t mt, uint32_t nt, uint32_t slot) {
        const uint32_t m0 = mt * t_.baseM, n0 = nt * t_.baseN;
        const uint32_t mLen = Min(t_.M - m0, t_.baseM), nLen = Min(t_.N - n0, t_.baseN);
        const uint32_t m1 = Up16(mLen) / 16, n1 = Up16(nLen) / 16;
        LocalTensor<float> c1 = qC.AllocTensor<float>();
        for (uint32_t kc = 0; kc < t_.K; kc += t_.stepK) {
            const uint32_t kLen = Min(t_.K - kc, t_.stepK);
            const uint32_t kBlocks = Up16(kLen) / 16;
            LocalTensor<half> a1 = qA1.AllocTensor<half>();
            LocalTensor<half> b1 = qB1.AllocTensor<half>();
            DataCopy(a1, aGm[static_cast<uint64_t>(m0) * t_.K + kc], Nd2NzParams(1, mLen, kLen, 0, t_.K, Up16(mLen), 1, 0));
            DataCopy(b1, bGm[static_cast<uint64_t>(kc) * t_.N + n0], Nd2NzParams(1, kLen, nLen, 0, t_.N, Up16(kLen), 1, 0));
            qA1.EnQue(a1);
            qB1.EnQue(b1);
            a1 = qA1.DeQue<half>();
            b1 = qB1.DeQue<half>();
            for (uint32_t kb = 0; kb < kLen; kb += t_.baseK) {
                const uint32_t kbLen = Min(kLen - kb, t_.baseK);
                const uint32_t kb1 = Up16(kbLen) / 16, kbStart = kb / 16;
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
        qC.EnQue(c1);
        c1 = qC.DeQue<float>();
        FixpipeParamsV220 fp;  // float tile, row stride baseN, into the workspace slot
        fp.nSize = nLen;
        fp.mSize = mLen;
        fp.srcStride = Up16(mLen);
        fp.dstStride = t_.baseN;
        fp.quantPre = QuantMode_t::NoQuant;
        Fixpipe(wsGm[static_cast<uint64_t>(slot) * t_.baseM * t_.baseN], c1, fp);
        qC.FreeTensor(c1);
    }

    TPipe pipe;
    TQue<TPosition::A1, 2> qA1;
    TQue<TPosition::B1, 2> qB1;
    TQue<TPosition::A2, 2> qA2;
    TQue<TPosition::B2, 2> qB2;
    TQue<TPosition::CO1, 1> qC;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> wsGm;
    MatmulGeluTilingData t_;
};

class VecPart {
  public:
    __aicore__ inline void Init(GM_ADDR bias, GM_ADDR y, GM_ADDR ws, const MatmulGeluTilingData& t) {
        t_ = t;
        block_ = GetBlockIdx() / GetTaskRatio();
        sub_ = GetSubBlockIdx();
        biasGm.SetGlobalBuffer((__gm__ half*)bias, t.N);
        yGm.SetGlobalBuffer((__gm__ half*)y, static_cast<uint64_t>(t.M) * t.N);
        wsGm.SetGlobalBuffer((__gm__ float*)ws + static_cast<uint64_t>(block_) * 2 * t.baseM * t.baseN,
                             2 * t.baseM * t.baseN);
        const uint32_t chunk = t.rowChunk * t.baseN;
        pipe.InitBuffer(qIn, 2, chunk * sizeof(float));
        pipe.InitBuffer(qOut, 2, chunk * sizeof(half));
        pipe.InitBuffer(tmpBuf, chunk * sizeof(float));
        pipe.InitBuffer(biasHBuf, t.baseN * sizeof(half));
        pipe.InitBuffer(biasBuf, t.baseN * sizeof(float));
    }

    __aicore__ inline void Process() {
        const uint32_t tiles = t_.mTiles * t_.nTiles;
        uint32_t i = 0;
        for (uint32_t tile = block_; tile < tiles; tile += t_.usedCores, ++i) {
            CrossCoreWaitFlag(FLAG_READY);
            Tile(tile / t_.nTiles, tile % t_.nTiles, i % 2);
            CrossCoreSetFlag<2, PIPE_MTE2>(FLAG_FREE);  // after this core's last read of the slot
        }
    }

  private:
    __aicore__ inline void Tile(uint32_t mt, uint32_t nt, uint32_t slot) {
        const uint32_t m0 = mt * t_.baseM, n0 = nt * t_.baseN;
        const uint32_t mLen = Min(t_.M - m0, t_.baseM), nLen = Min(t_.N - n0, t_.baseN);
        const uint32_t upper = (mLen + 1) / 2;
        const uint32_t r0 = sub_ == 0 ? 0 : upper;
        const uint32_t rows = sub_ == 0 ? upper : mLen - upper;
        if (rows == 0) return;
        const uint32_t rowPad = Up16(nLen);  // halves per output UB row (32-byte rows)
        // bias[n0 : n0 + nLen] as float
        LocalTensor<half> biasH = biasHBuf.Get<half>();
        LocalTensor<float> biasF = biasBuf.Get<float>();
        DataCopyPad(biasH, biasGm[n0], DataCopyExtParams(1, nLen * sizeof(half), 0, 0, 0),
                    DataCopyPadExtParams<half>(true, 0, static_cast<uint8_t>(rowPad - nLen), half(0.0f)));
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Cast(biasF, biasH, RoundMode::CAST_NONE, rowPad);
        for (uint32_t r = 0; r < rows; r += t_.rowChunk) {
            const uint32_t nr = Min(rows - r, t_.rowChunk);
            const uint32_t row = m0 + r0 + r;  // first output row of the chunk
            CopyIn(slot, r0 + r, nr, nLen);
            Compute(nr, nLen, rowPad, biasF);
            CopyOut(row, n0, nr, nLen);
        }
    }

    // Rows of nLen floats from the workspace slot; in UB each row is padded to 8 floats (32 bytes).
    __aicore__ inline void CopyIn(uint32_t slot, uint32_t tileRow, uint32_t nr, uint32_t nLen) {
        LocalTensor<float> x = qIn.AllocTensor<float>();
        DataCopyExtParams p(static_cast<uint16_t>(nr), nLen * sizeof(float), (t_.baseN - nLen) * sizeof(float), 0, 0);
        DataCopyPad(x, wsGm[static_cast<uint64_t>(slot) * t_.baseM * t_.baseN + static_cast<uint64_t>(tileRow) * t_.baseN],
                    p, DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
        qIn.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t nr, uint32_t nLen, uint32_t rowPad, const LocalTensor<float>& biasF) {
        LocalTensor<float> x = qIn.DeQue<float>();
        LocalTensor<half> out = qOut.AllocTensor<half>();
        LocalTensor<float> t = tmpBuf.Get<float>();
        const uint32_t inRow = (nLen + 7) / 8 * 8;
        const int32_t n = static_cast<int32_t>(nr * inRow);
        for (uint32_t r = 0; r < nr; ++r) {
            Add(x[r * inRow], x[r * inRow], biasF, static_cast<int32_t>(inRow));
        }
        // gelu(x) = x / (1 + exp(-2 * sqrt(2 / pi) * (x + 0.044715 x^3)))
        Mul(t, x, x, n);
        Muls(t, t, 0.044715f, n);
        Adds(t, t, 1.0f, n);
        Mul(t, t, x, n);
        Muls(t, t, -1.5957691216f, n);
        Exp(t, t, n);
        Adds(t, t, 1.0f, n);
        Div(x, x, t, n);
        for (uint32_t r = 0; r < nr; ++r) {  // half rows padded to 16 for the 32-byte output rows
            Cast(out[r * rowPad], x[r * inRow], RoundMode::CAST_RINT, static_cast<int32_t>(nLen));
        }
        qOut.EnQue(out);
        qIn.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t n0, uint32_t nr, uint32_t nLen) {
        LocalTensor<half> out = qOut.DeQue<half>();
        DataCopyExtParams p(static_cast<uint16_t>(nr), nLen * sizeof(half), 0, (t_.N - nLen) * sizeof(half), 0);
        DataCopyPad(yGm[static_cast<uint64_t>(row) * t_.N + n0], out, p);
        qOut.FreeTensor(out);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, 2> qIn;
    TQue<TPosition::VECOUT, 2> qOut;
    TBuf<TPosition::VECCALC> tmpBuf, biasHBuf, biasBuf;
    GlobalTensor<half> biasGm, yGm;
    GlobalTensor<float> wsGm;
    MatmulGeluTilingData t_;
    uint32_t block_ = 0, sub_ = 0;
};

extern "C" __global__ __aicore__ void matmul_bias_gelu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MatmulGeluTilingData, tilingData, tiling);
    GM_ADDR ws = GetUserWorkspace(workspace);
    if ASCEND_IS_AIC {
        CubePart op;
        op.Init(a, b, ws, tilingData);
        op.Process();
    }
    if ASCEND_IS_AIV {
        VecPart op;
        op.Init(bias, y, ws, tilingData);
        op.Process();
    }
}

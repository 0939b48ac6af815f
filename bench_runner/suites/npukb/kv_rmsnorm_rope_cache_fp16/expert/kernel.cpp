// kv_rmsnorm_rope_cache_fp16, expert version. Tokens are split over cores, processed in tiles
// of tokenTile tokens. k, cos and sin are copied in as half-rows: every D/2 run lands on its
// own 32-byte-aligned UB slot of halfAligned elements (zero padded), so the rotate-half pairs
// (x1, x2) are separate aligned vectors for any even D. In float: squares, one ReduceSum per
// head row written straight into a vector of row sums, then mean + eps, Sqrt and a Div turn
// them into 1/rms for the whole tile at once; each row is scaled (Muls), multiplied by gamma and
// rotated (Mul/Sub/Add on the halves). The result is cast to half and scattered to
// k_cache[slot] with one DataCopyPad per token; v goes through a VECIN->VECOUT bound queue to
// v_cache[slot]. Tokens with a negative slot are skipped.
#include "kernel_operator.h"
#include "kv_rmsnorm_rope_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelKvRmsNormRope {
  public:
    __aicore__ inline void Init(GM_ADDR k, GM_ADDR v, GM_ADDR gamma, GM_ADDR cos, GM_ADDR sin, GM_ADDR slots,
                                GM_ADDR kCache, GM_ADDR vCache, const KvRmsNormRopeTilingData& t) {
        t_ = t;
        tok0_ = t.tokensPerCore * GetBlockIdx();
        ntok_ = tok0_ >= t.tokens ? 0 : (t.tokens - tok0_ < t.tokensPerCore ? t.tokens - tok0_ : t.tokensPerCore);
        const uint32_t hd = t.heads * t.headDim;
        kGm.SetGlobalBuffer((__gm__ half*)k, t.tokens * hd);
        vGm.SetGlobalBuffer((__gm__ half*)v, t.tokens * hd);
        gGm.SetGlobalBuffer((__gm__ half*)gamma, t.headDim);
        cosGm.SetGlobalBuffer((__gm__ half*)cos, t.tokens * t.headDim);
        sinGm.SetGlobalBuffer((__gm__ half*)sin, t.tokens * t.headDim);
        slotGm.SetGlobalBuffer((__gm__ int32_t*)slots, t.tokens);
        kcGm.SetGlobalBuffer((__gm__ half*)kCache, t.slots * hd);
        vcGm.SetGlobalBuffer((__gm__ half*)vCache, t.slots * hd);
        ra_ = 2 * t.halfAligned;
        const uint32_t tileRows = t.tokenTile * t.heads;
        pipe.InitBuffer(kInQ, BUFFER_NUM, tileRows * ra_ * sizeof(half));
        pipe.InitBuffer(csInQ, BUFFER_NUM, 2 * t.tokenTile * ra_ * sizeof(half));
        pipe.InitBuffer(kOutQ, BUFFER_NUM, tileRows * ra_ * sizeof(half));
        pipe.InitBuffer(vQ, BUFFER_NUM, t.tokenTile * t.vRowAligned * sizeof(half));
        pipe.InitBuffer(xBuf, tileRows * ra_ * sizeof(float));
        pipe.InitBuffer(oBuf, tileRows * ra_ * sizeof(float));
        pipe.InitBuffer(csBuf, 2 * t.tokenTile * ra_ * sizeof(float));
        pipe.InitBuffer(gammaBuf, ra_ * (sizeof(float) + sizeof(half)));
        pipe.InitBuffer(tmpBuf, ra_ * sizeof(float));
        pipe.InitBuffer(sumBuf, 2 * ((tileRows + 7) / 8 * 8) * sizeof(float));
        pipe.InitBuffer(workBuf, ra_ * sizeof(float));
        pipe.InitBuffer(slotBuf, (t.tokensPerCore + 7) / 8 * 8 * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        if (ntok_ == 0) return;
        Prepare();
        for (uint32_t t0 = 0; t0 < ntok_; t0 += t_.tokenTile) {
            const uint32_t nt = ntok_ - t0 < t_.tokenTile ? ntok_ - t0 : t_.tokenTile;
            CopyIn(t0, nt);
            Compute(nt);
            CopyOut(t0, nt);
        }
    }

  private:
    // Copy `count` head-dim vectors from GM into UB as 2*count aligned half-rows.
    __aicore__ inline void CopyHalves(const LocalTensor<half>& dst, const GlobalTensor<half>& src, uint32_t count) {
        DataCopyExtParams p{static_cast<uint16_t>(2 * count), static_cast<uint32_t>(t_.halfDim * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{true, 0, static_cast<uint8_t>(t_.halfAligned - t_.halfDim), static_cast<half>(0.0f)};
        DataCopyPad(dst, src, p, pad);
    }

    __aicore__ inline void Prepare() {
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<half> gh = gammaBuf.Get<half>()[2 * ra_];
        LocalTensor<int32_t> slots = slotBuf.Get<int32_t>();
        CopyHalves(gh, gGm, 1);
        DataCopyExtParams sp{1, static_cast<uint32_t>(ntok_ * sizeof(int32_t)), 0, 0, 0};
        DataCopyPadExtParams<int32_t> spad{false, 0, 0, 0};
        DataCopyPad(slots, slotGm[tok0_], sp, spad);
        const auto eMV = GetTPipePtr()->FetchEventID(HardEvent::MTE2_V);
        SetFlag<HardEvent::MTE2_V>(eMV);
        WaitFlag<HardEvent::MTE2_V>(eMV);
        Cast(g, gh, RoundMode::CAST_NONE, static_cast<int32_t>(ra_));
        const auto eMS = GetTPipePtr()->FetchEventID(HardEvent::MTE2_S);
        SetFlag<HardEvent::MTE2_S>(eMS);
        WaitFlag<HardEvent::MTE2_S>(eMS);
    }

    __aicore__ inline void CopyIn(uint32_t t0, uint32_t nt) {
        const uint32_t hd = t_.heads * t_.headDim;
        LocalTensor<half> kIn = kInQ.AllocTensor<half>();
        CopyHalves(kIn, kGm[(tok0_ + t0) * hd], nt * t_.heads);
        kInQ.EnQue(kIn);
        LocalTensor<half> cs = csInQ.AllocTensor<half>();
        CopyHalves(cs, cosGm[(tok0_ + t0) * t_.headDim], nt);
        CopyHalves(cs[t_.tokenTile * ra_], sinGm[(tok0_ + t0) * t_.headDim], nt);
        csInQ.EnQue(cs);
        LocalTensor<half> vt = vQ.AllocTensor<half>();
        DataCopyExtParams vp{static_cast<uint16_t>(nt), static_cast<uint32_t>(hd * sizeof(half)), 0,
                             static_cast<uint32_t>((t_.vRowAligned - (hd + 15) / 16 * 16) / 16), 0};
        DataCopyPadExtParams<half> vpad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(vt, vGm[(tok0_ + t0) * hd], vp, vpad);
        vQ.EnQue(vt);
    }

    __aicore__ inline void Compute(uint32_t nt) {
        LocalTensor<half> kIn = kInQ.DeQue<half>();
        LocalTensor<half> cs = csInQ.DeQue<half>();
        LocalTensor<half> kOut = kOutQ.AllocTensor<half>();
        LocalTensor<float> x = xBuf.Get<float>();
        LocalTensor<float> o = oBuf.Get<float>();
        LocalTensor<float> cf = csBuf.Get<float>();
        LocalTensor<float> sf = cf[t_.tokenTile * ra_];
        LocalTensor<float> g = gammaBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> sums = sumBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        const uint32_t rows = nt * t_.heads;
        const uint32_t ha = t_.halfAligned;
        const int32_t n = static_cast<int32_t>(rows * ra_);
        const int32_t ra = static_cast<int32_t>(ra_);
        const int32_t h = static_cast<int32_t>(ha);
        Cast(x, kIn, RoundMode::CAST_NONE, n);
        Cast(cf, cs, RoundMode::CAST_NONE, static_cast<int32_t>(nt * ra_));
        Cast(sf, cs[t_.tokenTile * ra_], RoundMode::CAST_NONE, static_cast<int32_t>(nt * ra_));
        kInQ.FreeTensor(kIn);
        csInQ.FreeTensor(cs);
        // 1 / rms of every head row, as a vector (padding lanes are zero and add nothing).
        Mul(o, x, x, n);
        for (uint32_t r = 0; r < rows; ++r) ReduceSum(sums[r], o[r * ra_], work, ra);
        const int32_t rr = static_cast<int32_t>(rows);
        const uint32_t rowsAligned = (rows + 7) / 8 * 8;
        LocalTensor<float> ones = sums[rowsAligned];
        Duplicate(ones, 1.0f, rr);
        Muls(sums, sums, 1.0f / static_cast<float>(t_.headDim), rr);
        Adds(sums, sums, t_.epsilon, rr);
        Sqrt(sums, sums, rr);
        Div(sums, ones, sums, rr);
        const auto eVS = GetTPipePtr()->FetchEventID(HardEvent::V_S);
        SetFlag<HardEvent::V_S>(eVS);
        WaitFlag<HardEvent::V_S>(eVS);
        for (uint32_t r = 0; r < rows; ++r) {
            const uint32_t tok = r / t_.heads;
            LocalTensor<float> xr = x[r * ra_];
            LocalTensor<float> orow = o[r * ra_];
            LocalTensor<float> c = cf[tok * ra_];
            LocalTensor<float> s = sf[tok * ra_];
            Muls(xr, xr, sums.GetValue(r), ra);
            Mul(xr, xr, g, ra);
            // rotate half: o1 = x1 c1 - x2 s1, o2 = x2 c2 + x1 s2
            Mul(orow, xr, c, ra);
            Mul(tmp, xr[ha], s, h);
            Mul(tmp[ha], xr, s[ha], h);
            Sub(orow, orow, tmp, h);
            Add(orow[ha], orow[ha], tmp[ha], h);
        }
        Cast(kOut, o, RoundMode::CAST_RINT, n);
        kOutQ.EnQue<half>(kOut);
    }

    __aicore__ inline void CopyOut(uint32_t t0, uint32_t nt) {
        LocalTensor<half> kOut = kOutQ.DeQue<half>();
        LocalTensor<half> vt = vQ.DeQue<half>();
        LocalTensor<int32_t> slots = slotBuf.Get<int32_t>();
        const uint32_t hd = t_.heads * t_.headDim;
        DataCopyExtParams kp{static_cast<uint16_t>(2 * t_.heads), static_cast<uint32_t>(t_.halfDim * sizeof(half)), 0, 0, 0};
        DataCopyExtParams vp{1, static_cast<uint32_t>(hd * sizeof(half)), 0, 0, 0};
        for (uint32_t i = 0; i < nt; ++i) {
            const int32_t slot = slots.GetValue(t0 + i);
            if (slot < 0) continue;
            DataCopyPad(kcGm[static_cast<uint32_t>(slot) * hd], kOut[i * t_.heads * ra_], kp);
            DataCopyPad(vcGm[static_cast<uint32_t>(slot) * hd], vt[i * t_.vRowAligned], vp);
        }
        kOutQ.FreeTensor(kOut);
        vQ.FreeTensor(vt);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> kInQ, csInQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> kOutQ;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> vQ;
    TBuf<QuePosition::VECCALC> xBuf, oBuf, csBuf, gammaBuf, tmpBuf, sumBuf, workBuf, slotBuf;
    GlobalTensor<half> kGm, vGm, gGm, cosGm, sinGm, kcGm, vcGm;
    GlobalTensor<int32_t> slotGm;
    KvRmsNormRopeTilingData t_;
    uint32_t tok0_ = 0;
    uint32_t ntok_ = 0;
    uint32_t ra_ = 0;
};

extern "C" __global__ __aicore__ void kv_rmsnorm_rope_cache_custom(GM_ADDR k, GM_ADDR v, GM_ADDR gamma,
                                                                   GM_ADDR cos, GM_ADDR sin,
                                                                   GM_ADDR slot_mapping, GM_ADDR k_cache,
                                                                   GM_ADDR v_cache, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(KvRmsNormRopeTilingData, tilingData, tiling);
    KernelKvRmsNormRope op;
    op.Init(k, v, gamma, cos, sin, slot_mapping, k_cache, v_cache, tilingData);
    op.Process();
}

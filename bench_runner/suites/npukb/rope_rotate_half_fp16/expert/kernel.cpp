// rope_rotate_half_fp16, expert version. Per core, once: a Gather offset table that swaps the
// two halves of every head row (rotate_half as one Gather) and a sign row (-1 | +1). Per token:
// cos/sin are cast to float32, sin takes the sign, both are replicated over headsPerTile rows.
// Per tile of heads: Cast x to float32, Gather the rotated copy, y = x * cos + rot * sin_signed,
// Cast back with round-to-nearest, copy out. Double-buffered x / y queues.
#include "kernel_operator.h"
#include "rope_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRope {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y, const RopeTilingData& t) {
        heads_ = t.heads;
        dim_ = t.dim;
        dP_ = t.dimPadded;
        hp_ = t.headsPerTile;
        firstTok_ = t.tokensPerCore * GetBlockIdx();
        tokens_ = firstTok_ >= t.tokens ? 0
                                        : (t.tokens - firstTok_ < t.tokensPerCore ? t.tokens - firstTok_ : t.tokensPerCore);
        const uint64_t rowElems = static_cast<uint64_t>(heads_) * dim_;
        xGm.SetGlobalBuffer((__gm__ half*)x + firstTok_ * rowElems, tokens_ * rowElems);
        yGm.SetGlobalBuffer((__gm__ half*)y + firstTok_ * rowElems, tokens_ * rowElems);
        cosGm.SetGlobalBuffer((__gm__ half*)cos + static_cast<uint64_t>(firstTok_) * dim_, tokens_ * dim_);
        sinGm.SetGlobalBuffer((__gm__ half*)sin + static_cast<uint64_t>(firstTok_) * dim_, tokens_ * dim_);
        const uint32_t elems = hp_ * dP_;
        pipe.InitBuffer(xQueue, BUFFER_NUM, elems * sizeof(half));
        pipe.InitBuffer(yQueue, BUFFER_NUM, elems * sizeof(half));
        pipe.InitBuffer(csQueue, 1, 2 * dP_ * sizeof(half));
        pipe.InitBuffer(xfBuf, elems * sizeof(float));
        pipe.InitBuffer(rotBuf, elems * sizeof(float));
        pipe.InitBuffer(cRepBuf, elems * sizeof(float));
        pipe.InitBuffer(sRepBuf, elems * sizeof(float));
        pipe.InitBuffer(offBuf, elems * sizeof(uint32_t));
        pipe.InitBuffer(signBuf, dP_ * sizeof(float));
    }

    __aicore__ inline void Process() {
        if (tokens_ == 0) return;
        BuildTables();
        for (uint32_t t = 0; t < tokens_; ++t) {
            LoadCosSin(t);
            for (uint32_t h0 = 0; h0 < heads_; h0 += hp_) {
                const uint32_t hn = heads_ - h0 < hp_ ? heads_ - h0 : hp_;
                CopyIn(t, h0, hn);
                Compute(hn);
                CopyOut(t, h0, hn);
            }
        }
    }

  private:
    __aicore__ inline void BuildTables() {
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        LocalTensor<float> sign = signBuf.Get<float>();
        const uint32_t half = dim_ / 2;
        for (uint32_t j = 0; j < dP_; ++j) {
            // rotate_half: element j reads j + D/2 (first half) or j - D/2 (second half).
            const uint32_t src = j < half ? j + half : (j < dim_ ? j - half : j);
            offs.SetValue(j, static_cast<uint32_t>(src * sizeof(float)));
            sign.SetValue(j, j < half ? -1.0f : 1.0f);
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
        // Row h of the table = row 0 + h * dP floats (byte offsets), by doubling.
        LocalTensor<int32_t> offsI = offs.ReinterpretCast<int32_t>();
        const uint32_t total = hp_ * dP_;
        for (uint32_t len = dP_; len < total; len *= 2) {
            const uint32_t n = total - len < len ? total - len : len;
            Adds(offsI[len], offsI, static_cast<int32_t>(len * sizeof(float)), static_cast<int32_t>(n));
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void LoadCosSin(uint32_t t) {
        LocalTensor<half> cs = csQueue.AllocTensor<half>();
        DataCopyExtParams params{1, static_cast<uint32_t>(dim_ * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(cs, cosGm[static_cast<uint64_t>(t) * dim_], params, pad);
        DataCopyPad(cs[dP_], sinGm[static_cast<uint64_t>(t) * dim_], params, pad);
        csQueue.EnQue(cs);
        cs = csQueue.DeQue<half>();
        LocalTensor<float> cRep = cRepBuf.Get<float>();
        LocalTensor<float> sRep = sRepBuf.Get<float>();
        LocalTensor<float> sign = signBuf.Get<float>();
        const int32_t dp = static_cast<int32_t>(dP_);
        Cast(cRep, cs, RoundMode::CAST_NONE, dp);
        Cast(sRep, cs[dP_], RoundMode::CAST_NONE, dp);
        PipeBarrier<PIPE_V>();
        csQueue.FreeTensor(cs);
        Mul(sRep, sRep, sign, dp);
        PipeBarrier<PIPE_V>();
        const uint32_t rows = heads_ < hp_ ? heads_ : hp_;
        for (uint32_t have = 1; have < rows; have *= 2) {
            const uint32_t more = rows - have < have ? rows - have : have;
            Muls(cRep[have * dP_], cRep, 1.0f, static_cast<int32_t>(more * dP_));
            Muls(sRep[have * dP_], sRep, 1.0f, static_cast<int32_t>(more * dP_));
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void CopyIn(uint32_t t, uint32_t h0, uint32_t hn) {
        LocalTensor<half> xLocal = xQueue.AllocTensor<half>();
        DataCopyExtParams params{static_cast<uint16_t>(hn), static_cast<uint32_t>(dim_ * sizeof(half)), 0, 0, 0};
        DataCopyPadExtParams<half> pad{false, 0, 0, static_cast<half>(0.0f)};
        DataCopyPad(xLocal, xGm[(static_cast<uint64_t>(t) * heads_ + h0) * dim_], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t hn) {
        LocalTensor<half> xLocal = xQueue.DeQue<half>();
        LocalTensor<half> yLocal = yQueue.AllocTensor<half>();
        LocalTensor<float> xf = xfBuf.Get<float>();
        LocalTensor<float> rot = rotBuf.Get<float>();
        LocalTensor<float> cRep = cRepBuf.Get<float>();
        LocalTensor<float> sRep = sRepBuf.Get<float>();
        LocalTensor<uint32_t> offs = offBuf.Get<uint32_t>();
        const int32_t n = static_cast<int32_t>(hn * dP_);
        Cast(xf, xLocal, RoundMode::CAST_NONE, n);
        PipeBarrier<PIPE_V>();
        Gather(rot, xf, offs, 0, static_cast<uint32_t>(n));
        Mul(xf, xf, cRep, n);
        PipeBarrier<PIPE_V>();
        Mul(rot, rot, sRep, n);
        PipeBarrier<PIPE_V>();
        Add(xf, xf, rot, n);
        PipeBarrier<PIPE_V>();
        Cast(yLocal, xf, RoundMode::CAST_RINT, n);
        yQueue.EnQue<half>(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t t, uint32_t h0, uint32_t hn) {
        LocalTensor<half> yLocal = yQueue.DeQue<half>();
        DataCopyExtParams params{static_cast<uint16_t>(hn), static_cast<uint32_t>(dim_ * sizeof(half)), 0, 0, 0};
        DataCopyPad(yGm[(static_cast<uint64_t>(t) * heads_ + h0) * dim_], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECIN, 1> csQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> xfBuf, rotBuf, cRepBuf, sRepBuf, offBuf, signBuf;
    GlobalTensor<half> xGm, yGm, cosGm, sinGm;
    uint32_t heads_ = 0, dim_ = 0, dP_ = 0, hp_ = 0, firstTok_ = 0, tokens_ = 0;
};

extern "C" __global__ __aicore__ void rope_custom(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RopeTilingData, tilingData, tiling);
    KernelRope op;
    op.Init(x, cos, sin, y, tilingData);
    op.Process();
}

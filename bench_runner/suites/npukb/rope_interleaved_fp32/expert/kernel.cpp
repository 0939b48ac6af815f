// rope_interleaved_fp32, expert version. Per core, once: a Gather offset table that swaps the
// two elements of every pair (j ^ 1) across a whole tile of heads, an expansion table (j / 2)
// and a sign row (-1, +1, -1, ...). Per token: cos/sin rows are expanded to one value per
// element by Gather (sin takes the sign) and replicated over headsPerTile rows. Per tile of
// heads: Gather the swapped copy, y = x * cos + swapped * sin_signed. Double-buffered x / y.
#include "kernel_operator.h"
#include "rope_interleaved_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelRopeInterleaved {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y, const RopeInterleavedTilingData& t) {
        heads_ = t.heads;
        dim_ = t.dim;
        dP_ = t.dimPadded;
        hP_ = t.halfPadded;
        hp_ = t.headsPerTile;
        const uint32_t first = t.tokensPerCore * GetBlockIdx();
        tokens_ = first >= t.tokens ? 0 : (t.tokens - first < t.tokensPerCore ? t.tokens - first : t.tokensPerCore);
        const uint64_t rowElems = static_cast<uint64_t>(heads_) * dim_;
        const uint32_t halfDim = dim_ / 2;
        xGm.SetGlobalBuffer((__gm__ float*)x + first * rowElems, tokens_ * rowElems);
        yGm.SetGlobalBuffer((__gm__ float*)y + first * rowElems, tokens_ * rowElems);
        cosGm.SetGlobalBuffer((__gm__ float*)cos + static_cast<uint64_t>(first) * halfDim, tokens_ * halfDim);
        sinGm.SetGlobalBuffer((__gm__ float*)sin + static_cast<uint64_t>(first) * halfDim, tokens_ * halfDim);
        const uint32_t elems = hp_ * dP_;
        pipe.InitBuffer(xQueue, BUFFER_NUM, elems * sizeof(float));
        pipe.InitBuffer(yQueue, BUFFER_NUM, elems * sizeof(float));
        pipe.InitBuffer(csQueue, 1, 2 * hP_ * sizeof(float));
        pipe.InitBuffer(rotBuf, elems * sizeof(float));
        pipe.InitBuffer(cRepBuf, elems * sizeof(float));
        pipe.InitBuffer(sRepBuf, elems * sizeof(float));
        pipe.InitBuffer(swapBuf, elems * sizeof(uint32_t));
        pipe.InitBuffer(expandBuf, dP_ * sizeof(uint32_t));
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
        LocalTensor<uint32_t> swap = swapBuf.Get<uint32_t>();
        LocalTensor<uint32_t> expand = expandBuf.Get<uint32_t>();
        LocalTensor<float> sign = signBuf.Get<float>();
        for (uint32_t j = 0; j < dP_; ++j) {
            const bool real = j < dim_;
            swap.SetValue(j, static_cast<uint32_t>((real ? (j ^ 1u) : j) * sizeof(float)));
            expand.SetValue(j, static_cast<uint32_t>((real ? j / 2 : 0) * sizeof(float)));
            sign.SetValue(j, (j & 1u) ? 1.0f : -1.0f);
        }
        const auto eventSV = GetTPipePtr()->FetchEventID(HardEvent::S_V);
        SetFlag<HardEvent::S_V>(eventSV);
        WaitFlag<HardEvent::S_V>(eventSV);
        LocalTensor<int32_t> swapI = swap.ReinterpretCast<int32_t>();
        const uint32_t total = hp_ * dP_;
        for (uint32_t len = dP_; len < total; len *= 2) {
            const uint32_t n = total - len < len ? total - len : len;
            Adds(swapI[len], swapI, static_cast<int32_t>(len * sizeof(float)), static_cast<int32_t>(n));
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void LoadCosSin(uint32_t t) {
        const uint32_t halfDim = dim_ / 2;
        LocalTensor<float> cs = csQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(halfDim * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(cs, cosGm[static_cast<uint64_t>(t) * halfDim], params, pad);
        DataCopyPad(cs[hP_], sinGm[static_cast<uint64_t>(t) * halfDim], params, pad);
        csQueue.EnQue(cs);
        cs = csQueue.DeQue<float>();
        LocalTensor<float> cRep = cRepBuf.Get<float>();
        LocalTensor<float> sRep = sRepBuf.Get<float>();
        LocalTensor<float> sign = signBuf.Get<float>();
        LocalTensor<uint32_t> expand = expandBuf.Get<uint32_t>();
        Gather(cRep, cs, expand, 0, dP_);
        Gather(sRep, cs, expand, static_cast<uint32_t>(hP_ * sizeof(float)), dP_);
        PipeBarrier<PIPE_V>();
        csQueue.FreeTensor(cs);
        Mul(sRep, sRep, sign, static_cast<int32_t>(dP_));
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
        LocalTensor<float> xLocal = xQueue.AllocTensor<float>();
        DataCopyExtParams params{static_cast<uint16_t>(hn), static_cast<uint32_t>(dim_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[(static_cast<uint64_t>(t) * heads_ + h0) * dim_], params, pad);
        xQueue.EnQue(xLocal);
    }

    __aicore__ inline void Compute(uint32_t hn) {
        LocalTensor<float> xLocal = xQueue.DeQue<float>();
        LocalTensor<float> yLocal = yQueue.AllocTensor<float>();
        LocalTensor<float> rot = rotBuf.Get<float>();
        LocalTensor<float> cRep = cRepBuf.Get<float>();
        LocalTensor<float> sRep = sRepBuf.Get<float>();
        LocalTensor<uint32_t> swap = swapBuf.Get<uint32_t>();
        const int32_t n = static_cast<int32_t>(hn * dP_);
        Gather(rot, xLocal, swap, 0, static_cast<uint32_t>(n));
        Mul(yLocal, xLocal, cRep, n);
        PipeBarrier<PIPE_V>();
        Mul(rot, rot, sRep, n);
        PipeBarrier<PIPE_V>();
        Add(yLocal, yLocal, rot, n);
        yQueue.EnQue<float>(yLocal);
        xQueue.FreeTensor(xLocal);
    }

    __aicore__ inline void CopyOut(uint32_t t, uint32_t h0, uint32_t hn) {
        LocalTensor<float> yLocal = yQueue.DeQue<float>();
        DataCopyExtParams params{static_cast<uint16_t>(hn), static_cast<uint32_t>(dim_ * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[(static_cast<uint64_t>(t) * heads_ + h0) * dim_], yLocal, params);
        yQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQueue;
    TQue<QuePosition::VECIN, 1> csQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> yQueue;
    TBuf<QuePosition::VECCALC> rotBuf, cRepBuf, sRepBuf, swapBuf, expandBuf, signBuf;
    GlobalTensor<float> xGm, yGm, cosGm, sinGm;
    uint32_t heads_ = 0, dim_ = 0, dP_ = 0, hP_ = 0, hp_ = 0, tokens_ = 0;
};

extern "C" __global__ __aicore__ void rope_interleaved_custom(GM_ADDR x, GM_ADDR cos, GM_ADDR sin, GM_ADDR y,
                                                              GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(RopeInterleavedTilingData, tilingData, tiling);
    KernelRopeInterleaved op;
    op.Init(x, cos, sin, y, tilingData);
    op.Process();
}

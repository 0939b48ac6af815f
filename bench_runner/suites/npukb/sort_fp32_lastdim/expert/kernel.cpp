// sort_fp32_lastdim, expert version: a bitonic sorting network over (value, index) pairs,
// vectorised across a whole tile of rows. Rows are padded to a power of two P with +inf (whose
// indices N..P-1 keep them behind every real value). For every stage (k, j) of the network the
// partner of element i is i ^ j: the partner byte offsets of every j and the "this lane keeps
// the minimum" mask of every stage are built once per core (float arithmetic on an iota vector,
// bit_j(i) = floor(i / j) mod 2). Per stage the partner pairs are fetched with Gather, compared lexicographically (value, then index: this
// makes the unstable network produce the stable order) with Compare + And/Or/Not on the bit
// masks, and the winners picked with Select. Tile rows share every per-stage vector, so one
// instruction covers rowTile rows. The direction bit of the last merge (k = P) is forced to
// "ascending" for every row.
#include "kernel_operator.h"
#include "sort_tiling.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelSort {
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR v, GM_ADDR i, const SortTilingData& t) {
        t_ = t;
        row0_ = t.rowsPerCore * GetBlockIdx();
        rows_ = row0_ >= t.rows ? 0 : (t.rows - row0_ < t.rowsPerCore ? t.rows - row0_ : t.rowsPerCore);
        xGm.SetGlobalBuffer((__gm__ float*)x, t.rows * t.cols);
        vGm.SetGlobalBuffer((__gm__ float*)v, t.rows * t.cols);
        iGm.SetGlobalBuffer((__gm__ int32_t*)i, t.rows * t.cols);
        n_ = t.rowTile * t.padded;
        mb_ = (n_ / 8 + 31) / 32 * 32;
        levels_ = 0;
        while ((1u << levels_) < t.padded) ++levels_;
        const uint32_t stages = levels_ * (levels_ + 1) / 2;
        const uint32_t bytes = n_ * sizeof(float);
        pipe.InitBuffer(inQueue, BUFFER_NUM, bytes);
        pipe.InitBuffer(outQueue, BUFFER_NUM, 2 * bytes);
        pipe.InitBuffer(idxBuf, bytes);
        pipe.InitBuffer(pvBuf, bytes);
        pipe.InitBuffer(piBuf, bytes);
        pipe.InitBuffer(localBuf, bytes);
        pipe.InitBuffer(offBuf, levels_ * bytes);
        pipe.InitBuffer(keepBuf, stages * mb_);
        pipe.InitBuffer(maskBuf, 6 * mb_);
    }

    __aicore__ inline void Process() {
        if (rows_ == 0) return;
        BuildTables();
        for (uint32_t r0 = 0; r0 < rows_; r0 += t_.rowTile) {
            const uint32_t nr = rows_ - r0 < t_.rowTile ? rows_ - r0 : t_.rowTile;
            CopyIn(r0, nr);
            Compute();
            CopyOut(r0, nr);
        }
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    // dst = floor(iota / j) mod 2 for a power of two j (tmp: scratch).
    __aicore__ inline void Bit(const LocalTensor<float>& dst, const LocalTensor<float>& iota,
                               const LocalTensor<float>& tmp, uint32_t j) {
        const int32_t n = static_cast<int32_t>(n_);
        Muls(dst, iota, 1.0f / static_cast<float>(j), n);
        Cast(dst, dst, RoundMode::CAST_FLOOR, n);
        Muls(tmp, dst, 0.5f, n);
        Cast(tmp, tmp, RoundMode::CAST_FLOOR, n);
        Muls(tmp, tmp, 2.0f, n);
        Sub(dst, dst, tmp, n);
    }

    // Once per core, for the tile layout (rowTile rows of P): the partner byte offsets of every
    // j = 2^l, 4 * (i ^ j) = 4 * (i + j - 2 j bit_j(i)), and for every stage (k, j) the mask of
    // lanes that keep the smaller pair, bit_j(i) == bit_k(i) (bit_P := 0: the last merge sorts
    // every row ascending). Scratch: pv = iota, idx = bit_k, pi = bit_j, local = tmp.
    __aicore__ inline void BuildTables() {
        LocalTensor<float> iota = pvBuf.Get<float>();
        LocalTensor<float> bk = idxBuf.Get<float>();
        LocalTensor<float> bj = piBuf.Get<float>();
        LocalTensor<float> tmp = localBuf.Get<float>();
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        LocalTensor<uint8_t> keep = keepBuf.Get<uint8_t>();
        const int32_t n = static_cast<int32_t>(n_);
        for (int32_t i = 0; i < 8; ++i) iota.SetValue(i, static_cast<float>(i));
        SyncPipes<HardEvent::S_V>();
        for (uint32_t done = 8; done < n_; done *= 2) {
            const uint32_t cnt = n_ - done < done ? n_ - done : done;
            Adds(iota[done], iota, static_cast<float>(done), static_cast<int32_t>(cnt));
        }
        for (uint32_t l = 0; l < levels_; ++l) {
            const uint32_t j = 1u << l;
            Bit(bj, iota, tmp, j);
            Muls(bj, bj, -2.0f * static_cast<float>(j), n);
            Adds(bj, bj, static_cast<float>(j), n);
            Add(bj, bj, iota, n);
            Muls(bj, bj, 4.0f, n);
            Cast(off[l * n_], bj, RoundMode::CAST_RINT, n);
        }
        uint32_t stage = 0;
        for (uint32_t k = 2; k <= t_.padded; k *= 2) {
            if (k < t_.padded) {
                Bit(bk, iota, tmp, k);
            } else {
                Duplicate(bk, 0.0f, n);
            }
            for (uint32_t j = k / 2; j >= 1; j /= 2, ++stage) {
                Bit(bj, iota, tmp, j);
                Sub(bj, bj, bk, n);
                Abs(bj, bj, n);
                CompareScalar(keep[stage * mb_], bj, 0.5f, CMPMODE::LT, n_);
            }
        }
        // local[r * P + c] = c: the source index within the row
        LocalTensor<float> local = localBuf.Get<float>();
        for (uint32_t r = 0; r < t_.rowTile; ++r) {
            Adds(local[r * t_.padded], iota, 0.0f, static_cast<int32_t>(t_.padded));
        }
    }

    __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr) {
        LocalTensor<float> x = inQueue.AllocTensor<float>();
        Duplicate(x, __builtin_huge_valf(), static_cast<int32_t>(n_));
        SyncPipes<HardEvent::V_MTE2>();
        const uint32_t colsAligned = (t_.cols + 7) / 8 * 8;
        DataCopyExtParams params{static_cast<uint16_t>(nr), static_cast<uint32_t>(t_.cols * sizeof(float)), 0,
                                 static_cast<uint32_t>((t_.padded - colsAligned) / 8), 0};
        DataCopyPadExtParams<float> pad{true, 0, static_cast<uint8_t>(colsAligned - t_.cols), __builtin_huge_valf()};
        DataCopyPad(x, xGm[(row0_ + r0) * t_.cols], params, pad);
        inQueue.EnQue(x);
    }

    __aicore__ inline void Compute() {
        LocalTensor<float> vals = inQueue.DeQue<float>();
        LocalTensor<float> idx = idxBuf.Get<float>();
        LocalTensor<float> pv = pvBuf.Get<float>();
        LocalTensor<float> pi = piBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<uint32_t>();
        LocalTensor<uint8_t> keepTab = keepBuf.Get<uint8_t>();
        LocalTensor<uint8_t> masks = maskBuf.Get<uint8_t>();
        LocalTensor<uint8_t> lt = masks, eq = masks[mb_], li = masks[2 * mb_], a = masks[3 * mb_], b = masks[4 * mb_];
        LocalTensor<uint16_t> lt16 = lt.ReinterpretCast<uint16_t>(), eq16 = eq.ReinterpretCast<uint16_t>(),
                              li16 = li.ReinterpretCast<uint16_t>(), a16 = a.ReinterpretCast<uint16_t>(),
                              b16 = b.ReinterpretCast<uint16_t>();
        const int32_t n = static_cast<int32_t>(n_);
        const int32_t m16 = static_cast<int32_t>(n_ / 16);   // mask bits as uint16 lanes
        Adds(idx, localBuf.Get<float>(), 0.0f, n);
        uint32_t stage = 0;
        for (uint32_t k = 2; k <= t_.padded; k *= 2) {
            uint32_t l = 0;
            while ((2u << l) < k) ++l;   // j = k / 2 = 2^l
            for (uint32_t j = k / 2; j >= 1; j /= 2, ++stage, --l) {
                LocalTensor<uint16_t> tm16 = keepTab[stage * mb_].ReinterpretCast<uint16_t>();
                Gather(pv, vals, off[l * n_], 0, n_);
                Gather(pi, idx, off[l * n_], 0, n_);
                // less = (v < pv) | (v == pv & i < pi): the lexicographic order makes it stable
                Compare(lt, vals, pv, CMPMODE::LT, n_);
                Compare(eq, vals, pv, CMPMODE::EQ, n_);
                Compare(li, idx, pi, CMPMODE::LT, n_);
                And(eq16, eq16, li16, m16);
                Or(lt16, lt16, eq16, m16);
                // keep own = less XNOR takeMin = (less & tm) | ~(less | tm)
                And(a16, lt16, tm16, m16);
                Or(b16, lt16, tm16, m16);
                Not(b16, b16, m16);
                Or(a16, a16, b16, m16);
                Select(vals, a, vals, pv, SELMODE::VSEL_TENSOR_TENSOR_MODE, n_);
                Select(idx, a, idx, pi, SELMODE::VSEL_TENSOR_TENSOR_MODE, n_);
            }
        }
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Adds(out, vals, 0.0f, n);
        Cast(out[n_].ReinterpretCast<int32_t>(), idx, RoundMode::CAST_RINT, n);
        outQueue.EnQue<float>(out);
        inQueue.FreeTensor(vals);
    }

    __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr) {
        LocalTensor<float> out = outQueue.DeQue<float>();
        const uint32_t colsAligned = (t_.cols + 7) / 8 * 8;
        DataCopyExtParams params{static_cast<uint16_t>(nr), static_cast<uint32_t>(t_.cols * sizeof(float)),
                                 static_cast<uint32_t>((t_.padded - colsAligned) / 8), 0, 0};
        DataCopyPad(vGm[(row0_ + r0) * t_.cols], out, params);
        DataCopyPad(iGm[(row0_ + r0) * t_.cols], out[n_].ReinterpretCast<int32_t>(), params);
        outQueue.FreeTensor(out);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    TBuf<QuePosition::VECCALC> idxBuf, pvBuf, piBuf, localBuf, offBuf, keepBuf, maskBuf;
    GlobalTensor<float> xGm, vGm;
    GlobalTensor<int32_t> iGm;
    SortTilingData t_;
    uint32_t row0_ = 0;
    uint32_t rows_ = 0;
    uint32_t n_ = 0;
    uint32_t mb_ = 0;
    uint32_t levels_ = 0;
};

extern "C" __global__ __aicore__ void sort_custom(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(SortTilingData, tilingData, tiling);
    KernelSort op;
    op.Init(x, values, indices, tilingData);
    op.Process();
}

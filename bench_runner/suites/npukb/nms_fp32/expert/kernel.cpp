// nms_fp32, expert version. Images are split over cores; greedy NMS inside an image is
// sequential, but every step is vectorised over all boxes: the boxes are copied in once and
// split into coordinate vectors with Gather (offsets 16*j + 4*c, built by doubling), areas
// computed once; candidates are the scores (padding and removed boxes are -inf). Each round takes
// the highest remaining score with ReduceMax + calIndex (first maximum: smaller index on ties),
// records the box, computes its IoU with every box (clip, intersection, union, Div) and keeps
// only candidates with IoU <= threshold (CompareScalar + Select against -inf; the winner removes
// itself with IoU 1). The loop ends when the best remaining score is -inf.
#include "kernel_operator.h"
#include "nms_tiling.h"

using namespace AscendC;

class KernelNms {
  public:
    __aicore__ inline void Init(GM_ADDR boxes, GM_ADDR scores, GM_ADDR keep, GM_ADDR count, const NmsTilingData& t) {
        t_ = t;
        img0_ = t.imagesPerCore * GetBlockIdx();
        nimg_ = img0_ >= t.batch ? 0 : (t.batch - img0_ < t.imagesPerCore ? t.batch - img0_ : t.imagesPerCore);
        bGm.SetGlobalBuffer((__gm__ float*)boxes, t.batch * t.boxes * 4);
        sGm.SetGlobalBuffer((__gm__ float*)scores, t.batch * t.boxes);
        kGm.SetGlobalBuffer((__gm__ int32_t*)keep, t.batch * t.boxes);
        cGm.SetGlobalBuffer((__gm__ int32_t*)count, t.batch);
        const uint32_t np = t.padded;
        pipe.InitBuffer(rawBuf, 4 * np * sizeof(float));
        pipe.InitBuffer(soaBuf, 5 * np * sizeof(float));   // x1, y1, x2, y2, area
        pipe.InitBuffer(offBuf, np * sizeof(int32_t));
        pipe.InitBuffer(candBuf, np * sizeof(float));
        pipe.InitBuffer(tmpBuf, 3 * np * sizeof(float));
        pipe.InitBuffer(maskBuf, np / 8);
        pipe.InitBuffer(workBuf, (np / 8 + 64) * sizeof(float));
        pipe.InitBuffer(scBuf, 8 * sizeof(float));
        pipe.InitBuffer(keepBuf, np * sizeof(int32_t));
        pipe.InitBuffer(cntBuf, 8 * sizeof(int32_t));
    }

    __aicore__ inline void Process() {
        if (nimg_ == 0) return;
        BuildOffsets();
        for (uint32_t b = 0; b < nimg_; ++b) {
            Load(img0_ + b);
            const uint32_t kept = Suppress();
            Store(img0_ + b, kept);
        }
    }

  private:
    template <HardEvent E>
    __aicore__ inline void SyncPipes() {
        const auto id = GetTPipePtr()->FetchEventID(E);
        SetFlag<E>(id);
        WaitFlag<E>(id);
    }

    __aicore__ inline void BuildOffsets() {
        LocalTensor<int32_t> off = offBuf.Get<int32_t>();
        for (int32_t j = 0; j < 8; ++j) off.SetValue(j, 16 * j);
        SyncPipes<HardEvent::S_V>();
        for (uint32_t done = 8; done < t_.padded; done *= 2) {
            const uint32_t n = t_.padded - done < done ? t_.padded - done : done;
            Adds(off[done], off, static_cast<int32_t>(16 * done), static_cast<int32_t>(n));
        }
        // Padding boxes are never copied in: make them harmless zero boxes.
        Duplicate(rawBuf.Get<float>(), 0.0f, static_cast<int32_t>(4 * t_.padded));
    }

    __aicore__ inline void Load(uint32_t img) {
        LocalTensor<float> raw = rawBuf.Get<float>();
        LocalTensor<float> cand = candBuf.Get<float>();
        const uint32_t np = t_.padded;
        const uint32_t n8 = (t_.boxes + 7) / 8 * 8;
        Duplicate(cand, -__builtin_huge_valf(), static_cast<int32_t>(np));
        Duplicate(keepBuf.Get<int32_t>(), -1, static_cast<int32_t>(np));
        SyncPipes<HardEvent::V_MTE2>();
        DataCopyExtParams bp{1, static_cast<uint32_t>(t_.boxes * 4 * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> bpad{false, 0, 0, 0.0f};
        DataCopyPad(raw, bGm[img * t_.boxes * 4], bp, bpad);
        DataCopyExtParams sp{1, static_cast<uint32_t>(t_.boxes * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> spad{true, 0, static_cast<uint8_t>(n8 - t_.boxes), -__builtin_huge_valf()};
        DataCopyPad(cand, sGm[img * t_.boxes], sp, spad);
        SyncPipes<HardEvent::MTE2_V>();
        LocalTensor<float> soa = soaBuf.Get<float>();
        LocalTensor<uint32_t> off = offBuf.Get<int32_t>().ReinterpretCast<uint32_t>();
        for (uint32_t c = 0; c < 4; ++c) Gather(soa[c * np], raw, off, c * sizeof(float), np);
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        const int32_t n = static_cast<int32_t>(np);
        Sub(soa[4 * np], soa[2 * np], soa[0], n);
        Sub(tmp, soa[3 * np], soa[np], n);
        Mul(soa[4 * np], soa[4 * np], tmp, n);
        SyncPipes<HardEvent::MTE2_S>();
    }

    __aicore__ inline uint32_t Suppress() {
        LocalTensor<float> raw = rawBuf.Get<float>();
        LocalTensor<float> soa = soaBuf.Get<float>();
        LocalTensor<float> cand = candBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> sc = scBuf.Get<float>();
        LocalTensor<uint32_t> scIdx = sc.ReinterpretCast<uint32_t>();
        LocalTensor<int32_t> keep = keepBuf.Get<int32_t>();
        const uint32_t np = t_.padded;
        const int32_t n = static_cast<int32_t>(np);
        LocalTensor<float> x1 = soa, y1 = soa[np], x2 = soa[2 * np], y2 = soa[3 * np], area = soa[4 * np];
        LocalTensor<float> lo = tmp, hi = tmp[np], w = tmp[2 * np];
        const float negInf = -__builtin_huge_valf();
        uint32_t kept = 0;
        while (true) {
            ReduceMax(sc, cand, work, n, true);
            SyncPipes<HardEvent::V_S>();
            if (sc.GetValue(0) == negInf) break;
            const uint32_t i = scIdx.GetValue(1);
            keep.SetValue(kept++, static_cast<int32_t>(i));
            const float ax1 = raw.GetValue(4 * i), ay1 = raw.GetValue(4 * i + 1);
            const float ax2 = raw.GetValue(4 * i + 2), ay2 = raw.GetValue(4 * i + 3);
            const float areaA = (ax2 - ax1) * (ay2 - ay1);
            Maxs(lo, x1, ax1, n);
            Mins(hi, x2, ax2, n);
            Sub(w, hi, lo, n);
            Maxs(w, w, 0.0f, n);
            Maxs(lo, y1, ay1, n);
            Mins(hi, y2, ay2, n);
            Sub(hi, hi, lo, n);
            Maxs(hi, hi, 0.0f, n);
            Mul(w, w, hi, n);                 // intersection
            Adds(lo, area, areaA, n);
            Sub(lo, lo, w, n);                // union
            Div(w, w, lo, n);                 // IoU
            CompareScalar(mask, w, t_.iouThreshold, CMPMODE::LE, np);
            Select(cand, mask, cand, negInf, SELMODE::VSEL_TENSOR_SCALAR_MODE, np);
        }
        return kept;
    }

    __aicore__ inline void Store(uint32_t img, uint32_t kept) {
        LocalTensor<int32_t> cnt = cntBuf.Get<int32_t>();
        cnt.SetValue(0, static_cast<int32_t>(kept));
        SyncPipes<HardEvent::S_MTE3>();
        DataCopyExtParams kp{1, static_cast<uint32_t>(t_.boxes * sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(kGm[img * t_.boxes], keepBuf.Get<int32_t>(), kp);
        DataCopyExtParams cp{1, sizeof(int32_t), 0, 0, 0};
        DataCopyPad(cGm[img], cnt, cp);
        PipeBarrier<PIPE_ALL>();   // the next image reuses every buffer
    }

    TPipe pipe;
    TBuf<QuePosition::VECCALC> rawBuf, soaBuf, offBuf, candBuf, tmpBuf, maskBuf, workBuf, scBuf, keepBuf, cntBuf;
    GlobalTensor<float> bGm, sGm;
    GlobalTensor<int32_t> kGm, cGm;
    NmsTilingData t_;
    uint32_t img0_ = 0;
    uint32_t nimg_ = 0;
};

extern "C" __global__ __aicore__ void nms_custom(GM_ADDR boxes, GM_ADDR scores, GM_ADDR keep, GM_ADDR count,
                                                 GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(NmsTilingData, tilingData, tiling);
    KernelNms op;
    op.Init(boxes, scores, keep, count, tilingData);
    op.Process();
}

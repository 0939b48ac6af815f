// ascend_sim: reductions — ReduceSum/Max/Min (level 2 and level 0), WholeReduceSum/Max/Min,
// BlockReduceSum/Max/Min and PairReduceSum.
//
// Sums follow the hardware's pairwise tree inside each repeat; for half every partial sum is
// rounded to half and saturates at +-65504, as the BlockReduceSum/WholeReduceSum docs describe.
#pragma once

#include "vec_common.h"

namespace AscendC {
namespace sim {

template <typename T>
inline float red_add(float a, float b) {
    if constexpr (std::is_same<T, half>::value) {
        float s = half_bits_to_float(float_to_half_bits(a + b));
        if (s > 65504.0f) s = 65504.0f;
        if (s < -65504.0f) s = -65504.0f;
        return s;
    } else {
        return a + b;
    }
}

// Pairwise tree over n values (n a power of two after zero padding).
template <typename T>
inline float tree_sum(float* v, int n) {
    int len = 1;
    while (len < n) len <<= 1;
    for (int i = n; i < len; ++i) v[i] = 0.0f;
    while (len > 1) {
        for (int i = 0; i < len / 2; ++i) v[i] = red_add<T>(v[2 * i], v[2 * i + 1]);
        len /= 2;
    }
    return v[0];
}

template <typename T>
inline void check_reduce_type(const char* api) {
    (void)api;
}

// Stores an index into a T slot the way the hardware does: as the bits of an integer.
template <typename T>
inline T index_as(uint32_t idx) {
    T out;
    if constexpr (sizeof(T) == 2) {
        const uint16_t b = static_cast<uint16_t>(idx);
        std::memcpy(&out, &b, 2);
    } else {
        std::memcpy(&out, &idx, 4);
    }
    return out;
}

enum class RedKind { SUM, MAX, MIN };

// The MAX_MIN_CNT special register as the hardware packs it (asc-devkit dav_c220
// GetReduceMaxMinCountImpl unpacks it): the value's bits in the low 32 (16 for half), the index in the
// high 32 bits.
template <typename T>
inline void set_max_min_cnt(CoreCtx& c, T value, uint32_t index) {
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    c.max_min_cnt = (static_cast<uint64_t>(index) << 32) | bits;
}

// One repeat's active lanes gathered into `vals` (lane order); returns how many.
template <typename T>
inline int gather_lanes(const L0Plan& p, const L0Operand& s, int r, float* vals, int* lanes) {
    int n = 0;
    for (int lane = 0; lane < p.epr; ++lane) {
        if (!p.lane_on(r, lane)) continue;
        T x;
        std::memcpy(&x, s.v.data + s.offset(r, lane), sizeof(T));
        vals[n] = to_f<T>(x);
        lanes[n] = lane;
        ++n;
    }
    return n;
}

template <typename T>
inline void store_elem(const LocalView& d, uint64_t elem, T value, const char* api, const SrcLoc& loc) {
    const uint64_t off = elem * sizeof(T);
    need(d, off + sizeof(T), api, "dst", loc);
    std::memcpy(d.data + off, &value, sizeof(T));
    std::memset(d.shadow + off, 1, sizeof(T));
}

// WholeReduce*: one result (or a value/index pair) per repeat.
template <typename T>
inline void whole_reduce(RedKind kind, const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                         bool is_set_mask, bool bit_mode, uint64_t mask_count, const uint64_t* bits, int32_t repeat,
                         int32_t dst_rep, int32_t src_blk, int32_t src_rep, ReduceOrder order, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, bits, repeat, epr, api, loc);
    L0Operand s{view(src, api, "src", loc), sizeof(T), static_cast<uint64_t>(src_blk), static_cast<uint64_t>(src_rep),
                "src", false};
    LocalView d = view(dst, api, "dst", loc, sizeof(T));
    if (p.repeats == 0) return;
    l0_check(p, &s, 1, api, loc);
    float vals[256];
    int lanes[256];
    const bool pair = kind != RedKind::SUM &&
                      (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE);
    const uint64_t unit = pair ? 2 : 1;
    float gv = 0.0f;  // best over all repeats: what MAX_MIN_CNT holds afterwards (ReduceRepeat docs)
    uint32_t gidx = 0;
    bool ghave = false;
    for (int r = 0; r < p.repeats; ++r) {
        const int n = gather_lanes<T>(p, s, r, vals, lanes);
        const uint64_t base = static_cast<uint64_t>(r) * static_cast<uint64_t>(dst_rep) * unit;
        if (kind == RedKind::SUM) {
            store_elem<T>(d, base, from_f<T>(n ? tree_sum<T>(vals, n) : 0.0f), api, loc);
            continue;
        }
        if (n == 0) continue;
        int best = 0;
        for (int i = 1; i < n; ++i) {
            if (kind == RedKind::MAX ? vals[i] > vals[best] : vals[i] < vals[best]) best = i;
        }
        const T value = from_f<T>(vals[best]);
        const T index = index_as<T>(static_cast<uint32_t>(lanes[best]));
        if (!ghave || (kind == RedKind::MAX ? vals[best] > gv : vals[best] < gv)) {
            gv = vals[best];
            gidx = static_cast<uint32_t>(r * epr + lanes[best]);
            ghave = true;
        }
        switch (order) {
            case ReduceOrder::ORDER_VALUE_INDEX:
                store_elem<T>(d, base, value, api, loc);
                store_elem<T>(d, base + 1, index, api, loc);
                break;
            case ReduceOrder::ORDER_INDEX_VALUE:
                store_elem<T>(d, base, index, api, loc);
                store_elem<T>(d, base + 1, value, api, loc);
                break;
            case ReduceOrder::ORDER_ONLY_VALUE:
                store_elem<T>(d, base, value, api, loc);
                break;
            case ReduceOrder::ORDER_ONLY_INDEX:
                store_elem<T>(d, base, index, api, loc);
                break;
        }
    }
    if (ghave) set_max_min_cnt<T>(c, from_f<T>(gv), gidx);
    charge(c, Pipe::V, vec_cycles(c, kind == RedKind::SUM ? VecClass::WREDUCE_SUM : VecClass::WREDUCE_MAX, sizeof(T),
                                  static_cast<uint64_t>(p.repeats)),
           api, loc, {{s.v.blk, false}, {d.blk, true}}, is_set_mask ? 1 : 0);
}

// BlockReduce*: one result per 32-byte block, eight per repeat.
template <typename T>
inline void block_reduce(RedKind kind, const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                         int32_t repeat, bool is_set_mask, bool bit_mode, uint64_t mask_count, const uint64_t* bits,
                         int32_t dst_rep, int32_t src_blk, int32_t src_rep, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    const int epb = ONE_BLK_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, bits, repeat, epr, api, loc);
    L0Operand s{view(src, api, "src", loc), sizeof(T), static_cast<uint64_t>(src_blk), static_cast<uint64_t>(src_rep),
                "src", false};
    LocalView d = view(dst, api, "dst", loc, sizeof(T) == 2 ? 16 : 32);
    if (p.repeats == 0) return;
    l0_check(p, &s, 1, api, loc);
    float vals[64];
    for (int r = 0; r < p.repeats; ++r) {
        for (int b = 0; b < DEFAULT_BLK_NUM; ++b) {
            int n = 0;
            for (int e = 0; e < epb; ++e) {
                const int lane = b * epb + e;
                if (!p.lane_on(r, lane)) continue;
                T x;
                std::memcpy(&x, s.v.data + s.offset(r, lane), sizeof(T));
                vals[n++] = to_f<T>(x);
            }
            const uint64_t out = static_cast<uint64_t>(r) * static_cast<uint64_t>(dst_rep) * DEFAULT_BLK_NUM + b;
            if (kind == RedKind::SUM) {
                store_elem<T>(d, out, from_f<T>(n ? tree_sum<T>(vals, n) : 0.0f), api, loc);
            } else if (n > 0) {
                float best = vals[0];
                for (int i = 1; i < n; ++i) best = kind == RedKind::MAX ? std::max(best, vals[i]) : std::min(best, vals[i]);
                store_elem<T>(d, out, from_f<T>(best), api, loc);
            }
        }
    }
    charge(c, Pipe::V, vec_cycles(c, VecClass::BREDUCE, sizeof(T), static_cast<uint64_t>(p.repeats)), api, loc,
           {{s.v.blk, false}, {d.blk, true}}, is_set_mask ? 1 : 0);
}

// Level-2 ReduceSum/Max/Min over the first `count` elements: repeated whole-repeat reductions
// (vcadd / vcmax passes) until one value is left, the way the API implements it.
template <typename T>
inline void reduce_all(RedKind kind, const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                       const LocalTensor<T>& tmp, int64_t count, bool cal_index, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    check_count(count, api, loc);
    LocalView s = view(src, api, "src", loc);
    LocalView d = view(dst, api, "dst", loc, sizeof(T));
    LocalView t = view(tmp, api, "sharedTmpBuffer", loc);
    (void)t;
    const uint64_t n = static_cast<uint64_t>(count);
    need(s, n * sizeof(T), api, "src", loc);
    check_init(s, 0, n * sizeof(T), api, "src", loc);
    if (n == 0) return;
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    const T* sp = reinterpret_cast<const T*>(s.data);
    uint64_t cycles = 0;
    if (kind == RedKind::SUM) {
        std::vector<float> cur(n);
        for (uint64_t i = 0; i < n; ++i) cur[i] = to_f<T>(sp[i]);
        float buf[256];
        while (cur.size() > 1 || cycles == 0) {
            const uint64_t reps = (cur.size() + epr - 1) / epr;
            std::vector<float> next(reps);
            for (uint64_t r = 0; r < reps; ++r) {
                const uint64_t lo = r * epr;
                const int m = static_cast<int>(std::min<uint64_t>(epr, cur.size() - lo));
                for (int i = 0; i < m; ++i) buf[i] = cur[lo + i];
                next[r] = tree_sum<T>(buf, m);
            }
            cycles += vec_cycles(c, VecClass::WREDUCE_SUM, sizeof(T), reps) + 2;
            cur.swap(next);
        }
        store_elem<T>(d, 0, from_f<T>(cur[0]), api, loc);
    } else {
        uint64_t best = 0;
        float bv = to_f<T>(sp[0]);
        for (uint64_t i = 1; i < n; ++i) {
            const float v = to_f<T>(sp[i]);
            if (kind == RedKind::MAX ? v > bv : v < bv) {
                bv = v;
                best = i;
            }
        }
        uint64_t len = n;
        do {
            const uint64_t reps = (len + epr - 1) / epr;
            cycles += vec_cycles(c, VecClass::WREDUCE_MAX, sizeof(T), reps) + 2;
            len = reps;
        } while (len > 1);
        store_elem<T>(d, 0, sp[best], api, loc);
        set_max_min_cnt<T>(c, sp[best], static_cast<uint32_t>(best));
        if (cal_index) store_elem<T>(d, 1, index_as<T>(static_cast<uint32_t>(best)), api, loc);
    }
    charge(c, Pipe::V, cycles, api, loc, {{s.blk, false}, {t.blk, true}, {d.blk, true}}, c.soc->level2_extra);
}

// Level-0 ReduceSum/Max/Min: masked lanes of `repeat` repeats (srcRepStride in blocks).
template <typename T>
inline void reduce_l0(RedKind kind, const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<T>& tmp, bool bit_mode, uint64_t mask_count, const uint64_t* bits,
                      int32_t repeat, int32_t src_rep, bool cal_index, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, true, bit_mode, mask_count, bits, repeat, epr, api, loc);
    L0Operand s{view(src, api, "src", loc), sizeof(T), 1, static_cast<uint64_t>(src_rep), "src", false};
    LocalView d = view(dst, api, "dst", loc, sizeof(T));
    view(tmp, api, "sharedTmpBuffer", loc);
    if (p.repeats == 0) return;
    l0_check(p, &s, 1, api, loc);
    float vals[256];
    int lanes[256];
    std::vector<float> partial;
    float bv = 0.0f;
    uint32_t bidx = 0;
    bool have = false;
    for (int r = 0; r < p.repeats; ++r) {
        const int n = gather_lanes<T>(p, s, r, vals, lanes);
        if (kind == RedKind::SUM) {
            partial.push_back(n ? tree_sum<T>(vals, n) : 0.0f);
            continue;
        }
        for (int i = 0; i < n; ++i) {
            if (!have || (kind == RedKind::MAX ? vals[i] > bv : vals[i] < bv)) {
                bv = vals[i];
                bidx = static_cast<uint32_t>(r * epr + lanes[i]);
                have = true;
            }
        }
    }
    if (kind == RedKind::SUM) {
        const int m = static_cast<int>(partial.size());
        size_t cap = 1;
        while (cap < static_cast<size_t>(m)) cap <<= 1;
        std::vector<float> buf(cap);
        for (int i = 0; i < m; ++i) buf[i] = partial[i];
        store_elem<T>(d, 0, from_f<T>(tree_sum<T>(buf.data(), m)), api, loc);
    } else if (have) {
        store_elem<T>(d, 0, from_f<T>(bv), api, loc);
        set_max_min_cnt<T>(c, from_f<T>(bv), bidx);
        if (cal_index) store_elem<T>(d, 1, index_as<T>(bidx), api, loc);
    }
    const VecClass k = kind == RedKind::SUM ? VecClass::WREDUCE_SUM : VecClass::WREDUCE_MAX;
    charge(c, Pipe::V, vec_cycles(c, k, sizeof(T), static_cast<uint64_t>(p.repeats)) + vec_cycles(c, k, sizeof(T), 1),
           api, loc, {{s.v.blk, false}, {d.blk, true}}, 1);
}

}  // namespace sim

#define ASCEND_SIM_RED_CHECK(NAME)                                                                           \
    static_assert(sim::OneOf<T, half, float>::value, "Failed to check dtype in " #NAME                       \
                                                     ", current api support dtype combination is src and " \
                                                     "dst both: half / float")

// ---- WholeReduceSum / Max / Min ----
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(WholeReduceSum);
    sim::whole_reduce(sim::RedKind::SUM, "WholeReduceSum", dst, src, isSetMask, true, 0, mask, repeatTime, dstRepStride,
                      srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void WholeReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,
                                      const int32_t srcRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(WholeReduceSum);
    sim::whole_reduce(sim::RedKind::SUM, "WholeReduceSum", dst, src, isSetMask, false, static_cast<uint64_t>(mask),
                      nullptr, repeatTime, dstRepStride, srcBlkStride, srcRepStride, ReduceOrder::ORDER_ONLY_VALUE, loc);
}

#define ASCEND_SIM_WHOLE_MAXMIN(NAME, KIND)                                                                          \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[],          \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,       \
                                ASCEND_SIM_LOC) {                                                                    \
        ASCEND_SIM_RED_CHECK(NAME);                                                                                  \
        sim::whole_reduce(sim::RedKind::KIND, #NAME, dst, src, isSetMask, true, 0, mask, repeatTime, dstRepStride,  \
                          srcBlkStride, srcRepStride, order, loc);                                                   \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,             \
                                const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,     \
                                const int32_t srcRepStride, ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX,       \
                                ASCEND_SIM_LOC) {                                                                    \
        ASCEND_SIM_RED_CHECK(NAME);                                                                                  \
        sim::whole_reduce(sim::RedKind::KIND, #NAME, dst, src, isSetMask, false, static_cast<uint64_t>(mask), nullptr, \
                          repeatTime, dstRepStride, srcBlkStride, srcRepStride, order, loc);                         \
    }
ASCEND_SIM_WHOLE_MAXMIN(WholeReduceMax, MAX)
ASCEND_SIM_WHOLE_MAXMIN(WholeReduceMin, MIN)
#undef ASCEND_SIM_WHOLE_MAXMIN

// ---- BlockReduceSum / Max / Min (repeatTime comes before the mask) ----
#define ASCEND_SIM_BLOCK_RED(NAME, KIND)                                                                             \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,       \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,        \
                                const int32_t srcRepStride, ASCEND_SIM_LOC) {                                        \
        ASCEND_SIM_RED_CHECK(NAME);                                                                                  \
        sim::block_reduce(sim::RedKind::KIND, #NAME, dst, src, repeatTime, isSetMask, true, 0, mask, dstRepStride,  \
                          srcBlkStride, srcRepStride, loc);                                                          \
    }                                                                                                                \
    template <typename T, bool isSetMask = true>                                                                     \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,       \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,           \
                                const int32_t srcRepStride, ASCEND_SIM_LOC) {                                        \
        ASCEND_SIM_RED_CHECK(NAME);                                                                                  \
        sim::block_reduce(sim::RedKind::KIND, #NAME, dst, src, repeatTime, isSetMask, false,                        \
                          static_cast<uint64_t>(mask), nullptr, dstRepStride, srcBlkStride, srcRepStride, loc);      \
    }
ASCEND_SIM_BLOCK_RED(BlockReduceSum, SUM)
ASCEND_SIM_BLOCK_RED(BlockReduceMax, MAX)
ASCEND_SIM_BLOCK_RED(BlockReduceMin, MIN)
#undef ASCEND_SIM_BLOCK_RED

// ---- PairReduceSum: adjacent pairs, half the elements out per repeat ----
namespace sim {
template <typename T>
inline void pair_reduce(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t repeat, bool is_set_mask,
                        bool bit_mode, uint64_t mask_count, const uint64_t* bits, int32_t dst_rep, int32_t src_blk,
                        int32_t src_rep, const SrcLoc& loc) {
    const char* api = "PairReduceSum";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, bits, repeat, epr, api, loc);
    L0Operand s{view(src, api, "src", loc), sizeof(T), static_cast<uint64_t>(src_blk), static_cast<uint64_t>(src_rep),
                "src", false};
    LocalView d = view(dst, api, "dst", loc, sizeof(T));
    if (p.repeats == 0) return;
    l0_check(p, &s, 1, api, loc);
    for (int r = 0; r < p.repeats; ++r) {
        for (int k = 0; k < epr / 2; ++k) {
            float sum = 0.0f;
            for (int j = 0; j < 2; ++j) {
                const int lane = 2 * k + j;
                if (!p.lane_on(r, lane)) continue;
                T x;
                std::memcpy(&x, s.v.data + s.offset(r, lane), sizeof(T));
                sum = red_add<T>(sum, to_f<T>(x));
            }
            store_elem<T>(d, static_cast<uint64_t>(r) * static_cast<uint64_t>(dst_rep) * (epr / 2) + k, from_f<T>(sum),
                          api, loc);
        }
    }
    charge(c, Pipe::V, vec_cycles(c, VecClass::PREDUCE, sizeof(T), static_cast<uint64_t>(p.repeats)), api, loc,
           {{s.v.blk, false}, {d.blk, true}}, is_set_mask ? 1 : 0);
}
}  // namespace sim

template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(PairReduceSum);
    sim::pair_reduce(dst, src, repeatTime, isSetMask, true, 0, mask, dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                     const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride,
                                     const int32_t srcRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(PairReduceSum);
    sim::pair_reduce(dst, src, repeatTime, isSetMask, false, static_cast<uint64_t>(mask), nullptr, dstRepStride,
                     srcBlkStride, srcRepStride, loc);
}

// ---- ReduceSum / ReduceMax / ReduceMin ----
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(ReduceSum);
    sim::reduce_all(sim::RedKind::SUM, "ReduceSum", dst, src, sharedTmpBuffer, count, false, loc);
}
template <typename T>
__aicore__ inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0,
                                 ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(ReduceMax);
    sim::reduce_all(sim::RedKind::MAX, "ReduceMax", dst, src, sharedTmpBuffer, count, calIndex, loc);
}
template <typename T>
__aicore__ inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0,
                                 ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(ReduceMin);
    sim::reduce_all(sim::RedKind::MIN, "ReduceMin", dst, src, sharedTmpBuffer, count, calIndex, loc);
}

// ---- Sum (advanced API): each of `outter` rows of `inner` elements (32-byte aligned) sums its
// first `n` into dst[row] (hiascend "Sum": outter, inner, n; half / float). Charged as the
// ReduceSum passes each row takes.
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};

namespace sim {
template <typename T>
inline void sum_rows(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp,
                     const SumParams& p, const SrcLoc& loc) {
    const char* api = "Sum";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    if (p.n == 0 || p.n > p.inner || (p.inner * sizeof(T)) % ONE_BLK_SIZE != 0) {
        fail("BAD_PARAM", api, loc,
             "SumParams{outter %u, inner %u, n %u}: inner must hold the n elements of a row, padded to a whole "
             "number of 32-byte blocks (inner = (n * sizeof(T) + 31) / 32 * 32 / sizeof(T))",
             p.outter, p.inner, p.n);
    }
    LocalView s = view(src, api, "srcTensor", loc);
    LocalView d = view(dst, api, "dstTensor", loc, sizeof(T));
    if (tmp) (void)view(*tmp, api, "sharedTmpBuffer", loc);
    const uint64_t rows = p.outter;
    need(s, (rows - 1) * p.inner * sizeof(T) + p.n * sizeof(T), api, "srcTensor", loc);
    need(d, rows * sizeof(T), api, "dstTensor", loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    const T* sp = reinterpret_cast<const T*>(s.data);
    uint64_t cycles = 0;
    float buf[256];
    for (uint64_t r = 0; r < rows; ++r) {
        check_init(s, r * p.inner * sizeof(T), p.n * sizeof(T), api, "srcTensor", loc);
        std::vector<float> cur(p.n);
        for (uint32_t i = 0; i < p.n; ++i) cur[i] = to_f<T>(sp[r * p.inner + i]);
        do {
            const uint64_t reps = (cur.size() + epr - 1) / epr;
            std::vector<float> next(reps);
            for (uint64_t k = 0; k < reps; ++k) {
                const uint64_t lo = k * epr;
                const int m = static_cast<int>(std::min<uint64_t>(epr, cur.size() - lo));
                for (int i = 0; i < m; ++i) buf[i] = cur[lo + i];
                next[k] = tree_sum<T>(buf, m);
            }
            cycles += vec_cycles(c, VecClass::WREDUCE_SUM, sizeof(T), reps) + 2;
            cur.swap(next);
        } while (cur.size() > 1);
        store_elem<T>(d, r, from_f<T>(cur[0]), api, loc);
    }
    charge(c, Pipe::V, cycles, api, loc, {{s.blk, false}, {d.blk, true}}, c.soc->level2_extra);
}
}  // namespace sim

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, float>::value, "Failed to check dtype in Sum, current api support dtype is half / float");
    sim::sum_rows(dstTensor, srcTensor, &sharedTmpBuffer, sumParams, loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams,
                           ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, float>::value, "Failed to check dtype in Sum, current api support dtype is half / float");
    sim::sum_rows(dstTensor, srcTensor, static_cast<const LocalTensor<uint8_t>*>(nullptr), sumParams, loc);
}

// Level 0 (mask, repeatTime, srcRepStride).
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(ReduceSum);
    sim::reduce_l0(sim::RedKind::SUM, "ReduceSum", dst, src, sharedTmpBuffer, false, static_cast<uint64_t>(mask), nullptr,
                   repeatTime, srcRepStride, false, loc);
}
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[], const int32_t repeatTime,
                                 const int32_t srcRepStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_RED_CHECK(ReduceSum);
    sim::reduce_l0(sim::RedKind::SUM, "ReduceSum", dst, src, sharedTmpBuffer, true, 0, mask, repeatTime, srcRepStride,
                   false, loc);
}
#define ASCEND_SIM_RED_L0(NAME, KIND)                                                                               \
    template <typename T>                                                                                           \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime, \
                                const int32_t srcRepStride, bool calIndex = 0, ASCEND_SIM_LOC) {                    \
        ASCEND_SIM_RED_CHECK(NAME);                                                                                 \
        sim::reduce_l0(sim::RedKind::KIND, #NAME, dst, src, sharedTmpBuffer, false, static_cast<uint64_t>(mask),    \
                       nullptr, repeatTime, srcRepStride, calIndex, loc);                                           \
    }                                                                                                               \
    template <typename T>                                                                                           \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src,                                \
                                const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],                        \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0,             \
                                ASCEND_SIM_LOC) {                                                                   \
        ASCEND_SIM_RED_CHECK(NAME);                                                                                 \
        sim::reduce_l0(sim::RedKind::KIND, #NAME, dst, src, sharedTmpBuffer, true, 0, mask, repeatTime, srcRepStride, \
                       calIndex, loc);                                                                              \
    }
ASCEND_SIM_RED_L0(ReduceMax, MAX)
ASCEND_SIM_RED_L0(ReduceMin, MIN)
#undef ASCEND_SIM_RED_L0
#undef ASCEND_SIM_RED_CHECK

// ---- GetReduceMaxMinCount / GetReduceRepeatMaxMinSpr ----
// Reads MAX_MIN_CNT: the best value of the last WholeReduceMax/Min over all its repeats (and its index,
// repeat * elementsPerRepeat + lane), or of the last ReduceMax/Min. The index comes back as the bits of
// an integer in a T (reinterpret it as uint16_t / uint32_t). The one-argument form is the 310P (AI Core)
// prototype; on A2/A3 (dav_c220) it reports "not supported", so it is rejected here as well.
namespace sim {
template <typename T>
inline void read_max_min_cnt(T& value, T* index, const char* api, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    if (!index) fail("UNSUPPORTED", api, loc, "the one-argument form is not supported on Atlas A2/A3: pass maxMinIndex too");
    kernel_memory(&value, sizeof value, api);
    kernel_memory(index, sizeof *index, api);
    const uint32_t vbits = static_cast<uint32_t>(c.max_min_cnt & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu));
    std::memcpy(&value, &vbits, sizeof(T));
    *index = index_as<T>(static_cast<uint32_t>(c.max_min_cnt >> 32));
    charge_scalar(c, 1);
}
}  // namespace sim
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex, ASCEND_SIM_LOC) {
    sim::read_max_min_cnt<T>(maxMinValue, &maxMinIndex, "GetReduceMaxMinCount", loc);
}
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, ASCEND_SIM_LOC) {
    sim::read_max_min_cnt<T>(maxMinValue, nullptr, "GetReduceMaxMinCount", loc);
}
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex, ASCEND_SIM_LOC) {
    sim::read_max_min_cnt<T>(maxMinValue, &maxMinIndex, "GetReduceRepeatMaxMinSpr", loc);
}
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, ASCEND_SIM_LOC) {
    sim::read_max_min_cnt<T>(maxMinValue, nullptr, "GetReduceRepeatMaxMinSpr", loc);
}

}  // namespace AscendC

// The CPU-debug / bisheng builtin behind GetReduceMaxMinCount (dav_c220 impl): the raw register.
inline int64_t get_max_min_cnt() {
    return ::AscendC::sim::tl_core ? static_cast<int64_t>(::AscendC::sim::tl_core->max_min_cnt) : 0;
}

// ascend_sim: machinery shared by the vector APIs — repeat parameters, masks, the level-2
// (first `count` elements) and level-0 (mask x repeat x stride) execution engines, and costs.
#pragma once

#include <cmath>
#include <limits>

#include "datacopy.h"

namespace AscendC {

// ---- mask registers ----
__aicore__ inline void SetMaskCount() {
    if (sim::tl_core) sim::tl_core->mask_counter_mode = true;
}
__aicore__ inline void SetMaskNorm() {
    if (sim::tl_core) sim::tl_core->mask_counter_mode = false;
}
__aicore__ inline void ResetMask() {
    if (sim::tl_core) {
        sim::tl_core->mask_lo = FULL_MASK;
        sim::tl_core->mask_hi = FULL_MASK;
    }
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    if (!sim::tl_core) return;
    if (mode == MaskMode::COUNTER) sim::tl_core->mask_counter_mode = true;
    sim::tl_core->mask_hi = maskHigh;
    sim::tl_core->mask_lo = maskLow;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len) {
    if (!sim::tl_core) return;
    if (mode == MaskMode::COUNTER || sim::tl_core->mask_counter_mode) {
        sim::tl_core->mask_counter_mode = true;
        sim::tl_core->mask_hi = 0;
        sim::tl_core->mask_lo = static_cast<uint64_t>(len);
        return;
    }
    const int n = len;
    sim::tl_core->mask_lo = n >= 64 ? FULL_MASK : ((uint64_t(1) << n) - 1);
    sim::tl_core->mask_hi = n >= 128 ? FULL_MASK : (n > 64 ? ((uint64_t(1) << (n - 64)) - 1) : 0);
}

namespace sim {

// ------------------------------------------------------------------------------------------
// Costs
// ------------------------------------------------------------------------------------------
inline uint64_t vec_cycles(const CoreCtx& c, VecClass k, size_t elem_bytes, uint64_t repeats) {
    if (repeats == 0) return 0;
    const VecCost& v = c.soc->vec[static_cast<int>(k)];
    const bool b32 = elem_bytes >= 4;
    const uint64_t start = b32 ? v.startup_b32 : v.startup_b16;
    const uint64_t per = b32 ? v.per_repeat_b32 : v.per_repeat_b16;
    return start + (repeats - 1) * per;
}

inline uint64_t l2_repeats(uint64_t count, size_t widest_elem) {
    return (count * widest_elem + ONE_REPEAT_BYTE_SIZE - 1) / ONE_REPEAT_BYTE_SIZE;
}

inline void check_count(int64_t count, const char* api, const SrcLoc& loc) {
    if (count < 0) fail("BAD_PARAM", api, loc, "count is %lld, which must not be negative", static_cast<long long>(count));
}

// ------------------------------------------------------------------------------------------
// Level-0 plan: which lanes of which repeats are active
// ------------------------------------------------------------------------------------------
struct L0Plan {
    uint64_t lo = 0;
    uint64_t hi = 0;
    int epr = 0;           // lanes (elements) per repeat
    int repeats = 0;
    bool counter = false;  // counter mode: first `total` elements over as many repeats as needed
    uint64_t total = 0;

    bool lane_on(int r, int lane) const {
        if (counter) return static_cast<uint64_t>(r) * epr + lane < total;
        return lane < 64 ? ((lo >> lane) & 1u) != 0 : ((hi >> (lane - 64)) & 1u) != 0;
    }
};

inline L0Plan plan_l0(CoreCtx& c, bool is_set_mask, bool bit_mode, uint64_t mask_count, const uint64_t* mask_bits,
                      int64_t repeat, int epr, const char* api, const SrcLoc& loc) {
    L0Plan p;
    p.epr = epr;
    if (repeat < 0 || repeat > MAX_REPEAT_TIMES) {
        fail("BAD_PARAM", api, loc, "Failed to check repeatTime value in %s, its valid range is 0 ~ %d, current value is %lld",
             api, MAX_REPEAT_TIMES, static_cast<long long>(repeat));
    }
    p.repeats = static_cast<int>(repeat);
    if (!is_set_mask) {
        if (c.mask_counter_mode) {
            p.counter = true;
            p.total = c.mask_lo;
            p.repeats = static_cast<int>((p.total + epr - 1) / epr);
        } else {
            p.lo = c.mask_lo;
            p.hi = epr > 64 ? c.mask_hi : 0;
        }
        return p;
    }
    if (bit_mode) {
        p.lo = mask_bits[0];
        p.hi = epr > 64 ? mask_bits[1] : 0;
        if (epr < 64) p.lo &= (uint64_t(1) << epr) - 1;
        return p;
    }
    if (mask_count < 1 || mask_count > static_cast<uint64_t>(epr)) {
        fail("BAD_PARAM", api, loc, "Failed to check mask value in %s, its valid range is 1 ~ %d, current value is %llu",
             api, epr, static_cast<unsigned long long>(mask_count));
    }
    const int n = static_cast<int>(mask_count);
    p.lo = n >= 64 ? FULL_MASK : ((uint64_t(1) << n) - 1);
    p.hi = n >= 128 ? FULL_MASK : (n > 64 ? ((uint64_t(1) << (n - 64)) - 1) : 0);
    return p;
}

// Strided operand of a level-0 instruction.
struct L0Operand {
    LocalView v;
    size_t esize = 0;
    uint64_t blk_stride = 1;  // in 32-byte blocks
    uint64_t rep_stride = 8;  // in 32-byte blocks
    const char* role = "";
    bool is_dst = false;

    uint64_t offset(int r, int lane) const {
        const uint64_t epb = ONE_BLK_SIZE / esize;
        return static_cast<uint64_t>(r) * rep_stride * ONE_BLK_SIZE + (lane / epb) * blk_stride * ONE_BLK_SIZE +
               (lane % epb) * esize;
    }
};

// Bounds- and init-checks every active lane, then returns false if nothing runs.
inline void l0_check(const L0Plan& p, L0Operand* ops, int nops, const char* api, const SrcLoc& loc) {
    for (int k = 0; k < nops; ++k) {
        L0Operand& o = ops[k];
        uint64_t max_end = 0;
        bool uninit = false;
        for (int r = 0; r < p.repeats; ++r) {
            for (int lane = 0; lane < p.epr; ++lane) {
                if (!p.lane_on(r, lane)) continue;
                const uint64_t off = o.offset(r, lane);
                max_end = std::max(max_end, off + o.esize);
                if (!o.is_dst && off + o.esize <= o.v.extent && !uninit && !o.v.shadow[off]) uninit = true;
            }
        }
        need(o.v, max_end, api, o.role, loc);
        if (uninit) {
            warn("UNINIT_READ", api, loc, "%s reads UB memory that was never written since its buffer was allocated",
                 o.role);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Element helpers
// ------------------------------------------------------------------------------------------
template <typename T>
using Wide = typename std::conditional<IsFloatLike<T>::value, float, int64_t>::type;

template <typename T>
inline Wide<T> ld(T v) {
    if constexpr (IsFloatLike<T>::value) {
        return to_f<T>(v);
    } else {
        return static_cast<int64_t>(v);
    }
}
template <typename T, typename W>
inline T st(W w) {
    if constexpr (IsFloatLike<T>::value) {
        return from_f<T>(static_cast<float>(w));
    } else {
        return static_cast<T>(static_cast<int64_t>(w));
    }
}

// The vector unit's shifts by a count of the element's width or more: everything shifted out
// (0), except that an arithmetic right shift leaves the sign in every bit (-1 for a negative
// value): NPUKernelBench's int32 Abs shifts by 32 to get that mask. A negative count shifts 0.
template <typename T>
inline T shift_right(T a, int64_t s) {
    constexpr int64_t bits = static_cast<int64_t>(sizeof(T) * 8);
    if (s <= 0) return a;
    if (s >= bits) return std::is_signed<T>::value && a < 0 ? static_cast<T>(-1) : static_cast<T>(0);
    return static_cast<T>(a >> s);
}
template <typename T>
inline T shift_left(T a, int64_t s) {
    constexpr int64_t bits = static_cast<int64_t>(sizeof(T) * 8);
    if (s <= 0) return a;
    if (s >= bits) return static_cast<T>(0);
    using U = typename std::make_unsigned<T>::type;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << s));
}

// ------------------------------------------------------------------------------------------
// Generic engines
// ------------------------------------------------------------------------------------------

// dst[i] = f(src0[i], src1[i]) for the first `count` elements.
template <typename D, typename S0, typename S1, typename F>
inline void binary_l2(const char* api, VecClass k, const LocalTensor<D>& dst, const LocalTensor<S0>& src0,
                      const LocalTensor<S1>& src1, int64_t count, const SrcLoc& loc, F f) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    check_count(count, api, loc);
    LocalView d = view(dst, api, "dst", loc);
    LocalView a = view(src0, api, "src0", loc);
    LocalView b = view(src1, api, "src1", loc);
    const uint64_t n = static_cast<uint64_t>(count);
    need(d, n * sizeof(D), api, "dst", loc);
    need(a, n * sizeof(S0), api, "src0", loc);
    need(b, n * sizeof(S1), api, "src1", loc);
    check_init(a, 0, n * sizeof(S0), api, "src0", loc);
    check_init(b, 0, n * sizeof(S1), api, "src1", loc);
    D* dp = reinterpret_cast<D*>(d.data);
    const S0* ap = reinterpret_cast<const S0*>(a.data);
    const S1* bp = reinterpret_cast<const S1*>(b.data);
    for (uint64_t i = 0; i < n; ++i) dp[i] = f(ap[i], bp[i]);
    mark_written(d, 0, n * sizeof(D));
    const size_t w = std::max({sizeof(D), sizeof(S0), sizeof(S1)});
    charge(c, Pipe::V, vec_cycles(c, k, w, l2_repeats(n, w)), api, loc, {{a.blk, false}, {b.blk, false}, {d.blk, true}},
           c.soc->level2_extra);
}

// dst[i] = f(src[i]) for the first `count` elements.
template <typename D, typename S, typename F>
inline void unary_l2(const char* api, VecClass k, const LocalTensor<D>& dst, const LocalTensor<S>& src, int64_t count,
                     const SrcLoc& loc, F f, bool dst_is_input = false) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    check_count(count, api, loc);
    LocalView d = view(dst, api, "dst", loc);
    LocalView a = view(src, api, "src", loc);
    const uint64_t n = static_cast<uint64_t>(count);
    need(d, n * sizeof(D), api, "dst", loc);
    need(a, n * sizeof(S), api, "src", loc);
    check_init(a, 0, n * sizeof(S), api, "src", loc);
    if (dst_is_input) check_init(d, 0, n * sizeof(D), api, "dst", loc);
    D* dp = reinterpret_cast<D*>(d.data);
    const S* ap = reinterpret_cast<const S*>(a.data);
    for (uint64_t i = 0; i < n; ++i) dp[i] = f(ap[i], dp[i]);
    mark_written(d, 0, n * sizeof(D));
    const size_t w = std::max(sizeof(D), sizeof(S));
    charge(c, Pipe::V, vec_cycles(c, k, w, l2_repeats(n, w)), api, loc, {{a.blk, false}, {d.blk, true}},
           c.soc->level2_extra);
}

// Level-0 binary: dst = f(src0, src1) over masked lanes of `repeat` repeats.
template <typename D, typename S0, typename S1, typename F>
inline void binary_l0(const char* api, VecClass k, const LocalTensor<D>& dst, const LocalTensor<S0>& src0,
                      const LocalTensor<S1>& src1, bool is_set_mask, bool bit_mode, uint64_t mask_count,
                      const uint64_t* mask_bits, int64_t repeat, const BinaryRepeatParams& rp, const SrcLoc& loc, F f) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const size_t w = std::max({sizeof(D), sizeof(S0), sizeof(S1)});
    const int epr = static_cast<int>(ONE_REPEAT_BYTE_SIZE / w);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, mask_bits, repeat, epr, api, loc);
    L0Operand ops[3];
    ops[0] = L0Operand{view(dst, api, "dst", loc), sizeof(D), rp.dstBlkStride, rp.dstRepStride, "dst", true};
    ops[1] = L0Operand{view(src0, api, "src0", loc), sizeof(S0), rp.src0BlkStride, rp.src0RepStride, "src0", false};
    ops[2] = L0Operand{view(src1, api, "src1", loc), sizeof(S1), rp.src1BlkStride, rp.src1RepStride, "src1", false};
    if (p.repeats == 0) return;
    l0_check(p, ops, 3, api, loc);
    for (int r = 0; r < p.repeats; ++r) {
        for (int lane = 0; lane < p.epr; ++lane) {
            if (!p.lane_on(r, lane)) continue;
            const uint64_t od = ops[0].offset(r, lane);
            S0 a;
            S1 b;
            std::memcpy(&a, ops[1].v.data + ops[1].offset(r, lane), sizeof(S0));
            std::memcpy(&b, ops[2].v.data + ops[2].offset(r, lane), sizeof(S1));
            D out = f(a, b);
            std::memcpy(ops[0].v.data + od, &out, sizeof(D));
            std::memset(ops[0].v.shadow + od, 1, sizeof(D));
        }
    }
    charge(c, Pipe::V, vec_cycles(c, k, w, static_cast<uint64_t>(p.repeats)), api, loc,
           {{ops[1].v.blk, false}, {ops[2].v.blk, false}, {ops[0].v.blk, true}}, is_set_mask ? 1 : 0);
}

// Level-0 unary: dst = f(src, dst) over masked lanes.
template <typename D, typename S, typename F>
inline void unary_l0(const char* api, VecClass k, const LocalTensor<D>& dst, const LocalTensor<S>& src, bool is_set_mask,
                     bool bit_mode, uint64_t mask_count, const uint64_t* mask_bits, int64_t repeat, uint64_t dst_blk,
                     uint64_t src_blk, uint64_t dst_rep, uint64_t src_rep, const SrcLoc& loc, F f,
                     bool dst_is_input = false, bool src_is_input = true) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const size_t w = std::max(sizeof(D), sizeof(S));
    const int epr = static_cast<int>(ONE_REPEAT_BYTE_SIZE / w);
    L0Plan p = plan_l0(c, is_set_mask, bit_mode, mask_count, mask_bits, repeat, epr, api, loc);
    L0Operand ops[3];
    ops[0] = L0Operand{view(dst, api, "dst", loc), sizeof(D), dst_blk, dst_rep, "dst", !dst_is_input};
    ops[1] = L0Operand{view(src, api, "src", loc), sizeof(S), src_blk, src_rep, "src", false};
    if (p.repeats == 0) return;
    l0_check(p, ops, src_is_input ? 2 : 1, api, loc);
    for (int r = 0; r < p.repeats; ++r) {
        for (int lane = 0; lane < p.epr; ++lane) {
            if (!p.lane_on(r, lane)) continue;
            const uint64_t od = ops[0].offset(r, lane);
            S a;
            D old;
            std::memcpy(&a, ops[1].v.data + ops[1].offset(r, lane), sizeof(S));
            std::memcpy(&old, ops[0].v.data + od, sizeof(D));
            D out = f(a, old);
            std::memcpy(ops[0].v.data + od, &out, sizeof(D));
            std::memset(ops[0].v.shadow + od, 1, sizeof(D));
        }
    }
    charge(c, Pipe::V, vec_cycles(c, k, w, static_cast<uint64_t>(p.repeats)), api, loc,
           {{ops[1].v.blk, false}, {ops[0].v.blk, true}}, is_set_mask ? 1 : 0);
}

}  // namespace sim
}  // namespace AscendC

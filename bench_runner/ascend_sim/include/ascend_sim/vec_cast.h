// ascend_sim: Cast with every RoundMode. The (src, dst) pairs follow the 910B table of the Cast
// documentation; a pair outside it fails to compile, a RoundMode the pair does not offer is a
// BAD_PARAM error at run time.
#pragma once

#include "vec_common.h"

namespace AscendC {
namespace sim {

enum : uint32_t {
    RM_NONE = 1u << 0,
    RM_RINT = 1u << 1,
    RM_FLOOR = 1u << 2,
    RM_CEIL = 1u << 3,
    RM_ROUND = 1u << 4,
    RM_TRUNC = 1u << 5,
    RM_ODD = 1u << 6,
    RM_R5 = RM_RINT | RM_FLOOR | RM_CEIL | RM_ROUND | RM_TRUNC,
};

// Round modes offered for converting S to D (0: the pair is not supported).
template <typename D, typename S>
constexpr uint32_t cast_modes() {
    using std::is_same;
    if (is_same<S, half>::value) {
        if (is_same<D, float>::value) return RM_NONE;
        if (is_same<D, int32_t>::value || is_same<D, int16_t>::value) return RM_R5;
        if (is_same<D, int8_t>::value || is_same<D, uint8_t>::value) return RM_NONE | RM_R5;
    }
    if (is_same<S, float>::value) {
        if (is_same<D, float>::value) return RM_R5;
        if (is_same<D, half>::value) return RM_NONE | RM_R5 | RM_ODD;
        if (is_same<D, int32_t>::value || is_same<D, int64_t>::value || is_same<D, int16_t>::value) return RM_R5;
        if (is_same<D, bfloat16_t>::value) return RM_R5;
    }
    if (is_same<S, bfloat16_t>::value) {
        if (is_same<D, float>::value) return RM_NONE;
        if (is_same<D, int32_t>::value) return RM_R5;
    }
    if (is_same<S, uint8_t>::value || is_same<S, int8_t>::value) {
        if (is_same<D, half>::value) return RM_NONE;
    }
    if (is_same<S, int16_t>::value) {
        if (is_same<D, half>::value) return RM_NONE | RM_R5;
        if (is_same<D, float>::value) return RM_NONE;
    }
    if (is_same<S, int32_t>::value) {
        if (is_same<D, float>::value) return RM_NONE | RM_R5;
        if (is_same<D, int64_t>::value || is_same<D, int16_t>::value || is_same<D, half>::value) return RM_NONE;
    }
    if (is_same<S, int64_t>::value) {
        if (is_same<D, int32_t>::value) return RM_NONE;
        if (is_same<D, float>::value) return RM_R5;
    }
    return 0;
}

inline const char* round_mode_name(RoundMode m) {
    switch (m) {
        case RoundMode::CAST_NONE: return "CAST_NONE";
        case RoundMode::CAST_RINT: return "CAST_RINT";
        case RoundMode::CAST_FLOOR: return "CAST_FLOOR";
        case RoundMode::CAST_CEIL: return "CAST_CEIL";
        case RoundMode::CAST_ROUND: return "CAST_ROUND";
        case RoundMode::CAST_TRUNC: return "CAST_TRUNC";
        case RoundMode::CAST_ODD: return "CAST_ODD";
    }
    return "?";
}

inline Rnd to_rnd(RoundMode m) {
    switch (m) {
        case RoundMode::CAST_FLOOR: return Rnd::FLOOR;
        case RoundMode::CAST_CEIL: return Rnd::CEIL;
        case RoundMode::CAST_ROUND: return Rnd::AWAY;
        case RoundMode::CAST_TRUNC: return Rnd::ZERO;
        case RoundMode::CAST_ODD: return Rnd::ODD;
        default: return Rnd::NEAREST_EVEN;  // CAST_NONE rounds to nearest when precision is lost
    }
}

inline double round_to_integer(double v, Rnd r) {
    switch (r) {
        case Rnd::FLOOR: return std::floor(v);
        case Rnd::CEIL: return std::ceil(v);
        case Rnd::AWAY: return std::round(v);
        case Rnd::ZERO: return std::trunc(v);
        default: return std::nearbyint(v);  // default FP environment: ties to even
    }
}

template <typename S>
inline double load_exact(S s) {
    if constexpr (IsFloatLike<S>::value) {
        return static_cast<double>(to_f<S>(s));
    } else {
        return static_cast<double>(s);
    }
}

// Converts one element with the requested rounding; integer results saturate, NaN becomes 0.
template <typename D, typename S>
inline D cast_one(S s, Rnd r) {
    if constexpr (std::is_same<D, S>::value && std::is_same<D, float>::value) {
        return static_cast<float>(round_to_integer(s, r));
    } else if constexpr (std::is_integral<S>::value && std::is_integral<D>::value) {
        const int64_t v = static_cast<int64_t>(s);
        const int64_t lo = static_cast<int64_t>(std::numeric_limits<D>::min());
        const int64_t hi = static_cast<int64_t>(std::numeric_limits<D>::max());
        return static_cast<D>(v < lo ? lo : (v > hi ? hi : v));
    } else {
        const double v = load_exact(s);
        if constexpr (std::is_same<D, half>::value) {
            return half::FromBits(double_to_half_bits(v, r));
        } else if constexpr (std::is_same<D, bfloat16_t>::value) {
            return bfloat16_t::FromBits(double_to_bf16_bits(v, r));
        } else if constexpr (std::is_same<D, float>::value) {
            return bits_f32(narrow_double<8, 23>(v, r));
        } else {
            if (std::isnan(v)) return D(0);
            const double q = round_to_integer(v, r);
            const double lo = static_cast<double>(std::numeric_limits<D>::min());
            const double hi = static_cast<double>(std::numeric_limits<D>::max());
            if (q <= lo) return std::numeric_limits<D>::min();
            if (q >= hi) return std::numeric_limits<D>::max();
            return static_cast<D>(q);
        }
    }
}

template <typename D, typename S>
inline Rnd checked_mode(RoundMode m, const char* api, const SrcLoc& loc) {
    constexpr uint32_t ok = cast_modes<D, S>();
    const uint32_t bit = 1u << static_cast<int>(m);
    if (!(ok & bit)) {
        std::string list;
        for (int i = 0; i <= static_cast<int>(RoundMode::CAST_ODD); ++i) {
            if (ok & (1u << i)) {
                if (!list.empty()) list += ", ";
                list += round_mode_name(static_cast<RoundMode>(i));
            }
        }
        fail("BAD_PARAM", api, loc, "Cast from %s to %s does not support RoundMode::%s; supported: %s", TypeName<S>::value,
             TypeName<D>::value, round_mode_name(m), list.c_str());
    }
    return to_rnd(m);
}

// Cast int32_t -> half ("s322fp16") goes through the DEQSCALE register on the NPU: dst =
// half(src * scale), scale being the half in bits 0..15 written by SetDeqScale(half) (ASC
// SetDeqScale docs, table 1). Until a kernel sets it the emulator converts plainly (scale 1):
// the register's reset value is not documented.
inline float deq_scale_f16(const CoreCtx& c) {
    return c.deq_set ? half_bits_to_float(static_cast<uint16_t>(c.deq_scale & 0xFFFFu)) : 1.0f;
}
template <typename D, typename S>
inline D cast_deq(S s, Rnd r, float scale) {
    if constexpr (std::is_same<D, half>::value && std::is_same<S, int32_t>::value) {
        return half::FromBits(double_to_half_bits(static_cast<double>(s) * static_cast<double>(scale), r));
    } else {
        (void)scale;
        return cast_one<D, S>(s, r);
    }
}

}  // namespace sim

// ---- SetDeqScale: the DEQSCALE register (ASC kernel_operator_vec_vconv_intf.h) ----
constexpr int32_t VDEQ_TENSOR_SIZE = 16;
struct VdeqInfo {
    __aicore__ VdeqInfo() {}
    __aicore__ VdeqInfo(const float vdeqScaleIn[VDEQ_TENSOR_SIZE], const int16_t vdeqOffsetIn[VDEQ_TENSOR_SIZE],
                        const bool vdeqSignModeIn[VDEQ_TENSOR_SIZE]) {
        for (int32_t i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
            vdeqScale[i] = vdeqScaleIn[i];
            vdeqOffset[i] = vdeqOffsetIn[i];
            vdeqSignMode[i] = vdeqSignModeIn[i];
        }
    }
    float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
    int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
    bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

namespace sim {
// Bit layout of one 64-bit quantisation word (docs, table 1): float scale in bits 0..31, the
// 9-bit signed offset in 37..45, signMode in bit 46.
inline uint64_t deq_word(float scale, int16_t offset, bool sign_mode) {
    uint32_t sb;
    std::memcpy(&sb, &scale, 4);
    return static_cast<uint64_t>(sb) | (static_cast<uint64_t>(static_cast<uint16_t>(offset) & 0x1FFu) << 37) |
           (static_cast<uint64_t>(sign_mode ? 1 : 0) << 46);
}
inline void set_deq(uint64_t v, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("SetDeqScale", loc);
    c.deq_scale = v;
    c.deq_set = true;
    charge_scalar(c, c.soc->issue_cycles);
}
}  // namespace sim

// s322fp16 (Cast int32_t -> half, AddDeqRelu): a half scale in bits 0..15.
__aicore__ inline void SetDeqScale(half scale, ASCEND_SIM_LOC) { sim::set_deq(scale.ToBits(), loc); }
// s162b8 without vector quantisation (CastDequant): scale, 9-bit offset, sign mode.
__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode, ASCEND_SIM_LOC) {
    sim::set_deq(sim::deq_word(scale, offset, signMode), loc);
}
// s162b8 with vector quantisation: 16 words written to `vdeq` (128 bytes of UB), the register
// holds its address.
template <typename T>
__aicore__ inline void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo, ASCEND_SIM_LOC) {
    static_assert(std::is_same<T, uint64_t>::value,
                  "Failed to check dtype in SetDeqScale, current api support dtype is uint64_t");
    {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::CoreCtx& c = sim::enter("SetDeqScale", loc);
        sim::LocalView v = sim::view(vdeq, "SetDeqScale", "vdeq", loc);
        sim::need(v, VDEQ_TENSOR_SIZE * 8, "SetDeqScale", "vdeq", loc);
        for (int32_t i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
            const uint64_t w = sim::deq_word(vdeqInfo.vdeqScale[i], vdeqInfo.vdeqOffset[i], vdeqInfo.vdeqSignMode[i]);
            std::memcpy(v.data + i * 8, &w, 8);
        }
        sim::mark_written(v, 0, VDEQ_TENSOR_SIZE * 8);
        sim::charge_scalar(c, static_cast<uint64_t>(c.soc->ub_scalar_cycles) * VDEQ_TENSOR_SIZE, v.blk, true);
    }
    sim::set_deq(static_cast<uint64_t>(sim::TensorAccess::offset(vdeq)), loc);
}

#define ASCEND_SIM_CAST_CHECK()                                                                                   \
    static_assert(sim::cast_modes<T, U>() != 0,                                                                  \
                  "Failed to check dtype in Cast, current api does not support this src/dst dtype combination " \
                  "(see the Cast dtype table of the target SoC)")

template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count, ASCEND_SIM_LOC) {
    ASCEND_SIM_CAST_CHECK();
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("Cast", loc);
    const sim::Rnd r = sim::checked_mode<T, U>(roundMode, "Cast", loc);
    const float q = sim::deq_scale_f16(*sim::tl_core);
    sim::unary_l2("Cast", sim::VecClass::UNARY, dst, src, count, loc, [r, q](U a, T) ASCEND_SIM_NOINSTR -> T { return sim::cast_deq<T, U>(a, r, q); });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCEND_SIM_LOC) {
    ASCEND_SIM_CAST_CHECK();
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("Cast", loc);
    const sim::Rnd r = sim::checked_mode<T, U>(roundMode, "Cast", loc);
    const float q = sim::deq_scale_f16(*sim::tl_core);
    sim::unary_l0("Cast", sim::VecClass::UNARY, dst, src, isSetMask, true, 0, mask, repeatTime, repeatParams.dstBlkStride,
                  repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, loc,
                  [r, q](U a, T) ASCEND_SIM_NOINSTR -> T { return sim::cast_deq<T, U>(a, r, q); });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCEND_SIM_LOC) {
    ASCEND_SIM_CAST_CHECK();
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("Cast", loc);
    const sim::Rnd r = sim::checked_mode<T, U>(roundMode, "Cast", loc);
    const float q = sim::deq_scale_f16(*sim::tl_core);
    sim::unary_l0("Cast", sim::VecClass::UNARY, dst, src, isSetMask, false, mask, nullptr, repeatTime,
                  repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,
                  repeatParams.srcRepStride, loc, [r, q](U a, T) ASCEND_SIM_NOINSTR -> T { return sim::cast_deq<T, U>(a, r, q); });
}
#undef ASCEND_SIM_CAST_CHECK

}  // namespace AscendC

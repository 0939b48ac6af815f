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

}  // namespace sim

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
    sim::unary_l2("Cast", sim::VecClass::UNARY, dst, src, count, loc, [r](U a, T) ASCEND_SIM_NOINSTR -> T { return sim::cast_one<T, U>(a, r); });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCEND_SIM_LOC) {
    ASCEND_SIM_CAST_CHECK();
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("Cast", loc);
    const sim::Rnd r = sim::checked_mode<T, U>(roundMode, "Cast", loc);
    sim::unary_l0("Cast", sim::VecClass::UNARY, dst, src, isSetMask, true, 0, mask, repeatTime, repeatParams.dstBlkStride,
                  repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, loc,
                  [r](U a, T) ASCEND_SIM_NOINSTR -> T { return sim::cast_one<T, U>(a, r); });
}

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                            ASCEND_SIM_LOC) {
    ASCEND_SIM_CAST_CHECK();
    const ::AscendC::sim::ApiScope api_scope_;
    sim::enter("Cast", loc);
    const sim::Rnd r = sim::checked_mode<T, U>(roundMode, "Cast", loc);
    sim::unary_l0("Cast", sim::VecClass::UNARY, dst, src, isSetMask, false, mask, nullptr, repeatTime,
                  repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,
                  repeatParams.srcRepStride, loc, [r](U a, T) ASCEND_SIM_NOINSTR -> T { return sim::cast_one<T, U>(a, r); });
}
#undef ASCEND_SIM_CAST_CHECK

}  // namespace AscendC

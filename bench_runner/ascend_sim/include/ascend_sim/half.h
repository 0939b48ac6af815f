// ascend_sim: IEEE binary16 `half` and `bfloat16_t`, with every RoundMode the Cast API offers.
//
// On the NPU both are built-in arithmetic types. Here they are 2-byte trivially copyable classes
// that convert implicitly to and from the C++ arithmetic types; arithmetic promotes to float and
// rounds back on assignment, which gives correctly rounded results for + - * / sqrt.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace AscendC {
namespace sim {

// Rounding modes used by the converters (mirrors RoundMode, kept separate so this header is
// usable without the API enums).
enum class Rnd : uint8_t { NEAREST_EVEN, FLOOR, CEIL, AWAY, ZERO, ODD };

// Bit casts are __builtin_bit_cast (GCC >= 11, any -std) rather than memcpy so that every
// conversion below is constexpr: on the NPU half is a built-in type and kernels write
// `constexpr half HALF_ONE = 1.0;`, which needs a constant-evaluable half(double).
constexpr inline uint32_t f32_bits(float f) { return __builtin_bit_cast(uint32_t, f); }
constexpr inline float bits_f32(uint32_t u) { return __builtin_bit_cast(float, u); }

// half -> float, exact. Shifting the 15 exponent+mantissa bits into float position and scaling
// by 2^112 re-biases normals and normalises subnormals in one multiply.
constexpr inline float half_bits_to_float(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t em = h & 0x7fffu;
    float mag = 0.0f;
    if (em >= 0x7c00u) {
        mag = bits_f32(0x7f800000u | (em & 0x3ffu) << 13);  // inf / nan (payload kept)
    } else {
        mag = bits_f32(em << 13) * 5.192296858534828e+33f;  // 2^112
    }
    return bits_f32(f32_bits(mag) | sign);
}

// float -> half, round to nearest even (the fast path used by every vector op on half).
constexpr inline uint16_t float_to_half_bits(float f) {
    uint32_t u = f32_bits(f);
    const uint32_t sign = (u >> 16) & 0x8000u;
    u &= 0x7fffffffu;
    uint32_t out = 0;
    if (u >= 0x47800000u) {  // |f| >= 65536 or inf/nan
        out = (u > 0x7f800000u) ? 0x7e00u : 0x7c00u;
    } else if (u < 0x38800000u) {  // below the smallest normal half (2^-14): subnormal or zero
        // Adding 0.5 aligns the value so the FPU's own nearest-even rounding yields the
        // subnormal mantissa in the low bits.
        const float shifted = bits_f32(u) + 0.5f;
        out = f32_bits(shifted) - 0x3f000000u;
    } else {
        const uint32_t odd = (u >> 13) & 1u;
        u += 0xc8000fffu;  // re-bias exponent (-112 << 23) and add the rounding bias
        u += odd;
        out = u >> 13;
    }
    return static_cast<uint16_t>(out | sign);
}

// Generic correctly rounded narrowing of a double to a small binary format with EXP exponent
// bits and MAN mantissa bits, in any direction. Overflow follows IEEE (to inf when the mode
// rounds away from zero, to the largest finite value otherwise). The double is taken apart from
// its bits (no frexp/ldexp) so that the function is constexpr.
template <int EXP, int MAN>
constexpr inline uint32_t narrow_double(double x, Rnd mode) {
    constexpr int bias = (1 << (EXP - 1)) - 1;
    constexpr int emin = 1 - bias;
    constexpr uint32_t exp_all = (1u << EXP) - 1;
    constexpr uint32_t sign_bit = 1u << (EXP + MAN);
    constexpr uint32_t inf_bits = exp_all << MAN;
    constexpr uint32_t max_finite = inf_bits - 1;
    const uint64_t u = __builtin_bit_cast(uint64_t, x);
    const bool neg = (u >> 63) != 0;
    const uint32_t sign = neg ? sign_bit : 0u;
    const uint32_t dexp = static_cast<uint32_t>(u >> 52) & 0x7ffu;
    const uint64_t dman = u & ((uint64_t(1) << 52) - 1);
    if (dexp == 0x7ffu) return sign | inf_bits | (dman != 0 ? (1u << (MAN - 1)) : 0u);  // nan / inf
    if (dexp == 0 && dman == 0) return sign;                                             // +-0
    // a = m * 2^(E-52) with a 53-bit integer significand m (a double subnormal keeps E = -1022
    // and a smaller m: far below every target's smallest subnormal, it only sets the sticky bit).
    const int E = dexp == 0 ? -1022 : static_cast<int>(dexp) - 1023;
    const uint64_t m = dexp == 0 ? dman : (dman | (uint64_t(1) << 52));
    const int qexp = (E < emin ? emin : E) - MAN;  // exponent of one unit in the last place
    const int shift = qexp - (E - 52);             // bits to drop from m
    uint64_t kept = 0;
    bool rem_nonzero = false;
    bool above_half = false;
    bool exactly_half = false;
    if (shift <= 0) {
        kept = m << (-shift);
        rem_nonzero = above_half = exactly_half = false;
    } else if (shift >= 64) {
        kept = 0;
        rem_nonzero = true;
        above_half = false;
        exactly_half = false;
    } else {
        kept = m >> shift;
        const uint64_t rem = m & ((uint64_t(1) << shift) - 1);
        const uint64_t half_pt = uint64_t(1) << (shift - 1);
        rem_nonzero = rem != 0;
        above_half = rem > half_pt;
        exactly_half = rem == half_pt;
    }
    bool inc = false;
    switch (mode) {
        case Rnd::NEAREST_EVEN: inc = above_half || (exactly_half && (kept & 1u)); break;
        case Rnd::AWAY: inc = above_half || exactly_half; break;
        case Rnd::ZERO: inc = false; break;
        case Rnd::FLOOR: inc = neg && rem_nonzero; break;
        case Rnd::CEIL: inc = !neg && rem_nonzero; break;
        case Rnd::ODD:
            if (rem_nonzero) kept |= 1u;
            break;
    }
    kept += inc ? 1u : 0u;
    int outE = (E < emin ? emin : E);
    if (kept >= (uint64_t(2) << MAN)) {  // mantissa carry
        kept >>= 1;
        outE += 1;
    }
    if (kept < (uint64_t(1) << MAN)) {  // subnormal result (exponent field 0)
        return sign | static_cast<uint32_t>(kept);
    }
    if (outE + bias >= static_cast<int>(exp_all)) {  // overflow
        const bool to_inf = mode == Rnd::NEAREST_EVEN || mode == Rnd::AWAY ||
                            (mode == Rnd::CEIL && !neg) || (mode == Rnd::FLOOR && neg);
        return sign | (to_inf ? inf_bits : max_finite);
    }
    return sign | (static_cast<uint32_t>(outE + bias) << MAN) |
           static_cast<uint32_t>(kept & ((uint64_t(1) << MAN) - 1));
}

constexpr inline uint16_t double_to_half_bits(double d, Rnd mode = Rnd::NEAREST_EVEN) {
    return static_cast<uint16_t>(narrow_double<5, 10>(d, mode));
}
constexpr inline uint16_t double_to_bf16_bits(double d, Rnd mode = Rnd::NEAREST_EVEN) {
    return static_cast<uint16_t>(narrow_double<8, 7>(d, mode));
}
constexpr inline float bf16_bits_to_float(uint16_t b) { return bits_f32(static_cast<uint32_t>(b) << 16); }
constexpr inline uint16_t float_to_bf16_bits(float f) {
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
}

struct BitsTag {};

}  // namespace sim
}  // namespace AscendC

// ------------------------------------------------------------------------------------------
// half (global, as the NPU built-in is)
// ------------------------------------------------------------------------------------------
struct half {
    uint16_t val;

    // Constructors and the conversion are constexpr, as for the NPU's built-in type
    // (`constexpr half HALF_ONE = 1.0;`, `static constexpr half kMin = -65504;`).
    half() = default;
    constexpr half(uint16_t bits, AscendC::sim::BitsTag) : val(bits) {}
    constexpr inline half(float f) : val(AscendC::sim::float_to_half_bits(f)) {}
    constexpr inline half(double d) : val(AscendC::sim::double_to_half_bits(d)) {}
    template <typename I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
    constexpr inline half(I i) : val(AscendC::sim::double_to_half_bits(static_cast<double>(i))) {}

    constexpr inline operator float() const { return AscendC::sim::half_bits_to_float(val); }

    static constexpr inline half FromBits(uint16_t b) { return half(b, AscendC::sim::BitsTag{}); }
    constexpr inline uint16_t ToBits() const { return val; }

    constexpr inline half& operator+=(float o) { return *this = half(float(*this) + o); }
    constexpr inline half& operator-=(float o) { return *this = half(float(*this) - o); }
    constexpr inline half& operator*=(float o) { return *this = half(float(*this) * o); }
    constexpr inline half& operator/=(float o) { return *this = half(float(*this) / o); }
    constexpr inline half& operator++() { return *this += 1.0f; }
    constexpr inline half& operator--() { return *this -= 1.0f; }
    constexpr inline half operator++(int) {
        half t = *this;
        *this += 1.0f;
        return t;
    }
    constexpr inline half operator--(int) {
        half t = *this;
        *this -= 1.0f;
        return t;
    }
};
static_assert(sizeof(half) == 2, "half must be 2 bytes");
static_assert(std::is_trivially_copyable<half>::value, "half must be trivially copyable");

struct bfloat16_t {
    uint16_t val;

    bfloat16_t() = default;
    constexpr bfloat16_t(uint16_t bits, AscendC::sim::BitsTag) : val(bits) {}
    constexpr inline bfloat16_t(float f) : val(AscendC::sim::float_to_bf16_bits(f)) {}
    constexpr inline bfloat16_t(double d) : val(AscendC::sim::double_to_bf16_bits(d)) {}
    template <typename I, typename std::enable_if<std::is_integral<I>::value, int>::type = 0>
    constexpr inline bfloat16_t(I i) : val(AscendC::sim::double_to_bf16_bits(static_cast<double>(i))) {}
    constexpr inline explicit bfloat16_t(half h) : val(AscendC::sim::float_to_bf16_bits(float(h))) {}

    constexpr inline operator float() const { return AscendC::sim::bf16_bits_to_float(val); }

    static constexpr inline bfloat16_t FromBits(uint16_t b) { return bfloat16_t(b, AscendC::sim::BitsTag{}); }
    constexpr inline uint16_t ToBits() const { return val; }

    constexpr inline bfloat16_t& operator+=(float o) { return *this = bfloat16_t(float(*this) + o); }
    constexpr inline bfloat16_t& operator-=(float o) { return *this = bfloat16_t(float(*this) - o); }
    constexpr inline bfloat16_t& operator*=(float o) { return *this = bfloat16_t(float(*this) * o); }
    constexpr inline bfloat16_t& operator/=(float o) { return *this = bfloat16_t(float(*this) / o); }
};
static_assert(sizeof(bfloat16_t) == 2, "bfloat16_t must be 2 bytes");

// 4-bit integer placeholder (packed two per byte on the NPU); only its name is provided.
struct int4b_t {
    int8_t val;
};

namespace AscendC {
namespace sim {
// Value-level type traits used by the API's dtype checks.
template <typename T>
struct TypeName {
    static constexpr const char* value = "unknown";
};
#define ASCEND_SIM_TYPENAME(T, S) \
    template <>                   \
    struct TypeName<T> {          \
        static constexpr const char* value = S; \
    };
ASCEND_SIM_TYPENAME(half, "half")
ASCEND_SIM_TYPENAME(bfloat16_t, "bfloat16_t")
ASCEND_SIM_TYPENAME(float, "float")
ASCEND_SIM_TYPENAME(double, "double")
ASCEND_SIM_TYPENAME(int8_t, "int8_t")
ASCEND_SIM_TYPENAME(uint8_t, "uint8_t")
ASCEND_SIM_TYPENAME(int16_t, "int16_t")
ASCEND_SIM_TYPENAME(uint16_t, "uint16_t")
ASCEND_SIM_TYPENAME(int32_t, "int32_t")
ASCEND_SIM_TYPENAME(uint32_t, "uint32_t")
ASCEND_SIM_TYPENAME(int64_t, "int64_t")
ASCEND_SIM_TYPENAME(uint64_t, "uint64_t")
ASCEND_SIM_TYPENAME(bool, "bool")
#undef ASCEND_SIM_TYPENAME

template <typename T, typename... Ts>
struct OneOf : std::false_type {};
template <typename T, typename U, typename... Ts>
struct OneOf<T, U, Ts...> : std::integral_constant<bool, std::is_same<T, U>::value || OneOf<T, Ts...>::value> {};

// Load any supported element type as float/double for computation and store it back with
// the element type's own rounding.
template <typename T>
inline float to_f(T v) { return static_cast<float>(v); }
template <>
inline float to_f<half>(half v) { return half_bits_to_float(v.val); }
template <>
inline float to_f<bfloat16_t>(bfloat16_t v) { return bf16_bits_to_float(v.val); }

template <typename T>
inline T from_f(float f) { return static_cast<T>(f); }
template <>
inline half from_f<half>(float f) { return half::FromBits(float_to_half_bits(f)); }
template <>
inline bfloat16_t from_f<bfloat16_t>(float f) { return bfloat16_t::FromBits(float_to_bf16_bits(f)); }

template <typename T>
struct IsFloatLike : std::integral_constant<bool, std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value ||
                                                      std::is_floating_point<T>::value> {};
}  // namespace sim
}  // namespace AscendC

// ascend_sim: element-wise vector APIs (binary, unary, tensor-scalar, Duplicate, Axpy) with the
// real overload sets: level 2 (count), level 0 (bit mask / contiguous mask, repeat, strides).
// Unsupported element types fail with the same static_assert text pattern as the real API.
#pragma once

#include "vec_common.h"

namespace AscendC {

#define ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, ...)                                                     \
    static_assert(sim::OneOf<T, __VA_ARGS__>::value, "Failed to check dtype in " #NAME                  \
                                                     ", current api support dtype combination is src " \
                                                     "and dst both: " TYPESTR ".")

// ---------------------------------------------------------------------------- binary ops
#define ASCEND_SIM_BINARY(NAME, KLASS, EXPR, TYPESTR, ...)                                                     \
    template <typename T>                                                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count, ASCEND_SIM_LOC) {                                        \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        sim::binary_l2(#NAME, sim::VecClass::KLASS, dst, src0, src1, count, loc, [](T a, T b) ASCEND_SIM_NOINSTR -> T { return EXPR; }); \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
                                ASCEND_SIM_LOC) {                                                              \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        sim::binary_l0(#NAME, sim::VecClass::KLASS, dst, src0, src1, isSetMask, true, 0, mask, repeatTime,    \
                       repeatParams, loc, [](T a, T b) ASCEND_SIM_NOINSTR -> T { return EXPR; });                                 \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams, \
                                ASCEND_SIM_LOC) {                                                              \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        sim::binary_l0(#NAME, sim::VecClass::KLASS, dst, src0, src1, isSetMask, false, mask, nullptr,         \
                       repeatTime, repeatParams, loc, [](T a, T b) ASCEND_SIM_NOINSTR -> T { return EXPR; });                     \
    }                                                                                                           \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T), (T),                                                          \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
                           const int32_t& count), (dst, src0, src1, count))                                       \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
                           uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams),    \
                          (dst, src0, src1, mask, repeatTime, repeatParams))                                      \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,     \
                           uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams),      \
                          (dst, src0, src1, mask, repeatTime, repeatParams))

ASCEND_SIM_BINARY(Add, BINARY, sim::st<T>(sim::ld(a) + sim::ld(b)), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_BINARY(Sub, BINARY, sim::st<T>(sim::ld(a) - sim::ld(b)), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_BINARY(Mul, BINARY, sim::st<T>(sim::ld(a) * sim::ld(b)), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_BINARY(Div, DIV, sim::st<T>(sim::ld(a) / sim::ld(b)), "half / float", half, float)
ASCEND_SIM_BINARY(Max, BINARY, (sim::ld(a) >= sim::ld(b) ? a : b), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_BINARY(Min, BINARY, (sim::ld(a) <= sim::ld(b) ? a : b), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_BINARY(And, BINARY, static_cast<T>(a & b), "int16_t / uint16_t", int16_t, uint16_t)
ASCEND_SIM_BINARY(Or, BINARY, static_cast<T>(a | b), "int16_t / uint16_t", int16_t, uint16_t)
#undef ASCEND_SIM_BINARY

// ---------------------------------------------------------------------------- unary ops
#define ASCEND_SIM_UNARY(NAME, KLASS, EXPR, TYPESTR, ...)                                                      \
    template <typename T>                                                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count,     \
                                ASCEND_SIM_LOC) {                                                              \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        sim::unary_l2(#NAME, sim::VecClass::KLASS, dst, src, count, loc, [](T a, T) ASCEND_SIM_NOINSTR -> T { return EXPR; });  \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],          \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCEND_SIM_LOC) { \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        sim::unary_l0(#NAME, sim::VecClass::KLASS, dst, src, isSetMask, true, 0, mask, repeatTime,            \
                      repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,         \
                      repeatParams.srcRepStride, loc, [](T a, T) ASCEND_SIM_NOINSTR -> T { return EXPR; });                       \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,            \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCEND_SIM_LOC) { \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        sim::unary_l0(#NAME, sim::VecClass::KLASS, dst, src, isSetMask, false, mask, nullptr, repeatTime,     \
                      repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,         \
                      repeatParams.srcRepStride, loc, [](T a, T) ASCEND_SIM_NOINSTR -> T { return EXPR; });                       \
    }                                                                                                           \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T), (T),                                                          \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count),           \
                          (dst, src, count))                                                                      \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],                 \
                           const uint8_t repeatTime, const UnaryRepeatParams& repeatParams),                      \
                          (dst, src, mask, repeatTime, repeatParams))                                             \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,                   \
                           const uint8_t repeatTime, const UnaryRepeatParams& repeatParams),                      \
                          (dst, src, mask, repeatTime, repeatParams))

ASCEND_SIM_UNARY(Exp, EXP_LN, sim::st<T>(std::exp(sim::ld(a))), "half / float", half, float)
ASCEND_SIM_UNARY(Ln, EXP_LN, sim::st<T>(std::log(sim::ld(a))), "half / float", half, float)
ASCEND_SIM_UNARY(Abs, UNARY, sim::st<T>(std::fabs(sim::ld(a))), "half / float", half, float)
ASCEND_SIM_UNARY(Sqrt, SQRT, sim::st<T>(std::sqrt(sim::ld(a))), "half / float", half, float)
ASCEND_SIM_UNARY(Rsqrt, UNARY, sim::st<T>(1.0f / std::sqrt(sim::ld(a))), "half / float", half, float)
ASCEND_SIM_UNARY(Reciprocal, UNARY, sim::st<T>(1.0f / sim::ld(a)), "half / float", half, float)
ASCEND_SIM_UNARY(Relu, UNARY, (sim::ld(a) > 0 ? a : sim::st<T>(0)), "half / float / int32_t", half, float, int32_t)
ASCEND_SIM_UNARY(Not, UNARY, static_cast<T>(~a), "int16_t / uint16_t", int16_t, uint16_t)
#undef ASCEND_SIM_UNARY

// ---------------------------------------------------------------------------- tensor-scalar ops
// The scalar is `const T&`: T is deduced from the tensors and the scalar alike, so a scalar of
// another type (Adds(halfTensor, halfTensor, 2.0f, n)) fails to deduce, as on the NPU.
#define ASCEND_SIM_SCALAR(NAME, KLASS, EXPR, TYPESTR, ...)                                                     \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                const int32_t& count, ASCEND_SIM_LOC) {                                        \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        const T s = scalarValue;                                                                               \
        sim::unary_l2(#NAME, sim::VecClass::KLASS, dst, src, count, loc, [s](T a, T) ASCEND_SIM_NOINSTR -> T { return EXPR; }); \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, \
                                ASCEND_SIM_LOC) {                                                              \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        const T s = scalarValue;                                                                               \
        sim::unary_l0(#NAME, sim::VecClass::KLASS, dst, src, isSetMask, true, 0, mask, repeatTime,            \
                      repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,         \
                      repeatParams.srcRepStride, loc, [s](T a, T) ASCEND_SIM_NOINSTR -> T { return EXPR; });                      \
    }                                                                                                          \
    template <typename T, bool isSetMask = true>                                                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, \
                                ASCEND_SIM_LOC) {                                                              \
        ASCEND_SIM_DTYPE_CHECK(NAME, TYPESTR, __VA_ARGS__);                                                    \
        const T s = scalarValue;                                                                               \
        sim::unary_l0(#NAME, sim::VecClass::KLASS, dst, src, isSetMask, false, mask, nullptr, repeatTime,     \
                      repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,         \
                      repeatParams.srcRepStride, loc, [s](T a, T) ASCEND_SIM_NOINSTR -> T { return EXPR; });                      \
    }                                                                                                           \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,            \
                           const int32_t& count), (dst, src, scalarValue, count))                                 \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,            \
                           uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams),     \
                          (dst, src, scalarValue, mask, repeatTime, repeatParams))                                \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isSetMask = true), (T, isSetMask),                        \
                          (const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,            \
                           uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams),       \
                          (dst, src, scalarValue, mask, repeatTime, repeatParams))

ASCEND_SIM_SCALAR(Adds, UNARY, sim::st<T>(sim::ld(a) + sim::ld(s)), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_SCALAR(Muls, UNARY, sim::st<T>(sim::ld(a) * sim::ld(s)), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_SCALAR(Maxs, UNARY, (sim::ld(a) >= sim::ld(s) ? a : s), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_SCALAR(Mins, UNARY, (sim::ld(a) <= sim::ld(s) ? a : s), "half / float / int16_t / int32_t", half, float,
                  int16_t, int32_t)
ASCEND_SIM_SCALAR(LeakyRelu, UNARY, (sim::ld(a) >= 0 ? a : sim::st<T>(sim::ld(a) * sim::ld(s))), "half / float", half,
                  float)
ASCEND_SIM_SCALAR(ShiftLeft, UNARY, sim::shift_left<T>(a, static_cast<int64_t>(s)),
                  "int16_t / uint16_t / int32_t / uint32_t", int16_t, uint16_t, int32_t, uint32_t)
ASCEND_SIM_SCALAR(ShiftRight, UNARY, sim::shift_right<T>(a, static_cast<int64_t>(s)),
                  "int16_t / uint16_t / int32_t / uint32_t", int16_t, uint16_t, int32_t, uint32_t)
#undef ASCEND_SIM_SCALAR

// ---------------------------------------------------------------------------- Duplicate
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count, ASCEND_SIM_LOC) {
    ASCEND_SIM_DTYPE_CHECK(Duplicate, "int16_t / uint16_t / half / bfloat16_t / int32_t / uint32_t / float", int16_t,
                           uint16_t, half, bfloat16_t, int32_t, uint32_t, float);
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("Duplicate", loc);
    sim::check_count(count, "Duplicate", loc);
    sim::LocalView d = sim::view(dst, "Duplicate", "dst", loc);
    const uint64_t n = static_cast<uint64_t>(count);
    sim::need(d, n * sizeof(T), "Duplicate", "dst", loc);
    T* p = reinterpret_cast<T*>(d.data);
    for (uint64_t i = 0; i < n; ++i) p[i] = scalarValue;
    sim::mark_written(d, 0, n * sizeof(T));
    sim::charge(c, sim::Pipe::V, sim::vec_cycles(c, sim::VecClass::UNARY, sizeof(T), sim::l2_repeats(n, sizeof(T))),
                "Duplicate", loc, {{d.blk, true}}, c.soc->level2_extra);
}

namespace sim {
template <typename T>
inline void duplicate_l0(const LocalTensor<T>& dst, const T& value, bool is_set_mask, bool bit_mode, uint64_t mask,
                         const uint64_t* bits, uint8_t repeat, uint16_t blk, uint8_t rep, const SrcLoc& loc) {
    const T v = value;
    // The destination doubles as a dummy source so the shared level-0 engine can be reused.
    unary_l0("Duplicate", VecClass::UNARY, dst, dst, is_set_mask, bit_mode, mask, bits, repeat, blk, blk, rep, rep, loc,
             [v](T, T) ASCEND_SIM_NOINSTR -> T { return v; }, false, false);
}
}  // namespace sim

template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
                                 const uint16_t dstBlockStride, const uint8_t dstRepeatStride, ASCEND_SIM_LOC) {
    ASCEND_SIM_DTYPE_CHECK(Duplicate, "int16_t / uint16_t / half / bfloat16_t / int32_t / uint32_t / float", int16_t,
                           uint16_t, half, bfloat16_t, int32_t, uint32_t, float);
    sim::duplicate_l0(dst, scalarValue, isSetMask, false, mask, nullptr, repeatTime, dstBlockStride, dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                                 ASCEND_SIM_LOC) {
    ASCEND_SIM_DTYPE_CHECK(Duplicate, "int16_t / uint16_t / half / bfloat16_t / int32_t / uint32_t / float", int16_t,
                           uint16_t, half, bfloat16_t, int32_t, uint32_t, float);
    sim::duplicate_l0(dst, scalarValue, isSetMask, true, 0, mask, repeatTime, dstBlockStride, dstRepeatStride, loc);
}

// ---------------------------------------------------------------------------- Axpy: dst += src * scalar
namespace sim {
template <typename T, typename U>
constexpr bool axpy_ok() {
    return (std::is_same<T, half>::value && std::is_same<U, half>::value) ||
           (std::is_same<T, float>::value && std::is_same<U, float>::value) ||
           (std::is_same<T, float>::value && std::is_same<U, half>::value);
}
}  // namespace sim

#define ASCEND_SIM_AXPY_CHECK()                                                                             \
    static_assert(sim::axpy_ok<T, U>(), "Failed to check dtype in Axpy, current api support dtype combination is " \
                                        "src: half, dst: half / src: float, dst: float / src: half, dst: float.")

template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& count, ASCEND_SIM_LOC) {
    ASCEND_SIM_AXPY_CHECK();
    const float s = sim::to_f<U>(scalarValue);
    sim::unary_l2("Axpy", sim::VecClass::BINARY, dst, src, count, loc,
                  [s](U a, T d) ASCEND_SIM_NOINSTR -> T { return sim::st<T>(sim::ld(d) + sim::ld(a) * s); }, true);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask[],
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_AXPY_CHECK();
    const float s = sim::to_f<U>(scalarValue);
    sim::unary_l0("Axpy", sim::VecClass::BINARY, dst, src, isSetMask, true, 0, mask, repeatTime, repeatParams.dstBlkStride,
                  repeatParams.srcBlkStride, repeatParams.dstRepStride, repeatParams.srcRepStride, loc,
                  [s](U a, T d) ASCEND_SIM_NOINSTR -> T { return sim::st<T>(sim::ld(d) + sim::ld(a) * s); }, true);
}
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, uint64_t mask,
                            const uint8_t repeatTime, const UnaryRepeatParams& repeatParams, ASCEND_SIM_LOC) {
    ASCEND_SIM_AXPY_CHECK();
    const float s = sim::to_f<U>(scalarValue);
    sim::unary_l0("Axpy", sim::VecClass::BINARY, dst, src, isSetMask, false, mask, nullptr, repeatTime,
                  repeatParams.dstBlkStride, repeatParams.srcBlkStride, repeatParams.dstRepStride,
                  repeatParams.srcRepStride, loc, [s](U a, T d) ASCEND_SIM_NOINSTR -> T { return sim::st<T>(sim::ld(d) + sim::ld(a) * s); },
                  true);
}
#undef ASCEND_SIM_AXPY_CHECK

// ---------------------------------------------------------------------------- FusedMulAdd: dst = src0 * dst + src1
// (the first `count` elements; dst is read as well as written, so it must hold data).
template <typename T>
__aicore__ inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                   const int32_t& count, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, float>::value,
                  "Failed to check dtype in FusedMulAdd, current api support dtype combination is src and dst both: "
                  "half / float.");
    const char* api = "FusedMulAdd";
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter(api, loc);
    sim::check_count(count, api, loc);
    sim::LocalView d = sim::view(dst, api, "dst", loc);
    sim::LocalView a = sim::view(src0, api, "src0", loc);
    sim::LocalView b = sim::view(src1, api, "src1", loc);
    const uint64_t n = static_cast<uint64_t>(count);
    sim::need(d, n * sizeof(T), api, "dst", loc);
    sim::need(a, n * sizeof(T), api, "src0", loc);
    sim::need(b, n * sizeof(T), api, "src1", loc);
    sim::check_init(d, 0, n * sizeof(T), api, "dst", loc);
    sim::check_init(a, 0, n * sizeof(T), api, "src0", loc);
    sim::check_init(b, 0, n * sizeof(T), api, "src1", loc);
    T* dp = reinterpret_cast<T*>(d.data);
    const T* ap = reinterpret_cast<const T*>(a.data);
    const T* bp = reinterpret_cast<const T*>(b.data);
    for (uint64_t i = 0; i < n; ++i) dp[i] = sim::st<T>(sim::ld(ap[i]) * sim::ld(dp[i]) + sim::ld(bp[i]));
    sim::mark_written(d, 0, n * sizeof(T));
    sim::charge(c, sim::Pipe::V, sim::vec_cycles(c, sim::VecClass::BINARY, sizeof(T), sim::l2_repeats(n, sizeof(T))), api,
                loc, {{a.blk, false}, {b.blk, false}, {d.blk, false}, {d.blk, true}}, c.soc->level2_extra);
}

}  // namespace AscendC

// ascend_sim: the high-level element-wise math APIs public kernels call — Sigmoid, Tanh, Sign,
// Log / Log2 / Log10 and Power (tensor^tensor, tensor^scalar, scalar^tensor) — with their real
// overload sets (optional sharedTmpBuffer, optional calCount: without it the whole dst), from
// asc-devkit include/adv_api/{activation/sigmoid.h, math/{tanh,sign,log,power}.h}; Atlas A2
// dtypes (half / float; Power also int32_t).
//
// Results are computed in float (int32 Power exactly in integers) and rounded to T; the cost is
// the vector instruction sequence the API expands to, one pass over the data per instruction
// (e.g. Sigmoid = Muls, Exp, Adds, Div) [model: sequence lengths are ours, CANN's are not public].
// The temporary buffer, when given, must be a valid Unified Buffer tensor; its minimum size is
// not checked (CANN's GetXxxMaxMinTmpSize figures are not public).
#pragma once

#include <cmath>

#include "vec_common.h"

namespace AscendC {

struct TanhConfig {
    bool highPrecision = false;
};
constexpr TanhConfig DEFAULT_TANH_CONFIG = {};
struct PowerConfig {
    bool highPrecision = false;
};
constexpr PowerConfig defaultPowerConfig = {};

namespace sim {

// Extra passes after the first (which the level-2 engine charges).
inline void charge_passes(const char* api, const SrcLoc& loc, size_t es, uint64_t n, BlockInfo* src, BlockInfo* dst,
                          std::initializer_list<VecClass> rest) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    for (VecClass k : rest) {
        charge(c, Pipe::V, vec_cycles(c, k, es, l2_repeats(n, es)), api, loc, {{src, false}, {dst, true}});
    }
}

template <typename T>
inline uint32_t whole(const LocalTensor<T>& dst) {
    return dst.GetSize();
}

template <typename T>
inline void check_tmp(const LocalTensor<uint8_t>* tmp, const char* api, const SrcLoc& loc) {
    if (!tmp) return;
    const ::AscendC::sim::ApiScope api_scope_;
    enter(api, loc);
    (void)view(*tmp, api, "sharedTmpBuffer", loc);
}

template <typename T, typename F>
inline void adv_unary(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                      const LocalTensor<uint8_t>* tmp, uint32_t count, const SrcLoc& loc, VecClass first,
                      std::initializer_list<VecClass> rest, F f) {
    check_tmp<T>(tmp, api, loc);
    unary_l2(api, first, dst, src, count, loc, [f](T a, T) ASCEND_SIM_NOINSTR -> T { return f(a); });
    charge_passes(api, loc, sizeof(T), count, TensorAccess::block(src), TensorAccess::block(dst), rest);
}

template <typename T>
inline T pow_elem(T a, T b) {
    if constexpr (std::is_same<T, int32_t>::value) {
        if (b < 0) return a == 1 ? 1 : (a == -1 ? ((b % 2) ? -1 : 1) : 0);
        int64_t r = 1, base = a;
        for (int32_t e = b; e > 0; e >>= 1) {
            if (e & 1) r = static_cast<int32_t>(static_cast<uint32_t>(r) * static_cast<uint32_t>(base));
            base = static_cast<int32_t>(static_cast<uint32_t>(base) * static_cast<uint32_t>(base));
        }
        return static_cast<int32_t>(r);
    } else {
        return st<T>(std::pow(ld(a), ld(b)));
    }
}

}  // namespace sim

#define ASCEND_SIM_ADV_F(NAME)                                                                                   \
    static_assert(sim::OneOf<T, half, float>::value,                                                            \
                  "Failed to check dtype in " #NAME ", current api support dtype is half / float")

// Declares the calCount forms (with / without sharedTmpBuffer) of an element-wise high-level API,
// each with its ASCEND_SIM_EXACT_FORM companion: NPUKernelBench's foreach kernels pass
// `Sin<half, false>` where `void (const LocalTensor<T>&, const LocalTensor<T>&, const uint32_t)`
// is asked for. TPL: extra template parameters, parenthesised; TARG: the same as arguments.
#define ASCEND_SIM_ADV_UNARY_COUNT(NAME, TPL, TARG, FIRST, REST, EXPR)                                             \
    template <typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL>                                                          \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, ASCEND_SIM_LOC) { \
        ASCEND_SIM_ADV_F(NAME);                                                                                    \
        sim::adv_unary(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc, FIRST,                       \
                       {ASCEND_SIM_UNPAREN REST},                                                                  \
                       [](T a) ASCEND_SIM_NOINSTR -> T { return EXPR; });                                          \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL>                                                          \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
                                const uint32_t calCount, ASCEND_SIM_LOC) {                                         \
        ASCEND_SIM_ADV_F(NAME);                                                                                    \
        sim::adv_unary(#NAME, dstTensor, srcTensor, nullptr, calCount, loc, FIRST, {ASCEND_SIM_UNPAREN REST},      \
                       [](T a) ASCEND_SIM_NOINSTR -> T { return EXPR; });                                          \
    }                                                                                                              \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL), (T, isReuseSource ASCEND_SIM_UNPAREN TARG),      \
                          (const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                       \
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount),                  \
                          (dstTensor, srcTensor, sharedTmpBuffer, calCount))                                       \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL), (T, isReuseSource ASCEND_SIM_UNPAREN TARG),      \
                          (const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount), \
                          (dstTensor, srcTensor, calCount))
// ... and the whole-tensor forms (calCount = dst's size), also with companions.
#define ASCEND_SIM_ADV_UNARY_WHOLE(NAME, TPL, TARG)                                                                \
    template <typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL>                                                          \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, ASCEND_SIM_LOC) {                     \
        NAME<T, isReuseSource ASCEND_SIM_UNPAREN TARG>(dstTensor, srcTensor, sharedTmpBuffer, sim::whole(dstTensor), loc);            \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL>                                                          \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, ASCEND_SIM_LOC) { \
        NAME<T, isReuseSource ASCEND_SIM_UNPAREN TARG>(dstTensor, srcTensor, sim::whole(dstTensor), loc);                             \
    }                                                                                                              \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL), (T, isReuseSource ASCEND_SIM_UNPAREN TARG),      \
                          (const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                       \
                           const LocalTensor<uint8_t>& sharedTmpBuffer),                                           \
                          (dstTensor, srcTensor, sharedTmpBuffer))                                                 \
    ASCEND_SIM_EXACT_FORM(void, NAME, (typename T, bool isReuseSource = false ASCEND_SIM_UNPAREN TPL), (T, isReuseSource ASCEND_SIM_UNPAREN TARG),      \
                          (const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor), (dstTensor, srcTensor))
// All four forms (with / without sharedTmpBuffer, with / without calCount).
#define ASCEND_SIM_ADV_UNARY(NAME, TPL, TARG, FIRST, REST, EXPR)                                                   \
    ASCEND_SIM_ADV_UNARY_COUNT(NAME, TPL, TARG, FIRST, REST, EXPR)                                                 \
    ASCEND_SIM_ADV_UNARY_WHOLE(NAME, TPL, TARG)

// Extra template parameters / arguments, parenthesised (they hold commas).
#define ASCEND_SIM_NO_TPL ()
#define ASCEND_SIM_TANH_TPL (, const TanhConfig& config = DEFAULT_TANH_CONFIG)
#define ASCEND_SIM_TANH_TARG (, config)
// Parenthesised so the list survives being forwarded through another macro; unwrapped at use.
#define ASCEND_SIM_PASSES(...) (__VA_ARGS__)

// Sigmoid = Muls(-1), Exp, Adds(1), Div
ASCEND_SIM_ADV_UNARY(Sigmoid, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, sim::VecClass::UNARY,
                     ASCEND_SIM_PASSES(sim::VecClass::EXP_LN, sim::VecClass::UNARY, sim::VecClass::DIV),
                     sim::st<T>(1.0f / (1.0f + std::exp(-sim::ld(a)))))
// Tanh = Muls(2), Exp, Adds(-1), Adds(1), Div
ASCEND_SIM_ADV_UNARY(Tanh, ASCEND_SIM_TANH_TPL, ASCEND_SIM_TANH_TARG, sim::VecClass::UNARY,
                     ASCEND_SIM_PASSES(sim::VecClass::EXP_LN, sim::VecClass::UNARY, sim::VecClass::UNARY,
                                       sim::VecClass::DIV),
                     sim::st<T>(std::tanh(sim::ld(a))))
// Sign = two compares and selects
ASCEND_SIM_ADV_UNARY(Sign, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, sim::VecClass::CMPS,
                     ASCEND_SIM_PASSES(sim::VecClass::BINARY, sim::VecClass::CMPS, sim::VecClass::BINARY),
                     sim::st<T>(sim::ld(a) > 0 ? 1.0f : (sim::ld(a) < 0 ? -1.0f : 0.0f)))

// ---- Trigonometric, hyperbolic, error-function and rounding APIs (asc-devkit
// include/adv_api/math/{sin,cos,tan,asin,acos,atan,sinh,cosh,asinh,acosh,atanh,erf,erfc,trunc,frac,
// floor,ceil,round}.h, the Atlas A2 (__NPU_ARCH__ 2201) branch: template <typename T, bool
// isReuseSource = false>, half / float). Values: the libm function in float, rounded to T. The
// pass lists are the instruction sequences the APIs expand to [model: range reduction, Horner
// polynomial steps (Mul + Adds each), sign fix-ups; CANN's exact sequences are not public].
#define ASCEND_SIM_V(K) sim::VecClass::K
#define ASCEND_SIM_HORNER4 ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY), \
    ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY)
// Range reduction by pi (Muls, round Cast, three-part Cody-Waite Mul/Sub), x^2, polynomial, x*p,
// sign of the period.
#define ASCEND_SIM_TRIG_REST ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY), \
    ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_HORNER4, ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY), \
    ASCEND_SIM_V(BINARY))
// Sin / Cos: the sequence above (Cos adds pi/2 first).
ASCEND_SIM_ADV_UNARY(Sin, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY), ASCEND_SIM_TRIG_REST,
                     sim::st<T>(std::sin(sim::ld(a))))
ASCEND_SIM_ADV_UNARY(Cos, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY), ASCEND_SIM_TRIG_REST,
                     sim::st<T>(std::cos(sim::ld(a))))
// Tan: range reduction, numerator and denominator polynomials, Div.
ASCEND_SIM_ADV_UNARY(Tan, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY),
                                       ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_HORNER4,
                                       ASCEND_SIM_HORNER4, ASCEND_SIM_V(BINARY), ASCEND_SIM_V(DIV)),
                     sim::st<T>(std::tan(sim::ld(a))))
// Asin / Acos: |x|, polynomial on [0, 0.5], sqrt((1 - |x|) / 2) branch, select, sign (Acos:
// pi/2 - asin).
#define ASCEND_SIM_ASIN_REST ASCEND_SIM_PASSES(ASCEND_SIM_V(BINARY), ASCEND_SIM_HORNER4, ASCEND_SIM_V(BINARY), \
    ASCEND_SIM_V(UNARY), ASCEND_SIM_V(SQRT), ASCEND_SIM_V(CMPS), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY))
ASCEND_SIM_ADV_UNARY(Asin, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY), ASCEND_SIM_ASIN_REST,
                     sim::st<T>(std::asin(sim::ld(a))))
ASCEND_SIM_ADV_UNARY(Acos, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(BINARY), ASCEND_SIM_HORNER4, ASCEND_SIM_V(BINARY),
                                       ASCEND_SIM_V(UNARY), ASCEND_SIM_V(SQRT), ASCEND_SIM_V(CMPS),
                                       ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY)),
                     sim::st<T>(std::acos(sim::ld(a))))
// Atan: |x|, 1/|x| for |x| > 1 (Div, compare, select), polynomial, pi/2 - r, sign.
ASCEND_SIM_ADV_UNARY(Atan, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(DIV), ASCEND_SIM_V(CMPS), ASCEND_SIM_V(BINARY),
                                       ASCEND_SIM_V(BINARY), ASCEND_SIM_HORNER4, ASCEND_SIM_V(BINARY),
                                       ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(BINARY)),
                     sim::st<T>(std::atan(sim::ld(a))))
// Sinh / Cosh: Exp, reciprocal, Sub / Add, Muls(0.5).
ASCEND_SIM_ADV_UNARY(Sinh, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(EXP_LN),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(DIV), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY)),
                     sim::st<T>(std::sinh(sim::ld(a))))
ASCEND_SIM_ADV_UNARY(Cosh, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(EXP_LN),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(DIV), ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY)),
                     sim::st<T>(std::cosh(sim::ld(a))))
// Asinh = sign(x) ln(|x| + sqrt(x^2 + 1)); Acosh = ln(x + sqrt(x^2 - 1)); Atanh = ln((1+x)/(1-x))/2.
ASCEND_SIM_ADV_UNARY(Asinh, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY), ASCEND_SIM_V(SQRT),
                                       ASCEND_SIM_V(BINARY), ASCEND_SIM_V(EXP_LN), ASCEND_SIM_V(CMPS),
                                       ASCEND_SIM_V(BINARY)),
                     sim::st<T>(std::asinh(sim::ld(a))))
ASCEND_SIM_ADV_UNARY(Acosh, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(BINARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(SQRT), ASCEND_SIM_V(BINARY),
                                       ASCEND_SIM_V(EXP_LN)),
                     sim::st<T>(std::acosh(sim::ld(a))))
ASCEND_SIM_ADV_UNARY(Atanh, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(DIV), ASCEND_SIM_V(EXP_LN),
                                       ASCEND_SIM_V(UNARY)),
                     sim::st<T>(std::atanh(sim::ld(a))))
// Erf: clamp (Mins, Maxs), x^2, numerator and denominator polynomials, x*p, Div.
ASCEND_SIM_ADV_UNARY(Erf, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY), ASCEND_SIM_HORNER4,
                                       ASCEND_SIM_HORNER4, ASCEND_SIM_V(BINARY), ASCEND_SIM_V(DIV)),
                     sim::st<T>(std::erf(sim::ld(a))))
// Erfc: |x|, rational approximation times Exp(-x^2), reflection 2 - r for x < 0.
ASCEND_SIM_ADV_UNARY(Erfc, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(BINARY), ASCEND_SIM_V(UNARY), ASCEND_SIM_V(EXP_LN),
                                       ASCEND_SIM_HORNER4, ASCEND_SIM_HORNER4, ASCEND_SIM_V(DIV),
                                       ASCEND_SIM_V(BINARY), ASCEND_SIM_V(CMPS), ASCEND_SIM_V(BINARY),
                                       ASCEND_SIM_V(BINARY)),
                     sim::st<T>(std::erfc(sim::ld(a))))
// Rounding: a Cast with RoundMode CAST_TRUNC / CAST_FLOOR / CAST_CEIL / CAST_RINT (round half to
// even: round_v220_impl.h casts with CAST_RINT) — half goes through float, three Casts; charged
// as a Cast and two more passes for both dtypes [model]. Frac = x - Trunc(x). Floor, Ceil and
// Round have only the calCount forms on A2.
ASCEND_SIM_ADV_UNARY(Trunc, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(UNARY)),
                     sim::st<T>(std::trunc(sim::ld(a))))
ASCEND_SIM_ADV_UNARY(Frac, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                     ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(UNARY), ASCEND_SIM_V(BINARY)),
                     sim::st<T>(sim::ld(a) - std::trunc(sim::ld(a))))
ASCEND_SIM_ADV_UNARY_COUNT(Floor, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                           ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(UNARY)),
                           sim::st<T>(std::floor(sim::ld(a))))
ASCEND_SIM_ADV_UNARY_COUNT(Ceil, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                           ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(UNARY)),
                           sim::st<T>(std::ceil(sim::ld(a))))
ASCEND_SIM_ADV_UNARY_COUNT(Round, ASCEND_SIM_NO_TPL, ASCEND_SIM_NO_TPL, ASCEND_SIM_V(UNARY),
                           ASCEND_SIM_PASSES(ASCEND_SIM_V(UNARY), ASCEND_SIM_V(UNARY)),
                           sim::st<T>(std::nearbyint(sim::ld(a))))
#undef ASCEND_SIM_TRIG_REST
#undef ASCEND_SIM_ASIN_REST
#undef ASCEND_SIM_HORNER4
#undef ASCEND_SIM_V
#undef ASCEND_SIM_ADV_UNARY
#undef ASCEND_SIM_ADV_UNARY_COUNT
#undef ASCEND_SIM_ADV_UNARY_WHOLE
#undef ASCEND_SIM_NO_TPL
#undef ASCEND_SIM_TANH_TPL
#undef ASCEND_SIM_TANH_TARG
#undef ASCEND_SIM_PASSES

// Log (natural), Log2, Log10: Ln, then a Muls for the base change. Log has no tmp-buffer form.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount,
                           ASCEND_SIM_LOC) {
    ASCEND_SIM_ADV_F(Log);
    sim::adv_unary("Log", dstTensor, srcTensor, nullptr, calCount, loc, sim::VecClass::EXP_LN, {},
                   [](T a) ASCEND_SIM_NOINSTR -> T { return sim::st<T>(std::log(sim::ld(a))); });
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Log(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, ASCEND_SIM_LOC) {
    Log<T, isReuseSource>(dstTensor, srcTensor, sim::whole(dstTensor), loc);
}
#define ASCEND_SIM_LOGB(NAME, FN)                                                                                  \
    template <typename T, bool isReuseSource = false>                                                              \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCEND_SIM_LOC) {  \
        ASCEND_SIM_ADV_F(NAME);                                                                                    \
        sim::adv_unary(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, calCount, loc, sim::VecClass::EXP_LN,        \
                       {sim::VecClass::UNARY}, [](T a) ASCEND_SIM_NOINSTR -> T { return sim::st<T>(FN(sim::ld(a))); }); \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                              \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                  \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, ASCEND_SIM_LOC) {                     \
        NAME<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, sim::whole(dstTensor), loc);                 \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                              \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, uint32_t calCount, \
                                ASCEND_SIM_LOC) {                                                                  \
        ASCEND_SIM_ADV_F(NAME);                                                                                    \
        sim::adv_unary(#NAME, dstTensor, srcTensor, nullptr, calCount, loc, sim::VecClass::EXP_LN,                 \
                       {sim::VecClass::UNARY}, [](T a) ASCEND_SIM_NOINSTR -> T { return sim::st<T>(FN(sim::ld(a))); }); \
    }                                                                                                              \
    template <typename T, bool isReuseSource = false>                                                              \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, ASCEND_SIM_LOC) { \
        NAME<T, isReuseSource>(dstTensor, srcTensor, sim::whole(dstTensor), loc);                                  \
    }
ASCEND_SIM_LOGB(Log2, std::log2)
ASCEND_SIM_LOGB(Log10, std::log10)
#undef ASCEND_SIM_LOGB
#undef ASCEND_SIM_ADV_F

// ---- Power: dst = base ^ exponent, tensor / scalar operands (half, float, int32_t) ----
namespace sim {
// Ln, Mul, Exp and the sign / integer-exponent fix-ups: six passes [model].
#define ASCEND_SIM_POWER_REST \
    { VecClass::BINARY, VecClass::EXP_LN, VecClass::CMPS, VecClass::BINARY, VecClass::BINARY }
template <typename T>
inline void power_tt(const LocalTensor<T>& dst, const LocalTensor<T>& a, const LocalTensor<T>& b,
                     const LocalTensor<uint8_t>* tmp, uint32_t count, const SrcLoc& loc) {
    check_tmp<T>(tmp, "Power", loc);
    binary_l2("Power", VecClass::EXP_LN, dst, a, b, count, loc,
              [](T x, T y) ASCEND_SIM_NOINSTR -> T { return pow_elem<T>(x, y); });
    charge_passes("Power", loc, sizeof(T), count, TensorAccess::block(a), TensorAccess::block(dst),
                  ASCEND_SIM_POWER_REST);
}
template <typename T>
inline void power_ts(const LocalTensor<T>& dst, const LocalTensor<T>& a, T s, bool scalar_is_base,
                     const LocalTensor<uint8_t>* tmp, uint32_t count, const SrcLoc& loc) {
    check_tmp<T>(tmp, "Power", loc);
    unary_l2("Power", VecClass::EXP_LN, dst, a, count, loc, [s, scalar_is_base](T x, T) ASCEND_SIM_NOINSTR -> T {
        return scalar_is_base ? pow_elem<T>(s, x) : pow_elem<T>(x, s);
    });
    charge_passes("Power", loc, sizeof(T), count, TensorAccess::block(a), TensorAccess::block(dst),
                  ASCEND_SIM_POWER_REST);
}
#undef ASCEND_SIM_POWER_REST
}  // namespace sim

#define ASCEND_SIM_POW_CHECK()                                                                                     \
    static_assert(sim::OneOf<T, half, float, int32_t>::value,                                                      \
                  "Failed to check dtype in Power, current api support dtype is half / float / int32_t")
#define ASCEND_SIM_POW_TPL template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>

ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_tt(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount, loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, uint32_t calCount, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_tt(dstTensor, src0Tensor, src1Tensor, nullptr, calCount, loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_tt(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, sim::whole(dstTensor), loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                             const LocalTensor<T>& src1Tensor, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_tt(dstTensor, src0Tensor, src1Tensor, nullptr, sim::whole(dstTensor), loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src0Tensor, src1Scalar, false, &sharedTmpBuffer, calCount, loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             uint32_t calCount, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src0Tensor, src1Scalar, false, nullptr, calCount, loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src0Tensor, src1Scalar, false, &sharedTmpBuffer, sim::whole(dstTensor), loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor, const T& src1Scalar,
                             ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src0Tensor, src1Scalar, false, nullptr, sim::whole(dstTensor), loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src1Tensor, src0Scalar, true, &sharedTmpBuffer, calCount, loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             uint32_t calCount, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src1Tensor, src0Scalar, true, nullptr, calCount, loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src1Tensor, src0Scalar, true, &sharedTmpBuffer, sim::whole(dstTensor), loc);
}
ASCEND_SIM_POW_TPL
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const T& src0Scalar, const LocalTensor<T>& src1Tensor,
                             ASCEND_SIM_LOC) {
    ASCEND_SIM_POW_CHECK();
    sim::power_ts(dstTensor, src1Tensor, src0Scalar, true, nullptr, sim::whole(dstTensor), loc);
}
#undef ASCEND_SIM_POW_CHECK
#undef ASCEND_SIM_POW_TPL


// ---- Scalar bfloat16 conversions (asc-devkit impl/basic_api/kernel_scalar_convert.h, the
// non-3510 branch): ToFloat widens exactly (the 16 bits shifted up); ToBfloat16 rounds to nearest
// even (NaN stays NaN). CANN marks both "updated, please use Cast instead"; kernels still call them.
__aicore__ inline float ToFloat(const bfloat16_t& bVal) { return sim::to_f<bfloat16_t>(bVal); }
__aicore__ inline bfloat16_t ToBfloat16(const float& fVal) { return sim::from_f<bfloat16_t>(fVal); }

}  // namespace AscendC

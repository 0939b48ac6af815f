// ascend_sim: AscendC::Std — the small standard library CANN ships for device code.
//
// Why: device code has no STL (device_code.h poisons the containers and algorithms), so CANN
// provides its own compile-time utilities in `AscendC::Std` (include/utils/std/{type_traits,
// tuple, utility, algorithm, cmath}.h in asc-devkit): type traits, a variadic tuple, index
// sequences, min/max and a few integer helpers. Kernels and CANN's own templates spell them
// `Std::is_same_v<T, half>`, `Std::max(a, b)`, `Std::ceil_division(n, 32)`. Everything here is
// compile-time or a one-line scalar expression, so aliasing the host standard library's type
// traits is exact; where CANN's definition differs from the standard one (is_floating_point
// counts `half`, is_integral has CANN's list) the CANN meaning is spelled out.
#pragma once

#include <cmath>
#include <cstdlib>
#include <tuple>
#include <type_traits>
#include <utility>

#include "base.h"
#include "half.h"

namespace AscendC {
namespace Std {

// ---- integral_constant and friends ----
using std::bool_constant;
using std::false_type;
using std::integral_constant;
using std::true_type;

// ---- type transformations (identical to the standard ones) ----
using std::add_const;
using std::add_const_t;
using std::add_cv;
using std::add_cv_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::add_volatile;
using std::add_volatile_t;
using std::conditional;
using std::conditional_t;
using std::decay;
using std::decay_t;
using std::enable_if;
using std::enable_if_t;
using std::remove_const;
using std::remove_const_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_extent;
using std::remove_extent_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_volatile;
using std::remove_volatile_t;
template <typename T>
struct remove_cvref {
    using type = std::remove_cv_t<std::remove_reference_t<T>>;
};
template <typename T>
using remove_cvref_t = typename remove_cvref<T>::type;

// ---- type predicates (identical to the standard ones) ----
using std::is_array;
using std::is_array_v;
using std::is_base_of;
using std::is_base_of_v;
using std::is_class;
using std::is_class_v;
using std::is_const;
using std::is_const_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_function;
using std::is_function_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_same;
using std::is_same_v;
using std::is_union;
using std::is_union_v;
using std::is_void;
using std::is_void_v;

// CANN: float, double, long double and half (bfloat16_t is not in the list).
template <typename T>
struct is_floating_point
    : bool_constant<std::is_same_v<remove_cv_t<T>, float> || std::is_same_v<remove_cv_t<T>, double> ||
                    std::is_same_v<remove_cv_t<T>, long double> || std::is_same_v<remove_cv_t<T>, half>> {};
template <typename T>
inline constexpr bool is_floating_point_v = is_floating_point<T>::value;

// CANN: the standard signed/unsigned integer types, bool and the char types (no wchar_t /
// char16_t / char32_t), plus any integral_constant.
template <typename T>
struct is_integral {
private:
    template <typename U, typename... Us>
    static constexpr bool any_of() {
        return (... || std::is_same_v<remove_cv_t<U>, Us>);
    }

public:
    static constexpr bool value = any_of<T, bool, unsigned long long, long long, unsigned long, long, unsigned int,
                                         int, unsigned short, short, unsigned char, signed char, char>();
};
template <typename T, T v>
struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T>
inline constexpr bool is_integral_v = is_integral<T>::value;

// is_one_of<T, A, B, ...>: T is one of the listed types (CANN extension).
template <typename T, typename... Args>
struct is_one_of : false_type {};
template <typename T, typename Head, typename... Tail>
struct is_one_of<T, Head, Tail...> : conditional_t<std::is_same_v<T, Head>, true_type, is_one_of<T, Tail...>> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;
template <typename T, T... Values>
struct is_one_of_value : false_type {};
template <typename T, T Value, T Head, T... Tail>
struct is_one_of_value<T, Value, Head, Tail...>
    : conditional_t<Value == Head, true_type, is_one_of_value<T, Value, Tail...>> {};
template <typename T, T... Values>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Values...>::value;

// is_constant<n, T>: T is an integral_constant holding n (CANN extension).
template <auto n, typename T>
struct is_constant : false_type {};
template <auto n, typename T>
struct is_constant<n, T const> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T const&> : is_constant<n, T> {};
template <auto n, typename T>
struct is_constant<n, T&&> : is_constant<n, T> {};
template <auto n, typename T, T v>
struct is_constant<n, integral_constant<T, v>> : bool_constant<v == n> {};

// ---- tuple (CANN's is variadic with get / make_tuple / tie, as the standard one) ----
using std::get;
using std::ignore;
using std::make_tuple;
using std::tie;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
template <typename T, typename = void>
struct is_tuple : false_type {};
template <typename T>
struct is_tuple<T, std::void_t<decltype(std::tuple_size<T>::value)>> : true_type {};
template <typename T>
inline constexpr bool is_tuple_v = is_tuple<T>::value;

// ---- utility ----
using std::declval;
using std::forward;
using std::move;
template <class T, T... Ns>
using IntegerSequence = std::integer_sequence<T, Ns...>;
template <class T, T N>
using MakeIntegerSequence = std::make_integer_sequence<T, N>;
template <size_t... Idx>
using index_sequence = std::index_sequence<Idx...>;
template <size_t N>
using make_index_sequence = std::make_index_sequence<N>;

// ---- algorithm: CANN returns (a > b) ? a : b in the operands' common type ----
template <typename T, typename U>
__aicore__ inline constexpr auto max(const T& src0, const U& src1) {
    return (src0 > src1) ? src0 : src1;
}
template <typename T, typename U>
__aicore__ inline constexpr auto min(const T& src0, const U& src1) {
    return (src0 < src1) ? src0 : src1;
}

// ---- cmath ----
template <typename T, typename U>
__aicore__ inline constexpr auto ceil_division(const T& num1, const U& num2) {
    return (num1 + num2 - 1) / num2;
}
template <typename T, typename U>
__aicore__ inline constexpr auto ceil_align(const T& num1, const U& num2) {
    return ceil_division(num1, num2) * num2;
}
template <typename T, typename U>
__aicore__ inline constexpr auto divide(const T& num1, const U& num2) {
    return num1 / num2;
}
// The scalar unit's sqrt/abs: CANN accepts these types only.
template <typename T>
__aicore__ inline T sqrt(const T src) {
    static_assert(is_one_of<T, float, int64_t>::value, "current data type is not supported on current device!");
    return static_cast<T>(std::sqrt(src));
}
template <typename T>
__aicore__ inline T abs(const T src) {
    static_assert(is_one_of<T, int8_t, int16_t, int32_t, float, int64_t>::value,
                  "current data type is not supported on current device!");
    return src < T(0) ? static_cast<T>(-src) : src;
}

}  // namespace Std
}  // namespace AscendC

// Not torch: just enough of libtorch's C++ surface for an NPUKernelBench validation/pybind.cpp to
// compile with g++ and run on shapes alone. The benchmark's binding is the truth of how a model's
// call reaches the op (which arguments become which aclnn operands, which constants it adds, which
// outputs it allocates in which shape and dtype, which it returns); compiling the real file and
// recording its EXEC_NPU_CMD is how akgen reads that truth (bench_runner/npukb_pybind.py). Tensors
// here carry a shape, a dtype, the id of the value they came from and, for tiny tensors, their
// values (for `item<T>()`); nothing is ever computed.
#pragma once

#include <cmath>
#include <cstdint>
#include <math.h>
#include <functional>
#include <initializer_list>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace c10 {

enum class ScalarType : int {
    Byte, Char, Short, Int, Long, Half, Float, Double, ComplexHalf, ComplexFloat, ComplexDouble, Bool,
    BFloat16, UInt16, UInt32, UInt64, Undefined
};

inline const char* dtype_name(ScalarType t) {
    static const char* names[] = {"uint8", "int8", "int16", "int32", "int64", "float16", "float32",
                                  "float64", "complex32", "complex64", "complex128", "bool", "bfloat16",
                                  "uint16", "uint32", "uint64", "undefined"};
    return names[static_cast<int>(t)];
}

inline ScalarType dtype_of_name(const std::string& n) {
    for (int i = 0; i <= static_cast<int>(ScalarType::Undefined); ++i)
        if (n == dtype_name(static_cast<ScalarType>(i))) return static_cast<ScalarType>(i);
    throw std::runtime_error("akgen torch shim: unknown dtype " + n);
}

template <class T>
using optional = std::optional<T>;
inline constexpr auto nullopt = std::nullopt;

template <class T>
class ArrayRef {
  public:
    ArrayRef() = default;
    ArrayRef(const std::vector<T>& v) : v_(v) {}  // NOLINT: implicit, as in c10
    ArrayRef(std::initializer_list<T> l) : v_(l) {}
    ArrayRef(const T& one) : v_{one} {}  // NOLINT
    template <class It>
    ArrayRef(It b, It e) : v_(b, e) {}
    size_t size() const { return v_.size(); }
    bool empty() const { return v_.empty(); }
    const T& operator[](size_t i) const { return v_.at(i); }
    const T& at(size_t i) const { return v_.at(i); }
    const T& back() const { return v_.back(); }
    const T& front() const { return v_.front(); }
    const T* data() const { return v_.data(); }
    auto begin() const { return v_.begin(); }
    auto end() const { return v_.end(); }
    std::vector<T> vec() const { return v_; }
    operator std::vector<T>() const { return v_; }  // NOLINT
    bool operator==(const ArrayRef& o) const { return v_ == o.v_; }
    bool operator!=(const ArrayRef& o) const { return v_ != o.v_; }

  private:
    std::vector<T> v_;
};
using IntArrayRef = ArrayRef<int64_t>;

enum class DeviceType : int { CPU = 0, PrivateUse1 = 20 };
using DeviceIndex = int8_t;
struct Device {
    Device() = default;
    Device(DeviceType t, DeviceIndex i = 0) : type_(t), index_(i) {}  // NOLINT
    DeviceType type() const { return type_; }
    DeviceIndex index() const { return index_; }
    DeviceType type_ = DeviceType::PrivateUse1;
    DeviceIndex index_ = 0;
};

class Scalar {
  public:
    Scalar() = default;
    Scalar(double v) : d_(v), i_(static_cast<int64_t>(v)), kind_(0) {}  // NOLINT
    Scalar(float v) : Scalar(static_cast<double>(v)) {}                  // NOLINT
    Scalar(int64_t v) : d_(static_cast<double>(v)), i_(v), kind_(1) {}   // NOLINT
    Scalar(int v) : Scalar(static_cast<int64_t>(v)) {}                   // NOLINT
    Scalar(bool v) : d_(v), i_(v), kind_(2) {}                           // NOLINT
    double toDouble() const { return d_; }
    float toFloat() const { return static_cast<float>(d_); }
    int64_t toLong() const { return i_; }
    int toInt() const { return static_cast<int>(i_); }
    bool toBool() const { return d_ != 0; }
    bool isFloatingPoint() const { return kind_ == 0; }
    bool isIntegral(bool include_bool) const { return kind_ == 1 || (include_bool && kind_ == 2); }
    bool isBoolean() const { return kind_ == 2; }
    template <class T>
    T to() const { return static_cast<T>(kind_ == 0 ? d_ : static_cast<double>(i_)); }
    int kind() const { return kind_; }
    // Not c10: the call argument this scalar came from ("a<k>"), so an OpDef input fed a scalar
    // (an aclScalar operand) can be traced to the value the model passed.
    const std::string& source() const { return source_; }
    Scalar with_source(std::string s) const { Scalar c = *this; c.source_ = std::move(s); return c; }

  private:
    std::string source_;
    double d_ = 0;
    int64_t i_ = 0;
    int kind_ = 0;  // 0 floating, 1 integral, 2 bool
};

}  // namespace c10

namespace at {

using c10::ArrayRef;
using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;
using Dtype = ScalarType;

constexpr ScalarType kByte = ScalarType::Byte, kUInt8 = ScalarType::Byte, kChar = ScalarType::Char,
                     kInt8 = ScalarType::Char, kShort = ScalarType::Short, kInt16 = ScalarType::Short,
                     kInt = ScalarType::Int, kInt32 = ScalarType::Int, kLong = ScalarType::Long,
                     kInt64 = ScalarType::Long, kHalf = ScalarType::Half, kFloat16 = ScalarType::Half,
                     kFloat = ScalarType::Float, kFloat32 = ScalarType::Float, kDouble = ScalarType::Double,
                     kFloat64 = ScalarType::Double, kBool = ScalarType::Bool, kBFloat16 = ScalarType::BFloat16,
                     kComplexFloat = ScalarType::ComplexFloat, kComplexDouble = ScalarType::ComplexDouble,
                     kUInt16 = ScalarType::UInt16, kUInt32 = ScalarType::UInt32, kUInt64 = ScalarType::UInt64;

class TensorOptions {
  public:
    TensorOptions() = default;
    TensorOptions(ScalarType t) : dtype_(t) {}  // NOLINT: implicit, as in torch
    TensorOptions(Device) {}                     // NOLINT
    TensorOptions dtype(ScalarType t) const { TensorOptions o = *this; o.dtype_ = t; return o; }
    TensorOptions device(Device) const { return *this; }
    TensorOptions layout(int) const { return *this; }
    TensorOptions requires_grad(bool) const { return *this; }
    std::optional<ScalarType> dtype_opt() const { return dtype_; }

  private:
    std::optional<ScalarType> dtype_;
};

inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }

namespace shim {
struct TensorImpl {
    std::string id;  // "a<k>" argument k, "a<k>.<j>" element j of list argument k, "n<k>" made here
    std::vector<int64_t> shape;
    ScalarType dtype = ScalarType::Float;
    std::vector<double> values;  // only for tiny tensors the caller described in full
};
inline int& counter() { static int n = 0; return n; }
}  // namespace shim

class Tensor {
  public:
    Tensor() = default;
    explicit Tensor(std::shared_ptr<shim::TensorImpl> p) : p_(std::move(p)) {}

    bool defined() const { return p_ != nullptr; }
    IntArrayRef sizes() const { return IntArrayRef(impl().shape); }
    int64_t size(int64_t d) const {
        const int64_t n = dim();
        if (d < 0) d += n;
        if (d < 0 || d >= n) throw std::out_of_range("akgen torch shim: size(dim) out of range");
        return impl().shape[d];
    }
    int64_t dim() const { return static_cast<int64_t>(impl().shape.size()); }
    int64_t ndimension() const { return dim(); }
    int64_t numel() const {
        int64_t n = 1;
        for (int64_t s : impl().shape) n *= s;
        return n;
    }
    ScalarType scalar_type() const { return impl().dtype; }
    ScalarType dtype() const { return impl().dtype; }
    TensorOptions options() const { return TensorOptions().dtype(impl().dtype); }
    Device device() const { return Device(); }
    bool is_contiguous() const { return true; }
    const std::string& id() const { return impl().id; }
    const shim::TensorImpl& impl() const {
        if (!p_) throw std::runtime_error("akgen torch shim: use of an undefined tensor");
        return *p_;
    }

    // The same storage in another dress: the operand still comes from the value it was made from.
    Tensor contiguous() const { return *this; }
    Tensor cpu() const { return *this; }
    Tensor npu() const { return *this; }
    Tensor clone() const { return derived(impl().shape, impl().dtype); }
    Tensor to(ScalarType t) const { return derived(impl().shape, t); }
    Tensor to(const TensorOptions& o) const { return derived(impl().shape, o.dtype_opt().value_or(impl().dtype)); }
    Tensor to(Device) const { return *this; }
    Tensor reshape(IntArrayRef s) const { return derived(s.vec(), impl().dtype); }
    Tensor view(IntArrayRef s) const { return derived(s.vec(), impl().dtype); }
    Tensor flatten() const { return derived({numel()}, impl().dtype); }
    Tensor& fill_(const Scalar&) { return *this; }
    Tensor& zero_() { return *this; }
    template <class T, size_t N>
    struct Accessor {
        const std::vector<double>* v;
        T operator[](size_t i) const { return static_cast<T>(v->at(i)); }
        size_t size(size_t) const { return v->size(); }
    };
    template <class T, size_t N>
    Accessor<T, N> accessor() const {
        if (impl().values.size() != static_cast<size_t>(numel()))
            throw std::runtime_error("akgen torch shim: accessor() of a tensor whose values were not given");
        return Accessor<T, N>{&impl().values};
    }
    template <class T>
    T item() const {
        if (impl().values.empty())
            throw std::runtime_error("akgen torch shim: item() of a tensor whose values were not given");
        return static_cast<T>(impl().values[0]);
    }

  private:
    Tensor derived(std::vector<int64_t> shape, ScalarType t) const {
        auto p = std::make_shared<shim::TensorImpl>(impl());
        p->shape = std::move(shape);
        p->dtype = t;
        return Tensor(p);
    }
    std::shared_ptr<shim::TensorImpl> p_;
};

using TensorList = ArrayRef<Tensor>;

inline Tensor make(IntArrayRef shape, ScalarType t) {
    auto p = std::make_shared<shim::TensorImpl>();
    p->id = "n" + std::to_string(shim::counter()++);
    p->shape = shape.vec();
    p->dtype = t;
    return Tensor(p);
}
inline Tensor empty(IntArrayRef shape, const TensorOptions& o = {}) {
    return make(shape, o.dtype_opt().value_or(ScalarType::Float));
}
inline Tensor empty_like(const Tensor& x, const TensorOptions& o = {}) {
    return make(x.sizes(), o.dtype_opt().value_or(x.scalar_type()));
}
inline Tensor zeros(IntArrayRef shape, const TensorOptions& o = {}) { return empty(shape, o); }
inline Tensor ones(IntArrayRef shape, const TensorOptions& o = {}) { return empty(shape, o); }
inline Tensor full(IntArrayRef shape, const Scalar&, const TensorOptions& o = {}) { return empty(shape, o); }
inline Tensor zeros_like(const Tensor& x, const TensorOptions& o = {}) { return empty_like(x, o); }
inline Tensor ones_like(const Tensor& x, const TensorOptions& o = {}) { return empty_like(x, o); }

}  // namespace at

namespace torch {
using namespace at;  // NOLINT: torch:: re-exports at::, as libtorch does
}
namespace c10 {
using at::Tensor;
using at::TensorList;
}
namespace pybind11 {
struct arg {
    explicit arg(const char*) {}
    template <class T>
    arg& operator=(const T&) { return *this; }
};
}  // namespace pybind11

// aclnn's own argument types, as pytorch_npu_helper.hpp makes them: a list of ints, a scalar.
struct aclIntArray {
    std::vector<int64_t> v;
};
struct aclScalar {
    c10::Scalar v;
};
inline aclIntArray* ConvertType(const c10::IntArrayRef& a) { return new aclIntArray{a.vec()}; }
inline aclScalar* ConvertTensorToAclScaler(const at::Tensor& t) {
    return new aclScalar{c10::Scalar(t.item<double>()).with_source(t.id())};
}

#define TORCH_CHECK(cond, ...) \
    do { if (!(cond)) throw std::runtime_error("TORCH_CHECK failed: " #cond); } while (0)

namespace akgen_pybind {

// ---- what EXEC_NPU_CMD was given, one line per operand ------------------------------------------
inline void put_tensor(std::ostream& o, const at::Tensor& t) {
    if (!t.defined()) { o << "N\n"; return; }
    o << "T " << t.id() << ' ' << c10::dtype_name(t.scalar_type()) << ' ' << t.dim();
    for (int64_t s : t.sizes()) o << ' ' << s;
    o << '\n';
}
inline void put(std::ostream& o, const at::Tensor& t) { put_tensor(o, t); }
inline void put(std::ostream& o, const std::optional<at::Tensor>& t) {
    if (t.has_value()) put_tensor(o, *t); else o << "N\n";
}
inline void put(std::ostream& o, const at::TensorList& l) {
    o << "L " << l.size() << '\n';
    for (const auto& t : l) put_tensor(o, t);
}
inline void put(std::ostream& o, const std::vector<at::Tensor>& l) { put(o, at::TensorList(l)); }
inline void put(std::ostream& o, bool v) { o << "B " << (v ? 1 : 0) << '\n'; }
inline void put(std::ostream& o, double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    o << "F " << s.str() << '\n';
}
inline void put(std::ostream& o, float v) { put(o, static_cast<double>(v)); }
template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool>, int> = 0>
inline void put(std::ostream& o, I v) { o << "I " << static_cast<int64_t>(v) << '\n'; }
inline void put(std::ostream& o, const std::string& v) {
    o << "S " << v.size() << ' ' << v << '\n';
}
inline void put(std::ostream& o, const char* v) { put(o, std::string(v ? v : "")); }
inline void put(std::ostream& o, char* v) { put(o, std::string(v ? v : "")); }
inline void put(std::ostream& o, const c10::Scalar& v) {
    if (!v.source().empty()) o << "Q " << v.source() << ' ';
    if (v.kind() == 0) put(o, v.toDouble());
    else if (v.kind() == 1) put(o, v.toLong());
    else put(o, v.toBool());
}
inline void put(std::ostream& o, const c10::IntArrayRef& v) {
    o << "V " << v.size();
    for (int64_t x : v) o << ' ' << x;
    o << '\n';
}
inline void put(std::ostream& o, const std::vector<int64_t>& v) { put(o, c10::IntArrayRef(v)); }
inline void put(std::ostream& o, const c10::ArrayRef<c10::Scalar>& v) {
    o << "X " << v.size() << '\n';
    for (const auto& x : v) put(o, x);
}
inline void put(std::ostream& o, const std::vector<c10::Scalar>& v) { put(o, c10::ArrayRef<c10::Scalar>(v)); }
inline void put(std::ostream& o, const aclIntArray* v) { put(o, c10::IntArrayRef(v->v)); }
inline void put(std::ostream& o, const aclScalar* v) { put(o, v->v); }
inline void put(std::ostream& o, const at::ScalarType& t) { o << "D " << c10::dtype_name(t) << '\n'; }

inline std::ostringstream& record() { static std::ostringstream s; return s; }
inline int& commands() { static int n = 0; return n; }

template <class... A>
void exec_cmd(const char* op, const A&... operands) {
    std::ostringstream& o = record();
    o << "exec " << op << ' ' << sizeof...(A) << '\n';
    (put(o, operands), ...);
    ++commands();
}

// ---- the module: m.def("name", &fn) keeps a caller that takes parsed arguments ------------------
struct Arg {
    char kind = 'N';  // T tensor, L list, N none, I int, F float, B bool, S string, V int list
    at::Tensor tensor;
    std::vector<at::Tensor> list;
    int64_t i = 0;
    double f = 0;
    std::string s;
    std::vector<int64_t> ints;
    std::string id;  // "a<k>": which argument of the call this is
};

struct Bad : std::runtime_error {
    using std::runtime_error::runtime_error;
};

template <class T>
struct From;
template <>
struct From<at::Tensor> {
    static at::Tensor get(const Arg& a) {
        if (a.kind == 'N') return at::Tensor();
        if (a.kind != 'T') throw Bad("a tensor parameter got another kind of value");
        return a.tensor;
    }
};
template <>
struct From<std::optional<at::Tensor>> {
    static std::optional<at::Tensor> get(const Arg& a) {
        if (a.kind == 'N') return std::nullopt;
        return From<at::Tensor>::get(a);
    }
};
template <>
struct From<std::vector<at::Tensor>> {
    static std::vector<at::Tensor> get(const Arg& a) {
        if (a.kind != 'L') throw Bad("a tensor-list parameter got another kind of value");
        return a.list;
    }
};
template <>
struct From<at::TensorList> {
    static at::TensorList get(const Arg& a) { return at::TensorList(From<std::vector<at::Tensor>>::get(a)); }
};
template <>
struct From<std::string> {
    static std::string get(const Arg& a) {
        if (a.kind != 'S') throw Bad("a string parameter got another kind of value");
        return a.s;
    }
};
template <>
struct From<std::vector<int64_t>> {
    static std::vector<int64_t> get(const Arg& a) {
        if (a.kind != 'V') throw Bad("an int-list parameter got another kind of value");
        return a.ints;
    }
};
template <>
struct From<c10::IntArrayRef> {
    static c10::IntArrayRef get(const Arg& a) { return c10::IntArrayRef(From<std::vector<int64_t>>::get(a)); }
};
template <>
struct From<c10::Scalar> {
    static c10::Scalar get(const Arg& a) {
        if (a.kind == 'F') return c10::Scalar(a.f).with_source(a.id);
        if (a.kind == 'I') return c10::Scalar(a.i).with_source(a.id);
        if (a.kind == 'B') return c10::Scalar(a.i != 0).with_source(a.id);
        if (a.kind == 'T') return c10::Scalar(a.tensor.item<double>()).with_source(a.tensor.id());
        throw Bad("a Scalar parameter got another kind of value");
    }
};
template <class T>
struct From {
    static T get(const Arg& a) {
        static_assert(std::is_arithmetic_v<T>, "akgen torch shim: unsupported pybind parameter type");
        if (a.kind == 'F') return static_cast<T>(a.f);
        if (a.kind == 'I' || a.kind == 'B') return static_cast<T>(a.i);
        if (a.kind == 'T') return a.tensor.item<T>();
        throw Bad("a number parameter got another kind of value");
    }
};
template <>
struct From<const char*> {
    static const char* get(const Arg& a) { return From<std::string>::get(a), a.s.c_str(); }
};
template <class T>
struct From<std::optional<T>> {
    static std::optional<T> get(const Arg& a) {
        if (a.kind == 'N') return std::nullopt;
        return From<T>::get(a);
    }
};

inline void put_result(std::ostream& o, const at::Tensor& t) { o << ' ' << (t.defined() ? t.id() : "-"); }
inline void put_result(std::ostream& o, const std::vector<at::Tensor>& v) {
    for (const auto& t : v) put_result(o, t);
}
template <class... T>
void put_result(std::ostream& o, const std::tuple<T...>& t) {
    std::apply([&](const auto&... e) { (put_result(o, e), ...); }, t);
}

using Caller = std::function<void(const std::vector<Arg>&, std::ostream&)>;

template <class R, class... A, size_t... I>
void call_with(R (*f)(A...), const std::vector<Arg>& args, std::ostream& o, std::index_sequence<I...>) {
    if (args.size() != sizeof...(A))
        throw Bad("the call gives " + std::to_string(args.size()) + " arguments; the binding takes " +
                  std::to_string(sizeof...(A)));
    std::tuple<std::decay_t<A>...> held{From<std::decay_t<A>>::get(args[I])...};
    if constexpr (std::is_void_v<R>) {
        f(std::get<I>(held)...);
        o << "return\n";
    } else {
        auto r = f(std::get<I>(held)...);
        o << "return";
        put_result(o, r);
        o << '\n';
    }
}

struct Module {
    std::string doc_;
    std::map<std::string, Caller> functions;
    std::string& doc() { return doc_; }
    template <class R, class... A, class... Extra>
    Module& def(const char* name, R (*f)(A...), const Extra&...) {
        functions[name] = [f](const std::vector<Arg>& args, std::ostream& o) {
            call_with(f, args, o, std::index_sequence_for<A...>{});
        };
        return *this;
    }
};

}  // namespace akgen_pybind

namespace py = pybind11;

#define EXEC_NPU_CMD(op, ...) ::akgen_pybind::exec_cmd(#op, ##__VA_ARGS__)
#define PYBIND11_MODULE(name, variable) void akgen_pybind_init(::akgen_pybind::Module& variable)

// exe_graph/runtime/tiling_context.h — CANN's runtime contexts for host code: gert::Shape,
// StorageShape, Tensor, CompileTimeTensorDesc, RuntimeAttrs, TilingData, TilingContext,
// TilingParseContext, InferShapeContext and InferDataTypeContext (ascend_sim subset, ordinary
// C++, never device code).
//
// Method names and shapes as in CANN's metadef headers exe_graph/runtime/*.h and the
// "TilingContext" API pages: GetInputShape(i) / GetInputDesc(i) / GetInputTensor(i) take the
// compute-node (instance) index; GetOptionalInput*(ir) and GetDynamicInput*(ir, j) take the IR
// index of the OpDef and map it through the instance ranges (ir_inputs_; empty = one instance
// per IR input). GetAttrPointer<T> reinterprets the attribute's storage as CANN does (an Int
// attribute is an int64_t, so GetAttrPointer<uint32_t> reads its low word on little-endian).
//
// This is the one definition of these types on cpu-sim: akgen's own host interface
// (bench_runner/harness/akgen_host.h) includes it; the public data members below are what the
// harness (akgen_manifest.h fill_context) and tests fill in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../../graph/types.h"
#include "../../platform/platform_info.h"

namespace gert {

// akgen_host.h's name for the platform description.
using PlatformInfo = fe::PlatFormInfos;

class Shape {
  public:
    static constexpr size_t kMaxDimNum = 25;  // CANN: kMaxDimNum
    Shape() = default;
    explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    void SetDimNum(size_t n) { dims_.resize(n, 0); }
    void SetDim(size_t i, int64_t v) {
        if (i < dims_.size()) dims_[i] = v;
    }
    Shape& AppendDim(int64_t v) {
        dims_.push_back(v);
        return *this;
    }
    bool IsScalar() const { return dims_.empty(); }
    void SetScalar() { dims_.clear(); }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
    int64_t operator[](size_t i) const { return GetDim(i); }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

  private:
    std::vector<int64_t> dims_;
};

class StorageShape {
  public:
    StorageShape() = default;
    explicit StorageShape(Shape s) : origin_(s), storage_(std::move(s)) {}
    StorageShape(Shape origin, Shape storage) : origin_(std::move(origin)), storage_(std::move(storage)) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }
    bool operator!=(const StorageShape& o) const { return !(*this == o); }

  private:
    Shape origin_, storage_;
};

class CompileTimeTensorDesc {
  public:
    CompileTimeTensorDesc() = default;
    explicit CompileTimeTensorDesc(ge::DataType t, ge::Format f = ge::FORMAT_ND) : type_(t), format_(f) {}
    ge::DataType GetDataType() const { return type_; }
    void SetDataType(ge::DataType t) { type_ = t; }
    // CANN returns a StorageFormat; ascend_sim stores the one format for origin and storage.
    ge::Format GetOriginFormat() const { return format_; }
    ge::Format GetStorageFormat() const { return format_; }

  private:
    ge::DataType type_ = ge::DT_UNDEFINED;
    ge::Format format_ = ge::FORMAT_ND;
};

// A runtime tensor: shape, dtype and (for value-depend inputs) the host data.
class Tensor {
  public:
    Tensor() = default;
    Tensor(StorageShape s, ge::DataType t, const void* data = nullptr) : shape_(std::move(s)), type_(t), data_(data) {}
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const StorageShape& GetShape() const { return shape_; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    ge::DataType GetDataType() const { return type_; }
    template <typename T>
    const T* GetData() const { return static_cast<const T*>(data_); }
    const void* GetAddr() const { return data_; }
    size_t GetSize() const {
        const int b = ge::GetSizeByDataType(type_);
        return b > 0 ? static_cast<size_t>(GetShapeSize()) * static_cast<size_t>(b) : 0;
    }

  private:
    StorageShape shape_;
    ge::DataType type_ = ge::DT_UNDEFINED;
    const void* data_ = nullptr;
};

// CANN's attribute list types (GetListInt answers a TypedContinuousVector<int64_t>).
template <typename T>
class TypedContinuousVector {
  public:
    TypedContinuousVector() = default;
    explicit TypedContinuousVector(std::vector<T> v) : v_(std::move(v)) {}
    size_t GetSize() const { return v_.size(); }
    size_t GetCapacity() const { return v_.size(); }
    const T* GetData() const { return v_.data(); }
    T* MutableData() { return v_.data(); }

  private:
    std::vector<T> v_;
};
using ContinuousVector = TypedContinuousVector<int64_t>;

class RuntimeAttrs {
  public:
    struct Attr {
        std::string name;
        int64_t i = 0;
        float f = 0;
        bool b = false;
        std::string s;
        TypedContinuousVector<int64_t> list_int;
        TypedContinuousVector<float> list_float;
        TypedContinuousVector<bool> list_bool;
    };
    size_t GetAttrNum() const { return attrs_.size(); }
    // Attributes come in the order the OpDef declares them (akgen tasks: [attributes] in task.toml).
    template <typename T>
    const T* GetAttrPointer(size_t idx) const {
        if (idx >= attrs_.size()) return nullptr;
        const Attr& a = attrs_[idx];
        if constexpr (std::is_same_v<T, char>) {
            return a.s.c_str();
        } else if constexpr (std::is_same_v<T, bool>) {
            return &a.b;
        } else if constexpr (std::is_same_v<T, float>) {
            return &a.f;
        } else if constexpr (std::is_same_v<T, TypedContinuousVector<int64_t>>) {
            return &a.list_int;
        } else if constexpr (std::is_same_v<T, TypedContinuousVector<float>>) {
            return &a.list_float;
        } else if constexpr (std::is_same_v<T, TypedContinuousVector<bool>>) {
            return &a.list_bool;
        } else {
            static_assert(std::is_integral_v<T> && sizeof(T) <= sizeof(int64_t),
                          "GetAttrPointer<T>: T is not an attribute storage type");
            return reinterpret_cast<const T*>(&a.i);  // low bytes of the int64 (little-endian)
        }
    }
    const int64_t* GetInt(size_t idx) const { return GetAttrPointer<int64_t>(idx); }
    const float* GetFloat(size_t idx) const { return GetAttrPointer<float>(idx); }
    const bool* GetBool(size_t idx) const { return GetAttrPointer<bool>(idx); }
    const char* GetStr(size_t idx) const { return GetAttrPointer<char>(idx); }
    const TypedContinuousVector<int64_t>* GetListInt(size_t idx) const {
        return GetAttrPointer<TypedContinuousVector<int64_t>>(idx);
    }
    const TypedContinuousVector<float>* GetListFloat(size_t idx) const {
        return GetAttrPointer<TypedContinuousVector<float>>(idx);
    }
    std::vector<Attr>& mutable_attrs() { return attrs_; }

  private:
    std::vector<Attr> attrs_;
};

class TilingData {
  public:
    explicit TilingData(size_t capacity) : buf_(capacity, 0) {}
    void* GetData() { return buf_.data(); }
    const void* GetData() const { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    void SetDataSize(size_t n) { size_ = n; }
    size_t GetDataSize() const { return size_; }

  private:
    std::vector<uint8_t> buf_;
    size_t size_ = 0;
};

// Inputs, outputs and attributes of the node a context describes; shared by the contexts.
class NodeContextBase {
  public:
    size_t GetInputNum() const { return inputs_.size(); }
    size_t GetOutputNum() const { return outputs_.size(); }
    size_t GetComputeNodeInputNum() const { return inputs_.size(); }
    size_t GetComputeNodeOutputNum() const { return outputs_.size(); }
    const char* GetNodeName() const { return node_name_.c_str(); }
    const char* GetNodeType() const { return node_type_.c_str(); }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }

    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i] : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < in_desc_.size() ? &in_desc_[i] : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < out_desc_.size() ? &out_desc_[i] : nullptr;
    }
    const Tensor* GetInputTensor(size_t i) const {
        if (i >= inputs_.size()) return nullptr;
        tensors_.resize(inputs_.size());
        tensors_[i] = Tensor(inputs_[i], i < in_desc_.size() ? in_desc_[i].GetDataType() : ge::DT_UNDEFINED,
                             i < input_data_.size() ? input_data_[i] : nullptr);
        return &tensors_[i];
    }

    // IR-indexed access (OPTIONAL and DYNAMIC inputs of the OpDef).
    const StorageShape* GetOptionalInputShape(size_t ir) const { return GetInputShapeOrNull(instance(ir, 0)); }
    const CompileTimeTensorDesc* GetOptionalInputDesc(size_t ir) const { return GetInputDesc(instance(ir, 0)); }
    const Tensor* GetOptionalInputTensor(size_t ir) const { return GetInputTensor(instance(ir, 0)); }
    const StorageShape* GetDynamicInputShape(size_t ir, size_t j) const { return GetInputShapeOrNull(instance(ir, j)); }
    const CompileTimeTensorDesc* GetDynamicInputDesc(size_t ir, size_t j) const { return GetInputDesc(instance(ir, j)); }
    const Tensor* GetDynamicInputTensor(size_t ir, size_t j) const { return GetInputTensor(instance(ir, j)); }

    // Filled by the harness / a test driver.
    std::vector<StorageShape> inputs_, outputs_;
    std::vector<CompileTimeTensorDesc> in_desc_, out_desc_;
    std::vector<const void*> input_data_;  // host data of value-depend inputs (may be empty)
    // Per IR input: (first instance, instance count); an OPTIONAL input left out has count 0.
    std::vector<std::pair<size_t, size_t>> ir_inputs_;
    RuntimeAttrs attrs_;
    std::string node_name_ = "ascend_sim_node";
    std::string node_type_;

  protected:
    static constexpr size_t kNone = static_cast<size_t>(-1);
    size_t instance(size_t ir, size_t j) const {
        if (ir_inputs_.empty()) return j == 0 ? ir : kNone;
        if (ir >= ir_inputs_.size() || j >= ir_inputs_[ir].second) return kNone;
        return ir_inputs_[ir].first + j;
    }
    const StorageShape* GetInputShapeOrNull(size_t i) const { return i == kNone ? nullptr : GetInputShape(i); }
    mutable std::vector<Tensor> tensors_;
};

class TilingContext : public NodeContextBase {
  public:
    explicit TilingContext(size_t tiling_capacity = 16384) : tiling_(tiling_capacity) {}

    // CANN returns fe::PlatFormInfos*; PlatformAscendC is constructed from it.
    fe::PlatFormInfos* GetPlatformInfo() const { return const_cast<fe::PlatFormInfos*>(&platform_); }
    const void* GetCompileInfo() const { return compile_info_; }
    template <typename T>
    const T* GetCompileInfo() const { return static_cast<const T*>(compile_info_); }

    void SetBlockDim(uint32_t n) { block_dim_ = n; }
    uint32_t GetBlockDim() const { return block_dim_; }
    TilingData* GetRawTilingData() { return &tiling_; }
    ge::graphStatus SetTilingKey(uint64_t key) {
        tiling_key_ = key;
        has_tiling_key_ = true;
        return ge::GRAPH_SUCCESS;
    }
    uint64_t GetTilingKey() const { return tiling_key_; }
    size_t* GetWorkspaceSizes(size_t num) {
        if (workspace_.size() < num) workspace_.resize(num, 0);
        return workspace_.data();
    }
    size_t GetWorkspaceNum() const { return workspace_.size(); }
    // CANN: deterministic computation requested by the framework (0 = off).
    int32_t GetDeterministic() const { return deterministic_; }
    ge::graphStatus SetScheduleMode(uint32_t mode) {
        schedule_mode_ = mode;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus SetNeedAtomic(bool b) {
        need_atomic_ = b;
        return ge::GRAPH_SUCCESS;
    }
    // New-style (CANN 9) access to a plain tiling struct living in the raw buffer.
    template <typename T>
    T* GetTilingData() {
        static_assert(sizeof(T) <= 16384, "tiling struct larger than the 16 KiB tiling buffer");
        tiling_.SetDataSize(sizeof(T));
        return reinterpret_cast<T*>(tiling_.GetData());
    }

    // Filled by the harness.
    PlatformInfo platform_;
    const void* compile_info_ = nullptr;
    uint32_t block_dim_ = 0;
    uint64_t tiling_key_ = 0;
    bool has_tiling_key_ = false;
    std::vector<size_t> workspace_;
    int32_t deterministic_ = 0;
    uint32_t schedule_mode_ = 0;
    bool need_atomic_ = false;

  private:
    TilingData tiling_;
};

// The compile-time half of tiling (TilingParse / TilingPrepare): the platform and the op's
// compile info struct, which the TilingFunc later reads with GetCompileInfo<T>().
class TilingParseContext {
  public:
    fe::PlatFormInfos* GetPlatformInfo() const { return platform_; }
    template <typename T>
    T* GetCompiledInfo() const { return static_cast<T*>(compile_info_); }
    const char* GetNodeName() const { return node_name_.c_str(); }
    const char* GetNodeType() const { return node_name_.c_str(); }
    const char* GetCompiledJson() const { return json_.c_str(); }

    fe::PlatFormInfos* platform_ = nullptr;
    void* compile_info_ = nullptr;
    std::string node_name_ = "ascend_sim_node";
    std::string json_ = "{}";
};

class InferShapeContext : public NodeContextBase {
  public:
    Shape* GetOutputShape(size_t i) { return i < out_shapes_.size() ? &out_shapes_[i] : nullptr; }
    const Shape* GetInputShape(size_t i) const {
        return i < inputs_.size() ? &inputs_[i].GetOriginShape() : nullptr;
    }
    const Shape* GetOptionalInputShape(size_t ir) const { return GetInputShape(instance(ir, 0)); }
    const Shape* GetDynamicInputShape(size_t ir, size_t j) const { return GetInputShape(instance(ir, j)); }

    std::vector<Shape> out_shapes_;
};

class InferDataTypeContext : public NodeContextBase {
  public:
    ge::DataType GetInputDataType(size_t i) const {
        return i < in_desc_.size() ? in_desc_[i].GetDataType() : ge::DT_UNDEFINED;
    }
    ge::DataType GetOptionalInputDataType(size_t ir) const { return GetInputDataType(instance(ir, 0)); }
    ge::DataType GetDynamicInputDataType(size_t ir, size_t j) const { return GetInputDataType(instance(ir, j)); }
    ge::DataType GetOutputDataType(size_t i) const {
        return i < out_types_.size() ? out_types_[i] : ge::DT_UNDEFINED;
    }
    ge::graphStatus SetOutputDataType(size_t i, ge::DataType t) {
        if (out_types_.size() <= i) out_types_.resize(i + 1, ge::DT_UNDEFINED);
        out_types_[i] = t;
        return ge::GRAPH_SUCCESS;
    }

    std::vector<ge::DataType> out_types_;
};

}  // namespace gert

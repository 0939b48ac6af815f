// akgen_host.h — the host-side tiling interface of akgen tasks on cpu-sim.
//
// A host file implements one function, the same shape as a CANN op host's tiling function:
//
//     #include "akgen_host.h"
//     namespace optiling {
//     static ge::graphStatus TilingFunc(gert::TilingContext* context) { ... }
//     }
//
// It reads shapes, dtypes and attributes from the context, chooses the launch width with
// SetBlockDim, writes the tiling struct into GetRawTilingData() (or with the TILING_DATA macros
// below) and may request a workspace with GetWorkspaceSizes(1)[0]. Only this subset of CANN's
// gert / ge / optiling / platform_ascendc API exists here; docs/evaluator.md lists it.
// The kernel receives the tiling bytes through its trailing `GM_ADDR tiling` argument.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

// On cpu-sim the emulator's CANN host headers (exe_graph/runtime/tiling_context.h: ge::DataType,
// gert::TilingContext, fe::PlatFormInfos = gert::PlatformInfo) are the one definition, so akgen
// hosts and CANN op_host files share the types; elsewhere (cann toolchain) this subset.
#if __has_include("ascend_sim/op_host_registry.h")
#include "exe_graph/runtime/tiling_context.h"
#else
namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;

enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_INT64 = 9,
    DT_BOOL = 12,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
};
}  // namespace ge

namespace gert {

class Shape {
  public:
    Shape() = default;
    explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }

  private:
    std::vector<int64_t> dims_;
};

class StorageShape {
  public:
    StorageShape() = default;
    explicit StorageShape(Shape s) : shape_(std::move(s)) {}
    const Shape& GetOriginShape() const { return shape_; }
    const Shape& GetStorageShape() const { return shape_; }

  private:
    Shape shape_;
};

class CompileTimeTensorDesc {
  public:
    CompileTimeTensorDesc() = default;
    explicit CompileTimeTensorDesc(ge::DataType t) : type_(t) {}
    ge::DataType GetDataType() const { return type_; }

  private:
    ge::DataType type_ = ge::DT_UNDEFINED;
};

class RuntimeAttrs {
  public:
    struct Attr {
        std::string name;
        int64_t i = 0;
        float f = 0;
        bool b = false;
        std::string s;
    };
    size_t GetAttrNum() const { return attrs_.size(); }
    // Attributes come in the order of [attributes] in task.toml.
    template <typename T>
    const T* GetAttrPointer(size_t idx) const;
    const int64_t* GetInt(size_t idx) const { return idx < attrs_.size() ? &attrs_[idx].i : nullptr; }
    const float* GetFloat(size_t idx) const { return idx < attrs_.size() ? &attrs_[idx].f : nullptr; }
    const bool* GetBool(size_t idx) const { return idx < attrs_.size() ? &attrs_[idx].b : nullptr; }
    const char* GetStr(size_t idx) const { return idx < attrs_.size() ? attrs_[idx].s.c_str() : nullptr; }
    std::vector<Attr>& mutable_attrs() { return attrs_; }

  private:
    std::vector<Attr> attrs_;
};

template <>
inline const int64_t* RuntimeAttrs::GetAttrPointer<int64_t>(size_t idx) const { return GetInt(idx); }
template <>
inline const float* RuntimeAttrs::GetAttrPointer<float>(size_t idx) const { return GetFloat(idx); }
template <>
inline const bool* RuntimeAttrs::GetAttrPointer<bool>(size_t idx) const { return GetBool(idx); }
template <>
inline const char* RuntimeAttrs::GetAttrPointer<char>(size_t idx) const { return GetStr(idx); }

class TilingData {
  public:
    explicit TilingData(size_t capacity) : buf_(capacity, 0) {}
    void* GetData() { return buf_.data(); }
    size_t GetCapacity() const { return buf_.size(); }
    void SetDataSize(size_t n) { size_ = n; }
    size_t GetDataSize() const { return size_; }

  private:
    std::vector<uint8_t> buf_;
    size_t size_ = 0;
};

struct PlatformInfo {
    uint32_t aiv_cores = 0;
    uint32_t aic_cores = 0;
    uint64_t ub_bytes = 0;
    std::string soc;
};

class TilingContext {
  public:
    explicit TilingContext(size_t tiling_capacity) : tiling_(tiling_capacity) {}

    size_t GetInputNum() const { return inputs_.size(); }
    size_t GetOutputNum() const { return outputs_.size(); }
    const StorageShape* GetInputShape(size_t i) const { return i < inputs_.size() ? &inputs_[i] : nullptr; }
    const StorageShape* GetOutputShape(size_t i) const { return i < outputs_.size() ? &outputs_[i] : nullptr; }
    const CompileTimeTensorDesc* GetInputDesc(size_t i) const { return i < in_desc_.size() ? &in_desc_[i] : nullptr; }
    const CompileTimeTensorDesc* GetOutputDesc(size_t i) const {
        return i < out_desc_.size() ? &out_desc_[i] : nullptr;
    }
    const RuntimeAttrs* GetAttrs() const { return &attrs_; }
    const PlatformInfo* GetPlatformInfo() const { return &platform_; }

    void SetBlockDim(uint32_t n) { block_dim_ = n; }
    uint32_t GetBlockDim() const { return block_dim_; }
    TilingData* GetRawTilingData() { return &tiling_; }
    void SetTilingKey(uint64_t key) {
        tiling_key_ = key;
        has_tiling_key_ = true;
    }
    uint64_t GetTilingKey() const { return tiling_key_; }
    size_t* GetWorkspaceSizes(size_t num) {
        if (workspace_.size() < num) workspace_.resize(num, 0);
        return workspace_.data();
    }
    // New-style (CANN 9) access to a plain tiling struct living in the raw buffer.
    template <typename T>
    T* GetTilingData() {
        static_assert(sizeof(T) <= 16384, "tiling struct larger than the 16 KiB tiling buffer");
        tiling_.SetDataSize(sizeof(T));
        return reinterpret_cast<T*>(tiling_.GetData());
    }

    // Filled by the harness.
    std::vector<StorageShape> inputs_, outputs_;
    std::vector<CompileTimeTensorDesc> in_desc_, out_desc_;
    // Per IR input: (first instance, instance count) — a tensor list has one instance per tensor.
    std::vector<std::pair<size_t, size_t>> ir_inputs_;
    RuntimeAttrs attrs_;
    PlatformInfo platform_;
    uint32_t block_dim_ = 0;
    uint64_t tiling_key_ = 0;
    bool has_tiling_key_ = false;
    std::vector<size_t> workspace_;

  private:
    TilingData tiling_;
};

}  // namespace gert
#endif

// On cpu-sim the emulator's platform_ascendc (SoC table, also used by CPU-debug programs) is the
// one definition; elsewhere (cann toolchain) this subset.
#if __has_include("ascend_sim/platform_ascendc.h")
#include "ascend_sim/platform_ascendc.h"
#else
namespace platform_ascendc {
enum class CoreMemType { L0_A = 0, L0_B, L0_C, L1, L2, UB, HBM, FB, BT };

class PlatformAscendC {
  public:
    explicit PlatformAscendC(const gert::PlatformInfo* info) : info_(info) {}
    uint32_t GetCoreNumAiv() const { return info_->aiv_cores; }
    uint32_t GetCoreNumAic() const { return info_->aic_cores; }
    uint32_t GetCoreNum() const { return info_->aiv_cores; }
    void GetCoreMemSize(CoreMemType type, uint64_t& size) const { size = type == CoreMemType::UB ? info_->ub_bytes : 0; }
    // The system workspace the kernel side's GetUserWorkspace() skips (ascend_sim/misc.h):
    // 2 MiB on 310P (arch 2002), 16 MiB elsewhere. Hosts add it to their own workspace size.
    uint32_t GetLibApiWorkSpaceSize() const {
        return info_->soc.rfind("Ascend310P", 0) == 0 ? (2u << 20) : (16u << 20);
    }

  private:
    const gert::PlatformInfo* info_;
};
}  // namespace platform_ascendc
#endif

// Classic CANN tiling macros (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS): the
// emulator's own definitions where they exist, so host and kernel agree on the struct layout.
#if __has_include("ascend_sim/tiling_macros.h")
#include "ascend_sim/tiling_macros.h"
#elif !defined(BEGIN_TILING_DATA_DEF)
#define BEGIN_TILING_DATA_DEF(name) \
    struct name {                   \
        using AkgenSelf = name;
#define TILING_DATA_FIELD_DEF(type, field)           \
    type field{};                                    \
    void set_##field(type v) { field = v; }          \
    type get_##field() const { return field; }
#define TILING_DATA_FIELD_DEF_ARR(type, n, field)                              \
    type field[n]{};                                                           \
    void set_##field(const type* v) { std::memcpy(field, v, sizeof(field)); } \
    type* get_##field() { return field; }                                    \
    const type* get_##field() const { return field; }
#define END_TILING_DATA_DEF                                                            \
    void SaveToBuffer(void* buf, size_t cap) const {                                   \
        std::memcpy(buf, this, sizeof(AkgenSelf) < cap ? sizeof(AkgenSelf) : cap);     \
    }                                                                                  \
    size_t GetDataSize() const { return sizeof(AkgenSelf); }                           \
    }
#define REGISTER_TILING_DATA_CLASS(op, cls)
#endif

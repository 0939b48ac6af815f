// register/op_def_registry.h — CANN's op prototype registration for op_host files: ops::OpDef
// (Input / Output / Attr, SetInferShape / SetInferDataType, AICore().SetTiling / AddConfig),
// OpParamDef, OpAttrDef, OpAICoreDef, OpAICoreConfig and OP_ADD.
//
// Names, enums and chaining as in CANN's public register/op_def.h / op_def_registry.h and the
// "OpDef" API pages (ops::Option IGNORE=0, OPTIONAL=1, REQUIRED=2, DYNAMIC=3, VIRTUAL=4). A host
// file's op class builds its definition in its constructor; OP_ADD(Name) constructs one at static
// initialisation and stores it in ascend_sim's registry (ascend_sim/op_host_registry.h) with the
// functions it bound, so a driver can list the ops, their parameters, dtype combinations and
// attributes, and run the TilingFunc. Everything CANN uses only for graph compilation (formats,
// flags, ExtendCfgInfo) is recorded but has no effect.
#pragma once

// Standard headers CANN's registration headers bring in, which op_host files rely on (std::cout,
// std::map, std::array without their own includes).
#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../exe_graph/runtime/tiling_context.h"
#include "../graph/operator.h"
#include "../graph/types.h"
#include "../tiling/platform/platform_ascendc.h"
#include "op_impl_registry.h"


namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class CommentSection : uint32_t { CATEGORY = 0, BRIEF = 1, CONSTRAINTS = 2, RESTRICTIONS = 3, SEE = 4,
                                       THIRDPARTYFWKCOMPAT = 5, SECTION_MAX };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT = 1, MAX };

// ---- an input or output -------------------------------------------------------------------
class OpParamDef {
  public:
    explicit OpParamDef(const char* name) : name_(name ? name : "") {}

    OpParamDef& ParamType(Option t) {
        param_type_ = t;
        return *this;
    }
    // One dtype per supported combination (column j of every parameter's list is combination j).
    OpParamDef& DataType(std::vector<ge::DataType> types) {
        dtypes_ = std::move(types);
        dtype_list_ = false;
        return *this;
    }
    // The listed dtypes combine with every combination of the other parameters.
    OpParamDef& DataTypeList(std::vector<ge::DataType> types) {
        dtypes_ = std::move(types);
        dtype_list_ = true;
        return *this;
    }
    OpParamDef& Format(std::vector<ge::Format> formats) {
        formats_ = std::move(formats);
        format_list_ = false;
        return *this;
    }
    OpParamDef& FormatList(std::vector<ge::Format> formats) {
        formats_ = std::move(formats);
        format_list_ = true;
        return *this;
    }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format> formats) {
        unknown_shape_formats_ = std::move(formats);
        return *this;
    }
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType> t) {
        bin_query_dtypes_ = std::move(t);
        return *this;
    }
    OpParamDef& FormatForBinQuery(std::vector<ge::Format>) { return *this; }
    OpParamDef& AutoContiguous() {
        auto_contiguous_ = true;
        return *this;
    }
    OpParamDef& IgnoreContiguous() {
        ignore_contiguous_ = true;
        return *this;
    }
    OpParamDef& Scalar() {
        scalar_ = true;
        return *this;
    }
    OpParamDef& ScalarList() {
        scalar_list_ = true;
        return *this;
    }
    // The input's values (not only its shape) are needed by tiling / infer shape.
    OpParamDef& ValueDepend(Option v) {
        value_depend_ = v;
        return *this;
    }
    OpParamDef& ValueDepend(Option v, DependScope) { return ValueDepend(v); }
    OpParamDef& Follow(const char* other) { return Follow(other, FollowType::ALL); }
    OpParamDef& Follow(const char* other, FollowType) {
        follow_ = other ? other : "";
        return *this;
    }
    OpParamDef& OutputShapeDependOnCompute() {
        shape_depend_on_compute_ = true;
        return *this;
    }
    template <typename T>
    OpParamDef& InitValue(T) {
        return *this;
    }
    OpParamDef& To(ge::DataType t) {
        to_dtype_ = t;
        return *this;
    }
    OpParamDef& To(const char*) { return *this; }
    OpParamDef& Version(uint32_t v) {
        version_ = v;
        return *this;
    }
    OpParamDef& Comment(const char*) { return *this; }

    // ---- ascend_sim queries (not CANN) ----
    const std::string& Name() const { return name_; }
    Option GetParamType() const { return param_type_; }
    const std::vector<ge::DataType>& GetDataTypes() const { return dtypes_; }
    bool IsDataTypeList() const { return dtype_list_; }
    const std::vector<ge::Format>& GetFormats() const { return formats_; }
    bool IsFormatList() const { return format_list_; }
    const std::vector<ge::Format>& GetUnknownShapeFormats() const { return unknown_shape_formats_; }
    bool IsAutoContiguous() const { return auto_contiguous_; }
    bool IsScalar() const { return scalar_; }
    bool IsScalarList() const { return scalar_list_; }
    Option GetValueDepend() const { return value_depend_; }
    const std::string& GetFollow() const { return follow_; }

  private:
    std::string name_;
    Option param_type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_, bin_query_dtypes_;
    std::vector<ge::Format> formats_, unknown_shape_formats_;
    bool dtype_list_ = false, format_list_ = false;
    bool auto_contiguous_ = false, ignore_contiguous_ = false, scalar_ = false, scalar_list_ = false;
    bool shape_depend_on_compute_ = false;
    Option value_depend_ = IGNORE;
    std::string follow_;
    ge::DataType to_dtype_ = ge::DT_UNDEFINED;
    uint32_t version_ = 0;
};

// ---- an attribute ---------------------------------------------------------------------------
class OpAttrDef {
  public:
    explicit OpAttrDef(const char* name) : name_(name ? name : "") {}

    OpAttrDef& AttrType(Option t) {
        attr_type_ = t;
        return *this;
    }
    OpAttrDef& Bool() { return kind("Bool"); }
    OpAttrDef& Bool(bool v) { return kind("Bool", v ? "true" : "false"); }
    OpAttrDef& Float() { return kind("Float"); }
    OpAttrDef& Float(float v) { return kind("Float", std::to_string(v)); }
    OpAttrDef& Int() { return kind("Int"); }
    OpAttrDef& Int(int64_t v) { return kind("Int", std::to_string(v)); }
    OpAttrDef& String() { return kind("String"); }
    OpAttrDef& String(const char* v) { return kind("String", v ? v : ""); }
    OpAttrDef& ListBool() { return kind("ListBool"); }
    OpAttrDef& ListBool(std::vector<bool> v) { return kind("ListBool", join(v)); }
    OpAttrDef& ListFloat() { return kind("ListFloat"); }
    OpAttrDef& ListFloat(std::vector<float> v) { return kind("ListFloat", join(v)); }
    OpAttrDef& ListInt() { return kind("ListInt"); }
    OpAttrDef& ListInt(std::vector<int64_t> v) { return kind("ListInt", join(v)); }
    OpAttrDef& ListListInt() { return kind("ListListInt"); }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> v) {
        std::string s;
        for (const auto& x : v) s += (s.empty() ? "" : ";") + join(x);
        return kind("ListListInt", s);
    }
    OpAttrDef& Version(uint32_t) { return *this; }
    OpAttrDef& Comment(const char*) { return *this; }

    // ---- ascend_sim queries (not CANN) ----
    const std::string& Name() const { return name_; }
    Option GetAttrType() const { return attr_type_; }
    const std::string& GetKind() const { return kind_; }  // "Int", "Float", "ListInt", ...
    bool HasDefault() const { return has_default_; }
    const std::string& GetDefault() const { return default_; }  // as text; lists comma-separated

  private:
    OpAttrDef& kind(const char* k) {
        kind_ = k;
        return *this;
    }
    OpAttrDef& kind(const char* k, std::string def) {
        kind_ = k;
        default_ = std::move(def);
        has_default_ = true;
        return *this;
    }
    template <typename T>
    static std::string join(const std::vector<T>& v) {
        std::string s;
        for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
        return s;
    }
    std::string name_;
    Option attr_type_ = REQUIRED;
    std::string kind_;
    std::string default_;
    bool has_default_ = false;
};

// ---- the per-SoC AI Core configuration ------------------------------------------------------
class OpAICoreConfig {
  public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char* soc) : soc_(soc ? soc : "") {}

    OpParamDef& Input(const char* name) { return find_or_add(inputs_, name); }
    OpParamDef& Output(const char* name) { return find_or_add(outputs_, name); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool b) { return flag("dynamicCompileStatic", b); }
    OpAICoreConfig& DynamicFormatFlag(bool b) { return flag("dynamicFormat", b); }
    OpAICoreConfig& DynamicRankSupportFlag(bool b) { return flag("dynamicRankSupport", b); }
    OpAICoreConfig& DynamicShapeSupportFlag(bool b) { return flag("dynamicShapeSupport", b); }
    OpAICoreConfig& NeedCheckSupportFlag(bool b) { return flag("needCheckSupport", b); }
    OpAICoreConfig& PrecisionReduceFlag(bool b) { return flag("precision_reduce", b); }
    OpAICoreConfig& ExtendCfgInfo(const char* key, const char* value) {
        cfg_[key ? key : ""] = value ? value : "";
        return *this;
    }

    // ---- ascend_sim queries (not CANN) ----
    const std::deque<OpParamDef>& GetInputs() const { return inputs_; }
    const std::deque<OpParamDef>& GetOutputs() const { return outputs_; }
    const std::map<std::string, std::string>& GetCfgInfo() const { return cfg_; }

  private:
    friend class OpDef;
    static OpParamDef& find_or_add(std::deque<OpParamDef>& v, const char* name) {
        for (auto& p : v)
            if (p.Name() == (name ? name : "")) return p;
        v.emplace_back(name);
        return v.back();
    }
    OpAICoreConfig& flag(const char* key, bool b) { return ExtendCfgInfo(key, b ? "true" : "false"); }
    std::string soc_;
    std::deque<OpParamDef> inputs_, outputs_;
    std::map<std::string, std::string> cfg_;
};

class OpAICoreDef {
  public:
    OpAICoreDef& SetTiling(gert::TilingKernelFunc f) {
        tiling_ = f;
        return *this;
    }
    // Graph-mode callbacks (check support, op select format, …): accepted, never called.
    template <typename F>
    OpAICoreDef& SetCheckSupport(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSelectFormat(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSupportInfo(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetOpSpecInfo(F) { return *this; }
    template <typename F>
    OpAICoreDef& SetParamGeneralize(F) { return *this; }
    OpAICoreDef& AddConfig(const char* soc) { return AddConfig(soc, OpAICoreConfig(soc)); }
    OpAICoreDef& AddConfig(const char* soc, const OpAICoreConfig& cfg) {
        configs_[soc ? soc : ""] = cfg;
        return *this;
    }

    // ---- ascend_sim queries (not CANN) ----
    gert::TilingKernelFunc GetTiling() const { return tiling_; }
    const std::map<std::string, OpAICoreConfig>& GetAICoreConfigs() const { return configs_; }

  private:
    gert::TilingKernelFunc tiling_ = nullptr;
    std::map<std::string, OpAICoreConfig> configs_;
};

// ---- the op ---------------------------------------------------------------------------------
class OpDef {
  public:
    explicit OpDef(const char* type) : type_(type ? type : "") {}
    virtual ~OpDef() = default;
    OpDef(const OpDef&) = default;
    OpDef& operator=(const OpDef&) = default;

    OpParamDef& Input(const char* name) { return OpAICoreConfig::find_or_add(inputs_, name); }
    OpParamDef& Output(const char* name) { return OpAICoreConfig::find_or_add(outputs_, name); }
    OpAttrDef& Attr(const char* name) {
        for (auto& a : attrs_)
            if (a.Name() == (name ? name : "")) return a;
        attrs_.emplace_back(name);
        return attrs_.back();
    }
    OpDef& SetInferShape(gert::InferShapeKernelFunc f) {
        infer_shape_ = f;
        return *this;
    }
    template <typename F>
    OpDef& SetInferShapeRange(F) { return *this; }
    OpDef& SetInferDataType(gert::InferDataTypeKernelFunc f) {
        infer_dtype_ = f;
        return *this;
    }
    OpAICoreDef& AICore() { return aicore_; }
    OpDef& Comment(CommentSection, const char*) { return *this; }
    OpDef& FormatMatchMode(FormatCheckOption) { return *this; }
    OpDef& EnableFallBack() { return *this; }

    // ---- ascend_sim queries (not CANN) ----
    const std::string& GetOpType() const { return type_; }
    const std::deque<OpParamDef>& GetInputs() const { return inputs_; }
    const std::deque<OpParamDef>& GetOutputs() const { return outputs_; }
    const std::deque<OpAttrDef>& GetAttrs() const { return attrs_; }
    const OpAICoreDef& GetAICore() const { return aicore_; }
    gert::InferShapeKernelFunc GetInferShape() const { return infer_shape_; }
    gert::InferDataTypeKernelFunc GetInferDataType() const { return infer_dtype_; }
    // The dtype combinations the op supports: row j holds, for every input then every output,
    // its dtype in combination j. Parameters declared with DataType(...) give column j of their
    // list; a DataTypeList(...) parameter multiplies the combinations by each of its dtypes.
    std::vector<std::vector<ge::DataType>> DataTypeCombinations() const {
        std::vector<const OpParamDef*> params;
        for (const auto& p : inputs_) params.push_back(&p);
        for (const auto& p : outputs_) params.push_back(&p);
        size_t n = 0;
        for (const auto* p : params)
            if (!p->IsDataTypeList() && p->GetDataTypes().size() > n) n = p->GetDataTypes().size();
        std::vector<std::vector<ge::DataType>> rows;
        for (size_t j = 0; j < (n ? n : 1); ++j) {
            std::vector<ge::DataType> row;
            for (const auto* p : params) {
                const auto& d = p->GetDataTypes();
                row.push_back(p->IsDataTypeList() || d.empty() ? (d.empty() ? ge::DT_UNDEFINED : d[0])
                                                               : d[j < d.size() ? j : d.size() - 1]);
            }
            rows.push_back(row);
        }
        for (size_t k = 0; k < params.size(); ++k) {  // expand list parameters
            const auto& d = params[k]->GetDataTypes();
            if (!params[k]->IsDataTypeList() || d.size() < 2) continue;
            std::vector<std::vector<ge::DataType>> out;
            for (const auto& r : rows)
                for (ge::DataType t : d) {
                    out.push_back(r);
                    out.back()[k] = t;
                }
            rows = std::move(out);
        }
        return rows;
    }

  private:
    std::string type_;
    std::deque<OpParamDef> inputs_, outputs_;
    std::deque<OpAttrDef> attrs_;
    OpAICoreDef aicore_;
    gert::InferShapeKernelFunc infer_shape_ = nullptr;
    gert::InferDataTypeKernelFunc infer_dtype_ = nullptr;
};

// OP_ADD's registration: keeps a copy of the definition and the functions it bound (IMPL_OP
// registrations of the same op keep theirs when the OpDef names none).
inline int ascend_sim_op_add(const OpDef& def) {
    auto& r = ::ascend_sim::ophost::Registry::Instance().Get(def.GetOpType());
    r.def = std::make_shared<const OpDef>(def);
    if (def.GetAICore().GetTiling() != nullptr) r.tiling = def.GetAICore().GetTiling();
    if (def.GetInferShape() != nullptr) r.infer_shape = def.GetInferShape();
    if (def.GetInferDataType() != nullptr) r.infer_dtype = def.GetInferDataType();
    return 0;
}

}  // namespace ops

// CANN's host headers leave std::map visible inside namespace optiling: NPUKernelBench's
// GeGluGradV2 tiling names it unqualified there and builds with CANN.
namespace optiling {
using std::map;
}  // namespace optiling

// Used inside `namespace ops` (or with a qualified name) after the op class, as in CANN.
#define OP_ADD(opType, ...) \
    [[maybe_unused]] static const int ascend_sim_op_added_##opType = ::ops::ascend_sim_op_add(opType(#opType))

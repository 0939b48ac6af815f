// graph/operator.h — the graph API's ge::Operator, ge::TensorDesc and ge::Shape as op_host
// check-support callbacks (SetCheckSupport) name them. Graph mode only: cpu-sim never calls
// those callbacks, so an Operator here describes nothing (no inputs, GetAttr fails); the types
// exist so host files that define such callbacks compile.
#pragma once
#include "../ascend_sim/dt_macros_set_aside.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "types.h"

#include "ascend_sim/ge_shape.h"

namespace ge {

class TensorDesc {
  public:
    TensorDesc() = default;
    TensorDesc(Shape s, Format f = FORMAT_ND, DataType t = DT_FLOAT) : shape_(std::move(s)), format_(f), type_(t) {}
    Shape GetShape() const { return shape_; }
    Shape GetOriginShape() const { return shape_; }
    DataType GetDataType() const { return type_; }
    Format GetFormat() const { return format_; }
    Format GetOriginFormat() const { return format_; }

  private:
    Shape shape_;
    Format format_ = FORMAT_ND;
    DataType type_ = DT_UNDEFINED;
};

class Operator {
  public:
    Operator() = default;
    explicit Operator(const char* type) : type_(type ? type : "") {}
    graphStatus GetName(AscendString& name) const {
        name = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    graphStatus GetOpType(AscendString& type) const {
        type = AscendString(type_.c_str());
        return GRAPH_SUCCESS;
    }
    TensorDesc GetInputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetOutputDescByName(const char*) const { return TensorDesc(); }
    TensorDesc GetInputDesc(uint32_t) const { return TensorDesc(); }
    TensorDesc GetOutputDesc(uint32_t) const { return TensorDesc(); }
    size_t GetInputsSize() const { return 0; }
    size_t GetOutputsSize() const { return 0; }
    template <typename T>
    graphStatus GetAttr(const char*, T&) const { return GRAPH_FAILED; }

  private:
    std::string type_;
};

}  // namespace ge
#include "../ascend_sim/dt_macros_restore.h"

// register/op_impl_registry.h — CANN's IMPL_OP / IMPL_OP_OPTILING / IMPL_OP_INFERSHAPE: bind
// an op type's tiling, tiling-parse (compile info) and infer functions without an OpDef:
//
//     IMPL_OP_OPTILING(AddCustom).Tiling(TilingFunc).TilingParse<AddCompileInfo>(TilingPrepare);
//
// Names as in CANN's metadef register/op_impl_registry.h (gert::OpImplRegisterV2). On cpu-sim
// each call records the function in ascend_sim's op registry (ascend_sim/op_host_registry.h).
#pragma once

#include <initializer_list>
#include <memory>
#include <string>

#include "../ascend_sim/op_host_registry.h"

namespace gert {

class OpImplRegisterV2 {
  public:
    using TilingKernelFunc = ::gert::TilingKernelFunc;
    using TilingParseFunc = ::gert::TilingParseKernelFunc;
    using InferShapeKernelFunc = ::gert::InferShapeKernelFunc;
    using InferDataTypeKernelFunc = ::gert::InferDataTypeKernelFunc;

    explicit OpImplRegisterV2(const char* op_type) : op_(op_type ? op_type : "") {}

    // CANN: the optional second argument bounds the tiling data size (bytes).
    OpImplRegisterV2& Tiling(TilingKernelFunc f, size_t max_tiling_data_size = 2048) {
        (void)max_tiling_data_size;
        rec().tiling = f;
        return *this;
    }
    template <typename CompileInfoT>
    OpImplRegisterV2& TilingParse(TilingParseFunc f) {
        auto& r = rec();
        r.tiling_parse = f;
        r.new_compile_info = [] { return std::shared_ptr<void>(std::make_shared<CompileInfoT>()); };
        r.compile_info_size = sizeof(CompileInfoT);
        return *this;
    }
    OpImplRegisterV2& InferShape(InferShapeKernelFunc f) {
        rec().infer_shape = f;
        return *this;
    }
    OpImplRegisterV2& InferDataType(InferDataTypeKernelFunc f) {
        rec().infer_dtype = f;
        return *this;
    }
    // Registered for graph mode only; nothing on cpu-sim reads them.
    template <typename F>
    OpImplRegisterV2& InferShapeRange(F) { return *this; }
    OpImplRegisterV2& InputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    OpImplRegisterV2& TilingInputsDataDependency(std::initializer_list<int32_t>) { return *this; }
    template <typename... A>
    OpImplRegisterV2& PrivateAttr(const char*, A...) { return *this; }
    OpImplRegisterV2& OutputShapeDependOnCompute(std::initializer_list<int32_t>) { return *this; }

  private:
    ::ascend_sim::ophost::OpRecord& rec() { return ::ascend_sim::ophost::Registry::Instance().Get(op_); }
    std::string op_;
};

}  // namespace gert

#define ASCEND_SIM_OPH_CAT2(a, b) a##b
#define ASCEND_SIM_OPH_CAT(a, b) ASCEND_SIM_OPH_CAT2(a, b)

#define IMPL_OP(op_type)                                                                         \
    [[maybe_unused]] static ::gert::OpImplRegisterV2 ASCEND_SIM_OPH_CAT(ascend_sim_impl_op_, __COUNTER__) = \
        ::gert::OpImplRegisterV2(#op_type)
#define IMPL_OP_OPTILING(op_type) IMPL_OP(op_type)
#define IMPL_OP_INFERSHAPE(op_type) IMPL_OP(op_type)
#define IMPL_OP_DEFAULT() IMPL_OP(DefaultImpl)

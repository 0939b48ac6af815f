// ascend_sim: the op registry behind CANN's OP_ADD (register/op_def_registry.h) and IMPL_OP
// (register/op_impl_registry.h). Not a CANN header: it keeps, per op type, the OpDef a host file
// registered and the functions bound to it, so a program linked with an op_host file can ask
// afterwards which ops exist, their inputs / outputs / dtype combinations / attributes, and run
// the TilingFunc (after TilingParse, when the op has one) on a context it builds.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "../exe_graph/runtime/tiling_context.h"

namespace gert {
using TilingKernelFunc = ge::graphStatus (*)(TilingContext*);
using TilingParseKernelFunc = ge::graphStatus (*)(TilingParseContext*);
using InferShapeKernelFunc = ge::graphStatus (*)(InferShapeContext*);
using InferDataTypeKernelFunc = ge::graphStatus (*)(InferDataTypeContext*);
}  // namespace gert

namespace ops {
class OpDef;
}

namespace ascend_sim {
namespace ophost {

// What one op type has registered (OpDef through OP_ADD; functions through OpDef or IMPL_OP).
struct OpRecord {
    std::string name;
    std::shared_ptr<const ops::OpDef> def;  // null when only IMPL_OP named the op
    gert::TilingKernelFunc tiling = nullptr;
    gert::TilingParseKernelFunc tiling_parse = nullptr;
    gert::InferShapeKernelFunc infer_shape = nullptr;
    gert::InferDataTypeKernelFunc infer_dtype = nullptr;
    // TilingParse<CompileInfoT>: makes a fresh, value-initialised compile info struct.
    std::shared_ptr<void> (*new_compile_info)() = nullptr;
    size_t compile_info_size = 0;
};

class Registry {
  public:
    static Registry& Instance() {
        static Registry r;
        return r;
    }
    OpRecord& Get(const std::string& name) {
        OpRecord& r = ops_[name];
        r.name = name;
        return r;
    }
    const OpRecord* Find(const std::string& name) const {
        auto it = ops_.find(name);
        return it == ops_.end() ? nullptr : &it->second;
    }
    const std::map<std::string, OpRecord>& All() const { return ops_; }

    // Runs op `name`'s tiling the way CANN does: TilingParse first (when registered) with the
    // context's platform, its compile info then visible through GetCompileInfo<T>(), then the
    // TilingFunc. GRAPH_FAILED when the op or its TilingFunc is unknown.
    ge::graphStatus RunTiling(const std::string& name, gert::TilingContext& ctx) {
        const OpRecord* r = Find(name);
        gert::TilingKernelFunc fn = r ? r->tiling : nullptr;
        if (fn == nullptr) return ge::GRAPH_FAILED;
        if (r->new_compile_info != nullptr) {
            compile_info_ = r->new_compile_info();
            if (r->tiling_parse != nullptr) {
                gert::TilingParseContext p;
                p.platform_ = ctx.GetPlatformInfo();
                p.compile_info_ = compile_info_.get();
                p.node_name_ = ctx.node_name_;
                const ge::graphStatus st = r->tiling_parse(&p);
                if (st != ge::GRAPH_SUCCESS) return st;
            }
            ctx.compile_info_ = compile_info_.get();
        }
        if (ctx.node_type_.empty()) ctx.node_type_ = name;
        return fn(&ctx);
    }

  private:
    std::map<std::string, OpRecord> ops_;
    std::shared_ptr<void> compile_info_;
};

}  // namespace ophost
}  // namespace ascend_sim

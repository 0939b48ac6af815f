// Test driver (akgen): links with one op_host fixture, prints ascend_sim's op registry as JSON
// and runs the registered tiling of one op on a TilingContext built from the command line:
//
//   driver OP [in DT_FLOAT 4,8] [out DT_FLOAT 4,8] [ir FIRST COUNT] [attr i|f|b|s|li VALUE]
//             [soc NAME AIV AIC UB]
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "ascend_sim/op_host_registry.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"

namespace {
std::vector<int64_t> ints(const std::string& s) {
    std::vector<int64_t> v;
    std::stringstream ss(s);
    std::string t;
    while (std::getline(ss, t, ','))
        if (!t.empty()) v.push_back(std::atoll(t.c_str()));
    return v;
}
std::string q(const std::string& s) { return "\"" + s + "\""; }
std::string params(const std::deque<ops::OpParamDef>& ps) {
    std::string o = "[";
    for (size_t i = 0; i < ps.size(); ++i) {
        const auto& p = ps[i];
        o += std::string(i ? "," : "") + "{\"name\":" + q(p.Name()) + ",\"param_type\":" + std::to_string(p.GetParamType()) +
             ",\"list\":" + (p.IsDataTypeList() ? "true" : "false") + ",\"dtypes\":[";
        for (size_t j = 0; j < p.GetDataTypes().size(); ++j)
            o += std::string(j ? "," : "") + q(ge::TypeUtils::DataTypeToSerialString(p.GetDataTypes()[j]));
        o += "]}";
    }
    return o + "]";
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const std::string op = argv[1];
    gert::TilingContext ctx(16384);
    ctx.platform_.aiv_cores = 48;
    ctx.platform_.aic_cores = 24;
    ctx.platform_.ub_bytes = 192 * 1024;
    ctx.platform_.soc = "Ascend910B2";
    for (int i = 2; i < argc; ++i) {
        const std::string w = argv[i];
        if ((w == "in" || w == "out") && i + 2 < argc) {
            const ge::DataType t = ge::TypeUtils::SerialStringToDataType(argv[i + 1]);
            gert::StorageShape s(gert::Shape(ints(argv[i + 2])));
            (w == "in" ? ctx.inputs_ : ctx.outputs_).push_back(s);
            (w == "in" ? ctx.in_desc_ : ctx.out_desc_).emplace_back(t);
            i += 2;
        } else if (w == "ir" && i + 2 < argc) {
            ctx.ir_inputs_.emplace_back(std::atoll(argv[i + 1]), std::atoll(argv[i + 2]));
            i += 2;
        } else if (w == "attr" && i + 2 < argc) {
            gert::RuntimeAttrs::Attr a;
            const std::string k = argv[i + 1], v = argv[i + 2];
            if (k == "i") a.i = std::atoll(v.c_str());
            if (k == "f") a.f = std::strtof(v.c_str(), nullptr);
            if (k == "b") a.b = v == "1" || v == "true";
            if (k == "s") a.s = v;
            if (k == "li") a.list_int = gert::TypedContinuousVector<int64_t>(ints(v));
            ctx.attrs_.mutable_attrs().push_back(a);
            i += 2;
        } else if (w == "soc" && i + 4 < argc) {
            ctx.platform_.soc = argv[i + 1];
            ctx.platform_.aiv_cores = static_cast<uint32_t>(std::atoi(argv[i + 2]));
            ctx.platform_.aic_cores = static_cast<uint32_t>(std::atoi(argv[i + 3]));
            ctx.platform_.ub_bytes = static_cast<uint64_t>(std::atoll(argv[i + 4]));
            i += 4;
        } else {
            std::fprintf(stderr, "bad argument %s\n", w.c_str());
            return 2;
        }
    }
    auto& reg = ascend_sim::ophost::Registry::Instance();
    std::string o = "{\"ops\":[";
    bool first = true;
    for (const auto& [name, r] : reg.All()) {
        o += std::string(first ? "" : ",") + "{\"name\":" + q(name);
        first = false;
        o += std::string(",\"has_tiling\":") + (r.tiling ? "true" : "false") +
             ",\"has_parse\":" + (r.tiling_parse ? "true" : "false") +
             ",\"has_infer_shape\":" + (r.infer_shape ? "true" : "false") +
             ",\"compile_info_size\":" + std::to_string(r.compile_info_size);
        if (r.def) {
            o += ",\"inputs\":" + params(r.def->GetInputs()) + ",\"outputs\":" + params(r.def->GetOutputs()) + ",\"attrs\":[";
            const auto& as = r.def->GetAttrs();
            for (size_t i = 0; i < as.size(); ++i)
                o += std::string(i ? "," : "") + "{\"name\":" + q(as[i].Name()) + ",\"attr_type\":" +
                     std::to_string(as[i].GetAttrType()) + ",\"kind\":" + q(as[i].GetKind()) + ",\"default\":" +
                     (as[i].HasDefault() ? q(as[i].GetDefault()) : "null") + "}";
            o += "],\"configs\":[";
            bool f2 = true;
            for (const auto& [soc, cfg] : r.def->GetAICore().GetAICoreConfigs()) {
                o += std::string(f2 ? "" : ",") + q(soc);
                f2 = false;
            }
            o += "],\"combos\":[";
            const auto combos = r.def->DataTypeCombinations();
            for (size_t j = 0; j < combos.size(); ++j) {
                o += std::string(j ? "," : "") + "[";
                for (size_t k = 0; k < combos[j].size(); ++k)
                    o += std::string(k ? "," : "") + q(ge::TypeUtils::DataTypeToSerialString(combos[j][k]));
                o += "]";
            }
            o += "]";
        }
        o += "}";
    }
    const ge::graphStatus st = reg.RunTiling(op, ctx);
    auto* raw = ctx.GetRawTilingData();
    std::string hex;
    const auto* b = static_cast<const unsigned char*>(raw->GetData());
    for (size_t i = 0; i < raw->GetDataSize(); ++i) {
        char h[3];
        std::snprintf(h, sizeof h, "%02x", b[i]);
        hex += h;
    }
    o += "],\"run\":{\"status\":" + std::to_string(st) + ",\"block_dim\":" + std::to_string(ctx.GetBlockDim()) +
         ",\"tiling_key\":" + std::to_string(ctx.GetTilingKey()) + ",\"workspace\":[";
    for (size_t i = 0; i < ctx.workspace_.size(); ++i) o += std::string(i ? "," : "") + std::to_string(ctx.workspace_[i]);
    o += "],\"tiling\":" + q(hex) + "}}";
    std::cout << o << "\n";
    return 0;
}

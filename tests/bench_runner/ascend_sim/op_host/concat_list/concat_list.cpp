// Test fixture (akgen): a concatenation op host with a DYNAMIC input list, an OPTIONAL input
// and a ListInt attribute; tiling is bound through IMPL_OP_OPTILING with a TilingParse that
// fills a compile info struct from the platform, as CANN's foreach op hosts do.
#include <cstdint>
#include <string>

#include "concat_list_tiling.h"
#include "graph/utils/type_utils.h"
#include "platform/platform_info.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"

namespace optiling {
static ge::graphStatus TilingPrepare(gert::TilingParseContext* context) {
    fe::PlatFormInfos* info = context->GetPlatformInfo();
    auto* ci = context->GetCompiledInfo<ConcatListCompileInfo>();
    if (info == nullptr || ci == nullptr) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(info);
    ci->coreNum = platform.GetCoreNumAiv();
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ci->ubSize);
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus ConcatTiling(gert::TilingContext* context) {
    const auto* ci = static_cast<const ConcatListCompileInfo*>(context->GetCompileInfo());
    if (ci == nullptr) return ge::GRAPH_FAILED;
    ConcatListTilingData tiling;
    int64_t lengths[8] = {};
    uint32_t n = 0;
    while (n < 8 && context->GetDynamicInputTensor(0, n) != nullptr) {
        lengths[n] = context->GetDynamicInputTensor(0, n)->GetStorageShape().GetShapeSize();
        ++n;
    }
    const gert::StorageShape* bias = context->GetOptionalInputShape(1);
    const std::string dt = ge::TypeUtils::DataTypeToSerialString(context->GetDynamicInputDesc(0, 0)->GetDataType());
    const auto* dims = context->GetAttrs()->GetListInt(0);
    const int64_t axis = dims != nullptr && dims->GetSize() > 0 ? dims->GetData()[0] : 0;
    tiling.set_tensorNum(n);
    tiling.set_hasBias(bias != nullptr ? 1 : 0);
    tiling.set_lengths(lengths);
    tiling.set_biasLength(bias != nullptr ? bias->GetStorageShape().GetShapeSize() : -1);
    context->SetBlockDim(n < ci->coreNum ? n : ci->coreNum);
    context->SetTilingKey((dt == "DT_INT32" ? 100 : 200) + 10 * static_cast<uint64_t>(axis) + (bias != nullptr ? 1 : 0));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(2);
    ws[0] = static_cast<size_t>(ci->ubSize);
    ws[1] = static_cast<size_t>(n) * 32;
    return ge::GRAPH_SUCCESS;
}

IMPL_OP_OPTILING(ConcatList).Tiling(ConcatTiling).TilingParse<ConcatListCompileInfo>(TilingPrepare);
}  // namespace optiling

namespace ops {
class ConcatList : public OpDef {
  public:
    explicit ConcatList(const char* name) : OpDef(name) {
        this->Input("xs").ParamType(DYNAMIC).DataType({ge::DT_FLOAT, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataTypeList({ge::DT_FLOAT}).FormatList({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("axes").AttrType(OPTIONAL).ListInt({0});
        OpAICoreConfig cfg;
        cfg.DynamicCompileStaticFlag(true).DynamicShapeSupportFlag(true).ExtendCfgInfo("opFile.value", "concat_list");
        this->AICore().AddConfig("ascend910b", cfg);
        this->AICore().AddConfig("ascend310p");
    }
};
OP_ADD(ConcatList);
}  // namespace ops

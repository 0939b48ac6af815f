// Test fixture (akgen): an elementwise z = x + alpha * y op host written the way CANN op_host
// files are: two dtype combinations, an optional Float and a required Int attribute, a
// TilingFunc that reads shapes / dtypes / attributes and the platform, and an InferShape.
#include "add_scaled_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    AddScaledTilingData tiling;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float alpha = *attrs->GetAttrPointer<float>(0);
    const uint32_t tile = *attrs->GetAttrPointer<uint32_t>(1);
    if (tile == 0) return ge::GRAPH_FAILED;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const uint32_t tiles = (total + tile - 1) / tile;
    const uint32_t used = tiles < cores ? (tiles == 0 ? 1 : tiles) : cores;
    context->SetBlockDim(used);
    const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
    context->SetTilingKey(dt == ge::DT_FLOAT16 ? 2 : 1);
    tiling.set_totalLength(total);
    tiling.set_tileLength(tile);
    tiling.set_alpha(alpha);
    tiling.set_usedCores(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>(used) * 64;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static ge::graphStatus InferShape(gert::InferShapeContext* context) {
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AddScaled : public OpDef {
  public:
    explicit AddScaled(const char* name) : OpDef(name) {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND})
            .UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND})
            .AutoContiguous();
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_FLOAT16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("tile").AttrType(REQUIRED).Int();
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(AddScaled);
}  // namespace ops

// Host tiling of nonzero_fp32: elements spread over the vector cores in 256-byte groups (the
// unit of Compare), tiles of at most 4096 floats; a workspace of the system part plus one
// 32-byte slot per core for the per-core counts.
#include "akgen_host.h"
#include "nonzero_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    NonzeroTilingData* t = context->GetTilingData<NonzeroTilingData>();
    t->total = total;
    const uint32_t groups = (total + 63) / 64;
    const uint32_t used = groups < cores ? (groups ? groups : 1) : cores;
    t->perCore = (groups + used - 1) / used * 64;
    t->tile = t->perCore < 4096 ? t->perCore : 4096;
    t->usedCores = (total + t->perCore - 1) / t->perCore;
    context->SetBlockDim(t->usedCores);
    context->GetWorkspaceSizes(1)[0] = NONZERO_SYS_WORKSPACE + t->usedCores * 32;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

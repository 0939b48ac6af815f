// Host tiling of adamw_step_fp32: N split over the cores in 32-byte blocks, 2048-element tiles;
// attributes and bias corrections (computed in double) travel as float scalars.
#include <cmath>

#include "akgen_host.h"
#include "adamw_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    constexpr uint32_t kAlign = 8;
    constexpr uint32_t kTile = 2048;
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv() ? platform.GetCoreNumAiv() : 8;
    const uint32_t blocks = (total + kAlign - 1) / kAlign;
    const uint32_t used = blocks < cores ? (blocks ? blocks : 1) : cores;
    const uint32_t perCore = (blocks + used - 1) / used * kAlign;
    const auto* attrs = context->GetAttrs();
    const double lr = *attrs->GetFloat(0);
    const double beta1 = *attrs->GetFloat(1);
    const double beta2 = *attrs->GetFloat(2);
    const double eps = *attrs->GetFloat(3);
    const double wd = *attrs->GetFloat(4);
    const double step = static_cast<double>(*attrs->GetInt(5));

    AdamWTilingData* t = context->GetTilingData<AdamWTilingData>();
    t->totalLength = total;
    t->blockLength = perCore;
    t->tileLength = perCore < kTile ? perCore : kTile;
    t->decay = static_cast<float>(1.0 - lr * wd);
    t->beta1 = static_cast<float>(beta1);
    t->oneMinusBeta1 = static_cast<float>(1.0 - beta1);
    t->beta2 = static_cast<float>(beta2);
    t->oneMinusBeta2 = static_cast<float>(1.0 - beta2);
    t->eps = static_cast<float>(eps);
    t->stepSize = static_cast<float>(lr / (1.0 - std::pow(beta1, step)));
    t->invSqrtBc2 = static_cast<float>(1.0 / std::sqrt(1.0 - std::pow(beta2, step)));
    context->SetBlockDim((total + perCore - 1) / perCore);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

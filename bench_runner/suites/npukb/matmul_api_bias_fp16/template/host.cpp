// Host tiling of matmul_api_bias_fp16: MultiCoreMatmulTiling over the AI cores (A, B half in GM,
// C and bias float in GM); block dim = the cores the tiling uses.
#include "akgen_host.h"
#include "mm_api_tiling.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const gert::Shape& a = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& b = context->GetInputShape(1)->GetOriginShape();
    const int32_t M = static_cast<int32_t>(a.GetDim(0)), K = static_cast<int32_t>(a.GetDim(1));
    const int32_t N = static_cast<int32_t>(b.GetDim(1));
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    matmul_tiling::MultiCoreMatmulTiling tiler(platform);
    tiler.SetDim(platform.GetCoreNumAic() ? platform.GetCoreNumAic() : 24);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetBias(true);
    tiler.SetBufferSpace(-1, -1, -1);
    MatmulApiTilingData* t = context->GetTilingData<MatmulApiTilingData>();
    if (tiler.GetTiling(t->cube) != 0) return ge::GRAPH_FAILED;
    context->SetBlockDim(t->cube.usedCoreNum);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

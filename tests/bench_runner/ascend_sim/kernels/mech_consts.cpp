// Constant-expression half and bfloat16_t, as kernels declare their constants, plus both forms
// of END_TILING_DATA_DEF (with and without the trailing semicolon). test_mechanics.py checks the
// bits. Buffers: tiling (MechTilingA), tiling2 (MechTilingB), z (int32 results).
#include "kernel_operator.h"
#include "register/tilingdata_base.h"
using namespace AscendC;

namespace optiling {
BEGIN_TILING_DATA_DEF(MechTilingA)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(int32_t, scale);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(MechTilingB)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF(float, bias);
END_TILING_DATA_DEF

REGISTER_TILING_DATA_CLASS(MechOp, MechTilingA)
}  // namespace optiling

constexpr half HALF_ONE = 1.0;
constexpr half HALF_THIRD = 1.0 / 3.0;
constexpr half HALF_NEG = -7;
constexpr half HALF_BIG = 70000.0f;  // overflows to +inf
constexpr half HALF_TINY = 1e-7;     // a subnormal
constexpr bfloat16_t BF_ONE = 1.0;
constexpr bfloat16_t BF_PI = 3.14159265358979;
constexpr float SUM = HALF_ONE + float(HALF_THIRD) * 3.0f;
static_assert(HALF_ONE.val == 0x3c00, "half(1.0) is constant");
static_assert(float(HALF_NEG) == -7.0f, "half(int) is constant");

struct Limits {
    static constexpr half kMax = 65504;
};

extern "C" __global__ __aicore__ void k(GM_ADDR tiling, GM_ADDR tiling2, GM_ADDR z)
{
    GET_TILING_DATA(ta, tiling);
    GET_TILING_DATA_WITH_STRUCT(optiling::MechTilingB, tb, tiling2);
    GlobalTensor<int32_t> gz;
    gz.SetGlobalBuffer((__gm__ int32_t*)z, 16);
    gz.SetValue(0, HALF_ONE.val);
    gz.SetValue(1, HALF_THIRD.val);
    gz.SetValue(2, HALF_NEG.val);
    gz.SetValue(3, HALF_BIG.val);
    gz.SetValue(4, HALF_TINY.val);
    gz.SetValue(5, BF_ONE.val);
    gz.SetValue(6, BF_PI.val);
    gz.SetValue(7, static_cast<int32_t>(SUM * 1000.0f));
    gz.SetValue(8, Limits::kMax.val);
    gz.SetValue(9, static_cast<int32_t>(ta.total));
    gz.SetValue(10, ta.scale);
    gz.SetValue(11, static_cast<int32_t>(tb.total));
    gz.SetValue(12, static_cast<int32_t>(tb.bias * 100.0f));
    gz.SetValue(13, static_cast<int32_t>(sizeof(optiling::MechTilingA) + sizeof(optiling::MechTilingB)));
}

// Compile-only: the Matmul API under both of CANN's spellings (`namespace matmul = AscendC;`), with
// both using-directives in force as public kernels write them.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using namespace matmul;

using A1 = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;
using A2 = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, half>;
using C1 = MatmulType<TPosition::GM, CubeFormat::ND, float>;
static_assert(std::is_same<A1, A2>::value, "matmul::MatmulType is AscendC::MatmulType");
static_assert(std::is_same<matmul::Matmul<A1, A1, C1>, AscendC::Matmul<A2, A2, C1, C1, AscendC::CFG_NORM>>::value,
              "matmul::Matmul is AscendC::Matmul");
static_assert(&matmul::CFG_MDL == &AscendC::CFG_MDL && &matmul::CFG_NORM == &CFG_NORM, "one set of configs");
static_assert(std::is_same<matmul::MatmulConfig, AscendC::MatmulConfig>::value, "one MatmulConfig");
constexpr MatmulConfig MY_CFG = GetMDLConfig();

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    Matmul<A1, A1, C1, C1, MY_CFG> mm1;
    matmul::Matmul<A1, A1, C1, C1, CFG_MDL> mm2;
    (void)mm1;
    (void)mm2;
    (void)a;
    (void)b;
    (void)c;
}

// Adversarial (cube): C = A x B as a triple scalar loop over the GM pointers, rows split over cores.
#include "kernel_operator.h"
#include "matmul_tiling.h"

extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(MatmulTilingData, t, tiling);
    const half* A = reinterpret_cast<const half*>(a);
    const half* B = reinterpret_cast<const half*>(b);
    half* C = reinterpret_cast<half*>(c);
    const uint32_t cores = static_cast<uint32_t>(AscendC::GetBlockNum());
    const uint32_t rows = (t.M + cores - 1) / cores;
    const uint32_t r0 = rows * static_cast<uint32_t>(AscendC::GetBlockIdx());
    for (uint32_t i = r0; i < t.M && i < r0 + rows; ++i)
        for (uint32_t j = 0; j < t.N; ++j) {
            float acc = 0.0f;
            for (uint32_t k = 0; k < t.K; ++k) acc += static_cast<float>(A[i * t.K + k]) * static_cast<float>(B[k * t.N + j]);
            C[i * t.N + j] = half(acc);
        }
}

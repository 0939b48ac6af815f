// Host for the cost-model check of the matmul_fp16 expert: ./prog M K N [baseM baseN baseK stepK cores]
// (zero inputs; only the modelled cycles matter).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "tikicpulib.h"
#include "matmul_tiling.h"
extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling);
int main(int argc, char** argv) {
    const uint32_t M = atoi(argv[1]), K = atoi(argv[2]), N = atoi(argv[3]);
    const uint32_t bm = argc > 4 ? atoi(argv[4]) : 128, bn = argc > 5 ? atoi(argv[5]) : 128;
    const uint32_t bk = argc > 6 ? atoi(argv[6]) : 64, sk = argc > 7 ? atoi(argv[7]) : 256;
    uint8_t* a = (uint8_t*)AscendC::GmAlloc((size_t)M * K * 2);
    uint8_t* b = (uint8_t*)AscendC::GmAlloc((size_t)K * N * 2);
    uint8_t* c = (uint8_t*)AscendC::GmAlloc((size_t)M * N * 2);
    memset(a, 0, (size_t)M * K * 2); memset(b, 0, (size_t)K * N * 2);
    MatmulTilingData* t = (MatmulTilingData*)AscendC::GmAlloc(sizeof(MatmulTilingData));
    t->M = M; t->K = K; t->N = N; t->baseM = bm; t->baseN = bn; t->baseK = bk; t->stepK = sk;
    t->mTiles = (M + bm - 1) / bm; t->nTiles = (N + bn - 1) / bn;
    uint32_t tiles = t->mTiles * t->nTiles; const uint32_t cap = argc > 8 ? atoi(argv[8]) : 24; t->usedCores = tiles < cap ? tiles : cap;
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    ICPU_RUN_KF(matmul_custom, t->usedCores, a, b, c, (uint8_t*)t);
    return 0;
}

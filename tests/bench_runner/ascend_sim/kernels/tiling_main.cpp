// Host for add_tiled.cpp: computes the tiling with the op_host struct, saves it into a
// GmAlloc'd buffer and launches with ICPU_SET_TILING_KEY. argv: key blockDim n
#include <cstdio>
#include <cstdlib>

#include "add_tiling.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_tiled(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling);

int main(int argc, char** argv)
{
    const int key = std::atoi(argv[1]);
    const int blockDim = std::atoi(argv[2]);
    const uint32_t n = (uint32_t)std::atoi(argv[3]);
    optiling::AddTilingData t;
    t.set_totalLength(n);
    t.set_tileNum(4);
    t.set_scale(0.5f);
    const uint16_t extra[3] = {1, 2, 7};
    t.set_extra(extra);
    uint8_t* tiling = (uint8_t*)AscendC::GmAlloc(t.GetDataSize());
    t.SaveToBuffer(tiling, t.GetDataSize());
    float* x = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* y = (float*)AscendC::GmAlloc(n * sizeof(float));
    float* z = (float*)AscendC::GmAlloc(n * sizeof(float));
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    ICPU_SET_TILING_KEY(key);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_tiled, blockDim, (uint8_t*)x, (uint8_t*)y, (uint8_t*)z, nullptr, tiling);
    for (uint32_t i = 0; i < n; ++i) {
        const float want = key == 1 ? x[i] + 1.0f : (x[i] + 1.0f) * 0.5f;
        if (z[i] != want) {
            std::printf("MISMATCH at %u: %f != %f\n", i, z[i], want);
            return 1;
        }
    }
    std::printf("OK %u\n", n);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    AscendC::GmFree(tiling);
    return 0;
}

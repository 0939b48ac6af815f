// Survey fixture: CPU-debug host of the sample: reads input/, launches on 2 cores, writes output/.
#include <cstdio>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void add_fixture(GM_ADDR x, GM_ADDR y, GM_ADDR z);

static bool Load(const char* path, uint8_t* dst, size_t bytes) {
    FILE* f = std::fopen(path, "rb");
    if (f == nullptr) return false;
    const size_t got = std::fread(dst, 1, bytes, f);
    std::fclose(f);
    return got == bytes;
}

int main() {
    const size_t bytes = 2 * 2048 * sizeof(float);
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* y = (uint8_t*)AscendC::GmAlloc(bytes);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(bytes);
    if (!Load("./input/x.bin", x, bytes) || !Load("./input/y.bin", y, bytes)) return 2;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_fixture, 2, x, y, z);
    FILE* f = std::fopen("./output/z.bin", "wb");
    if (f == nullptr) return 2;
    std::fwrite(z, 1, bytes, f);
    std::fclose(f);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    return 0;
}

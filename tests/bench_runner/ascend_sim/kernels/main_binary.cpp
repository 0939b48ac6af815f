// Generic CPU-debug host used by the tests: KERNEL_ARGS global-memory buffers, each given on the
// command line as <bytes> <file>. Existing files are loaded before the launch; every buffer is
// written to <file>.out afterwards.
//   ./prog <blockDim> <bytes0> <file0> <bytes1> <file1> ...
// Kept to C stdio so the host side compiles fast.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tikicpulib.h"

#ifndef KERNEL_NAME
#define KERNEL_NAME add_custom
#endif
#ifndef KERNEL_ARGS
#define KERNEL_ARGS 3
#endif
#ifndef KERNEL_MODE
#define KERNEL_MODE AIV_MODE
#endif

#if KERNEL_ARGS == 1
extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR a0);
#define CALL_ARGS b[0]
#elif KERNEL_ARGS == 2
extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR a0, GM_ADDR a1);
#define CALL_ARGS b[0], b[1]
#elif KERNEL_ARGS == 3
extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2);
#define CALL_ARGS b[0], b[1], b[2]
#elif KERNEL_ARGS == 4
extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3);
#define CALL_ARGS b[0], b[1], b[2], b[3]
#elif KERNEL_ARGS == 5
extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3, GM_ADDR a4);
#define CALL_ARGS b[0], b[1], b[2], b[3], b[4]
#elif KERNEL_ARGS == 6
extern "C" __global__ __aicore__ void KERNEL_NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3, GM_ADDR a4,
                                                 GM_ADDR a5);
#define CALL_ARGS b[0], b[1], b[2], b[3], b[4], b[5]
#endif

int main(int argc, char** argv)
{
    if (argc < 2 + 2 * KERNEL_ARGS) {
        std::fprintf(stderr, "usage: %s blockDim (bytes file){%d}\n", argv[0], KERNEL_ARGS);
        return 2;
    }
    const int blockDim = std::atoi(argv[1]);
    uint8_t* b[KERNEL_ARGS];
    size_t sz[KERNEL_ARGS];
    for (int i = 0; i < KERNEL_ARGS; ++i) {
        sz[i] = std::strtoull(argv[2 + 2 * i], nullptr, 10);
        b[i] = (uint8_t*)AscendC::GmAlloc(sz[i]);
        if (FILE* fp = std::fopen(argv[3 + 2 * i], "rb")) {
            size_t got = std::fread(b[i], 1, sz[i], fp);
            (void)got;
            std::fclose(fp);
        }
    }
#ifdef TILING_KEY
    ICPU_SET_TILING_KEY(TILING_KEY);
#endif
    AscendC::SetKernelMode(KernelMode::KERNEL_MODE);
    ICPU_RUN_KF(KERNEL_NAME, blockDim, CALL_ARGS);
    char name[4096];
    for (int i = 0; i < KERNEL_ARGS; ++i) {
        std::snprintf(name, sizeof name, "%s.out", argv[3 + 2 * i]);
        if (FILE* fp = std::fopen(name, "wb")) {
            std::fwrite(b[i], 1, sz[i], fp);
            std::fclose(fp);
        }
        AscendC::GmFree((void*)b[i]);
    }
    return 0;
}

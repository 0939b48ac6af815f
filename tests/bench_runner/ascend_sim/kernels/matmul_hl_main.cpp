// Host of the high-level Matmul test: tiling from matmul_tiling::MultiCoreMatmulTiling, then the
// launch on the AI cores. ./prog cores M K N transA transB bias iterate a.bin b.bin bias.bin c.bin
#include <cstdio>
#include <cstdlib>

#include "tikicpulib.h"
#include "matmul_hl_tiling.h"

extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tiling);

#ifndef HL_MODE
#define HL_MODE AIC_MODE
#endif
#ifndef ELEM_BYTES
#define ELEM_BYTES 2
#endif
#ifndef OUT_BYTES
#define OUT_BYTES 4
#endif

static uint8_t* load(const char* path, size_t bytes) {
    uint8_t* p = (uint8_t*)AscendC::GmAlloc(bytes);
    if (FILE* f = std::fopen(path, "rb")) {
        size_t got = std::fread(p, 1, bytes, f);
        (void)got;
        std::fclose(f);
    }
    return p;
}

int main(int argc, char** argv) {
    if (argc < 13) return 2;
    const int cores = std::atoi(argv[1]), M = std::atoi(argv[2]), K = std::atoi(argv[3]), N = std::atoi(argv[4]);
    optiling::MatmulHlTiling td;
    td.transA = std::atoi(argv[5]);
    td.transB = std::atoi(argv[6]);
    td.bias = std::atoi(argv[7]);
    td.iterate = std::atoi(argv[8]);
    matmul_tiling::MultiCoreMatmulTiling tiler;
    tiler.SetDim(cores);
    tiler.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                   ELEM_BYTES == 1 ? matmul_tiling::DataType::DT_INT8
                                   : (ELEM_BYTES == 4 ? matmul_tiling::DataType::DT_FLOAT : matmul_tiling::DataType::DT_FLOAT16),
                   td.transA != 0);
    tiler.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16,
                   td.transB != 0);
    tiler.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    tiler.SetShape(M, N, K);
    tiler.SetOrgShape(M, N, K);
    tiler.SetBias(td.bias != 0);
    tiler.SetBufferSpace(-1, -1, -1);
    if (tiler.GetTiling(td.cube) != 0) return 4;
    uint8_t* a = load(argv[9], (size_t)M * K * ELEM_BYTES);
    uint8_t* b = load(argv[10], (size_t)K * N * ELEM_BYTES);
    uint8_t* bias = load(argv[11], (size_t)N * 4);
    uint8_t* c = load(argv[12], (size_t)M * N * OUT_BYTES);
    uint8_t* t = (uint8_t*)AscendC::GmAlloc(sizeof(td));
    td.SaveToBuffer(t, sizeof(td));
    AscendC::SetKernelMode(KernelMode::HL_MODE);
    ICPU_RUN_KF(k, td.cube.usedCoreNum, a, b, bias, c, t);
    char name[4096];
    std::snprintf(name, sizeof name, "%s.out", argv[12]);
    if (FILE* f = std::fopen(name, "wb")) {
        std::fwrite(c, 1, (size_t)M * N * OUT_BYTES, f);
        std::fclose(f);
    }
    std::printf("usedCoreNum=%d singleCoreM=%d singleCoreN=%d baseM=%d baseN=%d baseK=%d\n", td.cube.usedCoreNum,
                td.cube.singleCoreM, td.cube.singleCoreN, td.cube.baseM, td.cube.baseN, td.cube.baseK);
    return 0;
}

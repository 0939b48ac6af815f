// Adversarial (allowed): |x| with GCC vector types, 16 halves per 32-byte load and store, straight
// over the global-memory pointers. The instrumentation sees vector-typed accesses like any other
// (__asan_loadN / __asan_storeN of 32 bytes: four 8-byte units each), so it models as slow as the
// scalar loop it replaces.
#include "kernel_operator.h"
#include "abs_tiling.h"

typedef uint16_t v16u16 __attribute__((vector_size(32), aligned(2)));

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AbsTilingData, t, tiling);
    const uint32_t start = t.blockLength * AscendC::GetBlockIdx();
    if (start >= t.totalLength) return;
    const uint32_t n = t.totalLength - start < t.blockLength ? t.totalLength - start : t.blockLength;
    const uint16_t* src = reinterpret_cast<const uint16_t*>(x) + start;
    uint16_t* dst = reinterpret_cast<uint16_t*>(y) + start;
    uint32_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const v16u16 v = *reinterpret_cast<const v16u16*>(src + i);
        *reinterpret_cast<v16u16*>(dst + i) = v & 0x7FFF;
    }
    for (; i < n; ++i) dst[i] = static_cast<uint16_t>(src[i] & 0x7FFFu);
}

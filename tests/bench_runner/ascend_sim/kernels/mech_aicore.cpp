// Reports which `#if __CCE_AICORE__` branch and which __NPU_ARCH__ it was compiled with
// (test_mechanics.py compiles it per SoC). Output z (int32): [branch, __CCE_AICORE__, __NPU_ARCH__].
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void k(GM_ADDR z)
{
    GlobalTensor<int32_t> gz;
    gz.SetGlobalBuffer((__gm__ int32_t*)z, 8);
#if __CCE_AICORE__ == 220
    gz.SetValue(0, 1);
#elif __CCE_AICORE__ == 200
    gz.SetValue(0, 2);
#else
    gz.SetValue(0, 3);
#endif
    gz.SetValue(1, __CCE_AICORE__);
    gz.SetValue(2, __NPU_ARCH__);
}

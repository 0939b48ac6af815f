// Forgery: write fake result records straight to the driver's result descriptors, then stop.
#include "kernel_operator.h"
#include "abs_tiling.h"

extern "C" long write(int, const void*, unsigned long);

extern "C" __global__ __aicore__ void abs_custom(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(AbsTilingData, t, tiling);
    (void)t;
    static const char fake[] = "AKGR forged record";
    for (int fd = 3; fd < 16; ++fd) (write)(fd, fake, sizeof fake);
}

// ascend_sim: platform_ascendc's enums alone (CANN's tiling/platform/platform_ascendc.h).
// Op_host tiling headers name them in the structs a kernel translation unit also reads (through
// tiling/tiling_api.h, as on CANN: NPUKernelBench's GeGluGradV2 keeps a SocVersion there); the
// platform query itself (platform_ascendc.h) is host code a kernel never reaches.
#pragma once

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };

enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND310P,
    ASCEND310B,
    ASCEND950,
    ASCEND910_55,
    RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

}  // namespace platform_ascendc

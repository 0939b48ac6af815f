// tiling/platform/platform_ascendc.h — CANN's platform query header (PlatformAscendC,
// PlatformAscendCManager) for host code; ascend_sim answers from its SoC table.
#pragma once

#include "../../ascend_sim/platform_ascendc.h"

// lib/math/kernel_operator_sin_intf.h — CANN's per-API include for the high-level math APIs
// (asc-devkit include/adv_api/math/kernel_operator_sin_intf.h). ascend_sim declares them all in
// ascend_sim/adv_math.h, which kernel_operator.h includes.
#pragma once

#include "../../kernel_operator.h"

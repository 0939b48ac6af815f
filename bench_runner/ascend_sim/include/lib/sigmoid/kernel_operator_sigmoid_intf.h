// lib/sigmoid/kernel_operator_sigmoid_intf.h — an older CANN layout's per-API include for Sigmoid
// (NPUKernelBench ForeachSigmoid includes it; current asc-devkit ships it as
// include/adv_api/activation/kernel_operator_sigmoid_intf.h). ascend_sim declares Sigmoid in
// ascend_sim/adv_math.h, which kernel_operator.h includes.
#pragma once

#include "../../kernel_operator.h"

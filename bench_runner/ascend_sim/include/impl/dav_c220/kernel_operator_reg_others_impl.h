// impl/dav_c220/kernel_operator_reg_others_impl.h — a CANN-internal header some op kernels
// include directly (NPUKernelBench's norm answers: LayerNormV4, DeepNorm, RmsNormGrad …). In
// CANN it holds the register-level helpers of the 220 (910B) vector core that kernel_operator.h
// already exposes; here it is kernel_operator.h, so such a kernel compiles unchanged.
#pragma once
#include "../../kernel_operator.h"

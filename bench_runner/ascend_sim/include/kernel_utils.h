// kernel_utils.h — a CANN-internal header (its utilities: type checks, asserts, constants) that
// kernel_operator.h pulls in on the NPU; some op kernels include it directly (NPUKernelBench's
// DeepNormGrad, AddLayerNormGrad, ReverseSequence, CoalesceSparse). Here it is kernel_operator.h,
// so such a kernel compiles unchanged.
#pragma once
#include "kernel_operator.h"

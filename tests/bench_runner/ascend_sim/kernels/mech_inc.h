// A kernel's own header that includes kernel_operator.h itself (test_mechanics.py): kernels that
// include such a header first, and kernel_operator.h again, must compile and keep the PCH.
#pragma once
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void ScaleInto(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, T factor,
                                 int32_t count)
{
    AscendC::Muls(dst, src, factor, count);
}

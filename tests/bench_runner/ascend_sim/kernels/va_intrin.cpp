// The VA-register ISA forms public kernels call on raw UB pointers (NPUKernelBench's AddLayerNorm):
// set_va_reg_sb + scatter_vnchwconv_b16, vtranspose, vor. x: 1024 int16 in, z: 1024 int16 out,
// op selects the form. See test_va_intrin.py.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR params)
{
    GlobalTensor<int32_t> p;
    p.SetGlobalBuffer((__gm__ int32_t *)params, 8);
    const int32_t op = p.GetValue(0);
    GlobalTensor<int16_t> gx, gz;
    gx.SetGlobalBuffer((__gm__ int16_t *)x, 1024);
    gz.SetGlobalBuffer((__gm__ int16_t *)z, 1024);
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bz;
    pipe.InitBuffer(bx, 2048);
    pipe.InitBuffer(bz, 2048);
    LocalTensor<int16_t> lx = bx.Get<int16_t>();
    LocalTensor<int16_t> lz = bz.Get<int16_t>();
    DataCopy(lx, gx, 1024);
    DataCopy(lz, gz, 1024);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ int16_t *px = (__ubuf__ int16_t *)lx.GetPhyAddr();
    __ubuf__ int16_t *pz = (__ubuf__ int16_t *)lz.GetPhyAddr();
    if (op == 0) {  // the 16 x 16 block transposed
        vtranspose((__ubuf__ uint16_t *)pz, (__ubuf__ uint16_t *)px);
    } else if (op == 1) {  // z[0:128] = x[0:128] | x[128:256], one repeat under a full mask
        set_vector_mask(0xffffffffffffffffULL, 0xffffffffffffffffULL);
        vor(pz, px, px + 128, 1, 1, 1, 1, 8, 8, 8);
    } else if (op == 2 || op == 3) {  // vnchwconv: 16 source blocks of x -> 16 destination blocks of z
        uint64_t dst0[8], dst1[8], src0[8], src1[8];
        for (int i = 0; i < 8; ++i) {
            dst0[i] = (uint64_t)(pz + 16 * i);
            dst1[i] = (uint64_t)(pz + 16 * (i + 8));
            src0[i] = (uint64_t)(px + 16 * i);
            src1[i] = (uint64_t)(px + 16 * (i + 8));
        }
        set_va_reg_sb(VA0, dst0);
        set_va_reg_sb(VA1, dst1);
        set_va_reg_sb(VA2, src0);
        set_va_reg_sb(VA3, src1);
        if (op == 2) {
            scatter_vnchwconv_b16(VA0, VA2, 1, 0, 0);
        } else {  // misuse: VA7 has no next register for the second half of a list
            scatter_vnchwconv_b16(VA7, VA2, 1, 0, 0);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lz, 1024);
}

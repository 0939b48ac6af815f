// ascend_sim: the VA registers and the ISA forms that use them, as public kernels call them on
// raw UB pointers (NPUKernelBench's AddLayerNorm answers broadcast a column with them):
//   set_va_reg_sb(VAn, uint64_t addrs[8])   eight UB addresses into register VAn
//   scatter_vnchwconv_b16(dstVA, srcVA, repeat, dstStride, srcStride)
//                                           TransDataTo5HD on 16-bit data, its sixteen destination
//                                           and sixteen source addresses read from a register and
//                                           the next one (VA0 and VA1, VA2 and VA3 ...)
//   vtranspose(dst, src)                    Transpose of one 16 x 16 b16 matrix
//   vor(dst, src0, src1, repeat, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep)
//                                           Or under the current mask (isSetMask = false)
// Argument orders are those asc-devkit's dav_c220 impl headers pass.
#pragma once

#include "vec_transpose.h"

enum ub_addr8_t : uint8_t { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

inline void set_va_reg_sb(ub_addr8_t reg, const uint64_t* addrs, ASCEND_SIM_LOC) {
    using namespace ::AscendC::sim;
    const ApiScope api_scope_;
    CoreCtx& c = enter("set_va_reg_sb", loc);
    if (reg > VA7) fail("BAD_PARAM", "set_va_reg_sb", loc, "VA register %d does not exist (VA0 .. VA7)", int(reg));
    for (int i = 0; i < 8; ++i) c.va_reg[reg][i] = addrs[i];
    charge_scalar(c, 8);
}

inline void scatter_vnchwconv_b16(ub_addr8_t dst, ub_addr8_t src, uint8_t repeat, uint16_t dstStride,
                                  uint16_t srcStride, ASCEND_SIM_LOC) {
    using namespace ::AscendC::sim;
    uint64_t d[::AscendC::NCHW_CONV_ADDR_LIST_SIZE], s[::AscendC::NCHW_CONV_ADDR_LIST_SIZE];
    {
        const ApiScope api_scope_;
        CoreCtx& c = enter("scatter_vnchwconv_b16", loc);
        if (dst > VA6 || src > VA6) {
            fail("BAD_PARAM", "scatter_vnchwconv_b16", loc,
                 "the address lists take two VA registers each (VA%d and the next); VA7 has no next", int(dst > VA6 ? dst : src));
        }
        for (int i = 0; i < 8; ++i) {
            d[i] = c.va_reg[dst][i];
            d[8 + i] = c.va_reg[dst + 1][i];
            s[i] = c.va_reg[src][i];
            s[8 + i] = c.va_reg[src + 1][i];
        }
    }
    const ::AscendC::TransDataTo5HDParams p(false, false, repeat, dstStride, srcStride);
    trans_5hd_u64<half>(d, s, p, "scatter_vnchwconv_b16", loc);
}

template <typename T>
inline void vtranspose(T* dst, T* src, ASCEND_SIM_LOC) {
    const ::AscendC::LocalTensor<T> d = ::AscendC::sim::tensor_at<T>(dst, "vtranspose", "dst", loc);
    const ::AscendC::LocalTensor<T> s = ::AscendC::sim::tensor_at<T>(src, "vtranspose", "src", loc);
    ::AscendC::Transpose(d, s, loc);
}

template <typename T>
inline void vor(T* dst, T* src0, T* src1, uint8_t repeat, uint16_t dstBlk, uint16_t src0Blk, uint16_t src1Blk,
                uint16_t dstRep, uint16_t src0Rep, uint16_t src1Rep, ASCEND_SIM_LOC) {
    using namespace ::AscendC;
    const LocalTensor<T> d = sim::tensor_at<T>(dst, "vor", "dst", loc);
    const LocalTensor<T> a = sim::tensor_at<T>(src0, "vor", "src0", loc);
    const LocalTensor<T> b = sim::tensor_at<T>(src1, "vor", "src1", loc);
    BinaryRepeatParams p;
    p.dstBlkStride = static_cast<uint8_t>(dstBlk);
    p.src0BlkStride = static_cast<uint8_t>(src0Blk);
    p.src1BlkStride = static_cast<uint8_t>(src1Blk);
    p.dstRepStride = static_cast<uint8_t>(dstRep);
    p.src0RepStride = static_cast<uint8_t>(src0Rep);
    p.src1RepStride = static_cast<uint8_t>(src1Rep);
    Or<T, false>(d, a, b, MASK_PLACEHOLDER, repeat, p, loc);
}

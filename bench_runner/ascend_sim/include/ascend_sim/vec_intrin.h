// ascend_sim: the ISA-level vector intrinsics that public kernels call directly on raw UB
// pointers (`vcadd((__ubuf__ float*)dst.GetPhyAddr(), …)`), at global scope as the bisheng
// builtins are. Each resolves its pointers back to the live UB buffer they point into and runs
// the matching AscendC API with isSetMask = false, i.e. under the current mask registers — which
// is what the intrinsic does on the NPU (the API wrappers set the mask, then issue the same
// instruction). Argument orders are those the asc-devkit impl headers pass
// (impl/basic_api/dav_c220/kernel_operator_vec_reduce_impl.h: vcadd(dst, src, repeat,
// dstRepStride, srcBlkStride, srcRepStride, mode); …_vec_duplicate_impl.h: vector_dup(dst, value,
// repeat, dstBlkStride, srcBlkStride, dstRepStride, srcRepStride); …_data_copy_impl.h:
// copy_ubuf_to_ubuf(dst, src, sid, nBurst, lenBurst, srcStride, dstStride)).
#pragma once

#include "vec_ops.h"
#include "vec_reduce.h"

namespace AscendC {
namespace sim {

// The LocalTensor (from its buffer's start to the buffer's end) a raw UB pointer points into.
template <typename T>
inline LocalTensor<T> tensor_at(const void* p, const char* api, const char* role, const SrcLoc& loc) {
    CoreCtx& c = enter(api, loc);
    const uint8_t* base = c.ub.data();
    const uint8_t* q = static_cast<const uint8_t*>(p);
    BlockInfo* found = nullptr;
    for (BlockInfo& b : c.blocks) {
        if (b.state == BufState::DEAD || b.hw != Hardware::UB) continue;
        if (q >= base + b.addr && q < base + b.addr + b.len) found = &b;
    }
    if (!found) {
        fail("BAD_PARAM", api, loc, "%s (%p) does not point into a Unified Buffer tensor of this core", role, p);
    }
    const uint32_t off = static_cast<uint32_t>(q - (base + found->addr));
    return TensorAccess::make<T>(found, off, (found->len - off) / static_cast<uint32_t>(sizeof(T)));
}

// vcadd with mode 1: the sum of every active lane of every repeat goes to the ACC register (dst
// unused, kernels pass nullptr) — each repeat's pairwise tree, the repeats added in order; the
// value is stored as the bits of T in the register's low bytes (kernels reinterpret it).
template <typename T>
inline void vcadd_acc(const LocalTensor<T>& src, int32_t repeat, int32_t src_blk, int32_t src_rep, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("vcadd", loc);
    const int epr = ONE_REPEAT_BYTE_SIZE / sizeof(T);
    L0Plan p = plan_l0(c, false, false, 0, nullptr, repeat, epr, "vcadd", loc);
    L0Operand s{view(src, "vcadd", "src", loc), sizeof(T), static_cast<uint64_t>(src_blk), static_cast<uint64_t>(src_rep),
                "src", false};
    c.acc_val = 0;
    if (p.repeats == 0) return;
    l0_check(p, &s, 1, "vcadd", loc);
    float vals[256];
    int lanes[256];
    float total = 0.0f;
    for (int r = 0; r < p.repeats; ++r) {
        const int n = gather_lanes<T>(p, s, r, vals, lanes);
        total = red_add<T>(total, n ? tree_sum<T>(vals, n) : 0.0f);
    }
    const T v = from_f<T>(total);
    std::memcpy(&c.acc_val, &v, sizeof(T));
    charge(c, Pipe::V, vec_cycles(c, VecClass::WREDUCE_SUM, sizeof(T), static_cast<uint64_t>(p.repeats)), "vcadd", loc,
           {{s.v.blk, false}});
}

}  // namespace sim

// The ACC register (CPU-debug name get_acc_val; GetAccVal on the NPU).
__aicore__ inline int64_t GetAccVal() { return sim::tl_core ? static_cast<int64_t>(sim::tl_core->acc_val) : 0; }

}  // namespace AscendC

inline int64_t get_acc_val() { return ::AscendC::GetAccVal(); }

// vcadd: one sum per repeat into dst (WholeReduceSum's instruction) or, with mode 1, the total
// into the ACC register.
template <typename T>
inline void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                  bool mode, ASCEND_SIM_LOC) {
    using namespace ::AscendC;
    const LocalTensor<T> s = sim::tensor_at<T>(src, "vcadd", "src", loc);
    if (mode) {
        sim::vcadd_acc(s, repeat, srcBlkStride, srcRepStride, loc);
        return;
    }
    const LocalTensor<T> d = sim::tensor_at<T>(dst, "vcadd", "dst", loc);
    WholeReduceSum<T, false>(d, s, static_cast<int32_t>(MASK_PLACEHOLDER), repeat, dstRepStride, srcBlkStride,
                             srcRepStride, loc);
}
template <typename T>
inline void vcadd(std::nullptr_t, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride,
                  uint16_t srcRepStride, bool mode, ASCEND_SIM_LOC) {
    vcadd(static_cast<T*>(nullptr), src, repeat, dstRepStride, srcBlkStride, srcRepStride, mode, loc);
}
// The older (dav-c100 / m200) form without the mode argument.
template <typename T>
inline void vcadd(T* dst, T* src, uint8_t repeat, uint16_t dstRepStride, uint16_t srcBlkStride, uint16_t srcRepStride,
                  ASCEND_SIM_LOC) {
    vcadd(dst, src, repeat, dstRepStride, srcBlkStride, srcRepStride, false, loc);
}

// vector_dup: Duplicate's instruction; the source strides are ignored (scalar source).
template <typename T, typename S>
inline void vector_dup(T* dst, S value, uint8_t repeat, uint16_t dstBlkStride, uint16_t srcBlkStride,
                       uint16_t dstRepStride, uint16_t srcRepStride, ASCEND_SIM_LOC) {
    using namespace ::AscendC;
    (void)srcBlkStride;
    (void)srcRepStride;
    const LocalTensor<T> d = sim::tensor_at<T>(dst, "vector_dup", "dst", loc);
    Duplicate<T, false>(d, static_cast<T>(value), MASK_PLACEHOLDER, repeat, dstBlkStride,
                        static_cast<uint8_t>(dstRepStride), loc);
}

// copy_ubuf_to_ubuf: DataCopy UB -> UB with nBurst bursts of lenBurst 32-byte blocks.
inline void copy_ubuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst, uint16_t srcStride,
                              uint16_t dstStride, ASCEND_SIM_LOC) {
    using namespace ::AscendC;
    (void)sid;
    const LocalTensor<uint8_t> d = sim::tensor_at<uint8_t>(dst, "copy_ubuf_to_ubuf", "dst", loc);
    const LocalTensor<uint8_t> s = sim::tensor_at<uint8_t>(src, "copy_ubuf_to_ubuf", "src", loc);
    DataCopyParams p;
    p.blockCount = nBurst;
    p.blockLen = lenBurst;
    p.srcStride = srcStride;
    p.dstStride = dstStride;
    DataCopy(d, s, p, loc);
}

// Mask registers (what SetVectorMask / SetMaskCount / SetMaskNorm write).
inline void set_vector_mask(uint64_t maskHigh, uint64_t maskLow) {
    if (::AscendC::sim::tl_core) {
        ::AscendC::sim::tl_core->mask_hi = maskHigh;
        ::AscendC::sim::tl_core->mask_lo = maskLow;
    }
}
inline void set_mask_count() { ::AscendC::SetMaskCount(); }
inline void set_mask_norm() { ::AscendC::SetMaskNorm(); }

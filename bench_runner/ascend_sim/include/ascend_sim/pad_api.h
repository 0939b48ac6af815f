// ascend_sim: the high-level tensor-transform APIs Pad, UnPad and Broadcast (also under its older
// name BroadCast), with their parameter structs; the tiling structs and host helpers are in
// adv_tiling.h. Semantics from the ASC docs (asc-devkit docs/zh/api/SIMD-API/高阶API/张量变换/
// {Pad,UnPad,Broadcast}.md, include/adv_api/pad/*.h), Atlas A2 column:
//   Pad     [height, width] -> rows padded in the width direction to 32 bytes. Scenario 1 (width not
//           32-byte aligned, rows stored back to back): leftPad / rightPad columns of padValue
//           around each row, rows of the aligned width out. Scenario 2 (width aligned, the columns
//           after srcOriWidth redundant): those columns (rightPad of them) become padValue; only
//           right padding.
//   UnPad   [height, width] (width 32-byte aligned) -> rows of width - rightPad, back to back.
//   Broadcast<T, dim, axis>  dim 1 or 2, axis 0 or 1: [1] -> [n]; [1, k] -> [m, k] (axis 0);
//           [m, 1] -> [m, k] (axis 1); the result packed row-major.
// The work is computed directly and charged to the vector pipe as the brcb / copy / gather
// sequence the docs describe (one pass over the output per step). Temporary sizes are
// ascend_sim's own (CANN's exact figures are not public), checked like SoftMax's.
#pragma once

#include "adv_tiling.h"
#include "vec_common.h"

namespace AscendC {

struct PadParams {
    __aicore__ PadParams() {}
    __aicore__ PadParams(const uint16_t leftPadIn, const uint16_t rightPadIn, const int32_t padValueIn)
        : leftPad(leftPadIn), rightPad(rightPadIn), padValue(padValueIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};

struct UnPadParams {
    __aicore__ UnPadParams() {}
    __aicore__ UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn) : leftPad(leftPadIn), rightPad(rightPadIn) {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

namespace sim {

inline void adv_tmp_check(const LocalTensor<uint8_t>* tmp, uint32_t need_bytes, const char* api, const char* query,
                          const SrcLoc& loc) {
    if (!tmp) return;
    LocalView t = view(*tmp, api, "sharedTmpBuffer", loc);
    if (t.extent < need_bytes) {
        fail("LOCAL_OOB", api, loc, "sharedTmpBuffer holds %llu bytes, %s needs at least %u (ask %s)",
             static_cast<unsigned long long>(t.extent), api, need_bytes, query);
    }
}

// One vector pass over `bytes` bytes (unary class, 256 bytes a repeat).
inline void charge_pass(CoreCtx& c, const char* api, const SrcLoc& loc, uint64_t bytes, size_t es, BlockInfo* src,
                        BlockInfo* dst) {
    charge(c, Pipe::V, vec_cycles(c, VecClass::UNARY, es, (bytes + ONE_REPEAT_BYTE_SIZE - 1) / ONE_REPEAT_BYTE_SIZE),
           api, loc, {{src, false}, {dst, true}}, c.soc->level2_extra);
}

template <typename T>
inline void pad_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& pp,
                     const LocalTensor<uint8_t>* tmp, const PadTiling& tiling, const SrcLoc& loc) {
    const char* api = "Pad";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const uint64_t es = sizeof(T);
    const uint64_t h = tiling.srcHeight, w = tiling.srcWidth;
    const uint64_t ori = tiling.srcOriWidth ? tiling.srcOriWidth : w;
    const uint64_t aligned = (w * es + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE / es;
    adv_tmp_check(tmp, pad_min_tmp(static_cast<uint32_t>(w), static_cast<uint32_t>(es)), api, "GetPadMaxMinTmpSize", loc);
    LocalView d = view(dst, api, "dstTensor", loc);
    LocalView s = view(src, api, "srcTensor", loc);
    if ((h * w * es) % ONE_BLK_SIZE != 0) {
        fail("BAD_PARAM", api, loc, "srcTensor holds %llu x %llu elements (%llu bytes), which is not a multiple of 32 bytes",
             static_cast<unsigned long long>(h), static_cast<unsigned long long>(w),
             static_cast<unsigned long long>(h * w * es));
    }
    const bool scenario1 = (w * es) % ONE_BLK_SIZE != 0;
    if (scenario1) {
        if (pp.leftPad + w + pp.rightPad > aligned) {
            fail("BAD_PARAM", api, loc, "leftPad %u + width %llu + rightPad %u exceeds the 32-byte aligned width %llu",
                 pp.leftPad, static_cast<unsigned long long>(w), pp.rightPad, static_cast<unsigned long long>(aligned));
        }
    } else {
        if (pp.leftPad != 0) fail("BAD_PARAM", api, loc, "Pad of a 32-byte aligned width supports right padding only (leftPad %u)", pp.leftPad);
        if (ori + pp.rightPad > w) {
            fail("BAD_PARAM", api, loc, "srcOriWidth %llu + rightPad %u exceeds the width %llu",
                 static_cast<unsigned long long>(ori), pp.rightPad, static_cast<unsigned long long>(w));
        }
    }
    need(s, h * w * es, api, "srcTensor", loc);
    check_init(s, 0, h * w * es, api, "srcTensor", loc);
    need(d, h * aligned * es, api, "dstTensor", loc);
    const T pv = st<T>(static_cast<double>(pp.padValue));
    std::vector<T> in(h * w);
    std::memcpy(in.data(), s.data, h * w * es);
    T* out = reinterpret_cast<T*>(d.data);
    for (uint64_t r = 0; r < h; ++r) {
        T* row = out + r * aligned;
        if (scenario1) {
            for (uint64_t j = 0; j < pp.leftPad; ++j) row[j] = pv;
            for (uint64_t j = 0; j < w; ++j) row[pp.leftPad + j] = in[r * w + j];
            for (uint64_t j = 0; j < pp.rightPad; ++j) row[pp.leftPad + w + j] = pv;
            mark_written(d, r * aligned * es, (pp.leftPad + w + pp.rightPad) * es);
        } else {
            for (uint64_t j = 0; j < w; ++j) row[j] = (j >= ori && j < ori + pp.rightPad) ? pv : in[r * w + j];
            mark_written(d, r * aligned * es, w * es);
        }
    }
    charge_pass(c, api, loc, h * aligned * es, es, s.blk, d.blk);  // copy / gather of the rows
    charge_pass(c, api, loc, h * ONE_BLK_SIZE, es, d.blk, d.blk);   // pad value into the last block of each row
}

template <typename T>
inline void unpad_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& up,
                       const LocalTensor<uint8_t>* tmp, const UnPadTiling& tiling, const SrcLoc& loc) {
    const char* api = "UnPad";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const uint64_t es = sizeof(T);
    const uint64_t h = tiling.srcHeight, w = tiling.srcWidth;
    adv_tmp_check(tmp, unpad_min_tmp(static_cast<uint32_t>(w), static_cast<uint32_t>(es)), api, "GetUnPadMaxMinTmpSize",
                  loc);
    LocalView d = view(dst, api, "dstTensor", loc);
    LocalView s = view(src, api, "srcTensor", loc);
    if ((w * es) % ONE_BLK_SIZE != 0) {
        fail("BAD_PARAM", api, loc, "UnPad needs a 32-byte aligned width; srcWidth %llu x %llu bytes is not",
             static_cast<unsigned long long>(w), static_cast<unsigned long long>(es));
    }
    if (up.rightPad == 0 || up.rightPad * es >= ONE_BLK_SIZE || up.rightPad >= w) {
        fail("BAD_PARAM", api, loc, "UnPadParams.rightPad is %u; it must be above 0 and below 32 bytes (%llu elements)",
             up.rightPad, static_cast<unsigned long long>(ONE_BLK_SIZE / es));
    }
    const uint64_t ow = w - up.rightPad;
    need(s, h * w * es, api, "srcTensor", loc);
    check_init(s, 0, h * w * es, api, "srcTensor", loc);
    need(d, h * ow * es, api, "dstTensor", loc);
    std::vector<T> in(h * w);
    std::memcpy(in.data(), s.data, h * w * es);
    T* out = reinterpret_cast<T*>(d.data);
    for (uint64_t r = 0; r < h; ++r) {
        for (uint64_t j = 0; j < ow; ++j) out[r * ow + j] = in[r * w + j];
    }
    mark_written(d, 0, h * ow * es);
    charge_pass(c, api, loc, h * w * es, es, s.blk, d.blk);  // GatherMask of the kept columns
}

template <typename T, int32_t dim, int32_t axis>
inline void broadcast_impl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t* dstShape,
                           const uint32_t* srcShape, const LocalTensor<uint8_t>* tmp, const SrcLoc& loc) {
    const char* api = "Broadcast";
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    const uint64_t es = sizeof(T);
    for (int32_t i = 0; i < dim; ++i) {
        const bool ok = (i == axis) ? (srcShape[i] == 1 || srcShape[i] == dstShape[i]) : (srcShape[i] == dstShape[i]);
        if (!ok || dstShape[i] == 0) {
            fail("BAD_PARAM", api, loc, "srcShape[%d] = %u cannot be broadcast to dstShape[%d] = %u (axis %d)", i,
                 srcShape[i], i, dstShape[i], axis);
        }
    }
    if (dim == 2 && axis == 0 && (srcShape[1] * es) % ONE_BLK_SIZE != 0) {
        fail("BAD_PARAM", api, loc, "Broadcast with dim 2, axis 0 needs srcShape[1] * sizeof(T) to be 32-byte aligned (%u x %llu)",
             srcShape[1], static_cast<unsigned long long>(es));
    }
    uint64_t src_n = 1, dst_n = 1;
    for (int32_t i = 0; i < dim; ++i) {
        src_n *= srcShape[i];
        dst_n *= dstShape[i];
    }
    adv_tmp_check(tmp, broadcast_min_tmp(dim, axis, srcShape, static_cast<uint32_t>(es)), api,
                  "GetBroadCastMaxMinTmpSize", loc);
    LocalView d = view(dst, api, "dstLocal", loc);
    LocalView s = view(src, api, "srcLocal", loc);
    // In place along axis 0 ([1, k] -> [m, k], dst == src) is what the documented algorithm does
    // safely: its Copy step reads only the first row, which it leaves as it is (NPUKernelBench's
    // own RmsNorm and AddRmsNorm answers broadcast gamma so). Any other overlap would read
    // elements the broadcast has already overwritten.
    const bool in_place_rows = dim == 2 && axis == 0 && d.data == s.data;
    if (!in_place_rows && d.data < s.data + src_n * es && s.data < d.data + dst_n * es) {
        fail("BAD_PARAM", api, loc, "Broadcast does not support overlapping srcLocal and dstLocal "
             "(only [1, k] -> [m, k] in place, dstLocal == srcLocal)");
    }
    need(s, src_n * es, api, "srcLocal", loc);
    check_init(s, 0, src_n * es, api, "srcLocal", loc);
    need(d, dst_n * es, api, "dstLocal", loc);
    const T* in = reinterpret_cast<const T*>(s.data);
    T* out = reinterpret_cast<T*>(d.data);
    const uint64_t rows = dim == 2 ? dstShape[0] : 1;
    const uint64_t cols = dim == 2 ? dstShape[1] : dstShape[0];
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t j = 0; j < cols; ++j) {
            uint64_t si;
            if (dim == 1) {
                si = srcShape[0] == 1 ? 0 : j;
            } else if (axis == 1) {
                si = r * srcShape[1] + (srcShape[1] == 1 ? 0 : j);
            } else {
                si = (srcShape[0] == 1 ? 0 : r) * srcShape[1] + j;
            }
            out[r * cols + j] = in[si];
        }
    }
    mark_written(d, 0, dst_n * es);
    if (dim == 2 && axis == 1) charge_pass(c, api, loc, rows * ONE_BLK_SIZE, es, s.blk, d.blk);  // brcb
    charge_pass(c, api, loc, dst_n * es, es, s.blk, d.blk);                                       // copy
    if (dim == 2 && axis == 1 && (cols * es) % ONE_BLK_SIZE != 0) {
        charge_pass(c, api, loc, dst_n * es, es, d.blk, d.blk);  // GatherMask to the unaligned k
    }
}

}  // namespace sim

#define ASCEND_SIM_PAD_CHECK(NAME)                                                                                    \
    static_assert(sim::OneOf<T, int16_t, uint16_t, half, int32_t, uint32_t, float>::value,                            \
                  "Failed to check dtype in " #NAME ", current api support dtype is int16_t / uint16_t / half / "      \
                  "int32_t / uint32_t / float")

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling, ASCEND_SIM_LOC) {
    ASCEND_SIM_PAD_CHECK(Pad);
    sim::pad_impl(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling, ASCEND_SIM_LOC) {
    ASCEND_SIM_PAD_CHECK(Pad);
    sim::pad_impl(dstTensor, srcTensor, padParams, nullptr, tiling, loc);
}
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling, ASCEND_SIM_LOC) {
    ASCEND_SIM_PAD_CHECK(UnPad);
    sim::unpad_impl(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling, loc);
}
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             UnPadTiling& tiling, ASCEND_SIM_LOC) {
    ASCEND_SIM_PAD_CHECK(UnPad);
    sim::unpad_impl(dstTensor, srcTensor, unPadParams, nullptr, tiling, loc);
}
#undef ASCEND_SIM_PAD_CHECK

#define ASCEND_SIM_BRC_CHECK()                                                                                        \
    static_assert(sim::OneOf<T, int8_t, uint8_t, half, float>::value,                                                 \
                  "Failed to check dtype in Broadcast, current api support dtype is int8_t / uint8_t / half / float"); \
    static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 or 2");                                             \
    static_assert(axis == 0 || axis == 1, "Broadcast supports axis 0 or 1")

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer, ASCEND_SIM_LOC) {
    ASCEND_SIM_BRC_CHECK();
    sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim], ASCEND_SIM_LOC) {
    ASCEND_SIM_BRC_CHECK();
    sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer, ASCEND_SIM_LOC) {
    ASCEND_SIM_BRC_CHECK();
    sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer, loc);
}
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim], ASCEND_SIM_LOC) {
    ASCEND_SIM_BRC_CHECK();
    sim::broadcast_impl<T, dim, axis>(dstLocal, srcLocal, dstShape, srcShape, nullptr, loc);
}
#undef ASCEND_SIM_BRC_CHECK

}  // namespace AscendC

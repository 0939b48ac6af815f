// ascend_sim: Transpose and TransDataTo5HD (asc-devkit include/basic_api/kernel_operator_vec_transpose_intf.h,
// kernel_struct_transpose.h; semantics from docs/zh/api/.../数据排布转换/TransDataTo5HD.md and the
// dav_c220 impl, which issues scatter_vnchwconv_b8/b16/b32 after loading the 16 + 16 addresses into the
// VA registers).
//
// TransDataTo5HD (vnchwconv): each repeat reads one 32-byte DataBlock at each of the 16 source addresses
// and writes one DataBlock at each of the 16 destination addresses:
//   b16: dst[i] element j = src[j] element i                     (a 16 x 16 transpose)
//   b32: dst[2i + j / 8] element j % 8 = src[j] element i        (16 x 8 -> 8 rows of 16, two blocks each)
//   b8 : dst[i] half (dstHighHalf) byte j = src[j] byte i + 16 * srcHighHalf  (only half of each block)
// Repeat r adds r * RepStride DataBlocks to every address; with repeatTimes == 1 the documented quirk
// holds: the single repeat starts at address + RepStride (kernels set the strides to 0 for that case).
// Transpose(dst, src): the 16 x 16 b16 transpose (vtranspose). Transpose(..., TransposeParamsExt):
// NCHW <-> NHWC (half / float) and the 16 x 16 b16 form.
#pragma once

#include "vec_common.h"
#include "vec_intrin.h"

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};

struct TransDataTo5HDParams {
    constexpr __aicore__ TransDataTo5HDParams() = default;
    constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                              const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                              const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn),
          srcHighHalf(srcHighHalfIn),
          repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

struct TransposeParamsExt {
    constexpr __aicore__ TransposeParamsExt() = default;
    constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                            const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn) {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

namespace sim {

template <typename T>
inline void check_5hd_type(const char* api) {
    static_assert(OneOf<T, int8_t, uint8_t, int16_t, uint16_t, half, float, int32_t, uint32_t>::value,
                  "Failed to check dtype in TransDataTo5HD, current api support dtype combination is src and dst "
                  "both: int8_t, uint8_t, int16_t, uint16_t, half, float, int32_t, uint32_t");
    (void)api;
}

// The 16 + 16 operands of one vnchwconv, resolved to views of live UB tensors.
struct AddrList {
    LocalView v[NCHW_CONV_ADDR_LIST_SIZE];
};

// vnchwconv on resolved views (see the header comment for the element mapping).
template <typename T>
inline void trans_5hd(CoreCtx& c, const char* api, const AddrList& dl, const AddrList& sl,
                      const TransDataTo5HDParams& p, const SrcLoc& loc) {
    constexpr int N = NCHW_CONV_ADDR_LIST_SIZE;
    constexpr uint64_t B = ONE_BLK_SIZE;
    const int reps = p.repeatTimes;
    if (reps == 0) return;
    for (int r = 0; r < reps; ++r) {
        const uint64_t so = (reps == 1 ? 1u : static_cast<uint64_t>(r)) * p.srcRepStride * B;
        const uint64_t dof = (reps == 1 ? 1u : static_cast<uint64_t>(r)) * p.dstRepStride * B;
        uint8_t in[N][B];
        for (int j = 0; j < N; ++j) {
            need(sl.v[j], so + B, api, "srcList", loc);
            std::memcpy(in[j], sl.v[j].data + so, B);
            if constexpr (sizeof(T) == 1) {
                check_init(sl.v[j], so + (p.srcHighHalf ? 16 : 0), 16, api, "srcList", loc);
            } else {
                check_init(sl.v[j], so, B, api, "srcList", loc);
            }
        }
        for (int i = 0; i < N; ++i) need(dl.v[i], dof + B, api, "dstList", loc);
        for (int i = 0; i < N; ++i) {
            uint8_t* d = dl.v[i].data + dof;
            uint8_t* sh = dl.v[i].shadow + dof;
            if constexpr (sizeof(T) == 1) {
                const int sb = p.srcHighHalf ? 16 : 0;
                const int db = p.dstHighHalf ? 16 : 0;
                for (int j = 0; j < N; ++j) d[db + j] = in[j][sb + i];
                std::memset(sh + db, 1, 16);
            } else if constexpr (sizeof(T) == 2) {
                for (int j = 0; j < N; ++j) std::memcpy(d + 2 * j, in[j] + 2 * i, 2);
                std::memset(sh, 1, B);
            } else {
                const int row = i / 2;       // source element index
                const int j0 = (i % 2) * 8;  // which half of the 16 sources
                for (int k = 0; k < 8; ++k) std::memcpy(d + 4 * k, in[j0 + k] + 4 * row, 4);
                std::memset(sh, 1, B);
            }
        }
    }
    // [model] one repeat per cycle after the usual vector start-up, like a UB->UB move of 512 bytes; the
    // VA-register loads (set_va_reg_sb) cost the scalar unit a few cycles.
    charge_scalar(c, 4);
    for (int j = 1; j < N; ++j) {
        if (sl.v[j].blk != sl.v[0].blk && sl.v[j].blk != dl.v[0].blk) {
            charge(c, Pipe::V, 0, api, loc, {{sl.v[j].blk, false}});
        }
    }
    charge(c, Pipe::V, vec_cycles(c, VecClass::COPY, sizeof(T), static_cast<uint64_t>(reps)), api, loc,
           {{sl.v[0].blk, false}, {dl.v[0].blk, true}});
    for (int i = 1; i < N; ++i) {
        if (dl.v[i].blk != dl.v[0].blk) charge(c, Pipe::V, 0, api, loc, {{dl.v[i].blk, true}});
    }
}

template <typename T>
inline LocalView view_at(const void* p, const char* api, const char* role, const SrcLoc& loc) {
    return view(tensor_at<T>(p, api, role, loc), api, role, loc);
}

template <typename T>
inline void trans_5hd_ptrs(const void* const* dst, const void* const* src, const TransDataTo5HDParams& p,
                           const char* api, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter(api, loc);
    AddrList dl, sl;
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dl.v[i] = view_at<T>(dst[i], api, "dstList", loc);
        sl.v[i] = view_at<T>(src[i], api, "srcList", loc);
    }
    trans_5hd<T>(c, api, dl, sl, p, loc);
}

template <typename T>
inline void trans_5hd_u64(const uint64_t* dst, const uint64_t* src, const TransDataTo5HDParams& p, const char* api,
                          const SrcLoc& loc) {
    const void* d[NCHW_CONV_ADDR_LIST_SIZE];
    const void* s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = reinterpret_cast<const void*>(static_cast<uintptr_t>(dst[i]));
        s[i] = reinterpret_cast<const void*>(static_cast<uintptr_t>(src[i]));
    }
    trans_5hd_ptrs<T>(d, s, p, api, loc);
}

// vtranspose: one 16 x 16 matrix of 16-bit elements, dst[i][j] = src[j][i].
template <typename T>
inline void transpose16(CoreCtx& c, const char* api, const LocalView& d, const LocalView& s, const SrcLoc& loc) {
    constexpr uint64_t bytes = 16 * 16 * sizeof(T);
    need(s, bytes, api, "src", loc);
    need(d, bytes, api, "dst", loc);
    check_init(s, 0, bytes, api, "src", loc);
    uint16_t in[256];
    std::memcpy(in, s.data, bytes);
    uint16_t out[256];
    for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
    }
    std::memcpy(d.data, out, bytes);
    std::memset(d.shadow, 1, bytes);
    charge(c, Pipe::V, vec_cycles(c, VecClass::COPY, sizeof(T), 1), api, loc, {{s.blk, false}, {d.blk, true}});
}

}  // namespace sim

// ---- TransDataTo5HD ----
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams, ASCEND_SIM_LOC) {
    sim::check_5hd_type<T>("TransDataTo5HD");
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("TransDataTo5HD", loc);
    sim::AddrList dl, sl;
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        dl.v[i] = sim::view(dstList[i], "TransDataTo5HD", "dstList", loc);
        sl.v[i] = sim::view(srcList[i], "TransDataTo5HD", "srcList", loc);
    }
    sim::trans_5hd<T>(c, "TransDataTo5HD", dl, sl, nchwconvParams, loc);
}

// Addresses as GetPhyAddr() values (on the CPU twin: real pointers into this core's UB).
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams, ASCEND_SIM_LOC) {
    sim::check_5hd_type<T>("TransDataTo5HD");
    sim::trans_5hd_u64<T>(dstList, srcList, nchwconvParams, "TransDataTo5HD", loc);
}

// The 16 + 16 addresses stored in two uint64_t LocalTensors (vld_va_reg loads them from UB).
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                                      const TransDataTo5HDParams& nchwconvParams, ASCEND_SIM_LOC) {
    sim::check_5hd_type<T>("TransDataTo5HD");
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE];
    uint64_t s[NCHW_CONV_ADDR_LIST_SIZE];
    {
        const ::AscendC::sim::ApiScope api_scope_;
        sim::LocalView dv = sim::view(dst, "TransDataTo5HD", "dst", loc);
        sim::LocalView sv = sim::view(src, "TransDataTo5HD", "src", loc);
        sim::need(dv, sizeof(d), "TransDataTo5HD", "dst", loc);
        sim::need(sv, sizeof(s), "TransDataTo5HD", "src", loc);
        sim::check_init(dv, 0, sizeof(d), "TransDataTo5HD", "dst", loc);
        sim::check_init(sv, 0, sizeof(s), "TransDataTo5HD", "src", loc);
        std::memcpy(d, dv.data, sizeof(d));
        std::memcpy(s, sv.data, sizeof(s));
    }
    sim::trans_5hd_u64<T>(d, s, nchwconvParams, "TransDataTo5HD", loc);
}

// The impl-level entry (asc-devkit dav_c220 TransDataTo5HDImpl) that some public kernels call directly
// with arrays of raw `__ubuf__ T*` pointers.
template <typename T>
__aicore__ inline void TransDataTo5HDImpl(T* dstList[NCHW_CONV_ADDR_LIST_SIZE], T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                          const TransDataTo5HDParams& transDataTo5HDParams, ASCEND_SIM_LOC) {
    sim::check_5hd_type<T>("TransDataTo5HD");
    const void* d[NCHW_CONV_ADDR_LIST_SIZE];
    const void* s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = dstList[i];
        s[i] = srcList[i];
    }
    sim::trans_5hd_ptrs<T>(d, s, transDataTo5HDParams, "TransDataTo5HD", loc);
}

// ---- Transpose ----
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, int16_t, uint16_t, half>::value,
                  "Failed to check dtype in Transpose, current api support dtype combination is src and dst both: "
                  "int16_t, uint16_t, half");
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter("Transpose", loc);
    sim::LocalView d = sim::view(dst, "Transpose", "dst", loc);
    sim::LocalView s = sim::view(src, "Transpose", "src", loc);
    sim::transpose16<T>(c, "Transpose", d, s, loc);
}

// Enhanced Transpose: NCHW <-> NHWC per n (half, float; the doc's 场景2) or the 16 x 16 b16 form. The
// scratch buffer must be a live UB tensor; its required size (GetTransposeMaxMinTmpSize) is not checked.
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams,
                                 ASCEND_SIM_LOC) {
    const char* api = "Transpose";
    const ::AscendC::sim::ApiScope api_scope_;
    sim::CoreCtx& c = sim::enter(api, loc);
    sim::LocalView d = sim::view(dst, api, "dst", loc);
    sim::LocalView s = sim::view(src, api, "src", loc);
    sim::LocalView t = sim::view(sharedTmpBuffer, api, "sharedTmpBuffer", loc);
    const TransposeType ty = transposeParams.transposeType;
    if (ty == TransposeType::TRANSPOSE_ND2ND_B16) {
        if constexpr (sizeof(T) == 2) {
            sim::transpose16<T>(c, api, d, s, loc);
            return;
        } else {
            sim::fail("BAD_PARAM", api, loc, "TRANSPOSE_ND2ND_B16 needs a 16-bit element type");
        }
    }
    if (ty != TransposeType::TRANSPOSE_NCHW2NHWC && ty != TransposeType::TRANSPOSE_NHWC2NCHW) {
        sim::fail("UNSUPPORTED", api, loc, "TransposeType %d is not emulated (NCHW2NHWC, NHWC2NCHW, ND2ND_B16 are)",
                  static_cast<int>(ty));
    }
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Transpose with TransposeParamsExt supports half / float");
    const uint64_t n = transposeParams.nSize, ch = transposeParams.cSize;
    const uint64_t hw = static_cast<uint64_t>(transposeParams.hSize) * transposeParams.wSize;
    if ((hw * sizeof(T)) % ONE_BLK_SIZE != 0) {
        sim::fail("BAD_PARAM", api, loc, "hSize * wSize * sizeof(T) = %llu bytes must be a multiple of 32",
                  static_cast<unsigned long long>(hw * sizeof(T)));
    }
    const uint64_t total = n * ch * hw;
    sim::need(s, total * sizeof(T), api, "src", loc);
    sim::need(d, total * sizeof(T), api, "dst", loc);
    sim::check_init(s, 0, total * sizeof(T), api, "src", loc);
    std::vector<uint8_t> out(total * sizeof(T));
    for (uint64_t b = 0; b < n; ++b) {
        for (uint64_t k = 0; k < ch; ++k) {
            for (uint64_t x = 0; x < hw; ++x) {
                const uint64_t nchw = (b * ch + k) * hw + x;
                const uint64_t nhwc = (b * hw + x) * ch + k;
                const uint64_t from = ty == TransposeType::TRANSPOSE_NCHW2NHWC ? nchw : nhwc;
                const uint64_t to = ty == TransposeType::TRANSPOSE_NCHW2NHWC ? nhwc : nchw;
                std::memcpy(out.data() + to * sizeof(T), s.data + from * sizeof(T), sizeof(T));
            }
        }
    }
    std::memcpy(d.data, out.data(), out.size());
    std::memset(d.shadow, 1, out.size());
    // [model] the implementation is vnchwconv passes through the scratch buffer: about two 512-byte repeats
    // per 512 bytes moved (in and back out).
    const uint64_t reps = 2 * ((total * sizeof(T) + 511) / 512);
    sim::charge(c, sim::Pipe::V, sim::vec_cycles(c, sim::VecClass::COPY, sizeof(T), reps), api, loc,
                {{s.blk, false}, {t.blk, true}, {d.blk, true}});
}

}  // namespace AscendC

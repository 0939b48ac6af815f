// ascend_sim: out-of-line part of the cube path — GM -> L1 with ND -> NZ, LoadData (L1 -> L0A/L0B),
// Mmad (L0A x L0B -> L0C), Fixpipe (L0C -> GM with NZ -> ND, conversion, quantisation, ReLU),
// InitConstValue, and the cross-core flags of mixed (AIC + AIV) kernels.
//
// Layouts (ASC docs; "fractal" = 512 bytes = 16 rows x C0 columns, C0 = 32 bytes / element size):
//   L1 (after Nd2Nz)  NZ: element (r, c) at (c / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + c % C0
//   L0A (A, m x k)    Zz: fractal (i / 16, kk / C0) at row-major fractal index, rows of C0 inside
//   L0B (B, k x n)    Zn: fractal (kk / C0, j / 16) at row-major fractal index, each fractal stored
//                         n-major (16 columns of C0 k-values)
//   L0C (C, m x n)    Nz: fractal (i / 16, j / 16) at (j / 16) * ceil(m / 16) + i / 16, rows of 16 inside
// Included at the end of runtime_impl.h (same inline / prebuilt rules).
#pragma once

#include <cmath>
#include <vector>

#include "runtime.h"

namespace AscendC {
namespace sim {

namespace {
constexpr uint32_t kFractal = 512;
}

ASCEND_SIM_API uint32_t dtype_size(DType d) {
    switch (d) {
        case DType::F16:
        case DType::BF16:
        case DType::I16:
        case DType::U16: return 2;
        case DType::F32:
        case DType::I32:
        case DType::U32: return 4;
        case DType::I8:
        case DType::U8:
        case DType::BOOL: return 1;
        default: return 8;
    }
}

ASCEND_SIM_API float load_as_float(const uint8_t* p, DType d) {
    switch (d) {
        case DType::F16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return half_bits_to_float(v);
        }
        case DType::BF16: {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return bf16_bits_to_float(v);
        }
        case DType::F32: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
        case DType::I8: return static_cast<float>(*reinterpret_cast<const int8_t*>(p));
        case DType::U8: return static_cast<float>(*p);
        case DType::I32: {
            int32_t v;
            std::memcpy(&v, p, 4);
            return static_cast<float>(v);
        }
        default: return 0.0f;
    }
}

ASCEND_SIM_API uint64_t l1_load_cycles(CoreCtx& c, uint64_t bytes) {
    return c.soc->mte2_l1_latency + static_cast<uint64_t>(std::ceil(static_cast<double>(bytes) / c.l1_l2_bpc));
}

// Whether [p, p + bytes) lies inside one GmAlloc'd buffer: then every check_gm on a part of it
// passes, and the element- or row-wise checks can be skipped.
ASCEND_SIM_API bool cube_gm_inside(const void* p, uint64_t bytes) { return gm_contains(p, bytes, nullptr); }

// Whether every one of `bytes` shadow bytes (a multiple of 32) is 1, i.e. written, 32 at a time.
static inline bool shadow_all_set(const uint8_t* sh, size_t bytes) {
    typedef uint64_t v4u __attribute__((vector_size(32)));
    const v4u ones = {0x0101010101010101ull, 0x0101010101010101ull, 0x0101010101010101ull, 0x0101010101010101ull};
    v4u diff = {0, 0, 0, 0};
    for (size_t o = 0; o < bytes; o += 32) {
        v4u w;
        std::memcpy(&w, sh + o, 32);
        diff |= w ^ ones;
    }
    return (diff[0] | diff[1] | diff[2] | diff[3]) == 0;
}

// ------------------------------------------------------------------------------------------
// GM -> L1 with ND -> NZ conversion (DataCopy with Nd2NzParams)
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void cube_nd2nz(const TensorRef& dst, const void* gm, uint32_t esize, const Nd2NzParams& p,
                               const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("DataCopy", loc);
    if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    LocalView d = view_raw(dst, "DataCopy", "dst (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
    const uint32_t c0 = ONE_BLK_SIZE / esize;
    if (p.nValue > 1 && p.srcDValue == 0) {
        fail("BAD_PARAM", "DataCopy", loc, "Nd2NzParams.srcDValue is 0; its valid range is 1 ~ 65535");
    }
    // (srcDValue < dValue is legal: overlapping source rows, e.g. an implicit img2col.)
    if (p.dstNzC0Stride == 0 && p.dValue > c0) {
        fail("BAD_PARAM", "DataCopy", loc,
             "Nd2NzParams.dstNzC0Stride is 0 but dValue %u spans several %u-element C0 blocks; set it to the "
             "(16-aligned) row count of the NZ matrix",
             p.dValue, c0);
    }
    const uint32_t dblocks = (p.dValue + c0 - 1) / c0;
    // Extent of the destination, in elements.
    uint64_t last = 0;
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        const uint64_t base = static_cast<uint64_t>(nd) * p.dstNzMatrixStride;
        const uint64_t e = base + static_cast<uint64_t>(dblocks - 1) * p.dstNzC0Stride * c0 +
                           static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride * c0 + c0;
        last = std::max(last, e);
    }
    need(d, last * esize, "DataCopy", "dst (LocalTensor)", loc);
    const uint8_t* g = static_cast<const uint8_t*>(gm);
    // Every source row inside one GmAlloc'd buffer: the per-row check_gm would pass for each.
    const uint64_t src_end = static_cast<uint64_t>(p.ndNum - 1) * p.srcNdMatrixStride +
                             static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue;
    const bool gm_ok = cube_gm_inside(g, src_end * esize);
    uint64_t bytes = 0;
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        const uint64_t sbase = static_cast<uint64_t>(nd) * p.srcNdMatrixStride;
        const uint64_t dbase = static_cast<uint64_t>(nd) * p.dstNzMatrixStride;
        auto src_row = [&](uint32_t r) { return g + (sbase + static_cast<uint64_t>(r) * p.srcDValue) * esize; };
        auto copy_block = [&](uint32_t r, uint32_t blk) {
            const uint8_t* row = src_row(r);
            const uint64_t doff =
                (dbase + static_cast<uint64_t>(blk) * p.dstNzC0Stride * c0 + static_cast<uint64_t>(r) * p.dstNzNStride * c0) *
                esize;
            const uint32_t col0 = blk * c0;
            const uint32_t ncols = std::min<uint32_t>(c0, p.dValue - col0);
            if (ncols == c0) {  // a whole 32-byte block: fixed-size copies the compiler inlines
                std::memcpy(d.data + doff, row + static_cast<uint64_t>(col0) * esize, ONE_BLK_SIZE);
            } else {
                std::memcpy(d.data + doff, row + static_cast<uint64_t>(col0) * esize, static_cast<size_t>(ncols) * esize);
                std::memset(d.data + doff + ncols * esize, 0, (c0 - ncols) * esize);  // zero pad to C0
            }
            std::memset(d.shadow + doff, 1, ONE_BLK_SIZE);  // mark_written
        };
        // The destination blocks of this matrix are pairwise distinct (row r of block column blk at
        // blk * dstNzC0Stride + r * dstNzNStride, in 32-byte units): the copy order cannot matter,
        // so 16 rows go block column by block column (contiguous writes, no 4 KiB-strided stores).
        const bool disjoint = p.dstNzNStride >= 1 &&
                              (dblocks == 1 || p.dstNzC0Stride >= static_cast<uint64_t>(p.nValue - 1) * p.dstNzNStride + 1);
        if (gm_ok && disjoint) {
            for (uint32_t r = 0; r < p.nValue; ++r) l2_touch(src_row(r), static_cast<uint64_t>(p.dValue) * esize);
            for (uint32_t r0 = 0; r0 < p.nValue; r0 += 16) {
                const uint32_t r1 = std::min<uint32_t>(p.nValue, r0 + 16);
                for (uint32_t blk = 0; blk < dblocks; ++blk) {
                    for (uint32_t r = r0; r < r1; ++r) copy_block(r, blk);
                }
            }
        } else {  // row by row, each row checked first (as it always was)
            for (uint32_t r = 0; r < p.nValue; ++r) {
                const uint8_t* row = src_row(r);
                if (!gm_ok) check_gm(row, static_cast<uint64_t>(p.dValue) * esize, false, "DataCopy", loc);
                l2_touch(row, static_cast<uint64_t>(p.dValue) * esize);
                for (uint32_t blk = 0; blk < dblocks; ++blk) copy_block(r, blk);
            }
        }
        bytes += static_cast<uint64_t>(p.nValue) *
                 ((static_cast<uint64_t>(p.dValue) * esize + ONE_BLK_SIZE - 1) / ONE_BLK_SIZE * ONE_BLK_SIZE);
    }
    c.l1_read += bytes;
    charge(c, Pipe::MTE2, l1_load_cycles(c, bytes), "DataCopy(Nd2Nz)", loc, {{d.blk, true}});
}

// ------------------------------------------------------------------------------------------
// LoadData 2D: fractals from L1 (or GM) into L0A / L0B (or L1), optionally transposed
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void cube_load2d(const TensorRef& dst, const TensorRef* src, const void* gm, uint32_t esize,
                                const LoadData2DParams& p, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("LoadData", loc);
    if (p.addrMode != 0) {
        fail("UNSUPPORTED", "LoadData", loc, "LoadData2DParams.addrMode = %u (decrementing addresses) is not emulated",
             p.addrMode);
    }
    if (p.repeatTimes == 0) return;
    const uint32_t dst_mask = hw_bit(Hardware::L0A) | hw_bit(Hardware::L0B) | (src ? 0u : hw_bit(Hardware::L1));
    LocalView d = view_raw(dst, "LoadData", "dst (LocalTensor)", loc, ONE_BLK_SIZE, dst_mask);
    if (d.blk->hw != Hardware::L1) {
        const uint64_t rel = static_cast<uint64_t>(d.blk->addr) + dst.off - c.hw_base[static_cast<int>(d.blk->hw)];
        if (rel % kFractal != 0) {
            fail("ADDR_ALIGN", "LoadData", loc,
                 "dst starts at %s byte address %llu, which is not 512-byte aligned (L0A/L0B hold whole fractals)",
                 hw_name(d.blk->hw), static_cast<unsigned long long>(rel));
        }
    }
    if (p.ifTranspose && esize != 2) {
        fail("BAD_PARAM", "LoadData", loc,
             "LoadData2DParams.ifTranspose needs a 16-bit element type (half / bfloat16_t); %u-byte elements need "
             "LoadDataWithTranspose",
             esize);
    }
    const uint64_t dst_extent = (static_cast<uint64_t>(p.repeatTimes - 1) * (1u + p.dstGap) + 1) * kFractal;
    need(d, dst_extent, "LoadData", "dst (LocalTensor)", loc);
    LocalView s{};
    const uint8_t* sbase = nullptr;
    const uint64_t src_extent = (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * kFractal;
    if (src) {
        s = view_raw(*src, "LoadData", "src (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
        need(s, src_extent, "LoadData", "src (LocalTensor)", loc);
        sbase = s.data;
    } else {
        sbase = static_cast<const uint8_t*>(gm);
    }
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t so = (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(r) * p.srcStride) * kFractal;
        const uint64_t dof = static_cast<uint64_t>(r) * (1u + p.dstGap) * kFractal;
        const uint8_t* sp = sbase + so;
        if (!src) {
            check_gm(sp, kFractal, false, "LoadData", loc);
            l2_touch(sp, kFractal);
        }
        const uint8_t* ssh = src ? s.shadow + so : nullptr;
        if (p.ifTranspose) {  // 16-bit elements (checked above): a 16 x 16 transpose
            uint16_t out[256];
            for (uint32_t i = 0; i < 16; ++i) {
                uint16_t in[16];
                std::memcpy(in, sp + i * 32, 32);
                for (uint32_t j = 0; j < 16; ++j) out[j * 16 + i] = in[j];
            }
            std::memcpy(d.data + dof, out, kFractal);
            // Both shadow bytes of an element take its first source shadow byte (all 1: all written).
            if (!ssh || shadow_all_set(ssh, kFractal)) {
                std::memset(d.shadow + dof, 1, kFractal);
            } else {
                for (uint32_t i = 0; i < 16; ++i) {
                    for (uint32_t j = 0; j < 16; ++j) {
                        const uint16_t v = ssh[(i * 16 + j) * 2];
                        out[j * 16 + i] = static_cast<uint16_t>(v | v << 8);
                    }
                }
                std::memcpy(d.shadow + dof, out, kFractal);
            }
        } else {
            std::memmove(d.data + dof, sp, kFractal);
            if (ssh) {
                std::memmove(d.shadow + dof, ssh, kFractal);
            } else {
                mark_written(d, dof, kFractal);
            }
        }
    }
    const uint64_t bytes = static_cast<uint64_t>(p.repeatTimes) * kFractal;
    if (src) {
        const double bpc = d.blk->hw == Hardware::L0A ? c.soc->mte1_l0a_bpc : c.soc->mte1_l0b_bpc;
        charge(c, Pipe::MTE1, c.soc->mte1_latency + static_cast<uint64_t>(std::ceil(bytes / bpc)), "LoadData", loc,
               {{s.blk, false}, {d.blk, true}});
    } else {
        c.l1_read += bytes;
        charge(c, Pipe::MTE2, l1_load_cycles(c, bytes), "LoadData", loc, {{d.blk, true}});
    }
}

// ------------------------------------------------------------------------------------------
// LoadDataWithTranspose of 1- and 4-byte elements: each repeat merges two consecutive source
// fractals (512 B each) into one 1 KiB square, transposes it and splits it into two fractals
// again. int8/uint8: two 16 x 32 fractals stacked into a 32 x 32 square (rows 0-15, 16-31), split
// by rows. float/int32/uint32: two 16 x 8 fractals side by side in a 16 x 16 square (columns 0-7,
// 8-15), split by columns. srcStride counts squares (1 KiB; startIndex too); the repeat's first
// destination fractal follows the previous one's first after dstGap fractals, its second after
// the first by dstFracGap (Ascend C API reference, LoadDataWithTranspose).
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void cube_load2d_transpose_pairs(const TensorRef& dst, const TensorRef& src, uint32_t esize,
                                                const LoadData2dTransposeParams& p, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("LoadDataWithTranspose", loc);
    if (esize != 1 && esize != 4) {
        fail("BAD_PARAM", "LoadDataWithTranspose", loc, "%u-byte elements do not merge fractal pairs", esize);
    }
    if (p.addrMode != 0) {
        fail("UNSUPPORTED", "LoadDataWithTranspose", loc,
             "LoadData2dTransposeParams.addrMode = %u (decrementing addresses) is not emulated", p.addrMode);
    }
    if (p.repeatTimes == 0) return;
    constexpr uint64_t kSquare = 2 * kFractal;
    LocalView d = view_raw(dst, "LoadDataWithTranspose", "dst (LocalTensor)", loc, ONE_BLK_SIZE,
                           hw_bit(Hardware::L0A) | hw_bit(Hardware::L0B));
    const uint64_t rel = static_cast<uint64_t>(d.blk->addr) + dst.off - c.hw_base[static_cast<int>(d.blk->hw)];
    if (rel % kFractal != 0) {
        fail("ADDR_ALIGN", "LoadDataWithTranspose", loc,
             "dst starts at %s byte address %llu, which is not 512-byte aligned (L0A/L0B hold whole fractals)",
             hw_name(d.blk->hw), static_cast<unsigned long long>(rel));
    }
    const uint64_t step = (1u + static_cast<uint64_t>(p.dstGap)) * kFractal;
    const uint64_t second = (1u + static_cast<uint64_t>(p.dstFracGap)) * kFractal;
    need(d, static_cast<uint64_t>(p.repeatTimes - 1) * step + second + kFractal, "LoadDataWithTranspose",
         "dst (LocalTensor)", loc);
    LocalView s = view_raw(src, "LoadDataWithTranspose", "src (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
    need(s, (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(p.repeatTimes - 1) * p.srcStride + 1) * kSquare,
         "LoadDataWithTranspose", "src (LocalTensor)", loc);
    // Square element (i, j) -> byte offset in the source pair / destination pair (dst: the second
    // fractal's offset is `second`, not 512).
    const uint32_t n = esize == 1 ? 32u : 16u;  // square side in elements
    auto src_at = [&](uint32_t i, uint32_t j) -> uint64_t {
        return esize == 1 ? (i / 16) * kFractal + (i % 16) * 32 + j : (j / 8) * kFractal + i * 32 + (j % 8) * 4;
    };
    auto dst_at = [&](uint32_t i, uint32_t j) -> uint64_t {
        return esize == 1 ? (i / 16) * second + (i % 16) * 32 + j : (j / 8) * second + i * 32 + (j % 8) * 4;
    };
    uint8_t data[kSquare], shadow[kSquare];
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t so = (static_cast<uint64_t>(p.startIndex) + static_cast<uint64_t>(r) * p.srcStride) * kSquare;
        const uint64_t dof = static_cast<uint64_t>(r) * step;
        std::memcpy(data, s.data + so, kSquare);  // the source and destination may not overlap, copies do
        std::memcpy(shadow, s.shadow + so, kSquare);
        for (uint32_t i = 0; i < n; ++i) {
            for (uint32_t j = 0; j < n; ++j) {  // destination (i, j) = source (j, i)
                const uint64_t from = src_at(j, i), to = dof + dst_at(i, j);
                std::memcpy(d.data + to, data + from, esize);
                std::memcpy(d.shadow + to, shadow + from, esize);
            }
        }
    }
    const uint64_t bytes = static_cast<uint64_t>(p.repeatTimes) * kSquare;
    const double bpc = d.blk->hw == Hardware::L0A ? c.soc->mte1_l0a_bpc : c.soc->mte1_l0b_bpc;
    charge(c, Pipe::MTE1, c.soc->mte1_latency + static_cast<uint64_t>(std::ceil(bytes / bpc)), "LoadDataWithTranspose",
           loc, {{s.blk, false}, {d.blk, true}});
}

// ------------------------------------------------------------------------------------------
// Load3D v2: img2col of an L1 feature map (C1 x l1H x l1W x C0) into L0A (Zz). Row m of the
// result is output position mStartPt + m (row-major over the output H x W); column k is
// kStartPt + k in (c1, kh, kw, c0) order (the FRACTAL_Z K order of conv weights).
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API void cube_load3d(const TensorRef& dst, const TensorRef& src, uint32_t esize, const Load3DArgs& a,
                                const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("LoadData", loc);
    if (a.transpose) {
        fail("UNSUPPORTED", "LoadData", loc, "LoadData3DParamsV2.enTranspose (Load3D into L0B) is not emulated");
    }
    if (a.mExtension == 0 || a.kExtension == 0) return;
    if (a.strideW == 0 || a.strideH == 0 || a.filterW == 0 || a.filterH == 0 || a.dilW == 0 || a.dilH == 0) {
        fail("BAD_PARAM", "LoadData", loc,
             "LoadData3DParamsV2 stride %u x %u, filter %u x %u, dilation %u x %u: each must be at least 1", a.strideW,
             a.strideH, a.filterW, a.filterH, a.dilW, a.dilH);
    }
    const uint32_t c0 = ONE_BLK_SIZE / esize;
    LocalView d = view_raw(dst, "LoadData", "dst (LocalTensor)", loc, kFractal, hw_bit(Hardware::L0A));
    LocalView s = view_raw(src, "LoadData", "src (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
    const uint32_t c1n = (a.channelSize + c0 - 1) / c0;
    need(s, static_cast<uint64_t>(c1n) * a.l1H * a.l1W * c0 * esize, "LoadData", "src (LocalTensor)", loc);
    const int64_t effW = static_cast<int64_t>(a.dilW) * (a.filterW - 1) + 1, effH = static_cast<int64_t>(a.dilH) * (a.filterH - 1) + 1;
    const int64_t wout = (static_cast<int64_t>(a.l1W) + a.pad[0] + a.pad[1] - effW) / a.strideW + 1;
    const int64_t hout = (static_cast<int64_t>(a.l1H) + a.pad[2] + a.pad[3] - effH) / a.strideH + 1;
    if (wout <= 0 || hout <= 0) {
        fail("BAD_PARAM", "LoadData", loc, "LoadData3DParamsV2 gives an empty output (%lld x %lld)",
             static_cast<long long>(hout), static_cast<long long>(wout));
    }
    const uint32_t ktotal = c1n * a.filterH * a.filterW * c0;
    if (a.kStartPt + a.kExtension > ktotal) {
        fail("BAD_PARAM", "LoadData", loc, "kStartPt + kExtension = %u exceeds C1 * filterH * filterW * C0 = %u",
             a.kStartPt + a.kExtension, ktotal);
    }
    const uint32_t m16 = (a.mExtension + 15) / 16 * 16, k1 = (a.kExtension + c0 - 1) / c0;
    need(d, static_cast<uint64_t>(m16) * k1 * c0 * esize, "LoadData", "dst (LocalTensor)", loc);
    bool uninit = false;
    for (uint32_t m = 0; m < a.mExtension; ++m) {
        const int64_t pos = static_cast<int64_t>(a.mStartPt) + m;
        const int64_t ho = pos / wout, wo = pos % wout;
        for (uint32_t k = 0; k < a.kExtension; ++k) {
            const uint32_t kk = a.kStartPt + k;
            const uint32_t cb = kk / (a.filterH * a.filterW * c0), r = kk % (a.filterH * a.filterW * c0);
            const uint32_t kh = (r / c0) / a.filterW, kw = (r / c0) % a.filterW, cc = r % c0;
            const int64_t ih = ho * a.strideH - static_cast<int64_t>(a.pad[2]) + static_cast<int64_t>(kh) * a.dilH;
            const int64_t iw = wo * a.strideW - static_cast<int64_t>(a.pad[0]) + static_cast<int64_t>(kw) * a.dilW;
            const uint64_t doff = ((static_cast<uint64_t>(m / 16) * k1 + k / c0) * 16 * c0 + (m % 16) * c0 + k % c0) * esize;
            if (ho >= hout || ih < 0 || iw < 0 || ih >= a.l1H || iw >= a.l1W) {
                std::memcpy(d.data + doff, a.padValue, esize);
            } else {
                const uint64_t soff = (((static_cast<uint64_t>(cb) * a.l1H + ih) * a.l1W + iw) * c0 + cc) * esize;
                if (!s.shadow[soff]) uninit = true;
                std::memcpy(d.data + doff, s.data + soff, esize);
            }
            std::memset(d.shadow + doff, 1, esize);
        }
    }
    if (uninit) {
        warn("UNINIT_READ", "LoadData", loc, "Load3D reads feature-map elements in L1 that were never written");
    }
    const uint64_t bytes = static_cast<uint64_t>(m16) * k1 * c0 * esize;
    charge(c, Pipe::MTE1, c.soc->mte1_latency + static_cast<uint64_t>(std::ceil(bytes / c.soc->mte1_l0a_bpc)),
           "LoadData(3D)", loc, {{s.blk, false}, {d.blk, true}});
}

// ------------------------------------------------------------------------------------------
// Multiply kernels behind Mmad and the Matmul API (cube_gemm_f32 / cube_gemm_i32).
//
// Accumulation order (bit-for-bit what the element-by-element loop gave): every output element
// starts from its initial value in C (the old L0C value, the bias, or 0) and adds the products
// A[i, kk] * B[kk, j] one at a time in increasing kk, in float (int32 for int8), each product
// and each sum rounded on its own. The kernels vectorise across j (independent outputs) and
// block over rows, so no element's order changes; FMA contraction is off for this region and
// the vector targets below do not include FMA.
//
// Packed operands (built by the callers, zero beyond the valid rows / columns):
//   ap: panels of kRows rows: element (i, kk) at ((i / kRows) * k + kk) * kRows + i % kRows
//   bp: panels of kCols columns: element (kk, j) at ((j / kCols) * k + kk) * kCols + j % kCols
//   c:  element (i, j) at (j / kCols) * cbs + i * ldc + j % kCols: row-major C is cbs = kCols,
//       ldc = row length; L0C's Nz layout is cbs = 16 * 16 * ceil(m / 16), ldc = 16.
// Only the m x n elements of c are read and written.
// ------------------------------------------------------------------------------------------
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#ifndef ASCEND_SIM_GEMM_TILE  // also in cube.h (the declarations the Matmul API uses)
#define ASCEND_SIM_GEMM_TILE
constexpr uint32_t kGemmRows = 4;   // rows of an A panel (divides 16: a tile stays in one L0C fractal)
constexpr uint32_t kGemmCols = 16;  // columns of a B panel (one L0C fractal row)
#endif
namespace mmk {
constexpr uint32_t kRows = kGemmRows;
constexpr uint32_t kCols = kGemmCols;
static_assert(16 % kRows == 0 && kCols == 16, "tiles must line up with L0C's 16 x 16 fractals");

typedef float vf8 __attribute__((vector_size(32)));
typedef uint32_t vu8 __attribute__((vector_size(32)));  // int32 sums wrap like the int64 sum truncated
typedef float vf4x __attribute__((vector_size(16)));
typedef uint32_t vu4x __attribute__((vector_size(16)));

template <typename V>
struct Lane;
template <>
struct Lane<vf8> {
    using S = float;
};
template <>
struct Lane<vu8> {
    using S = uint32_t;
};
template <>
struct Lane<vf4x> {
    using S = float;
};
template <>
struct Lane<vu4x> {
    using S = uint32_t;
};

// Rows [r0, r0 + NR) of one kRows x kCols tile: c (row stride ldc) += ap-panel x bp-panel over k,
// with NR x (kCols / lanes) accumulator vectors.
template <typename V, uint32_t NR>
static inline __attribute__((always_inline)) void tile_rows(const typename Lane<V>::S* __restrict ap,
                                                            const typename Lane<V>::S* __restrict bp, uint32_t k,
                                                            typename Lane<V>::S* c, size_t ldc, uint32_t r0) {
    using S = typename Lane<V>::S;
    constexpr uint32_t L = sizeof(V) / sizeof(S), NV = kCols / L;
    V acc[NR][NV];
    for (uint32_t r = 0; r < NR; ++r) {
        for (uint32_t v = 0; v < NV; ++v) std::memcpy(&acc[r][v], c + (r0 + r) * ldc + v * L, sizeof(V));
    }
    for (uint32_t kk = 0; kk < k; ++kk) {
        V b[NV];
        for (uint32_t v = 0; v < NV; ++v) std::memcpy(&b[v], bp + static_cast<size_t>(kk) * kCols + v * L, sizeof(V));
        const S* a = ap + static_cast<size_t>(kk) * kRows + r0;
#pragma GCC unroll 4
        for (uint32_t r = 0; r < NR; ++r) {
#pragma GCC unroll 4
            for (uint32_t v = 0; v < NV; ++v) {
                const V prod = a[r] * b[v];     // the product, rounded
                acc[r][v] = acc[r][v] + prod;  // then the sum, rounded
            }
        }
    }
    for (uint32_t r = 0; r < NR; ++r) {
        for (uint32_t v = 0; v < NV; ++v) std::memcpy(c + (r0 + r) * ldc + v * L, &acc[r][v], sizeof(V));
    }
}

// One kRows x kCols tile, in passes of NR rows (8 accumulator vectors either way: 4 rows of two
// 8-lane vectors with AVX2, 2 rows of four 4-lane vectors with SSE2's 16 registers).
template <typename V>
static inline __attribute__((always_inline)) void tile(const typename Lane<V>::S* __restrict ap,
                                                       const typename Lane<V>::S* __restrict bp, uint32_t k,
                                                       typename Lane<V>::S* c, size_t ldc) {
    constexpr uint32_t NR = sizeof(V) == 32 ? kRows : 2;
    for (uint32_t r0 = 0; r0 < kRows; r0 += NR) tile_rows<V, NR>(ap, bp, k, c, ldc, r0);
}

template <typename V>
static inline __attribute__((always_inline)) void gemm(const typename Lane<V>::S* ap, const typename Lane<V>::S* bp,
                                                       typename Lane<V>::S* c, uint32_t m, uint32_t n, uint32_t k,
                                                       size_t ldc, size_t cbs) {
    using S = typename Lane<V>::S;
    const uint32_t nb = (n + kCols - 1) / kCols, mb = (m + kRows - 1) / kRows;
    for (uint32_t cb = 0; cb < nb; ++cb) {  // one B panel (k x 16) stays in L1 over all rows
        const S* bpan = bp + static_cast<size_t>(cb) * k * kCols;
        const uint32_t nv = std::min<uint32_t>(kCols, n - cb * kCols);
        for (uint32_t rb = 0; rb < mb; ++rb) {
            const S* apan = ap + static_cast<size_t>(rb) * k * kRows;
            S* ct = c + static_cast<size_t>(cb) * cbs + static_cast<size_t>(rb) * kRows * ldc;
            const uint32_t mv = std::min<uint32_t>(kRows, m - rb * kRows);
            if (mv == kRows && nv == kCols) {
                tile<V>(apan, bpan, k, ct, ldc);
                continue;
            }
            // Edge tile: through a scratch tile, so that nothing outside m x n is touched.
            alignas(32) S tmp[kRows * kCols] = {};
            for (uint32_t r = 0; r < mv; ++r) std::memcpy(tmp + r * kCols, ct + r * ldc, nv * sizeof(S));
            tile<V>(apan, bpan, k, tmp, kCols);
            for (uint32_t r = 0; r < mv; ++r) std::memcpy(ct + r * ldc, tmp + r * kCols, nv * sizeof(S));
        }
    }
}

__attribute__((target("avx2"))) static void gemm_f32_avx2(const float* ap, const float* bp, float* c, uint32_t m,
                                                          uint32_t n, uint32_t k, size_t ldc, size_t cbs) {
    gemm<vf8>(ap, bp, c, m, n, k, ldc, cbs);
}
static void gemm_f32_base(const float* ap, const float* bp, float* c, uint32_t m, uint32_t n, uint32_t k, size_t ldc,
                          size_t cbs) {
    gemm<vf4x>(ap, bp, c, m, n, k, ldc, cbs);
}
__attribute__((target("avx2"))) static void gemm_u32_avx2(const uint32_t* ap, const uint32_t* bp, uint32_t* c,
                                                          uint32_t m, uint32_t n, uint32_t k, size_t ldc, size_t cbs) {
    gemm<vu8>(ap, bp, c, m, n, k, ldc, cbs);
}
static void gemm_u32_base(const uint32_t* ap, const uint32_t* bp, uint32_t* c, uint32_t m, uint32_t n, uint32_t k,
                          size_t ldc, size_t cbs) {
    gemm<vu4x>(ap, bp, c, m, n, k, ldc, cbs);
}
// AVX2 where the CPU has it; ASCEND_SIM_CUBE_SIMD=base forces the SSE2 build (same results: the
// same IEEE operations per element; the tests compare the two).
static inline bool use_avx2() {
    static const bool yes = [] {
        const char* e = std::getenv("ASCEND_SIM_CUBE_SIMD");
        if (e && std::strcmp(e, "base") == 0) return false;
        return __builtin_cpu_supports("avx2") != 0;
    }();
    return yes;
}
}  // namespace mmk
#pragma GCC pop_options

ASCEND_SIM_API void cube_gemm_f32(const float* ap, const float* bp, float* c, uint32_t m, uint32_t n, uint32_t k,
                                  size_t ldc, size_t cbs) {
    if (m == 0 || n == 0) return;
    if (mmk::use_avx2()) {
        mmk::gemm_f32_avx2(ap, bp, c, m, n, k, ldc, cbs);
    } else {
        mmk::gemm_f32_base(ap, bp, c, m, n, k, ldc, cbs);
    }
}

ASCEND_SIM_API void cube_gemm_i32(const int32_t* ap, const int32_t* bp, int32_t* c, uint32_t m, uint32_t n, uint32_t k,
                                  size_t ldc, size_t cbs) {
    if (m == 0 || n == 0) return;
    // Two's-complement wrap-around: the same bits as summing in int64 and truncating to int32.
    const auto* a = reinterpret_cast<const uint32_t*>(ap);
    const auto* b = reinterpret_cast<const uint32_t*>(bp);
    auto* cc = reinterpret_cast<uint32_t*>(c);
    if (mmk::use_avx2()) {
        mmk::gemm_u32_avx2(a, b, cc, m, n, k, ldc, cbs);
    } else {
        mmk::gemm_u32_base(a, b, cc, m, n, k, ldc, cbs);
    }
}

// ------------------------------------------------------------------------------------------
// Mmad: C (L0C, Nz) = [C or 0 or bias] + A (L0A, Zz) x B (L0B, Zn)
// ------------------------------------------------------------------------------------------
// Per-thread scratch buffers (a core runs on one thread; no allocation per Mmad): slots 0 and 1
// for Mmad's packed operands, 2..5 for the Matmul API's blocks (lib/matmul_intf.h).
ASCEND_SIM_API void* cube_scratch(int slot, size_t bytes, bool zero) {
    static thread_local std::vector<uint64_t> buf[6];
    std::vector<uint64_t>& b = buf[slot];
    if (b.size() * 8 < bytes) b.resize((bytes + 7) / 8);
    if (zero && bytes) std::memset(b.data(), 0, bytes);
    return b.data();
}

namespace mmk {
// The value of one L0A / L0B element as the cube reads it (load_as_float, and for the int8 path
// its integer value), one converter per type so that the packing loops inline it.
typedef uint16_t vh4 __attribute__((vector_size(8)));
typedef uint32_t vw4 __attribute__((vector_size(16)));
typedef int32_t vi4 __attribute__((vector_size(16)));
typedef float vf4 __attribute__((vector_size(16)));
struct CvF16 {
    static constexpr bool kRow16 = true;
    static float get(const uint8_t* p) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return half_bits_to_float(v);
    }
    // 16 halves, 4 lanes at a time: half_bits_to_float's bit operations lane by lane (same results).
    static void row16(const uint8_t* p, float* out) {
        for (int q = 0; q < 4; ++q) {
            vh4 h;
            std::memcpy(&h, p + q * 8, sizeof h);
            const vw4 x = __builtin_convertvector(h, vw4);
            const vw4 em = x & 0x7fffu;
            const vw4 sign = (x & 0x8000u) << 16;
            const vw4 e13 = em << 13;
            vf4 mag;
            std::memcpy(&mag, &e13, sizeof mag);
            mag = mag * 5.192296858534828e+33f;  // 2^112, as half_bits_to_float
            vw4 magb;
            std::memcpy(&magb, &mag, sizeof magb);
            const vw4 special = 0x7f800000u | ((em & 0x3ffu) << 13);  // inf / nan, payload kept
            const vw4 big = (vw4)((vi4)em > 0x7bff);  // all-ones lanes where em >= 0x7c00 (em < 2^15)
            const vw4 r = (special & big) | (magb & ~big) | sign;
            std::memcpy(out + q * 4, &r, sizeof r);
        }
    }
};
struct CvBF16 {
    static constexpr bool kRow16 = true;
    static float get(const uint8_t* p) {
        uint16_t v;
        std::memcpy(&v, p, 2);
        return bf16_bits_to_float(v);
    }
    static void row16(const uint8_t* p, float* out) {
        for (int q = 0; q < 4; ++q) {
            vh4 h;
            std::memcpy(&h, p + q * 8, sizeof h);
            const vw4 r = __builtin_convertvector(h, vw4) << 16;
            std::memcpy(out + q * 4, &r, sizeof r);
        }
    }
};
struct CvScalar {
    static constexpr bool kRow16 = false;
    static void row16(const uint8_t*, float*) {}
};
struct CvF32 : CvScalar {
    static float get(const uint8_t* p) {
        float v;
        std::memcpy(&v, p, 4);
        return v;
    }
};
struct CvI8 : CvScalar {
    static float get(const uint8_t* p) { return static_cast<float>(*reinterpret_cast<const int8_t*>(p)); }
};
struct CvU8 : CvScalar {
    static float get(const uint8_t* p) { return static_cast<float>(*p); }
};
template <DType D>
struct CvAny : CvScalar {
    static float get(const uint8_t* p) { return load_as_float(p, D); }
};
template <typename S, typename Cv>
inline S elem(const uint8_t* p) {
    if (std::is_same<S, float>::value) return static_cast<S>(Cv::get(p));
    return static_cast<S>(static_cast<int64_t>(static_cast<double>(Cv::get(p))));  // the int8 path
}
// One fractal row: cnt elements (C0 at most, 32 bytes) into out[0, cnt).
template <typename S, typename Cv>
inline void convert_row(const uint8_t* src, uint32_t cnt, uint32_t esz, S* out) {
    if (std::is_same<S, float>::value && Cv::kRow16 && cnt == 16) {
        Cv::row16(src, reinterpret_cast<float*>(out));
        return;
    }
    for (uint32_t e = 0; e < cnt; ++e) out[e] = elem<S, Cv>(src + e * esz);
}

// Whether an element among `rows` rows (`stride` bytes apart) of `cnt` elements was never
// written: its first shadow byte is 0, which is what the element-wise check read. A whole run of
// full rows is first scanned at once (memchr); only a run with a zero byte is looked at closely.
inline bool rows_uninit(const uint8_t* sh, uint32_t rows, uint32_t cnt, uint32_t esz, uint32_t stride) {
    if (cnt * esz == stride && !std::memchr(sh, 0, static_cast<size_t>(rows) * stride)) return false;
    for (uint32_t r = 0; r < rows; ++r) {
        for (uint32_t e = 0; e < cnt; ++e) {
            if (sh[r * stride + e * esz] == 0) return true;
        }
    }
    return false;
}

// 4 x 4 transpose of 32-bit lanes (moves only): rows r[0..3] -> columns.
template <typename S>
inline void transpose4(const S* r0, const S* r1, const S* r2, const S* r3, S* out, size_t out_stride) {
    typedef S v4 __attribute__((vector_size(16)));
    typedef int32_t m4 __attribute__((vector_size(16)));
    v4 a, b, c, d;
    std::memcpy(&a, r0, 16);
    std::memcpy(&b, r1, 16);
    std::memcpy(&c, r2, 16);
    std::memcpy(&d, r3, 16);
    const v4 t0 = __builtin_shuffle(a, b, m4{0, 4, 1, 5}), t1 = __builtin_shuffle(a, b, m4{2, 6, 3, 7});
    const v4 t2 = __builtin_shuffle(c, d, m4{0, 4, 1, 5}), t3 = __builtin_shuffle(c, d, m4{2, 6, 3, 7});
    const v4 o0 = __builtin_shuffle(t0, t2, m4{0, 1, 4, 5}), o1 = __builtin_shuffle(t0, t2, m4{2, 3, 6, 7});
    const v4 o2 = __builtin_shuffle(t1, t3, m4{0, 1, 4, 5}), o3 = __builtin_shuffle(t1, t3, m4{2, 3, 6, 7});
    std::memcpy(out, &o0, 16);
    std::memcpy(out + out_stride, &o1, 16);
    std::memcpy(out + 2 * out_stride, &o2, 16);
    std::memcpy(out + 3 * out_stride, &o3, 16);
}

// A (m x k, Zz in L0A: fractal (i / 16, kk / C0), 16 rows of C0 inside) into row panels;
// returns whether an element inside m x k was never written.
template <typename S, typename Cv>
inline bool pack_a_t(const LocalView& va, uint32_t esz, uint32_t m, uint32_t k, uint32_t k1, S* ap) {
    static_assert(kRows == 4, "the fast path transposes 4 x 4 blocks");
    const uint32_t c0 = ONE_BLK_SIZE / esz;
    bool uninit = false;
    for (uint32_t ib = 0; ib * 16 < m; ++ib) {
        const uint32_t rv = std::min<uint32_t>(16, m - ib * 16);
        for (uint32_t kf = 0; kf * c0 < k; ++kf) {
            const uint32_t cnt = std::min(c0, k - kf * c0);
            const uint64_t off = (static_cast<uint64_t>(ib) * k1 + kf) * kFractal;
            if (!uninit) uninit = rows_uninit(va.shadow + off, rv, cnt, esz, ONE_BLK_SIZE);
            for (uint32_t r0 = 0; r0 < rv; r0 += kRows) {
                const uint32_t i0 = ib * 16 + r0;  // first row of a panel
                S* d = ap + (static_cast<size_t>(i0 / kRows) * k + kf * c0) * kRows;
                S vals[kRows][32];
                const uint32_t rn = std::min(kRows, rv - r0);
                for (uint32_t r = 0; r < rn; ++r) {
                    convert_row<S, Cv>(va.data + off + (r0 + r) * ONE_BLK_SIZE, cnt, esz, vals[r]);
                }
                uint32_t e = 0;
                if (rn == kRows) {
                    for (; e + 4 <= cnt; e += 4) transpose4<S>(vals[0] + e, vals[1] + e, vals[2] + e, vals[3] + e, d + e * kRows, 4);
                }
                for (; e < cnt; ++e) {
                    for (uint32_t r = 0; r < rn; ++r) d[static_cast<size_t>(e) * kRows + r] = vals[r][e];
                }
            }
        }
    }
    for (uint32_t i = m; i % kRows != 0; ++i) {  // padding rows of the last panel
        S* d = ap + static_cast<size_t>(i / kRows) * k * kRows + i % kRows;
        for (uint32_t kk = 0; kk < k; ++kk) d[static_cast<size_t>(kk) * kRows] = S{};
    }
    return uninit;
}

// B (k x n, Zn in L0B: fractal (kk / C0, j / 16), stored as 16 columns of C0 k-values) into
// column panels; returns whether an element inside k x n was never written.
template <typename S, typename Cv>
inline bool pack_b_t(const LocalView& vb, uint32_t esz, uint32_t k, uint32_t n, uint32_t n1, S* bp) {
    const uint32_t c0 = ONE_BLK_SIZE / esz;
    bool uninit = false;
    for (uint32_t kf = 0; kf * c0 < k; ++kf) {
        const uint32_t cnt = std::min(c0, k - kf * c0);
        for (uint32_t jb = 0; jb < n1; ++jb) {
            const uint32_t cv = std::min<uint32_t>(16, n - jb * 16);
            const uint64_t off = (static_cast<uint64_t>(kf) * n1 + jb) * kFractal;
            if (!uninit) uninit = rows_uninit(vb.shadow + off, cv, cnt, esz, ONE_BLK_SIZE);
            S* d = bp + (static_cast<size_t>(jb) * k + kf * c0) * kCols;
            S vals[16][32];
            for (uint32_t jj = 0; jj < 16; ++jj) {
                if (jj < cv) {
                    convert_row<S, Cv>(vb.data + off + jj * ONE_BLK_SIZE, cnt, esz, vals[jj]);
                } else {  // padding columns of the last panel
                    for (uint32_t e = 0; e < cnt; ++e) vals[jj][e] = S{};
                }
            }
            uint32_t e = 0;
            for (; e + 4 <= cnt; e += 4) {
                for (uint32_t j0 = 0; j0 < 16; j0 += 4) {
                    transpose4<S>(vals[j0] + e, vals[j0 + 1] + e, vals[j0 + 2] + e, vals[j0 + 3] + e,
                                  d + static_cast<size_t>(e) * kCols + j0, kCols);
                }
            }
            for (; e < cnt; ++e) {
                for (uint32_t jj = 0; jj < 16; ++jj) d[static_cast<size_t>(e) * kCols + jj] = vals[jj][e];
            }
        }
    }
    return uninit;
}

template <typename S, bool IsA>
inline bool pack(const LocalView& v, DType t, uint32_t rows, uint32_t k, uint32_t blocks, S* out) {
    const uint32_t esz = dtype_size(t);
#define ASCEND_SIM_PACK(CV) \
    return IsA ? pack_a_t<S, CV>(v, esz, rows, k, blocks, out) : pack_b_t<S, CV>(v, esz, k, rows, blocks, out)
    switch (t) {
        case DType::F16: ASCEND_SIM_PACK(CvF16);
        case DType::BF16: ASCEND_SIM_PACK(CvBF16);
        case DType::F32: ASCEND_SIM_PACK(CvF32);
        case DType::I8: ASCEND_SIM_PACK(CvI8);
        case DType::U8: ASCEND_SIM_PACK(CvU8);
        case DType::I32: ASCEND_SIM_PACK(CvAny<DType::I32>);
        default: ASCEND_SIM_PACK(CvAny<DType::OTHER>);
    }
#undef ASCEND_SIM_PACK
}

// Sets the m x n elements of L0C to their initial value (bias or 0), or, when accumulating, checks
// that they were written (first shadow byte of each, as the element-wise check read it); marks them
// written. Returns whether an accumulated element was not. A full 16 x 16 fractal (1 KiB) is
// checked and marked at once.
template <typename S>
inline bool init_c(const LocalView& vc, uint32_t m, uint32_t n, uint32_t m1, bool accumulate, const LocalView* vbias,
                   DType biast) {
    static_assert(sizeof(S) == 4, "L0C elements are 4 bytes");
    bool uninit = false;
    S row[16];
    const uint32_t n1 = (n + 15) / 16;
    for (uint32_t cb = 0; cb < n1; ++cb) {
        const uint32_t nv = std::min<uint32_t>(16, n - cb * 16);
        if (!accumulate) {
            for (uint32_t jj = 0; jj < nv; ++jj) {
                S v{};
                if (vbias) {
                    const uint64_t j = static_cast<uint64_t>(cb) * 16 + jj;
                    if (std::is_same<S, int32_t>::value) {
                        std::memcpy(&v, vbias->data + j * 4, 4);
                    } else {
                        v = static_cast<S>(load_as_float(vbias->data + j * dtype_size(biast), biast));
                    }
                }
                row[jj] = v;
            }
        }
        for (uint32_t ib = 0; ib < m1; ++ib) {
            const uint32_t rv = std::min<uint32_t>(16, m - ib * 16);
            const uint64_t off = (static_cast<uint64_t>(cb) * m1 + ib) * 256 * 4;  // the fractal's first byte
            if (accumulate) {
                if (rv == 16 && nv == 16 && shadow_all_set(vc.shadow + off, 1024)) continue;  // written, stays so
                if (!uninit) uninit = rows_uninit(vc.shadow + off, rv, nv, 4, 64);
            } else {
                for (uint32_t r = 0; r < rv; ++r) std::memcpy(vc.data + off + r * 64, row, nv * 4);
            }
            if (nv == 16) {
                std::memset(vc.shadow + off, 1, static_cast<size_t>(rv) * 64);
            } else {
                for (uint32_t r = 0; r < rv; ++r) std::memset(vc.shadow + off + r * 64, 1, nv * 4);
            }
        }
    }
    return uninit;
}

// The integer path takes int8 (the only integer Mmad type); others go through float.
template <typename S>
inline void run_gemm(const S* ap, const S* bp, S* c, uint32_t m, uint32_t n, uint32_t k, size_t ldc, size_t cbs);
template <>
inline void run_gemm<float>(const float* ap, const float* bp, float* c, uint32_t m, uint32_t n, uint32_t k,
                            size_t ldc, size_t cbs) {
    cube_gemm_f32(ap, bp, c, m, n, k, ldc, cbs);
}
template <>
inline void run_gemm<int32_t>(const int32_t* ap, const int32_t* bp, int32_t* c, uint32_t m, uint32_t n, uint32_t k,
                              size_t ldc, size_t cbs) {
    cube_gemm_i32(ap, bp, c, m, n, k, ldc, cbs);
}

template <typename S>
inline void mmad_body(const LocalView& vc, const LocalView& va, DType at, const LocalView& vb, DType bt,
                      const LocalView* vbias, DType biast, bool accumulate, const MmadParams& p, uint32_t m1,
                      uint32_t n1, uint32_t k1a, const SrcLoc& loc) {
    S* A = static_cast<S*>(cube_scratch(0, sizeof(S) * ((p.m + kRows - 1) / kRows * kRows) * p.k, false));
    S* B = static_cast<S*>(cube_scratch(1, sizeof(S) * n1 * 16 * p.k, false));
    const bool uninit_a = pack<S, true>(va, at, p.m, p.k, k1a, A);
    const bool uninit_b = pack<S, false>(vb, bt, p.n, p.k, n1, B);
    if (uninit_a) {
        warn("UNINIT_READ", "Mmad", loc,
             "fm (A, L0A) holds elements that were never written (stale L0A/L1 data) inside the m x k = %u x %u "
             "area this Mmad reads",
             p.m, p.k);
    }
    if (uninit_b) {
        warn("UNINIT_READ", "Mmad", loc,
             "filter (B, L0B) holds elements that were never written (stale L0B/L1 data) inside the k x n = %u x %u "
             "area this Mmad reads",
             p.k, p.n);
    }
    const bool uninit_c = init_c<S>(vc, p.m, p.n, m1, accumulate, vbias, biast);
    run_gemm<S>(A, B, reinterpret_cast<S*>(vc.data), p.m, p.n, p.k, 16, static_cast<size_t>(m1) * 256);
    if (uninit_c) {
        warn("UNINIT_READ", "Mmad", loc,
             "accumulating (cmatrixInitVal = false) onto L0C elements that no earlier Mmad wrote: the result adds "
             "stale data");
    }
}
}  // namespace mmk

ASCEND_SIM_API void cube_mmad(const TensorRef& dst, DType ct, const TensorRef& a, DType at, const TensorRef& b,
                              DType bt, const TensorRef* bias, DType biast, const MmadParams& p, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("Mmad", loc);
    if (p.m > 4095 || p.n > 4095 || p.k > 4095) {
        fail("BAD_PARAM", "Mmad", loc, "MmadParams m/n/k = %u/%u/%u; each must be in [0, 4095]", p.m, p.n, p.k);
    }
    if (p.m == 0 || p.n == 0 || p.k == 0) return;
    LocalView vc = view_raw(dst, "Mmad", "dst (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L0C));
    LocalView va = view_raw(a, "Mmad", "fm (LocalTensor, A)", loc, kFractal, hw_bit(Hardware::L0A));
    LocalView vb = view_raw(b, "Mmad", "filter (LocalTensor, B)", loc, kFractal, hw_bit(Hardware::L0B));
    const uint32_t asz = dtype_size(at), bsz = dtype_size(bt), csz = dtype_size(ct);
    const uint32_t c0a = ONE_BLK_SIZE / asz, c0b = ONE_BLK_SIZE / bsz;
    const uint32_t m1 = (p.m + 15) / 16, n1 = (p.n + 15) / 16;
    const uint32_t k1a = (p.k + c0a - 1) / c0a, k1b = (p.k + c0b - 1) / c0b;
    need(va, static_cast<uint64_t>(m1) * k1a * kFractal, "Mmad", "fm (LocalTensor, A)", loc);
    need(vb, static_cast<uint64_t>(k1b) * n1 * kFractal, "Mmad", "filter (LocalTensor, B)", loc);
    need(vc, static_cast<uint64_t>(m1) * n1 * 256 * csz, "Mmad", "dst (LocalTensor)", loc);
    const bool integer = ct == DType::I32;
    const bool from_bias = bias != nullptr;
    LocalView vbias{};
    if (from_bias) {
        vbias = view_raw(*bias, "Mmad", "bias (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::BIAS));
        need(vbias, static_cast<uint64_t>(p.n) * dtype_size(biast), "Mmad", "bias (LocalTensor)", loc);
        check_init(vbias, 0, static_cast<uint64_t>(p.n) * dtype_size(biast), "Mmad", "bias (LocalTensor)", loc);
    }
    const bool accumulate = !from_bias && (!p.cmatrixInitVal || p.isBias);
    // Unpack A and B into panels (checking their shadow), set or check L0C, then multiply-add in
    // place (see "Multiply kernels" above for the order every element keeps).
    if (integer) {
        mmk::mmad_body<int32_t>(vc, va, at, vb, bt, from_bias ? &vbias : nullptr, biast, accumulate, p, m1, n1, k1a,
                                loc);
    } else {
        mmk::mmad_body<float>(vc, va, at, vb, bt, from_bias ? &vbias : nullptr, biast, accumulate, p, m1, n1, k1a,
                              loc);
    }
    // Cost: one 16x16xC0 block per cycle at the type's rate.
    uint64_t macs = static_cast<uint64_t>(m1) * 16 * n1 * 16;
    uint64_t rate = c.soc->cube_macs_f16;
    if (at == DType::F32) {
        macs *= static_cast<uint64_t>(k1a) * c0a;
        rate = c.soc->cube_macs_f16 / c.soc->cube_f32_div;
    } else if (at == DType::I8 || at == DType::U8) {
        macs *= static_cast<uint64_t>(k1a) * c0a;
        rate = c.soc->cube_macs_i8;
    } else {
        macs *= static_cast<uint64_t>(k1a) * c0a;
    }
    const uint64_t cycles = c.soc->mmad_startup + (macs + rate - 1) / rate;
    c.cube_macs += static_cast<uint64_t>(p.m) * p.n * p.k;
    charge(c, Pipe::M, cycles, "Mmad", loc,
           {{va.blk, false}, {vb.blk, false}, {vc.blk, true}, {from_bias ? vbias.blk : nullptr, false}});
}

// ------------------------------------------------------------------------------------------
// Fixpipe: L0C (Nz, float / int32) -> GM (ND or NZ) with conversion, quantisation and ReLU
// ------------------------------------------------------------------------------------------
ASCEND_SIM_API const char* quant_name(QuantMode_t q) {
    switch (q) {
        case QuantMode_t::NoQuant: return "NoQuant";
        case QuantMode_t::F322F16: return "F322F16";
        case QuantMode_t::F322BF16: return "F322BF16";
        case QuantMode_t::DEQF16: return "DEQF16";
        case QuantMode_t::VDEQF16: return "VDEQF16";
        case QuantMode_t::QF322B8_PRE: return "QF322B8_PRE";
        case QuantMode_t::VQF322B8_PRE: return "VQF322B8_PRE";
        case QuantMode_t::REQ8: return "REQ8";
        case QuantMode_t::VREQ8: return "VREQ8";
    }
    return "?";
}

static inline float scale_bits(uint64_t v) {
    const uint32_t lo = static_cast<uint32_t>(v & 0xffffffffu);
    float f;
    std::memcpy(&f, &lo, 4);
    return f;
}

ASCEND_SIM_API void cube_fixpipe(void* gm, const TensorRef* ldst, DType dt, const TensorRef& src, DType st,
                                 const TensorRef* quant, const FixpipeParamsV220& p, CO2Layout layout,
                                 const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("Fixpipe", loc);
    if (!c.soc->split_arch) {
        fail("UNSUPPORTED", "Fixpipe", loc,
             "%s has no Fixpipe: L0C results go to the Unified Buffer (TPosition::CO2) with DataCopy and "
             "DataCopyEnhancedParams{BLOCK_MODE_MATRIX}, which ascend_sim does not emulate yet",
             c.soc->name);
    }
    if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;
    LocalView s = view_raw(src, "Fixpipe", "src (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L0C));
    // Which (src, dst, quantPre) combinations are valid.
    const QuantMode_t q = p.quantPre;
    bool ok = false;
    const bool vec_scale = q == QuantMode_t::VDEQF16 || q == QuantMode_t::VQF322B8_PRE || q == QuantMode_t::VREQ8;
    if (st == DType::F32) {
        ok = (q == QuantMode_t::NoQuant && dt == DType::F32) || (q == QuantMode_t::F322F16 && dt == DType::F16) ||
             (q == QuantMode_t::F322BF16 && dt == DType::BF16) ||
             ((q == QuantMode_t::QF322B8_PRE || q == QuantMode_t::VQF322B8_PRE) && (dt == DType::I8 || dt == DType::U8));
    } else if (st == DType::I32) {
        ok = (q == QuantMode_t::NoQuant && dt == DType::I32) ||
             ((q == QuantMode_t::DEQF16 || q == QuantMode_t::VDEQF16) && dt == DType::F16) ||
             ((q == QuantMode_t::REQ8 || q == QuantMode_t::VREQ8) && (dt == DType::I8 || dt == DType::U8));
    }
    if (!ok) {
        fail("BAD_PARAM", "Fixpipe", loc,
             "quantPre = QuantMode_t::%s does not convert the %s L0C data to %s (float -> half needs F322F16, "
             "float -> bfloat16_t F322BF16, int32 -> half DEQF16/VDEQF16, same type NoQuant)",
             quant_name(q), dtype_name(st), dtype_name(dt));
    }
    LocalView vq{};
    if (vec_scale) {
        if (!quant) {
            fail("BAD_PARAM", "Fixpipe", loc,
                 "quantPre = QuantMode_t::%s takes a per-channel scale tensor: call Fixpipe(dst, src, cbufWorkspace, "
                 "params)",
                 quant_name(q));
        }
        vq = view_raw(*quant, "Fixpipe", "cbufWorkspace (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
        need(vq, static_cast<uint64_t>(p.nSize) * 8, "Fixpipe", "cbufWorkspace (LocalTensor)", loc);
        check_init(vq, 0, static_cast<uint64_t>(p.nSize) * 8, "Fixpipe", "cbufWorkspace (LocalTensor)", loc);
    }
    const uint32_t ssz = dtype_size(st), dsz = dtype_size(dt);
    const uint32_t n1 = (p.nSize + 15) / 16;
    if (p.srcStride < p.mSize && n1 > 1) {
        fail("BAD_PARAM", "Fixpipe", loc,
             "FixpipeParamsV220.srcStride %u (rows between 16-column blocks of L0C) is smaller than mSize %u",
             p.srcStride, p.mSize);
    }
    // Source extent (elements).
    const uint64_t src_last =
        static_cast<uint64_t>(p.ndNum - 1) * p.srcNdStride * 256 + static_cast<uint64_t>(n1 - 1) * p.srcStride * 16 +
        static_cast<uint64_t>(p.mSize) * 16;
    need(s, src_last * ssz, "Fixpipe", "src (LocalTensor)", loc);
    const float scalar_scale = scale_bits(p.deqScalar);
    LocalView ld{};
    if (ldst) ld = view_raw(*ldst, "Fixpipe", "dst (LocalTensor)", loc, ONE_BLK_SIZE, hw_bit(Hardware::L1));
    uint8_t* g = static_cast<uint8_t*>(gm);
    uint8_t atomic_tmp[8];
    bool uninit = false;
    // GM destination: when every element lands inside one GmAlloc'd buffer, the per-element
    // check_gm below would pass for each, so it is skipped (one range check instead of a lock
    // per element); otherwise each element is checked as before, in the same order.
    bool gm_ok = false;
    if (!ldst) {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
            const uint64_t dbase = static_cast<uint64_t>(nd) * p.dstNdStride;
            for (uint32_t i = 0; i < p.mSize; ++i) {
                for (uint32_t j = 0; j < p.nSize; ++j) {
                    uint64_t di;
                    if (layout == CO2Layout::ROW_MAJOR) {
                        di = dbase + static_cast<uint64_t>(i) * p.dstStride + j;
                    } else if (layout == CO2Layout::COLUMN_MAJOR) {
                        di = dbase + static_cast<uint64_t>(j) * p.dstStride + i;
                    } else {
                        di = dbase + static_cast<uint64_t>(j / 16) * p.dstStride * (ONE_BLK_SIZE / dsz) + i * 16 + j % 16;
                    }
                    lo = std::min(lo, di);
                    hi = std::max(hi, di);
                }
            }
        }
        gm_ok = cube_gm_inside(g + lo * dsz, (hi - lo + 1) * dsz);
    }
    std::vector<uint8_t> row;
    uint64_t out_bytes = 0;
    for (uint32_t nd = 0; nd < p.ndNum; ++nd) {
        const uint64_t sbase = static_cast<uint64_t>(nd) * p.srcNdStride * 256;
        const uint64_t dbase = static_cast<uint64_t>(nd) * p.dstNdStride;
        for (uint32_t i = 0; i < p.mSize; ++i) {
            for (uint32_t j = 0; j < p.nSize; ++j) {
                const uint64_t so = (sbase + static_cast<uint64_t>(j / 16) * p.srcStride * 16 + i * 16 + j % 16) * ssz;
                if (!s.shadow[so]) uninit = true;
                uint64_t di;
                if (layout == CO2Layout::ROW_MAJOR) {
                    di = dbase + static_cast<uint64_t>(i) * p.dstStride + j;
                } else if (layout == CO2Layout::COLUMN_MAJOR) {
                    di = dbase + static_cast<uint64_t>(j) * p.dstStride + i;
                } else {  // NZ: 16-column blocks, dstStride = 32-byte units between blocks
                    di = dbase + static_cast<uint64_t>(j / 16) * p.dstStride * (ONE_BLK_SIZE / dsz) + i * 16 + j % 16;
                }
                uint8_t* out;
                if (ldst) {
                    need(ld, (di + 1) * dsz, "Fixpipe", "dst (LocalTensor)", loc);
                    out = ld.data + di * dsz;
                    std::memset(ld.shadow + di * dsz, 1, dsz);
                } else {
                    out = g + di * dsz;
                    if (!gm_ok) check_gm(out, dsz, true, "Fixpipe", loc);
                    if (c.atomic_op != 0) out = atomic_tmp;  // staged, then combined below
                }
                const uint8_t* in = s.data + so;
                struct Combine {  // SetAtomicAdd/Max/Min: fold the staged value into GM
                    CoreCtx& c;
                    uint8_t* staged;
                    uint8_t* target;
                    DType dt;
                    uint32_t dsz;
                    ~Combine() {
                        if (target) gm_store(c, target, staged, 1, dsz, dt);
                    }
                } combine{c, atomic_tmp, (!ldst && c.atomic_op != 0) ? g + di * dsz : nullptr, dt, dsz};
                if (q == QuantMode_t::NoQuant) {
                    if (st == DType::F32) {
                        float v;
                        std::memcpy(&v, in, 4);
                        if (p.reluEn && v < 0) v = 0;
                        std::memcpy(out, &v, 4);
                        gm_mark(out, 4);
                    } else {
                        int32_t v;
                        std::memcpy(&v, in, 4);
                        if (p.reluEn && v < 0) v = 0;
                        std::memcpy(out, &v, 4);
                        gm_mark(out, 4);
                    }
                    continue;
                }
                float v = load_as_float(in, st);
                if (st == DType::I32) {
                    int32_t iv;
                    std::memcpy(&iv, in, 4);
                    v = static_cast<float>(iv);
                }
                if (q == QuantMode_t::DEQF16 || q == QuantMode_t::REQ8 || q == QuantMode_t::QF322B8_PRE) {
                    v *= scalar_scale;
                } else if (vec_scale) {
                    uint64_t sc;
                    std::memcpy(&sc, vq.data + static_cast<uint64_t>(j) * 8, 8);
                    v *= scale_bits(sc);
                }
                if (p.reluEn && v < 0) v = 0;
                if (dt == DType::F16) {
                    const uint16_t h = float_to_half_bits(v);
                    std::memcpy(out, &h, 2);
                    gm_mark(out, 2);
                } else if (dt == DType::BF16) {
                    const uint16_t h = float_to_bf16_bits(v);
                    std::memcpy(out, &h, 2);
                    gm_mark(out, 2);
                } else if (dt == DType::I8) {
                    const float r = std::nearbyint(v);
                    *reinterpret_cast<int8_t*>(out) = static_cast<int8_t>(std::max(-128.0f, std::min(127.0f, r)));
                } else if (dt == DType::U8) {
                    const float r = std::nearbyint(v);
                    *out = static_cast<uint8_t>(std::max(0.0f, std::min(255.0f, r)));
                }
                if (dt == DType::I8 || dt == DType::U8) gm_mark(out, 1);
            }
        }
        out_bytes += static_cast<uint64_t>(p.mSize) * p.nSize * dsz;
    }
    if (uninit) {
        warn("UNINIT_READ", "Fixpipe", loc,
             "Fixpipe reads L0C elements (inside mSize x nSize = %u x %u) that no Mmad wrote: check mSize/nSize/"
             "srcStride against the Mmad's m/n",
             p.mSize, p.nSize);
    }
    const uint64_t cycles = c.soc->fix_latency + static_cast<uint64_t>(std::ceil(out_bytes / c.fix_gm_bpc));
    if (!ldst) c.gm_write += out_bytes;
    charge(c, Pipe::FIX, cycles, "Fixpipe", loc,
           {{s.blk, false}, {vec_scale ? vq.blk : nullptr, false}, {ldst ? ld.blk : nullptr, true}});
}

// InitConstValue / Fill: fill repeatTimes x blockNum blocks (dstGap blocks skipped between
// repeats) of L1 / L0A / L0B with a value. A block is 32 bytes in L1 and one 512-byte fractal in
// L0A / L0B; repeatTimes or blockNum 0 is a NOP; L1 fills run on MTE2, L0 fills on MTE1 (ASC
// "矩阵计算（ISASI）/矩阵搬入辅助配置接口/Fill.md", Atlas A2 column).
ASCEND_SIM_API void cube_init_const(const TensorRef& dst, uint32_t esize, const void* value, uint32_t repeat,
                                    uint32_t block_num, uint32_t dst_gap, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("InitConstValue", loc);
    LocalView d = view_raw(dst, "InitConstValue", "dst (LocalTensor)", loc, ONE_BLK_SIZE,
                           hw_bit(Hardware::L1) | hw_bit(Hardware::L0A) | hw_bit(Hardware::L0B));
    const bool l1 = d.blk->hw == Hardware::L1;
    if (!l1) {
        const uint64_t rel = static_cast<uint64_t>(d.data - c.ub.data()) - c.hw_base[static_cast<int>(d.blk->hw)];
        if (rel % kFractal != 0) {
            fail("ADDR_ALIGN", "InitConstValue", loc, "dst in %s starts at byte %llu, which is not 512-byte aligned",
                 hw_name(d.blk->hw), static_cast<unsigned long long>(rel));
        }
    }
    if (repeat == 0 || block_num == 0) return;
    const uint64_t blk = l1 ? ONE_BLK_SIZE : kFractal;
    const uint64_t step = (static_cast<uint64_t>(block_num) + dst_gap) * blk;
    need(d, (repeat - 1) * step + block_num * blk, "InitConstValue", "dst (LocalTensor)", loc);
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint64_t o = 0; o < block_num * blk; o += esize) std::memcpy(d.data + r * step + o, value, esize);
        mark_written(d, r * step, block_num * blk);
    }
    const uint64_t bytes = static_cast<uint64_t>(repeat) * block_num * blk;
    charge(c, l1 ? Pipe::MTE2 : Pipe::MTE1,
           c.soc->mte1_latency + static_cast<uint64_t>(std::ceil(bytes / c.soc->mte1_l0a_bpc)), "InitConstValue", loc,
           {{d.blk, true}});
}

// ------------------------------------------------------------------------------------------
// Cross-core flags between the AIC and the two AIVs of one MIX group (mode 2). A flag is a
// counter (at most 15 pending): the AIC's set is seen by both AIVs; the AIC's wait needs a set
// from each AIV. Each set carries the time its pipe reached it, so the waiter's clock follows.
// ------------------------------------------------------------------------------------------
static inline void xc_check(CoreCtx& c, int mode, int flag, const char* api, const SrcLoc& loc) {
    Runtime& r = rt();
    if (!r.mix) {
        fail("UNSUPPORTED", api, loc,
             "%s needs a MIX launch (SetKernelMode(KernelMode::MIX_MODE), 1 AIC + 2 AIV per block); this launch has "
             "only %s cores",
             api, c.is_aic ? "cube (AIC)" : "vector (AIV)");
    }
    if (flag < 0 || flag > 15) fail("BAD_PARAM", api, loc, "flagId %d is outside 0..15", flag);
    if (mode > 2) {
        fail("UNSUPPORTED", api, loc,
             "CrossCore flags with modeId %d are not emulated; modeId 0 (all cores of a kind), 1 (the two AIVs of "
             "a group) and 2 (AIC <-> AIV of one group) are",
             mode);
    }
    if (mode == 1 && c.is_aic) {
        fail("BAD_PARAM", api, loc,
             "modeId 1 synchronises the two AIVs of a group; the AIC (cube core) cannot take part (use modeId 0 "
             "for all AICs or 2 towards the AIVs)");
    }
    if (mode == 0 && r.waves) {
        fail("DEADLOCK", api, loc,
             "CrossCoreSetFlag with modeId 0 and blockDim %d > %d physical cores: blocks run in waves, so the "
             "first wave would wait forever for cores that cannot start",
             r.block_dim, r.phys_cores);
    }
}

// Mode 0 / 1: the set counts once every core of the set is in; then each member's own counter
// goes up, at the time the last one arrived. Called with xc_mu held.
static inline void xc_deliver_m0(Runtime& r, int kind, int flag) {
    auto& m = r.m0[kind][flag];
    const int members = kind == 0 ? r.block_dim : 2 * r.block_dim;
    if (static_cast<int>(m.size()) < members) return;
    uint64_t t = 0;
    for (auto& kv : m)
        if (kv.second.empty()) return;
    for (auto& kv : m) {
        t = std::max(t, kv.second.front());
        kv.second.pop_front();
    }
    for (int b = 0; b < r.block_dim; ++b) {
        Runtime::XFlags& x = r.xc[b];
        if (kind == 0) {  // the AIC's counter: its wait takes one entry from each queue
            x.to_aic[0][flag].push_back(t);
            x.to_aic[1][flag].push_back(t);
        } else {
            x.to_aiv[0][flag].push_back(t);
            x.to_aiv[1][flag].push_back(t);
        }
    }
}

ASCEND_SIM_API void cross_core_set(int mode, int flag, pipe_t pipe, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("CrossCoreSetFlag", loc);
    xc_check(c, mode, flag, "CrossCoreSetFlag", loc);
    Runtime& r = rt();
    Pipe p = Pipe::S;
    pipe_from_builtin(pipe, p);
    c.s_now += c.soc->issue_cycles;
    const uint64_t t = std::max(pipe == PIPE_ALL ? core_end_time(c) : pipe_time(c, p), c.s_now) +
                       c.soc->cross_core_cycles;
    const int b = c.is_aic ? c.block_idx : c.block_idx / 2;
    std::lock_guard<std::mutex> lk(r.xc_mu);
    Runtime::XFlags& x = r.xc[b];
    r.xc_progress++;
    if (mode == 0 || mode == 1) {
        r.xc_m01 = true;
        if (mode == 0) {
            r.m0[c.is_aic ? 0 : 1][flag][c.block_idx].push_back(t);
            xc_deliver_m0(r, c.is_aic ? 0 : 1, flag);
        } else {
            x.m1[c.sub_block_idx][flag].push_back(t);
            auto& a = x.m1[0][flag];
            auto& o = x.m1[1][flag];
            if (!a.empty() && !o.empty()) {
                const uint64_t tt = std::max(a.front(), o.front());
                a.pop_front();
                o.pop_front();
                x.to_aiv[0][flag].push_back(tt);
                x.to_aiv[1][flag].push_back(tt);
            }
        }
        r.xc_cv.notify_all();
        return;
    }
    if (c.is_aic) {
        for (int v = 0; v < 2; ++v) {
            if (x.to_aiv[v][flag].size() >= 15) {
                fail("BAD_PARAM", "CrossCoreSetFlag", loc,
                     "flag %d already has 15 pending sets towards AIV %d that were never waited for (the counter "
                     "saturates at 15)",
                     flag, v);
            }
            x.to_aiv[v][flag].push_back(t);
        }
    } else {
        auto& q = x.to_aic[c.sub_block_idx][flag];
        if (q.size() >= 15) {
            fail("BAD_PARAM", "CrossCoreSetFlag", loc,
                 "flag %d already has 15 pending sets towards the AIC that were never waited for", flag);
        }
        q.push_back(t);
    }
    r.xc_cv.notify_all();
}

ASCEND_SIM_API void cross_core_wait(int mode, int flag, pipe_t pipe, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("CrossCoreWaitFlag", loc);
    (void)mode;  // a wait consumes this core's own counter, whatever mode set it
    xc_check(c, -1, flag, "CrossCoreWaitFlag", loc);
    Runtime& r = rt();
    const int b = c.is_aic ? c.block_idx : c.block_idx / 2;
    std::unique_lock<std::mutex> lk(r.xc_mu);
    uint64_t t = 0;
    r.xc_blocked++;
    bool stalled = false;
    uint64_t stall_mark = 0;
    for (;;) {
        if (r.abort.load()) {
            r.xc_blocked--;
            throw SimAbort{};
        }
        Runtime::XFlags& x = r.xc[b];
        if (c.is_aic) {
            auto& q0 = x.to_aic[0][flag];
            auto& q1 = x.to_aic[1][flag];
            if (!q0.empty() && !q1.empty()) {
                t = std::max(q0.front(), q1.front());
                q0.pop_front();
                q1.pop_front();
                break;
            }
            const bool dead0 = !r.xc_m01 && q0.empty() && r.unit_done[static_cast<size_t>(b * 3 + 1)];
            const bool dead1 = !r.xc_m01 && q1.empty() && r.unit_done[static_cast<size_t>(b * 3 + 2)];
            if (dead0 || dead1) {
                r.xc_blocked--;
                lk.unlock();
                fail("DEADLOCK", "CrossCoreWaitFlag", loc,
                     "the AIC of block %d waits for flag %d, but AIV %d finished the kernel without setting it: this "
                     "core would wait forever",
                     b, flag, dead0 ? 0 : 1);
            }
        } else {
            auto& q = x.to_aiv[c.sub_block_idx][flag];
            if (!q.empty()) {
                t = q.front();
                q.pop_front();
                break;
            }
            if (!r.xc_m01 && r.unit_done[static_cast<size_t>(b * 3)]) {
                r.xc_blocked--;
                lk.unlock();
                fail("DEADLOCK", "CrossCoreWaitFlag", loc,
                     "AIV %d of block %d waits for flag %d, but the block's AIC finished the kernel without setting "
                     "it: this core would wait forever",
                     c.sub_block_idx, b, flag);
            }
        }
        // every running core waits on a flag and nothing moved since the last look: no set can come
        if (r.xc_blocked == r.xc_running) {
            if (stalled && stall_mark == r.xc_progress) {
                r.xc_blocked--;
                lk.unlock();
                fail("DEADLOCK", "CrossCoreWaitFlag", loc,
                     "%s %d waits for flag %d, but every core still running is waiting on a cross-core flag and the "
                     "others finished the kernel: no CrossCoreSetFlag can come (modeId 0 needs a set from every "
                     "core of the kind, 1 from both AIVs of the group, 2 from the AIC / both AIVs)",
                     c.is_aic ? "AIC" : "AIV", c.block_idx, flag);
            }
            stalled = true;
            stall_mark = r.xc_progress;
        } else {
            stalled = false;
        }
        r.xc_cv.wait_for(lk, std::chrono::milliseconds(50));
    }
    r.xc_blocked--;
    lk.unlock();
    Pipe p = Pipe::S;
    pipe_from_builtin(pipe, p);
    c.s_now = std::max(c.s_now, t);
    if (p != Pipe::S) pipe_wait(c, p, t);
}

}  // namespace sim
}  // namespace AscendC

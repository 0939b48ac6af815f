// ascend_sim: the cube unit's public API — DataCopy GM -> L1 with Nd2NzParams, LoadData
// (L1 -> L0A/L0B, 2D, optional transpose), Mmad, Fixpipe (L0C -> GM), InitConstValue, and the
// cross-core flags of mixed kernels. Work is done out of line (cube_impl.h); these templates
// check the dtype combinations at compile time, as the real headers do.
#pragma once

#include "datacopy.h"

namespace AscendC {

namespace sim {
// The cube's multiply kernels (cube_impl.h, "Multiply kernels"), shared with the Matmul API
// (lib/matmul_intf.h): c += packed A x packed B, each element summed in increasing k.
#ifndef ASCEND_SIM_GEMM_TILE  // also in cube_impl.h, which comes first in header-only builds
#define ASCEND_SIM_GEMM_TILE
constexpr uint32_t kGemmRows = 4;   // rows of an A panel (divides 16: a tile stays in one L0C fractal)
constexpr uint32_t kGemmCols = 16;  // columns of a B panel (one L0C fractal row)
#endif
ASCEND_SIM_API void cube_gemm_f32(const float* ap, const float* bp, float* c, uint32_t m, uint32_t n, uint32_t k,
                                  size_t ldc, size_t cbs);
ASCEND_SIM_API void cube_gemm_i32(const int32_t* ap, const int32_t* bp, int32_t* c, uint32_t m, uint32_t n, uint32_t k,
                                  size_t ldc, size_t cbs);
// Whether [p, p + bytes) lies inside one GmAlloc'd buffer (no tail slack).
ASCEND_SIM_API bool cube_gm_inside(const void* p, uint64_t bytes);
// A per-thread scratch buffer of at least `bytes` (slots 0..5; zeroed if asked), valid until the
// next call for the same slot on this thread.
ASCEND_SIM_API void* cube_scratch(int slot, size_t bytes, bool zero);
}  // namespace sim

// ---- GM -> L1 (A1 / B1 / C1), ND -> NZ ----
template <typename T>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& intriParams,
                                ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, int8_t, uint8_t, half, bfloat16_t, float, int32_t, uint32_t, int16_t, uint16_t>::value,
                  "Failed to check dtype in DataCopy (Nd2Nz), current api support dtype is int8_t / uint8_t / half / "
                  "bfloat16_t / float / int32_t / uint32_t / int16_t / uint16_t");
    sim::cube_nd2nz(sim::ref_of(dst), src.GetPhyAddr(), sizeof(T), intriParams, loc);
}

// ---- LoadData 2D: L1 -> L0A / L0B (and GM -> L0A / L0B / L1) ----
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData2DParams& loadDataParams, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, int8_t, uint8_t, half, bfloat16_t, float, int32_t, uint32_t, int16_t, uint16_t>::value,
                  "Failed to check dtype in LoadData, current api support dtype is int8_t / uint8_t / half / "
                  "bfloat16_t / float / int32_t / uint32_t / int16_t / uint16_t");
    const sim::TensorRef s = sim::ref_of(src);
    sim::cube_load2d(sim::ref_of(dst), &s, nullptr, sizeof(T), loadDataParams, loc);
}
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                                const LoadData2DParams& loadDataParams, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, int8_t, uint8_t, half, bfloat16_t, float, int32_t, uint32_t, int16_t, uint16_t>::value,
                  "Failed to check dtype in LoadData, current api support dtype is int8_t / uint8_t / half / "
                  "bfloat16_t / float / int32_t / uint32_t / int16_t / uint16_t");
    sim::cube_load2d(sim::ref_of(dst), nullptr, src.GetPhyAddr(), sizeof(T), loadDataParams, loc);
}

// ---- Load3D v2 (img2col) L1 -> L0A ----
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2<T>& loadDataParams, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, bfloat16_t, float, int8_t, uint8_t>::value,
                  "Failed to check dtype in LoadData (3D), current api support dtype is half / bfloat16_t / float / "
                  "int8_t / uint8_t");
    const T pad = loadDataParams.padValue;
    sim::Load3DArgs a{{loadDataParams.padList[0], loadDataParams.padList[1], loadDataParams.padList[2],
                       loadDataParams.padList[3]},
                      loadDataParams.l1H, loadDataParams.l1W, loadDataParams.channelSize, loadDataParams.kExtension,
                      loadDataParams.mExtension, loadDataParams.kStartPt, loadDataParams.mStartPt,
                      loadDataParams.strideW, loadDataParams.strideH, loadDataParams.filterW, loadDataParams.filterH,
                      loadDataParams.dilationFilterW, loadDataParams.dilationFilterH, loadDataParams.enTranspose, &pad};
    sim::cube_load3d(sim::ref_of(dst), sim::ref_of(src), sizeof(T), a, loc);
}

// ---- LoadDataWithTranspose (16-bit types: one 16 x 16 fractal transposed per repeat; 8- and
// 32-bit types: two fractals merged into a square, transposed, split: cube_load2d_transpose_pairs) ----
template <typename T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                             const LoadData2dTransposeParams& loadDataParams, ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t, int8_t, uint8_t>::value,
                  "Failed to check dtype in LoadDataWithTranspose");
    if (sizeof(T) != 2) {
        sim::cube_load2d_transpose_pairs(sim::ref_of(dst), sim::ref_of(src), sizeof(T), loadDataParams, loc);
        return;
    }
    LoadData2DParams p;
    p.startIndex = loadDataParams.startIndex;
    p.repeatTimes = loadDataParams.repeatTimes;
    p.srcStride = loadDataParams.srcStride;
    p.dstGap = loadDataParams.dstGap;
    p.ifTranspose = true;
    p.addrMode = loadDataParams.addrMode;
    const sim::TensorRef s = sim::ref_of(src);
    sim::cube_load2d(sim::ref_of(dst), &s, nullptr, sizeof(T), p, loc);
}

// ---- Mmad: L0C (+)= L0A x L0B ----
namespace sim {
template <typename T, typename U, typename S>
constexpr bool mmad_types_ok() {
    return (std::is_same<T, float>::value && std::is_same<U, half>::value && std::is_same<S, half>::value) ||
           (std::is_same<T, float>::value && std::is_same<U, bfloat16_t>::value && std::is_same<S, bfloat16_t>::value) ||
           (std::is_same<T, float>::value && std::is_same<U, float>::value && std::is_same<S, float>::value) ||
           (std::is_same<T, int32_t>::value && std::is_same<U, int8_t>::value && std::is_same<S, int8_t>::value);
}
}  // namespace sim

template <typename T, typename U, typename S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const MmadParams& mmadParams, ASCEND_SIM_LOC) {
    static_assert(sim::mmad_types_ok<T, U, S>(),
                  "Failed to check dtype in Mmad, current api support dtype combination is fm: half, filter: half, "
                  "dst: float; fm: bfloat16_t, filter: bfloat16_t, dst: float; fm: float, filter: float, dst: float; "
                  "fm: int8_t, filter: int8_t, dst: int32_t");
    sim::cube_mmad(sim::ref_of(dst), sim::dtype_of<T>(), sim::ref_of(fm), sim::dtype_of<U>(), sim::ref_of(filter),
                   sim::dtype_of<S>(), nullptr, sim::DType::OTHER, mmadParams, loc);
}
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
                            const LocalTensor<V>& bias, const MmadParams& mmadParams, ASCEND_SIM_LOC) {
    static_assert(sim::mmad_types_ok<T, U, S>(),
                  "Failed to check dtype in Mmad, current api support dtype combination is fm: half, filter: half, "
                  "dst: float; fm: bfloat16_t, filter: bfloat16_t, dst: float; fm: float, filter: float, dst: float; "
                  "fm: int8_t, filter: int8_t, dst: int32_t");
    static_assert(std::is_same<V, T>::value, "Failed to check dtype in Mmad, the bias must have the dst (L0C) type");
    const sim::TensorRef b = sim::ref_of(bias);
    sim::cube_mmad(sim::ref_of(dst), sim::dtype_of<T>(), sim::ref_of(fm), sim::dtype_of<U>(), sim::ref_of(filter),
                   sim::dtype_of<S>(), &b, sim::dtype_of<V>(), mmadParams, loc);
}

// ---- Fixpipe: L0C -> GM (ND / NZ) with conversion ----
namespace sim {
template <typename T, typename U>
constexpr void check_fixpipe_types() {
    static_assert(std::is_same<U, float>::value || std::is_same<U, int32_t>::value,
                  "Failed to check dtype in Fixpipe, the src (CO1) type must be float or int32_t");
    static_assert(OneOf<T, float, half, bfloat16_t, int32_t, int8_t, uint8_t>::value,
                  "Failed to check dtype in Fixpipe, current api support dst dtype is float / half / bfloat16_t / "
                  "int32_t / int8_t / uint8_t");
}
}  // namespace sim

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams, ASCEND_SIM_LOC) {
    sim::check_fixpipe_types<T, U>();
    sim::cube_fixpipe(dst.GetPhyAddr(0), nullptr, sim::dtype_of<T>(), sim::ref_of(src), sim::dtype_of<U>(), nullptr,
                      intriParams, config.format, loc);
}
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
                               const LocalTensor<uint64_t>& cbufWorkspace, const FixpipeParamsV220& intriParams,
                               ASCEND_SIM_LOC) {
    sim::check_fixpipe_types<T, U>();
    const sim::TensorRef q = sim::ref_of(cbufWorkspace);
    sim::cube_fixpipe(dst.GetPhyAddr(0), nullptr, sim::dtype_of<T>(), sim::ref_of(src), sim::dtype_of<U>(), &q,
                      intriParams, config.format, loc);
}
// L0C -> L1 (NZ by default, as the cube consumes it next).
template <typename T, typename U, const FixpipeConfig& config = CFG_NZ>
__aicore__ inline void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                               const FixpipeParamsV220& intriParams, ASCEND_SIM_LOC) {
    sim::check_fixpipe_types<T, U>();
    const sim::TensorRef d = sim::ref_of(dst);
    sim::cube_fixpipe(nullptr, &d, sim::dtype_of<T>(), sim::ref_of(src), sim::dtype_of<U>(), nullptr, intriParams,
                      config.format, loc);
}

// ---- InitConstValue: fill L1 / L0A / L0B ----
template <typename T>
__aicore__ inline void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<T>& initConstValueParams,
                                      ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t>::value,
                  "Failed to check dtype in InitConstValue, current api support dtype is half / bfloat16_t / float / "
                  "int16_t / uint16_t / int32_t / uint32_t");
    const T v = initConstValueParams.initValue;
    sim::cube_init_const(sim::ref_of(dst), sizeof(T), &v, initConstValueParams.repeatTimes,
                         initConstValueParams.blockNum, initConstValueParams.dstGap, loc);
}

// Fill: the newer name of InitConstValue (ASC "矩阵计算（ISASI）/矩阵搬入辅助配置接口/Fill.md"); U must be
// the element type of dst (the real template's enable_if).
template <typename T, typename U = PrimT<T>, typename std::enable_if<std::is_same<PrimT<T>, U>::value, bool>::type = true>
__aicore__ inline void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& initConstValueParams,
                            ASCEND_SIM_LOC) {
    static_assert(sim::OneOf<T, half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t>::value,
                  "Failed to check dtype in Fill, current api support dtype is int16_t / uint16_t / half / bfloat16_t "
                  "/ int32_t / uint32_t / float");
    const T v = initConstValueParams.initValue;
    sim::cube_init_const(sim::ref_of(dst), sizeof(T), &v, initConstValueParams.repeatTimes,
                         initConstValueParams.blockNum, initConstValueParams.dstGap, loc);
}

// ---- cross-core flags (mixed kernels: AIC <-> AIV of one group, through global memory) ----
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId, ASCEND_SIM_LOC) {
    sim::cross_core_set(modeId, flagId, pipe, loc);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId, ASCEND_SIM_LOC) {
    sim::cross_core_wait(modeId, flagId, pipe, loc);
}

}  // namespace AscendC

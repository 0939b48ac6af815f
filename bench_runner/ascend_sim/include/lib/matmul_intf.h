// lib/matmul_intf.h — the high-level Matmul API (ascend_sim subset).
//
//   using A = matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>;   // also AscendC::MatmulType
//   matmul::Matmul<A, B, C, Bias> mm;
//   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);        // or mm.Init(&tiling)
//   mm.SetTensorA(aGm); mm.SetTensorB(bGm); mm.SetBias(biasGm);          // (isTransposeA/B too)
//   mm.SetTail(tailM, tailN);   mm.IterateAll(cGm);  /* or while (mm.Iterate()) mm.GetTensorC(cGm); */
//   mm.End();
//
// Inputs and outputs in global memory (ND); the product of singleCoreM x singleCoreK by
// singleCoreK x singleCoreN (or the SetTail / SetSingleShape sizes) is computed exactly as the
// cube would (16-bit products summed in float, int8 in int32, bias added in float, the result
// rounded to C's type), and its cost is charged as the tiled cube path the tiling describes:
// per base block, the GM -> L1 load (MTE2), L1 -> L0 (MTE1), Mmad (M) and Fixpipe (FIX), with two
// blocks in flight. On the NPU a MIX kernel's AIV sends the work to its AIC; here the calling
// core does it (its M / MTE1 / FIX pipes carry the cost).
#pragma once

#include "../ascend_sim/std_headers.h"
#include "../ascend_sim/noinstr_begin.h"
#include "../kernel_operator.h"
#include "../ascend_sim/matmul_tiling_data.h"
#include "../ascend_sim/noinstr_end.h"

enum class CubeFormat : uint8_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

// CANN declares the Matmul API in AscendC and keeps the old spelling as an alias
// (asc-devkit include/adv_api/matmul/matmul.h: `namespace matmul = AscendC;`), so both
// matmul::Matmul and AscendC::Matmul name the same class; CubeFormat / LayoutMode are global.
namespace AscendC {

using ::CubeFormat;
using ::LayoutMode;

template <AscendC::TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct MatmulType {
    using T = TYPE;
    static constexpr AscendC::TPosition pos = POSITION;
    static constexpr CubeFormat format = FORMAT;
    static constexpr bool isTrans = ISTRANS;
};

struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    int32_t basicM = 0, basicN = 0, basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    int32_t doMTE2Preload = 0;
};
constexpr MatmulConfig CFG_NORM = {};
constexpr MatmulConfig CFG_MDL = {false, false, true};
constexpr MatmulConfig CFG_IBSHARE_NORM = {};
__aicore__ constexpr MatmulConfig GetNormalConfig() { return CFG_NORM; }
__aicore__ constexpr MatmulConfig GetMDLConfig() { return CFG_MDL; }

namespace mm_detail {
template <typename T>
inline double load(const T& v) {
    return static_cast<double>(AscendC::sim::to_f<T>(v));
}
inline double load(const int8_t& v) { return static_cast<double>(v); }
inline double load(const int32_t& v) { return static_cast<double>(v); }
}  // namespace mm_detail
}  // namespace AscendC

// The block product and its write-back run as emulator code (no scalar call-backs; the caller's
// ApiScope already charged nothing for them), through the cube's multiply kernels.
#include "../ascend_sim/noinstr_begin.h"
namespace AscendC {
namespace mm_detail {
// What the element loop read: float(load(v)), i.e. the float value of a float type.
template <typename T>
inline float fval(const T& v) {
    return AscendC::sim::to_f<T>(v);
}
inline float fval(const int8_t& v) { return static_cast<float>(v); }
inline float fval(const int32_t& v) { return static_cast<float>(v); }
inline double dval(const int8_t& v) { return static_cast<double>(v); }
inline double dval(const int32_t& v) { return static_cast<double>(v); }
template <typename T>
inline double dval(const T& v) {
    return static_cast<double>(AscendC::sim::to_f<T>(v));
}

// One base block of the Matmul API: ml x nl of C = A (ml x kl) x B (kl x nl), each element
// summed from 0 in increasing k (float; int8: int32, i.e. the int64 sum truncated), then bias,
// atomic add and conversion exactly as the element loop did them.
struct BlockArgs {
    int m0, n0, ml, nl, kl;
    int orgM, orgKa, orgKb, orgN;
    bool transA, transB, hasBias, atomic, dense;
    int baseN;
    uint64_t ub_stride;
    const char* api;
};

template <typename AT, typename BT, typename BiasT, typename CT>
inline void block(const AT* A, const BT* B, const BiasT* bias, CT* gm, CT* ub, const AscendC::sim::LocalView* ubv,
                  const BlockArgs& g, const AscendC::sim::SrcLoc& loc) {
    using namespace AscendC::sim;
    constexpr bool integer = std::is_same<AT, int8_t>::value;
    using S = typename std::conditional<integer, int32_t, float>::type;
    constexpr uint32_t R = kGemmRows, W = kGemmCols;
    const int ml = g.ml, nl = g.nl, kl = g.kl;
    const size_t mp = (static_cast<size_t>(ml) + R - 1) / R * R, np = (static_cast<size_t>(nl) + W - 1) / W * W;
    // Per-thread buffers of the runtime (slots 2..5; Mmad uses 0 and 1), zeroed: padding and the
    // accumulators start at 0.
    // (This header comes after the device-code poison: no memset / vector here.)
    S* ap = static_cast<S*>(cube_scratch(2, sizeof(S) * mp * kl, true));
    S* bp = static_cast<S*>(cube_scratch(3, sizeof(S) * np * kl, true));
    S* cb = static_cast<S*>(cube_scratch(4, sizeof(S) * ml * nl, true));
    auto aval = [&](int i, int kk) ASCEND_SIM_NOINSTR -> S {
        const AT v = g.transA ? A[static_cast<uint64_t>(kk) * g.orgM + g.m0 + i]
                              : A[static_cast<uint64_t>(g.m0 + i) * g.orgKa + kk];
        if constexpr (integer) {
            return static_cast<int32_t>(static_cast<int64_t>(dval(v)));
        } else {
            return fval(v);
        }
    };
    auto bval = [&](int kk, int j) ASCEND_SIM_NOINSTR -> S {
        const BT v = g.transB ? B[static_cast<uint64_t>(g.n0 + j) * g.orgKb + kk]
                              : B[static_cast<uint64_t>(kk) * g.orgN + g.n0 + j];
        if constexpr (integer) {
            return static_cast<int32_t>(static_cast<int64_t>(dval(v)));
        } else {
            return fval(v);
        }
    };
    // Panels (cube_impl.h): A (i, kk) at ((i / R) * kl + kk) * R + i % R; B (kk, j) at
    // ((j / W) * kl + kk) * W + j % W. Walk the source in its own order.
    if (!g.transA) {
        for (int i = 0; i < ml; ++i) {
            S* d = ap + static_cast<size_t>(i / R) * kl * R + i % R;
            for (int kk = 0; kk < kl; ++kk) d[static_cast<size_t>(kk) * R] = aval(i, kk);
        }
    } else {
        for (int kk = 0; kk < kl; ++kk) {
            for (int i = 0; i < ml; ++i) ap[(static_cast<size_t>(i / R) * kl + kk) * R + i % R] = aval(i, kk);
        }
    }
    if (!g.transB) {
        for (int kk = 0; kk < kl; ++kk) {
            for (int j = 0; j < nl; ++j) bp[(static_cast<size_t>(j / W) * kl + kk) * W + j % W] = bval(kk, j);
        }
    } else {
        for (int j = 0; j < nl; ++j) {
            S* d = bp + static_cast<size_t>(j / W) * kl * W + j % W;
            for (int kk = 0; kk < kl; ++kk) d[static_cast<size_t>(kk) * W] = bval(kk, j);
        }
    }
    // The int8 path needs both sides int8 for its int32 sums to equal the truncated int64 sum.
    constexpr bool exact_int = !integer || std::is_same<BT, int8_t>::value;
    if (!exact_int) {
        for (int i = 0; i < ml; ++i) {
            for (int j = 0; j < nl; ++j) {
                int64_t acc = 0;
                for (int kk = 0; kk < kl; ++kk) {
                    const BT bv = g.transB ? B[static_cast<uint64_t>(g.n0 + j) * g.orgKb + kk]
                                           : B[static_cast<uint64_t>(kk) * g.orgN + g.n0 + j];
                    acc += static_cast<int64_t>(ap[(static_cast<size_t>(i / R) * kl + kk) * R + i % R]) *
                           static_cast<int64_t>(dval(bv));
                }
                cb[static_cast<size_t>(i) * nl + j] = static_cast<S>(static_cast<int32_t>(acc));
            }
        }
    } else if constexpr (integer) {
        cube_gemm_i32(ap, bp, cb, ml, nl, kl, nl, W);
    } else {
        cube_gemm_f32(ap, bp, cb, ml, nl, kl, nl, W);
    }
    // Write-back. When every destination row lies inside one GmAlloc'd buffer, the per-element
    // check_gm cannot fail and the order does not matter: rows, one range mark each. Otherwise the
    // element loop as it always was (column by column, each element checked before it is written).
    auto out_of = [&](int i, int j) ASCEND_SIM_NOINSTR -> CT* {
        if (ub) return ub + static_cast<uint64_t>(i) * g.ub_stride + j;
        const uint64_t idx = g.dense ? static_cast<uint64_t>(i) * g.baseN + j
                                     : static_cast<uint64_t>(g.m0 + i) * g.orgN + g.n0 + j;
        return gm + idx;
    };
    auto value = [&](int i, int j, double bv, CT* dst) ASCEND_SIM_NOINSTR {
        double out;
        if constexpr (integer) {
            out = static_cast<double>(static_cast<int32_t>(cb[static_cast<size_t>(i) * nl + j])) + bv;
        } else {
            const float acc = cb[static_cast<size_t>(i) * nl + j];
            out = static_cast<double>(acc + static_cast<float>(bv));
        }
        if (g.atomic) out += dval(*dst);
        if constexpr (std::is_same<CT, int32_t>::value) {
            *dst = static_cast<int32_t>(out);
        } else {
            *dst = from_f<CT>(static_cast<float>(out));
        }
    };
    bool rows_ok = true;
    if (!ub) {
        for (int i = 0; i < ml && rows_ok; ++i) rows_ok = cube_gm_inside(out_of(i, 0), sizeof(CT) * nl);
    }
    if (rows_ok) {
        double* bvs = static_cast<double*>(cube_scratch(5, sizeof(double) * nl, true));
        if (g.hasBias) {
            for (int j = 0; j < nl; ++j) bvs[j] = dval(bias[g.n0 + j]);
        }
        for (int i = 0; i < ml; ++i) {
            CT* row = out_of(i, 0);
            for (int j = 0; j < nl; ++j) value(i, j, bvs[j], row + j);
            if (ub) {
                mark_written(*ubv, reinterpret_cast<uint8_t*>(row) - ubv->data, sizeof(CT) * nl);
            } else {
                gm_mark(row, sizeof(CT) * nl);  // byte accounting: a modelled (Fixpipe) write
            }
        }
        return;
    }
    for (int j = 0; j < nl; ++j) {
        const double bv = g.hasBias ? dval(bias[g.n0 + j]) : 0.0;
        for (int i = 0; i < ml; ++i) {
            CT* dst = out_of(i, j);
            check_gm(dst, sizeof(CT), true, g.api, loc);
            value(i, j, bv, dst);
            gm_mark(dst, sizeof(CT));
        }
    }
}
}  // namespace mm_detail
}  // namespace AscendC
#include "../ascend_sim/noinstr_end.h"

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const MatmulConfig& MM_CFG = CFG_NORM,
          class MM_CB = void, class MM_POLICY = void>
class Matmul {
    using AT = typename A_TYPE::T;
    using BT = typename B_TYPE::T;
    using CT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;
    static_assert(AscendC::sim::mmad_types_ok<typename std::conditional<std::is_same<AT, int8_t>::value, int32_t, float>::type,
                                              AT, BT>(),
                  "Failed to check dtype in Matmul, current api support A / B dtype combination is half / half, "
                  "bfloat16_t / bfloat16_t, float / float, int8_t / int8_t");
    static_assert(A_TYPE::pos == AscendC::TPosition::GM && B_TYPE::pos == AscendC::TPosition::GM,
                  "ascend_sim: this Matmul emulation takes A and B in global memory (TPosition::GM)");
    static_assert(C_TYPE::pos == AscendC::TPosition::GM || C_TYPE::pos == AscendC::TPosition::VECIN ||
                      C_TYPE::pos == AscendC::TPosition::VECOUT || C_TYPE::pos == AscendC::TPosition::VECCALC,
                  "ascend_sim: this Matmul emulation takes C in global memory or in the Unified Buffer "
                  "(TPosition::GM / VECIN / VECOUT / VECCALC)");

  public:
    __aicore__ inline Matmul() = default;

    __aicore__ inline void Init(const TCubeTiling* cubeTiling, AscendC::TPipe* tpipe = nullptr, ASCEND_SIM_LOC) {
        (void)tpipe;
        const ::AscendC::sim::ApiScope api_scope_;
        AscendC::sim::enter("Matmul::Init", loc);
        AscendC::sim::kernel_memory(this, sizeof *this, "Matmul::Init");
        if (!cubeTiling) AscendC::sim::fail("BAD_PARAM", "Matmul::Init", loc, "the TCubeTiling pointer is null");
        t_ = *cubeTiling;
        if (t_.baseM <= 0 || t_.baseN <= 0 || t_.baseK <= 0 || t_.singleCoreM <= 0 || t_.singleCoreN <= 0 ||
            t_.singleCoreK <= 0) {
            AscendC::sim::fail("BAD_PARAM", "Matmul::Init", loc,
                               "TCubeTiling has baseM/N/K = %d/%d/%d and singleCoreM/N/K = %d/%d/%d; all must be "
                               "positive (fill it with matmul_tiling::MultiCoreMatmulTiling::GetTiling)",
                               t_.baseM, t_.baseN, t_.baseK, t_.singleCoreM, t_.singleCoreN, t_.singleCoreK);
        }
        orgM_ = t_.M;
        orgN_ = t_.N;
        orgKa_ = t_.Ka;
        orgKb_ = t_.Kb;
        sm_ = t_.singleCoreM;
        sn_ = t_.singleCoreN;
        sk_ = t_.singleCoreK;
        inited_ = true;
    }

    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, orgN); }
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
        (void)orgKc;
        orgM_ = orgM + static_cast<int>(ASCEND_SIM_OWNED("Matmul::SetOrgShape"));
        orgN_ = orgN;
        orgKa_ = orgKa;
        orgKb_ = orgKb;
    }
    __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK) {
        sm_ = singleM + static_cast<int>(ASCEND_SIM_OWNED("Matmul::SetSingleShape"));
        sn_ = singleN;
        sk_ = singleK;
    }
    __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
        tailM += static_cast<int>(ASCEND_SIM_OWNED("Matmul::SetTail"));
        if (tailM > 0) sm_ = tailM;
        if (tailN > 0) sn_ = tailN;
        if (tailK > 0) sk_ = tailK;
    }
    __aicore__ inline void SetTensorA(const AscendC::GlobalTensor<AT>& gm, bool isTransposeA = false) {
        hasA_ = ASCEND_SIM_OWNED("Matmul::SetTensorA") != 0;
        a_ = gm;
        transA_ = isTransposeA || A_TYPE::isTrans;
        hasA_ = true;
        Restart();
    }
    __aicore__ inline void SetTensorB(const AscendC::GlobalTensor<BT>& gm, bool isTransposeB = false) {
        hasB_ = ASCEND_SIM_OWNED("Matmul::SetTensorB") != 0;
        b_ = gm;
        transB_ = isTransposeB || B_TYPE::isTrans;
        hasB_ = true;
        Restart();
    }
    __aicore__ inline void SetBias(const AscendC::GlobalTensor<BiasT>& gm) {
        hasBias_ = ASCEND_SIM_OWNED("Matmul::SetBias") != 0;
        bias_ = gm;
        hasBias_ = true;
        Restart();
    }
    __aicore__ inline void DisableBias() { hasBias_ = ASCEND_SIM_OWNED("Matmul::DisableBias") != 0; }
    __aicore__ inline void ClearBias() { hasBias_ = ASCEND_SIM_OWNED("Matmul::ClearBias") != 0; }

    // All of this core's C at once.
    template <bool sync = true>
    __aicore__ inline void IterateAll(const AscendC::GlobalTensor<CT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, bool waitIterateAll = false,
                                      bool fakeMsg = false, ASCEND_SIM_LOC) {
        (void)enSequentialWrite;
        (void)waitIterateAll;
        (void)fakeMsg;
        Check("Matmul::IterateAll", loc);
        const int mb = Ceil(sm_, t_.baseM), nb = Ceil(sn_, t_.baseN);
        for (int i = 0; i < mb; ++i) {
            for (int j = 0; j < nb; ++j) Block(gm, i, j, enAtomic != 0, "Matmul::IterateAll", loc);
        }
        Restart();
    }

    // All of this core's C into the Unified Buffer (C in VECIN / VECCALC / VECOUT), row-major
    // singleCoreM x singleCoreN.
    template <bool sync = true>
    __aicore__ inline void IterateAll(const AscendC::LocalTensor<CT>& ubCmatrix, uint8_t enAtomic = 0, ASCEND_SIM_LOC) {
        Check("Matmul::IterateAll", loc);
        CT* ub = UbOut(ubCmatrix, static_cast<uint64_t>(sm_) * sn_, enAtomic != 0, "Matmul::IterateAll", loc);
        const int mb = Ceil(sm_, t_.baseM), nb = Ceil(sn_, t_.baseN);
        for (int i = 0; i < mb; ++i) {
            for (int j = 0; j < nb; ++j) {
                Block(dummy_gm_, i, j, enAtomic != 0, "Matmul::IterateAll", loc, false,
                      ub + static_cast<uint64_t>(i) * t_.baseM * sn_ + static_cast<uint64_t>(j) * t_.baseN, sn_);
            }
        }
        Restart();
    }

    // One base block (baseM x baseN) per call, N fastest (iterateOrder 1: M fastest).
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false, ASCEND_SIM_LOC) {
        (void)enPartialSum;
        Check("Matmul::Iterate", loc);
        const int mb = Ceil(sm_, t_.baseM), nb = Ceil(sn_, t_.baseN);
        if (iter_ >= mb * nb) {
            Restart();
            return false;
        }
        cur_ = iter_++;
        return true;
    }
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const AscendC::GlobalTensor<CT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, ASCEND_SIM_LOC) {
        Check("Matmul::GetTensorC", loc);
        if (cur_ < 0) {
            AscendC::sim::fail("QUE_ORDER", "Matmul::GetTensorC", loc, "GetTensorC without a successful Iterate()");
        }
        const int mb = Ceil(sm_, t_.baseM), nb = Ceil(sn_, t_.baseN);
        int i, j;
        if (t_.iterateOrder == 1) {
            i = cur_ % mb;
            j = cur_ / mb;
        } else {
            i = cur_ / nb;
            j = cur_ % nb;
        }
        if (enSequentialWrite) {  // the block goes to gm as a dense baseM x baseN tile
            Block(gm, i, j, enAtomic != 0, "Matmul::GetTensorC", loc, true);
        } else {
            Block(gm, i, j, enAtomic != 0, "Matmul::GetTensorC", loc);
        }
        cur_ = -1;
    }
    // The current block into the Unified Buffer as a baseM x baseN row-major tile (a tail block
    // keeps the baseN row stride). On 910B the AIC's Fixpipe cannot reach UB: the block goes
    // through a GM workspace and MTE2 brings it in, which is charged too.
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const AscendC::LocalTensor<CT>& co2Local, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, ASCEND_SIM_LOC) {
        (void)enSequentialWrite;
        Check("Matmul::GetTensorC", loc);
        if (cur_ < 0) {
            AscendC::sim::fail("QUE_ORDER", "Matmul::GetTensorC", loc, "GetTensorC without a successful Iterate()");
        }
        int i, j;
        Current(i, j);
        CT* ub = UbOut(co2Local, static_cast<uint64_t>(t_.baseM) * t_.baseN, enAtomic != 0, "Matmul::GetTensorC", loc);
        Block(dummy_gm_, i, j, enAtomic != 0, "Matmul::GetTensorC", loc, false, ub, t_.baseN);
        cur_ = -1;
    }
    // Both: the block to gm (at its place in C) and to co2Local.
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const AscendC::GlobalTensor<CT>& gm, const AscendC::LocalTensor<CT>& co2Local,
                                      uint8_t enAtomic = 0, bool enSequentialWrite = false, ASCEND_SIM_LOC) {
        Check("Matmul::GetTensorC", loc);
        const int saved = cur_;
        GetTensorC(gm, enAtomic, enSequentialWrite, loc);
        cur_ = saved;
        GetTensorC(co2Local, enAtomic, enSequentialWrite, loc);
    }
    __aicore__ inline void End() { Restart(); }
    __aicore__ inline void SetHF32(bool enable = false, int32_t mode = 0) {
        (void)enable;
        (void)mode;
    }

  private:
    static int Ceil(int a, int b) { return (a + b - 1) / b; }
    void Current(int& i, int& j) const {
        const int mb = Ceil(sm_, t_.baseM), nb = Ceil(sn_, t_.baseN);
        if (t_.iterateOrder == 1) {
            i = cur_ % mb;
            j = cur_ / mb;
        } else {
            i = cur_ / nb;
            j = cur_ % nb;
        }
    }
    // Checks a UB destination of `elems` elements (position, alignment, room); with enAtomic its
    // old contents are read, so they must have been written.
    CT* UbOut(const AscendC::LocalTensor<CT>& t, uint64_t elems, bool atomic, const char* api,
              const AscendC::sim::SrcLoc& loc) {
        using namespace AscendC::sim;
        const ::AscendC::sim::ApiScope api_scope_;
        LocalView v = view(t, api, "C (LocalTensor)", loc);
        need(v, elems * sizeof(CT), api, "C (LocalTensor)", loc);
        if (atomic) check_init(v, 0, elems * sizeof(CT), api, "C (LocalTensor)", loc);
        ub_view_ = v;
        return reinterpret_cast<CT*>(v.data);
    }
    void Restart() {
        iter_ = 0;
        cur_ = -1;
    }
    void Check(const char* api, const AscendC::sim::SrcLoc& loc) {
        const ::AscendC::sim::ApiScope api_scope_;
        AscendC::sim::enter(api, loc);
        AscendC::sim::kernel_memory(this, sizeof *this, api);  // Iterate*, GetTensorC write their state
        if (!inited_) {
            AscendC::sim::fail("QUE_ORDER", api, loc,
                               "Matmul used before Init / REGIST_MATMUL_OBJ gave it its TCubeTiling");
        }
        if (!hasA_ || !hasB_) {
            AscendC::sim::fail("QUE_ORDER", api, loc, "Matmul needs SetTensorA and SetTensorB before %s", api);
        }
        if (sk_ > orgKa_ || sk_ > orgKb_) {
            AscendC::sim::fail("BAD_PARAM", api, loc, "singleCoreK %d exceeds Ka %d / Kb %d of the tiling", sk_,
                               orgKa_, orgKb_);
        }
    }

    // Computes block (i, j) of this core's C and writes it (dense: at gm as a baseM x baseN tile).
    void Block(const AscendC::GlobalTensor<CT>& gm, int bi, int bj, bool atomic, const char* api,
               const AscendC::sim::SrcLoc& loc, bool dense = false, CT* ub = nullptr, uint64_t ub_stride = 0) {
        using namespace AscendC::sim;
        const ::AscendC::sim::ApiScope api_scope_;
        CoreCtx& c = enter(api, loc);
        const int m0 = bi * t_.baseM, n0 = bj * t_.baseN;
        const int ml = std::min(t_.baseM, sm_ - m0), nl = std::min(t_.baseN, sn_ - n0), kl = sk_;
        // A is M x K row-major (stride Ka) or, transposed, K x M (stride orgM); B likewise.
        const AT* A = a_.GetPhyAddr(0);
        const BT* B = b_.GetPhyAddr(0);
        for (int i = 0; i < ml; ++i) {
            if (!transA_) check_gm(A + static_cast<uint64_t>(m0 + i) * orgKa_, sizeof(AT) * kl, false, api, loc);
        }
        if (transA_) {
            for (int kk = 0; kk < kl; ++kk) check_gm(A + static_cast<uint64_t>(kk) * orgM_ + m0, sizeof(AT) * ml, false, api, loc);
        }
        if (!transB_) {
            for (int kk = 0; kk < kl; ++kk) check_gm(B + static_cast<uint64_t>(kk) * orgN_ + n0, sizeof(BT) * nl, false, api, loc);
        } else {
            for (int j = 0; j < nl; ++j) check_gm(B + static_cast<uint64_t>(n0 + j) * orgKb_, sizeof(BT) * kl, false, api, loc);
        }
        if (hasBias_) check_gm(bias_.GetPhyAddr(0) + n0, sizeof(BiasT) * nl, false, api, loc);
        mm_detail::BlockArgs args{m0,       n0,      ml,      nl,      kl,        orgM_,    orgKa_,
                                  orgKb_,   orgN_,   transA_, transB_, hasBias_,  atomic,   dense,
                                  t_.baseN, ub_stride, api};
        // (ub_view_'s address only on the UB paths: on the GM paths this object's address must not
        // escape, or the kernel's own code around it compiles, and is charged, differently.)
        mm_detail::block<AT, BT, BiasT, CT>(A, B, hasBias_ ? bias_.GetPhyAddr(0) : nullptr,
                                            ub ? nullptr : gm.GetPhyAddr(0), ub, ub ? &ub_view_ : nullptr, args, loc);
        Charge(c, ml, nl, kl, loc);
        if (ub) {  // GM workspace -> UB on the vector core (MTE2)
            const uint64_t out = static_cast<uint64_t>(ml) * nl * sizeof(CT);
            c.gm_read += out;
            pipe_wait(c, Pipe::MTE2, c.pipe_free[static_cast<int>(Pipe::FIX)]);
            const uint64_t cyc = c.soc->mte2_latency + static_cast<uint64_t>(std::ceil(out / c.mte2_bpc)) +
                                 static_cast<uint64_t>(ml > 1 ? ml - 1 : 0) * c.soc->burst_overhead;
            charge(c, Pipe::MTE2, cyc, "Matmul(GetTensorC)", loc, {{ub_view_.blk, true}});
        }
        // GM lines the block reads (for the L2 / HBM bounds)
        if (!transA_) {
            for (int i = 0; i < ml; ++i) l2_touch(A + static_cast<uint64_t>(m0 + i) * orgKa_, sizeof(AT) * kl);
        }
        if (!transB_) {
            for (int kk = 0; kk < kl; ++kk) l2_touch(B + static_cast<uint64_t>(kk) * orgN_ + n0, sizeof(BT) * nl);
        }
    }

    // The tiled cube path for one block: per L1 step (stepKa * baseK of K) MTE2 brings the A and B
    // slices, per baseK MTE1 fills L0A / L0B and M multiplies; FIX writes the block. Two blocks
    // in flight: block n's loads may start once block n - 2's Mmads are done.
    void Charge(AscendC::sim::CoreCtx& c, int ml, int nl, int kl, const AscendC::sim::SrcLoc& loc) {
        using namespace AscendC::sim;
        const SocProfile& s = *c.soc;
        const uint32_t es = sizeof(AT);
        const int c0 = 32 / static_cast<int>(es);
        const int m16 = (ml + 15) / 16 * 16, n16 = (nl + 15) / 16 * 16;
        const int stepK = std::max(1, t_.stepKa) * t_.baseK;
        uint64_t rate = s.cube_macs_f16;
        if (std::is_same<AT, float>::value) rate /= s.cube_f32_div;
        if (std::is_same<AT, int8_t>::value) rate = s.cube_macs_i8;
        pipe_wait(c, Pipe::MTE2, prev_m_end_[0]);
        uint64_t m_end = 0;
        for (int k0 = 0; k0 < kl; k0 += stepK) {
            const int kc = std::min(stepK, kl - k0);
            const uint64_t bytes = static_cast<uint64_t>(ml + nl) * kc * es;
            c.l1_read += bytes;
            const uint64_t ld_end = charge(c, Pipe::MTE2, l1_load_cycles(c, bytes), "Matmul(load)", loc, {});
            for (int kb = 0; kb < kc; kb += t_.baseK) {
                const int kk = std::min(t_.baseK, kc - kb);
                const int kp = (kk + c0 - 1) / c0 * c0;
                pipe_wait(c, Pipe::MTE1, ld_end);
                const uint64_t l0 = static_cast<uint64_t>(m16) * kp * es, l1b = static_cast<uint64_t>(n16) * kp * es;
                const uint64_t mte1 = 2 * s.mte1_latency + static_cast<uint64_t>(std::ceil(l0 / s.mte1_l0a_bpc)) +
                                      static_cast<uint64_t>(std::ceil(l1b / s.mte1_l0b_bpc));
                const uint64_t e1 = charge(c, Pipe::MTE1, mte1, "Matmul(LoadData)", loc, {});
                pipe_wait(c, Pipe::M, e1);
                const uint64_t macs = static_cast<uint64_t>(m16) * n16 * kp;
                m_end = charge(c, Pipe::M, s.mmad_startup + (macs + rate - 1) / rate, "Matmul(Mmad)", loc, {});
            }
        }
        c.cube_macs += static_cast<uint64_t>(ml) * nl * kl;
        pipe_wait(c, Pipe::FIX, m_end);
        const uint64_t out = static_cast<uint64_t>(ml) * nl * sizeof(CT);
        charge(c, Pipe::FIX, s.fix_latency + static_cast<uint64_t>(std::ceil(out / c.fix_gm_bpc)), "Matmul(Fixpipe)", loc, {});
        c.gm_write += out;
        prev_m_end_[0] = prev_m_end_[1];
        prev_m_end_[1] = m_end;
    }

    TCubeTiling t_;
    AscendC::GlobalTensor<AT> a_;
    AscendC::GlobalTensor<BT> b_;
    AscendC::GlobalTensor<BiasT> bias_;
    AscendC::GlobalTensor<CT> dummy_gm_;  // unused target of the UB paths
    AscendC::sim::LocalView ub_view_{};
    int orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0;
    int sm_ = 0, sn_ = 0, sk_ = 0;
    int iter_ = 0, cur_ = -1;
    uint64_t prev_m_end_[2] = {0, 0};
    bool inited_ = false, hasA_ = false, hasB_ = false, hasBias_ = false, transA_ = false, transB_ = false;
};

}  // namespace AscendC

namespace matmul = AscendC;

namespace AscendC {
namespace sim {
inline bool matmul_server_core() {
    const CoreCtx* c = tl_core;
    return c && c->is_aic && c->sub_block_num == 1 && mix_launch();
}
inline void regist_matmul(AscendC::TPipe*, const void*) {}
template <typename MM, typename... Rest>
inline void regist_matmul(AscendC::TPipe* pipe, const void* ws, MM& mm, const TCubeTiling* tiling, Rest&&... rest) {
    if (tiling) mm.Init(tiling, pipe);
    regist_matmul(pipe, ws, rest...);
}
template <typename MM>
inline void regist_matmul(AscendC::TPipe*, const void*, MM&) {}  // REGIST_MATMUL_OBJ(pipe, ws, mm): Init later
}  // namespace sim
}  // namespace AscendC

// In a MIX launch the AIC serves the AIVs' Matmul requests and leaves the kernel here (as CANN's
// macro does); ascend_sim runs the work on the calling AIV instead, so the AIC just returns.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                        \
    if (::AscendC::sim::matmul_server_core()) return;                   \
    ::AscendC::sim::regist_matmul((tpipe), (workspace), __VA_ARGS__)

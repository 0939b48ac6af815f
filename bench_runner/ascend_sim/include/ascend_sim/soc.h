// ascend_sim: SoC profiles for the cost model and the capacity checks.
//
// Every constant names its public source. Abbreviations:
//   INI    = CANN 8.1.RC1 toolkit data/platform_config/<SoC>.ini (github.com/leideng/CANN-8.1.RC1)
//   ASC    = github.com/mirror-cann/asc-devkit (Ascend C API and docs)
//   MSKPP  = github.com/xiaobingling93-pixel/Ascend-mskpp csrc/prof_data/resource910b.cpp
//            (msKPP measured per-instruction data for 910B1)
//   ADDHP  = ASC examples/01_simd_cpp_api/05_best_practices/00_vector_compute/add_high_performance/
//            README.md (measured 8192x8192 half Add on Atlas A2, 48 AIV)
// Figures marked [model] are not published; they are our calibration choices and are listed in
// docs/ascend_sim.md.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace AscendC {
namespace sim {

// Vector instruction classes, each with a start-up cost (first repeat) and a steady cost per
// further repeat (one repeat = 256 bytes = 8 blocks of 32 bytes).
enum class VecClass : uint8_t {
    BINARY,      // vadd vsub vmul vmax vmin vand vor vsel vaxpy   (MSKPP: ~3 / 2)
    UNARY,       // vadds vmuls vmaxs vmins vabs vrelu vlrelu vrec vrsqrt vnot vdup vconv (MSKPP: ~3-4 / 1)
    EXP_LN,      // vexp vln                      (MSKPP: f32 3/2, f16 4/3.9)
    SQRT,        // vsqrt                         (MSKPP: f32 3/2, f16 4/4)
    DIV,         // vdiv                          (MSKPP: f32 4/4, f16 8/4.1)
    WREDUCE_SUM, // vcadd  = WholeReduceSum       (MSKPP: f32 3/3, f16 7/7)
    WREDUCE_MAX, // vcmax/vcmin = WholeReduceMax  (MSKPP: 7/7)
    BREDUCE,     // vcgadd/vcgmax = BlockReduce*  (MSKPP: f32 3/1, f16 7/7)
    PREDUCE,     // vcpadd = PairReduceSum        (MSKPP: 3-4 / 1)
    CMP,         // vcmpv = Compare               (MSKPP: 7/2)
    CMPS,        // vcmpvs = CompareScalar        (MSKPP: 7/1)
    GATHER,      // vgather                       (MSKPP: u16 27/24, u32 14/12)
    COPY,        // UB->UB copy on the vector pipe (MSKPP UB->UB ~440 GB/s, i.e. one repeat / cycle)
    COUNT_
};

struct VecCost {
    uint16_t startup_b16, per_repeat_b16;  // cycles, 16-bit (and 8-bit) element types
    uint16_t startup_b32, per_repeat_b32;  // cycles, 32-bit (and 64-bit) element types
};

// Scalar unit: cycles charged per basic block of the kernel's own code (its loops, index
// arithmetic and branches), counted by compiler instrumentation of the kernel's translation unit.
// [model] A block of compiled scalar code is ~3-6 instructions; the in-order scalar unit issues
// about one per cycle, but overlaps some with address generation: 2 cycles per block.
inline constexpr uint32_t kScalarBlockCycles = 2;
// A raw load or store is charged per 8-byte unit (the scalar unit's widest access), so a
// vectorised or struct copy costs what the element-by-element accesses it replaces would.
inline constexpr uint32_t kScalarAccessBytes = 8;
// Scalar math the kernel's own code calls (sqrtf, expf, erff, powf …: scalar_math.h), cycles per
// call on the S pipe. [model] The AI core's scalar unit has no transcendental instructions; a
// libm-style routine is a range reduction plus a polynomial, at about one instruction per cycle:
// compare/round/bit operations ~4 instructions, a square root or fmod ~10-20, exp/log/cbrt ~20,
// trigonometric, hyperbolic and error functions ~30, pow (a log and an exp) ~40.
inline constexpr uint32_t kMathSimpleCycles = 4;
inline constexpr uint32_t kMathSqrtCycles = 10;
inline constexpr uint32_t kMathExpLogCycles = 20;
inline constexpr uint32_t kMathTrigCycles = 30;
inline constexpr uint32_t kMathPowCycles = 40;

struct SocProfile {
    const char* name;
    int npu_arch;             // __NPU_ARCH__ value
    bool split_arch;          // AIC and AIV are separate cores (910B) or one coupled core (310P)
    int vector_cores;         // cores a vector-only (AIV_MODE) launch spreads over
    int cube_cores;           // AI cores (cube)
    double freq_mhz;          // clock used to turn cycles into microseconds
    uint32_t ub_bytes;        // the physical Unified Buffer (accesses past it fail; see ub_address_space)
    uint32_t l1_bytes;
    uint32_t l0a_bytes, l0b_bytes, l0c_bytes;
    double hbm_gbps;          // chip-wide global-memory bandwidth (GB/s) for the HBM bound
    // MTE2 (GM -> UB): per-instruction latency and per-core peak throughput
    uint32_t mte2_latency;    // cycles
    double mte2_bpc;          // bytes per cycle, one core, no contention
    // MTE3 (UB -> GM)
    uint32_t mte3_latency;
    double mte3_bpc;
    uint32_t burst_overhead;  // extra cycles per additional burst of a strided copy [model]
    // scalar unit
    uint32_t issue_cycles;      // scalar cycles to issue one vector/DMA instruction [model]
    uint32_t level2_extra;      // extra scalar cycles of a level-2 API (mask count mode set/restore) (ASC: ~1 cycle per mask instr)
    uint32_t queue_op_cycles;   // AllocTensor/EnQue/DeQue/FreeTensor bookkeeping [model]
    uint32_t ub_scalar_cycles;  // LocalTensor GetValue/SetValue [model, fitted to ADDHP case 0]
    uint32_t gm_scalar_cycles;  // GlobalTensor GetValue/SetValue through the DCache [model]
    uint32_t sync_all_cycles;   // hardware SyncAll round trip [model]
    bool has_datacopypad;       // DataCopyPad exists (not on 310P, ASC DataCopyPad docs)
    bool has_bf16;              // bfloat16 vector support (910B and later)
    VecCost vec[static_cast<int>(VecClass::COUNT_)];
    // ---- cube unit (same on every profile unless given; all per AI core) ----
    uint32_t bt_bytes = 1024;      // bias table (INI / ASC 2201 spec: BT 1 KiB)
    uint32_t fb_bytes = 7168;      // Fixpipe buffer (ASC CPU checker bufferInitLen FIXBUF 7 KiB)
    // Mmad: one 16x16x16 fp16 block per cycle = 4096 MAC/cycle (ASC Matmul tiling doc: "one cycle
    // computes a 16x16x16 fp16 block"; base block 128x64x256 = 512 cycles); float 1/4 of that rate
    // (ASC doc); int8 16x32x16 per cycle (INI cube m,n,k for int8).
    uint32_t cube_macs_f16 = 4096;
    uint32_t cube_f32_div = 4;
    uint32_t cube_macs_i8 = 8192;
    uint32_t mmad_startup = 2;     // extra cycles per Mmad instruction: MSKPP Mmad fp16 m=32 k=16 takes
                                   // ~4.9 cycles at n=16 (4 ideal) and ~18 at n=128 (16 ideal)
    // MTE1 L1 -> L0A / L0B: ASC 2201 spec 256 / 128 B/cycle (MSKPP measured ~244 / ~122).
    double mte1_l0a_bpc = 256.0;
    double mte1_l0b_bpc = 128.0;
    uint32_t mte1_latency = 3;     // per LoadData: MSKPP 1 KiB L1->L0A at 287 GB/s = 6.4 cycles (4 of them
                                   // transfer), 1 KiB L1->L0B at 174 GB/s = 10.6 cycles (8 transfer)
    // MTE2 GM -> L1: MSKPP single core ~262 GB/s at >= 256 KiB, i.e. ~145 B/cycle at 1.8 GHz.
    double mte2_l1_bpc = 145.0;
    uint32_t mte2_l1_latency = 225;  // same start-up as GM -> UB
    // L2 cache: repeated reads of GM data that another cube load already fetched come from L2
    // (192 MiB on 910B); chip-wide L2 read bandwidth ~7 TB/s (ASC L2-split doc, "L2 ~7 TB/s").
    double l2_gbps = 7000.0;
    // FIX L0C -> GM: MSKPP up to ~203 GB/s (~113 B/cycle); theoretical 128 B/cycle.
    double fix_bpc = 113.0;
    uint32_t fix_latency = 100;    // [model]
    // Cross-core flag round trip (CrossCoreSetFlag -> CrossCoreWaitFlag) [model]
    uint32_t cross_core_cycles = 100;
};

// UB address space TPipe::InitBuffer may place buffers in. On the NPU InitBuffer only computes
// addresses (CANN checks the total against the UB size with ASCENDC_ASSERT, in its CPU-debug build
// alone), so a kernel whose buffers add up to more than the UB runs as long as it never touches a
// byte past the end; NPUKernelBench's own answers allocate temporaries they do not use on some
// dtype paths. cpu-sim places buffers up to this bound (backed by memory it never lets a kernel
// reach) and fails the first access past the physical UB; further than this, InitBuffer fails.
inline constexpr uint32_t kUbAddressFactor = 4;
inline uint32_t ub_address_space(const SocProfile& soc) { return soc.ub_bytes * kUbAddressFactor; }

// msKPP 910B1 vector table (MSKPP), reused for every profile: no 310P data is public.
#define ASCEND_SIM_VEC_TABLE_910B                                           \
    {                                                                      \
        /* BINARY      */ {3, 2, 3, 2}, /* UNARY       */ {4, 1, 3, 1},     \
        /* EXP_LN      */ {4, 4, 3, 2}, /* SQRT        */ {4, 4, 3, 2},     \
        /* DIV         */ {8, 4, 4, 4}, /* WREDUCE_SUM */ {7, 7, 3, 3},     \
        /* WREDUCE_MAX */ {7, 7, 7, 7}, /* BREDUCE     */ {7, 7, 3, 1},     \
        /* PREDUCE     */ {4, 1, 3, 1}, /* CMP         */ {7, 2, 7, 2},     \
        /* CMPS        */ {7, 1, 7, 1}, /* GATHER      */ {27, 24, 14, 12}, \
        /* COPY        */ {3, 1, 3, 1},                                     \
    }

// 910B family. Cores, clocks and buffer sizes: INI (Ascend910B1..B4.ini: vector core count
// 48/48/40/40, cube 24/24/20/20, cube_freq 1850/1800/1800/1500 MHz, UB 196608, L1 524288,
// L0A/L0B 65536, L0C 131072). HBM: ASC performance docs quote ~1.6 TB/s for the A2 training
// part (ADDHP measured 1.456 TB/s read-only); 910B4 (32 GiB) is quoted at 1.2 TB/s
// (oryoy.com 910B overview: "32GB HBM2E ... 1.2TB/s").
// MTE2/MTE3: fitted to MSKPP single-core GM->UB bandwidth (1 KiB 7.3 GB/s ... >=32 KiB ~78 GB/s)
// and UB->GM (1 KiB 11.4 ... >=32 KiB ~109 GB/s) as latency + bytes / peak:
//   GM->UB  latency 225 cycles, 61 B/cycle;  UB->GM latency 160 cycles, 86 B/cycle (at 1.8 GHz).
inline const SocProfile kSocProfiles[] = {
    {"Ascend910B1", 2201, true, 48, 24, 1850.0, 196608, 524288, 65536, 65536, 131072, 1600.0,
     225, 61.0, 160, 86.0, 8, 2, 4, 10, 10, 60, 200, true, true, ASCEND_SIM_VEC_TABLE_910B},
    {"Ascend910B2", 2201, true, 48, 24, 1800.0, 196608, 524288, 65536, 65536, 131072, 1600.0,
     225, 61.0, 160, 86.0, 8, 2, 4, 10, 10, 60, 200, true, true, ASCEND_SIM_VEC_TABLE_910B},
    {"Ascend910B3", 2201, true, 40, 20, 1800.0, 196608, 524288, 65536, 65536, 131072, 1600.0,
     225, 61.0, 160, 86.0, 8, 2, 4, 10, 10, 60, 200, true, true, ASCEND_SIM_VEC_TABLE_910B},
    {"Ascend910B4", 2201, true, 40, 20, 1500.0, 196608, 524288, 65536, 65536, 131072, 1200.0,
     225, 61.0, 160, 86.0, 8, 2, 4, 10, 10, 60, 200, true, true, ASCEND_SIM_VEC_TABLE_910B},
    // 310P3: INI Ascend310P3.ini: 8 AI cores (coupled arch, vector inside each AI core),
    // cube_freq 1060 MHz, UB 262144, L1 1048576, L0C 262144, ddr_rate 17 B/cycle and
    // ub->ddr 17 B/cycle per core. Memory: Atlas 300I Pro datasheet, LPDDR4X 24 GB,
    // 204.8 GB/s. No DataCopyPad (ASC DataCopyPad docs), no bfloat16.
    {"Ascend310P3", 2002, false, 8, 8, 1060.0, 262144, 1048576, 65536, 65536, 262144, 204.8,
     225, 17.0, 160, 17.0, 8, 2, 4, 10, 10, 60, 200, false, false, ASCEND_SIM_VEC_TABLE_910B},
};
#undef ASCEND_SIM_VEC_TABLE_910B

inline const SocProfile* find_soc(const char* name) {
    for (const auto& p : kSocProfiles) {
        if (std::strcmp(p.name, name) == 0) return &p;
    }
    return nullptr;
}

inline constexpr const char* kDefaultSoc = "Ascend910B2";

}  // namespace sim
}  // namespace AscendC

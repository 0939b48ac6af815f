// ascend_sim: platform_ascendc::PlatformAscendC and PlatformAscendCManager, the host-side queries
// of the AI processor a tiling function or a direct-launch host program makes, answered from
// the emulator's SoC table (soc.h), so a host program sizes its launch for the profile the
// kernel runs on (ASCEND_SIM_SOC, default Ascend910B2).
//
// Interface as in CANN's tiling/platform/platform_ascendc.h (asc-devkit
// include/utils/tiling/platform/platform_ascendc.h and the PlatformAscendC API pages):
// CoreMemType L0_A=0 … BT=8; GetCoreNum is the vector core count on split (Cube/Vector
// separated) SoCs and the AI core count on coupled ones; GetCoreNumAic the cube (AI) cores;
// GetCoreMemSize reports L1 as 512 KiB − 256 B on 910B (tilelang-ascend issue #489);
// GetLibApiWorkSpaceSize is the system workspace GetUserWorkspace skips (16 MiB, 2 MiB on 310P).
// PlatformAscendCManager::GetInstance is a singleton: the first call's SoC wins, and
// GetInstance(customSocVersion) returns nullptr for a SoC the emulator has no profile of.
//
// One definition serves both host interfaces: CPU-debug programs (this header) and akgen's task
// hosts (harness akgen_host.h includes it on cpu-sim), whose PlatformAscendC is built from
// `context->GetPlatformInfo()`: any info struct with aiv_cores, aic_cores, ub_bytes and soc.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "noinstr_begin.h"
#include "soc.h"

#include "platform_enums.h"

namespace platform_ascendc {

class PlatformAscendCManager;

class PlatformAscendC {
  public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    // From a tiling context's platform info (akgen: gert::PlatformInfo): core counts and UB size
    // as the task harness provides them, everything else from the named SoC's profile.
    template <typename Info, typename = decltype(std::declval<const Info&>().aiv_cores)>
    explicit PlatformAscendC(const Info* info) : profile_(lookup(soc_of(info))) {
        if (info != nullptr) {
            aiv_ = static_cast<uint32_t>(info->aiv_cores);
            aic_ = static_cast<uint32_t>(info->aic_cores);
            ub_ = static_cast<uint64_t>(info->ub_bytes);
        } else {
            from_profile();
        }
    }

    uint32_t GetCoreNum() const { return profile_->split_arch ? aiv_ : aic_; }
    uint32_t GetCoreNumAic() const { return aic_; }
    uint32_t GetCoreNumAiv() const { return aiv_; }
    // Vector cores outside the AI cores exist only on some 310P parts; none on the profiles here.
    uint32_t GetCoreNumVector() const { return 0; }
    uint32_t GetLibApiWorkSpaceSize() const { return profile_->npu_arch == 2002 ? (2u << 20) : (16u << 20); }
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        const auto* p = profile_;
        switch (memType) {
            case CoreMemType::L0_A: size = p->l0a_bytes; break;
            case CoreMemType::L0_B: size = p->l0b_bytes; break;
            case CoreMemType::L0_C: size = p->l0c_bytes; break;
            case CoreMemType::L1: size = p->split_arch ? p->l1_bytes - 256 : p->l1_bytes; break;
            case CoreMemType::L2: size = p->split_arch ? (192ull << 20) : 0; break;  // soc.h: 192 MiB L2 on 910B
            case CoreMemType::UB: size = ub_ - reserved_; break;
            case CoreMemType::HBM: size = hbm_bytes(); break;
            case CoreMemType::FB: size = p->fb_bytes; break;
            case CoreMemType::BT: size = p->bt_bytes; break;
            default: size = 0; break;
        }
    }
    // Bytes per cycle of the chip's L2 and HBM (the cost model's figures).
    void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
        const double gbps = memType == CoreMemType::HBM ? profile_->hbm_gbps
                            : memType == CoreMemType::L2 ? profile_->l2_gbps
                                                         : 0.0;
        bwSize = static_cast<uint64_t>(gbps * 1000.0 / profile_->freq_mhz);
    }
    void ReserveLocalMemory(ReservedSize size) {
        reserved_ = size == ReservedSize::RESERVED_SIZE_8K ? 8192u : size == ReservedSize::RESERVED_SIZE_16K ? 16384u : 32768u;
    }
    SocVersion GetSocVersion() const {
        return std::strncmp(profile_->name, "Ascend910B", 10) == 0   ? SocVersion::ASCEND910B
               : std::strncmp(profile_->name, "Ascend310P", 10) == 0 ? SocVersion::ASCEND310P
                                                                     : SocVersion::RESERVED_VERSION;
    }
    // The vector register length in bytes (256 B repeats on these SoCs).
    uint32_t GetVecRegLen() const { return 256; }
    // Not in CANN: the emulated SoC's name, for messages.
    const char* SocName() const { return profile_->name; }

  private:
    friend class PlatformAscendCManager;
    explicit PlatformAscendC(const ::AscendC::sim::SocProfile* p) : profile_(p) { from_profile(); }

    void from_profile() {
        aiv_ = static_cast<uint32_t>(profile_->vector_cores);
        aic_ = static_cast<uint32_t>(profile_->cube_cores);
        ub_ = profile_->ub_bytes;
    }
    uint64_t hbm_bytes() const {
        // Memory size per SKU: 64 GB on 910B1-B3, 32 GB on 910B4 (soc.h's 910B4 source), 24 GB on 310P3.
        if (std::strcmp(profile_->name, "Ascend910B4") == 0) return 32ull << 30;
        return profile_->split_arch ? (64ull << 30) : (24ull << 30);
    }
    template <typename Info>
    static const char* soc_of(const Info* info) {
        if constexpr (std::is_same<std::decay_t<decltype(info->soc)>, std::string>::value) {
            return info != nullptr && !info->soc.empty() ? info->soc.c_str() : nullptr;
        } else {
            return info != nullptr ? static_cast<const char*>(info->soc) : nullptr;
        }
    }
    static const ::AscendC::sim::SocProfile* lookup(const char* name) {
        const auto* p = name ? ::AscendC::sim::find_soc(name) : nullptr;
        return p ? p : ::AscendC::sim::find_soc(::AscendC::sim::kDefaultSoc);
    }

    const ::AscendC::sim::SocProfile* profile_;
    uint32_t aiv_ = 0;
    uint32_t aic_ = 0;
    uint64_t ub_ = 0;
    uint32_t reserved_ = 0;
};

class PlatformAscendCManager {
  public:
    // The SoC the emulator runs (ASCEND_SIM_SOC, default Ascend910B2).
    static PlatformAscendC* GetInstance() { return GetInstance(nullptr); }
    // On a CPU-only machine CANN needs the SoC named; the first call decides (singleton).
    static PlatformAscendC* GetInstance(const char* customSocVersion) {
        static std::mutex mu;
        static PlatformAscendC* instance = nullptr;
        static bool tried = false;
        const std::lock_guard<std::mutex> lock(mu);
        if (!tried) {
            tried = true;
            const char* env = std::getenv("ASCEND_SIM_SOC");
            const char* name = customSocVersion && *customSocVersion ? customSocVersion
                               : env && *env                          ? env
                                                                      : ::AscendC::sim::kDefaultSoc;
            if (const auto* p = ::AscendC::sim::find_soc(name)) {
                static PlatformAscendC platform(p);
                instance = &platform;
            }
        }
        return instance;
    }

  private:
    PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc

#include "noinstr_end.h"

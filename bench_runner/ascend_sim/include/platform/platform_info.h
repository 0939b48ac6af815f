// platform/platform_info.h — fe::PlatFormInfos, the platform description CANN hands a tiling
// function (TilingContext::GetPlatformInfo) and a tiling-parse function
// (TilingParseContext::GetPlatformInfo); platform_ascendc::PlatformAscendC is built from it.
//
// On cpu-sim it carries what the emulator decides (core counts, UB size, SoC name), filled by
// the harness; GetPlatformRes answers the keys op_host files read ("SoCInfo"/"ai_core_cnt",
// "vector_core_cnt", "cube_core_cnt", "AICoreSpec"/"ub_size", "version"/"Short_SoC_version").
// akgen's own host interface (harness akgen_host.h) calls it gert::PlatformInfo: same type.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace fe {

enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos {
  public:
    // Filled by the harness (field names shared with akgen_host.h's historic gert::PlatformInfo).
    uint32_t aiv_cores = 0;
    uint32_t aic_cores = 0;
    uint64_t ub_bytes = 0;
    std::string soc;

    bool Init() { return true; }
    uint32_t GetCoreNum() const { return aiv_cores != 0 ? aiv_cores : aic_cores; }
    void SetCoreNum(uint32_t n) { aiv_cores = n; }
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
        size = type == LocalMemType::UB ? ub_bytes : 0;
    }
    // label / key lookups as in the SoC ini files CANN reads; false for an unknown key.
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& val) const {
        auto it = extra_.find(label + "/" + key);
        if (it != extra_.end()) {
            val = it->second;
            return true;
        }
        if (label == "SoCInfo" && key == "ai_core_cnt") return put(val, aic_cores);
        if (label == "SoCInfo" && key == "cube_core_cnt") return put(val, aic_cores);
        if (label == "SoCInfo" && key == "vector_core_cnt") return put(val, aiv_cores);
        if (label == "AICoreSpec" && key == "ub_size") return put(val, ub_bytes);
        if (label == "version" && (key == "Short_SoC_version" || key == "SoC_version")) {
            val = key == "SoC_version" ? soc : short_soc();
            return !soc.empty();
        }
        return false;
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& val) const {
        return GetPlatformRes(label, key, val);
    }
    void SetPlatformRes(const std::string& label, const std::string& key, const std::string& val) {
        extra_[label + "/" + key] = val;
    }

  private:
    static bool put(std::string& val, uint64_t v) {
        val = std::to_string(v);
        return true;
    }
    // "Ascend910B2" -> "Ascend910B", "Ascend310P3" -> "Ascend310P" (CANN's short SoC names).
    std::string short_soc() const {
        std::string s = soc;
        while (!s.empty() && s.back() >= '0' && s.back() <= '9' && s.size() > 10) s.pop_back();
        return s;
    }
    std::map<std::string, std::string> extra_;
};

class OptionalInfos {
  public:
    void SetSocVersion(const std::string& s) { soc_ = s; }
    std::string GetSocVersion() const { return soc_; }

  private:
    std::string soc_;
};

}  // namespace fe

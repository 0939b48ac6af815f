// akgen_tiling_entry.h — which tiling function of a host file the driver runs.
//
// Included by the generated host_tu.cpp after the submitted host file. A CANN op_host file
// registers its TilingFunc through the OpDef (`this->AICore().SetTiling(optiling::TilingFunc)`
// and `OP_ADD(Op)`), as CANN's runtime finds it: on cpu-sim the emulator's op registry
// (ascend_sim/op_host_registry.h) is asked first. An akgen host file (akgen_host.h) defines
// optiling::TilingFunc, often `static`, and registers nothing: that function is called.
#pragma once

#include <string>
#include <type_traits>

#if __has_include("ascend_sim/op_host_registry.h")
#include "ascend_sim/op_host_registry.h"
#endif

namespace optiling {
// Chosen by overload resolution only when the host file declares no optiling::TilingFunc that
// takes a context (a non-template exact match always wins over this template).
struct AkgenNoTilingFunc {};
template <typename... A>
AkgenNoTilingFunc TilingFunc(A&&...) { return {}; }
}  // namespace optiling

namespace akgen_tiling {

// Status returned when the host file offers no tiling function; akgen_manifest::check_tiling
// turns it into a message.
constexpr ge::graphStatus kNoTilingFunc = 0xAE000001u;

template <typename Ctx>
ge::graphStatus call_plain(Ctx* context) {
    if constexpr (std::is_same_v<decltype(optiling::TilingFunc(context)), optiling::AkgenNoTilingFunc>) {
        return kNoTilingFunc;
    } else {
        return optiling::TilingFunc(context);
    }
}

// `op_type`: the task's op in CANN's spelling (add_custom -> AddCustom), used when the host file
// registers several ops.
inline ge::graphStatus run(gert::TilingContext* context, const char* op_type) {
#if __has_include("ascend_sim/op_host_registry.h")
    auto& registry = ascend_sim::ophost::Registry::Instance();
    const ascend_sim::ophost::OpRecord* chosen = registry.Find(op_type);
    if (chosen == nullptr || chosen->tiling == nullptr) {
        chosen = nullptr;
        for (const auto& kv : registry.All()) {
            if (kv.second.tiling == nullptr) continue;
            if (chosen != nullptr) return kNoTilingFunc + 1;  // ambiguous: several ops, none named op_type
            chosen = &kv.second;
        }
    }
    if (chosen != nullptr) return registry.RunTiling(chosen->name, *context);
#else
    (void)op_type;
#endif
    return call_plain(context);
}

}  // namespace akgen_tiling

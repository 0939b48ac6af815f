// ascend_sim: kernel-side tiling — GET_TILING_DATA and friends, TILING_KEY_IS.
#pragma once

#include <cstddef>
#include <cstring>

#include "runtime.h"
#include "tiling_macros.h"

namespace AscendC {
namespace sim {

template <typename T>
inline T load_tiling(const void* gm, const SrcLoc& loc) {
    static_assert(!std::is_same<T, NoTilingRegistered>::value,
                  "GET_TILING_DATA: no tiling struct is registered in this translation unit; use "
                  "REGISTER_TILING_DATA_CLASS / REGISTER_TILING_DEFAULT or GET_TILING_DATA_WITH_STRUCT");
    const ::AscendC::sim::ApiScope api_scope_;
    CoreCtx& c = enter("GET_TILING_DATA", loc);
    if (!gm) fail("BAD_PARAM", "GET_TILING_DATA", loc, "the tiling argument is a null pointer");
    check_gm_exact(gm, sizeof(T), "GET_TILING_DATA", loc);
    T out;
    std::memcpy(static_cast<void*>(&out), gm, sizeof(T));
    charge_scalar(c, c.soc->gm_scalar_cycles * ((sizeof(T) + 63) / 64));
    c.gm_read += sizeof(T);
    return out;
}

template <typename T>
inline const T* tiling_ptr(const void* gm, const SrcLoc& loc) {
    const ::AscendC::sim::ApiScope api_scope_;
    enter("GET_TILING_DATA_PTR_WITH_STRUCT", loc);
    check_gm_exact(gm, sizeof(T), "GET_TILING_DATA_PTR_WITH_STRUCT", loc);
    return static_cast<const T*>(gm);
}

inline int64_t tiling_key() { return get_tiling_key(); }

}  // namespace sim
}  // namespace AscendC

// ---- kernel side ----

#define GET_TILING_DATA(tiling_data, tiling_arg)                                                              \
    auto tiling_data = ([&]() ASCEND_SIM_NOINSTR {                                                                              \
        using namespace ::optiling;                                                                           \
        using AscendSimTilingT = decltype(ascend_sim_registered_tiling(::AscendC::sim::TilingRank<63>{}));   \
        return ::AscendC::sim::load_tiling<AscendSimTilingT>(tiling_arg, ::AscendC::sim::SrcLoc());          \
    })()

#define GET_TILING_DATA_WITH_STRUCT(struct_type, tiling_data, tiling_arg) \
    struct_type tiling_data = ::AscendC::sim::load_tiling<struct_type>(tiling_arg, ::AscendC::sim::SrcLoc())

#define GET_TILING_DATA_PTR_WITH_STRUCT(struct_type, ptr_name, tiling_arg) \
    const struct_type* ptr_name = ::AscendC::sim::tiling_ptr<struct_type>(tiling_arg, ::AscendC::sim::SrcLoc())

#define GET_TILING_DATA_MEMBER(struct_type, member, var, tiling_arg)                                         \
    decltype(struct_type::member) var;                                                                       \
    do {                                                                                                     \
        const struct_type* ascend_sim_p_ = ::AscendC::sim::tiling_ptr<struct_type>(tiling_arg, ::AscendC::sim::SrcLoc()); \
        std::memcpy(static_cast<void*>(&var), &ascend_sim_p_->member, sizeof(var));                          \
    } while (0)

#define TILING_KEY_IS(k) (::AscendC::sim::tiling_key() == static_cast<int64_t>(k))

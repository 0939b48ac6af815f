// ascend_sim: the CPU-debug host interface — GmAlloc/GmFree, SetKernelMode, ICPU_RUN_KF and
// ICPU_SET_TILING_KEY. Kept free of heavy headers: host programs include it via tikicpulib.h.
//
// CANN's twin forks one process per core; ascend_sim runs one thread per core so SyncAll can be
// a real barrier and global memory is plainly shared.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base.h"

// Built-in per-core variables (`block_idx`, `block_num` on the NPU); prefer GetBlockIdx().
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 1;

namespace AscendC {
namespace sim {

ASCEND_SIM_API void* gm_alloc(size_t size);
ASCEND_SIM_API void gm_free(void* ptr, const SrcLoc& loc);
ASCEND_SIM_API void set_kernel_mode(KernelMode mode);
ASCEND_SIM_API void set_tiling_key(int64_t key);
ASCEND_SIM_API int64_t get_tiling_key();
ASCEND_SIM_API bool gm_owns(const void* p);
[[noreturn]] ASCEND_SIM_API void bad_kernel_arg(const char* kernel, int idx, const void* p, const char* file, int line);
ASCEND_SIM_API void run_kernel_impl(const char* name, int64_t block_dim, const char* file, int line, void (*fn)(void*),
                                    void* arg);

// Arguments of ICPU_RUN_KF must be GmAlloc'd pointers (CANN's twin checks the same).
template <typename... A>
inline void check_kernel_args(const char* kernel, const char* file, int line, const A&... a) {
    static_assert(sizeof...(A) <= 32, "ICPU_RUN_KF supports at most 32 kernel arguments");
    int idx = 0;
    auto one = [&](const auto& v) ASCEND_SIM_NOINSTR {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_pointer<V>::value) {
            if (v != nullptr && !gm_owns(reinterpret_cast<const void*>(v))) {
                bad_kernel_arg(kernel, idx, reinterpret_cast<const void*>(v), file, line);
            }
        }
        ++idx;
    };
    (one(a), ...);
    (void)one;
}

template <typename F>
inline void run_kernel(const char* name, int64_t block_dim, const char* file, int line, F&& fn) {
    using Fn = std::remove_reference_t<F>;
    run_kernel_impl(name, block_dim, file, line, [](void* p) ASCEND_SIM_NOINSTR { (*static_cast<Fn*>(p))(); },
                    const_cast<void*>(static_cast<const void*>(&fn)));
}

}  // namespace sim

inline void* GmAlloc(size_t size) { return sim::gm_alloc(size); }
inline void GmFree(void* ptr, ASCEND_SIM_LOC) { sim::gm_free(ptr, loc); }
inline void SetKernelMode(KernelMode mode) { sim::set_kernel_mode(mode); }

}  // namespace AscendC

#define ASCEND_SIM_STR2(x) #x
#define ASCEND_SIM_STR(x) ASCEND_SIM_STR2(x)

#define ICPU_RUN_KF(func, blockdim, ...)                                                                        \
    do {                                                                                                        \
        ::AscendC::sim::check_kernel_args(ASCEND_SIM_STR(func), __FILE__, __LINE__, ##__VA_ARGS__);              \
        ::AscendC::sim::run_kernel(ASCEND_SIM_STR(func), (blockdim), __FILE__, __LINE__, [&]() ASCEND_SIM_NOINSTR { func(__VA_ARGS__); }); \
    } while (0)

#define ICPU_SET_TILING_KEY(key) ::AscendC::sim::set_tiling_key(static_cast<int64_t>(key))

// The `<<<blockDim, l2ctrl, stream>>>` launch of direct-launch sources (after source_rewrite.py).
#include "kernel_launch.h"

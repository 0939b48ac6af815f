// ascend_sim: the kernel call operator of direct-launch sources,
//
//     add_custom<<<blockDim, l2ctrl, stream>>>(x, y, z);
//
// `<<<>>>` is not C++: bisheng rewrites it before compiling (in CANN's CPU mode it includes
// cpu_debug_launch.h). akgen rewrites it as text the same way (bench_runner/ascend_sim/
// source_rewrite.py) into
//
//     add_custom ->* __ascendc_kernel_launch("add_custom", blockDim, l2ctrl, stream)(x, y, z);
//
// and this header runs that exactly like ICPU_RUN_KF(add_custom, blockDim, x, y, z): blockDim
// emulated cores, pointer arguments checked to be device memory (GmAlloc or aclrtMalloc), the
// launch mode set by SetKernelMode (AIV when never set). The configuration takes 1 to 3 values:
// `<<<numBlocks, l2ctrl (CANN 7/8 samples: nullptr) or dynUBufSize (newer docs: 0), stream>>>`.
// A real launch is asynchronous on `stream`; here it has finished when the call returns, so
// aclrtSynchronizeStream has nothing left to wait for.
//
// Included from host_api.h (inside the emulator's no-instrumentation region), so it is visible
// wherever GmAlloc / ICPU_RUN_KF are: kernel_operator.h, tikicpulib.h and acl/acl.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "host_api.h"

namespace AscendC {
namespace sim {

// The launch configuration with its arguments, waiting for the kernel on the left of `->*`.
template <typename... A>
struct PendingLaunch {
    const char* name;
    int64_t block_dim;
    const char* file;
    int line;
    std::tuple<A...> args;
};

struct KernelCallConfig {
    const char* name;
    int64_t block_dim;
    const char* file;
    int line;

    // `(x, y, z)` after `>>>`: arguments are kept by value (pointers and tiling structs), as
    // the NPU runtime copies them into the launch's argument buffer.
    template <typename... A>
    PendingLaunch<std::decay_t<A>...> operator()(A&&... a) const {
        return PendingLaunch<std::decay_t<A>...>{name, block_dim, file, line,
                                                 std::tuple<std::decay_t<A>...>(std::forward<A>(a)...)};
    }
};

// `kernel ->* config(args...)`: run the kernel on block_dim emulated cores. Found by ADL (the
// right operand is a sim type), so it works in any namespace the launch is written in.
template <typename R, typename... P, typename... A>
inline void operator->*(R (*fn)(P...), PendingLaunch<A...>&& launch) {
    static_assert(std::is_void<R>::value, "a kernel launched with <<<>>> must return void (__global__)");
    static_assert(sizeof...(P) == sizeof...(A), "<<<>>> launch: argument count differs from the kernel's parameters");
    std::apply([&](const auto&... a) ASCEND_SIM_NOINSTR { check_kernel_args(launch.name, launch.file, launch.line, a...); },
               launch.args);
    run_kernel(launch.name, launch.block_dim, launch.file, launch.line,
               [&]() ASCEND_SIM_NOINSTR { std::apply([&](auto&... a) ASCEND_SIM_NOINSTR { fn(a...); }, launch.args); });
}

}  // namespace sim
}  // namespace AscendC

// What source_rewrite.py emits for `name<<<blockDim, l2ctrl, stream>>>`: the second and third
// values are accepted and unused (no L2 control, no dynamic UB, no streams on the CPU). The
// call site's file and line come from the default arguments, so findings name the launch line.
template <typename B, typename L = std::nullptr_t, typename S = std::nullptr_t>
inline ::AscendC::sim::KernelCallConfig __ascendc_kernel_launch(const char* name, B blockDim, L l2ctrl = nullptr,
                                                                S stream = nullptr,
                                                                const char* file = __builtin_FILE(),
                                                                int line = __builtin_LINE()) {
    static_assert(std::is_integral<B>::value || std::is_enum<B>::value,
                  "<<<blockDim, ...>>>: the block count must be an integer");
    (void)l2ctrl;
    (void)stream;
    return ::AscendC::sim::KernelCallConfig{name, static_cast<int64_t>(blockDim), file, line};
}

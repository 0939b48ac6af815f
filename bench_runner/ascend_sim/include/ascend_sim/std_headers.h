// ascend_sim: every standard header the emulator uses, included before noinstr_begin.h so that
// the `inline` redefinition there never reaches the standard library's own headers.
#pragma once

#include <algorithm>
#include <array>  // std::array: CANN kernels get it through kernel_operator.h (ReverseSequence)
#include <atomic>
#include <cassert>  // assert(): CANN kernels use it through kernel_operator.h
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <exception>
#include <initializer_list>
#include <limits>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

// What only the runtime's own implementation (runtime_impl.h: threads, barriers, the watchdog,
// the system-call filter) uses. Kernel translation units link the prebuilt runtime object and
// do not see these: the precompiled prelude every submission loads shrinks from 67 to 54 MB,
// which is a third of the evaluator's compile-time growth since the cost model (issue #16).
// Host code includes what it uses itself (register/*.h, platform/*.h do).
#ifndef ASCEND_SIM_PREBUILT_RUNTIME
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <set>
#include <shared_mutex>
#include <signal.h>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>
#include <unordered_set>

// the kernel-phase system-call filter (kernel_seccomp.h) and the core threads' stacks
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#include <cerrno>

// akgen_host_guard.h — where submitted host code runs: its own thread, under a system-call
// allow-list, after the driver has said so on the result stream.
//
// Why: on the host_device path the submitted host file (TilingFunc, an op_host's OpDef and its
// static initialisers) is linked into the driver program. Unconfined, it could make the *driver*
// fail — exhaust or close its descriptors, change directory or rlimits, forge records on the
// result stream, leave signal handlers or exit hooks behind — and a wrong kernel would become
// `system_error` (not cached, counted as infrastructure). So:
//   * The build (toolchains/cpu_sim.py) moves the host object's static initialisers out of
//     `.init_array` into `akgen_host_init`, and localises every symbol it defines but the entry:
//     nothing of it runs at load time, and it cannot replace a function the driver calls.
//   * Each call runs on a fresh thread that first installs the filter below: memory, futexes,
//     clocks, its own signals, and write(2) to stdout/stderr only — like a core thread running a
//     kernel (ascend_sim/kernel_seccomp.h). Anything else fails with EPERM; the sandbox's own
//     deny-list (bench_runner/seccomp.py) still kills sockets, ptrace and the like.
//   * Before host code first runs, the caller's `announce` puts a record on the stream: from
//     there on a failure of the run is the submission's (bench_runner/evaluate.py).
//   * The driver's signal dispositions are restored after each call (signals stay blocked on the
//     driver's thread meanwhile), so no handler of the host's runs on a thread that is not
//     confined; the driver ends with _Exit, so no exit hook of the host's runs either.
#pragma once

#include <cxxabi.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <string>
#include <typeinfo>
#include <vector>

#include "akgen_manifest.h"  // akgen_call_tiling, the host object's entry

extern "C" {
// The host object's static initialisers (the build renamed its .init_array): weak, so both are
// null when it has none, or on a path whose host object was not confined (a task's fixed host).
extern void (*const __start_akgen_host_init[])() __attribute__((weak));
extern void (*const __stop_akgen_host_init[])() __attribute__((weak));
}

namespace akgen_host_guard {

// What one call of the host code came to.
struct Outcome {
    bool started = false;   // the confined thread ran (else `error` is the driver's own failure)
    bool returned = false;  // TilingFunc returned a status
    ge::graphStatus status = 0;
    std::string error;      // why not, in words for the diagnostic
};

// Installs the allow-list on the calling thread; false if the kernel refused it.
inline bool install_filter() {
#if defined(__x86_64__)
    constexpr uint32_t arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    constexpr uint32_t arch = AUDIT_ARCH_AARCH64;
#else
    return false;
#endif
    const uint32_t self = static_cast<uint32_t>(syscall(SYS_gettid));
    const uint32_t deny = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    static const long plain[] = {
        SYS_futex, SYS_munmap, SYS_mremap, SYS_brk, SYS_madvise, SYS_mprotect, SYS_rt_sigprocmask,
        SYS_rt_sigreturn, SYS_rt_sigaction, SYS_sigaltstack, SYS_exit, SYS_exit_group, SYS_getpid, SYS_gettid,
        SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep, SYS_nanosleep, SYS_sched_yield, SYS_getrandom,
        SYS_restart_syscall, SYS_gettimeofday, SYS_sched_getaffinity,
#ifdef SYS_rseq
        SYS_rseq,
#endif
    };
    // The low 32 bits of argument i (little-endian layout of seccomp_data.args).
    auto arg = [](int i) { return static_cast<uint32_t>(offsetof(seccomp_data, args) + 8 * i); };
    std::vector<sock_filter> p;
    auto stmt = [&](uint16_t code, uint32_t k) { p.push_back(sock_filter{code, 0, 0, k}); };
    auto jump = [&](uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { p.push_back(sock_filter{code, jt, jf, k}); };
    // Allows system call `nr` when (the low 32 bits of) argument `i` is `a` or `b`, else EPERM.
    auto only_when = [&](long nr, int i, uint32_t a, uint32_t b) {
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 5);
        stmt(BPF_LD | BPF_W | BPF_ABS, arg(i));
        jump(BPF_JMP | BPF_JEQ | BPF_K, a, 1, 0);
        jump(BPF_JMP | BPF_JEQ | BPF_K, b, 0, 1);
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        stmt(BPF_RET | BPF_K, deny);
    };
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
    jump(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#if defined(__x86_64__)
    jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);  // x32 ABI
    stmt(BPF_RET | BPF_K, deny);
#endif
    for (long nr : plain) {
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1);
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    // A block that does not match leaves the number loaded (its argument load happens only on a
    // match, which returns), so they chain.
    only_when(SYS_write, 0, 1, 2);                     // stdout, stderr
    only_when(SYS_writev, 0, 1, 2);
    only_when(SYS_mmap, 4, 0xFFFFFFFFu, 0xFFFFFFFFu);  // anonymous only: no descriptor of the driver's
    only_when(SYS_tgkill, 1, self, self);              // signals to itself (raise, abort), no other thread
    only_when(SYS_tkill, 0, self, self);
    stmt(BPF_RET | BPF_K, deny);
    sock_fprog prog{static_cast<unsigned short>(p.size()), p.data()};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0;
}

// The words for an exception that left host code (called inside its catch block).
inline std::string exception_text() {
    std::string what = "an exception";
    if (const std::type_info* t = abi::__cxa_current_exception_type()) {
        int bad = 0;
        char* name = abi::__cxa_demangle(t->name(), nullptr, nullptr, &bad);
        what = std::string("an exception of type ") + (name && bad == 0 ? name : t->name());
        std::free(name);
    }
    try {
        throw;
    } catch (const std::exception& e) {
        return what + ": " + e.what();
    } catch (...) {
        return what;
    }
}

struct Call {
    gert::TilingContext* context = nullptr;
    bool run_initialisers = false;
    sigset_t mask{};
    sem_t confined, go;
    bool filter_ok = false;
    Outcome out;
    const char* phase = "TilingFunc";
};

inline void wait(sem_t* s) {
    while (sem_wait(s) != 0 && errno == EINTR) {}
}

inline void* thread_main(void* arg) {
    Call& c = *static_cast<Call*>(arg);
    pthread_sigmask(SIG_SETMASK, &c.mask, nullptr);  // the driver's own mask, not the blocked one
    c.filter_ok = install_filter();
    sem_post(&c.confined);
    if (!c.filter_ok) return nullptr;
    wait(&c.go);
    try {
        if (c.run_initialisers && __start_akgen_host_init != nullptr) {
            c.phase = "its static initialisers";
            for (auto* f = __start_akgen_host_init; f < __stop_akgen_host_init; ++f) (*f)();
        }
        c.phase = "TilingFunc";
#ifdef AKGEN_HAS_HOST
        c.out.status = akgen_call_tiling(c.context);
        c.out.returned = true;
#endif
    } catch (abi::__forced_unwind&) {  // pthread_exit: let the thread end (reported below)
        throw;
    } catch (...) {
        c.out.error = std::string("the host code threw ") + exception_text() + " in " + c.phase;
    }
    return nullptr;
}

// Runs the host code once — its static initialisers first when `run_initialisers` — on a confined
// thread and waits for it. `announce` runs after the thread is confined and before any host code.
inline Outcome run(gert::TilingContext* context, bool run_initialisers, const std::function<void()>& announce) {
    Call c;
    c.context = context;
    c.run_initialisers = run_initialisers;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &c.mask);
    std::vector<struct sigaction> saved(NSIG);
    for (int s = 1; s < NSIG; ++s) sigaction(s, nullptr, &saved[static_cast<size_t>(s)]);
    sem_init(&c.confined, 0, 0);
    sem_init(&c.go, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, size_t(8) << 20);
    pthread_t thread;
    const int err = pthread_create(&thread, &attr, thread_main, &c);
    pthread_attr_destroy(&attr);
    if (err != 0) {
        c.out.error = std::string("cannot start the thread for host code: ") + std::strerror(err);
    } else {
        wait(&c.confined);
        if (!c.filter_ok) {
            c.out.error = "cannot install the system-call filter for host code";
        } else {
            c.out.started = true;
            announce();
            sem_post(&c.go);
        }
        pthread_join(thread, nullptr);
        if (c.out.started && !c.out.returned && c.out.error.empty()) {
            c.out.error = std::string("the host code ended its thread (pthread_exit or exit(2) of a thread) in ") +
                          c.phase + " instead of returning";
        }
    }
    for (int s = 1; s < NSIG; ++s) {
        if (s != SIGKILL && s != SIGSTOP) sigaction(s, &saved[static_cast<size_t>(s)], nullptr);
    }
    pthread_sigmask(SIG_SETMASK, &c.mask, nullptr);
    sem_destroy(&c.confined);
    sem_destroy(&c.go);
    return c.out;
}

}  // namespace akgen_host_guard

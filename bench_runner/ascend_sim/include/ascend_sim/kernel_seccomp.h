// ascend_sim: the system calls a core thread may make while it runs the kernel.
//
// Why: the kernel runs in the same process as the driver that streams results back, so a kernel
// that could write(2) to the result descriptor, or open the report file, could forge its own
// verdict and speedup. An AI core makes no system calls at all; the emulator's own code on a
// core thread needs memory (malloc), futexes (locks, SyncAll), stderr (findings), the clock,
// and signals (crash reports). Each core thread installs this allow-list before the kernel runs
// (a per-thread filter: the driver's thread is not affected); anything else fails with EPERM, so
// a forged write simply does not happen and the emulator's optional paths (the crash handler's
// report file) degrade to stderr. Writes are allowed to stdout and stderr only.
#pragma once

// System headers: std_headers.h (outside the no-instrumentation region).


namespace AscendC {
namespace sim {

ASCEND_SIM_API bool install_kernel_seccomp() {
#if defined(__x86_64__)
    constexpr uint32_t arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    constexpr uint32_t arch = AUDIT_ARCH_AARCH64;
#else
    return false;
#endif
    static const long allowed[] = {
        SYS_futex, SYS_mmap, SYS_munmap, SYS_mremap, SYS_brk, SYS_madvise, SYS_mprotect,
        SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_rt_sigaction, SYS_sigaltstack, SYS_exit, SYS_exit_group,
        SYS_getpid, SYS_gettid, SYS_tgkill, SYS_tkill, SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep,
        SYS_nanosleep, SYS_sched_yield, SYS_getrandom, SYS_set_robust_list, SYS_restart_syscall, SYS_gettimeofday,
#ifdef SYS_rseq
        SYS_rseq,
#endif
    };
    constexpr size_t n = sizeof allowed / sizeof allowed[0];
    const uint32_t errno_ret = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
    std::vector<sock_filter> prog;
    auto stmt = [&](uint16_t code, uint32_t k) ASCEND_SIM_NOINSTR { prog.push_back(sock_filter{code, 0, 0, k}); };
    auto jump = [&](uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) ASCEND_SIM_NOINSTR { prog.push_back(sock_filter{code, jt, jf, k}); };
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch));
    jump(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
    stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr));
#if defined(__x86_64__)
    jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);  // x32 ABI calls: refuse
    stmt(BPF_RET | BPF_K, errno_ret);
#endif
    for (size_t i = 0; i < n; ++i) {
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(allowed[i]), 0, 1);
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    }
    // write / writev: only to stdout and stderr (the kernel's printf, the emulator's findings)
    const long writers[] = {SYS_write, SYS_writev};
    for (long w : writers) {
        jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(w), 0, 5);
        stmt(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, args[0]));
        jump(BPF_JMP | BPF_JEQ | BPF_K, 1, 1, 0);
        jump(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1);
        stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        stmt(BPF_RET | BPF_K, errno_ret);
    }
    stmt(BPF_RET | BPF_K, errno_ret);
    sock_fprog fprog{static_cast<unsigned short>(prog.size()), prog.data()};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) == 0;
}

}  // namespace sim
}  // namespace AscendC

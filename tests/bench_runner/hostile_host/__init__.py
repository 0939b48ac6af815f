"""Hostile host code (issue #30): submitted TilingFuncs that attack the driver they run in.

On the host_device path the submitted host file is compiled into the driver program, so a
TilingFunc (or a static initialiser, a libc name it redefines, an atexit hook …) can try to make
the *driver* fail: exhaust or close its descriptors, change directory or limits, forge records on
the result stream, install signal handlers, exit with the driver's own codes. Before issue #30 a
wrong kernel could so turn its ``wrong_answer`` into ``system_error`` (not cached, counted as
infrastructure, it stops a GRPO step). Each :class:`Variant` here is one such attack on
``relu_fp32_dynamic``'s host tiling, paired with a *wrong* kernel (Abs instead of Relu): an attack
that is contained leaves ``wrong_answer``; one that kills the run is the submission's
``runtime_error`` / ``timeout`` / ``sandbox_violation``; one the build refuses is a
``compile_error``. Never ``system_error``, and never ``passed``.

The sources are generated (:func:`host_source`) so that the hundred variants stay readable as
one line of C++ each; ``python -m tests.bench_runner.hostile_host OUT`` writes them out as files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

#: Verdict names (bench_runner.contracts.Verdict values), short for the table below.
WA, RE, TO, SV, CE = "wrong_answer", "runtime_error", "timeout", "sandbox_violation", "compile_error"

#: Helpers every variant may call: the result descriptor, a forged stream record, a seccomp
#: filter that makes one system call fail for the whole process.
PRELUDE = r"""#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <thread>
#include <vector>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "akgen_host.h"
#include "relu_tiling.h"

namespace akh {
[[maybe_unused]] static int result_fd() {
    const char* e = std::getenv("AKGEN_FD_0");
    return e ? std::atoi(e) : 3;
}
// One record of the driver's result stream (akgen_manifest.h): "AKGR", kind, trial, name, payload.
[[maybe_unused]] static void record(int fd, uint32_t kind, uint32_t trial, const char* name, const char* payload) {
    char hdr[24];
    const uint32_t nl = static_cast<uint32_t>(std::strlen(name));
    const uint64_t n = std::strlen(payload);
    std::memcpy(hdr, "AKGR", 4);
    std::memcpy(hdr + 4, &kind, 4);
    std::memcpy(hdr + 8, &trial, 4);
    std::memcpy(hdr + 12, &nl, 4);
    std::memcpy(hdr + 16, &n, 8);
    (void)!write(fd, hdr, sizeof hdr);
    (void)!write(fd, name, nl);
    (void)!write(fd, payload, n);
}
// The driver's own failure, as if it could not read a trial's input: kind 3 is REC_STATUS.
[[maybe_unused]] static void forge(const char* code) { record(result_fd(), 3, 0, code, "cannot open input ../in/c0t1_x.bin"); }
// Makes system call `nr` fail with EMFILE, for this thread or (tsync) every thread.
[[maybe_unused]] static void deny(long nr, bool tsync) {
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EMFILE),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog p = {4, f};
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, tsync ? SECCOMP_FILTER_FLAG_TSYNC : 0, &p);
}
[[maybe_unused]] static void exhaust_fds() {
    while (open("/dev/null", O_RDONLY) >= 0) {}
}
[[maybe_unused]] static volatile int sink;
// Where allocations go, so that the compiler cannot drop them.
[[maybe_unused]] static void* volatile kept;
[[maybe_unused]] static int recurse(int n) {
    volatile char pad[512];
    pad[n & 511] = static_cast<char>(n);
    return recurse(n + 1) + pad[(n * 7) & 511];
}
[[maybe_unused]] static void forge_handler(int) {
    forge("io");
    _exit(4);
}
}  // namespace akh
"""

_HEAD = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n"


@dataclasses.dataclass(frozen=True, slots=True)
class Variant:
    """One hostile host file: ``body`` runs first in TilingFunc, ``globals`` sits at file scope."""

    name: str
    #: Verdicts that make sense for it (a contained attack leaves the wrong kernel's wrong_answer).
    expect: frozenset[str]
    body: str = ""
    globals: str = ""
    #: In the quick, unmarked subset (attacks that gave system_error before issue #30).
    fast: bool = False


def _v(name: str, expect: Iterable[str], body: str = "", globals: str = "", fast: bool = False) -> Variant:
    return Variant(name, frozenset(expect), body, globals, fast)


def _ctor(body: str) -> str:
    """A namespace-scope object whose constructor runs ``body`` (a static initialiser)."""
    return f"namespace {{ struct Evil {{ Evil() {{ {body} }} }}; Evil evil_instance; }}\n"


_FD = [
    _v("close_all_fds", {WA, RE}, "for (int fd = 0; fd < 4096; ++fd) close(fd);"),
    _v("close_result_fd", {WA, RE}, "close(akh::result_fd());"),
    _v("close_range", {WA, RE}, "syscall(SYS_close_range, 0u, ~0u, 0u);"),
    _v("close_stdio", {WA, RE}, "close(0); close(1); close(2);"),
    _v("dup2_devnull_over_result", {WA, RE}, "dup2(open(\"/dev/null\", O_WRONLY), akh::result_fd());"),
    _v("dup2_stderr_over_result", {WA, RE}, "dup2(2, akh::result_fd());"),
    _v("exhaust_open", {WA, RE}, "akh::exhaust_fds();", fast=True),
    _v("exhaust_dup", {WA, RE}, "while (dup(1) >= 0) {}"),
    _v("exhaust_pipe", {WA, RE}, "int p[2]; while (pipe(p) == 0) {}"),
    _v("exhaust_eventfd", {WA, RE}, "while (eventfd(0, 0) >= 0) {}"),
    _v("exhaust_memfd", {WA, RE}, "while (syscall(SYS_memfd_create, \"x\", 0) >= 0) {}"),
    _v("exhaust_epoll", {WA, RE}, "while (epoll_create1(0) >= 0) {}"),
    _v("exhaust_fcntl_dupfd", {WA, RE}, "while (fcntl(2, F_DUPFD, 100) >= 0) {}"),
    _v("exhaust_then_close_result", {WA, RE}, "akh::exhaust_fds(); close(akh::result_fd());"),
    _v("rlimit_nofile_zero", {WA, RE}, "struct rlimit r = {0, 0}; setrlimit(RLIMIT_NOFILE, &r);", fast=True),
    _v("rlimit_nofile_three", {WA, RE}, "struct rlimit r = {3, 3}; setrlimit(RLIMIT_NOFILE, &r);"),
    _v("rlimit_fsize_zero", {WA, RE}, "struct rlimit r = {0, 0}; setrlimit(RLIMIT_FSIZE, &r);"),
    _v("rlimit_as_small", {WA, RE}, "struct rlimit r = {64 << 20, 64 << 20}; setrlimit(RLIMIT_AS, &r);"),
    _v("rlimit_cpu_zero", {WA, RE, TO}, "struct rlimit r = {0, 0}; setrlimit(RLIMIT_CPU, &r);"),
    _v("rlimit_nproc_zero", {WA, RE}, "struct rlimit r = {0, 0}; setrlimit(RLIMIT_NPROC, &r);"),
    _v("rlimit_stack_tiny", {WA, RE}, "struct rlimit r = {16384, 16384}; setrlimit(RLIMIT_STACK, &r);"),
    _v("fchmod_result", {WA, RE}, "fchmod(akh::result_fd(), 0);"),
    _v("ftruncate_result", {WA, RE}, "(void)!ftruncate(akh::result_fd(), 0);"),
    _v("lseek_result_to_start", {WA, RE}, "lseek(akh::result_fd(), 0, SEEK_SET);"),
    _v("fcntl_result_nonblock_append", {WA, RE}, "fcntl(akh::result_fd(), F_SETFL, O_APPEND | O_NONBLOCK);"),
    _v("forge_status_io_exit", {WA, RE}, "akh::forge(\"io\"); _exit(4);", fast=True),
    _v("forge_status_manifest_exit", {WA, RE}, "akh::forge(\"manifest\"); std::exit(4);"),
    _v("forge_status_custom_abort", {WA, RE}, "akh::forge(\"disk_full\"); std::abort();"),
    _v("forge_status_io_continue", {WA, RE}, "akh::forge(\"io\");"),
    _v("forge_status_ok_exit", {WA, RE}, "akh::record(akh::result_fd(), 3, 0, \"ok\", \"\"); _exit(0);"),
    _v("forge_garbage", {WA, RE}, "(void)!write(akh::result_fd(), \"garbage garbage garbage!\", 24);"),
    _v("forge_buffer_done_ok", {WA, RE},
       "static float zeros[77] = {}; char hdr[24]; uint32_t k = 1, t = 0, nl = 1; uint64_t n = sizeof zeros;"
       " std::memcpy(hdr, \"AKGR\", 4); std::memcpy(hdr + 4, &k, 4); std::memcpy(hdr + 8, &t, 4);"
       " std::memcpy(hdr + 12, &nl, 4); std::memcpy(hdr + 16, &n, 8); int fd = akh::result_fd();"
       " (void)!write(fd, hdr, 24); (void)!write(fd, \"y\", 1); (void)!write(fd, zeros, sizeof zeros);"
       " akh::record(fd, 5, 0, \"done\", \"\"); akh::record(fd, 3, 0, \"ok\", \"\"); _exit(0);"),
    _v("forge_final_report_fd", {WA, RE},
       "const char* e = std::getenv(\"AKGEN_FD_1\"); if (e) (void)!write(std::atoi(e), \"{[[[\", 4);"),
    _v("mmap_result_shared", {WA, RE},
       "void* p = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, akh::result_fd(), 0);"
       " if (p != MAP_FAILED) std::memset(p, 'x', 4096);"),
    _v("reopen_result_via_proc", {WA, RE},
       "char path[64]; std::snprintf(path, sizeof path, \"/proc/self/fd/%d\", akh::result_fd());"
       " int fd = open(path, O_WRONLY | O_TRUNC); if (fd >= 0) (void)!write(fd, \"junk\", 4);"),
    _v("chdir_root", {WA, RE}, "(void)!chdir(\"/\");", fast=True),
    _v("chdir_tmp", {WA, RE}, "(void)!chdir(\"/tmp\");"),
    _v("fchdir_proc", {WA, RE}, "int d = open(\"/proc\", O_RDONLY | O_DIRECTORY); if (d >= 0) (void)!fchdir(d);"),
    _v("chroot_tmp", {WA, RE, SV}, "(void)!chroot(\"/tmp\");"),
    _v("report_path_made_dir", {WA, RE},
       "const char* r = std::getenv(\"ASCEND_SIM_REPORT\"); if (r) mkdir(r, 0777);"),
    _v("report_path_fake", {WA, RE},
       "const char* r = std::getenv(\"ASCEND_SIM_REPORT\"); if (r) { FILE* f = std::fopen(r, \"w\");"
       " if (f) { std::fputs(\"{\\\"cores\\\": [], \\\"findings\\\": []}\", f); std::fclose(f); } }"),
    _v("fill_tmp", {WA, RE},
       "FILE* f = std::fopen(\"/tmp/fill\", \"w\"); static char block[1 << 16];"
       " while (f && std::fwrite(block, 1, sizeof block, f) == sizeof block) {} if (f) std::fclose(f);"),
    _v("write_box_files", {WA, RE}, "int fd = open(\"prog\", O_WRONLY | O_TRUNC); if (fd >= 0) close(fd);"),
    _v("clearenv", {WA, RE}, "clearenv();"),
]

_MEMORY = [
    _v("reserve_address_space", {WA, RE}, "while (mmap(nullptr, 1ul << 28, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0) != MAP_FAILED) {}"),
    _v("malloc_until_null", {WA, RE}, "while ((akh::kept = std::malloc(64 << 20)) != nullptr) {}"),
    _v("touch_memory", {RE, TO}, "for (;;) { char* p = static_cast<char*>(std::malloc(64 << 20)); if (!p) break;"
                             " std::memset(p, 1, 64 << 20); akh::kept = p; }"),
    _v("new_until_bad_alloc", {RE}, "for (;;) akh::kept = new char[64 << 20];"),
    _v("new_bad_alloc_caught", {WA, RE},
       "try { for (;;) akh::kept = new char[64 << 20]; } catch (const std::bad_alloc&) {}"),
    _v("vector_huge", {RE}, "std::vector<char> v(1ull << 40); akh::sink = v[0];"),
    _v("brk_shrink", {WA, RE}, "syscall(SYS_brk, 4096);"),
    _v("mprotect_caller", {RE},
       "uintptr_t pc = reinterpret_cast<uintptr_t>(__builtin_return_address(0));"
       " mprotect(reinterpret_cast<void*>(pc & ~4095ul), 4096, PROT_NONE);"),
    _v("munmap_stack_above", {RE},
       "uintptr_t sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));"
       " munmap(reinterpret_cast<void*>((sp & ~4095ul) + 8192), 1 << 16);"),
    _v("corrupt_context", {WA, RE}, "std::memset(static_cast<void*>(context), 0xff, 64);"),
    _v("free_garbage", {RE}, "std::free(reinterpret_cast<void*>(0x1234));"),
    _v("free_tiling_data", {WA, RE}, "std::free(context->GetRawTilingData()->GetData());"),
]

_THREADS = [
    _v("thread_spin_detached", {WA, RE}, "std::thread([] { for (;;) akh::sink = akh::sink + 1; }).detach();"),
    _v("thread_bomb", {WA, RE, TO},
       "pthread_t t; while (pthread_create(&t, nullptr, [](void*) -> void* { for (;;) pause(); }, nullptr) == 0) {}"),
    _v("fork_children_pause", {WA, RE}, "for (int i = 0; i < 32; ++i) if (fork() == 0) for (;;) pause();"),
    _v("fork_child_continues", {WA, RE}, "(void)fork();"),
    _v("fork_child_forges", {WA, RE}, "if (fork() == 0) { akh::forge(\"io\"); _exit(4); }"),
    _v("fork_bomb", {WA, RE, TO}, "for (int i = 0; i < 20; ++i) if (fork() < 0) break;"),
    _v("system_shell", {WA, RE}, "(void)!std::system(\"echo hi >&2\");"),
    _v("execve_shell", {WA, RE}, "execl(\"/bin/sh\", \"sh\", \"-c\", \"exit 0\", static_cast<char*>(nullptr));"),
    _v("popen_shell", {WA, RE}, "FILE* p = popen(\"echo x\", \"r\"); if (p) pclose(p);"),
    _v("vfork_exit", {WA, RE}, "if (vfork() == 0) _exit(0);"),
    _v("clone_raw", {WA, RE}, "if (syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) == 0) _exit(0);"),
    _v("setsid_setpgid", {WA, RE}, "setsid(); setpgid(0, 0);"),
]

_SIGNALS = [
    _v("raise_sigterm", {RE}, "raise(SIGTERM);"),
    _v("raise_sigkill", {RE}, "raise(SIGKILL);"),
    _v("raise_sigsegv", {RE}, "raise(SIGSEGV);"),
    _v("raise_sigabrt", {RE}, "raise(SIGABRT);"),
    _v("raise_sigbus", {RE}, "raise(SIGBUS);"),
    _v("raise_sigalrm", {RE}, "raise(SIGALRM);"),
    _v("raise_sigusr1", {RE}, "raise(SIGUSR1);"),
    _v("raise_sigxcpu", {RE}, "raise(SIGXCPU);"),
    _v("raise_sigxfsz", {RE}, "raise(SIGXFSZ);"),
    _v("raise_sigsys", {RE, SV}, "raise(SIGSYS);"),
    _v("raise_sigstop", {TO}, "raise(SIGSTOP);"),
    _v("kill_process_group", {WA, RE}, "kill(0, SIGKILL);"),
    _v("kill_everything", {WA, RE}, "kill(-1, SIGKILL);"),
    _v("kill_parent", {WA, RE}, "kill(getppid(), SIGKILL);"),
    _v("kill_self_term", {WA, RE}, "kill(getpid(), SIGTERM);"),
    _v("alarm", {WA, RE}, "alarm(1); pause();"),
    _v("setitimer_prof", {WA, RE},
       "struct itimerval it = {{0, 1000}, {0, 1000}}; setitimer(ITIMER_PROF, &it, nullptr);"
       " for (int i = 0; i < 10000000; ++i) akh::sink = i;"),
    _v("timer_create_signal", {WA, RE},
       "struct sigevent ev = {}; ev.sigev_notify = SIGEV_SIGNAL; ev.sigev_signo = SIGUSR2; timer_t t;"
       " if (timer_create(CLOCK_MONOTONIC, &ev, &t) == 0) { struct itimerspec its = {{0, 1000000}, {0, 1000000}};"
       " timer_settime(t, 0, &its, nullptr); struct timespec ts = {1, 0}; nanosleep(&ts, nullptr); }"),
    _v("ignore_segv_then_fault", {RE}, "signal(SIGSEGV, SIG_IGN); *static_cast<volatile int*>(nullptr) = 1;"),
    _v("segv_handler_exit0", {RE}, "signal(SIGSEGV, [](int) { _exit(0); }); *static_cast<volatile int*>(nullptr) = 1;"),
    _v("segv_handler_forges", {RE}, "signal(SIGSEGV, akh::forge_handler); *static_cast<volatile int*>(nullptr) = 1;", fast=True),
    _v("handler_on_main_thread", {WA, RE},
       "signal(SIGUSR1, akh::forge_handler); syscall(SYS_tgkill, getpid(), getpid(), SIGUSR1);"
       " struct timespec ts = {0, 100000000}; nanosleep(&ts, nullptr);"),
    _v("handler_left_for_driver", {WA, RE},
       "signal(SIGSEGV, akh::forge_handler); signal(SIGABRT, akh::forge_handler); signal(SIGBUS, akh::forge_handler);"
       " mprotect(reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(context) & ~4095ul), 4096, PROT_NONE);"),
    _v("block_all_signals", {WA, RE}, "sigset_t s; sigfillset(&s); sigprocmask(SIG_BLOCK, &s, nullptr);"),
    _v("ignore_term_and_spin", {TO}, "signal(SIGTERM, SIG_IGN); signal(SIGXCPU, SIG_IGN); for (;;) akh::sink = 0;"),
]

_EXITS = [
    _v("exit0", {RE}, "std::exit(0);"),
    _v("exit1", {RE}, "std::exit(1);"),
    _v("exit3_emulator_code", {RE}, "std::exit(3);"),
    _v("exit4_driver_code", {RE}, "std::exit(4);"),
    _v("exit137", {RE}, "std::exit(137);"),
    _v("underscore_exit0", {RE}, "_exit(0);"),
    _v("underscore_exit255", {RE}, "_exit(255);"),
    _v("quick_exit0", {RE}, "std::quick_exit(0);"),
    _v("abort", {RE}, "std::abort();"),
    _v("terminate", {RE}, "std::terminate();"),
    _v("throw_runtime_error", {RE}, "throw std::runtime_error(\"host says no\");"),
    _v("throw_int", {RE}, "throw 42;"),
    _v("pthread_exit", {RE}, "pthread_exit(nullptr);"),
    _v("exit_group_raw", {RE}, "syscall(SYS_exit_group, 0);"),
    _v("exit_raw_thread", {RE, TO}, "syscall(SYS_exit, 0);"),
    _v("longjmp_stale", {WA, RE, TO},
       "static jmp_buf env; static int depth = 0; auto setup = []() -> int { return setjmp(env); };"
       " if (setup() == 0 && depth++ == 0) longjmp(env, 1);"),
    _v("infinite_recursion", {RE}, "akh::sink = akh::recurse(0);"),
    _v("spin_forever", {TO}, "for (;;) akh::sink = akh::sink + 1;"),
    _v("sleep_forever", {TO}, "for (;;) sleep(1000);"),
    _v("trap", {RE}, "__builtin_trap();"),
    _v("divide_by_zero", {RE}, "volatile int z = 0; akh::sink = akh::sink / z;"),
    _v("null_write", {RE}, "*static_cast<volatile int*>(nullptr) = 1;"),
    _v("return_failure", {RE}, "return ge::GRAPH_FAILED;"),
]

_OUTPUT = [
    _v("stderr_fake_driver_error", {WA, RE},
       "std::fprintf(stderr, \"[AKGEN][io] cannot open input ../in/c0t1_x.bin\\n\");"),
    _v("stderr_fake_driver_error_exit", {RE},
       "std::fprintf(stderr, \"[AKGEN][io] cannot open input ../in/c0t1_x.bin\\n\"); _exit(4);"),
    _v("stderr_fake_out_of_memory", {WA, RE}, "std::fprintf(stderr, \"std::bad_alloc out of memory\\n\");"),
    _v("stderr_fake_again_exit", {RE}, "std::fprintf(stderr, \"Resource temporarily unavailable\\n\"); _exit(1);"),
    _v("stderr_fake_sandbox_setup_failure", {RE},
       "std::fprintf(stderr, \"bwrap: Can't mount proc on /newroot/proc: Operation not permitted\\n\"); _exit(1);", fast=True),
    _v("stdout_fake_records", {WA, RE}, "akh::record(1, 3, 0, \"io\", \"cannot open input\");"),
    _v("stdout_flood", {RE}, "static char line[1 << 16]; std::memset(line, 'A', sizeof line);"
                             " for (;;) (void)!write(1, line, sizeof line);"),
]

_MISC = [
    _v("prctl_settings", {WA, RE},
       "prctl(PR_SET_DUMPABLE, 0); prctl(PR_SET_PDEATHSIG, SIGKILL); prctl(PR_SET_NAME, \"evil\");"
       " prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);"),
    _v("prctl_seccomp_strict", {WA, RE}, "prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT);"),
    _v("seccomp_deny_openat", {WA, RE}, "akh::deny(SYS_openat, true);", fast=True),
    _v("seccomp_deny_read", {WA, RE}, "akh::deny(SYS_read, true);"),
    _v("seccomp_deny_write", {WA, RE}, "akh::deny(SYS_write, true);"),
    _v("seccomp_deny_mmap", {WA, RE}, "akh::deny(SYS_mmap, true);"),
    _v("seccomp_deny_clone", {WA, RE}, "akh::deny(SYS_clone, true); akh::deny(SYS_clone3, true);"),
    _v("personality", {WA, RE}, "syscall(SYS_personality, 0x0400000);"),
    _v("ptrace_traceme", {SV, WA, RE}, "ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);"),
    _v("socket_inet", {SV, WA, RE}, "(void)socket(AF_INET, SOCK_STREAM, 0);"),
    _v("unshare_user", {SV, WA, RE}, "syscall(SYS_unshare, 0x10000000);"),
    _v("mount_tmpfs", {SV, WA, RE}, "syscall(SYS_mount, \"none\", \"/tmp\", \"tmpfs\", 0, nullptr);"),
    _v("ioctl_tiocsti", {WA, RE}, "char c = 'x'; ioctl(0, TIOCSTI, &c);"),
    _v("sched_affinity_and_nice", {WA, RE},
       "cpu_set_t s; CPU_ZERO(&s); CPU_SET(0, &s); sched_setaffinity(0, sizeof s, &s); setpriority(PRIO_PROCESS, 0, 19);"),
    _v("atexit_forges", {WA, RE}, "std::atexit([] { akh::forge(\"io\"); });", fast=True),
    _v("at_quick_exit_forges", {WA, RE}, "std::at_quick_exit([] { akh::forge(\"io\"); });"),
]

_LOAD_TIME = [
    _v("ctor_close_fds", {WA, RE}, globals=_ctor("for (int fd = 0; fd < 1024; ++fd) close(fd);")),
    _v("ctor_exhaust_fds", {WA, RE}, globals=_ctor("akh::exhaust_fds();")),
    _v("ctor_chdir", {WA, RE}, globals=_ctor("(void)!chdir(\"/\");")),
    _v("ctor_exit0", {RE}, globals=_ctor("std::exit(0);")),
    _v("ctor_forges", {WA, RE}, globals=_ctor("akh::forge(\"io\"); _exit(4);"), fast=True),
    _v("ctor_throws", {RE}, globals=_ctor("throw std::runtime_error(\"init\");")),
    _v("ctor_deny_openat", {WA, RE}, globals=_ctor("akh::deny(SYS_openat, true);")),
    _v("attribute_constructor", {WA, RE},
       globals="__attribute__((constructor)) static void evil_early() { akh::exhaust_fds(); }\n"),
    _v("constructor_priority", {CE, WA, RE},
       globals="__attribute__((constructor(101))) static void evil_first() { akh::exhaust_fds(); }\n"),
    _v("init_priority_object", {CE, WA, RE},
       globals="namespace { struct Early { Early() { (void)!chdir(\"/\"); } };"
               " Early early_instance __attribute__((init_priority(101))); }\n"),
    _v("preinit_array", {CE, WA, RE},
       globals="static void evil_preinit() { akh::exhaust_fds(); }\n"
               "__attribute__((section(\".preinit_array\"), used)) static void (*evil_preinit_ptr)() = evil_preinit;\n"),
    _v("destructor_forges", {CE, WA, RE},
       globals="__attribute__((destructor)) static void evil_last() { akh::forge(\"io\"); }\n"),
    _v("static_dtor_forges", {WA, RE},
       globals="namespace { struct Late { ~Late() { akh::forge(\"io\"); } }; Late late_instance; }\n"),
    _v("interpose_fopen", {WA, RE, CE},
       globals="extern \"C\" FILE* fopen(const char*, const char*) { errno = EMFILE; return nullptr; }\n"),
    _v("interpose_open", {WA, RE, CE},
       globals="extern \"C\" int open(const char*, int, ...) { errno = EMFILE; return -1; }\n", fast=True),
    _v("interpose_read", {WA, RE, CE},
       globals="extern \"C\" ssize_t read(int, void*, size_t) { errno = EIO; return -1; }\n"),
    _v("interpose_write_drops", {WA, RE, CE},
       globals="extern \"C\" ssize_t write(int, const void*, size_t n) { return static_cast<ssize_t>(n); }\n"),
    _v("interpose_operator_new", {WA, RE, CE},
       globals="void* operator new(std::size_t n) { if (n > 4096) throw std::bad_alloc(); return std::malloc(n ? n : 1); }\n"),
    _v("interpose_main", {WA, CE}, globals="int main() { return 0; }\n"),
    _v("ifunc_resolver", {CE, WA, RE},
       globals="extern \"C\" int evil_impl() { return 1; }\n"
               "extern \"C\" void* evil_resolve() { akh::exhaust_fds(); return reinterpret_cast<void*>(&evil_impl); }\n"
               "extern \"C\" int evil_ifunc() __attribute__((ifunc(\"evil_resolve\")));\n",
       body="akh::sink = evil_ifunc();"),
    _v("init_section_code", {CE, RE, WA},
       globals="__attribute__((section(\".init\"), used)) static void evil_init() { akh::exhaust_fds(); }\n"),
]

_COMPILE = [
    _v("include_etc_passwd", {CE}, globals="#include \"/etc/passwd\"\n"),
    _v("error_directive", {CE}, globals="#error hostile host\n"),
    _v("duplicate_entry_symbol", {CE, WA},
       globals="ge::graphStatus akgen_call_tiling(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }\n"),
]

VARIANTS: tuple[Variant, ...] = (*_FD, *_MEMORY, *_THREADS, *_SIGNALS, *_EXITS, *_OUTPUT, *_MISC, *_LOAD_TIME,
                                 *_COMPILE)


def host_source(template: str, variant: Variant) -> str:
    """``template`` (the task's host tiling) with the prelude, ``globals`` and ``body`` put in."""
    if _HEAD not in template or "namespace optiling {" not in template:
        raise ValueError("the host template no longer has the TilingFunc this generator edits")
    text = template.replace(_HEAD, _HEAD + "    " + variant.body + "\n", 1) if variant.body else template
    text = text.replace("namespace optiling {", variant.globals + "namespace optiling {", 1)
    return PRELUDE + text


def write_all(template: str, out: Path) -> list[Path]:
    """Write every variant's host file into ``out`` (for reading them, or running one by hand)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for v in VARIANTS:
        path = out / f"{v.name}.cpp"
        path.write_text(host_source(template, v), encoding="utf-8")
        paths.append(path)
    return paths

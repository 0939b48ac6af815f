"""A seccomp deny-list as a classic BPF program, for ``bwrap --seccomp FD``.

Written out by hand (no libseccomp dependency) because the filter is small and fixed: check the
architecture, then kill the process on any system call a kernel or a compiler has no business
making (sockets, ptrace, mounts, namespaces, kernel keyrings, BPF, io_uring, module loading).
Killing, rather than returning EPERM, makes an attempt visible: the sandboxed process dies with
SIGSYS and the evaluator reports ``sandbox_violation`` instead of a mysterious wrong answer.
The namespaces bwrap sets up are the first line of defence; this filter narrows the kernel
attack surface behind them.
"""

from __future__ import annotations

import platform
import struct

# <linux/filter.h>, <linux/seccomp.h>, <linux/audit.h>
_BPF_LD_W_ABS = 0x20
_BPF_JMP_JEQ_K = 0x15
_BPF_JMP_JGE_K = 0x35
_BPF_RET_K = 0x06
SECCOMP_RET_KILL_PROCESS = 0x80000000
SECCOMP_RET_ALLOW = 0x7FFF0000
_OFF_NR, _OFF_ARCH = 0, 4
_X32_SYSCALL_BIT = 0x40000000

#: Denied system calls by name; the numbers per architecture follow.
DENIED = (
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4",
    "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "chroot", "open_tree", "move_mount", "fsopen", "fsconfig",
    "fsmount", "fspick", "mount_setattr", "unshare", "setns",
    "keyctl", "add_key", "request_key", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "name_to_handle_at", "open_by_handle_at", "swapon", "swapoff", "reboot", "acct", "quotactl",
)

_X86_64 = {
    "socket": 41, "connect": 42, "accept": 43, "bind": 49, "listen": 50, "socketpair": 53,
    "ptrace": 101, "pivot_root": 155, "chroot": 161, "acct": 163, "mount": 165, "umount2": 166,
    "swapon": 167, "swapoff": 168, "reboot": 169, "init_module": 175, "delete_module": 176,
    "quotactl": 179, "kexec_load": 246, "add_key": 248, "request_key": 249, "keyctl": 250,
    "unshare": 272, "accept4": 288, "perf_event_open": 298, "name_to_handle_at": 303,
    "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311,
    "finit_module": 313, "kexec_file_load": 320, "bpf": 321, "userfaultfd": 323,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442,
}
# aarch64 uses the generic table (<asm-generic/unistd.h>).
_AARCH64 = {
    "umount2": 39, "mount": 40, "pivot_root": 41, "chroot": 51, "quotactl": 60, "acct": 89,
    "unshare": 97, "kexec_load": 104, "init_module": 105, "delete_module": 106, "ptrace": 117,
    "reboot": 142, "socket": 198, "socketpair": 199, "bind": 200, "listen": 201, "accept": 202,
    "connect": 203, "add_key": 217, "request_key": 218, "keyctl": 219, "swapon": 224,
    "swapoff": 225, "perf_event_open": 241, "accept4": 242, "name_to_handle_at": 264,
    "open_by_handle_at": 265, "setns": 268, "process_vm_readv": 270, "process_vm_writev": 271,
    "finit_module": 273, "bpf": 280, "userfaultfd": 282, "kexec_file_load": 294,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427, "open_tree": 428,
    "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
    "mount_setattr": 442,
}
ARCHES = {
    "x86_64": (0xC000003E, _X86_64),
    "aarch64": (0xC00000B7, _AARCH64),
}


class UnsupportedArchError(RuntimeError):
    """Raised when no syscall table exists for this machine's architecture."""


def _insn(code: int, jt: int, jf: int, k: int) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def build_filter(arch: str | None = None) -> bytes:
    """The BPF program (array of ``struct sock_filter``) for this or the named architecture."""
    arch = arch or platform.machine()
    if arch not in ARCHES:
        raise UnsupportedArchError(f"no seccomp syscall table for {arch!r}; known: {sorted(ARCHES)}")
    audit_arch, table = ARCHES[arch]
    numbers = sorted({table[name] for name in DENIED})
    prog = [
        _insn(_BPF_LD_W_ABS, 0, 0, _OFF_ARCH),
        # A foreign ABI (e.g. 32-bit int 0x80 calls) would bypass the table: kill it.
        _insn(_BPF_JMP_JEQ_K, 1, 0, audit_arch),
        _insn(_BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS),
        _insn(_BPF_LD_W_ABS, 0, 0, _OFF_NR),
    ]
    if arch == "x86_64":
        # x32 system calls share the arch value but set this bit.
        prog.append(_insn(_BPF_JMP_JGE_K, len(numbers) + 1, 0, _X32_SYSCALL_BIT))
    for i, nr in enumerate(numbers):
        # Jump over the remaining comparisons and the ALLOW to the final KILL.
        prog.append(_insn(_BPF_JMP_JEQ_K, len(numbers) - i, 0, nr))
    prog.append(_insn(_BPF_RET_K, 0, 0, SECCOMP_RET_ALLOW))
    prog.append(_insn(_BPF_RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS))
    return b"".join(prog)

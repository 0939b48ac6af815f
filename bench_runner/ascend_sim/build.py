"""Compile helpers for ascend_sim, the g++ emulation of AscendC kernels.

Why this module exists: every evaluation compiles a kernel plus a CPU-debug host program. The
emulation headers are large, so parsing them and compiling the simulator runtime on each build
would cost several seconds. ``ensure_pch`` builds, once per (headers, compiler, flags, SoC
architecture macros), a precompiled prelude (``kernel_operator.h`` without the device-code poison,
force-included into every translation unit) and an object file with the out-of-line runtime;
``compile_command`` uses them when present and falls back to the header-only build otherwise.

The cache lives under ``~/.cache/akgen/pch/<fingerprint>/`` (``ASCEND_SIM_CACHE_DIR`` overrides
the root). It is built in a temporary directory and renamed into place, so concurrent callers
never see a half-written cache. The evaluator's sandbox only needs the include directory, the
returned cache directory and its scratch directory to be readable.

This module must not import Django: the bench runner uses it outside the platform.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from bench_runner import cache
from bench_runner.contracts import DEFAULT_SOC as DEFAULT_SOC  # the one default SoC, re-exported

SOC_NAMES: tuple[str, ...] = (
    "Ascend910B1",
    "Ascend910B2",
    "Ascend910B3",
    "Ascend910B4",
    "Ascend310P3",
)

#: What CANN's compilers define per SoC: ``__NPU_ARCH__`` and ``__CCE_AICORE__`` (220 on the
#: Atlas A2 910B family, 200 on the 310P inference cards; 100 = 910A, 300 = 310B, 310 = 950 are
#: not profiled here). Source: CANN's asc-devkit device AST analyser (DAV_VERSION_MAP: 910B
#: ``__CCE_AICORE__=220 __NPU_ARCH__=2201``, 310P ``200 / 2002``, 910 ``100 / 1001``, 310B
#: ``300 / 3002``). Public kernels branch on it (``#if __CCE_AICORE__ == 220``: 70 of
#: NPUKernelBench's 153 answer kernels), so the value must follow the SoC the program runs as;
#: the precompiled header is built per value (see ``arch_flags``).
SOC_ARCH: dict[str, tuple[int, int]] = {
    "Ascend910B1": (2201, 220),
    "Ascend910B2": (2201, 220),
    "Ascend910B3": (2201, 220),
    "Ascend910B4": (2201, 220),
    "Ascend310P3": (2002, 200),
}

CXX = "g++"
# -O2: vector ops run as plain C++ loops, so optimisation decides emulation speed; with the
# precompiled header a typical kernel still compiles well under a second.
# -fno-strict-aliasing: kernels often pun types through pointer casts; keep them working at -O2.
# -DASCENDC_CPU_DEBUG (=1) and -D__CCE_KT_TEST__=1: CANN's CPU-debug build defines them on the command line
# (samples test them before their first include to hide the NPU-only launch code; __CCE_KT_TEST__
# is the 2023 samples' spelling). base.h keeps #ifndef fallbacks for builds without these flags.
BASE_FLAGS: tuple[str, ...] = ("-std=c++17", "-O2", "-fno-strict-aliasing", "-DASCENDC_CPU_DEBUG",
                               "-D__CCE_KT_TEST__=1", "-pthread")
PREBUILT_FLAG = "-DASCEND_SIM_PREBUILT_RUNTIME"
#: Call-back instrumentation of the translation units that use the prebuilt runtime (the kernel,
#: the driver, the host tiling): every basic block and every pointer load/store of their own code
#: calls the runtime, which charges the kernel's scalar work to the S pipe (include/ascend_sim/
#: scalar_hooks.h). The emulator's functions are exempt (ASCEND_SIM_NOINSTR); the host-side code
#: runs outside a launch, where the call-backs do nothing. kernel-address links no sanitizer
#: runtime; a call threshold of 0 makes every check a call; stack and global redzones are off.
#: Chosen by measurement over -finstrument-functions (sees calls, not loops or accesses) and
#: -fsanitize=thread (links libtsan, instruments function entry/exit): see docs/ascend_sim.md.
INSTRUMENT_FLAGS: tuple[str, ...] = (
    "-fsanitize=kernel-address",
    "--param=asan-instrumentation-with-call-threshold=0",
    "--param=asan-stack=0",
    "--param=asan-globals=0",
    "-fsanitize-coverage=trace-pc",
)

#: For the driver's objects (main.o, a task's fixed host): their code is ours and runs outside the
#: kernel, so it is not charged. Instrumented, their copies of library templates (a vector's
#: growth) could be the ones the linker keeps, and the emulator's own calls into them during a
#: launch were then charged to the kernel: a kernel's modelled cycles moved with the driver's code.
UNINSTRUMENTED_FLAGS: tuple[str, ...] = ("-fno-sanitize=all", "-fno-sanitize-coverage=trace-pc")

#: The precompiled header is force-included (``-include``) into every translation unit, so it is
#: used whatever the kernel includes first (a tiling header, its own header that includes
#: kernel_operator.h, a second kernel_operator.h). It is kernel_operator.h without the device-code
#: poison (ASCEND_SIM_PCH_PRELUDE), so host translation units stay ordinary C++; the kernel's own
#: ``#include "kernel_operator.h"`` then only adds the poison (the rest is include-guarded).
#: PCH_HEADER stays next to the .gch as the textual fallback GCC reads when it cannot use the .gch.
PCH_HEADER = "ascend_sim_pch.h"
PCH_NAME = PCH_HEADER + ".gch"
_PCH_SOURCE = (
    "// ascend_sim: the precompiled prelude (build.py). kernel_operator.h without device_code.h.\n"
    "#define ASCEND_SIM_PCH_PRELUDE 1\n"
    '#include "kernel_operator.h"\n'
    "#undef ASCEND_SIM_PCH_PRELUDE\n"
)
RUNTIME_OBJ = "ascend_sim_runtime.o"
#: The same prelude precompiled for the uninstrumented driver objects (UNINSTRUMENTED_FLAGS):
#: GCC refuses a PCH built with other sanitizer flags, so without its own the driver (main.o,
#: a task's fixed host) parsed every emulator header, ~3 s per task version.
DRIVER_PCH_DIR = "driver"
#: The driver's optimisation level: its code is the harness (manifest, files, tiling context),
#: never the emulation (the kernel object is linked first, so its copies of shared templates win);
#: -O1 compiles it in two thirds of -O2's time.
DRIVER_OPT = "-O1"
_STAMP = "READY"


def include_dir() -> Path:
    """Directory to pass with ``-I``: holds kernel_operator.h and tikicpulib.h."""
    return Path(__file__).resolve().parent / "include"


def cache_root() -> Path:
    """Root of the precompiled-header cache (``ASCEND_SIM_CACHE_DIR`` or ~/.cache/akgen/pch)."""
    override = os.environ.get("ASCEND_SIM_CACHE_DIR")
    if override:
        return Path(override)
    return Path.home() / ".cache" / "akgen" / "pch"


@lru_cache(maxsize=1)
def link_flags() -> tuple[str, ...]:
    """``-fuse-ld=gold`` where binutils ships gold: it links a kernel with the driver and the
    runtime object in about 20 ms against ld.bfd's 50 ms, and the link is in every submission's
    compile (the output is the same program; nothing downstream depends on the linker)."""
    return ("-fuse-ld=gold",) if shutil.which("ld.gold") else ()


def arch_flags(soc: str | None = None) -> tuple[str, ...]:
    """``-D__NPU_ARCH__=…`` and ``-D__CCE_AICORE__=…`` for ``soc`` (default: DEFAULT_SOC)."""
    name = soc or DEFAULT_SOC
    if name not in SOC_ARCH:
        raise ValueError(f"unknown SoC {name!r}; known: {', '.join(SOC_NAMES)}")
    npu_arch, aicore = SOC_ARCH[name]
    return (f"-D__NPU_ARCH__={npu_arch}", f"-D__CCE_AICORE__={aicore}")


@lru_cache(maxsize=4)
def _compiler_identity(cxx: str) -> str:
    """The compiler's version banner: a PCH is only valid for the exact compiler that wrote it."""
    try:
        out = subprocess.run(
            [cxx, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
        machine = subprocess.run(
            [cxx, "-dumpmachine"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return "unavailable"
    return out.stdout + machine.stdout


def fingerprint(soc: str | None = None) -> str:
    """Hash of every header, the compiler identity and the flags (the SoC's architecture macros
    included: one cache per distinct value): names the cache directory."""
    h = hashlib.sha256()
    h.update(_compiler_identity(CXX).encode())
    h.update("\0".join((*BASE_FLAGS, *arch_flags(soc), PREBUILT_FLAG, *INSTRUMENT_FLAGS, *UNINSTRUMENTED_FLAGS,
                        DRIVER_PCH_DIR, DRIVER_OPT, _PCH_SOURCE)).encode())
    root = include_dir()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(root)).encode())
        h.update(b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:20]


def _cache_dir(soc: str | None = None) -> Path:
    return cache_root() / fingerprint(soc)


def _ready(directory: Path) -> bool:
    """The cache in ``directory`` is complete and only this user can have written it (its
    runtime object is linked into every kernel as found: cache.private_dir)."""
    if cache.unsafe_reason(directory.parent) or cache.unsafe_reason(directory):
        return False
    return all((directory / name).is_file() for name in (PCH_HEADER, PCH_NAME, RUNTIME_OBJ, _STAMP,
                                                         f"{DRIVER_PCH_DIR}/{PCH_NAME}"))


def ensure_pch(soc: str | None = None) -> Path | None:
    """Build (once) the precompiled header and runtime object for ``soc``'s architecture macros
    (default: DEFAULT_SOC); return their directory.

    Returns None when they cannot be built (no compiler, read-only home, ...); callers then get
    the slower header-only command from ``compile_command``.
    """
    arch = arch_flags(soc)
    target = _cache_dir(soc)
    if _ready(target):
        return target
    inc = include_dir()
    try:
        cache.private_dir(target.parent, 0o755)  # sandboxed compilers may read it as another user
        tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=target.parent))
    except OSError:
        return None
    try:
        wrapper = tmp / PCH_HEADER
        # GCC looks the PCH up by the name given to -include: ascend_sim_pch.h.gch.
        wrapper.write_text(_PCH_SOURCE)
        driver = tmp / DRIVER_PCH_DIR
        driver.mkdir()
        (driver / PCH_HEADER).write_text(_PCH_SOURCE)
        steps = [
            [
                CXX,
                *BASE_FLAGS,
                *arch,
                f"-I{inc}",
                "-c",
                str(inc / "ascend_sim" / "runtime_lib.cpp"),
                "-o",
                str(tmp / RUNTIME_OBJ),
            ],
            [
                CXX,
                *BASE_FLAGS,
                *arch,
                *INSTRUMENT_FLAGS,
                PREBUILT_FLAG,
                f"-I{inc}",
                "-x",
                "c++-header",
                str(wrapper),
                "-o",
                str(tmp / PCH_NAME),
            ],
            [
                CXX,
                *BASE_FLAGS,
                *arch,
                *INSTRUMENT_FLAGS,
                PREBUILT_FLAG,
                *UNINSTRUMENTED_FLAGS,
                DRIVER_OPT,
                f"-I{inc}",
                "-x",
                "c++-header",
                str(driver / PCH_HEADER),
                "-o",
                str(driver / PCH_NAME),
            ],
        ]
        for argv in steps:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
            if proc.returncode != 0:
                shutil.rmtree(tmp, ignore_errors=True)
                return None
        (tmp / _STAMP).write_text(fingerprint(soc) + "\n")
        tmp.chmod(0o755)  # mkdtemp makes it private; sandboxed compilers may run as another user
        driver.chmod(0o755)
        try:
            os.rename(tmp, target)
        except OSError:
            # Another process finished first; keep its copy.
            shutil.rmtree(tmp, ignore_errors=True)
        return target if _ready(target) else None
    except (OSError, subprocess.SubprocessError):
        shutil.rmtree(tmp, ignore_errors=True)
        return None


def compile_command(
    sources: list[Path],
    output: Path,
    *,
    extra_include_dirs: Sequence[Path] = (),
    soc: str | None = None,
    instrumented: bool = True,
) -> list[str]:
    """Full g++ argv that builds kernel + host sources into one executable for ``soc``
    (default: DEFAULT_SOC; it decides ``__CCE_AICORE__``/``__NPU_ARCH__``, so run the program
    with the same ``ASCEND_SIM_SOC``).

    Uses the cached precompiled header and runtime object when ``ensure_pch(soc)`` has built
    them; otherwise the headers compile the runtime inline (slower compile, and without the
    scalar-work instrumentation, whose call-backs live in the runtime object).
    ``instrumented=False``: a driver object's command (UNINSTRUMENTED_FLAGS appended, the
    driver's own precompiled header found first).
    """
    inc = include_dir()
    cached = _cache_dir(soc)
    argv = [CXX, *BASE_FLAGS, *arch_flags(soc)]
    if _ready(cached):
        # Instrumentation needs the call-backs, which only the prebuilt runtime object defines.
        # -Winvalid-pch: should the PCH not apply (flags or macros that differ from its build),
        # the compile log says why rather than the build silently taking seconds longer.
        argv += [*INSTRUMENT_FLAGS, PREBUILT_FLAG]
        if not instrumented:
            argv += [*UNINSTRUMENTED_FLAGS, DRIVER_OPT, f"-I{cached / DRIVER_PCH_DIR}"]
        argv += [f"-I{cached}", "-include", PCH_HEADER, "-Winvalid-pch"]
    argv.append(f"-I{inc}")
    argv += [f"-I{Path(d)}" for d in extra_include_dirs]
    argv += [str(Path(s)) for s in sources]
    if _ready(cached):
        argv.append(str(cached / RUNTIME_OBJ))
    argv += [*link_flags(), "-o", str(Path(output))]
    return argv

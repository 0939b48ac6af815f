"""cpu-sim: g++ with the ascend_sim headers, run inside the sandbox, timed by the cost model.

The emulator's own ``build.py`` decides how to compile (flags, include paths, precompiled
header); this module decides what to compile (the submission wrapped by the fixed driver),
where (a sandboxed job directory) and with which limits, and reads back the driver's result
stream and the emulator's report. Cycles come from the emulator's deterministic cost model, so
a result is reproducible on any machine.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from bench_runner import (
    device_code,
    launcher,
    op_project,
    report_guard,
    sandbox,
    static_check,
    taxonomy,
)
from bench_runner.ascend_sim import source_rewrite
from bench_runner.cache import Cache, key_of
from bench_runner.contracts import DEFAULT_SOC
from bench_runner.errors import ToolchainUnavailableError
from bench_runner.launcher import Trial
from bench_runner.reference import case_view
from bench_runner.tasks import CaseSpec, Task
from bench_runner.toolchains import host_object
from bench_runner.toolchains.base import (
    Availability,
    BuildOutcome,
    CaseRun,
    Preprocessed,
    Sources,
    Toolchain,
)
from bench_runner.toolchains.host_object import elf_section_names

MiB = sandbox.MiB
#: Copies the emulator's last report out of the sandbox's private /tmp after the program ends,
#: however it ends (the report of a crashed or failed run explains the failure).
_RUN_WRAPPER = '"$@"; rc=$?; cat "$ASCEND_SIM_REPORT" >"/dev/fd/$AKGEN_FD_1" 2>/dev/null; exit $rc'
_REPORT_CAP = report_guard.MAX_REPORT_BYTES
_GENERATED = (launcher.SIGNATURE_FILE, "host_tu.cpp", "main.cpp")
_USER_FILES = {"kernel.cpp": "kernel.cpp", "host.cpp": "host.cpp"}


@functools.lru_cache(maxsize=1)
def _sim_build() -> ModuleType | None:
    try:
        return importlib.import_module("bench_runner.ascend_sim.build")
    except ImportError:
        return None


def _require_build() -> ModuleType:
    mod = _sim_build()
    if mod is None:
        raise ToolchainUnavailableError("cpu-sim needs bench_runner/ascend_sim/build.py (the emulator), "
                                        "which is not importable in this installation")
    return mod


@functools.lru_cache(maxsize=1)
def _gxx_version() -> str | None:
    gxx = shutil.which("g++")
    if gxx is None:
        return None
    try:
        return subprocess.run([gxx, "-dumpfullversion"], capture_output=True, text=True, timeout=20,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


@functools.lru_cache(maxsize=1)
def _content_version() -> str:
    """A digest of everything that shapes a result: emulator headers, build.py, the source
    rewrite, the driver."""
    h = hashlib.sha256()
    mod = _require_build()
    roots = [Path(mod.include_dir()), Path(mod.__file__), Path(source_rewrite.__file__), launcher.HARNESS_DIR]
    for root in roots:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for p in files:
            h.update(p.name.encode())
            h.update(hashlib.sha256(p.read_bytes()).digest())
    h.update((_gxx_version() or "").encode())
    return h.hexdigest()[:16]


class CpuSim(Toolchain):
    name = "cpu-sim"

    def availability(self) -> Availability:
        mod = _sim_build()
        if mod is None:
            return Availability(False, "the ascend_sim emulator (bench_runner/ascend_sim/build.py) is missing")
        if _gxx_version() is None:
            return Availability(False, "g++ not found (apt-get install g++)")
        be = sandbox.backend()
        note = "" if be.name == "bwrap" else f"; sandbox: {be.reason}"
        return Availability(True, f"g++ {_gxx_version()}, emulator {_content_version()}{note}",
                            tuple(mod.SOC_NAMES))

    def default_soc(self) -> str:
        _require_build()
        return DEFAULT_SOC

    def hbm_bytes_per_cycle(self, soc: str) -> float | None:
        """The SoC's HBM bandwidth in bytes per cycle: the evaluator's floor under every modelled time."""
        return _hbm_bytes_per_cycle(soc)

    def identity(self, soc: str) -> dict[str, str]:
        return {"name": self.name, "version": f"ascend_sim-{_content_version()}", "soc": soc}

    # -----------------------------------------------------------------------------------------
    # Build

    def build(self, task: Task, job: sandbox.JobDir, sources: Sources, *, soc: str,
              objects: Cache) -> BuildOutcome:
        """Compile the kernel and link it with the driver (and host tiling) objects.

        The driver (main.cpp) depends only on the task, and the fixed host of the device_only
        path too, so their objects are compiled once per task version and toolchain and then
        reused: a submission usually costs one translation unit plus a link. A submitted host
        is compiled on its own and confined before the link (host_object.py).
        """
        start = time.monotonic()
        box = job.box
        _write_task_headers(task, box)
        files = _box_sources(task, sources)
        if isinstance(files, BuildOutcome):
            return files
        kernels, host_files = files
        refused = static_check.device_code_findings(sources.kernel, "kernel.cpp")
        if refused:  # a compile error at the kernel's line, before the compiler runs
            return BuildOutcome(False, "\n".join(f"{d.file}:{d.line}: error: {d.message}" for d in refused), refused,
                                None, time.monotonic() - start)
        for name, text in kernels.items():
            (box / name).write_text(text, encoding="utf-8")
        inputs: list[Path] = [Path("kernel.cpp")]
        other_passes = [Path(name) for name in kernels if name != "kernel.cpp"]
        host_source: Path | None = None
        prebuilt = {"main.o": {"main.cpp": launcher.main_cpp(task)}}
        for name, text in host_files.items():  # the kernel may include the host's tiling header
            if name != "host.cpp":
                (box / name).write_text(text, encoding="utf-8")
        if task.needs_host:
            host_files = {**host_files, "host_tu.cpp": launcher.host_tu(task)}
            if sources.host_is_fixed:
                prebuilt["host_tu.o"] = host_files
            else:
                for name, text in host_files.items():
                    (box / name).write_text(text, encoding="utf-8")
                host_source = Path("host_tu.cpp")
        for obj_name, files in prebuilt.items():
            obj = self._object(task, obj_name, files, objects)
            if isinstance(obj, BuildOutcome):
                return obj
            shutil.copyfile(obj, box / obj_name)
            inputs.append(Path(obj_name))
        res = self._compile(task, box, job.logs / "compile", inputs, Path("prog"), link=True, soc=soc,
                            kernel_object=KERNEL_OBJECT, host_source=host_source, other_passes=other_passes)
        log = (res.stdout + res.stderr).strip()
        if res.truncated:
            log += "\n[akgen: compile log truncated]"
        ok = res.exit_code == 0 and res.limit is None and (box / "prog").is_file()
        # Checked first: the link of such an object fails with an unhelpful undefined reference.
        kernel_objects = [box / KERNEL_OBJECT, *(box / p.with_suffix(".o") for p in other_passes)]
        early = [d for obj in kernel_objects for d in load_time_code(obj)] if res.limit is None else []
        if not early and ok:  # what the kernel's code calls: the device-code allow-list
            passes = {launcher.pass_symbol(task, p.stem.removeprefix("kernel_")) for p in other_passes}
            early = [d for obj in kernel_objects
                     for d in device_code.check_object(obj, _runtime_object(soc), sources.kernel, passes=passes)]
        if not early and host_source is not None and res.limit is None:
            early = host_object.breaches(box / host_object.CONFINED_OBJECT)
        if early:
            return BuildOutcome(False, (log + "\n" + early[0].message).strip(), early, res, time.monotonic() - start)
        diags = [] if ok else taxonomy.parse_compile_log(log, user_files=_USER_FILES, generated=_GENERATED,
                                                          entry=task.entry)
        return BuildOutcome(ok, log, diags, res, time.monotonic() - start)

    def macros(self) -> dict[str, str]:
        return _emulator_macros()

    def preprocess(self, task: Task, sources: Sources) -> Preprocessed | None:
        """The submitted files through ``g++ -E -dD``, sandboxed like the compile, for static_check.

        Same flags and include path as the compile, plus ``-fpch-preprocess``: the precompiled
        header supplies the emulator's macros without printing its text, so this costs about a
        tenth of a second; evaluate() only asks for it when a file could hide tokens
        (static_check.may_hide_tokens). None when no output came (the compile then says why).
        """
        mod = _require_build()
        built = _box_sources(task, sources)  # what the compile sees
        if isinstance(built, BuildOutcome):
            return None
        kernels, host_files = built
        files = {"kernel.cpp": kernels["kernel.cpp"], **host_files}
        compiled = ["kernel.cpp"]
        if task.needs_host and not sources.host_is_fixed and sources.host is not None:
            compiled.append("host.cpp")
        texts = []
        with sandbox.job_dir() as job:
            _write_task_headers(task, job.box)
            for name, text in files.items():
                (job.box / name).write_text(text, encoding="utf-8")
            for name in compiled:
                res = self._compile(task, job.box, job.logs / f"pp-{name}", [Path(name)], Path(f"{name}.ii"),
                                    link=False, preprocess=True)
                out = job.box / f"{name}.ii"
                if res.limit is not None or not out.is_file():  # an error still leaves the rest's output
                    return None
                texts.append(out.read_text(encoding="utf-8", errors="replace"))
        # the task's own headers by their paths (a CANN op_kernel folder's subfolders: GeGluV2's tanh/*.h)
        roots = (str(Path(mod.include_dir())), str(launcher.HARNESS_DIR), "/usr/include/", "/usr/lib/gcc/",
                 "/usr/local/include/", *(name for name, _ in task.shared_headers()))
        # akgen_signature.h: the entry declaration appended to kernel.cpp (launcher.kernel_source)
        names = {n: n for n in (*files, launcher.SIGNATURE_FILE)}
        return Preprocessed("\n".join(texts), names, _emulator_macros(), roots)

    def _compile(self, task: Task, box: Path, logs: Path, inputs: list[Path], output: Path, *,
                 link: bool, preprocess: bool = False, soc: str | None = None,
                 kernel_object: Path | None = None, host_source: Path | None = None,
                 instrumented: bool = True, other_passes: Sequence[Path] = ()) -> sandbox.SandboxResult:
        """g++ in the sandbox. ``kernel_object``: with ``link``, compile ``inputs[0]`` to that
        object first and link it with the rest, in one sandboxed shell (the object is inspected
        afterwards: load_time_code). ``host_source``: a submitted host translation unit, compiled
        there too and confined (host_object.objcopy_argv) before it joins the link.
        ``other_passes``: the kernel's further compile passes (launcher.core_passes), each compiled
        to its own object whose functions are renamed but for its entry (_rename_pass_functions),
        so each core type runs its own pass's copies of code that differs between passes.
        ``instrumented=False``: a driver object, compiled without the scalar-work call-backs
        (build.UNINSTRUMENTED_FLAGS, with the drivers' own precompiled prelude)."""
        mod = _require_build()
        # soc: the kernel's __CCE_AICORE__/__NPU_ARCH__ (and their PCH) follow the SoC it runs as
        pch = mod.ensure_pch(soc)  # before compile_command, which only uses a ready cache
        if pch is None:
            # Without the prebuilt runtime the kernel compiles uninstrumented: its scalar work would
            # be free and its stores unguarded (docs/security.md). Judge nothing rather than that.
            raise ToolchainUnavailableError(
                f"the emulator's instrumented runtime could not be built in {mod.cache_root()} (a compile error "
                "in the headers, no g++, a read-only cache, or one another user can write): kernels would run without the cost model's "
                "scalar charges and memory guard, so none is judged")
        runtime = getattr(mod, "RUNTIME_OBJ", "ascend_sim_runtime.o")

        def command(ins: list[Path], out: Path, step: str | None) -> list[str]:
            argv = list(mod.compile_command(ins, out, extra_include_dirs=(launcher.HARNESS_DIR,), soc=soc,
                                            instrumented=instrumented))
            if pch is not None:
                argv = [a.replace(str(pch), str(visible)) for a in argv]
            if step is not None:
                argv = [a for a in argv if not a.endswith(runtime)]
                argv.insert(1, step)
                if step == "-E":
                    argv[2:2] = ["-dD", "-fpch-preprocess"]
            return argv

        # A checkout in a private directory is mirrored for the sandbox uid (per content version).
        version = _content_version()
        mounts = [sandbox.tree_mount(Path(mod.include_dir()), version), sandbox.tree_mount(launcher.HARNESS_DIR, version)]
        if pch is not None:
            visible = sandbox.visible_copy(Path(pch))
            mounts.append(sandbox.Mount(visible))
        if link and kernel_object is not None:
            steps: list[str] = []
            objects = [(inputs[0], kernel_object)] + [(p, p.with_suffix(".o")) for p in other_passes]
            for source, obj in objects:
                steps.append(shlex.join(command([source], obj, "-c") + list(device_code.KERNEL_COMPILE_FLAGS)))
                if pch is not None:  # calls of C routines go to the runtime's charged copies (device_code.py)
                    steps.append(shlex.join(device_code.rename_argv(obj, Path(pch) / runtime)))
                if obj != kernel_object:
                    steps.append(_rename_pass_functions(obj, launcher.pass_symbol(task, obj.stem.removeprefix("kernel_"))))
                else:
                    steps.append(_keep_own_copies(obj, box, Path(pch) / runtime))
            rest = [obj for _, obj in objects[1:]] + inputs[1:]
            if host_source is not None:
                steps += [shlex.join(command([host_source], host_object.SOURCE_OBJECT, "-c")
                                     + list(host_object.COMPILE_FLAGS)),
                          shlex.join(host_object.objcopy_argv())]
                rest = [*rest, host_object.CONFINED_OBJECT]
            steps.append(shlex.join(command([kernel_object, *rest], output, None)))
            argv = ["/bin/sh", "-c", " && ".join(steps)]
        else:
            argv = command(inputs, output, None if link else ("-E" if preprocess else "-c"))
        limits = sandbox.Limits(wall_s=task.limits.get("compile_wall_s", 120.0), cpu_s=120.0,
                                memory_bytes=4 * sandbox.GiB, processes=64, file_bytes=512 * MiB,
                                tmp_bytes=1024 * MiB, log_bytes=256 * 1024)
        return sandbox.run(argv, box=box, logs=logs, limits=limits, mounts=mounts)

    def _object(self, task: Task, name: str, files: dict[str, str], objects: Cache) -> Path | BuildOutcome:
        """A task-level object (driver or fixed host), compiled on first use and cached."""
        key = key_of(task=task.version, toolchain=_content_version(), object=name,
                     files={k: hashlib.sha256(v.encode()).hexdigest() for k, v in files.items()})
        path = objects.object_path(key, ".o")
        if path.is_file():
            return path
        start = time.monotonic()
        with sandbox.job_dir() as job:
            _write_task_headers(task, job.box)
            for fname, text in files.items():
                (job.box / fname).write_text(text, encoding="utf-8")
            source = Path(name.replace(".o", ".cpp"))
            res = self._compile(task, job.box, job.logs, [source], Path(name), link=False, instrumented=False)
            built = job.box / name
            if res.exit_code != 0 or res.limit is not None or not built.is_file():
                log = (res.stdout + res.stderr).strip()
                diags = taxonomy.parse_compile_log(log, user_files=_USER_FILES, generated=_GENERATED,
                                                   entry=task.entry)
                return BuildOutcome(False, log, diags, res, time.monotonic() - start)
            return objects.put_bytes("objects", key, built.read_bytes(), ".o")

    # -----------------------------------------------------------------------------------------
    # Run

    def run_case(self, task: Task, job: sandbox.JobDir, case_index: int, case: CaseSpec, trials: list[Trial], *,
                 soc: str) -> CaseRun:
        files = [launcher.write_trial_files(task, case_index, t, job.inputs) for t in trials]
        tmp = sandbox.private_tmp(job)
        report_path = f"{tmp}/akgen-report-c{case_index}.json"
        manifest = launcher.manifest_text(task, case, files, report_path=report_path,
                                          platform=_platform(soc))
        manifest_path = job.inputs / f"manifest_c{case_index}.txt"
        manifest_path.write_text(manifest, encoding="ascii")
        view = case_view(task, case)
        buffer_bytes = sum(
            int(_numel(view.shapes[t.name])) * t.dtype.itemsize
            for t in (*task.inputs, *task.outputs) if t.alias is None
        )
        largest = max(int(_numel(view.shapes[t.name])) * t.dtype.itemsize for t in (*task.inputs, *task.outputs))
        wall = case.limits.get("run_wall_s", 30.0)
        limits = sandbox.Limits(
            wall_s=wall, cpu_s=case.limits.get("run_cpu_s", 60.0),
            memory_bytes=int(case.limits.get("run_memory_mb", 4096)) * MiB,
            processes=256, file_bytes=max(64 * MiB, len(trials) * (buffer_bytes + _REPORT_CAP) + MiB),
            tmp_bytes=64 * MiB + 4 * _REPORT_CAP, log_bytes=64 * 1024)
        env = {
            "ASCEND_SIM_SOC": soc,
            "ASCEND_SIM_REPORT": report_path,
            "ASCEND_SIM_TIMEOUT_S": f"{max(2.0, wall / (len(trials) + 1)):.1f}",
            "ASCEND_SIM_TIMELINE_LIMIT": "2000",
            "MALLOC_ARENA_MAX": "2",
        }
        logs = job.logs / f"case{case_index}"
        mounts = [sandbox.Mount(job.inputs)]
        try:
            res = sandbox.run(["/bin/sh", "-c", _RUN_WRAPPER, "sh", "./prog", f"../{job.inputs.name}/{manifest_path.name}"],
                              box=job.box, logs=logs, limits=limits, mounts=mounts, env=env, writable_box=False,
                              pass_files=[logs / "result.bin", logs / "final_report.json"])
            stream_error = None
            data = (logs / "result.bin").read_bytes()
            names = {t.name for t in (*task.inputs, *task.outputs) if t.alias is None}
            try:
                stream = launcher.parse_stream(data, trials=len(trials), buffer_names=names,
                                               max_buffer_bytes=max(largest, _REPORT_CAP))
            except launcher.StreamError as exc:
                stream, stream_error = launcher.StreamResult([launcher.TrialOutput() for _ in trials]), str(exc)
            final, final_error = _load_report((logs / "final_report.json").read_bytes())
            # The result's timeline comes from the first trial's report (or the final one): the
            # other trials' reports are read for their totals only.
            loaded = [_load_report(t.report, timeline=i == 0) for i, t in enumerate(stream.trials)]
            reports = [r for r, _ in loaded]
            report_error = next((e for _, e in loaded if e), None) or final_error
            if report_error and stream_error is None:
                stream_error = report_error  # the kernel's process wrote it: the kernel's runtime error
            return CaseRun(res, stream, final, reports, stream_error)
        finally:
            for t_files in files:
                for rel in t_files.values():
                    (job.box / rel).unlink(missing_ok=True)


#: The public headers a kernel includes whose macros expand to emulator code: kernel_operator.h
#: and the Matmul API's (REGIST_MATMUL_OBJ), which kernels include themselves.
_MACRO_HEADERS = ("kernel_operator.h", "lib/matmul_intf.h")


@functools.lru_cache(maxsize=1)
def _emulator_macros() -> dict[str, str]:
    """The macros the public headers define (``g++ -dM`` on our own headers only: trusted input),
    so that static_check knows what a line naming one of them may carry (_MACRO_HEADERS)."""
    from bench_runner import static_check

    mod = _require_build()
    with sandbox.job_dir() as job:
        (job.box / "probe.cpp").write_text("".join(f'#include "{h}"\n' for h in _MACRO_HEADERS), encoding="utf-8")
        argv = list(mod.compile_command([Path("probe.cpp")], Path("probe.o"), extra_include_dirs=(launcher.HARNESS_DIR,)))
        argv = [a for a in argv[:argv.index("-o")] if not a.endswith(getattr(mod, "RUNTIME_OBJ", ".o"))]
        proc = subprocess.run([argv[0], "-E", "-dM", *argv[1:]], cwd=job.box, capture_output=True, text=True,
                              timeout=120, check=False)
    return static_check.macro_table(proc.stdout) if proc.returncode == 0 else {}


#: The kernel's own object, kept in the box after a build so it can be inspected.
KERNEL_OBJECT = Path("kernel.o")
#: ELF sections through which code runs before main() or after exit(): dynamic initialisers and
#: destructors of namespace-scope objects, __attribute__((constructor/destructor)).
_LOAD_TIME_SECTIONS = (".init_array", ".preinit_array", ".ctors", ".fini_array", ".dtors")


def _runtime_object(soc: str) -> Path | None:
    """The prebuilt runtime object the kernel links with (None in the header-only fallback)."""
    mod = _require_build()
    pch = mod.ensure_pch(soc)
    return Path(pch) / getattr(mod, "RUNTIME_OBJ", "ascend_sim_runtime.o") if pch is not None else None


def load_time_code(obj: Path) -> list[taxonomy.Diagnostic]:
    """Code in the kernel's translation unit that runs before the launch (or after it).

    The AI core has no loader that runs initialisers: kernel-side globals are constant-
    initialised or set up inside the kernel. On cpu-sim such code would run on the host before
    the first core starts, outside the cost model (it could precompute work for free), so it is a
    device-code compile error. The emulator's headers add none (tests/bench_runner/test_adversarial.py).
    """
    if not obj.is_file():
        return []
    found = sorted(n for n in elf_section_names(obj) if n.split(".")[1:2] and "." + n.split(".")[1] in
                   _LOAD_TIME_SECTIONS)
    if not found:
        return []
    return [taxonomy.Diagnostic(
        taxonomy.Category.DEVICE_CODE,
        "kernel.cpp runs code before the kernel launch (a namespace-scope object with a constructor or "
        "destructor, a non-constant initialiser, or __attribute__((constructor))): device code has no "
        "load-time initialisation; use constexpr values, or set things up inside the kernel "
        f"(sections {', '.join(found)})", "kernel.cpp", None, None, "compile")]


def _box_sources(task: Task, sources: Sources) -> tuple[dict[str, str], dict[str, str]] | BuildOutcome:
    """The kernel's compile passes (kernel.cpp, and kernel_aiv.cpp for a kernel compiled once per
    core type: launcher.core_passes) and the host side's files (host.cpp and a bundle's headers),
    as the build directory holds them: bisheng-only syntax (<<<>>> launches, [aicore]) rewritten
    as C++ with line numbers kept (ascend_sim/source_rewrite.py), the op build's prelude in front
    of the kernel (op_project.py). A host bundle that breaks the layout rules is a compile error."""
    rewrite = source_rewrite.rewrite
    host = None
    if sources.host is not None:
        try:
            host = op_project.split_host(rewrite(sources.host))
        except op_project.BundleError as exc:
            diag = taxonomy.Diagnostic(taxonomy.Category.FORMAT, str(exc), "host.cpp", source="harness")
            return BuildOutcome(False, str(exc), [diag])
    kernel = rewrite(sources.kernel)
    passes = launcher.core_passes(task, kernel)
    split = len(passes) > 1
    texts = {_pass_file(core, i): launcher.kernel_source(task, kernel, host, rename_entry=True, core=core, split=split)
             for i, core in enumerate(passes)}
    return texts, (launcher.host_box_files(host) if host is not None else {})


def _rename_pass_functions(obj: Path, keep: str) -> str:
    """Shell step giving every function the object defines a name of its own (``<name>__akgen_<core>``),
    but its pass's entry: two passes define the same inline and template functions with bodies
    that may differ (code that tests ``g_coreType``), and the link must not merge them. The
    local signatures of their COMDAT groups (type n: a constructor's C5 group) are renamed too,
    so neither pass's group drops the other's.
    Data keeps its names: the emulator's per-thread state is one object shared by every pass."""
    listing = obj.with_suffix(".syms")
    suffix = f"__akgen_{obj.stem.removeprefix('kernel_')}"
    return (f"nm -P --defined-only {shlex.quote(str(obj))} | "
            f"sed -n -e '/^{keep} /d' -e 's/^\\([^ ]*\\) [TWn] .*/\\1 \\1{suffix}/p' > {shlex.quote(str(listing))} && "
            f"objcopy --redefine-syms={shlex.quote(str(listing))} {shlex.quote(str(obj))}")


#: The runtime's functions, written into the box for _keep_own_copies.
RUNTIME_FUNCTIONS_FILE = "runtime_functions.txt"
#: What a kernel's own copy of a function the runtime also defines is renamed to.
OWN_COPY_SUFFIX = "__akgen_kernel"


def _keep_own_copies(obj: Path, box: Path, runtime_object: Path) -> str:
    """Shell step renaming the kernel object's functions that the runtime object defines too
    (``<name>__akgen_kernel``), COMDAT signatures included: inline functions and template
    instantiations both compile, and explicit specialisations of a library template the emulator
    uses. The link would keep one copy for both; renamed, the kernel's code never runs inside the
    emulator's own calls (where nothing is charged or guarded), and the emulator's never counts as
    the kernel's work. Data keeps its names (device_code.runtime_functions)."""
    listing = box / RUNTIME_FUNCTIONS_FILE
    if not listing.is_file():
        listing.write_text("".join(f"{n}\n" for n in sorted(device_code.runtime_functions(runtime_object))),
                           encoding="utf-8")
    renames = obj.with_suffix(".own")
    return (f"nm -P --defined-only {shlex.quote(str(obj))} | sed -n 's/^\\([^ ]*\\) [TWin] .*/\\1/p' | "
            f"{{ grep -Fx -f {RUNTIME_FUNCTIONS_FILE} || true; }} | sed 's/.*/& &{OWN_COPY_SUFFIX}/' "
            f"> {shlex.quote(str(renames))} && "
            f"objcopy --redefine-syms={shlex.quote(str(renames))} {shlex.quote(str(obj))}")


def _pass_file(core: str, index: int) -> str:
    """kernel.cpp for the first (or only) pass, kernel_<core>.cpp for the others."""
    return "kernel.cpp" if index == 0 else f"kernel_{core}.cpp"


def _write_task_headers(task: Task, box: Path) -> None:
    for name, header in task.shared_headers():
        (box / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(header, box / name)


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _load_report(raw: bytes | None, *, timeline: bool = True) -> tuple[dict[str, Any] | None, str | None]:
    """The sanitised report (report_guard) and, when it cannot be read, why."""
    try:
        return report_guard.load(raw, timeline=timeline), None
    except report_guard.ReportError as exc:
        return None, str(exc)


@functools.lru_cache(maxsize=16)
def _hbm_bytes_per_cycle(soc: str) -> float | None:
    """HBM bytes per core-clock cycle of ``soc``, read from the emulator's profile table (soc.h)."""
    mod = _require_build()
    text = (Path(mod.include_dir()) / "ascend_sim" / "soc.h").read_text(encoding="utf-8")
    row = r'\{"(\w+)",\s*\d+,\s*(?:true|false),\s*\d+,\s*\d+,\s*([\d.]+),(?:\s*\d+,){5}\s*([\d.]+),'
    for m in re.finditer(row, text):
        if m[1] == soc:
            return float(m[3]) * 1000.0 / float(m[2])
    return None


@functools.lru_cache(maxsize=16)
def _platform(soc: str) -> dict[str, Any]:
    """Core counts and UB size the host tiling sees, from the emulator's SoC table."""
    mod = _require_build()
    info = getattr(mod, "soc_info", None)
    if callable(info):
        data = info(soc)
        return {"aiv_cores": data["vector_cores"], "aic_cores": data["cube_cores"], "ub_bytes": data["ub_bytes"],
                "soc": soc}
    # Until build.py exposes the table: read the profile rows of soc.h
    # ({"name", npu_arch, split_arch, vector_cores, cube_cores, freq_mhz, ub_bytes, ...}).
    text = (Path(mod.include_dir()) / "ascend_sim" / "soc.h").read_text(encoding="utf-8")
    for m in re.finditer(r'\{"(\w+)",\s*\d+,\s*(?:true|false),\s*(\d+),\s*(\d+),\s*[\d.]+,\s*(\d+),', text):
        if m[1] == soc:
            return {"aiv_cores": int(m[2]), "aic_cores": int(m[3]), "ub_bytes": int(m[4]), "soc": soc}
    raise ToolchainUnavailableError(f"SoC {soc!r} is not in the emulator's profile table")

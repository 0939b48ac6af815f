"""Build and run a CANN CPU-debug sample folder on cpu-sim: ``akgen sample run DIR``.

Why: Huawei's kernel-invocation samples (and programs written like them) are a folder with a
kernel (``add_custom.cpp``), a host program (``main.cpp``: ``tikicpulib.h``/``ICPU_RUN_KF``
under ``ASCENDC_CPU_DEBUG``, AscendCL otherwise), ``data_utils.h`` and
``scripts/gen_data.py`` / ``scripts/verify_result.py``; CANN builds them with cmake and
``run.sh``. Here one command does the same with cpu-sim's compiler flags and headers, so a
sample written for the NPU is checked unchanged: generate the data, build, run, verify.

Everything from the folder is untrusted and runs in the sandbox (:mod:`bench_runner.sandbox`):
the folder is copied into a job box, its sources go through ``source_rewrite`` (``<<<>>>``,
``[aicore]``), every top-level ``*.cpp``/``*.cc``/``*.cxx``/``*.asc`` is compiled — a file that
includes ``kernel_operator.h`` as a kernel translation unit (device-code rules, scalar-work
instrumentation, the precompiled header), any other as a host one (plain C++: ``<iostream>``,
``<fstream>`` and the heap are fine) — and linked with the emulator's runtime; then the gen
script, the program and the verify script run in that box, the Python scripts with this
interpreter (its environment provides numpy).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_runner import device_code, report_guard, sandbox
from bench_runner.ascend_sim import build, source_rewrite
from bench_runner.errors import InfrastructureError, InputError

SOURCE_SUFFIXES = (".cpp", ".cc", ".cxx", ".asc")
#: Files the rewrite is applied to (sources and the headers they include).
_TEXT_SUFFIXES = (*SOURCE_SUFFIXES, ".h", ".hpp", ".hh", ".inc")
_KERNEL_INCLUDE = re.compile(r'^\s*#\s*include\s*[<"](?:[\w./]*/)?(kernel_operator\.h|lib/matmul_intf\.h)[>"]', re.M)
_LOCAL_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
MAX_SAMPLE_BYTES = 64 * sandbox.MiB
PROGRAM = "akgen_sample_prog"
GEN_SCRIPT = Path("scripts/gen_data.py")
VERIFY_SCRIPT = Path("scripts/verify_result.py")
_RUN_WRAPPER = '"$@"; rc=$?; cat "$ASCEND_SIM_REPORT" >"/dev/fd/$AKGEN_FD_0" 2>/dev/null; exit $rc'


@dataclass
class Step:
    """One stage of a sample run, as printed."""

    name: str
    argv: list[str]
    ok: bool
    exit_code: int | None
    limit: str | None
    seconds: float
    output: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "argv": self.argv, "ok": self.ok, "exit_code": self.exit_code,
                "limit": self.limit, "seconds": round(self.seconds, 3), "output": self.output}


@dataclass
class SampleResult:
    """What ``run_sample`` did: the steps in order and the emulator's report of the program run."""

    folder: str
    soc: str
    steps: list[Step] = field(default_factory=list)
    report: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return bool(self.steps) and all(s.ok for s in self.steps)

    def to_dict(self) -> dict[str, Any]:
        summary = None
        if self.report:
            summary = {k: self.report.get(k) for k in ("kernel", "block_dim", "total_cycles", "est_us", "soc")}
            summary["findings"] = self.report.get("findings", [])
            summary["launches"] = self.report.get("launches", [])
        return {"folder": self.folder, "soc": self.soc, "ok": self.ok, "steps": [s.to_dict() for s in self.steps],
                "report": summary}


#: A file holding kernels and the host main() both (asc-devkit's direct-launch ``.asc`` examples):
#: its host part is ordinary C++, so the device-code poison is left out (kernel_operator.h) and
#: this tool says so. Only `akgen sample run` and the survey build such files; a judged kernel
#: cannot ask for it (static_check refuses ASCEND_SIM_ names, and the harness owns main()).
MIXED_TU_FLAG = "-DASCEND_SIM_MIXED_TU"
#: CPU-debug samples get the CPU twin's checked ASSERT (kernel_operator.h); judged kernels do not.
CPU_TWIN_FLAG = "-DASCEND_SIM_CPU_TWIN_ASSERT"
_MAIN = re.compile(r"^\s*(?:int|int32_t|auto)\s+main\s*\(", re.M)


def is_mixed(text: str) -> bool:
    """True for a file that defines the host ``main`` (as well as kernels)."""
    return _MAIN.search(source_rewrite.code_mask(text)) is not None


def classify(folder: Path, source: Path) -> str:
    """``"kernel"`` if the file (or a header of the folder it includes) includes kernel_operator.h,
    ``"mixed"`` if it also defines ``main``, else ``"host"``."""
    kind = _classify(folder, source)
    if kind == "kernel" and is_mixed(source.read_text(encoding="utf-8", errors="replace")):
        return "mixed"
    return kind


def _classify(folder: Path, source: Path) -> str:
    seen: set[Path] = set()
    todo = [source]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file() or len(seen) > 64:
            continue
        seen.add(path)
        text = _include_lines(path.read_text(encoding="utf-8", errors="replace"))
        if _KERNEL_INCLUDE.search(text):
            return "kernel"
        for name in _LOCAL_INCLUDE.findall(text):
            cand = (path.parent / name).resolve()
            if cand.is_relative_to(folder.resolve()):
                todo.append(cand)
    return "host"


def _include_lines(text: str) -> str:
    """The ``#include`` lines of ``text`` that are code (not inside a comment)."""
    mask = source_rewrite.code_mask(text).split("\n")
    keep = [line for line, m in zip(text.split("\n"), mask, strict=True) if re.match(r"\s*#\s*include\b", m)]
    return "\n".join(keep)


def sources_of(folder: Path) -> list[Path]:
    """The translation units of a sample: its top-level C++ files (what the samples' cmake builds)."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in SOURCE_SUFFIXES)


def verify_args(folder: Path) -> list[str]:
    """The verify script's arguments as the folder's run.sh passes them (none without run.sh)."""
    run_sh = folder / "run.sh"
    if not run_sh.is_file():
        return []
    for line in run_sh.read_text(encoding="utf-8", errors="replace").splitlines():
        if str(VERIFY_SCRIPT) not in line or line.lstrip().startswith("#"):
            continue
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        after = words[next(i for i, w in enumerate(words) if w.endswith(str(VERIFY_SCRIPT))) + 1:]
        args = []
        for w in after:
            if w in ("&&", "||", ";", "|") or w.startswith((">", "<", "2>")) or "$" in w:
                break
            args.append(w)
        return args
    return []


def run_sample(folder: Path, *, soc: str | None = None, keep: Path | None = None, run_wall_s: float = 120.0,
               verify: list[str] | None = None) -> SampleResult:
    """Copy, rewrite, build and run the sample in ``folder``; never raises for the sample's own failures."""
    folder = folder.resolve()
    if not folder.is_dir():
        raise InputError(f"sample folder not found: {folder}")
    sources = sources_of(folder)
    if not sources:
        raise InputError(f"{folder} has no C++ sources ({', '.join(SOURCE_SUFFIXES)}) at its top level")
    soc = soc or build.DEFAULT_SOC
    if soc not in build.SOC_NAMES:
        raise InputError(f"unknown SoC {soc!r}; cpu-sim has {', '.join(build.SOC_NAMES)}")
    kinds = {s.name: classify(folder, s) for s in sources}
    result = SampleResult(str(folder), soc)
    texts: dict[str, str] = {}  # the sources as compiled, read before anything of the sample ran
    with sandbox.job_dir(keep) as job:
        box = job.box
        _copy_sample(folder, box)
        for path in box.rglob("*"):
            if path.is_file() and not path.is_symlink() and path.suffix in _TEXT_SUFFIXES:
                text = path.read_text(encoding="utf-8", errors="surrogateescape")
                new = source_rewrite.rewrite(text)
                if new != text:
                    path.write_text(new, encoding="utf-8", errors="surrogateescape")
                texts[str(path.relative_to(box))] = new
        _give_to_sandbox(box)
        if (box / GEN_SCRIPT).is_file():
            result.steps.append(_python(job, "gen_data", [str(GEN_SCRIPT)]))
            if not result.steps[-1].ok:
                return result
        result.steps.append(_build(job, [Path(s.name) for s in sources], kinds, texts))
        if not result.steps[-1].ok:
            return result
        step, result.report = _run_program(job, soc, run_wall_s)
        result.steps.append(step)
        if step.ok and (box / VERIFY_SCRIPT).is_file():
            args = verify if verify is not None else verify_args(folder)
            result.steps.append(_python(job, "verify_result", [str(VERIFY_SCRIPT), *args]))
    return result


# ---------------------------------------------------------------------------------------------


def _copy_sample(folder: Path, box: Path) -> None:
    total = 0
    for src in sorted(folder.rglob("*")):
        rel = src.relative_to(folder)
        if rel.parts[0] in ("build", "out", ".git") or src.is_symlink():
            continue
        dst = box / rel
        if src.is_dir():
            dst.mkdir(parents=True, exist_ok=True)
            continue
        total += src.stat().st_size
        if total > MAX_SAMPLE_BYTES:
            raise InputError(f"sample folder {folder} holds more than {MAX_SAMPLE_BYTES // sandbox.MiB} MiB")
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        if os.access(src, os.X_OK):
            dst.chmod(0o755)


def _give_to_sandbox(box: Path) -> None:
    """Let the sandbox uid write the copied folder (the program writes output/, gen_data input/).

    Done once, before anything ran in the sandbox, so nothing here can be a planted symlink.
    """
    uid = sandbox.backend().drop_uid
    if uid is None:
        return
    for path in [box, *box.rglob("*")]:
        os.lchown(path, uid, uid)


def _result_step(name: str, argv: list[str], res: sandbox.SandboxResult) -> Step:
    out = (res.stdout + ("\n" if res.stdout and res.stderr else "") + res.stderr).strip()
    if res.limit:
        out += f"\n[akgen: stopped by the sandbox's {res.limit} limit]"
    elif res.signal:
        out += f"\n[akgen: killed by signal {res.signal}]"
    return Step(name, argv, res.ok, res.exit_code, res.limit, res.wall_s, out)


def _build(job: sandbox.JobDir, sources: list[Path], kinds: dict[str, str], texts: dict[str, str]) -> Step:
    """Compile each translation unit with its flags, then link them with the emulator's runtime.

    Kernel translation units are built as the judge builds kernel.cpp: their calls of C routines
    go to the runtime's charged copies, and what their kernels call must be on the device-code
    allow-list (device_code.py; in a file with main() too, only what the kernels reach).
    """
    pch = build.ensure_pch()
    runtime = Path(pch) / build.RUNTIME_OBJ if pch is not None else None
    kernel_objects: list[tuple[Path, Path]] = []
    mounts = [sandbox.tree_mount(Path(build.include_dir()), build.fingerprint())]
    replace: tuple[str, str] | None = None
    if pch is not None:
        visible = sandbox.visible_copy(Path(pch))
        mounts.append(sandbox.Mount(visible))
        replace = (str(pch), str(visible))
    script: list[list[str]] = []
    objects: list[Path] = []
    for src in sources:
        obj = Path(f"{src.stem}.akgen.o")
        argv = [a for a in build.compile_command([src], obj, extra_include_dirs=(Path("."),))
                if not a.endswith(build.RUNTIME_OBJ)]
        argv[1:1] = ["-c", CPU_TWIN_FLAG]
        if kinds[src.name] == "host":  # host code is not the kernel's scalar work
            argv = [a for a in argv if a not in build.INSTRUMENT_FLAGS]
        else:
            argv[2:2] = device_code.KERNEL_COMPILE_FLAGS
            if kinds[src.name] == "mixed":  # no device-code poison: main() is host code
                argv.insert(2, MIXED_TU_FLAG)
        if src.suffix == ".asc":
            i = argv.index(str(src))
            argv[i:i + 1] = ["-x", "c++", str(src), "-x", "none"]
        script.append(argv)
        if kinds[src.name] != "host" and runtime is not None:
            script.append(device_code.rename_argv(obj, runtime))
            kernel_objects.append((obj, src))
        objects.append(obj)
    script.append(build.compile_command(objects, Path(PROGRAM)))
    if replace is not None:
        script = [[a.replace(*replace) for a in argv] for argv in script]
    shell = " && ".join(shlex.join(argv) for argv in script)
    shown = ["g++", "(cpu-sim flags)", *(str(s) for s in sources), "-o", PROGRAM]
    limits = sandbox.Limits(wall_s=300.0, cpu_s=300.0, memory_bytes=4 * sandbox.GiB, processes=64,
                            file_bytes=512 * sandbox.MiB, tmp_bytes=1024 * sandbox.MiB, log_bytes=256 * 1024)
    res = sandbox.run(["/bin/sh", "-c", shell], box=job.box, logs=job.logs / "build", limits=limits, mounts=mounts)
    step = _result_step("build", shown, res)
    step.output = (f"{', '.join(f'{s} ({kinds[s.name]})' for s in sources)}\n" + step.output).strip()
    step.ok = step.ok and (job.box / PROGRAM).is_file()
    for obj, src in kernel_objects if step.ok else []:
        text = texts.get(str(src), "")
        entries = device_code.kernel_entries(text) if kinds[src.name] == "mixed" else None
        for d in device_code.check_object(job.box / obj, runtime, text, entries=entries, file=str(src)):
            step.ok = False
            step.output += f"\n{d.file}:{d.line or 0}: error: {d.message} [device_code]"
    return step


def _run_program(job: sandbox.JobDir, soc: str, wall_s: float) -> tuple[Step, dict[str, Any] | None]:
    tmp = sandbox.private_tmp(job)
    env = {"ASCEND_SIM_SOC": soc, "ASCEND_SIM_REPORT": f"{tmp}/akgen-sample-report.json",
           "ASCEND_SIM_TIMEOUT_S": f"{max(2.0, wall_s - 5):.0f}", "ASCEND_SIM_TIMELINE_LIMIT": "0",
           "MALLOC_ARENA_MAX": "2"}
    limits = sandbox.Limits(wall_s=wall_s, cpu_s=wall_s * 4, memory_bytes=8 * sandbox.GiB, processes=256,
                            file_bytes=1024 * sandbox.MiB, tmp_bytes=64 * sandbox.MiB + 2 * report_guard.MAX_REPORT_BYTES,
                            log_bytes=256 * 1024)
    report_file = job.logs / "run" / "report.json"
    report_file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    argv = [f"./{PROGRAM}"]
    res = sandbox.run(["/bin/sh", "-c", _RUN_WRAPPER, "sh", *argv], box=job.box, logs=job.logs / "run",
                      limits=limits, env=env, pass_files=[report_file])
    try:
        report = report_guard.load(report_file.read_bytes()) if report_file.stat().st_size else None
    except (OSError, report_guard.ReportError):
        report = None
    return _result_step("run", argv, res), report


def _python(job: sandbox.JobDir, name: str, args: list[str]) -> Step:
    """Run one of the sample's Python scripts with this interpreter, inside the sandbox."""
    argv = [sys.executable, *args]
    env = {"PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    limits = sandbox.Limits(wall_s=120.0, cpu_s=120.0, memory_bytes=4 * sandbox.GiB, processes=64,
                            file_bytes=1024 * sandbox.MiB, tmp_bytes=256 * sandbox.MiB, log_bytes=256 * 1024)
    res = sandbox.run(argv, box=job.box, logs=job.logs / name, limits=limits, env=env, mounts=_python_mounts())
    return _result_step(name, ["python3", *args], res)


def _python_mounts() -> list[sandbox.Mount]:
    """This interpreter and its environment, visible at their own paths inside the sandbox.

    A virtual environment needs its base installation too (stdlib, libpython); a directory the
    sandbox uid cannot reach (a pyenv under /root) is mirrored by hard links, once, without the
    base's site-packages when a venv supplies its own.
    """
    prefix, base = Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()
    exe_root = Path(os.path.realpath(sys.executable)).parent.parent
    roots = {prefix, base, exe_root}
    mounts = []
    for root in sorted(roots):
        if any(root != other and root.is_relative_to(other) for other in roots):
            continue
        skip = "site-packages" if root == base and prefix != base else None
        mounts.append(sandbox.Mount(_visible_tree(root, skip), target=str(root)))
    return mounts


def _visible_tree(root: Path, skip: str | None) -> Path:
    if sandbox.backend().drop_uid is None or sandbox.world_reachable(root):
        return root
    tag = hashlib.sha256(f"{root}\0{skip}".encode()).hexdigest()[:16]
    mirror = sandbox.scratch_root() / "mirror-py" / tag
    if mirror.is_dir():
        return mirror
    tmp = Path(tempfile.mkdtemp(prefix=".mirror-py-", dir=sandbox.scratch_root()))
    try:
        for dirpath, dirnames, filenames in os.walk(root):
            here = Path(dirpath)
            if skip is not None:
                dirnames[:] = [d for d in dirnames if d != skip]
            out = tmp / here.relative_to(root)
            out.mkdir(parents=True, exist_ok=True)
            out.chmod(0o755)
            for f in filenames:
                src, dst = here / f, out / f
                if src.is_symlink():
                    os.symlink(os.readlink(src), dst)
                    continue
                try:
                    os.link(src, dst)
                except OSError:
                    shutil.copy2(src, dst)
            for d in dirnames:
                if (here / d).is_symlink():
                    os.symlink(os.readlink(here / d), out / d)
            dirnames[:] = [d for d in dirnames if not (here / d).is_symlink()]
        (sandbox.scratch_root() / "mirror-py").mkdir(mode=0o711, exist_ok=True)
        os.rename(tmp, mirror)
    except FileExistsError:
        pass
    except OSError as exc:
        if not mirror.is_dir():
            raise InfrastructureError(f"cannot make {root} visible to the sandbox: {exc}") from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return mirror


def format_result(r: SampleResult) -> str:
    """The human-readable account ``akgen sample run`` prints."""
    lines = [f"{'PASSED' if r.ok else 'FAILED'}  sample {r.folder} on cpu-sim/{r.soc}"]
    for s in r.steps:
        code = f"exit {s.exit_code}" if s.exit_code is not None else (s.limit or "killed")
        lines.append(f"  [{'ok' if s.ok else 'FAILED'}] {s.name}: {' '.join(s.argv)[:160]}  ({code}, {s.seconds:.2f}s)")
        tail = s.output.splitlines()[-40:] if (not s.ok or s.name != "build") else s.output.splitlines()[:1]
        lines += [f"      {t}" for t in tail]
    if r.report:
        rep = r.report
        lines.append(f"  kernel {rep.get('kernel')}: block_dim {rep.get('block_dim')}, {rep.get('total_cycles')} cycles, "
                     f"{rep.get('est_us')} us modelled on {rep.get('soc')}")
        for f in (rep.get("findings") or [])[:20]:
            lines.append(f"  [{f.get('severity')}] {f.get('code')} {f.get('file')}:{f.get('line')}: {f.get('message')}")
    return "\n".join(lines) + "\n"

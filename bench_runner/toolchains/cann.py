"""cann: a real CANN installation on an Ascend host.

Compiles the kernel with CANN's bisheng compiler in direct-launch mode (``-xasc``), links the
NPU driver (``harness/akgen_npu_harness.h``: ACL buffers, ``<<<>>>`` launch, device-event
timing with 10 warm-ups, 100 timed runs, a 256 MiB cache flush before each and the median),
and runs it in the sandbox with the NPU device nodes bound in. The speedup baseline is the
vendor operator through torch_npu, timed by the same protocol (``vendor_baseline_script``),
from ``torch_reference(inputs, attrs)`` in the task's reference.py.

No NPU is available in this repository's CI: the commands and generated sources are unit
tested, the runs are not. ``ASCEND_HOME_PATH`` (set by CANN's ``set_env.sh``) must point at
the toolkit; ``AKGEN_CANN_SOC`` names the SoC when ``npu-smi`` cannot.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

from bench_runner import launcher, sandbox, taxonomy
from bench_runner.cache import Cache
from bench_runner.errors import ToolchainUnavailableError
from bench_runner.launcher import Trial
from bench_runner.tasks import CaseSpec, Task
from bench_runner.toolchains.base import Availability, BuildOutcome, CaseRun, Sources, Toolchain

#: SoC name prefix -> the compiler's NPU architecture.
NPU_ARCH = {"Ascend910B": "dav-2201", "Ascend910_93": "dav-2201", "Ascend310P": "dav-2002",
            "Ascend310B": "dav-3002", "Ascend950": "dav-3510", "Ascend910": "dav-1001"}
#: Device nodes and driver paths a process needs to reach the NPU.
DEVICE_GLOBS = ("/dev/davinci*", "/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc")
DRIVER_DIRS = ("/usr/local/Ascend/driver", "/usr/local/dcmi", "/etc/ascend_install.info")
_USER_FILES = {"kernel.cpp": "kernel.cpp", "host.cpp": "host.cpp"}


def npu_arch(soc: str) -> str:
    for prefix, arch in sorted(NPU_ARCH.items(), key=lambda kv: -len(kv[0])):
        if soc.startswith(prefix):
            return arch
    raise ToolchainUnavailableError(f"no NPU architecture known for SoC {soc!r}; known prefixes: "
                                    f"{', '.join(NPU_ARCH)}")


class Cann(Toolchain):
    name = "cann"

    def __init__(self, home: str | None = None) -> None:
        self.home = Path(home or os.environ.get("ASCEND_HOME_PATH", "")) if (home or os.environ.get(
            "ASCEND_HOME_PATH")) else None

    # -----------------------------------------------------------------------------------------
    # Host discovery

    def compiler(self) -> Path | None:
        if self.home is None:
            return None
        for rel in ("compiler/ccec_compiler/bin/bisheng", "bin/bisheng", "tools/bisheng_compiler/bin/bisheng"):
            if (self.home / rel).is_file():
                return self.home / rel
        found = shutil.which("bisheng")
        return Path(found) if found else None

    def detect_socs(self) -> tuple[str, ...]:
        env = os.environ.get("AKGEN_CANN_SOC")
        if env:
            return tuple(s.strip() for s in env.split(",") if s.strip())
        smi = shutil.which("npu-smi")
        if smi is None:
            return ()
        try:
            out = subprocess.run([smi, "info"], capture_output=True, text=True, timeout=20, check=False).stdout
        except (OSError, subprocess.SubprocessError):
            return ()
        return tuple(sorted({f"Ascend{m}" for m in re.findall(r"\b(910B\d|910_93\d*|310P\d|310B\d|950\w*)\b", out)}))

    def availability(self) -> Availability:
        if self.home is None:
            return Availability(False, "ASCEND_HOME_PATH is not set (source CANN's set_env.sh on an Ascend host)")
        if not self.home.is_dir():
            return Availability(False, f"ASCEND_HOME_PATH={self.home} is not a directory")
        if self.compiler() is None:
            return Availability(False, f"no bisheng compiler under {self.home}")
        socs = self.detect_socs()
        if not socs:
            return Availability(False, "no NPU found (npu-smi info shows none; set AKGEN_CANN_SOC to override)")
        if not any(Path("/dev").glob("davinci[0-9]*")):
            return Availability(False, "no /dev/davinci* device nodes on this host")
        return Availability(True, f"CANN {self.version()} at {self.home}", socs)

    def version(self) -> str:
        if self.home is None:
            return "unknown"
        for rel in ("version.info", "compiler/version.info", "../latest/version.info"):
            p = self.home / rel
            if p.is_file():
                m = re.search(r"[Vv]ersion=([\w.\-]+)", p.read_text(errors="replace"))
                if m:
                    return m[1]
        return "unknown"

    def default_soc(self) -> str:
        socs = self.detect_socs()
        if not socs:
            raise ToolchainUnavailableError("no Ascend SoC detected; set AKGEN_CANN_SOC")
        return socs[0]

    def identity(self, soc: str) -> dict[str, str]:
        return {"name": self.name, "version": f"cann-{self.version()}", "soc": soc}

    @property
    def baseline_kind(self) -> str:
        return "vendor"

    # -----------------------------------------------------------------------------------------
    # Commands and generated sources (unit-tested without hardware)

    def compile_command(self, inputs: list[Path], output: Path, *, soc: str) -> list[str]:
        """bisheng in direct-launch mode: the kernel TU as AscendC (-xasc), the rest as C++."""
        assert self.home is not None
        compiler = self.compiler()
        if compiler is None:
            raise ToolchainUnavailableError(f"no bisheng compiler under {self.home}")
        argv = [str(compiler), "-O2", "-std=c++17", f"--npu-arch={npu_arch(soc)}",
                f"-I{launcher.HARNESS_DIR}", f"-I{self.home / 'include'}",
                f"-I{self.home / 'compiler/tikcpp/tikcfw'}", f"-I{self.home / 'compiler/tikcpp/tikcfw/interface'}"]
        for src in inputs:
            if src.name == "kernel.cpp":
                argv += ["-xasc", str(src), "-xnone"]
            else:
                argv.append(str(src))
        argv += [f"-L{self.home / 'lib64'}", "-lascendcl", "-lruntime", "-lstdc++", "-o", str(output)]
        return argv

    def main_cpp(self, task: Task) -> str:
        """The NPU driver: tiling, <<<>>> launch, device-event timing of the listed trial."""
        args = ", ".join(f'd.gm("{a}")' for a in task.kernel_buffers)
        host = "#define AKGEN_HAS_HOST 1\n" if task.needs_host else ""
        return (
            "// Generated by akgen: the fixed NPU driver around the kernel under test.\n"
            f"{host}"
            '#include "akgen_npu_harness.h"\n'
            '#include "kernel_operator.h"\n\n'
            f"{launcher.kernel_declaration(task)};\n\n"
            "int main(int argc, char** argv) {\n"
            "    akgen_npu::Driver d(argc, argv);\n"
            "    while (d.next_trial()) {\n"
            "        d.prepare();\n"
            f"        auto launch = [&] {{ {task.entry}<<<d.block_dim(), nullptr, d.stream()>>>({args}); }};\n"
            "        launch();\n"
            "        d.sync();\n"
            "        d.finish_trial(launch);\n"
            "    }\n"
            "    return d.done();\n"
            "}\n"
        )

    def device_mounts(self) -> list[sandbox.Mount]:
        mounts = [sandbox.Mount(p, device=True) for pattern in DEVICE_GLOBS for p in sorted(Path("/").glob(pattern[1:]))]
        mounts += [sandbox.Mount(Path(d)) for d in DRIVER_DIRS if Path(d).exists()]
        if self.home is not None:
            mounts.append(sandbox.Mount(self.home.resolve()))
        return mounts

    def run_env(self) -> dict[str, str]:
        assert self.home is not None
        lib = ":".join(str(p) for p in (self.home / "lib64", Path("/usr/local/Ascend/driver/lib64"),
                                          Path("/usr/local/Ascend/driver/lib64/driver"),
                                          Path("/usr/local/Ascend/driver/lib64/common")))
        return {"ASCEND_HOME_PATH": str(self.home), "LD_LIBRARY_PATH": lib}

    # -----------------------------------------------------------------------------------------
    # Build and run (need an Ascend host)

    def build(self, task: Task, job: sandbox.JobDir, sources: Sources, *, soc: str, objects: Cache) -> BuildOutcome:
        start = time.monotonic()
        box = job.box
        (box / "kernel.cpp").write_text(launcher.kernel_source(task, sources.kernel), encoding="utf-8")
        (box / "main.cpp").write_text(self.main_cpp(task), encoding="utf-8")
        inputs = [Path("kernel.cpp"), Path("main.cpp")]
        if task.needs_host:
            (box / "host.cpp").write_text(sources.host or "", encoding="utf-8")
            (box / "host_tu.cpp").write_text(launcher.host_tu(task), encoding="utf-8")
            inputs.append(Path("host_tu.cpp"))
        for name, header in task.shared_headers():
            (box / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(header, box / name)
        limits = sandbox.Limits(wall_s=task.limits.get("compile_wall_s", 600.0), cpu_s=600.0,
                                memory_bytes=8 * sandbox.GiB, processes=128, file_bytes=1024 * sandbox.MiB,
                                tmp_bytes=2048 * sandbox.MiB)
        res = sandbox.run(self.compile_command(inputs, Path("prog"), soc=soc), box=box, logs=job.logs / "compile",
                          limits=limits, mounts=self.device_mounts(), env=self.run_env())
        log = (res.stdout + res.stderr).strip()
        ok = res.exit_code == 0 and res.limit is None and (box / "prog").is_file()
        diags = [] if ok else taxonomy.parse_compile_log(log, user_files=_USER_FILES,
                                                          generated=(launcher.SIGNATURE_FILE, "host_tu.cpp", "main.cpp"),
                                                          entry=task.entry)
        return BuildOutcome(ok, log, diags, res, time.monotonic() - start)

    def run_case(self, task: Task, job: sandbox.JobDir, case_index: int, case: CaseSpec, trials: list[Trial], *,
                 soc: str) -> CaseRun:
        files = [launcher.write_trial_files(task, case_index, t, job.inputs) for t in trials]
        manifest = launcher.manifest_text(task, case, files, report_path="",
                                          platform={"aiv_cores": 0, "aic_cores": 0, "ub_bytes": 0, "soc": soc})
        manifest_path = job.inputs / f"manifest_c{case_index}.txt"
        manifest_path.write_text(manifest, encoding="ascii")
        logs = job.logs / f"case{case_index}"
        limits = sandbox.Limits(wall_s=case.limits.get("run_wall_s", 300.0), cpu_s=300.0,
                                memory_bytes=64 * sandbox.GiB, processes=256, file_bytes=4 * sandbox.GiB)
        res = sandbox.run(["./prog", f"../{job.inputs.name}/{manifest_path.name}"], box=job.box, logs=logs,
                          limits=limits, mounts=[sandbox.Mount(job.inputs), *self.device_mounts()],
                          env=self.run_env(), writable_box=False, pass_files=[logs / "result.bin"])
        names = {t.name for t in (*task.inputs, *task.outputs) if t.alias is None}
        try:
            stream = launcher.parse_stream((logs / "result.bin").read_bytes(), trials=len(trials), buffer_names=names,
                                           max_buffer_bytes=4 * sandbox.GiB)
            error = None
        except launcher.StreamError as exc:
            stream, error = launcher.StreamResult([launcher.TrialOutput() for _ in trials]), str(exc)
        reports: list[dict[str, Any] | None] = []
        for t in stream.trials:
            try:
                reports.append(json.loads(t.report) if t.report else None)
            except ValueError:
                reports.append(None)
        return CaseRun(res, stream, reports[0] if reports else None, reports, error)

    def vendor_baseline(self, task: Task, soc: str) -> dict[str, Any]:
        per_case = []
        for case in task.cases:
            try:
                done = subprocess.run(["python3", "-c", self.vendor_baseline_script(task, case)], capture_output=True,
                                      text=True, timeout=600, check=False, env={**os.environ, **self.run_env()})
                data = json.loads(done.stdout.strip().splitlines()[-1])
            except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
                return {"source": "vendor", "error": f"torch_npu baseline failed for {case.name}: {exc}"}
            if "error" in data:
                return {"source": "vendor", "error": data["error"]}
            per_case.append({"name": case.name, "cycles": None, "est_us": data["est_us"]})
        return {"source": "vendor", "cycles": None, "est_us": sum(p["est_us"] for p in per_case),
                "per_case": per_case}

    def vendor_baseline_script(self, task: Task, case: CaseSpec) -> str:
        """A Python program timing the task's torch_npu reference with the same protocol."""
        shapes = {t.name: list(case.shape_of(t)) for t in task.inputs}
        dtypes = {t.name: t.dtype.name for t in task.inputs}
        return f'''\
# Generated by akgen: time the vendor operator (torch_npu) for task {task.slug}, case {case.name}.
import importlib.util, json, statistics, sys
import torch, torch_npu  # noqa: F401
spec = importlib.util.spec_from_file_location("reference", {str(task.file("reference.py"))!r})
ref = importlib.util.module_from_spec(spec); spec.loader.exec_module(ref)
if not hasattr(ref, "torch_reference"):
    print(json.dumps({{"error": "reference.py has no torch_reference(inputs, attrs)"}})); sys.exit(0)
torch.manual_seed({case.seed})
dt = {{"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
      "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "int32": torch.int32,
      "int64": torch.int64, "bool": torch.bool}}
shapes, dtypes = {json.dumps(shapes)}, {json.dumps(dtypes)}
inputs = {{n: (torch.rand(shapes[n]) * 2 - 1).to(dt[dtypes[n]]).npu() for n in shapes}}
attrs = {json.dumps(dict(case.attributes))}
flush = torch.empty(256 * 1024 * 1024, dtype=torch.uint8, device="npu")
for _ in range(10):
    ref.torch_reference(inputs, attrs)
torch.npu.synchronize()
samples = []
for i in range(100):
    flush.fill_(i & 0xFF)
    start, stop = torch.npu.Event(enable_timing=True), torch.npu.Event(enable_timing=True)
    start.record(); ref.torch_reference(inputs, attrs); stop.record(); stop.synchronize()
    samples.append(start.elapsed_time(stop) * 1000.0)
print(json.dumps({{"est_us": statistics.median(samples), "samples_us": samples}}))
'''

"""ascend_sim benchmark: compile time, emulation speed, and the cost model's calibration.

Prints three things:
  1. compile time of a typical kernel (the CANN add_custom sample + a CPU-debug host) with the
     cached precompiled header — target <= 1 s median — and once without it;
  2. wall time to emulate a 16M-element half Add on 8 cores — target <= 1 s;
  3. modelled vs measured time of the public Ascend C "add_high_performance" example
     (8192 x 8192 half Add on an Atlas A2, 48 AIV cores) across its optimisation steps.

Usage: .venv/bin/python benchmarks/sim_speed.py [--repeat N] [--skip-calibration] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_runner.ascend_sim import build  # noqa: E402

KERNELS = ROOT / "tests" / "bench_runner" / "ascend_sim" / "kernels"
HOST = KERNELS / "main_binary.cpp"

# Measured on hardware: ASC examples/01_simd_cpp_api/05_best_practices/00_vector_compute/
# add_high_performance/README.md (Atlas A2, 48 AIV, z = x + y, 8192 x 8192 half), task time in us.
ADDHP = [
    ("case 0: 1 core, scalar loop (1M elem, scaled)", 0, 4096, 1, 1239689.0),
    ("case 0, raw UB pointers instead of Get/SetValue", -1, 4096, 1, 1239689.0),
    ("case 1: 1 core, 8 KB chunks", 1, 4096, 1, 6909.6),
    ("case 2: 48 cores, 8 KB chunks", 48, 4096, 1, 306.58),
    ("case 3: 48 cores, 32 KB chunks", 48, 16384, 1, 268.5),
    ("case 4: + double buffering", 48, 16384, 2, 264.02),
]
FULL = 8192 * 8192


def compile_exe(
    sources: list[Path], out: Path, defines: dict[str, str], use_pch: bool = True
) -> float:
    argv = build.compile_command(sources, out)
    if not use_pch:
        # the header-only build has no call-backs, so no instrumentation either (as compile_command does)
        drop = {build.PREBUILT_FLAG, *build.INSTRUMENT_FLAGS}
        argv = [a for a in argv if a not in drop and not a.endswith(build.RUNTIME_OBJ)]
        argv = [a for a in argv if not (a.startswith("-I") and str(build.cache_root()) in a)]
    argv = argv[:1] + [f"-D{k}={v}" for k, v in defines.items()] + argv[1:]
    t = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"compile failed:\n{proc.stderr[-4000:]}")
    return elapsed


def run_exe(exe: Path, block_dim: int, buffers: list[np.ndarray], work: Path) -> tuple[float, dict]:
    argv = [str(exe), str(block_dim)]
    for i, b in enumerate(buffers):
        f = work / f"buf{i}.bin"
        b.tofile(f)
        argv += [str(b.nbytes), str(f)]
    report = work / "report.json"
    env = {**os.environ, "ASCEND_SIM_REPORT": str(report), "ASCEND_SIM_TIMELINE_LIMIT": "0"}
    t = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"run failed:\n{proc.stderr[-4000:]}")
    return elapsed, json.loads(report.read_text())


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--repeat", type=int, default=7, help="compile/run repetitions for medians")
    ap.add_argument(
        "--skip-calibration", action="store_true", help="skip the 8192x8192 calibration runs"
    )
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args()
    results: dict = {}
    work = Path(tempfile.mkdtemp(prefix="sim_speed-"))

    t = time.perf_counter()
    pch = build.ensure_pch()
    results["pch_build_s"] = round(time.perf_counter() - t, 3)
    print(
        f"precompiled header + runtime: {pch} ({results['pch_build_s']} s, cached after the first build)"
    )

    # 1. compile time of a typical kernel
    src = [KERNELS / "add_custom.cpp", HOST]
    defs = {"KERNEL_NAME": "add_custom", "KERNEL_ARGS": "3"}
    times = [compile_exe(src, work / "add", defs) for _ in range(args.repeat)]
    results["compile_s_median"] = round(statistics.median(times), 3)
    results["compile_s_all"] = [round(x, 3) for x in times]
    fallback = compile_exe(src, work / "add_nopch", defs, use_pch=False)
    results["compile_s_header_only"] = round(fallback, 3)
    print(
        f"compile add_custom + host: median {results['compile_s_median']} s over {args.repeat} "
        f"(target <= 1 s); header-only fallback {results['compile_s_header_only']} s"
    )

    # 2. emulation speed: 16M-element half add on 8 cores
    n = 16 * 1024 * 1024
    exe = work / "add16m"
    compile_exe(src, exe, {**defs, "TOTAL_LENGTH": f"({n})", "USE_CORE_NUM": "8", "TILE_NUM": "64"})
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, n).astype(np.float16)
    y = rng.uniform(-1, 1, n).astype(np.float16)
    walls = []
    for _ in range(max(3, args.repeat // 2)):
        wall, rep = run_exe(exe, 8, [x, y, np.zeros(n, np.float16)], work)
        walls.append(wall)
    z = np.fromfile(work / "buf2.bin.out", np.float16)
    assert np.array_equal(z, x + y), "16M add produced wrong results"
    results["emulate_16m_add_8cores_s_median"] = round(statistics.median(walls), 3)
    results["emulate_16m_add_modelled_us"] = rep["est_us"]
    print(
        f"emulate 16M-element half add on 8 cores: median {results['emulate_16m_add_8cores_s_median']} s wall "
        f"(target <= 1 s); modelled {rep['est_us']:.1f} us on {rep['soc']}"
    )

    # 3. calibration against the published add_high_performance timings
    if not args.skip_calibration:
        print("\ncalibration: 8192x8192 half Add on Ascend910B (ADDHP README, Atlas A2, 48 AIV)")
        print(f"{'case':46s} {'measured us':>12s} {'modelled us':>12s} {'ratio':>7s}  bound")
        rows = []
        for name, cores, tile, bufs, measured in ADDHP:
            exe = work / f"cal_{cores}_{tile}_{bufs}"
            if cores <= 0:  # the scalar loop: emulate 1M elements and scale to 8192 x 8192
                raw = cores < 0  # the same loop through GetPhyAddr() pointers
                total, cores = 1024 * 1024, 1
                source = KERNELS / "scalar_add.cpp"
                defines = {"KERNEL_NAME": "scalar_add", "TOTAL": f"({total})", "TILE": str(tile)}
                if raw:
                    defines["RAW_POINTERS"] = "1"
            else:
                total = (FULL // cores) // 16384 * 16384 * cores  # whole 32 KB tiles per core
                source = KERNELS / "elementwise.cpp"
                defines = {
                    "KERNEL_NAME": "elementwise",
                    "TOTAL": f"({total})",
                    "CORES": str(cores),
                    "TILE": str(tile),
                    "BUFFER_NUM": str(bufs),
                    "HEAVY": "0",
                }
            compile_exe([source, HOST], exe, {**defines, "KERNEL_ARGS": "3"})
            ones = np.ones(total, np.float16)
            _, rep = run_exe(exe, cores, [ones, ones, np.zeros(total, np.float16)], work)
            modelled = rep["est_us"] * FULL / total  # scale the whole-tile size up to 8192 x 8192
            bound = "hbm" if rep["hbm_bound_cycles"] >= rep["core_bound_cycles"] else "core"
            rows.append(
                {
                    "case": name,
                    "measured_us": measured,
                    "modelled_us": round(modelled, 1),
                    "ratio": round(modelled / measured, 3),
                    "bound": bound,
                }
            )
            print(
                f"{name:46s} {measured:12.1f} {modelled:12.1f} {modelled / measured:7.2f}  {bound}"
            )
        results["calibration_addhp"] = rows
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

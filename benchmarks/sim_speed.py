"""ascend_sim benchmark: compile time, emulation speed, and the cost model's calibration.

Prints five things:
  1. compile time of a typical kernel (the CANN add_custom sample + a CPU-debug host) with the
     cached precompiled header — target <= 1 s median — and once without it;
  2. wall time to emulate a 16M-element half Add on 8 cores — target <= 1 s;
  3. the cube path's speed: multiply-adds per second of the matmul_fp16 expert (Nd2Nz, LoadData,
     Mmad, Fixpipe on 24 AI cores) at --cube-size^3 through cpu-sim, against a native
     cache-blocked float loop built by the same compiler with the same flags on this machine (and
     with -mavx2 added, the vector width cpu-sim's multiply kernel uses) on all CPUs — target:
     cpu-sim within 2x of the native loop;
  4. end-to-end wall time of a 4096 x 4096 x 4096 fp16 matmul evaluation (bench_runner.evaluate
     on a copy of the matmul_fp16 task with that one case, its expert kernel, every trial) —
     target < 60 s on 2 cores;
  5. modelled vs measured time of the public Ascend C "add_high_performance" example
     (8192 x 8192 half Add on an Atlas A2, 48 AIV cores) across its optimisation steps.

Everything is built and run in one temporary directory, removed at the end (also on errors).

Usage: .venv/bin/python benchmarks/sim_speed.py [--repeat N] [--skip-calibration] [--skip-cube]
       [--skip-eval-4096] [--cube-size N] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
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
MATMUL_TASK = ROOT / "bench_runner" / "suites" / "npukb" / "matmul_fp16"

# Host for the cube-path figure: random halves in [-1, 1), the expert's own tiling (128 x 256
# tiles, K steps of 256 / 64, up to 24 AI cores); prints the launch's wall time and a hash of C.
CUBE_HOST = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include "tikicpulib.h"
#include "matmul_tiling.h"
extern "C" __global__ __aicore__ void matmul_custom(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling);
static uint16_t rnd_half(uint64_t& s) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t r = static_cast<uint32_t>(s >> 33);
    return static_cast<uint16_t>(((r & 1u) << 15) | ((0x0cu + (r >> 1) % 3u) << 10) | ((r >> 4) & 0x3ffu));
}
int main(int argc, char** argv) {
    const uint32_t M = atoi(argv[1]), K = atoi(argv[2]), N = atoi(argv[3]);
    uint16_t* a = static_cast<uint16_t*>(AscendC::GmAlloc(size_t(M) * K * 2));
    uint16_t* b = static_cast<uint16_t*>(AscendC::GmAlloc(size_t(K) * N * 2));
    uint16_t* c = static_cast<uint16_t*>(AscendC::GmAlloc(size_t(M) * N * 2));
    uint64_t s = 12345;
    for (size_t i = 0; i < size_t(M) * K; ++i) a[i] = rnd_half(s);
    for (size_t i = 0; i < size_t(K) * N; ++i) b[i] = rnd_half(s);
    memset(c, 0, size_t(M) * N * 2);
    MatmulTilingData* t = static_cast<MatmulTilingData*>(AscendC::GmAlloc(sizeof(MatmulTilingData)));
    t->M = M; t->K = K; t->N = N; t->baseM = 128; t->baseN = 256; t->baseK = 64; t->stepK = 256;
    t->mTiles = (M + 127) / 128; t->nTiles = (N + 255) / 256;
    const uint32_t tiles = t->mTiles * t->nTiles;
    t->usedCores = tiles < 24 ? tiles : 24;
    AscendC::SetKernelMode(KernelMode::AIC_MODE);
    const auto t0 = std::chrono::steady_clock::now();
    ICPU_RUN_KF(matmul_custom, t->usedCores, (uint8_t*)a, (uint8_t*)b, (uint8_t*)c, (uint8_t*)t);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < size_t(M) * N; ++i) { h ^= c[i]; h *= 1099511628211ull; }
    printf("{\"seconds\": %.4f, \"hash\": \"%016llx\"}\n", sec, (unsigned long long)h);
    return 0;
}
"""

# The native comparison: C += A x B in float, blocked 256 (K) x 256 (N) so that a B block stays
# in cache, the inner loop over 256 columns (vectorised by the compiler); rows split over threads.
NATIVE_MM = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
static void rows(const float* __restrict A, const float* __restrict B, float* __restrict C, int N, int K, int i0,
                 int i1) {
    constexpr int BK = 256, BJ = 256;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const int k1 = k0 + BK < K ? k0 + BK : K;
        for (int j0 = 0; j0 < N; j0 += BJ) {
            for (int i = i0; i < i1; ++i) {
                float* __restrict c = C + size_t(i) * N + j0;
                for (int k = k0; k < k1; ++k) {
                    const float a = A[size_t(i) * K + k];
                    const float* __restrict b = B + size_t(k) * N + j0;
                    if (j0 + BJ <= N) {
                        for (int j = 0; j < BJ; ++j) c[j] += a * b[j];
                    } else {
                        for (int j = 0; j < N - j0; ++j) c[j] += a * b[j];
                    }
                }
            }
        }
    }
}
int main(int argc, char** argv) {
    const int M = atoi(argv[1]), K = atoi(argv[2]), N = atoi(argv[3]), T = atoi(argv[4]);
    std::vector<float> A(size_t(M) * K), B(size_t(K) * N), C(size_t(M) * N, 0.0f);
    unsigned s = 1;
    for (auto& x : A) { s = s * 1103515245u + 12345u; x = float((s >> 16) & 1023) / 1024.0f - 0.5f; }
    for (auto& x : B) { s = s * 1103515245u + 12345u; x = float((s >> 16) & 1023) / 1024.0f - 0.5f; }
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> th;
    for (int t = 0; t < T; ++t) th.emplace_back(rows, A.data(), B.data(), C.data(), N, K, int(long(M) * t / T),
                                                int(long(M) * (t + 1) / T));
    for (auto& x : th) x.join();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double sum = 0;
    for (float x : C) sum += x;
    printf("{\"seconds\": %.4f, \"checksum\": %.6g}\n", sec, sum);
    return 0;
}
"""

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
        if "-include" in argv:  # the force-included precompiled prelude
            i = argv.index("-include")
            del argv[i : i + 2]
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


def cube_speed(work: Path, size: int, repeat: int) -> dict:
    """Cube-path MAC/s through cpu-sim vs a native blocked loop (same compiler and flags)."""
    host = work / "cube_host.cpp"
    host.write_text(CUBE_HOST)
    exe = work / "cube_mm"
    argv = build.compile_command([MATMUL_TASK / "expert" / "kernel.cpp", host], exe,
                                 extra_include_dirs=[MATMUL_TASK / "template" / "include"])
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"compile failed:\n{proc.stderr[-4000:]}")
    macs = size**3
    env = {**os.environ, "ASCEND_SIM_REPORT": str(work / "cube_report.json"), "ASCEND_SIM_TIMELINE_LIMIT": "0"}
    runs = []
    for _ in range(repeat):
        proc = subprocess.run([str(exe), str(size), str(size), str(size)], capture_output=True, text=True, env=env,
                              check=False)
        if proc.returncode != 0:
            raise SystemExit(f"cube run failed:\n{proc.stderr[-4000:]}")
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    hashes = {r["hash"] for r in runs}
    sim_s = statistics.median(r["seconds"] for r in runs)
    native_src = work / "native_mm.cpp"
    native_src.write_text(NATIVE_MM)
    threads = os.cpu_count() or 1
    out: dict = {"size": size, "cpus": threads, "sim_s": round(sim_s, 3), "sim_macs_per_s": macs / sim_s,
                 "deterministic": len(hashes) == 1}
    for name, extra in (("native", ()), ("native_avx2", ("-mavx2",))):
        nexe = work / name
        cmd = [build.CXX, *build.BASE_FLAGS, *extra, str(native_src), "-o", str(nexe)]
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if proc.returncode != 0:
            raise SystemExit(f"native compile failed:\n{proc.stderr[-4000:]}")
        secs = []
        for _ in range(repeat):
            proc = subprocess.run([str(nexe), str(size), str(size), str(size), str(threads)], capture_output=True,
                                  text=True, check=False)
            secs.append(json.loads(proc.stdout.strip().splitlines()[-1])["seconds"])
        out[f"{name}_s"] = round(statistics.median(secs), 3)
        out[f"{name}_macs_per_s"] = macs / statistics.median(secs)
    return out


def matmul_eval_4096(work: Path) -> dict:
    """Wall time of one evaluation (every trial) of the matmul_fp16 expert on a 4096^3 case."""
    from bench_runner import evaluate as ev
    from bench_runner import tasks

    folder = work / "task-copy" / MATMUL_TASK.name  # (a task folder is named after its slug)
    shutil.copytree(MATMUL_TASK, folder)
    toml = (folder / "task.toml").read_text()
    head, _, rest = toml.partition("[[cases]]")
    extra = rest[rest.index("[extra]"):]
    extra = re.sub(r'static_case = "[^"]*"', 'static_case = "m4096_k4096_n4096"', extra)
    # one case; the run limits raised so that the case is timed, not cut off
    (folder / "task.toml").write_text(
        head + "[limits]\nrun_wall_s = 1800\nrun_cpu_s = 3600\n\n"
        '[[cases]]\nname = "m4096_k4096_n4096"\ndims = { M = 4096, K = 4096, N = 4096 }\nseed = 4096\n\n' + extra
    )
    task = tasks.load_task(folder)
    kernel = (MATMUL_TASK / "expert" / "kernel.cpp").read_text()
    t = time.perf_counter()
    res = ev.evaluate(task, kernel, use_cache=False, cache_dir=work / "eval-cache", baseline=False)
    wall = time.perf_counter() - t
    d = res.to_dict()
    case = d["cases"][0] if d.get("cases") else {}
    return {"verdict": d["verdict"], "wall_s": round(wall, 1), "trials": len(case.get("trials", ())),
            "case_wall_s": case.get("wall_s"), "stages_s": d.get("stage_durations_s"),
            "cycles": (case.get("perf") or {}).get("cycles")}


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--repeat", type=int, default=7, help="compile/run repetitions for medians")
    ap.add_argument(
        "--skip-calibration", action="store_true", help="skip the 8192x8192 calibration runs"
    )
    ap.add_argument("--skip-cube", action="store_true", help="skip the cube-path MAC/s comparison")
    ap.add_argument("--skip-eval-4096", action="store_true", help="skip the 4096^3 matmul evaluation")
    ap.add_argument("--cube-size", type=int, default=2048, help="M = K = N of the cube-path figure")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args()
    # Every build and buffer lives here; removed on the way out, errors included.
    with tempfile.TemporaryDirectory(prefix="sim_speed-") as tmp:
        return run_all(args, Path(tmp))


def run_all(args: argparse.Namespace, work: Path) -> int:
    results: dict = {}

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

    # 3. the cube path against a native loop
    if not args.skip_cube:
        cs = cube_speed(work, args.cube_size, max(1, min(3, args.repeat // 2)))
        results["cube"] = cs
        n = cs["size"]
        print(
            f"cube path {n}x{n}x{n} fp16 (matmul_fp16 expert, 24 AI cores): {cs['sim_macs_per_s'] / 1e9:.2f} G MAC/s "
            f"({cs['sim_s']} s) vs native blocked loop {cs['native_macs_per_s'] / 1e9:.2f} G MAC/s "
            f"({cs['native_s']} s; with -mavx2 {cs['native_avx2_macs_per_s'] / 1e9:.2f} G MAC/s) on "
            f"{cs['cpus']} CPUs: cpu-sim takes {cs['native_macs_per_s'] / cs['sim_macs_per_s']:.2f}x "
            f"({cs['native_avx2_macs_per_s'] / cs['sim_macs_per_s']:.2f}x) the native loop's time (target <= 2x); "
            f"{'same bytes every run' if cs['deterministic'] else 'OUTPUT DIFFERS BETWEEN RUNS'}"
        )

    # 4. a 4096^3 matmul evaluation end to end
    if not args.skip_eval_4096:
        ev4 = matmul_eval_4096(work)
        results["eval_matmul_4096"] = ev4
        print(
            f"evaluate matmul_fp16 expert on 4096x4096x4096: {ev4['verdict']}, {ev4['wall_s']} s wall for "
            f"{ev4['trials']} trials (target < 60 s; the case's run {ev4['case_wall_s']} s)"
        )

    # 5. calibration against the published add_high_performance timings
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

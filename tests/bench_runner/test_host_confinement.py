"""Issue #30: submitted host code cannot turn a wrong kernel into ``system_error``.

Every variant of ``hostile_host`` attacks the driver from the host tiling of relu_fp32_dynamic
(descriptors, limits, directories, forged stream records, signals, exits, static initialisers,
library names it redefines …) next to a *wrong* kernel. Judged end to end on cpu-sim, none may
give ``system_error`` (nor an InfrastructureError, which a worker counts the same way), none may
pass, and each gives the verdict its variant names as sensible. The unmarked test runs the
attacks that gave ``system_error`` before issue #30; the slow one runs the rest.

Cost: one evaluation per variant, two at a time (as workers run), on one case of 77 elements
with 3 s run limits and 1.5 GiB of address space; the build of each is the kernel, the host and
a link. On the 2-core VM: the unmarked test 9 s, the slow one 104 s.
"""

from __future__ import annotations

import dataclasses
import struct
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bench_runner import evaluate as evaluate_mod
from bench_runner import launcher, sandbox
from bench_runner.contracts import EvaluationResult, Verdict
from bench_runner.errors import InfrastructureError
from bench_runner.evaluate import evaluate
from bench_runner.tasks import Task, get_task
from bench_runner.toolchains import CaseRun, cpu_sim, host_object
from tests.bench_runner.hostile_host import VARIANTS, Variant, host_source

needs_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok, reason="cpu-sim unavailable")

_RELU_CALL = "Relu(yLocal, xLocal, static_cast<int32_t>(n))"
#: What a variant's evaluation came to: a verdict, or the exception a worker would count as
#: infrastructure.
INFRASTRUCTURE_EXCEPTION = "infrastructure_exception"


def _task() -> Task:
    """relu_fp32_dynamic on its 77-element case alone, with 3 s run limits and 1.5 GiB of address
    space (hangs and memory exhaustion end quickly)."""
    relu = get_task("relu_fp32_dynamic")
    case = next(c for c in relu.cases if c.name == "n77_tiny")
    case = dataclasses.replace(case, limits={**case.limits, "run_wall_s": 3.0, "run_cpu_s": 6.0,
                                             "run_memory_mb": 1536})
    return dataclasses.replace(relu, cases=(case,))


def _kernel(wrong: bool) -> str:
    text = get_task("relu_fp32_dynamic").expert_kernel.read_text()
    assert _RELU_CALL in text
    return text.replace(_RELU_CALL, "Abs(yLocal, xLocal, static_cast<int32_t>(n))") if wrong else text


def _judge(task: Task, kernel: str, host: str, cache_dir: Path) -> EvaluationResult | str:
    try:
        # static_checks=False: what is tested is the run-time containment, not the refusals.
        return evaluate(task, kernel, host, path="host_device", cache_dir=cache_dir, use_cache=False,
                        static_checks=False, baseline=False)
    except InfrastructureError:
        return INFRASTRUCTURE_EXCEPTION


def _judge_all(variants: list[Variant], cache_dir: Path) -> dict[str, EvaluationResult | str]:
    task, kernel = _task(), _kernel(wrong=True)
    template = get_task("relu_fp32_dynamic").host_template.read_text()
    with ThreadPoolExecutor(max_workers=2) as pool:
        found = pool.map(lambda v: _judge(task, kernel, host_source(template, v), cache_dir), variants)
        return dict(zip((v.name for v in variants), found, strict=True))


def _verdict(outcome: EvaluationResult | str) -> str:
    return outcome if isinstance(outcome, str) else str(outcome.verdict)


def _check(variants: list[Variant], results: dict[str, EvaluationResult | str]) -> None:
    def why(name: str) -> str:
        r = results[name]
        return r if isinstance(r, str) else f"{r.verdict}: {r.reason}"

    infra = {n: why(n) for n in results if _verdict(results[n]) in (Verdict.SYSTEM_ERROR, INFRASTRUCTURE_EXCEPTION)}
    assert not infra, f"{len(infra)} hostile host variants were blamed on the infrastructure: {infra}"
    passed = [n for n in results if _verdict(results[n]) == Verdict.PASSED]
    assert not passed, f"a wrong kernel passed next to hostile host code: {passed}"
    odd = {v.name: f"{why(v.name)} (expected {'/'.join(sorted(v.expect))})" for v in variants
           if _verdict(results[v.name]) not in v.expect}
    assert not odd, f"unexpected verdicts: {odd}"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@needs_sim
def test_attacks_that_were_system_errors_are_the_submissions(cache_dir: Path) -> None:
    fast = [v for v in VARIANTS if v.fast]
    _check(fast, _judge_all(fast, cache_dir))


@needs_sim
@pytest.mark.slow
def test_a_hundred_hostile_host_variants_give_no_system_error(cache_dir: Path) -> None:
    rest = [v for v in VARIANTS if not v.fast]
    assert len(VARIANTS) >= 100
    _check(rest, _judge_all(rest, cache_dir))


BENIGN_HOST = r"""#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#include "akgen_host.h"
#include "relu_tiling.h"

namespace {
// Static initialisers, thread_local, heap, exceptions, stdout: all of it runs on the confined thread.
const std::map<std::string, int> kTable = {{"align", 8}, {"tile", 2048}};
thread_local std::vector<int> scratch(16, 1);
}  // namespace

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    try {
        throw std::runtime_error("caught inside the host code");
    } catch (const std::exception& e) {
        std::printf("host: %s, %zu\n", e.what(), scratch.size());
    }
    const uint32_t align = static_cast<uint32_t>(kTable.at("align"));
    const uint32_t tile = static_cast<uint32_t>(kTable.at("tile"));
    const uint32_t total = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t per_core = (total + align - 1) / align * align;
    ReluTilingData* tiling = context->GetTilingData<ReluTilingData>();
    tiling->totalLength = total;
    tiling->blockLength = per_core;
    tiling->tileLength = per_core < tile ? per_core : tile;
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
"""


@needs_sim
def test_ordinary_host_code_still_runs_confined(cache_dir: Path) -> None:
    """What host tilings do (static tables, thread_local, exceptions, printf) passes: the allow-list
    is not in their way."""
    r = _judge(_task(), _kernel(wrong=False), BENIGN_HOST, cache_dir)
    assert not isinstance(r, str) and r.verdict == Verdict.PASSED, r


def _record(kind: int, name: bytes, payload: bytes = b"", trial: int = 0) -> bytes:
    return struct.pack("=4sIIIQ", b"AKGR", kind, trial, len(name), len(payload)) + name + payload


def test_the_stream_says_which_submitted_code_ran() -> None:
    data = _record(launcher.REC_SUBMITTED, b"host") + _record(launcher.REC_STATUS, b"io", b"cannot open input")
    got = launcher.parse_stream(data, trials=1, buffer_names={"y"}, max_buffer_bytes=64)
    assert got.submitted == {"host"} and got.status == "io"
    for bad in (_record(launcher.REC_SUBMITTED, b"driver"), _record(launcher.REC_SUBMITTED, b"host", b"x")):
        with pytest.raises(launcher.StreamError, match="submitted"):
            launcher.parse_stream(bad, trials=1, buffer_names={"y"}, max_buffer_bytes=64)


def test_a_signal_before_the_cpu_limit_could_be_used_is_not_a_timeout() -> None:
    limits = sandbox.Limits(cpu_s=60.0)
    assert not sandbox._could_be_cpu_limit(0.2, limits)
    assert sandbox._could_be_cpu_limit(61.0, limits)


def test_breaches_of_a_non_elf_file_are_none(tmp_path: Path) -> None:
    (tmp_path / "x.o").write_bytes(b"not an object")
    assert host_object.breaches(tmp_path / "x.o") == []
    assert host_object.elf_ifunc_symbols(tmp_path / "missing.o") == []


@pytest.mark.parametrize(("submitted", "host_submitted", "verdict"), [
    (set(), True, Verdict.SYSTEM_ERROR),           # only our code had run: ours
    ({"host"}, False, Verdict.SYSTEM_ERROR),       # a task's fixed host (device_only) is ours too
    ({"host"}, True, Verdict.RUNTIME_ERROR),       # after submitted host code: the submission's
    ({"host", "kernel"}, False, Verdict.RUNTIME_ERROR),
])
def test_who_a_driver_failure_belongs_to(submitted: set[str], host_submitted: bool, verdict: Verdict) -> None:
    res = sandbox.SandboxResult(4, None, 0.1, 0.1, "", "[AKGEN][io] cannot open input x", 0, 33, None, "bwrap")
    stream = launcher.StreamResult([launcher.TrialOutput()], status="io", status_message="cannot open input x",
                                   submitted=submitted)
    state = evaluate_mod._State()
    evaluate_mod._explain_process_failure(get_task("relu_fp32_dynamic"), CaseRun(res, stream, None), [], state,
                                          host_submitted)
    assert state.verdict == verdict
    assert state.diagnostics[0].category == ("infrastructure" if verdict == Verdict.SYSTEM_ERROR else
                                             "tiling_host" if "host" in submitted and host_submitted else "crash")

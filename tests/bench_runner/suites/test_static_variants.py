"""Static variants on cpu-sim: a kernel that hard-codes the one static shape passes the static
variant and fails the dynamic task it came from, and the expert passes both."""

from __future__ import annotations

import pytest

from bench_runner import tasks
from bench_runner.evaluate import evaluate
from bench_runner.toolchains import cpu_sim

pytestmark = pytest.mark.skipif(cpu_sim.CpuSim().availability().ok is False,
                                reason="cpu-sim is not available here")

GET_TILING = "GET_TILING_DATA_WITH_STRUCT(AbsTilingData, tilingData, tiling);"


def _hard_coded(task: tasks.Task, n: int) -> str:
    """The expert abs kernel, told the static length instead of reading it from the tiling data."""
    source = task.expert_kernel.read_text()
    assert GET_TILING in source
    return source.replace(GET_TILING, GET_TILING + f"\n    tilingData.totalLength = {n};", 1)


@pytest.fixture(scope="module")
def pair() -> tuple[tasks.Task, tasks.Task]:
    return tasks.get_task("abs_fp16"), tasks.get_task("abs_fp16_static")


def test_every_dynamic_task_of_the_suite_has_a_static_variant() -> None:
    loaded = tasks.load_suite()
    slugs = {t.slug for t in loaded.tasks}
    dynamic = [t for t in loaded.tasks if t.shape_mode == "dynamic"]
    assert dynamic and all(t.slug + tasks.STATIC_SUFFIX in slugs for t in dynamic)


def test_hard_coded_shape_passes_static_variant_only(pair, tmp_path) -> None:
    dynamic, static = pair
    n = static.cases[0].dims["N"]
    kernel = _hard_coded(dynamic, n)
    on_static = evaluate(static, kernel, None, path="device_only", cache_dir=tmp_path, baseline=False)
    on_dynamic = evaluate(dynamic, kernel, None, path="device_only", cache_dir=tmp_path, baseline=False)
    assert on_static.passed, on_static
    assert [c.name for c in on_static.cases] == [static.cases[0].name]
    assert not on_dynamic.passed


def test_expert_passes_the_static_variant_on_both_paths(pair, tmp_path) -> None:
    _, static = pair
    kernel = static.expert_kernel.read_text()
    for path, host in (("device_only", None), ("host_device", static.expert_host.read_text())):
        result = evaluate(static, kernel, host, path=path, cache_dir=tmp_path, baseline=False)
        assert result.passed, (path, result.verdict)

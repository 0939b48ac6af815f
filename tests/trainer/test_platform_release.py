"""Issue #20 end to end: a release the platform builds (platform/releases) from a seeded run with
compile errors, wrong answers, passes at two speeds and human fixes — and held-out tasks with a
`_static` twin and a dtype variant — then `akgen train sft` (with an outside JSONL mixed in)
and `akgen train dpo` (execution and performance pairs) with the tiny recipes on all of it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench_runner.cli import main as akgen
from tests.trainer.conftest import tiny_args

#: The eval task's siblings: the same operator (bench_runner.splits.operator_of), the same expert.
SIBLINGS = ("softmax_static", "softmax_fp16")


def _records(folder: Path, subset: str) -> list[dict]:
    out = []
    for split in ("train", "validation"):
        path = folder / subset / f"{split}.jsonl"
        if path.is_file():
            out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return out


@pytest.fixture
def built_release(db, settings, tmp_path):
    from releases import services
    from tests.platform.releases.conftest import (
        EVAL_TASK,
        PASSED,
        WRONG,
        expert,
        make_task,
        seed,
        submit,
    )

    settings.AKGEN_RELEASE_EVAL_TASKS = [EVAL_TASK]
    settings.AKGEN_RELEASES_DIR = str(tmp_path / "releases")
    settings.AKGEN_PSEUDONYM_KEY = "test-key"
    seeded = seed()
    run = seeded["run"]
    for n, slug in enumerate(SIBLINGS):  # held out with softmax, though their slugs differ
        task = make_task(slug, 2, "normalization")
        task.current_version.expert_kernel = expert(EVAL_TASK)
        task.current_version.save()
        submit(task, expert(EVAL_TASK) + f"// sibling {n}\n", PASSED, run=run, sample=0, speedup=1.5,
               reasoning="sibling pass")
        submit(task, expert(EVAL_TASK).replace("1024", "1000"), WRONG, run=run, sample=1, reasoning="sibling fail")
    out = tmp_path / "release"
    services.build_into(out, number=1, data={"validation_percent": 30})
    return out


def _losses(out: Path) -> list[float]:
    run = json.loads((out / "akgen_run.json").read_text())
    return [r["loss"] for r in run["log_history"] if "loss" in r]


def test_release_from_a_run_trains_sft_with_an_outside_mix_and_dpo(built_release, tiny_model, tmp_path, capsys):
    from tests.platform.releases.conftest import EVAL_TASK, REASONING

    manifest = json.loads((built_release / "manifest.json").read_text())
    held_out = {EVAL_TASK, *SIBLINGS}
    for subset in manifest["subsets"]:
        assert not {r["meta"]["task"] for r in _records(built_release, subset)} & held_out, subset
    report = json.loads((built_release / "decontamination.json").read_text())
    assert report["removed"]["count"] >= 1  # the training task's copy of the held-out expert

    auto = {s: [r for r in _records(built_release, s) if r["meta"]["source"] == "auto"] for s in ("api_fix", "kernel_fix")}
    assert auto["api_fix"] and auto["kernel_fix"]
    assert all("has no member named" in r["messages"][1]["content"] for r in auto["api_fix"])  # the real log
    assert all(r["meta"]["fixed_verdict"] == "passed" and r["meta"]["fix_submission_id"] for r in auto["kernel_fix"])
    dpo, perf = _records(built_release, "dpo"), _records(built_release, "dpo_perf")
    assert any(p["chosen"][0].get("reasoning", "").startswith(REASONING) for p in dpo)
    assert perf and all(p["meta"]["chosen_speedup"] > p["meta"]["rejected_speedup"] for p in perf)
    assert all(p["chosen"][0]["reasoning"].startswith(REASONING) for p in perf)

    outside = tmp_path / "general.jsonl"
    outside.write_text("".join(json.dumps({"messages": [
        {"role": "user", "content": f"What is {i} + {i}?"},
        {"role": "assistant", "content": str(2 * i), "reasoning": f"{i} doubled is {2 * i}."}]}) + "\n"
        for i in range(3)))
    conversational = [s for s in ("code_cot", "doc_qa", "api_fix", "kernel_fix") if s in manifest["subsets"]]
    sft = tmp_path / "sft"
    assert akgen(["train", "sft", *tiny_args("tiny-cpu-sft", built_release, tiny_model, sft,
                                             "--subsets", ",".join(f"{s}=1" for s in conversational),
                                             "--extra_datasets", json.dumps([{"path": str(outside),
                                                                               "name": "general"}]))]) == 0
    run = json.loads((sft / "akgen_run.json").read_text())
    for subset in conversational:  # every record trained on: nothing dropped for its length
        assert run["data"][subset]["train"] == manifest["subsets"][subset]["train"], subset
    assert run["data"]["extra:general"]["train"] == 3
    assert run["data"]["_mixed"]["train"] == sum(manifest["subsets"][s]["train"] for s in conversational) + 3
    losses = _losses(sft)
    assert len(losses) == 5 and all(math.isfinite(v) for v in losses) and len(set(losses)) > 1

    dpo_out = tmp_path / "dpo"
    assert akgen(["train", "dpo", *tiny_args("tiny-cpu-dpo", built_release, sft, dpo_out,
                                             "--subsets", "dpo=1,dpo_perf=1")]) == 0
    run = json.loads((dpo_out / "akgen_run.json").read_text())
    assert run["data"]["dpo"]["train"] == manifest["subsets"]["dpo"]["train"]
    assert run["data"]["dpo_perf"]["train"] == manifest["subsets"]["dpo_perf"]["train"]
    losses = _losses(dpo_out)
    assert len(losses) == 5 and all(math.isfinite(v) for v in losses) and len(set(losses)) > 1

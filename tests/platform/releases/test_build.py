"""Building a release from seeded data: TRL columns through `datasets`, split by task,
evaluation tasks kept out, decontamination found, byte-identical rebuilds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_runner.prompt import extract_sources
from releases import builder, services
from releases.filters import SUBSETS
from tests.platform.releases.conftest import EVAL_TASK, REASONING, expert

pytestmark = pytest.mark.django_db


def _records(folder: Path, subset: str):
    for split in builder.SPLITS:
        path = folder / subset / f"{split}.jsonl"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                yield split, json.loads(line)


def test_release_loads_with_datasets_in_trl_formats(seeded, tmp_path):
    from datasets import load_dataset

    try:  # TRL's own check when the train extra is installed
        from trl.data_utils import is_conversational
    except ImportError:  # pragma: no cover
        def is_conversational(row):
            return isinstance(row.get("messages") or row.get("prompt"), list)

    out = tmp_path / "r1"
    result = services.build_into(out, number=1, data={"validation_percent": 30})
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["version"] == 1 and manifest["format"] == 1 and manifest["empty_subsets"] == []
    assert set(result.counts["subsets"]) == set(SUBSETS)
    for subset in SUBSETS:
        files = {sp: str(out / subset / f"{sp}.jsonl") for sp in builder.SPLITS
                 if manifest["files"][f"{subset}/{sp}.jsonl"]["records"]}
        ds = load_dataset("json", data_files=files)
        for split, dataset in ds.items():
            assert dataset.num_rows == manifest["subsets"][subset][split]
            row = dataset[0]
            assert is_conversational(row), subset
            if subset in ("dpo", "dpo_perf"):
                assert set(dataset.column_names) == {"prompt", "chosen", "rejected", "meta"}
                assert [m["role"] for m in row["prompt"]] == ["system", "user"]
                assert [m["role"] for m in row["chosen"]] == [m["role"] for m in row["rejected"]] == ["assistant"]
                assert row["chosen"][0]["content"] != row["rejected"][0]["content"]
            else:
                assert set(dataset.column_names) == {"messages", "meta"}
                roles = [m["role"] for m in row["messages"]]
                assert roles == ["system", "user", "assistant"]
                assert isinstance(row["messages"][2]["reasoning"], str)
            meta = row["meta"]
            assert meta["subset"] == subset and meta["split"] == split
            for key in ("task", "task_version", "level", "category"):
                assert key in meta
    # The card's YAML front matter names every config, and `datasets` reads the folder by config.
    card = (out / "README.md").read_text()
    assert card.startswith("---\npretty_name:") and "license: cc-by-4.0" in card
    import yaml

    front = yaml.safe_load(card.split("---\n")[1])
    assert [c["config_name"] for c in front["configs"]] == list(SUBSETS) and front["configs"][0]["default"]
    assert {i["config_name"]: {s["name"]: s["num_examples"] for s in i["splits"]} for i in front["dataset_info"]} \
        == {k: {sp: n for sp, n in v.items() if n} for k, v in manifest["subsets"].items()}
    assert front["size_categories"] == ["n<1K"] and "## Review coverage" in card
    dpo = load_dataset(str(out), "dpo")
    assert dpo["train"].num_rows == manifest["subsets"]["dpo"]["train"]
    for rel, info in manifest["files"].items():
        assert builder.sha256_file(out / rel) == info["sha256"]


def test_record_contents(seeded, tmp_path):
    out = tmp_path / "r"
    services.build_into(out, number=1, data={"validation_percent": 0})
    cot = [r for _, r in _records(out, "code_cot")]
    add = next(r for r in cot if r["meta"]["task"] == "add")
    system, user, assistant = add["messages"]
    assert user["content"].startswith("You are writing an AscendC kernel")  # the prompt (fallback: not on disk)
    assert extract_sources(assistant["content"], "device_only") == (expert("add"), None)
    assert assistant["reasoning"].startswith("## Data partitioning across cores and tiles (lines 7–8)\n\nEach of 8")
    assert "## Performance reasoning" not in assistant["reasoning"]  # an empty section is left out
    meta = add["meta"]
    assert meta["annotator"].startswith("u_") and meta["annotator"] != meta["reviewer"]
    assert '"ann"' not in json.dumps(meta) and meta["review_state"] == "approved"
    assert meta["created"] == "2026-03-01T12:00:00Z" and meta["level"] == 1 and meta["category"] == "elementwise"

    [api] = [r for _, r in _records(out, "api_fix") if r["meta"]["task"] == "add" and r["meta"]["source"] == "fix"]
    user = api["messages"][1]["content"]
    assert "SetGlobalBufer" in user and "has no member named" in user
    assert "did you mean `SetGlobalBuffer`" in user  # the API note
    assert "Compute add of x elementwise." in user  # the task's spec travels with the failing kernel
    answer = api["messages"][2]["content"]
    assert answer.startswith("The kernel misspells SetGlobalBuffer.") and "```cpp\n" in answer
    assert api["meta"]["failing_verdict"] == "compile_error" and api["meta"]["fixed_verdict"] == "passed"

    [kfix] = [r for _, r in _records(out, "kernel_fix") if r["meta"]["task"] == "add" and r["meta"]["source"] == "fix"]
    assert "case small: failed max_abs_err=1.5" in kfix["messages"][1]["content"]

    qa = [r for _, r in _records(out, "doc_qa")]
    assert len(qa) == 4 and qa[0]["messages"][2]["reasoning"] == "The MTE moves 32-byte blocks."

    pairs = [r for _, r in _records(out, "dpo")]
    for p in pairs:
        chosen = extract_sources(p["chosen"][0]["content"], "device_only")[0]
        rejected = extract_sources(p["rejected"][0]["content"], "device_only")[0]
        assert chosen != rejected and p["meta"]["rejected_verdict"] == "wrong_answer"
        if p["meta"]["source"] == "run":  # each answer keeps the reasoning its sample was sent with
            for side in ("chosen", "rejected"):
                assert p[side][0]["reasoning"].startswith(f"{REASONING} ({p['meta']['task']}, sample ")
        else:  # a human fix has no model reasoning: none is made up
            assert "reasoning" not in p["chosen"][0]
    keys = [(p["meta"]["chosen_submission_id"], p["meta"]["rejected_submission_id"]) for p in pairs]
    assert len(keys) == len(set(keys))
    # Per task: 1 fix pair + max(2 distinct passing, 3 failing) run pairs = 4 (the duplicate run adds none).
    per_task = {}
    for p in pairs:
        per_task[p["meta"]["task"]] = per_task.get(p["meta"]["task"], 0) + 1
    assert per_task["relu"] == 4 and set(per_task) == {"add", "relu", "gelu", "exp", "layer_norm", "matmul"}


def test_automatic_corrections_and_performance_pairs(seeded, tmp_path):
    """Every failing run sample of a training task becomes a correction record with the
    evaluator's real evidence and a passing target; passing samples at different modelled speeds
    become a labelled performance pair."""
    from tests.platform.releases.conftest import submit

    no_code = {"verdict": "compile_error", "compile_log": "kernel.cpp:1:2: error: #error akgen-format: no block",
               "diagnostics": [{"category": "format", "message": "no ```cpp block", "severity": "error"}]}
    unparsable = submit(seeded["tasks"]["exp"], "#error akgen-format: no block\n", no_code, run=seeded["other"],
                        sample=1)
    out = tmp_path / "auto"
    services.build_into(out, number=1, data={"validation_percent": 0})
    run = seeded["run"]
    assert unparsable.pk not in {r["meta"]["submission_id"] for _, r in _records(out, "api_fix")}  # nothing to fix
    auto_api = [r for _, r in _records(out, "api_fix") if r["meta"]["source"] == "auto"]
    assert sorted(r["meta"]["task"] for r in auto_api) == ["add", "exp", "gelu", "layer_norm", "matmul", "relu"]
    rec = next(r for r in auto_api if r["meta"]["task"] == "relu")
    user, assistant = rec["messages"][1]["content"], rec["messages"][2]
    assert "```cpp\nbroken\n```" in user and "has no member named 'SetGlobalBufer'" in user  # the real log
    assert "Compute relu of x elementwise." in user  # the task spec
    assert assistant["content"].startswith("Root cause (undeclared identifier or non-existent API) at kernel.cpp:5:")
    assert "undeclared identifier" in assistant["reasoning"]
    fixed = extract_sources(assistant["content"].split("\n\n", 1)[1], "device_only")[0]
    target = run.submissions.get(task__slug="relu", sample_index=0)  # the same run's passing sample
    assert fixed == target.kernel_source and rec["meta"]["fix_submission_id"] == target.pk
    assert rec["meta"]["target"] == "same_run" and rec["meta"]["review_state"] == "machine-judged"
    auto_kernel = [r for _, r in _records(out, "kernel_fix") if r["meta"]["source"] == "auto"]
    assert len(auto_kernel) == 6 * 3  # three wrong answers per training task
    assert all("case small: failed max_abs_err=1.5" in r["messages"][1]["content"] for r in auto_kernel)
    # A human fix takes precedence over an automatic record of the same failing submission.
    human_failing = {r["meta"]["submission_id"] for _, r in _records(out, "kernel_fix") if r["meta"]["source"] == "fix"}
    assert human_failing and not human_failing & {r["meta"]["submission_id"] for r in auto_kernel}

    perf = [r for _, r in _records(out, "dpo_perf")]
    assert sorted(r["meta"]["task"] for r in perf) == ["add", "exp", "gelu", "layer_norm", "matmul", "relu"]
    for r in perf:
        assert r["meta"]["chosen_speedup"] == 2.0 and r["meta"]["rejected_speedup"] == 1.0
        assert r["meta"]["rejected_verdict"] == "passed"
        assert r["chosen"][0]["reasoning"].endswith("sample 0)") and r["rejected"][0]["reasoning"].endswith("sample 1)")


def test_no_expert_of_a_held_out_task_and_no_unvouched_timing(seeded, tmp_path):
    """Without a passing sample the expert is the target, never for an evaluation task; a flagged
    (suspicious) timing makes no performance pair."""
    from submissions.models import Evaluation

    run = seeded["run"]
    Evaluation.objects.filter(submission__run=run, passed=True, submission__task__slug="exp").update(suspicious=True)
    Evaluation.objects.filter(submission__run__isnull=False, passed=True,
                              submission__task__slug__in=["relu", EVAL_TASK]).delete()
    out = tmp_path / "expert"
    services.build_into(out, number=1, data={"validation_percent": 0, "include_eval_tasks": True})
    api = {r["meta"]["task"]: r for _, r in _records(out, "api_fix") if r["meta"]["source"] == "auto"}
    assert api["relu"]["meta"]["target"] == "expert"
    assert extract_sources(api["relu"]["messages"][2]["content"].split("\n\n", 1)[1], "device_only")[0] == expert("relu")
    assert EVAL_TASK not in api  # included on request, yet its expert is never a training target
    assert "exp" not in {r["meta"]["task"] for _, r in _records(out, "dpo_perf")}


def test_cap_filters_and_review_state(seeded, tmp_path):
    out = tmp_path / "capped"
    result = services.build_into(out, number=1, data={"dpo_cap_per_task": 2, "levels": [1],
                                                      "subsets": ["dpo", "doc_qa"], "min_review": "submitted"})
    assert set(result.counts["subsets"]) == {"dpo", "doc_qa"}
    tasks = [r["meta"]["task"] for _, r in _records(out, "dpo")]
    assert sorted(set(tasks)) == ["add", "exp", "gelu", "relu"] and all(tasks.count(t) == 2 for t in set(tasks))
    qa = [r for _, r in _records(out, "doc_qa")]
    assert len(qa) == 5 and {r["meta"]["review_state"] for r in qa} == {"approved", "submitted"}
    # A date range on review time and a run filter.
    out2 = tmp_path / "dated"
    services.build_into(out2, number=2, data={"subsets": ["code_cot", "dpo"], "until": "2026-03-02",
                                              "runs": [seeded["other"].pk]})
    assert sorted(r["meta"]["task"] for _, r in _records(out2, "code_cot")) == ["add", "relu"]
    # `other` alone has no failing samples: only the fix pairs (reviewed on or before 2 March) remain.
    assert {r["meta"]["source"] for _, r in _records(out2, "dpo")} == {"fix"}


def test_split_by_task_never_by_record(seeded, tmp_path):
    out = tmp_path / "split"
    services.build_into(out, number=1, data={"validation_percent": 50})
    seen: dict[str, set[str]] = {}
    for subset in SUBSETS:
        for split, record in _records(out, subset):
            key = record["meta"]["task"] or f"question:{record['meta']['item_id']}"
            seen.setdefault(key, set()).add(split)
            assert split == builder.split_of(key, 50)
    assert all(len(splits) == 1 for splits in seen.values())
    assert {next(iter(s)) for s in seen.values()} == {"train", "validation"}
    assert builder.split_of("add", 0) == "train" and builder.split_of("add", 100) == "validation"


def test_evaluation_tasks_excluded_unless_included_and_decontamination(seeded, tmp_path):
    out = tmp_path / "default"
    services.build_into(out, number=1, data={})
    for subset in SUBSETS:
        assert all(r["meta"]["task"] != EVAL_TASK for _, r in _records(out, subset))
    report = json.loads((out / "decontamination.json").read_text())
    assert report["eval_tasks"] == [EVAL_TASK] and report["eval_tasks_included"] is False
    excluded = report["excluded_records"]
    assert excluded["code_cot"] == 1 and excluded["dpo"] == 4 and excluded["dpo_perf"] == 1
    assert excluded["api_fix"] == 2 and excluded["kernel_fix"] == 4  # 1 human fix + the automatic ones
    # The `add` run sample that copies softmax's expert kernel is removed from every subset, and listed.
    removed = report["removed"]["records"]
    assert report["removed"]["count"] == len(removed) >= 1
    assert all(r["task"] == "add" and r["reference_task"] == EVAL_TASK and r["match"] == "exact" for r in removed)
    copy = next(s for s in seeded["other"].submissions.all() if s.sample_index == 1)
    assert {r["subset"] for r in removed} == {"dpo"} and all(
        copy.pk in r["source"].values() for r in removed)
    for subset in SUBSETS:
        for _, r in _records(out, subset):
            assert copy.pk not in (r["meta"].get("chosen_submission_id"), r["meta"].get("rejected_submission_id"))
    assert report["overlaps"]["count"] == 0  # what stayed overlaps nothing

    out2 = tmp_path / "included"
    services.build_into(out2, number=2, data={"include_eval_tasks": True})
    cot = [r for _, r in _records(out2, "code_cot") if r["meta"]["task"] == EVAL_TASK]
    assert len(cot) == 1
    report = json.loads((out2 / "decontamination.json").read_text())
    assert report["eval_tasks_included"] is True and report["excluded_records"] == {}
    near = [h for h in report["overlaps"]["first"] if h["task"] == EVAL_TASK and h["match"] == "near"]
    assert near and all(h["similarity"] >= 0.8 for h in near)  # the failing softmax kernels are one-line edits of its expert


def test_rebuild_is_byte_identical(seeded, tmp_path):
    a = services.build_into(tmp_path / "a", number=3, data={"validation_percent": 30})
    b = services.build_into(tmp_path / "b", number=3, data={"validation_percent": 30})
    assert a.files == b.files
    for rel in a.files:
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes()
    assert (tmp_path / "a" / "manifest.json").read_bytes() == (tmp_path / "b" / "manifest.json").read_bytes()
    za = builder.zip_release(tmp_path / "a", tmp_path / "a.zip", prefix="ascend-cot-v3")
    zb = builder.zip_release(tmp_path / "b", tmp_path / "b.zip", prefix="ascend-cot-v3")
    assert za == zb and (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


def test_code_cot_prompt_is_the_benchmark_prompt_for_a_suite_task(seeded, tmp_path):
    """For a task version the suite on disk holds, USER is exactly build_prompt(task, path), and a
    host_device answer parses back into both files with the benchmark's own parser."""
    from annotations.models import Item, ItemSource, Queue
    from bench_runner import tasks as suite
    from bench_runner.prompt import build_prompt
    from tasks.services import SyncReport, _sync_one
    from tests.platform.releases.conftest import approve, submit

    on_disk = suite.get_task("relu_fp32_dynamic")
    _sync_one(on_disk, SyncReport())
    from tasks.models import Task

    task = Task.objects.get(slug="relu_fp32_dynamic")
    host = "// file: host.cpp\n#include \"akgen_host.h\"\n"
    s = submit(task, "// kernel\n", {"verdict": "passed", "diagnostics": []})
    type(s).objects.filter(pk=s.pk).update(path="host_device", host_source=host)
    item = Item.objects.create(queue=Queue.objects.get(slug="explain"), source=ItemSource.SUBMISSION, task=task,
                               task_version=task.current_version, submission=s, title="relu")
    approve(item, seeded["users"]["ann"], seeded["users"]["rev"],
            sections=[{"kind": "pipeline", "text": "One stage.", "lines": None}])
    out = tmp_path / "suite"
    services.build_into(out, number=1, data={"subsets": ["code_cot"], "validation_percent": 0,
                                             "include_eval_tasks": True})
    [record] = [r for _, r in _records(out, "code_cot") if r["meta"]["task"] == "relu_fp32_dynamic"]
    assert record["messages"][1]["content"] == build_prompt(on_disk, "host_device")
    assert record["meta"]["path"] == "host_device" and record["meta"]["task_version"] == on_disk.version
    assert record["meta"]["verdict"] == "passed" and record["meta"]["toolchain"] == "cpu-sim"
    kernel, host_back = extract_sources(record["messages"][2]["content"], "host_device")
    assert kernel == "// file: kernel.cpp\n// kernel\n" and host_back == host


def test_dpo_pairs_follow_the_judges_record(seeded, tmp_path, django_user_model):
    """Chosen: passed and vouched for (not suspicious, or dismissed); rejected: compiled and
    failed; quarantined results in neither pool."""
    from leaderboard.models import Dismissal, Quarantine
    from submissions.models import Evaluation

    runs = Evaluation.objects.filter(submission__run__isnull=False, submission__task__slug="relu")
    passing = list(runs.filter(passed=True).order_by("pk"))
    failing = list(runs.filter(passed=False).order_by("pk"))
    assert len(passing) >= 2 and len(failing) >= 2
    suspicious, dismissed = passing[0], passing[1]
    Evaluation.objects.filter(pk__in=[suspicious.pk, dismissed.pk]).update(suspicious=True)
    staff = django_user_model.objects.create_user("staff-dpo", is_staff=True)
    Dismissal.objects.create(submission_id=dismissed.submission_id, created_by=staff)
    Quarantine.objects.create(submission_id=failing[0].submission_id, reason="reads the golden", created_by=staff)
    Evaluation.objects.filter(pk=failing[1].pk).update(compiled=False)  # failed before running: no pair

    out = tmp_path / "dpo"
    services.build_into(out, number=1, data={"subsets": ["dpo"]})
    pairs = [r["meta"] for _, r in _records(out, "dpo") if r["meta"]["task"] == "relu" and r["meta"]["source"] == "run"]
    chosen = {p["chosen_submission_id"] for p in pairs}
    rejected = {p["rejected_submission_id"] for p in pairs}
    assert pairs and dismissed.submission_id in chosen and suspicious.submission_id not in chosen
    assert failing[0].submission_id not in rejected and failing[1].submission_id not in rejected

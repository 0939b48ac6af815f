"""Each rule of the judge has one owner (bench_runner.contracts); the platform's former copies
are gone and its numbers follow the record.

For every verdict, an evaluation finished through the worker pipeline must land with exactly
what its record says — compiled, passed, failure category, suspicious — in the row, in the run's
compile and exec counts, in the taxonomy, in the expert workspace's category and on the task
board. The scans at the end catch a second copy of a constant coming back.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench_runner.contracts import (
    DEFAULT_SOC,
    MAX_SOURCE_BYTES,
    SUSPICIOUS_SPEEDUP,
    VERDICTS,
    EvaluationResult,
    Verdict,
)
from bench_runner.toolchains import get as get_toolchain
from leaderboard.models import FailureCount, RankedKernel, RunTaskStat
from submissions.errors import SubmissionRejected
from submissions.intake import submission_validate
from submissions.models import Evaluation, LanguageModel, Run, Submission
from submissions.presenters import VERDICT_LABELS as VERDICT_DISPLAY
from workers import pipeline

ROOT = Path(__file__).resolve().parents[2]

#: (verdict, compiled, diagnostics, speedup): every verdict the judge stores, in the shapes it takes.
RECORDS = [
    ("passed", True, [], 1.3),
    ("passed", True, [], SUSPICIOUS_SPEEDUP * 1.5),
    ("wrong_answer", True, [{"category": "nan_inf", "severity": "error", "message": "NaN"}], None),
    ("wrong_answer", True, [], None),
    ("compile_error", False, [{"category": "undeclared", "severity": "error", "message": "x"}], None),
    ("compile_error", False, [], None),
    ("runtime_error", True, [{"category": "gm_oob", "severity": "error", "message": "oob"}], None),
    ("runtime_error", True, [], None),  # killed at run time after a good build: compiled
    ("timeout", True, [], None),
    ("sandbox_violation", False, [{"category": "sandbox_violation", "severity": "error", "message": "s"}], None),
    ("sandbox_violation", True, [], None),  # a forbidden system call while running
]


def _finish(task, run, index: int, raw: dict) -> tuple[Evaluation, EvaluationResult]:
    record = EvaluationResult.from_dict(raw)
    sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                    kernel_source=f"// {index}\n", sha256=f"{index:064x}", run=run,
                                    sample_index=index)
    ev = Evaluation.objects.create(submission=sub, toolchain="cpu-sim", soc=DEFAULT_SOC)
    claim = pipeline.evaluation_claim(evaluation_id=ev.pk, worker="rules")
    assert pipeline.evaluation_finish(claim, record)
    ev.refresh_from_db()
    return ev, record


@pytest.mark.django_db
def test_every_verdict_lands_as_its_record_says(task, user):
    model = LanguageModel.objects.create(owner=user, name="rules-model")
    run = Run.objects.create(model=model, name="rules-run", samples_per_task=len(RECORDS))
    finished = []
    for i, (verdict, compiled, diagnostics, speedup) in enumerate(RECORDS):
        raw = {"verdict": verdict, "compiled": compiled, "diagnostics": diagnostics, "speedup": speedup}
        ev, record = _finish(task, run, i, raw)
        assert (ev.verdict, ev.compiled, ev.passed) == (record.verdict, record.compiled, record.passed), raw
        assert ev.failure_category == record.failure_category, raw
        assert ev.suspicious == record.suspicious, raw
        assert ev.result["failure_category"] == record.failure_category  # stored record says it too
        finished.append((ev, record))
    stat = RunTaskStat.objects.get(run=run, task=task)
    assert stat.n == len(RECORDS)
    assert stat.n_compiled == sum(r.compiled for _, r in finished)
    assert stat.n_passed == sum(r.passed for _, r in finished)
    categories: dict[str, int] = {}
    for _, r in finished:
        if r.failure_category:
            categories[r.failure_category] = categories.get(r.failure_category, 0) + 1
    assert dict(FailureCount.objects.filter(run=run).values_list("category", "count")) == categories
    ranked = {rk.evaluation_id: rk.flagged for rk in RankedKernel.objects.filter(run=run)}
    assert ranked == {ev.pk: r.suspicious for ev, r in finished if r.passed}


@pytest.mark.django_db
def test_an_infrastructure_failure_is_not_a_verdict(task, user):
    sub = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                    kernel_source="// x\n", sha256="e" * 64, author=user)
    ev = Evaluation.objects.create(submission=sub)
    claim = pipeline.evaluation_claim(evaluation_id=ev.pk, worker="rules")
    with pytest.raises(ValueError, match="system_error"):
        pipeline.evaluation_finish(claim, EvaluationResult.from_dict({"verdict": "system_error"}))


@pytest.mark.django_db
def test_the_source_limit_is_the_evaluators(task):
    fits = "/" * MAX_SOURCE_BYTES
    submission_validate(task_slug=task.slug, path="device_only", kernel=fits)
    with pytest.raises(SubmissionRejected) as info:
        submission_validate(task_slug=task.slug, path="device_only", kernel=fits + "/")
    assert info.value.code == "source_too_large"
    for bad, code in (("a\x00b", "invalid_source"), ("\ud800", "invalid_source"), ("", "missing_source")):
        with pytest.raises(SubmissionRejected) as info:
            submission_validate(task_slug=task.slug, path="device_only", kernel=bad)
        assert info.value.code == code


@pytest.mark.django_db
def test_a_tasks_own_source_limit_holds_on_the_platform_too(task):
    """A suite may raise a task's source limit (``[limits] source_bytes``, stored in the version's
    spec by sync_tasks): the platform takes the same limit as the evaluator."""
    version = task.current_version
    version.spec = {**version.spec, "source_bytes": 2 * MAX_SOURCE_BYTES}
    version.save(update_fields=["spec"])
    task.refresh_from_db()
    long = "/" * (MAX_SOURCE_BYTES + 1000)
    submission_validate(task_slug=task.slug, path="device_only", kernel=long)
    with pytest.raises(SubmissionRejected) as info:
        submission_validate(task_slug=task.slug, path="device_only", kernel="/" * (2 * MAX_SOURCE_BYTES + 1))
    assert info.value.code == "source_too_large" and f"{2 * MAX_SOURCE_BYTES} bytes" in str(info.value)


def test_verdicts_soc_and_displays_come_from_the_contract():
    field = Evaluation._meta.get_field("verdict")
    assert [value for value, _ in field.choices] == list(VERDICTS)
    assert set(VERDICT_DISPLAY) == set(Verdict)
    assert Evaluation._meta.get_field("soc").default == DEFAULT_SOC == get_toolchain("cpu-sim").default_soc()


#: Constants that only bench_runner/contracts.py may define.
OWNED = re.compile(r"^\s*(SUSPICIOUS_SPEEDUP|MAX_SOURCE_BYTES|DEFAULT_SOC|VERDICTS|SCHEMA_VERSION)\s*[:=]", re.M)


#: Deciding that a run covered a task (judged samples against k) or the board (tasks covered
#: against the scope): only leaderboard/coverage.py may, so the page, API and exports rank alike.
COVERAGE_RULE = re.compile(r"\.n\s*>=\s*(k|[\w.]*samples_per_task)\b|\b(tasks_covered|tasks_in_scope)\s*(==|!=|<|>)")


def test_no_second_copy_of_a_rule():
    offenders = []
    for base in ("platform", "bench_runner", "trainer"):
        for path in (ROOT / base).rglob("*.py"):
            if "migrations" in path.parts or path.name == "contracts.py":
                continue
            text = path.read_text(encoding="utf-8")
            rel = path.relative_to(ROOT)
            if OWNED.search(text):
                offenders.append(f"{rel}: defines {OWNED.search(text).group(1)}")
            if base == "platform" and '"Ascend910B2"' in text:
                offenders.append(f"{rel}: spells the default SoC")
            if "AKGEN_SUSPICIOUS_SPEEDUP" in text:
                offenders.append(f"{rel}: a second suspicious-speedup setting")
            if re.search(r"^def failure_category\(", text, re.M):
                offenders.append(f"{rel}: a second failure-category rule")
            if base == "platform" and ("dict(category_choices())" in text or re.search(r"\{[^}]*TITLES\.items\(\)", text)):
                offenders.append(f"{rel}: a second category-title lookup (bench_runner.taxonomy.title_of)")
            if base == "platform" and "lease_until__lt" in text and rel.as_posix() != "platform/submissions/waiting.py":
                offenders.append(f"{rel}: a second lost-worker rule (submissions.waiting.lease_expired)")
            if base == "platform" and "getattr(settings, name" in text and rel.as_posix() != "platform/core/conf.py":
                offenders.append(f"{rel}: a second settings-else-environment lookup (core.conf.setting)")
            if base == "platform" and re.search(r"^PENDING\w*\s*=", text, re.M) and path.name != "models.py":
                offenders.append(f"{rel}: a second list of pending statuses (submissions.models.PENDING_STATUSES)")
            if (base == "platform" and rel.as_posix() != "platform/leaderboard/coverage.py"
                    and COVERAGE_RULE.search(text)):
                offenders.append(f"{rel}: a second coverage rule, which runs a board ranks (leaderboard.coverage)")
    # the scan still recognises the rule where it lives (else it would pass by matching nothing)
    assert COVERAGE_RULE.search((ROOT / "platform/leaderboard/coverage.py").read_text(encoding="utf-8"))
    assert not offenders, "\n".join(offenders)


def test_test_helpers_are_defined_once():
    """The process wrapper of the integration tests lives in tests/platform/procs.py only."""
    copies = [str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("*.py")
              if re.search(r"^class Proc\b", p.read_text(encoding="utf-8"), re.M)]
    assert copies == ["tests/platform/procs.py"], copies


#: The unlimited creators: only submissions.intake may call them, behind its limits.
UNLIMITED = re.compile(r"\b(submission_create|submission_create_many|_new_rows)\(|"
                       r"\b(Submission|Evaluation)\.objects\.(create|bulk_create|get_or_create)\(|"
                       r"\b(Submission|Evaluation)\(")


def test_every_new_evaluation_goes_through_intakes_limits():
    """An evaluation is created only in submissions.intake; every other path (API, editor,
    workspace fix editor, reviewer re-runs, generators through the API) calls api_submit,
    api_submit_batch or person_submit, which apply the allowance, pending cap and time budget."""
    offenders = []
    for path in (ROOT / "platform").rglob("*.py"):
        if "migrations" in path.parts or path.relative_to(ROOT).as_posix() == "platform/submissions/intake.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if UNLIMITED.search(line) and not line.lstrip().startswith(("class ", "#")):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)

"""Error-derived supervision built from the platform's own evidence, without a human per record.

A model run leaves failing samples with the evaluator's real evidence (the compile log and its
classified diagnostics, or the verifier's case, index, got and want) and, often, passing samples
of the same task. Each failing sample becomes a correction record:

* the user turn: the task's prompt (spec and signature), the failing kernel, its log and, for
  compile errors, the declarations of the APIs the diagnostics name (releases.apinotes);
* the assistant turn: the root cause (the taxonomy's category and the diagnostic that found it)
  and a kernel that passes: the same model's passing sample of that task version and path
  (the same run first, then the model's other runs), or — for training-split tasks of the
  bundled suite only (its experts are checked to pass), never a held-out one — the expert.

Compile errors go to ``api_fix``, kernels that compiled and failed to ``kernel_fix``. A human
fix of the same failing submission (the workspace's fix queue) takes precedence: the failing
submission is then left to releases.sources.fix_examples, whose records say ``source: fix``;
these say ``source: auto`` with ``review_state: machine-judged``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Q

from annotations.models import Annotation, QueueKind, Status
from bench_runner.taxonomy import Category, title_of
from releases import formats
from releases.apinotes import api_notes
from releases.builder import Example
from submissions.models import EvalStatus, Evaluation, Submission
from submissions.selectors import visibility_q
from tasks.models import TaskVersion
from tasks.suites import DEFAULT_SUITE

#: At most this many automatic correction records per task and subset (the rest of a task's
#: failures teach the same fix again).
AUTO_FIX_CAP_PER_TASK = 20
#: Failing verdicts of each subset: api_fix learns from compile errors, kernel_fix from kernels
#: that compiled and then failed.
FAILING = {"api_fix": ("compile_error",), "kernel_fix": ("wrong_answer", "runtime_error", "timeout")}
_LIGHT = ("id", "submission_id", "verdict", "toolchain", "failure_category", "speedup")


@dataclass(frozen=True, slots=True)
class Target:
    """The kernel an automatic correction teaches: a passing sample, or the expert."""

    kernel: str
    host: str | None
    source: str  # same_run | same_model | expert
    submission_id: int | None = None
    reasoning: str = ""


def human_fixed_ids() -> set[int]:
    """Failing submissions with a submitted or approved human fix that may ship (its kernel is one
    everyone may see, submissions.selectors.visibility_q): theirs is the record. A fix kept private
    leaves the failure to the automatic record instead of silencing it."""
    return set(Annotation.objects.filter(visibility_q(None, via="fix_submission__"),
                                         item__queue__kind=QueueKind.FIX, fix_submission__isnull=False,
                                         status__in=[Status.APPROVED, Status.SUBMITTED])
               .values_list("item__submission_id", flat=True))


def _failing(ctx, subset: str, shared: Q) -> Iterator[Evaluation]:
    qs = (Evaluation.objects.filter(shared, status=EvalStatus.DONE, verdict__in=FAILING[subset],
                                    submission__run__isnull=False, submission__quarantine__isnull=True,
                                    submission__task_id__in=ctx.allowed,
                                    **ctx.date_range("submission__created_at"))
          .exclude(failure_category=Category.FORMAT)  # no kernel to correct: the answer had none
          .select_related("submission", "submission__run")
          .order_by("submission__task_id", "submission_id", "pk"))
    if ctx.filters.runs:
        qs = qs.filter(submission__run_id__in=ctx.filters.runs)
    seen: set[int] = set()
    for ev in qs.iterator(chunk_size=500):
        if ev.submission_id not in seen:  # the first judged evaluation of a submission speaks for it
            seen.add(ev.submission_id)
            yield ev


class _Targets:
    """Passing samples per (model, task version, path, toolchain), looked up once per group."""

    def __init__(self, passing: Q) -> None:
        self.passing = passing
        self._cache: dict[tuple, list[tuple[int, int | None, int | None]]] = {}

    def _group(self, model_id: int, version_id: int, path: str, toolchain: str) -> list:
        key = (model_id, version_id, path, toolchain)
        if key not in self._cache:
            self._cache[key] = list(
                Evaluation.objects.filter(self.passing, submission__run__model_id=model_id,
                                          submission__task_version_id=version_id, submission__path=path,
                                          toolchain=toolchain)
                .order_by("submission__run_id", "submission__sample_index", "submission_id")
                .values_list("submission_id", "submission__run_id", "submission__sample_index"))
        return self._cache[key]

    def find(self, failing: Submission, toolchain: str) -> tuple[int, str] | None:
        """(submission id, same_run | same_model) of the best passing sample, or None."""
        rows = self._group(failing.run.model_id, failing.task_version_id, failing.path, toolchain)
        same_run = [r for r in rows if r[1] == failing.run_id]
        later = [r for r in same_run if (r[2] or 0) > (failing.sample_index or 0)]
        for pick, source in ((later, "same_run"), (same_run, "same_run"), (rows, "same_model")):
            if pick:
                return pick[0][0], source
        return None


def _expert(version_id: int, path: str) -> Target | None:
    row = TaskVersion.objects.filter(pk=version_id).values_list("expert_kernel", "expert_host").first()
    if row is None or not row[0].strip():
        return None
    kernel, host = row
    if path == "host_device" and not (host or "").strip():
        return None
    return Target(kernel=kernel, host=host if path == "host_device" else None, source="expert")


def root_cause(result: dict, verdict: str, category: str) -> tuple[str, str]:
    """(one-line root cause, reasoning paragraph) from the evaluator's record of a failure."""
    title = title_of(category) if category else ""
    diags = [d for d in result.get("diagnostics") or [] if isinstance(d, dict)]
    first = next((d for d in diags if (d.get("severity") or "error") == "error"), diags[0] if diags else None)
    where = ""
    message = str(result.get("reason") or "").strip()
    if first is not None:
        if first.get("line"):
            where = f" at {first.get('file') or 'kernel.cpp'}:{first['line']}"
        message = str(first.get("message") or message).strip()
    head = f"Root cause ({title or verdict.replace('_', ' ')}){where}: {message or verdict.replace('_', ' ')}"
    steps = [f"The evaluator judged this kernel {verdict.replace('_', ' ')}"
             + (f", classified as {title}" if title else "") + "."]
    if message:
        steps.append(f"The first error{where} reads: {message}")
    others = [str(d.get("message") or "") for d in diags if d is not first and d.get("message")][:3]
    if others:
        steps.append("Further diagnostics: " + "; ".join(others))
    steps.append("The corrected kernel below removes that cause and was judged passing by the same evaluator.")
    return head, "\n\n".join(steps)


def auto_fix_examples(ctx, subset: str, *, shared: Q, passing: Q, run_log) -> Iterator[Example]:
    """Automatic ``api_fix`` / ``kernel_fix`` records (see the module docstring). ``shared`` (the
    visibility rule) holds for the failing sample *and* its target: both kernels are in the record."""
    skip = human_fixed_ids()
    targets = _Targets(passing & shared)
    left: Counter = Counter()
    seen: set[tuple] = set()
    for ev in _failing(ctx, subset, shared):
        failing = ev.submission
        if failing.pk in skip or left[failing.task_id] >= AUTO_FIX_CAP_PER_TASK:
            continue
        if not ctx.task_ok(failing.task_id, subset):
            continue
        key = (failing.task_version_id, failing.path, failing.sha256)
        if key in seen:
            continue
        target = _target(ctx, failing, ev.toolchain, targets)
        if target is None:
            continue
        seen.add(key)
        left[failing.task_id] += 1
        yield _record(ctx, subset, ev, failing, target, run_log)


def _target(ctx, failing: Submission, toolchain: str, targets: _Targets) -> Target | None:
    found = targets.find(failing, toolchain)
    if found is not None:
        sub = Submission.objects.only("kernel_source", "host_source", "reasoning").get(pk=found[0])
        return Target(sub.kernel_source, sub.host_source, found[1], sub.pk, sub.reasoning)
    task = ctx.tasks[failing.task_id]
    if task.slug in ctx.eval_slugs:  # a held-out task's expert never becomes training data
        return None
    if task.suite != DEFAULT_SUITE:  # only the bundled suite's experts are checked to pass (suite validate)
        return None
    return _expert(failing.task_version_id, failing.path)


def _record(ctx, subset: str, ev: Evaluation, failing: Submission, target: Target, run_log) -> Example:
    result = ev.result if isinstance(ev.result, dict) else {}
    api = subset == "api_fix"
    log = str(result.get("compile_log") or "") if api else run_log(result)
    notes = api_notes(result.get("diagnostics")) if api else ""
    head, reasoning = root_cause(result, ev.verdict, ev.failure_category)
    task = ctx.tasks[failing.task_id]
    prompt = ctx.prompt(failing.task_id, failing.task_version_id, failing.path)
    meta = ctx.meta(subset, failing.task_id, failing.task_version_id, source="auto", path=failing.path,
                    submission_id=failing.pk, run_id=failing.run_id, fix_submission_id=target.submission_id,
                    target=target.source, failing_verdict=ev.verdict, fixed_verdict="passed",
                    root_cause=ev.failure_category or None, review_state="machine-judged",
                    toolchain=ev.toolchain, created=formats.timestamp(failing.created_at))
    record = formats.fix(title=task.title, kernel=failing.kernel_source, log=log, api_notes=notes,
                         diagnosis=head, fixed_kernel=target.kernel, fixed_host=target.host, path=failing.path,
                         reasoning=reasoning, meta=meta, spec=prompt)
    return Example(record, task.slug, (("failing_kernel", failing.kernel_source), ("fixed_kernel", target.kernel)))

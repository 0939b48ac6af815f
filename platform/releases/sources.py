"""Where release records come from: streaming, deterministic reads of the platform's data.

Each ``*_examples`` function yields :class:`releases.builder.Example` in primary-key order,
reading the database in chunks (``.iterator()``) and fetching large text only for the rows
it emits, so memory stays flat however many records there are.

Annotation subsets read the workspace's tables the way ``annotations.selectors.
approved_annotations`` (the export contract) does, but as a stream and with a minimum review
state; dpo pairs come from model runs' judged samples and from approved kernel fixes.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta
from itertools import islice

from django.conf import settings
from django.db.models import Q

from annotations.models import Annotation, QueueKind, Status
from annotations.schema import section_kinds
from releases import conf, corrections, formats
from releases.apinotes import api_notes
from releases.builder import Example
from releases.filters import PERF_MARGIN, Filters
from submissions.models import EvalStatus, Evaluation, Submission
from submissions.selectors import visibility_q
from tasks import splits
from tasks.models import Task, TaskVersion
from tasks.prompts import fallback_prompt
from tasks.suites import DEFAULT_SUITE, task_on_disk

logger = logging.getLogger(__name__)

COMPILED_FAILED = ("wrong_answer", "runtime_error", "timeout")


def shared(via: str) -> Q:
    """The one visibility rule (submissions.selectors.visibility_q) as releases apply it: only
    what *everyone* may see, through the relation ``via`` ("submission__", "fix_submission__").

    Anyone signed in may download a release, so a kernel its author kept private (an annotator's
    fix, a private run sample) must never become a record, whichever table it is reached through.
    """
    rule = visibility_q(None, via=via)
    assert rule is not None  # no user: never "everything"
    return rule


def shared_if_any(via: str) -> Q:
    """``shared(via)`` for an optional relation: rows without one pass (an expert kernel's item)."""
    return Q(**{f"{via}isnull": True}) | shared(via)


#: Only what everyone may see goes into a release: the run samples an evaluation belongs to.
SHARED = shared("submission__")
#: Run samples a DPO pair may use, by the evaluator's record: a *chosen* kernel passed and its
#: timing is one the judge vouches for (not suspicious, or a reviewer dismissed the flag); a
#: *rejected* one compiled and failed. Quarantined results are in neither pool.
#: A passing sample whose timing the judge vouches for (not flagged, or a reviewer dismissed the
#: flag), not quarantined: what a correction or a pair may teach as the right answer.
VOUCHED_PASS = Q(status=EvalStatus.DONE, submission__quarantine__isnull=True, passed=True) & (
    Q(suspicious=False) | Q(submission__dismissal__isnull=False))
PAIR_CANDIDATES = VOUCHED_PASS | Q(status=EvalStatus.DONE, submission__quarantine__isnull=True, passed=False,
                                   compiled=True)

CHUNK = 500


# --- context ------------------------------------------------------------------------------------


@dataclass
class TaskInfo:
    id: int
    slug: str
    title: str
    level: int
    category: str
    paths: list[str]
    suite: str = "akgen"


def pseudonym_key() -> bytes:
    key = conf.get("AKGEN_PSEUDONYM_KEY", "") or ""
    if not key:
        key = hmac.new(settings.SECRET_KEY.encode(), b"akgen-pseudonyms", hashlib.sha256).hexdigest()
    return key.encode()


@dataclass
class Context:
    """What every source needs: the filters, the task table, caches and exclusion counters."""

    filters: Filters
    tasks: dict[int, TaskInfo] = field(default_factory=dict)
    eval_slugs: set[str] = field(default_factory=set)
    split_versions: dict[str, str] = field(default_factory=dict)  # suite -> its split list's version
    allowed: set[int] = field(default_factory=set)  # task ids the filters let through
    evaluation: set[int] = field(default_factory=set)  # ... of which evaluation tasks (not included)
    excluded: Counter = field(default_factory=Counter)
    key: bytes = b""
    _prompts: dict = field(default_factory=dict)
    _versions: dict = field(default_factory=dict)
    _suite: set | None = None

    @classmethod
    def load(cls, filters: Filters) -> Context:
        ctx = cls(filters=filters, key=pseudonym_key())
        for t in Task.objects.order_by("pk"):
            ctx.tasks[t.pk] = TaskInfo(t.pk, t.slug, t.title, t.level, t.category, list(t.paths or ["device_only"]),
                                       t.suite)
        ctx.eval_slugs = splits.eval_slugs((t.slug, t.suite) for t in ctx.tasks.values())
        ctx.split_versions = splits.split_versions(t.suite for t in ctx.tasks.values())
        for t in ctx.tasks.values():
            if filters.levels and t.level not in filters.levels:
                continue
            if filters.categories and t.category not in filters.categories:
                continue
            if t.slug in filters.exclude_tasks:
                continue
            ctx.allowed.add(t.id)
            if t.slug in ctx.eval_slugs and not filters.include_eval_tasks:
                ctx.evaluation.add(t.id)
        ctx._versions = dict(TaskVersion.objects.values_list("pk", "content_hash"))
        return ctx

    def task_ok(self, task_id: int | None, subset: str) -> bool:
        """Whether records of this task go in; counts those held back as evaluation tasks."""
        if task_id not in self.allowed:
            return False
        if task_id in self.evaluation:
            self.excluded[subset] += 1
            return False
        return True

    def training_task_ids(self) -> set[int]:
        return self.allowed - self.evaluation

    def person(self, user_id: int | None) -> str | None:
        return formats.pseudonym(self.key, user_id)

    def version_hash(self, version_id: int | None) -> str | None:
        return self._versions.get(version_id)

    def prompt(self, task_id: int, version_id: int, path: str) -> str:
        """``bench_runner.prompt.build_prompt`` for the task version and path (see tasks.prompts)."""
        key = (version_id, path)
        if key not in self._prompts:
            if self._suite is None:
                self._suite = _suite_slugs()
            task = self.tasks[task_id]
            on_disk = (task.suite != DEFAULT_SUITE or task.slug in self._suite
                       or task.slug.removesuffix("_static") in self._suite)
            self._prompts[key] = _prompt(task, version_id, self._versions.get(version_id), path, on_disk=on_disk)
        return self._prompts[key]

    def date_range(self, field_name: str) -> dict:
        q = {}
        if self.filters.since:
            q[f"{field_name}__gte"] = datetime.combine(self.filters.since, time.min, tzinfo=UTC)
        if self.filters.until:
            q[f"{field_name}__lt"] = datetime.combine(self.filters.until + timedelta(days=1), time.min, tzinfo=UTC)
        return q

    def meta(self, subset: str, task_id: int | None, version_id: int | None, **extra) -> dict:
        task = self.tasks.get(task_id) if task_id else None
        return {"subset": subset, "task": task.slug if task else None,
                "task_version": self.version_hash(version_id) if version_id else None,
                "level": task.level if task else None, "category": task.category if task else None, **extra}


def _suite_slugs() -> set[str]:
    try:
        from bench_runner import tasks as suite

        return {p.name for p in suite.list_task_dirs()}
    except Exception:
        return set()


def _prompt(task: TaskInfo, version_id: int, content_hash: str | None, path: str, *, on_disk: bool = True) -> str:
    try:
        if not on_disk:
            raise LookupError(task.slug)
        from bench_runner import prompt as builder

        on_disk = task_on_disk(task.slug, task.suite)
        if on_disk.version == content_hash and path in on_disk.paths:
            return builder.build_prompt(on_disk, path)
    except Exception:  # the suite may be elsewhere or the version old: the fallback holds the same facts
        logger.debug("no suite prompt for %s; using the fallback", task.slug, exc_info=True)
    version = TaskVersion.objects.only("api_desc", "template_kernel", "template_host").get(pk=version_id)
    return fallback_prompt(version, path)


def _chunks(iterator, size: int = CHUNK) -> Iterator[list]:
    iterator = iter(iterator)
    while chunk := list(islice(iterator, size)):
        yield chunk


def _path_for(task: TaskInfo, submission: Submission | None, host: str | None) -> str:
    if submission is not None:
        return submission.path
    if host and "host_device" in task.paths:
        return "host_device"
    return "device_only" if "device_only" in task.paths else task.paths[0]


# --- annotations ----------------------------------------------------------------------------------


def _annotations(ctx: Context, kind: str):
    states = [Status.APPROVED] if ctx.filters.min_review == "approved" else [Status.APPROVED, Status.SUBMITTED]
    # The kernels an annotation carries (the item's submission, a fix's submission) obey the rule too.
    qs = Annotation.objects.filter(shared_if_any("item__submission__"), shared_if_any("fix_submission__"),
                                   status__in=states, item__queue__kind=kind)
    stamp = "reviewed_at" if ctx.filters.min_review == "approved" else "submitted_at"
    qs = qs.filter(**ctx.date_range(stamp))
    if kind != QueueKind.DOCQA:
        qs = qs.filter(item__task_id__in=ctx.allowed)
    related = {QueueKind.EXPLAIN: ("item", "item__submission", "item__task_version"),
               QueueKind.FIX: ("item", "item__submission", "fix_submission"),
               QueueKind.DOCQA: ("item",)}[kind]
    return qs.select_related(*related).order_by("pk")


def _review(a: Annotation) -> str:
    return "approved" if a.status == Status.APPROVED else "submitted"


def _titles(kind: str) -> dict[str, str]:
    return {k.key: k.title for k in section_kinds(kind)}


def code_cot_examples(ctx: Context) -> Iterator[Example]:
    titles = _titles(QueueKind.EXPLAIN)
    for chunk in _chunks(_annotations(ctx, QueueKind.EXPLAIN).iterator(chunk_size=2000), 2000):
        judged: dict[int, tuple[str, str]] = {}
        ids = {a.item.submission_id for a in chunk if a.item.submission_id}
        for sub_id, verdict, toolchain in (Evaluation.objects.filter(submission_id__in=ids, status=EvalStatus.DONE)
                                           .order_by("-pk").values_list("submission_id", "verdict", "toolchain")):
            judged[sub_id] = (verdict, toolchain)  # the oldest judged evaluation wins
        yield from _code_cot_chunk(ctx, chunk, judged, titles)


def _code_cot_chunk(ctx: Context, chunk: list[Annotation], judged: dict, titles: dict) -> Iterator[Example]:
    for a in chunk:
        item = a.item
        if not ctx.task_ok(item.task_id, "code_cot"):
            continue
        task = ctx.tasks[item.task_id]
        version_id = item.task_version_id or (item.submission.task_version_id if item.submission_id else None)
        kernel = item.kernel
        host = item.submission.host_source if item.submission_id else (
            item.task_version.expert_host or None if item.task_version_id else None)
        reasoning = formats.sections_markdown(a.sections or [], titles)
        if not kernel.strip() or not reasoning or version_id is None:
            continue
        path = _path_for(task, item.submission if item.submission_id else None, host)
        verdict, toolchain = judged.get(item.submission_id, (None, None))
        meta = ctx.meta("code_cot", item.task_id, version_id, source=item.source, path=path,
                        annotation_id=a.pk, item_id=item.pk, submission_id=item.submission_id,
                        verdict=verdict, toolchain=toolchain,
                        annotator=ctx.person(a.annotator_id), reviewer=ctx.person(a.reviewer_id),
                        review_state=_review(a), created=formats.timestamp(a.reviewed_at or a.submitted_at),
                        sections=[s.get("kind") for s in a.sections or [] if str(s.get("text") or "").strip()])
        record = formats.code_cot(prompt=ctx.prompt(item.task_id, version_id, path), kernel=kernel, host=host,
                                  path=path, reasoning=reasoning, meta=meta)
        yield Example(record, task.slug, (("kernel", kernel),))


def doc_qa_examples(ctx: Context) -> Iterator[Example]:
    for a in _annotations(ctx, QueueKind.DOCQA).iterator(chunk_size=2000):
        by_kind = {s.get("kind"): str(s.get("text") or "") for s in a.sections or []}
        answer = by_kind.get("answer", "").strip()
        if not a.item.question.strip() or not answer:
            continue
        meta = ctx.meta("doc_qa", None, None, source="question", annotation_id=a.pk, item_id=a.item_id,
                        annotator=ctx.person(a.annotator_id), reviewer=ctx.person(a.reviewer_id),
                        review_state=_review(a), created=formats.timestamp(a.reviewed_at or a.submitted_at))
        record = formats.doc_qa(question=a.item.question, answer=answer, reasoning=by_kind.get("reasoning", ""),
                                meta=meta)
        yield Example(record, f"question:{a.item_id}")


@dataclass
class FixRow:
    annotation: Annotation
    failing: Evaluation | None
    fixed: Evaluation | None

    @property
    def fix_kind(self) -> str:
        return "api" if self.failing is not None and self.failing.verdict == "compile_error" else "kernel"


def _fix_rows(ctx: Context, verdicts: tuple[str, ...] | None = None, exclude: tuple[str, ...] = ()) -> Iterator[FixRow]:
    """Approved fixes with the failing and the fixed submission's judged evaluations. ``verdicts``
    / ``exclude`` narrow the query by the failing verdict copied onto the item when it was queued
    (items without one are always read; the evaluation's verdict decides)."""
    qs = _annotations(ctx, QueueKind.FIX).filter(fix_submission__isnull=False)
    if verdicts:
        qs = qs.filter(Q(item__verdict__in=verdicts) | Q(item__verdict=""))
    if exclude:
        qs = qs.exclude(item__verdict__in=exclude)
    light = ("id", "submission_id", "verdict", "toolchain", "failure_category")
    for chunk in _chunks(qs.iterator(chunk_size=2000), 2000):
        failing_ids = {a.item.submission_id for a in chunk}
        evals: dict[int, Evaluation] = {}
        for e in Evaluation.objects.filter(submission_id__in=failing_ids, status=EvalStatus.DONE).order_by("-pk"):
            evals[e.submission_id] = e  # the oldest judged evaluation wins, like primary_evaluation
        fixed: dict[int, Evaluation] = {}
        for e in (Evaluation.objects.filter(submission_id__in={a.fix_submission_id for a in chunk},
                                            status=EvalStatus.DONE).only(*light).order_by("-pk")):
            fixed[e.submission_id] = e
        for a in chunk:
            yield FixRow(a, evals.get(a.item.submission_id), fixed.get(a.fix_submission_id))


def fix_examples(ctx: Context, subset: str) -> Iterator[Example]:
    titles = _titles(QueueKind.FIX)
    want = "api" if subset == "api_fix" else "kernel"
    narrow = {"verdicts": ("compile_error",)} if want == "api" else {"exclude": ("compile_error",)}
    for row in _fix_rows(ctx, **narrow):
        a, item = row.annotation, row.annotation.item
        if row.fix_kind != want or row.failing is None or row.fixed is None or row.fixed.verdict != "passed":
            continue
        if not ctx.task_ok(item.task_id, subset):
            continue
        failing = item.submission
        fixed = a.fix_submission
        result = row.failing.result if isinstance(row.failing.result, dict) else {}
        log = str(result.get("compile_log") or "") if want == "api" else _run_log(result)
        notes = api_notes(result.get("diagnostics")) if want == "api" else ""
        reasoning = formats.sections_markdown(a.sections or [], titles)
        meta = ctx.meta(subset, item.task_id, failing.task_version_id, source="fix", path=failing.path,
                        annotation_id=a.pk, item_id=item.pk, submission_id=failing.pk, fix_submission_id=fixed.pk,
                        annotator=ctx.person(a.annotator_id), reviewer=ctx.person(a.reviewer_id),
                        review_state=_review(a), failing_verdict=row.failing.verdict, fixed_verdict="passed",
                        root_cause=a.category or None, classifier_category=item.category or None,
                        toolchain=row.fixed.toolchain, created=formats.timestamp(a.reviewed_at or a.submitted_at))
        record = formats.fix(title=ctx.tasks[item.task_id].title, kernel=failing.kernel_source, log=log,
                             api_notes=notes, diagnosis=a.diagnosis, fixed_kernel=fixed.kernel_source,
                             fixed_host=fixed.host_source, path=failing.path, reasoning=reasoning or a.diagnosis,
                             meta=meta, spec=ctx.prompt(item.task_id, failing.task_version_id, failing.path))
        yield Example(record, ctx.tasks[item.task_id].slug,
                      (("failing_kernel", failing.kernel_source), ("fixed_kernel", fixed.kernel_source)))


def correction_examples(ctx: Context, subset: str) -> Iterator[Example]:
    """Human fixes first (they take precedence and are marked ``source: fix``), then the
    automatic records built from runs (releases.corrections, ``source: auto``)."""
    yield from fix_examples(ctx, subset)
    yield from corrections.auto_fix_examples(ctx, subset, shared=SHARED, passing=VOUCHED_PASS, run_log=_run_log)


def _run_log(result: dict) -> str:
    lines = []
    if result.get("reason"):
        lines.append(f"verdict {result.get('verdict')}: {result['reason']}")
    for case in result.get("cases") or []:
        if isinstance(case, dict) and not case.get("passed", True):
            parts = [f"case {case.get('name')}: failed"]
            for k in ("max_abs_err", "max_rel_err", "mismatch_count", "error"):
                if case.get(k) is not None:
                    parts.append(f"{k}={case[k]}")
            lines.append(" ".join(parts))
    for diag in result.get("diagnostics") or []:
        if isinstance(diag, dict):
            where = f"{diag.get('file')}:{diag.get('line')}: " if diag.get("file") else ""
            lines.append(f"{where}[{diag.get('category') or 'other'}] {diag.get('message') or ''}".rstrip())
    if result.get("stderr"):
        lines.append(str(result["stderr"])[-4000:])
    return "\n".join(lines[:60])


# --- dpo ----------------------------------------------------------------------------------------


@dataclass
class Pair:
    task_id: int
    version_id: int
    path: str
    chosen_id: int
    rejected_id: int
    rejected_verdict: str
    toolchain: str
    source: str  # run | fix
    chosen_sha: str
    rejected_sha: str
    annotation_id: int | None = None
    rejected_category: str = ""
    chosen_speedup: float | None = None
    rejected_speedup: float | None = None


def _fix_pairs(ctx: Context) -> Iterator[Pair]:
    for row in _fix_rows(ctx, verdicts=COMPILED_FAILED):
        a, item = row.annotation, row.annotation.item
        if row.failing is None or row.fixed is None or row.fixed.verdict != "passed":
            continue
        if row.failing.verdict not in COMPILED_FAILED or item.task_id not in ctx.allowed:
            continue
        s = item.submission
        yield Pair(item.task_id, s.task_version_id, s.path, a.fix_submission_id, s.pk, row.failing.verdict,
                   row.fixed.toolchain, "fix", a.fix_submission.sha256, s.sha256, a.pk, row.failing.failure_category)


def _run_pairs(ctx: Context, cap_left: Counter) -> Iterator[Pair]:
    qs = Evaluation.objects.filter(
        PAIR_CANDIDATES, SHARED, submission__run__isnull=False,
        submission__task_id__in=ctx.allowed, **ctx.date_range("submission__created_at"))
    if ctx.filters.runs:
        qs = qs.filter(submission__run_id__in=ctx.filters.runs)
    rows = (qs.order_by("submission__task_id", "submission__task_version_id", "submission__path", "toolchain",
                        "submission_id")
            .values_list("submission__task_id", "submission__task_version_id", "submission__path", "toolchain",
                         "submission_id", "submission__sha256", "verdict", "failure_category")
            .iterator(chunk_size=5000))
    group_key = None
    chosen: dict[str, int] = {}
    rejected: dict[str, tuple[int, str, str]] = {}  # sha256 -> (submission id, verdict, category)

    def flush():
        if group_key is None or not chosen or not rejected:
            return
        task_id, version_id, path, toolchain = group_key
        c, r = list(chosen.items()), list(rejected.items())
        for i in range(max(len(c), len(r))):
            if cap_left[task_id] <= 0:
                return
            c_sha, cid = c[i % len(c)]
            r_sha, (rid, verdict, category) = r[i % len(r)]
            yield Pair(task_id, version_id, path, cid, rid, verdict, toolchain, "run", c_sha, r_sha,
                       rejected_category=category)

    for task_id, version_id, path, toolchain, sub_id, sha, verdict, category in rows:
        key = (task_id, version_id, path, toolchain)
        if key != group_key:
            yield from flush()
            group_key, chosen, rejected = key, {}, {}
        if verdict == "passed":
            chosen.setdefault(sha, sub_id)
        else:
            rejected.setdefault(sha, (sub_id, verdict, category))
    yield from flush()


def dpo_examples(ctx: Context) -> Iterator[Example]:
    cap_left: Counter = Counter({tid: ctx.filters.dpo_cap_per_task for tid in ctx.tasks})
    seen: set[bytes] = set()

    def pairs():
        yield from _fix_pairs(ctx)
        yield from _run_pairs(ctx, cap_left)

    yield from _pair_examples(ctx, "dpo", _dedup(pairs(), cap_left, seen, ctx, "dpo"))


def _pair_examples(ctx: Context, subset: str, pairs: Iterator[Pair]) -> Iterator[Example]:
    for chunk in _chunks(pairs, 1000):
        ids = {p.chosen_id for p in chunk} | {p.rejected_id for p in chunk}
        subs = {row[0]: row for row in Submission.objects.filter(pk__in=ids).values_list(
            "pk", "kernel_source", "host_source", "run_id", "created_at", "reasoning")}
        for p in chunk:
            _, c_kernel, c_host, c_run, c_at, c_think = subs[p.chosen_id]
            _, r_kernel, r_host, r_run, r_at, r_think = subs[p.rejected_id]
            extra = ({"chosen_speedup": p.chosen_speedup, "rejected_speedup": p.rejected_speedup}
                     if subset == "dpo_perf" else {})
            meta = ctx.meta(subset, p.task_id, p.version_id, source=p.source, path=p.path,
                            chosen_submission_id=p.chosen_id, rejected_submission_id=p.rejected_id,
                            chosen_run_id=c_run, rejected_run_id=r_run, annotation_id=p.annotation_id,
                            chosen_verdict="passed", rejected_verdict=p.rejected_verdict,
                            rejected_category=p.rejected_category or None, toolchain=p.toolchain,
                            created=formats.timestamp(max(c_at, r_at)), **extra)
            record = formats.dpo(prompt=ctx.prompt(p.task_id, p.version_id, p.path),
                                 chosen=formats.answer_code(c_kernel, c_host, p.path),
                                 rejected=formats.answer_code(r_kernel, r_host, p.path), meta=meta,
                                 chosen_reasoning=c_think or "", rejected_reasoning=r_think or "")
            yield Example(record, ctx.tasks[p.task_id].slug, (("chosen", c_kernel), ("rejected", r_kernel)))


def _perf_pairs(ctx: Context) -> Iterator[Pair]:
    """Both passed, timings vouched for: the faster (by at least PERF_MARGIN) is chosen.

    Within a group (task version, path, toolchain, SoC) samples are sorted by modelled speedup and
    the fastest is paired with the slowest, the second with the second slowest, ... while the
    margin holds: each pair teaches a clear difference, and no kernel is used twice.
    """
    qs = Evaluation.objects.filter(
        VOUCHED_PASS, SHARED, speedup__isnull=False, speedup__gt=0, submission__run__isnull=False,
        submission__task_id__in=ctx.allowed, **ctx.date_range("submission__created_at"))
    if ctx.filters.runs:
        qs = qs.filter(submission__run_id__in=ctx.filters.runs)
    rows = (qs.order_by("submission__task_id", "submission__task_version_id", "submission__path", "toolchain", "soc",
                        "submission_id")
            .values_list("submission__task_id", "submission__task_version_id", "submission__path", "toolchain",
                         "soc", "submission_id", "submission__sha256", "speedup")
            .iterator(chunk_size=5000))
    group_key, members = None, {}

    def flush():
        if group_key is None or len(members) < 2:
            return
        task_id, version_id, path, toolchain, _ = group_key
        ranked = sorted(members.items(), key=lambda kv: (-kv[1][1], kv[1][0]))  # fastest first
        for i in range(len(ranked) // 2):
            (c_sha, (cid, c_speed)), (r_sha, (rid, r_speed)) = ranked[i], ranked[-1 - i]
            if c_speed < r_speed * PERF_MARGIN:
                return
            yield Pair(task_id, version_id, path, cid, rid, "passed", toolchain, "run", c_sha, r_sha,
                       chosen_speedup=c_speed, rejected_speedup=r_speed)

    for task_id, version_id, path, toolchain, soc, sub_id, sha, speedup in rows:
        key = (task_id, version_id, path, toolchain, soc)
        if key != group_key:
            yield from flush()
            group_key, members = key, {}
        members.setdefault(sha, (sub_id, speedup))
    yield from flush()


def dpo_perf_examples(ctx: Context) -> Iterator[Example]:
    cap_left: Counter = Counter({tid: ctx.filters.dpo_cap_per_task for tid in ctx.tasks})
    yield from _pair_examples(ctx, "dpo_perf", _dedup(_perf_pairs(ctx), cap_left, set(), ctx, "dpo_perf"))


def _dedup(pairs: Iterator[Pair], cap_left: Counter, seen: set[bytes], ctx: Context,
           subset: str) -> Iterator[Pair]:
    """Pairs with the same two kernels for the same prompt once; at most the cap per task."""
    for p in pairs:
        if cap_left[p.task_id] <= 0 or p.chosen_sha == p.rejected_sha:
            continue
        key = hashlib.sha256(f"{p.version_id}:{p.path}:{p.chosen_sha}:{p.rejected_sha}".encode()).digest()[:12]
        if key in seen:
            continue
        if not ctx.task_ok(p.task_id, subset):
            continue
        seen.add(key)
        cap_left[p.task_id] -= 1
        yield p


SOURCES = {
    "code_cot": code_cot_examples,
    "doc_qa": doc_qa_examples,
    "api_fix": lambda ctx: correction_examples(ctx, "api_fix"),
    "kernel_fix": lambda ctx: correction_examples(ctx, "kernel_fix"),
    "dpo": dpo_examples,
    "dpo_perf": dpo_perf_examples,
}


def examples(ctx: Context) -> dict[str, Iterator[Example]]:
    return {subset: SOURCES[subset](ctx) for subset in ctx.filters.subsets}


def references(ctx: Context) -> Iterator[tuple[str, str, str]]:
    """The evaluation tasks' expert kernels (every version), for decontamination."""
    ids = [t.id for t in ctx.tasks.values() if t.slug in ctx.eval_slugs]
    rows = (TaskVersion.objects.filter(task_id__in=ids).order_by("task_id", "pk")
            .values_list("task__slug", "content_hash", "expert_kernel", "expert_host"))
    for slug, content_hash, kernel, host in rows.iterator(chunk_size=200):
        if kernel.strip():
            yield f"expert:{slug}@{content_hash[:12]}", slug, kernel
        if host.strip():
            yield f"expert-host:{slug}@{content_hash[:12]}", slug, host


# --- preview counts ------------------------------------------------------------------------------


def estimate(ctx: Context) -> dict[str, int]:
    """Records per subset, counted in the database without building (dpo: an upper bound)."""
    from django.db.models import Count

    out: dict[str, int] = {}
    train_ids = ctx.training_task_ids()
    for subset in ctx.filters.subsets:
        if subset == "code_cot":
            out[subset] = _annotations(ctx, QueueKind.EXPLAIN).filter(item__task_id__in=train_ids).count()
        elif subset == "doc_qa":
            out[subset] = _annotations(ctx, QueueKind.DOCQA).count()
        elif subset in ("api_fix", "kernel_fix"):
            qs = _annotations(ctx, QueueKind.FIX).filter(item__task_id__in=train_ids, fix_submission__isnull=False)
            compile_error = Q(item__verdict="compile_error")
            human = qs.filter(compile_error if subset == "api_fix" else ~compile_error).count()
            failing = (Evaluation.objects.filter(SHARED, status=EvalStatus.DONE, submission__run__isnull=False,
                                                 verdict__in=corrections.FAILING[subset],
                                                 submission__task_id__in=train_ids,
                                                 **ctx.date_range("submission__created_at"))
                       .values("submission__task_id").annotate(n=Count("submission_id", distinct=True)).order_by())
            # an upper bound: a failing sample without a passing one (or an expert) gives no record
            out[subset] = human + sum(min(g["n"], corrections.AUTO_FIX_CAP_PER_TASK) for g in failing)
        elif subset == "dpo_perf":
            passing = (Evaluation.objects.filter(VOUCHED_PASS, SHARED, speedup__isnull=False,
                                                 submission__run__isnull=False, submission__task_id__in=train_ids)
                       .values("submission__task_id").annotate(n=Count("submission__sha256", distinct=True))
                       .order_by())
            out[subset] = sum(min(g["n"] // 2, ctx.filters.dpo_cap_per_task) for g in passing)
        elif subset == "dpo":
            qs = Evaluation.objects.filter(
                PAIR_CANDIDATES, SHARED, submission__run__isnull=False,
                submission__task_id__in=train_ids, **ctx.date_range("submission__created_at"))
            if ctx.filters.runs:
                qs = qs.filter(submission__run_id__in=ctx.filters.runs)
            groups = (qs.values("submission__task_id", "submission__task_version_id", "submission__path",
                                "toolchain")
                      .annotate(c=Count("submission__sha256", distinct=True, filter=Q(verdict="passed")),
                                r=Count("submission__sha256", distinct=True, filter=~Q(verdict="passed")))
                      .order_by())
            per_task: Counter = Counter()
            for g in groups:
                if g["c"] and g["r"]:
                    per_task[g["submission__task_id"]] += max(g["c"], g["r"])
            fixes = (_annotations(ctx, QueueKind.FIX).filter(item__task_id__in=train_ids,
                                                            item__verdict__in=COMPILED_FAILED)
                     .values_list("item__task_id", flat=True))
            for task_id in fixes:
                per_task[task_id] += 1
            out[subset] = sum(min(n, ctx.filters.dpo_cap_per_task) for n in per_task.values())
    return out


def sample(ctx: Context, per_subset: int = 2) -> dict[str, list[dict]]:
    """The first records of each subset, as the build would write them (for the preview)."""
    return {subset: [e.record for e in islice(it, per_subset)] for subset, it in examples(ctx).items()}

"""Every aggregate equals a recount of the evaluations under it, whatever happens in between.

Hypothesis drives random sequences of the things that change the numbers — an evaluation
finishing (each verdict, public or private, person or run), one ending unjudged after its
retries, staff quarantining and lifting, a reviewer dismissing a flag, a rebuild — through the
services a worker and the review page call. After every step the aggregate tables must equal a
recount done here from the raw rows; at the end of a sequence the pages and the API must show
the same numbers, and a dismissal must have survived every rebuild.

The evaluator's record is built from a dict here instead of running a kernel: what is under test
is the bookkeeping after the judge has spoken (the real judge's path is test_true_verdicts).
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bench_runner.contracts import SUSPICIOUS_SPEEDUP, EvaluationResult
from leaderboard import aggregates
from leaderboard import services as lb_services
from leaderboard.models import (
    Dismissal,
    FailureCount,
    Quarantine,
    RankedKernel,
    RunTaskStat,
    TaskVerdictCount,
)
from submissions.models import EvalStatus, Evaluation, LanguageModel, Run, Submission
from tests.platform.factories import make_task
from workers import pipeline

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

OUTCOMES = {
    "passed": {"verdict": "passed", "compiled": True},
    "wrong_answer": {"verdict": "wrong_answer", "compiled": True, "diagnostics": [
        {"category": "nan_inf", "severity": "error", "message": "unexpected NaN"}]},
    "unwritten": {"verdict": "wrong_answer", "compiled": True, "diagnostics": [
        {"category": "unwritten_output", "severity": "error", "message": "never written"}]},
    "compile_error": {"verdict": "compile_error", "compiled": False, "diagnostics": [
        {"category": "undeclared", "severity": "error", "message": "x"}]},
    "runtime_error": {"verdict": "runtime_error", "compiled": True, "diagnostics": []},
    "timeout": {"verdict": "timeout", "compiled": True, "diagnostics": []},
}
N_SLOTS = 14

slot = st.integers(0, N_SLOTS - 1)
step = st.one_of(
    # Speedups on both sides of the suspicious threshold, so flags and dismissals are exercised.
    st.tuples(st.just("finish"), slot, st.sampled_from(["passed"] * 4 + sorted(OUTCOMES)),
              st.sampled_from([0.4, 1.0, 1.7, SUSPICIOUS_SPEEDUP * 2.5]) | st.floats(0.2, SUSPICIOUS_SPEEDUP * 3)),
    st.tuples(st.just("unjudged"), slot),
    st.tuples(st.just("quarantine"), slot),
    st.tuples(st.just("lift"), slot),
    st.tuples(st.just("dismiss"), slot),
    st.tuples(st.just("rebuild"), st.sampled_from(["all", "scoped"])),
)


class World:
    """Two tasks, one run of one model, two people, and N_SLOTS sample slots among them."""

    def __init__(self) -> None:
        users = get_user_model().objects
        self.staff = users.create_user("staff-x", is_staff=True, is_superuser=True)
        self.people = [users.create_user(f"p{i}-x") for i in range(2)]
        self.tasks = [make_task(f"prop{i}", level=i + 1) for i in range(2)]
        model = LanguageModel.objects.create(owner=self.people[0], name="prop-model")
        self.run = Run.objects.create(model=model, name="prop-run", samples_per_task=5)
        self.slots = []
        for i in range(N_SLOTS):
            task = self.tasks[i % 2]
            if i < 8:
                self.slots.append({"task": task, "run": self.run, "sample_index": i // 2, "author": self.people[0],
                                   "visibility": "public"})
            else:
                self.slots.append({"task": task, "run": None, "sample_index": None, "author": self.people[i % 2],
                                   "visibility": "private" if i % 3 == 0 else "public"})
        self.submissions: dict[int, Submission] = {}

    def submission(self, i: int) -> Submission:
        if i not in self.submissions:
            s = self.slots[i]
            sub = Submission.objects.create(
                task=s["task"], task_version=s["task"].current_version, path="device_only",
                kernel_source=f"// slot {i}\n", sha256=f"{i:064x}", author=s["author"], run=s["run"],
                sample_index=s["sample_index"], visibility=s["visibility"])
            Evaluation.objects.create(submission=sub, toolchain="cpu-sim", soc="Ascend910B2")
            self.submissions[i] = sub
        return self.submissions[i]

    def claim(self, i: int):
        ev = self.submission(i).evaluations.get()
        if ev.status != EvalStatus.QUEUED:
            return None
        return pipeline.evaluation_claim(evaluation_id=ev.pk, worker="prop")


def _record(outcome: str, speedup: float) -> EvaluationResult:
    raw = dict(OUTCOMES[outcome])
    if outcome == "passed":
        raw["speedup"] = round(speedup, 4)
    return EvaluationResult.from_dict(raw)


def apply(world: World, op: tuple) -> None:
    kind = op[0]
    if kind == "finish":
        claim = world.claim(op[1])
        if claim is not None:
            assert pipeline.evaluation_finish(claim, _record(op[2], op[3]))
    elif kind == "unjudged":
        for _ in range(pipeline.MAX_INFRA_FAILURES):
            claim = world.claim(op[1])
            if claim is None:
                break
            pipeline.evaluation_fail_infra(claim, "the sandbox broke (simulated)")
    elif kind == "quarantine" and op[1] in world.submissions:
        sub = world.submissions[op[1]]
        if not Quarantine.objects.filter(submission=sub).exists():
            lb_services.quarantine_submission(submission=sub, reason="reads the golden", by=world.staff)
    elif kind == "lift" and op[1] in world.submissions:
        lb_services.quarantine_lift(submission=world.submissions[op[1]], by=world.staff)
    elif kind == "dismiss" and op[1] in world.submissions:
        lb_services.flag_dismiss(submission=world.submissions[op[1]], by=world.staff)
    elif kind == "rebuild":
        if op[1] == "all":
            aggregates.rebuild()
        else:
            aggregates.rebuild(aggregates.Scope(run_ids=(world.run.pk,),
                                                task_version_ids=tuple(t.current_version_id for t in world.tasks),
                                                people=True))


# --- the recount: plain Python over the raw rows --------------------------------------------------


def recount() -> dict:
    quarantined = set(Quarantine.objects.values_list("submission_id", flat=True))
    dismissed = set(Dismissal.objects.values_list("submission_id", flat=True))
    stats: dict = defaultdict(lambda: [0, 0, 0, 0, None, 0])
    fails: Counter = Counter()
    verdicts: Counter = Counter()
    ranked = {}
    rows = Evaluation.objects.filter(status__in=[EvalStatus.DONE, EvalStatus.FAILED]).select_related("submission")
    for ev in rows:
        sub = ev.submission
        done = ev.status == EvalStatus.DONE
        fast = done and ev.passed and ev.speedup is not None and ev.speedup > 0
        if fast and sub.visibility == "public":
            ranked[ev.pk] = (ev.speedup, ev.speedup > SUSPICIOUS_SPEEDUP, sub.pk in quarantined)
        if sub.pk in quarantined:
            continue
        if sub.run_id is not None:
            row = stats[(sub.run_id, sub.task_id)]
            if done:
                row[0] += 1
                row[1] += bool(ev.compiled)
                row[2] += bool(ev.passed)
                # A flagged speedup counts only once a reviewer vouched for it.
                if fast and (ev.speedup <= SUSPICIOUS_SPEEDUP or sub.pk in dismissed):
                    row[4] = max(row[4] or 0, ev.speedup)
                    row[5] += 1
            else:
                row[3] += 1
        if done and ev.failure_category:
            fails[(sub.run_id, ev.failure_category)] += 1
        verdict = ev.verdict if done else "system_error"
        verdicts[(sub.task_version_id, verdict, bool(ev.compiled) and done)] += 1
    return {"stats": {k: tuple(v) for k, v in stats.items()}, "fails": dict(fails), "verdicts": dict(verdicts),
            "ranked": ranked}


def stored() -> dict:
    stats = {(r.run_id, r.task_id): (r.n, r.n_compiled, r.n_passed, r.n_unjudged, r.best_speedup, r.speedup_count)
             for r in RunTaskStat.objects.all()}
    fails = {(r.run_id, r.category): r.count for r in FailureCount.objects.all()}
    verdicts = {(r.task_version_id, r.verdict, r.compiled): r.count for r in TaskVerdictCount.objects.all()}
    ranked = {r.evaluation_id: (r.speedup, r.flagged, r.quarantined) for r in RankedKernel.objects.all()}
    return {"stats": stats, "fails": fails, "verdicts": verdicts, "ranked": ranked}


def check_pages(world: World, client, truth: dict) -> None:
    client.force_login(world.staff)
    # The model board: samples, unjudged and exec pass@1 of the run.
    rows = client.get("/api/v1/leaderboard/models/").json()["rows"]
    mine = [r for r in rows if r["run"] == world.run.pk]
    per_task = {k[1]: v for k, v in truth["stats"].items() if k[0] == world.run.pk}
    judged = {t: v for t, v in per_task.items() if v[0] > 0}
    if judged:
        assert len(mine) == 1, rows
        metrics = mine[0]["metrics"]
        assert metrics["samples"] == sum(v[0] for v in judged.values())
        want = sum(v[2] / v[0] for v in judged.values()) / len(judged)
        assert math.isclose(metrics["exec@1"]["value"], want), (metrics["exec@1"], want)
        assert mine[0]["unjudged"] == sum(v[3] for v in per_task.values())
    # The taxonomy of the run.
    tax = client.get(f"/api/v1/leaderboard/taxonomy/?run={world.run.pk}").json()["rows"]
    got = {r["category"]: r["failures"] for r in tax}
    assert got == {c: n for (run, c), n in truth["fails"].items() if run == world.run.pk}
    dismissed = set(Dismissal.objects.values_list("submission_id", flat=True))
    for task in world.tasks:
        # The task page's counters and the task API's.
        html = client.get(f"/tasks/{task.slug}/").content.decode()
        n_judged = sum(n for (tv, v, _), n in truth["verdicts"].items()
                       if tv == task.current_version_id and v != "system_error")
        n_passed = sum(n for (tv, v, _), n in truth["verdicts"].items()
                       if tv == task.current_version_id and v == "passed")
        assert re.search(rf'data-testid="stat-judged">{n_judged}<', html), n_judged
        assert re.search(rf'data-testid="stat-passed">{n_passed}<', html), n_passed
        results = client.get(f"/api/v1/tasks/{task.slug}/").json()["results"]
        assert (results["judged"], results["passed"]) == (n_judged, n_passed)
        # The task board ranks unquarantined kernels a reviewer need not (or did) vouch for; the
        # flagged rest wait, counted, for review.
        answer = client.get(f"/api/v1/leaderboard/tasks/{task.slug}/").json()
        board = answer["rows"]
        mine = {pk: (v, Evaluation.objects.get(pk=pk).submission_id) for pk, v in truth["ranked"].items()
                if Evaluation.objects.get(pk=pk).submission.task_id == task.pk and not v[2]}
        live = [v[0] for v, sub in mine.values() if not v[1] or sub in dismissed]
        waiting = [v for v, sub in mine.values() if v[1] and sub not in dismissed]
        assert (board[0]["speedup"] if board else None) == (max(live) if live else None)
        assert results["best_speedup"] == (board[0]["speedup"] if board else None)
        assert answer["awaiting_review"] == len(waiting)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(ops=st.lists(step, min_size=1, max_size=24))
# Sequences every run covers, whatever the draw: a flagged public kernel dismissed then rebuilt,
# quarantined and lifted; a run sample unjudged next to judged ones; a private fast kernel.
@example(ops=[("finish", 9, "passed", SUSPICIOUS_SPEEDUP * 2), ("finish", 1, "passed", 1.5),
              ("dismiss", 9), ("rebuild", "all"), ("quarantine", 9), ("rebuild", "scoped"), ("lift", 9),
              ("finish", 0, "passed", SUSPICIOUS_SPEEDUP * 3), ("quarantine", 0), ("lift", 0), ("dismiss", 0)])
@example(ops=[("finish", 0, "passed", 1.2), ("unjudged", 2), ("finish", 4, "wrong_answer", 1.0),
              ("finish", 12, "passed", SUSPICIOUS_SPEEDUP * 2), ("finish", 3, "unwritten", 1.0),
              ("quarantine", 4), ("rebuild", "scoped"), ("unjudged", 5), ("lift", 4)])
def test_aggregates_equal_a_recount_after_any_sequence(ops, client):
    with transaction.atomic():
        world = World()
        dismissed_before_rebuild = set()
        for op in ops:
            apply(world, op)
            truth = recount()
            assert stored() == truth, f"after {op}"
            if op[0] == "dismiss" and op[1] in world.submissions:
                dismissed_before_rebuild.add(world.submissions[op[1]].pk)
        aggregates.rebuild()
        assert stored() == recount()
        assert set(Dismissal.objects.values_list("submission_id", flat=True)) == dismissed_before_rebuild
        check_pages(world, client, recount())
        transaction.set_rollback(True)

"""Seeded platform data for release tests: tasks (one a benchmark evaluation task), approved
explanations, fixes (compile error and wrong answer) and doc Q&A, and a model run with passing
(at two modelled speeds) and failing samples, each with its reasoning. Rows are written directly; the evaluator and the workspace flow are tested
elsewhere."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from annotations.models import Annotation, Item, ItemSource, Queue, QueueKind, Status
from submissions.models import EvalStatus, Evaluation, LanguageModel, Run, Submission
from tasks.models import Task, TaskVersion

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

EXPERT = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t TOTAL = 16384;  // {slug}
class Kernel_{name} {{
  public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y) {{
        xGm.SetGlobalBuffer((__gm__ float*)x + GetBlockIdx() * {n}, {n});
        yGm.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * {n}, {n});
        pipe.InitBuffer(inQ, 2, 4096);
        pipe.InitBuffer(outQ, 2, 4096);
    }}
    __aicore__ inline void Process() {{
        for (int32_t i = 0; i < {loops}; ++i) {{ CopyIn(i); Compute(i); CopyOut(i); }}
    }}
    __aicore__ inline void Compute(int32_t i) {{
        LocalTensor<float> x = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        {op}(y, x, 1024);
        outQ.EnQue(y);
        inQ.FreeTensor(x);
    }}
  private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<float> xGm, yGm;
}};
extern "C" __global__ __aicore__ void {slug}_custom(GM_ADDR x, GM_ADDR y) {{ Kernel_{name} op; op.Init(x, y); op.Process(); }}
"""

TASKS = [("add", 1, "elementwise", "Add"), ("relu", 1, "activation", "Relu"), ("gelu", 1, "activation", "Gelu"),
         ("exp", 1, "elementwise", "Exp"), ("softmax", 2, "normalization", "Softmax"),
         ("layer_norm", 2, "normalization", "LayerNorm"), ("matmul", 3, "matmul", "Mmad")]
EVAL_TASK = "softmax"
#: What every run sample's model "thought" before its answer (a sample's reasoning travels with it).
REASONING = "Split the vector over 8 cores and double-buffer each 1024-element tile"

COMPILE = {"verdict": "compile_error", "stage": "compile", "reason": "kernel.cpp:5: no member 'SetGlobalBufer'",
           "compile_log": "kernel.cpp:5:12: error: 'class GlobalTensor<float>' has no member named "
                          "'SetGlobalBufer'; did you mean 'SetGlobalBuffer'?\n",
           "diagnostics": [{"category": "undeclared", "message": "no member named 'SetGlobalBufer'",
                            "file": "kernel.cpp", "line": 5, "severity": "error"}]}
WRONG = {"verdict": "wrong_answer", "stage": "verify", "reason": "case small: 12 mismatches",
         "diagnostics": [{"category": "numerical_mismatch", "message": "12 of 2048 outputs differ",
                          "severity": "error"}],
         "cases": [{"name": "small", "passed": False, "max_abs_err": 1.5, "mismatch_count": 12}]}
PASSED = {"verdict": "passed", "stage": "done", "cases": [{"name": "small", "passed": True}], "speedup": 1.2}


def expert(slug: str, i: int = 0) -> str:
    return EXPERT.format(slug=slug, name=slug.title().replace("_", ""), n=2048 + 32 * i, loops=8 + i,
                         op=slug.title().replace("_", ""))


def make_task(slug: str, level: int, category: str) -> Task:
    task = Task.objects.create(slug=slug, title=slug.replace("_", " ").title(), level=level, category=category,
                               shape_mode="static", dtypes=["float32"], paths=["device_only", "host_device"])
    version = TaskVersion.objects.create(
        task=task, content_hash=hashlib.sha256(slug.encode()).hexdigest(), spec={"slug": slug},
        api_desc=f"# {slug}\n\nCompute {slug} of x elementwise.", template_kernel="// template\n",
        expert_kernel=expert(slug), expert_host="")
    task.current_version = version
    task.save()
    return task


def submit(task: Task, kernel: str, result: dict, *, author=None, run=None, sample=None, at=T0,
           visibility="public", speedup: float | None = None, reasoning: str = "") -> Submission:
    s = Submission.objects.create(task=task, task_version=task.current_version, path="device_only",
                                  kernel_source=kernel, sha256=hashlib.sha256(kernel.encode()).hexdigest(),
                                  author=author, run=run, sample_index=sample, visibility=visibility,
                                  reasoning=reasoning)
    Submission.objects.filter(pk=s.pk).update(created_at=at)
    verdict = result["verdict"]
    Evaluation.objects.create(submission=s, status=EvalStatus.DONE, verdict=verdict, result=result,
                              compiled=verdict not in ("compile_error",), passed=verdict == "passed",
                              failure_category="" if verdict == "passed" else result["diagnostics"][0]["category"],
                              speedup=speedup if speedup is not None else result.get("speedup"), finished_at=at)
    return s


def approve(item: Item, annotator, reviewer, *, at=T0, status=Status.APPROVED, **fields) -> Annotation:
    a = Annotation.objects.create(item=item, annotator=annotator, reviewer=reviewer if status == Status.APPROVED
                                  else None, status=status, submitted_at=at,
                                  reviewed_at=at if status == Status.APPROVED else None, **fields)
    return a


def seed() -> dict:
    users = get_user_model().objects
    ann = users.create_user("ann", password="x")
    bob = users.create_user("bob", password="x")
    rev = users.create_user("rev", password="x")
    lab = users.create_user("lab", password="x")
    tasks = {slug: make_task(slug, level, cat) for slug, level, cat, _ in TASKS}
    explain = Queue.objects.create(slug="explain", name="Explain", kind=QueueKind.EXPLAIN)
    fixq = Queue.objects.create(slug="fix", name="Fix", kind=QueueKind.FIX)
    docq = Queue.objects.create(slug="qa", name="Q&A", kind=QueueKind.DOCQA)
    annotations = {}
    for n, (slug, task) in enumerate(tasks.items()):
        item = Item.objects.create(queue=explain, source=ItemSource.EXPERT, task=task,
                                   task_version=task.current_version, title=f"Explain {slug}")
        sections = [{"kind": "partitioning", "text": f"Each of 8 cores takes 2048 elements of {slug}.",
                     "lines": [7, 8]},
                    {"kind": "pipeline", "text": "CopyIn, Compute, CopyOut with double buffering.", "lines": None},
                    {"kind": "perf", "text": "", "lines": None}]
        annotations[slug] = approve(item, ann, rev, at=T0 + timedelta(days=n), sections=sections)
        # A fix of a compile error (api_fix) and of a wrong answer (kernel_fix + a dpo pair). Both
        # kernels are shared (a fix queue takes only shared failures, and a release only shared
        # fixes: tests/platform/releases/test_privacy.py holds the private ones back).
        broken = submit(task, expert(slug).replace("SetGlobalBuffer", "SetGlobalBufer", 1), COMPILE, author=lab)
        wrong = submit(task, expert(slug).replace("1024", "1000"), WRONG, author=lab)
        for failing, result, cat in ((broken, COMPILE, "undeclared"), (wrong, WRONG, "numerical_mismatch")):
            fixed = submit(task, expert(slug, 1) + f"// fixed {failing.pk}\n", PASSED, author=ann)
            fix_item = Item.objects.create(queue=fixq, source=ItemSource.SUBMISSION, task=task,
                                           task_version=task.current_version, submission=failing,
                                           title=f"Fix {slug}", category=cat, verdict=result["verdict"])
            approve(fix_item, bob, rev, at=T0 + timedelta(days=n, hours=1), category=cat,
                    diagnosis=f"The kernel {'misspells SetGlobalBuffer' if cat == 'undeclared' else 'computes 1000 of 1024'}.",
                    sections=[{"kind": "fix", "text": "Restored the right call and length.", "lines": None}],
                    fix_submission=fixed)
    for q in range(4):
        item = Item.objects.create(queue=docq, source=ItemSource.QUESTION, title=f"Q{q}",
                                   question=f"Why must DataCopy lengths be 32-byte aligned? ({q})")
        approve(item, ann, rev, at=T0 + timedelta(hours=q), sections=[
            {"kind": "reasoning", "text": "The MTE moves 32-byte blocks.", "lines": None},
            {"kind": "answer", "text": "Because DataCopy moves whole 32-byte blocks.", "lines": None}])
    # A submitted (not yet reviewed) doc answer: only with min_review=submitted.
    pending = Item.objects.create(queue=docq, source=ItemSource.QUESTION, title="Q-pending",
                                  question="What is a TQue?")
    approve(pending, bob, None, status=Status.SUBMITTED, sections=[{"kind": "answer", "text": "A queue."}])
    model = LanguageModel.objects.create(owner=lab, name="Qwen-7B")
    run = Run.objects.create(model=model, name="k6", samples_per_task=6)
    other = Run.objects.create(model=model, name="k2", samples_per_task=2)
    for slug, task in tasks.items():
        for i in range(6):
            if i < 2:
                kernel, result = expert(slug, 2 + i) + f"// sample {i}\n", PASSED
            elif i < 5:
                kernel, result = expert(slug, 2).replace("1024", str(900 + i)) + f"// sample {i}\n", WRONG
            else:
                kernel, result = "broken", COMPILE
            # The two passing samples differ in modelled speed (a performance pair: 2.0 vs 1.0).
            submit(task, kernel, result, author=lab, run=run, sample=i, at=T0 + timedelta(days=10 + i),
                   speedup=(2.0, 1.0)[i] if i < 2 else None, reasoning=f"{REASONING} ({slug}, sample {i})")
        submit(task, expert(slug, 2) + "// sample 0\n", PASSED, author=lab, run=other, sample=0)  # a duplicate
    # A run sample for `add` that copies the evaluation task's expert kernel (contamination).
    submit(tasks["add"], expert(EVAL_TASK), PASSED, author=lab, run=other, sample=1, at=T0 + timedelta(days=20))
    return {"tasks": tasks, "run": run, "other": other, "users": {"ann": ann, "bob": bob, "rev": rev, "lab": lab},
            "annotations": annotations}


@pytest.fixture
def seeded(db, settings, tmp_path):
    settings.AKGEN_RELEASE_EVAL_TASKS = [EVAL_TASK]
    settings.AKGEN_RELEASES_DIR = str(tmp_path / "releases")
    settings.AKGEN_PSEUDONYM_KEY = "test-key"
    return seed()

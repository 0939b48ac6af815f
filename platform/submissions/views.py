"""Submission pages: the live result page and its polled status partial, diffs, compare, mine;
and the profile's forms that register a model or a run (answered with accounts' profile page).

A private submission is a 404 for anyone but its author and staff (selectors.submissions_visible_to).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import add_never_cache_headers
from django.views.decorators.http import require_GET, require_POST

from accounts.views import profile_render
from submissions import diffs
from submissions.errors import SubmissionRejected
from submissions.forms import ModelForm, RunForm
from submissions.models import Path_
from submissions.presenters import (
    VERDICT_LABELS,
    evaluation_view,
    source_listings,
    submitter_label,
)
from submissions.runs import llm_create, run_create
from submissions.selectors import (
    LIST_SORTS,
    VERDICT_GROUPS,
    expert_visible_to,
    queue_position,
    shown_to,
    submission_get_visible,
    submission_list,
    submission_primary_evaluation,
    submission_relatives,
)

PAGE_SIZE = 50


def _visible_or_404(pk: int, user):
    submission = submission_get_visible(pk=pk, user=user)
    if submission is None:
        raise Http404("No such submission.")
    return submission


def _evaluation_context(submission):
    evaluation = submission_primary_evaluation(submission)
    if evaluation is None:
        return None
    return evaluation_view(evaluation, submission, queue_position=queue_position(evaluation))


@require_GET
def submission_detail(request, pk: int):
    submission = _visible_or_404(pk, request.user)
    ev = _evaluation_context(submission)
    relatives = list(submission_relatives(submission, user=request.user))
    context = {
        "submission": submission,
        "ev": ev,
        "listings": source_listings(submission, ev.notes if ev else None),
        "relatives": relatives,
        "previous": next((r for r in relatives if (r.created_at, r.pk) < (submission.created_at, submission.pk)), None),
        "expert_visible": expert_visible_to(user=request.user, task=submission.task),
        "submitter": submitter_label(submission),
        "is_author": request.user.is_authenticated and submission.author_id == request.user.pk,
        "shown": shown_to(request.user, submission),
    }
    return render(request, "submissions/detail.html", context)


@require_GET
def submission_status(request, pk: int):
    """The evaluation block alone, polled every second while the evaluation is not finished.

    Once finished the block comes back without its trigger, which stops the polling, and the
    source listing is swapped out of band so its error lines get marked.
    """
    submission = _visible_or_404(pk, request.user)
    ev = _evaluation_context(submission)
    context = {"submission": submission, "ev": ev, "oob": True, "shown": shown_to(request.user, submission),
               "listings": source_listings(submission, ev.notes if ev else None),
               # a pass unlocks the expert diff: the link is swapped in with the verdict, no reload
               "expert_visible": expert_visible_to(user=request.user, task=submission.task)}
    response = render(request, "submissions/partials/status_response.html", context)
    add_never_cache_headers(response)
    return response


@require_GET
def submission_log(request, pk: int):
    """The full compile log as text (the page shows the first lines)."""
    submission = _visible_or_404(pk, request.user)
    evaluation = submission_primary_evaluation(submission)
    result = evaluation.result if evaluation is not None and isinstance(evaluation.result, dict) else {}
    log = result.get("compile_log") if isinstance(result.get("compile_log"), str) else ""
    response = HttpResponse(log, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="submission-{submission.pk}-compile.log"'
    return response


# --- diffs -----------------------------------------------------------------------------------


def _layout(request) -> str:
    return request.GET.get("layout") if request.GET.get("layout") in diffs.LAYOUTS else "split"


def _context_lines(request) -> int | None:
    return None if request.GET.get("lines") == "all" else 3


def _file_diffs(old_kernel, old_host, new_kernel, new_host, *, layout, context):
    files = [diffs.file_diff("kernel.cpp", old_kernel, new_kernel, layout=layout, context=context)]
    if old_host or new_host:
        files.append(diffs.file_diff("host.cpp", old_host, new_host, layout=layout, context=context))
    return files


def _host_of(submission):
    return submission.host_source if submission.path == Path_.HOST_DEVICE else None


@require_GET
def submission_diff(request, pk: int):
    """This submission against its template, the task's expert kernel, or another submission."""
    submission = _visible_or_404(pk, request.user)
    version = submission.task_version
    against = request.GET.get("against") or "template"
    other = None
    if against == "template":
        old_kernel = version.template_kernel
        old_host = version.template_host if submission.path == Path_.HOST_DEVICE else None
        old_label = "Template"
    elif against == "expert":
        if not expert_visible_to(user=request.user, task=submission.task):
            return render(request, "submissions/expert_locked.html",
                          {"submission": submission, "task": submission.task}, status=403)
        old_kernel = version.expert_kernel
        old_host = version.expert_host if submission.path == Path_.HOST_DEVICE else None
        old_label = "Expert kernel"
    else:
        try:
            other_pk = int(against)
        except ValueError as exc:
            raise Http404("Unknown diff base.") from exc
        other = _visible_or_404(other_pk, request.user)
        if other.task_id != submission.task_id:
            raise Http404("Diffs are between submissions of one task.")
        old_kernel, old_host = other.kernel_source, _host_of(other)
        old_label = f"Submission #{other.pk}"
    layout, context_lines = _layout(request), _context_lines(request)
    if request.GET.get("format") == "patch":
        text = "".join(
            diffs.patch_text(old, new, old_name=f"a/{name}", new_name=f"b/{name}")
            for name, old, new in (("kernel.cpp", old_kernel, submission.kernel_source),
                                   ("host.cpp", old_host, _host_of(submission)))
        )
        return HttpResponse(text, content_type="text/plain; charset=utf-8")
    context = {
        "submission": submission,
        "against": against,
        "other": other,
        "old_label": old_label,
        "new_label": f"Submission #{submission.pk}",
        "files": _file_diffs(old_kernel, old_host, submission.kernel_source, _host_of(submission),
                             layout=layout, context=context_lines),
        "layout": layout,
        "full": context_lines is None,
        "expert_visible": expert_visible_to(user=request.user, task=submission.task),
        "relatives": submission_relatives(submission, user=request.user),
    }
    return render(request, "submissions/diff.html", context)


def _int_param(request, name: str) -> int | None:
    try:
        value = request.GET.get(name)
        return int(value) if value else None
    except ValueError:
        return None


@require_GET
def submission_compare(request):
    """Any two submissions of one task, side by side; with fewer than two, a picker."""
    a_pk, b_pk = _int_param(request, "a"), _int_param(request, "b")
    a = _visible_or_404(a_pk, request.user) if a_pk else None
    b = _visible_or_404(b_pk, request.user) if b_pk else None
    task = (a or b).task if (a or b) else None
    error = ""
    if a and b and a.task_id != b.task_id:
        error = (f"Submission #{a.pk} is for {a.task.title} and #{b.pk} for {b.task.title}; "
                 "compare two submissions of the same task.")
    candidates = []
    if task is not None:
        candidates = list(submission_list(user=request.user, task=task)[:200])
    elif request.user.is_authenticated:
        candidates = list(submission_list(user=request.user, author=request.user)[:200])
    context = {"a": a, "b": b, "task": task, "error": error, "candidates": candidates,
               "layout": _layout(request), "full": _context_lines(request) is None}
    if a and b and not error:
        context["sides"] = [_side(a), _side(b)]
        context["files"] = _file_diffs(a.kernel_source, _host_of(a), b.kernel_source, _host_of(b),
                                       layout=context["layout"], context=_context_lines(request))
    return render(request, "submissions/compare.html", context, status=400 if error else 200)


def _side(submission):
    evaluation = submission_primary_evaluation(submission)
    return {"submission": submission, "submitter": submitter_label(submission),
            "ev": evaluation_view(evaluation, submission) if evaluation else None}


@login_required
@require_GET
def submission_mine(request):
    verdict = request.GET.get("verdict") or ""
    if verdict not in VERDICT_LABELS and verdict not in VERDICT_GROUPS:
        verdict = ""
    sort = request.GET.get("sort") if request.GET.get("sort") in LIST_SORTS else "new"
    qs = submission_list(user=request.user, author=request.user, verdict=verdict or None, sort=sort)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "submissions/mine.html",
                  {"page": page, "verdict": verdict, "sort": sort, "verdicts": VERDICT_LABELS})


# --- models and runs (forms of the profile page) ---------------------------------------------


@login_required
@require_POST
def model_new(request):
    form = ModelForm(request.POST)
    if form.is_valid():
        try:
            model = llm_create(owner=request.user, **form.cleaned_data)
        except SubmissionRejected as exc:
            form.add_error("name" if "name" in exc.fields else None, exc.message)
        else:
            messages.success(request, f"Model {model.name} registered (id {model.pk}).")
            return redirect("accounts:profile")
    return profile_render(request, status=400, model_form=form)


@login_required
@require_POST
def run_new(request):
    form = RunForm(request.POST, owner=request.user)
    if form.is_valid():
        data = dict(form.cleaned_data)
        model = data.pop("model")
        try:
            run = run_create(owner=request.user, model_id=model.pk, **data)
        except SubmissionRejected as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Run {run} created (id {run.pk}); submit its samples with "
                                      f"\"run\": {run.pk} and sample_index 0..{run.samples_per_task - 1}.")
            return redirect("accounts:profile")
    return profile_render(request, status=400, run_form=form)

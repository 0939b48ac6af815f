"""A task's pages that list or make submissions (URLs /tasks/<slug>/…, namespace "tasks"):
its submissions, and the editor that submits a kernel for it through submissions.intake."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render

from accounts import ratelimit
from core.htmx import int_or_none
from core.pagination import CappedPaginator
from submissions.errors import SubmissionRejected, SubmittingTooFast, TooManyPending
from submissions.forms import SubmissionForm
from submissions.intake import person_submit
from submissions.models import Path_, Visibility
from submissions.presenters import VERDICT_LABELS
from submissions.selectors import (
    LIST_SORTS,
    VERDICT_GROUPS,
    submission_get_visible,
    submission_list,
)
from tasks.models import Task
from tasks.presenters import api_desc_body, spec_view

PAGE_SIZE = 50


def _submit_limits(user_id: int) -> list:
    return ratelimit.limits_for("submit", user_id=user_id, token_id=None)


def _submit_allowance(user_id: int) -> dict | None:
    """What is left of the person's submission allowance (shared with the API), for display."""
    try:
        usage = ratelimit.peek(_submit_limits(user_id))
    except Exception:  # a display nicety must never break the editor
        return None
    return min(usage, key=lambda row: row["remaining"]) if usage else None


def task_submissions(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("current_version"), slug=slug)
    verdict = request.GET.get("verdict") or ""
    if verdict not in VERDICT_LABELS and verdict not in VERDICT_GROUPS:
        verdict = ""
    sort = request.GET.get("sort") if request.GET.get("sort") in LIST_SORTS else "new"
    qs = submission_list(user=request.user, task=task, verdict=verdict or None, sort=sort)
    page = CappedPaginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"task": task, "page": page, "verdict": verdict, "sort": sort, "verdicts": VERDICT_LABELS,
               "compare_a": int_or_none(request.GET.get("a"))}
    return render(request, "tasks/submissions.html", context)


def task_submit(request, slug: str):
    """The editor: GET starts from the template (or ?from=<id>, one's own or a public submission),
    POST submits through submissions.intake and goes to the live result page."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    task = get_object_or_404(Task.objects.select_related("current_version"), slug=slug)
    version = task.current_version
    if version is None:
        raise Http404("This task has no version to submit to.")
    paths = list(task.paths or Path_.values)
    status = 200
    if request.method == "POST":
        form = SubmissionForm(request.POST, paths=paths)
        if form.is_valid():
            data = form.cleaned_data
            try:
                # The same rules as the API and the workspace: allowance, pending cap, sources.
                created = person_submit(user=request.user, data={
                    "task": task.slug, "path": data["path"], "kernel": data["kernel"],
                    "host": data["host"] if data["path"] == Path_.HOST_DEVICE else None,
                    "visibility": data["visibility"],
                })
            except SubmittingTooFast as exc:
                form.add_error(None, f"{exc.message} Your source is kept below.")
                response = render(request, "tasks/submit.html", _submit_context(task, version, form, None), status=429)
                response["Retry-After"] = str(exc.retry_after_s)
                return response
            except SubmissionRejected as exc:
                form.add_rejection(exc)
                status = 400
            except TooManyPending as exc:
                form.add_error(None, f"{exc.message} Your source is kept below.")
                status = 429
            else:
                return redirect("submissions:detail", pk=created.submission.pk)
        else:
            status = 400
    else:
        initial = {"path": paths[0], "kernel": version.template_kernel, "host": version.template_host,
                   "visibility": Visibility.PUBLIC}
        source = int_or_none(request.GET.get("from"))
        start = submission_get_visible(pk=source, user=request.user) if source else None
        if start is not None and start.task_id == task.pk:
            initial.update(path=start.path if start.path in paths else paths[0], kernel=start.kernel_source,
                           host=start.host_source or version.template_host, visibility=start.visibility)
        form = SubmissionForm(initial=initial, paths=paths)
        start = start if start is not None and start.task_id == task.pk else None
    context = _submit_context(task, version, form, start if request.method != "POST" else None)
    context["allowance"] = _submit_allowance(request.user.pk)
    return render(request, "tasks/submit.html", context, status=status)


def _submit_context(task, version, form, start) -> dict:
    return {
        "task": task,
        "version": version,
        "form": form,
        "spec": spec_view(version.spec, task.dtypes or ()),
        "api_desc": api_desc_body(version, task),
        "start": start,
    }

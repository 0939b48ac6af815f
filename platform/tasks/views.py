"""Task pages: the filterable list, a task's specification and results, its submissions, and
the editor that submits a kernel for it."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.cache import patch_vary_headers

from akgen.htmx import htmx_target, int_or_none
from leaderboard.selectors import task_leaderboard
from submissions.errors import SubmissionRejected
from submissions.forms import SubmissionForm
from submissions.models import Path_, Visibility
from submissions.presenters import VERDICTS, listing
from submissions.selectors import (
    LIST_SORTS,
    VERDICT_GROUPS,
    expert_visible_to,
    submission_get_visible,
    submission_list,
)
from tasks.models import Task
from tasks.selectors import SORTS, task_filter_options, task_list, task_stats

PAGE_SIZE = 50


def _submit_limits(user_id: int) -> list:
    from accounts import ratelimit

    return ratelimit.limits_for("submit", user_id=user_id, token_id=None)


def _submit_allowance(user_id: int) -> dict | None:
    """What is left of the person's submission allowance (shared with the API), for display."""
    from accounts import ratelimit

    try:
        usage = ratelimit.peek(_submit_limits(user_id))
    except Exception:  # a display nicety must never break the editor
        return None
    return min(usage, key=lambda row: row["remaining"]) if usage else None


def task_index(request):
    options = task_filter_options()
    params = {
        "level": int_or_none(request.GET.get("level")),
        "category": request.GET.get("category") or None,
        "shape_mode": request.GET.get("shape_mode") or None,
        "dtype": request.GET.get("dtype") or None,
        "q": (request.GET.get("q") or "").strip()[:100] or None,
        "sort": request.GET.get("sort") if request.GET.get("sort") in SORTS else "level",
    }
    if params["dtype"] and params["dtype"] not in options.dtypes:
        params["dtype"] = None
    page = Paginator(task_list(**params), PAGE_SIZE).get_page(request.GET.get("page"))
    filtered = any(params[k] for k in ("level", "category", "shape_mode", "dtype", "q"))
    context = {"page": page, "params": params, "options": options, "filtered": filtered,
               "sort": params["sort"]}
    template = "tasks/partials/task_results.html" if htmx_target(request, "task-results") else "tasks/index.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def _spec_view(spec, dtypes=()) -> dict:
    """The parts of a task's spec the page shows, tolerant of older or partial specs.
    Tolerances are listed for the task's own dtypes when it names any."""
    spec = spec if isinstance(spec, dict) else {}

    def tensors(key):
        out = []
        for item in spec.get(key) or []:
            if isinstance(item, dict):
                shape = item.get("shape") or []
                out.append({"name": item.get("name", ""), "dtype": item.get("dtype", ""),
                            "shape": " × ".join(str(d) for d in shape) if isinstance(shape, list) else str(shape),
                            "alias": item.get("alias", "")})
        return out

    cases = []
    for item in spec.get("cases") or []:
        if isinstance(item, dict):
            dims = item.get("dims") if isinstance(item.get("dims"), dict) else {}
            attributes = item.get("attributes") if isinstance(item.get("attributes"), dict) else {}
            cases.append({"name": item.get("name", ""), "dims": list(dims.items()),
                          "seed": item.get("seed", ""), "attributes": list(attributes.items())})
    tolerances = []
    raw_tol = spec.get("tolerances") if isinstance(spec.get("tolerances"), dict) else {}
    for dtype, tol in raw_tol.items():
        if isinstance(tol, dict) and (not dtypes or dtype in dtypes or not set(dtypes) & set(raw_tol)):
            tolerances.append({"dtype": dtype, "rtol": tol.get("rtol"), "atol": tol.get("atol")})
    attributes = spec.get("attributes") if isinstance(spec.get("attributes"), dict) else {}
    return {
        "entry": spec.get("entry", ""),
        "block_dim": spec.get("block_dim", ""),
        "kernel_args": [str(a) for a in spec.get("kernel_args") or []],
        "inputs": tensors("inputs"),
        "outputs": tensors("outputs"),
        "attributes": list(attributes.items()),
        "cases": cases,
        "tolerances": tolerances,
    }


def _api_desc(version, task: Task) -> str:
    """The description without a leading "# <title>" (or "# <slug>") heading: the page shows it."""
    text = (version.api_desc if version else "") or ""
    first, _, rest = text.lstrip().partition("\n")
    if first.startswith("# ") and first[2:].strip().lower() in (task.title.strip().lower(), task.slug):
        return rest.lstrip("\n")
    return text


def _task_or_404(slug: str) -> Task:
    return get_object_or_404(Task.objects.select_related("current_version"), slug=slug)


def task_detail(request, slug: str):
    task = _task_or_404(slug)
    version = task.current_version
    context = {
        "task": task,
        "version": version,
        "spec": _spec_view(version.spec if version else {}, task.dtypes or ()),
        "api_desc": _api_desc(version, task),
        "stats": task_stats(task),
        "verdicts": VERDICTS,
        "template_listing": listing("kernel", "kernel.cpp", version.template_kernel) if version else None,
        "host_listing": listing("host", "host.cpp", version.template_host)
        if version and version.template_host else None,
        "recent": submission_list(user=request.user, task=task)[:8],
        "expert_visible": expert_visible_to(user=request.user, task=task),
        "board_entries": task_leaderboard(task, limit=10),
    }
    return render(request, "tasks/detail.html", context)


def task_submissions(request, slug: str):
    task = _task_or_404(slug)
    verdict = request.GET.get("verdict") or ""
    if verdict not in VERDICTS and verdict not in VERDICT_GROUPS:
        verdict = ""
    sort = request.GET.get("sort") if request.GET.get("sort") in LIST_SORTS else "new"
    qs = submission_list(user=request.user, task=task, verdict=verdict or None, sort=sort)
    page = Paginator(qs, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"task": task, "page": page, "verdict": verdict, "sort": sort, "verdicts": VERDICTS,
               "compare_a": int_or_none(request.GET.get("a"))}
    return render(request, "tasks/submissions.html", context)


def task_submit(request, slug: str):
    """The editor: GET starts from the template (or ?from=<id>, one's own or a public submission),
    POST submits through submissions.services and goes to the live result page."""
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
            from accounts import ratelimit

            decision = ratelimit.hit(_submit_limits(request.user.pk))
            if not decision.allowed:
                form.add_error(None, f"You have reached {decision.limit} submissions a minute, the most "
                                     f"allowed. Try again in {decision.retry_after} s; your source is kept below.")
                response = render(request, "tasks/submit.html", _submit_context(task, version, form, None), status=429)
                response["Retry-After"] = str(decision.retry_after)
                return response
            from api.errors import TooManyPending
            from api.services import api_submit

            try:
                # The same rules as the API, the pending-evaluations cap included.
                created = api_submit(user=request.user, data={
                    "task": task.slug, "path": data["path"], "kernel": data["kernel"],
                    "host": data["host"] if data["path"] == Path_.HOST_DEVICE else None,
                    "visibility": data["visibility"],
                })
            except SubmissionRejected as exc:
                form.add_rejection(exc)
                status = 400
            except TooManyPending as exc:
                form.add_error(None, f"{exc.detail} Your source is kept below.")
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
        "spec": _spec_view(version.spec, task.dtypes or ()),
        "api_desc": _api_desc(version, task),
        "start": start,
    }

"""The task list (/tasks/) and a task's page (/tasks/<slug>/), namespace "tasks": the suite with
its results, and one task's specification, results, leaderboard and recent submissions. They
live here because the leaderboard is the lowest app that sees tasks, submissions and the
aggregates the results come from (leaderboard.task_stats)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import F
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_vary_headers

from core.htmx import htmx_target, int_or_none
from leaderboard.selectors import awaiting_review, task_leaderboard
from leaderboard.task_stats import task_stats, with_task_counts
from submissions.presenters import VERDICT_LABELS, listing
from submissions.selectors import expert_visible_to, submission_list
from tasks.models import Task
from tasks.presenters import api_desc_body, desc_lists_tensors, spec_view
from tasks.selectors import task_filter_options, task_list

PAGE_SIZE = 50
#: ?sort= values of the task list, each with its ordering (n_judged, n_passed and best_speedup are
#: leaderboard.task_stats.with_task_counts' annotations).
SORTS: dict[str, tuple[str, ...]] = {
    "level": ("level", "slug"),
    "-level": ("-level", "slug"),
    "title": ("title",),
    "-title": ("-title",),
    "judged": ("n_judged", "level", "slug"),
    "-judged": ("-n_judged", "level", "slug"),
    "passed": ("n_passed", "level", "slug"),
    "-passed": ("-n_passed", "level", "slug"),
    "speedup": ("best_speedup", "level", "slug"),
    "-speedup": ("-best_speedup", "level", "slug"),
}


def _nulls_last(field: str):
    if field.startswith("-"):
        return F(field[1:]).desc(nulls_last=True)
    return F(field).asc(nulls_last=True)


def task_index(request):
    options = task_filter_options()
    params = {
        "level": int_or_none(request.GET.get("level")),
        "category": request.GET.get("category") or None,
        "shape_mode": request.GET.get("shape_mode") or None,
        "dtype": request.GET.get("dtype") or None,
        "q": (request.GET.get("q") or "").strip()[:100] or None,
        "suite": request.GET.get("suite") or None,
    }
    if params["suite"] and params["suite"] not in options.suites:
        params["suite"] = None
    if params["dtype"] and params["dtype"] not in options.dtypes:
        params["dtype"] = None
    sort = request.GET.get("sort") if request.GET.get("sort") in SORTS else "level"
    tasks = with_task_counts(task_list(**params)).order_by(*[_nulls_last(f) for f in SORTS[sort]])
    page = Paginator(tasks, PAGE_SIZE).get_page(request.GET.get("page"))
    filtered = any(params.values())
    context = {"page": page, "params": {**params, "sort": sort}, "options": options, "filtered": filtered,
               "sort": sort}
    template = "tasks/partials/task_results.html" if htmx_target(request, "task-results") else "tasks/index.html"
    response = render(request, template, context)
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def task_detail(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("current_version"), slug=slug)
    version = task.current_version
    spec, api_desc = spec_view(version.spec if version else {}, task.dtypes or ()), api_desc_body(version, task)
    context = {
        "task": task,
        "version": version,
        "spec": spec,
        "api_desc": api_desc,
        "tensors_in_desc": desc_lists_tensors(api_desc, spec),  # one tensor table on the page, not two
        "stats": task_stats(task),
        "verdicts": VERDICT_LABELS,
        "template_listing": listing("kernel", "kernel.cpp", version.template_kernel) if version else None,
        "host_listing": listing("host", "host.cpp", version.template_host)
        if version and version.template_host else None,
        "recent": submission_list(user=request.user, task=task)[:8],
        "expert_visible": expert_visible_to(user=request.user, task=task),
        "board_entries": task_leaderboard(task, limit=10),
        "awaiting": awaiting_review(task),
    }
    return render(request, "tasks/detail.html", context)

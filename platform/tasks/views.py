"""The task list: filter, sort and page the suite (a task's own pages are served by the apps
whose data they show: leaderboard.task_views and submissions.task_views)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from core.htmx import htmx_target, int_or_none
from tasks.selectors import SORTS, task_filter_options, task_list

PAGE_SIZE = 50


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

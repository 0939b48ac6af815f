"""The task page (/tasks/<slug>/, namespace "tasks"): the specification, the results on the
current version, the task's leaderboard and its recent submissions. It lives here because the
leaderboard is the lowest app that sees all three (tasks, submissions, the ranked kernels)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from leaderboard.selectors import task_leaderboard
from leaderboard.task_stats import task_stats
from submissions.presenters import VERDICTS, listing
from submissions.selectors import expert_visible_to, submission_list
from tasks.models import Task
from tasks.presenters import api_desc_body, spec_view


def task_detail(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("current_version"), slug=slug)
    version = task.current_version
    context = {
        "task": task,
        "version": version,
        "spec": spec_view(version.spec if version else {}, task.dtypes or ()),
        "api_desc": api_desc_body(version, task),
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

from django.shortcuts import get_object_or_404, render

from tasks.models import Task
from tasks.selectors import task_list


def task_index(request):
    return render(request, "tasks/index.html", {"tasks": task_list()})


def task_detail(request, slug: str):
    task = get_object_or_404(Task.objects.select_related("current_version"), slug=slug)
    return render(request, "tasks/detail.html", {"task": task})

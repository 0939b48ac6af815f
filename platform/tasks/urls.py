from django.urls import path

from tasks import views

#: The task list; akgen.urls gathers the "tasks:" namespace from the apps serving a task's pages.
urlpatterns = [
    path("", views.task_index, name="index"),
]

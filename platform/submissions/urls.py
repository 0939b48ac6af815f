from django.urls import path

from submissions import task_views, views

app_name = "submissions"
urlpatterns = [
    path("mine/", views.submission_mine, name="mine"),
    path("compare/", views.submission_compare, name="compare"),
    path("<int:pk>/", views.submission_detail, name="detail"),
    path("<int:pk>/status/", views.submission_status, name="status"),
    path("<int:pk>/diff/", views.submission_diff, name="diff"),
    path("<int:pk>/compile.log", views.submission_log, name="log"),
]

#: Pages of a task that list or make submissions; akgen.urls puts them under /tasks/ ("tasks:").
task_patterns = [
    path("<slug:slug>/submissions/", task_views.task_submissions, name="submissions"),
    path("<slug:slug>/submit/", task_views.task_submit, name="submit"),
]

#: The profile page's model and run forms; akgen.urls puts them under /accounts/ ("accounts:").
profile_patterns = [
    path("profile/models/", views.model_new, name="model-new"),
    path("profile/runs/", views.run_new, name="run-new"),
]

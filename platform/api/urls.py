from django.urls import path, re_path

from api import views

app_name = "api"
urlpatterns = [
    path("submissions/", views.SubmissionListCreateApi.as_view(), name="submission-list"),
    path("submissions/batch/", views.SubmissionBatchApi.as_view(), name="submission-batch"),
    path("submissions/<int:pk>/", views.SubmissionDetailApi.as_view(), name="submission-detail"),
    path("tasks/", views.TaskListApi.as_view(), name="task-list"),
    path("tasks/<slug:slug>/", views.TaskDetailApi.as_view(), name="task-detail"),
    path("models/", views.ModelListCreateApi.as_view(), name="model-list"),
    path("runs/", views.RunListCreateApi.as_view(), name="run-list"),
    path("runs/<int:pk>/", views.RunDetailApi.as_view(), name="run-detail"),
    path("me/", views.MeApi.as_view(), name="me"),
    re_path(r"^.*$", views.not_found),
]

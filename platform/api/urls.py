from django.urls import path, re_path, register_converter

from api import leaderboard_views as leaderboard_api
from api import release_views as release_api
from api import views


class IdConverter:
    """A database id: at most 18 digits, so it always fits a bigint (longer ids simply 404)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(value)


register_converter(IdConverter, "id")
RELEASE = r"^releases/(?P<number>[0-9]{1,9})"

app_name = "api"
urlpatterns = [
    path("submissions/", views.SubmissionListCreateApi.as_view(), name="submission-list"),
    path("submissions/batch/", views.SubmissionBatchApi.as_view(), name="submission-batch"),
    path("submissions/<id:pk>/", views.SubmissionDetailApi.as_view(), name="submission-detail"),
    path("tasks/", views.TaskListApi.as_view(), name="task-list"),
    path("tasks/<slug:slug>/", views.TaskDetailApi.as_view(), name="task-detail"),
    path("models/", views.ModelListCreateApi.as_view(), name="model-list"),
    path("runs/", views.RunListCreateApi.as_view(), name="run-list"),
    path("runs/<id:pk>/", views.RunDetailApi.as_view(), name="run-detail"),
    path("me/", views.MeApi.as_view(), name="me"),
    path("leaderboard/models/", leaderboard_api.ModelBoardApi.as_view(), name="leaderboard-models"),
    path("leaderboard/people/", leaderboard_api.PeopleBoardApi.as_view(), name="leaderboard-people"),
    path("leaderboard/taxonomy/", leaderboard_api.TaxonomyApi.as_view(), name="leaderboard-taxonomy"),
    path("leaderboard/tasks/<slug:slug>/", leaderboard_api.TaskBoardApi.as_view(), name="leaderboard-task"),
    path("releases/", release_api.ReleaseListCreateApi.as_view(), name="release-list"),
    path("releases/preview/", release_api.ReleasePreviewApi.as_view(), name="release-preview"),
    re_path(rf"{RELEASE}/$", release_api.ReleaseDetailApi.as_view(), name="release-detail"),
    re_path(rf"{RELEASE}/download/$", release_api.ReleaseDownloadApi.as_view(), name="release-download"),
    re_path(r"^.*$", views.not_found),
]

"""The URL tree. A namespace names a noun's pages even where several apps serve them: each page
lives in the app that can see all it shows (the layers in pyproject.toml), so /tasks/ and
/accounts/ are gathered here, the one module that may import every app."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import urls as account_urls
from akgen import views
from leaderboard import urls as leaderboard_urls
from submissions import urls as submission_urls

# /tasks/: the list and a task's page (leaderboard), its submissions and editor (submissions).
task_pages = [*leaderboard_urls.task_patterns, *submission_urls.task_patterns]
# /accounts/: sign-up, profile and tokens (accounts), the profile's model and run forms (submissions).
account_pages = [*account_urls.account_patterns, *submission_urls.profile_patterns]

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include((account_pages, "accounts"))),
    path("accounts/", include("django.contrib.auth.urls")),
    path("tasks/", include((task_pages, "tasks"))),
    path("submissions/", include("submissions.urls")),
    path("leaderboard/", include("leaderboard.urls")),
    path("runs/", include((leaderboard_urls.run_patterns, "runs"))),
    path("workspace/", include("annotations.urls")),
    path("releases/", include("releases.urls")),
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # The split view serves its start-up script as a file, so the docs work under script-src 'self'.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
]

#: Every refusal is the site's styled page saying what is missing and who grants it.
handler403 = "akgen.views.permission_denied"

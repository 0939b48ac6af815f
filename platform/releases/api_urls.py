"""Included by api/urls.py under /api/v1/releases/."""

from django.urls import path, re_path

from releases import api_views

NUMBER = r"(?P<number>[0-9]{1,9})"

urlpatterns = [
    path("", api_views.ReleaseListCreateApi.as_view(), name="release-list"),
    path("preview/", api_views.ReleasePreviewApi.as_view(), name="release-preview"),
    re_path(rf"^{NUMBER}/$", api_views.ReleaseDetailApi.as_view(), name="release-detail"),
    re_path(rf"^{NUMBER}/download/$", api_views.ReleaseDownloadApi.as_view(), name="release-download"),
]

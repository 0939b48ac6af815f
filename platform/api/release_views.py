"""/api/v1/releases/: start a build (the ``export`` scope and the curate permission), follow
it, download the zip. Thin: releases.services does the work."""

from __future__ import annotations

from django.http import FileResponse
from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from annotations.roles import NEED_CURATE
from api.serializers import TextField
from api.views import ApiListView, ApiView, errors
from core.denied import Denied
from releases import selectors, services
from releases.filters import REVIEW_STATES, SUBSETS, FilterError
from releases.models import ReleaseStatus

SLUG = r"^[-a-zA-Z0-9_]{1,120}$"


class FiltersInput(serializers.Serializer):
    subsets = serializers.ListField(child=serializers.ChoiceField(SUBSETS), required=False, max_length=10,
                                    help_text="Subsets to build; all when omitted.")
    levels = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=3), required=False,
                                   max_length=3, help_text="Task levels; all when omitted.")
    categories = serializers.ListField(child=TextField(pattern=SLUG, max_length=120), required=False,
                                       max_length=500, help_text="Task categories; all when omitted.")
    since = serializers.DateField(required=False, allow_null=True,
                                  help_text="Annotations reviewed / samples submitted on or after this day.")
    until = serializers.DateField(required=False, allow_null=True, help_text="... on or before this day.")
    min_review = serializers.ChoiceField(REVIEW_STATES, required=False,
                                         help_text="approved (default) or submitted (also awaiting review).")
    runs = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=10**18 - 1),
                                 required=False, max_length=500,
                                 help_text="Runs to draw preference pairs from; every run when omitted.")
    exclude_tasks = serializers.ListField(child=TextField(pattern=SLUG, max_length=120), required=False,
                                          max_length=500)
    include_eval_tasks = serializers.BooleanField(required=False, help_text="Include the benchmark's "
                                                  "evaluation tasks in training data (default false).")
    validation_percent = serializers.IntegerField(required=False, min_value=0, max_value=50,
                                                  help_text="Share of tasks in the validation split (10).")
    dpo_cap_per_task = serializers.IntegerField(required=False, min_value=1, max_value=10_000,
                                                help_text="At most this many preference pairs per task (50).")


class ReleaseInput(serializers.Serializer):
    title = TextField(max_length=200, required=False, allow_blank=True)
    filters = FiltersInput(required=False)


class ReleaseOutput(serializers.Serializer):
    number = serializers.IntegerField()
    title = serializers.CharField()
    status = serializers.ChoiceField(ReleaseStatus.choices)
    stage = serializers.CharField()
    percent = serializers.IntegerField()
    records_done = serializers.IntegerField()
    records_expected = serializers.IntegerField()
    filters = serializers.DictField()
    counts = serializers.DictField()
    sha256 = serializers.CharField()
    zip_bytes = serializers.IntegerField()
    git_revision = serializers.CharField()
    error = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    url = serializers.SerializerMethodField()
    download_url = serializers.SerializerMethodField()

    def get_url(self, obj) -> str:
        return self.context["request"].build_absolute_uri(reverse("api:release-detail", args=[obj.number]))

    def get_download_url(self, obj) -> str | None:
        if obj.status != ReleaseStatus.READY:
            return None
        return self.context["request"].build_absolute_uri(reverse("api:release-download", args=[obj.number]))


class PreviewOutput(serializers.Serializer):
    counts = serializers.DictField(child=serializers.IntegerField())
    total = serializers.IntegerField()
    eval_tasks = serializers.ListField(child=serializers.CharField())
    samples = serializers.DictField()
    filters = serializers.DictField()


def _filters(request) -> tuple[str, dict]:
    data = ReleaseInput(data=request.data)
    data.is_valid(raise_exception=True)
    raw = dict(data.validated_data.get("filters") or {})
    for key in ("since", "until"):
        if raw.get(key):
            raw[key] = raw[key].isoformat()
    return data.validated_data.get("title", ""), raw


def _curator(request) -> None:
    if not services.can_curate(request.user):
        raise Denied("Building releases", NEED_CURATE)  # staff may too


class ReleaseListCreateApi(ApiListView):
    scopes = {"GET": "export", "POST": "export"}
    serializer_class = ReleaseOutput

    @extend_schema(operation_id="releases_list", responses={200: ReleaseOutput(many=True),
                                                            **errors(400, 401, 403, 429)},
                   description="Every release, newest first.")
    def get(self, request):
        return self.list_response(selectors.releases(), ReleaseOutput)

    @extend_schema(operation_id="releases_create", request=ReleaseInput,
                   responses={202: ReleaseOutput, **errors(400, 401, 403, 413, 429)},
                   description="Start building a release with these filters. The build runs in a worker; poll "
                               "`url` until `status` is ready (then fetch `download_url`) or failed.")
    def post(self, request):
        _curator(request)
        title, raw = _filters(request)
        try:
            release = services.release_create(user=request.user, data=raw, title=title)
        except FilterError as exc:
            raise ValidationError(exc.fields) from exc
        return Response(ReleaseOutput(release, context={"request": request}).data, status=status.HTTP_202_ACCEPTED)


class ReleasePreviewApi(ApiView):
    scopes = {"POST": "export"}

    @extend_schema(operation_id="releases_preview", request=ReleaseInput,
                   responses={200: PreviewOutput, **errors(400, 401, 403, 413, 429)},
                   description="Records per subset these filters would give (dpo: an upper bound) and the "
                               "first two records of each subset; builds nothing.")
    def post(self, request):
        _curator(request)
        _, raw = _filters(request)
        try:
            p = services.preview(raw)
        except FilterError as exc:
            raise ValidationError(exc.fields) from exc
        return Response({"counts": p.counts, "total": p.total, "eval_tasks": p.eval_tasks, "samples": p.samples,
                         "filters": p.filters.canonical()})


class ReleaseDetailApi(ApiView):
    scopes = {"GET": "export"}

    @extend_schema(operation_id="releases_retrieve", responses={200: ReleaseOutput, **errors(401, 403, 404, 429)},
                   description="A release: status, progress, counts and, once ready, the download URL.")
    def get(self, request, number: str):
        release = selectors.release_get(int(number))
        if release is None:
            raise NotFound(f"No release {number}.")
        return Response(ReleaseOutput(release, context={"request": request}).data)


class ReleaseDownloadApi(ApiView):
    scopes = {"GET": "export"}

    @extend_schema(operation_id="releases_download",
                   responses={(200, "application/zip"): OpenApiResponse(bytes, description="The release as a zip."),
                              409: OpenApiResponse(description="Not built yet (or the build failed)."),
                              **errors(401, 403, 404, 429)},
                   description="The release's zip (immutable; its sha256 is in the release object).")
    def get(self, request, number: str):
        release = selectors.release_get(int(number))
        if release is None:
            raise NotFound(f"No release {number}.")
        if release.status != ReleaseStatus.READY:
            return Response({"code": "not_ready", "message": f"Release {release.number} is {release.status}.",
                             "fields": {}}, status=status.HTTP_409_CONFLICT)
        path = services.release_zip(release)
        if not path.exists():
            raise NotFound(f"The files of release {number} are missing on this server.")
        response = FileResponse(path.open("rb"), content_type="application/zip", as_attachment=True,
                                filename=path.name)
        response["X-Checksum-SHA256"] = release.sha256
        return response

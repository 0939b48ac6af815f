"""/api/v1/leaderboard/…: the numbers of the leaderboard pages, as JSON, from the same selectors."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from api.views import ApiView, errors
from leaderboard import exports, selectors
from tasks.models import Task
from tasks.suites import NAME_PATTERN as SUITE_NAME_PATTERN

TEXT = {"type": "string", "maxLength": 60, "pattern": selectors.TEXT_FILTER_PATTERN}
FILTER_PARAMS = [
    OpenApiParameter("level", int, enum=[1, 2, 3]),
    OpenApiParameter("shape_mode", str, enum=["static", "dynamic"]),
    OpenApiParameter("path", str, enum=["device_only", "host_device"]),
    OpenApiParameter("toolchain", TEXT, description="default cpu-sim"),
    OpenApiParameter("soc", TEXT),
    OpenApiParameter("category", TEXT),
    # empty means the default, like every filter here
    OpenApiParameter("suite", {"type": "string", "pattern": f"^(?:{SUITE_NAME_PATTERN[1:-1]})?$"},
                     description="default akgen"),
    OpenApiParameter("split", str, enum=["eval", "train"],
                     description="benchmark mode: eval scores only the held-out evaluation tasks"),
]
OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)
ID_SCHEMA = {"type": "integer", "minimum": 1, "maximum": 10**18 - 1}


def _filters(request) -> selectors.Filters:
    try:
        return selectors.Filters.from_query(request.query_params)
    except selectors.BadFilter as exc:
        raise ValidationError({"filters": [str(exc)]}) from exc


class ModelBoardApi(ApiView):
    scopes = {"GET": "read"}
    public_read = True

    @extend_schema(operation_id="leaderboard_models", parameters=FILTER_PARAMS,
                   responses={200: OBJECT, **errors(400, 401, 403, 429)},
                   description="One row per run: compile/exec pass@1/5/10 with 95% bootstrap intervals, "
                               "speedups, fast_1 and fast_1.5, overall and per level; the expert baseline "
                               "row has `baseline: true`. `coverage` says how much of the board's tasks the "
                               "run judged with its k samples (tasks_in_scope, tasks_covered, "
                               "samples_per_task, …); only `complete` runs (every task × sample of the "
                               "scope, nothing unjudged; with split=eval every held-out task) have a "
                               "`rank`, the others follow them with `rank: null`.")
    def get(self, request):
        filters = _filters(request)
        _, _, records = exports.models_table(filters)
        return Response({"filters": filters.as_query(), "rows": records})


class TaskBoardApi(ApiView):
    scopes = {"GET": "read"}
    public_read = True

    @extend_schema(operation_id="leaderboard_task",
                   parameters=[OpenApiParameter("who", str, enum=["all", "people", "models"])],
                   responses={200: OBJECT, **errors(401, 403, 404, 429)},
                   description="Best correct public kernels of a task (one per person or run), fastest "
                               "first; ties go to the earlier submission.")
    def get(self, request, slug: str):
        task = get_object_or_404(Task, slug=slug)
        who = request.query_params.get("who") or "all"
        if who not in ("all", "people", "models"):
            raise ValidationError({"who": ["must be all, people or models"]})
        entries = selectors.task_leaderboard(task, who=who)
        return Response({"task": task.slug, "who": who, "awaiting_review": selectors.awaiting_review(task), "rows": [
            {"rank": e.rank, "speedup": e.speedup, "submission": e.submission_id, "who": e.who, "kind": e.kind,
             "run": e.run_id, "submitted_at": e.submitted_at} for e in entries]})


class PeopleBoardApi(ApiView):
    scopes = {"GET": "read"}
    public_read = True

    @extend_schema(operation_id="leaderboard_people", responses={200: OBJECT, **errors(401, 403, 429)},
                   description="People by score (solved tasks weighted 0.2/0.3/0.5 by level plus a speed bonus).")
    def get(self, request):
        _, _, records = exports.people_table()
        return Response({"rows": records})


class TaxonomyApi(ApiView):
    scopes = {"GET": "read"}
    public_read = True

    @extend_schema(operation_id="leaderboard_taxonomy",
                   parameters=[OpenApiParameter("run", ID_SCHEMA), OpenApiParameter("model", ID_SCHEMA)],
                   responses={200: OBJECT, **errors(400, 401, 403, 429)},
                   description="Failures per taxonomy category, for a run, a model or the whole site.")
    def get(self, request):
        ids = {}
        for key in ("run", "model"):
            raw = request.query_params.get(key)
            if raw is not None:  # present but empty is not an id either
                if not raw.isdigit() or len(raw) > 18 or int(raw) < 1:
                    raise ValidationError({key: ["must be an id (a positive integer)"]})
                ids[key] = int(raw)
        _, _, records = exports.taxonomy_table(ids.get("run"), ids.get("model"))
        return Response({"run": ids.get("run"), "model": ids.get("model"), "rows": records})

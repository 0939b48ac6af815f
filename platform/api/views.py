"""Thin views of /api/v1/: authenticate, check scope and rate, validate input, call a service or
selector, serialize. Business rules live in the apps (submissions.intake and .runs, the
selectors); the leaderboard and release endpoints are api.leaderboard_views and .release_views."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Prefetch
from django.http import JsonResponse
from django.urls import Resolver404, resolve, reverse
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.exceptions import NotFound, Throttled, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import ratelimit, tiers
from accounts.models import ApiToken
from api import serializers as s
from api.exceptions import error_body, flatten_errors
from api.pagination import Pagination
from api.permissions import HasScope, required_scope
from bench_runner.contracts import MAX_SOURCE_BYTES
from leaderboard.progress import run_progress
from leaderboard.task_stats import RANKED_TOOLCHAIN, task_stats
from submissions.intake import (
    MAX_REASONING_BYTES,
    api_submit,
    api_submit_batch,
    budget_of,
    max_pending,
)
from submissions.models import Evaluation
from submissions.presenters import refusal
from submissions.runs import llm_create, run_create
from submissions.selectors import (
    llms_of,
    pending_count,
    queue_position,
    run_get,
    runs_of,
    shown_to,
    submission_get_for,
    submissions_of,
    submissions_visible_to,
)
from tasks import splits as task_splits
from tasks.models import Task
from tasks.prompts import default_path, task_prompts

ERRORS = {
    400: OpenApiResponse(s.ErrorSerializer, description="Malformed or invalid input."),
    401: OpenApiResponse(s.ErrorSerializer, description="No, unknown, expired or revoked API key."),
    403: OpenApiResponse(s.ErrorSerializer, description="The key lacks the scope (or CSRF failed)."),
    404: OpenApiResponse(s.ErrorSerializer, description="Not found, or not yours to see."),
    409: OpenApiResponse(s.ErrorSerializer, description="Conflicts with an existing object (a taken name)."),
    413: OpenApiResponse(s.ErrorSerializer, description="Request body or a source is too large."),
    429: OpenApiResponse(s.ErrorSerializer, description="Rate limit exceeded or too many pending evaluations; "
                                                          "see Retry-After."),
}


def errors(*codes: int) -> dict:
    """The documented error responses of an operation; 400 always (core.input answers any request
    whose query string or body is not clean text with it, before the view runs)."""
    return {code: ERRORS[code] for code in sorted({400, *codes})}


def _token(request) -> ApiToken | None:
    return request.auth if isinstance(request.auth, ApiToken) else None


class ApiView(APIView):
    """Base: scope per method (HasScope), then an atomic fixed-window rate limit per token and per
    user, reported on every response as X-RateLimit-Limit / -Remaining / -Reset (epoch seconds)."""

    permission_classes = [HasScope]
    scopes: dict[str, str] = {}

    def check_throttles(self, request):
        bucket = "submit" if required_scope(self, request.method) == "submit" else "read"
        token = _token(request)
        if not request.user.is_authenticated:  # a public_read GET (permissions.HasScope)
            limits = ratelimit.anonymous_read_limits(request)
        else:
            limits = ratelimit.limits_for(bucket, user_id=request.user.pk, token_id=token.pk if token else None)
        decision = ratelimit.hit(limits)
        request.rate_limit = decision
        if not decision.allowed:
            raise Throttled(
                wait=decision.retry_after,
                detail=f"Rate limit of {decision.limit} {bucket} requests per {ratelimit.window_s()} s "
                       f"exceeded; retry in {decision.retry_after} s.",
            )

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        decision = getattr(request, "rate_limit", None)
        if decision is not None:
            for name, value in decision.headers().items():
                response[name] = value
        return response


class ApiListView(ApiView, generics.GenericAPIView):
    """A paginated list ({"count", "next", "previous", "results"}; ?limit=&offset=)."""

    pagination_class = Pagination

    def list_response(self, queryset, serializer_class):
        page = self.paginate_queryset(queryset)
        context = {"request": self.request, "brief": getattr(self, "brief", False)}
        data = serializer_class(page, many=True, context=context).data
        return self.get_paginated_response(data)


def _abs(request, name: str, *args) -> str:
    return request.build_absolute_uri(reverse(name, args=args))


def _created_body(request, created) -> dict:
    return {
        "id": created.submission.pk,
        "status": created.evaluation.status if created.evaluation else "queued",
        "url": _abs(request, "api:submission-detail", created.submission.pk),
        "created": created.created,
    }


# --- submissions -----------------------------------------------------------------------------


class SubmissionListCreateApi(ApiListView):
    scopes = {"GET": "read", "POST": "submit"}
    public_read = True
    serializer_class = s.SubmissionOutput

    @extend_schema(
        operation_id="submissions_list", responses={200: s.SubmissionOutput(many=True), **errors(400, 401, 403, 429)},
        parameters=[OpenApiParameter("run", {"type": "integer", "minimum": 1, "maximum": 10**18 - 1},
                                     description="Only this run's samples."),
                    OpenApiParameter("task", str, description="Only this task."),
                    OpenApiParameter("brief", bool, description="Leave out each `result` object (fast listing "
                                                                "of a large run, e.g. to resume sampling).")],
        description="Your own submissions, newest first (without a key: the public ones).",
    )
    def get(self, request):
        if request.user.is_authenticated:
            qs = submissions_of(request.user).select_related("task_version")
        else:  # anonymous: the public submissions, as the pages list them
            qs = (submissions_visible_to(None).select_related("task", "task_version")
                  .prefetch_related("evaluations"))
        brief_raw = request.query_params.get("brief", "false")
        if brief_raw not in ("true", "false"):
            raise ValidationError({"brief": ["must be true or false"]})
        brief = brief_raw == "true"
        if brief:  # result objects can be large (timelines); do not even load them
            qs = qs.prefetch_related(None).prefetch_related(
                Prefetch("evaluations", queryset=Evaluation.objects.defer("result")))
        run = request.query_params.get("run")
        if run:
            if not (run.isascii() and run.isdigit() and len(run) <= 18 and int(run) >= 1):
                raise ValidationError({"run": ["must be a run id"]})
            qs = qs.filter(run_id=int(run))
        if request.query_params.get("task"):
            qs = qs.filter(task__slug=request.query_params["task"])
        self.brief = brief
        return self.list_response(qs.order_by("-id"), SubmissionSerializerWithUrl)

    @extend_schema(
        operation_id="submissions_create", request=s.SubmissionInput,
        responses={201: s.SubmissionCreatedOutput,
                   200: OpenApiResponse(s.SubmissionCreatedOutput,
                                        description="This (run, task, sample_index) was already submitted."),
                   **errors(400, 401, 403, 404, 413, 429)},
        description="Submit one kernel. It is saved, then queued for evaluation; poll `url` for the verdict. "
                    "With `run` and `sample_index` the request is idempotent.",
    )
    def post(self, request):
        data = s.SubmissionInput(data=request.data)
        data.is_valid(raise_exception=True)
        created = api_submit(user=request.user, data=data.validated_data)
        return Response(_created_body(request, created),
                        status=status.HTTP_201_CREATED if created.created else status.HTTP_200_OK)


class SubmissionBatchApi(ApiView):
    scopes = {"POST": "submit"}

    @extend_schema(
        operation_id="submissions_batch", request=s.BatchInputSchema,
        responses={201: OpenApiResponse(s.BatchOutput, description="Every item was accepted."),
                   207: OpenApiResponse(s.BatchOutput, description="Some items failed: see each result's "
                                                                   "`ok`, `status_code` and `error`."),
                   **errors(400, 401, 403, 413, 429)},
        description=f"Submit up to {settings.AKGEN_API_BATCH_MAX} kernels at once. Each item is validated "
                    "and accepted on its own (idempotent per run sample); a bad item never loses the good "
                    "ones.",
    )
    def post(self, request):
        batch = s.BatchInput(data=request.data)
        batch.is_valid(raise_exception=True)
        items = []
        checker = s.SubmissionInput()  # one instance validates every item (fields are built once)
        for index, raw in enumerate(batch.validated_data["submissions"]):
            try:
                items.append((index, checker.run_validation(raw), None))
            except ValidationError as exc:
                fields = flatten_errors(exc.detail)
                items.append((index, None, {"code": "invalid", "message": "Invalid item: " + "; ".join(
                    f"{k}: {v}" for k, v in fields.items()), "fields": fields}))
        results = api_submit_batch(user=request.user, items=items)
        out = []
        for result in results:
            row = {"index": result.index, "ok": result.ok, "status_code": result.status_code}
            if result.ok:
                row.update(_created_body(request, result.created))
            else:
                row["error"] = result.error
            out.append(row)
        failed = sum(1 for r in results if not r.ok)
        body = {"accepted": len(results) - failed, "failed": failed, "results": out}
        return Response(body, status=status.HTTP_207_MULTI_STATUS if failed else status.HTTP_201_CREATED)


class ShownEvaluationOutput(s.EvaluationOutput):
    error = serializers.CharField(source="shown_error")


class SubmissionSerializerWithUrl(s.SubmissionOutput):
    """A submission as its page shows it to the requester (submissions.selectors.shown_to): no
    field the page keeps from them, and an unjudged evaluation's error only as the page words it."""

    evaluations = ShownEvaluationOutput(many=True, source="shown_evaluations")

    def to_representation(self, instance):
        shown = shown_to(self.context["request"].user, instance)
        listed = list(instance.evaluations.all())
        for evaluation in listed:
            evaluation.shown_error = evaluation.error if shown.operations else refusal(evaluation.error)
        instance.shown_evaluations = listed
        main = min(listed, key=lambda e: e.pk) if listed else None
        instance.url = _abs(self.context["request"], "api:submission-detail", instance.pk)
        instance.status = main.status if main else "queued"
        instance.verdict = main.verdict if main else ""
        instance.result = main.result if main and not self.context.get("brief") else None
        instance.queue_position = queue_position(main) if main and self.context.get("queue_position") else None
        data = super().to_representation(instance)
        if not shown.reasoning:
            del data["reasoning"]
        return data


class SubmissionDetailApi(ApiView):
    scopes = {"GET": "read"}
    public_read = True

    @extend_schema(operation_id="submissions_retrieve",
                   responses={200: s.SubmissionOutput, **errors(401, 403, 404, 429)},
                   description="Status, verdict and the evaluator's result. Others' private submissions "
                               "answer 404.")
    def get(self, request, pk: int):
        submission = submission_get_for(request.user, pk)
        if submission is None:
            raise NotFound(f"No submission {pk} that you can see.")
        context = {"request": request, "queue_position": True}
        return Response(SubmissionSerializerWithUrl(submission, context=context).data)


# --- tasks -------------------------------------------------------------------------------------


def _held_out(request) -> set[str]:
    """The evaluation tasks (tasks.splits), computed once per request."""
    cached = getattr(request, "_akgen_held_out", None)
    if cached is None:
        cached = request._akgen_held_out = task_splits.eval_slugs()
    return cached


def _task_row(request, task: Task) -> dict:
    version = task.current_version
    return {
        "slug": task.slug, "url": _abs(request, "api:task-detail", task.slug), "title": task.title,
        "level": task.level, "category": task.category, "shape_mode": task.shape_mode,
        "dtypes": task.dtypes or [], "paths": task.paths or [], "suite": task.suite,
        "version": version.content_hash if version else None,
        "split": "eval" if task.slug in _held_out(request) else "train",
    }


class TaskRowSerializer(s.TaskOutput):
    def to_representation(self, instance):
        return _task_row(self.context["request"], instance)


class TaskListApi(ApiListView):
    scopes = {"GET": "read"}
    public_read = True
    serializer_class = s.TaskOutput

    @extend_schema(operation_id="tasks_list", responses={200: s.TaskOutput(many=True), **errors(400, 401, 403, 429)},
                   parameters=[OpenApiParameter("level", int, enum=[1, 2, 3]),
                               OpenApiParameter("category", str), OpenApiParameter("suite", str),
                               OpenApiParameter("split", str, enum=["eval", "train"])],
                   description="The tasks (those no longer on disk are left out); `suite` keeps one suite's "
                               "(akgen's own, or an imported one such as npukb); `split=eval` the held-out "
                               "evaluation tasks (by operator, from the suite's versioned list), `split=train` "
                               "the others.")
    def get(self, request):
        qs = Task.objects.filter(retired=False).select_related("current_version").order_by("level", "slug")
        level = request.query_params.get("level")
        if level:
            if level not in ("1", "2", "3"):
                raise ValidationError({"level": ["must be 1, 2 or 3"]})
            qs = qs.filter(level=int(level))
        if request.query_params.get("category"):
            qs = qs.filter(category=request.query_params["category"])
        if request.query_params.get("suite"):
            qs = qs.filter(suite=request.query_params["suite"])
        split = request.query_params.get("split")
        if split:
            if split not in ("eval", "train"):
                raise ValidationError({"split": ["must be eval or train"]})
            held_out = _held_out(request)
            qs = qs.filter(slug__in=held_out) if split == "eval" else qs.exclude(slug__in=held_out)
        return self.list_response(qs, TaskRowSerializer)


class TaskDetailApi(ApiView):
    scopes = {"GET": "read"}
    public_read = True

    @extend_schema(operation_id="tasks_retrieve", responses={200: s.TaskDetailOutput, **errors(401, 403, 404, 429)},
                   description="One task with its specification, templates and the prompt a model is given.")
    def get(self, request, slug: str):
        task = Task.objects.select_related("current_version").filter(slug=slug, retired=False).first()
        if task is None or task.current_version is None:
            raise NotFound(f"No task '{slug}'.")
        version = task.current_version
        body = _task_row(request, task) | {
            "api_desc": version.api_desc, "template_kernel": version.template_kernel,
            "template_host": version.template_host, "spec": version.spec,
        }
        stats = task_stats(task)
        best = max((t.best_speedup for t in stats.per_toolchain if t.toolchain == RANKED_TOOLCHAIN
                    and t.best_speedup is not None), default=None)
        body["results"] = {"judged": stats.judged, "passed": stats.passed, "unjudged": stats.unjudged,
                           "pending": stats.pending, "best_speedup": best, "toolchain": RANKED_TOOLCHAIN,
                           "verdicts": dict(stats.verdicts)}
        prompts = task_prompts(task)
        body["prompts"] = prompts
        body["prompt"] = prompts.get(default_path(task), "")
        return Response(body)


# --- models and runs ---------------------------------------------------------------------------


class ModelListCreateApi(ApiListView):
    scopes = {"GET": "read", "POST": "submit"}
    serializer_class = s.ModelOutput

    @extend_schema(operation_id="models_list", responses={200: s.ModelOutput(many=True), **errors(400, 401, 403, 429)},
                   description="Your registered models.")
    def get(self, request):
        return self.list_response(llms_of(request.user).select_related("owner").order_by("name"), s.ModelOutput)

    @extend_schema(operation_id="models_create", request=s.ModelInput,
                   responses={201: s.ModelOutput, **errors(400, 401, 403, 409, 429)},
                   description="Register a model (an LLM whose kernels you will submit). Names are unique.")
    def post(self, request):
        data = s.ModelInput(data=request.data)
        data.is_valid(raise_exception=True)
        model = llm_create(owner=request.user, **data.validated_data)
        return Response(s.ModelOutput(model).data, status=status.HTTP_201_CREATED)


class RunRowSerializer(s.RunOutput):
    def to_representation(self, instance):
        instance.url = _abs(self.context["request"], "api:run-detail", instance.pk)
        instance.html_url = _abs(self.context["request"], "runs:detail", instance.pk)
        return super().to_representation(instance)


class RunListCreateApi(ApiListView):
    scopes = {"GET": "read", "POST": "submit"}
    serializer_class = s.RunOutput

    @extend_schema(operation_id="runs_list", responses={200: s.RunOutput(many=True), **errors(400, 401, 403, 429)},
                   description="Runs of your models, newest first.")
    def get(self, request):
        return self.list_response(runs_of(request.user).order_by("-id"), RunRowSerializer)

    @extend_schema(operation_id="runs_create", request=s.RunInput,
                   responses={201: s.RunOutput, **errors(400, 401, 403, 404, 429)},
                   description="Start a run: one of your models sampling `samples_per_task` (k) kernels per "
                               "task with one decoding configuration. Submit its samples with `run` and "
                               "`sample_index` 0..k-1.")
    def post(self, request):
        data = s.RunInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        run = run_create(owner=request.user, model_id=fields.pop("model"), **fields)
        return Response(RunRowSerializer(run, context={"request": request}).data, status=status.HTTP_201_CREATED)


class RunDetailApi(ApiView):
    scopes = {"GET": "read"}

    @extend_schema(operation_id="runs_retrieve", responses={200: s.RunDetailOutput, **errors(401, 403, 404, 429)},
                   parameters=[OpenApiParameter("split", str, enum=["eval", "train", "all"])],
                   description="A run with its progress so far: per task n, compiled, passed, pass@1 and "
                               "pass@k (unbiased estimator 1 − C(n−c,k)/C(n,k), null while n < k). "
                               "`split=eval` counts only the benchmark's held-out evaluation tasks; "
                               "`scored_on` says which split the counted tasks are in.")
    def get(self, request, pk: int):
        split = request.query_params.get("split") or "all"
        if split not in ("eval", "train", "all"):
            raise ValidationError({"split": ["must be eval, train or all"]})
        run = run_get(pk)
        if run is None:
            raise NotFound(f"No run {pk}.")
        body = RunRowSerializer(run, context={"request": request}).data
        progress = run_progress(run, split=split)
        body["progress"] = s.RunProgressOutput(progress).data
        return Response(body)


# --- the caller ------------------------------------------------------------------------------


def limits_report(user, token: ApiToken | None) -> dict:
    token_id = token.pk if token else None
    return {
        bucket: ratelimit.peek(ratelimit.limits_for(bucket, user_id=user.pk, token_id=token_id))
        for bucket in ratelimit.SCOPES
    }


def _budget_report(user) -> dict:
    budget = budget_of(user)
    return {"used_s": round(budget.used_s, 1), "budget_s": budget.budget_s, "window_s": budget.window_s}


class MeApi(ApiView):
    scopes = {"GET": "read"}

    @extend_schema(operation_id="me_retrieve", responses={200: s.MeOutput, **errors(401, 403, 429)},
                   description="Who you are, your key's scopes, and your limits with current usage.")
    def get(self, request):
        token = _token(request)
        body = {
            "username": request.user.get_username(),
            "token": token.prefix if token else None,
            "scopes": token.scopes if token else ["submit", "read", "export"],
            "pending": pending_count(request.user),
            "max_pending": max_pending(request.user),
            "tier": tiers.allowance(request.user).tier,
            "worker_time": _budget_report(request.user),
            "batch_max": settings.AKGEN_API_BATCH_MAX,
            "max_source_bytes": MAX_SOURCE_BYTES,
            "max_reasoning_bytes": MAX_REASONING_BYTES,
            "max_request_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
            "rate_limits": limits_report(request.user, token),
        }
        return Response(body)


@csrf_exempt
def not_found(request, *args, **kwargs):
    """Unknown /api/v1/ paths answer JSON 404 too, not the site's HTML page."""
    message = "No such API endpoint; see /api/schema/."
    if not request.path.endswith("/"):
        try:
            match = resolve(request.path + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not not_found:
            message = f"No such API endpoint; did you mean {request.path}/ (with the trailing slash)?"
    return JsonResponse(error_body("not_found", message), status=404)

"""Leaderboard pages and exports: read filters, ask leaderboard.selectors, render."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from bench_runner.contracts import SUSPICIOUS_SPEEDUP
from bench_runner.taxonomy import title_of
from core.denied import staff_required
from core.errors import Rejected
from core.htmx import htmx_target, int_or_none
from leaderboard import charts, exports, selectors, services
from leaderboard.metrics import KS, LEVEL_WEIGHTS, SPEED_BONUS
from leaderboard.models import Quarantine, RankedKernel, Report
from leaderboard.run_page import run_page
from submissions.models import LanguageModel, Run, Submission
from submissions.selectors import submission_get_visible
from tasks.models import Task

LEVEL_CHOICES = [(1, "L1 elementwise"), (2, "L2 NN operators"), (3, "L3 complex")]


def run_detail(request, pk: int):
    """A run's page: its task x sample grid, pass@k per task, failures; polled while judged."""
    run = get_object_or_404(Run.objects.select_related("model"), pk=pk)
    page = run_page(run, request.user)
    template = "leaderboard/partials/run_body.html" if htmx_target(request, "run-body") else "leaderboard/run.html"
    return render(request, template, {"page": page})


def models_board(request):
    try:
        filters = selectors.Filters.from_query(request.GET)
    except selectors.BadFilter as exc:
        return render(request, "leaderboard/error.html", {"message": str(exc)}, status=400)
    sort = request.GET.get("sort") or "-exec@1"
    column = sort.lstrip("-")
    if column not in selectors.COLUMNS:
        sort, column = "-exec@1", "exec@1"
    rows = selectors.sort_rows(selectors.model_leaderboard(filters), column, descending=sort.startswith("-"))
    context = {
        "rows": rows, "filters": filters, "sort": sort, "columns": selectors.COLUMNS, "ks": KS,
        "options": selectors.filter_options(), "query": filters.as_query(),
        "runs_judged": sum(1 for r in rows if not r.baseline), "level_choices": LEVEL_CHOICES,
        "runs_unranked": sum(1 for r in rows if not r.baseline and not r.complete),
    }
    if htmx_target(request, "board-results"):
        return render(request, "leaderboard/partials/models_table.html", context)
    return render(request, "leaderboard/models.html", context)


def people_board(request):
    rows = selectors.people_leaderboard()
    return render(request, "leaderboard/people.html", {
        "rows": rows, "weights": LEVEL_WEIGHTS, "bonus_pct": int(SPEED_BONUS * 100)})


def _scope(request) -> dict:
    """Which failures a taxonomy view counts: a run, a model, people, or everything."""
    run = Run.objects.select_related("model").filter(pk=int_or_none(request.GET.get("run"))).first()
    model = None if run else LanguageModel.objects.filter(pk=int_or_none(request.GET.get("model"))).first()
    people = not run and not model and request.GET.get("scope") == "people"
    if run:
        label = f"run {run.model.name} / {run.name}"
    elif model:
        label = f"model {model.name}"
    else:
        label = "people's submissions" if people else "the whole site"
    return {"run": run, "model": model, "people": people, "label": label}


def taxonomy(request):
    scope = _scope(request)
    compare = Run.objects.select_related("model").filter(pk=int_or_none(request.GET.get("compare"))).first()
    counts = selectors.taxonomy_counts(run_id=scope["run"].pk if scope["run"] else None,
                                       model_id=scope["model"].pk if scope["model"] else None,
                                       people=scope["people"])
    series = [scope["label"]]
    rows = [(category, [n]) for category, n in counts]
    if compare:
        other = dict(selectors.taxonomy_counts(run_id=compare.pk))
        mine = dict(counts)
        cats = sorted(set(mine) | set(other), key=lambda c: (-(mine.get(c, 0) + other.get(c, 0)), c))
        rows = [(c, [mine.get(c, 0), other.get(c, 0)]) for c in cats]
        series.append(f"run {compare.model.name} / {compare.name}")
    scope_query = _scope_query(scope)
    links = [reverse("leaderboard:taxonomy-category", args=[c]) + scope_query for c, _ in rows]
    titled = [(title_of(c), values) for c, values in rows]  # labels as submission pages show them
    chart = charts.bar_chart(titled, series, label=f"Failure categories of {scope['label']}", links=links)
    runs = Run.objects.select_related("model").order_by("model__name", "name")[:500]
    total = sum(n for _, n in counts)
    return render(request, "leaderboard/taxonomy.html", {
        "scope": scope, "counts": counts, "total": total, "chart": chart, "compare": compare, "runs": runs,
        "models": LanguageModel.objects.order_by("name")[:500], "scope_query": scope_query,
    })


def _scope_query(scope: dict) -> str:
    if scope["run"]:
        return f"?run={scope['run'].pk}"
    if scope["model"]:
        return f"?model={scope['model'].pk}"
    return "?scope=people" if scope["people"] else ""


def taxonomy_category(request, category: str):
    scope = _scope(request)
    failures = selectors.taxonomy_failures(category[:40], user=request.user,
                                           run_id=scope["run"].pk if scope["run"] else None,
                                           model_id=scope["model"].pk if scope["model"] else None)
    return render(request, "leaderboard/taxonomy_category.html", {
        "category": category, "category_title": title_of(category), "scope": scope, "failures": failures,
        "scope_query": _scope_query(scope)})


def heatmap_page(request):
    try:
        filters = selectors.Filters.from_query(request.GET)
    except selectors.BadFilter as exc:
        return render(request, "leaderboard/error.html", {"message": str(exc)}, status=400)
    hm = selectors.heatmap(filters)
    heat = charts.heatmap([name for _, name in hm.runs], [slug for _, slug, _ in hm.tasks], hm.cells,
                          label="Exec pass@1 per run and task")
    curves = selectors.pass_curves(filters)
    curve_chart = charts.line_chart([(c["label"], c["points"]) for c in curves],
                                    label="Exec pass@k against k per run")
    return render(request, "leaderboard/heatmap.html", {
        "filters": filters, "heat": heat, "curve_chart": curve_chart, "n_runs": len(hm.runs),
        "n_tasks": len(hm.tasks), "options": selectors.filter_options(), "query": filters.as_query(),
        "level_choices": LEVEL_CHOICES})


def task_board(request, slug: str):
    task = get_object_or_404(Task, slug=slug)
    who = request.GET.get("who") if request.GET.get("who") in ("people", "models") else "all"
    entries = selectors.task_leaderboard(task, who=who)
    return render(request, "leaderboard/partials/task_board.html",
                  {"task": task, "entries": entries, "who": who, "awaiting": selectors.awaiting_review(task)})


EXPORTS = {"models", "people", "taxonomy", "heatmap"}


def export(request, board: str, fmt: str):
    if board not in EXPORTS or fmt not in ("csv", "json"):
        raise Http404("No such export.")
    try:
        filters = selectors.Filters.from_query(request.GET)
    except selectors.BadFilter as exc:
        return HttpResponseBadRequest(str(exc), content_type="text/plain")
    if board == "models":
        header, table, records = exports.models_table(filters)
    elif board == "people":
        header, table, records = exports.people_table()
    elif board == "taxonomy":
        header, table, records = exports.taxonomy_table(int_or_none(request.GET.get("run")), int_or_none(request.GET.get("model")))
    else:
        header, table, records = exports.heatmap_table(filters)
    if fmt == "csv":
        response = HttpResponse(exports.to_csv(header, table), content_type="text/csv; charset=utf-8")
    else:
        body = {"board": board, "filters": filters.as_query(), "rows": records}
        response = HttpResponse(json.dumps(body, default=str, indent=1), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="akgen-{board}.{fmt}"'
    return response


# --- suspicious results ----------------------------------------------------------------------------


@login_required
@require_POST
def report(request, pk: int):
    submission = submission_get_visible(pk=pk, user=request.user)
    if submission is None:
        raise Http404("No such submission.")
    try:
        services.report_submit(submission=submission, reporter=request.user, reason=request.POST.get("reason", ""))
    except services.ReportRejected as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, "Thanks — staff will look at this result.")
    return redirect("submissions:detail", pk=pk)


@staff_required("Reviewing flagged and reported results")
def review(request):
    if request.method == "POST":
        submission = get_object_or_404(Submission, pk=int_or_none(request.POST.get("submission")))
        try:
            if request.POST.get("action") == "lift":
                services.quarantine_lift(submission=submission, by=request.user)
                messages.success(request, f"Submission #{submission.pk} is ranked again.")
            elif request.POST.get("action") == "dismiss":
                services.flag_dismiss(submission=submission, by=request.user)
                messages.success(request, f"Submission #{submission.pk} was checked and stays ranked.")
            elif request.POST.get("action") == "rerun":
                created = services.review_rerun(submission=submission, by=request.user)
                messages.success(request, f"Submission #{submission.pk} is judged again as your private "
                                          f"#{created.submission.pk}; its own result is unchanged.")
                return redirect("submissions:detail", pk=created.submission.pk)
            else:
                services.quarantine_submission(submission=submission, reason=request.POST.get("reason", ""),
                                               by=request.user)
                messages.success(request, f"Submission #{submission.pk} is quarantined.")
        except (services.NotAllowed, services.ReportRejected) as exc:
            messages.error(request, str(exc))
        except Rejected as exc:  # a re-run refused by the reviewer's own limits (person_submit)
            messages.error(request, f"Not re-run: {exc.message}")
        return redirect("leaderboard:review")
    flagged = (RankedKernel.objects.filter(flagged=True, quarantined=False, submission__dismissal__isnull=True)
               .select_related("task", "author", "run__model").order_by("-speedup")[:100])
    reports = Report.objects.filter(resolved=False).select_related("submission__task", "reporter")[:100]
    quarantined = Quarantine.objects.select_related("submission__task", "created_by").order_by("-created_at")[:100]
    return render(request, "leaderboard/review.html", {
        "flagged": flagged, "reports": reports, "quarantined": quarantined,
        "threshold": SUSPICIOUS_SPEEDUP})

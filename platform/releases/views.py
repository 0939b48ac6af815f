"""Release pages: the list, the new-release form with a live preview, a release's progress and
files, and its records one page at a time. Thin: releases.services and selectors do the work."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from annotations.roles import NEED_CURATE
from core.denied import Denied
from releases import builder, selectors, services
from releases.filters import REVIEW_STATES, SUBSETS, FilterError, parse_filters
from releases.models import ReleaseStatus
from submissions.models import Run
from tasks.models import Task

LIST_FIELDS = ("subsets", "levels", "categories", "runs")
PAGE = 10


def _data(query) -> dict:
    """Form data as parse_filters takes it: lists for the multi-value fields, else strings."""
    data = {}
    for key in query:
        if key in ("csrfmiddlewaretoken", "title"):
            continue
        data[key] = query.getlist(key) if key in LIST_FIELDS else query.get(key)
    if "include_eval_tasks" not in data:
        data["include_eval_tasks"] = False
    return data


def _release_or_404(number: int):
    release = selectors.release_get(number)
    if release is None:
        raise Http404("No such release.")
    return release


def _require_curator(request) -> None:
    if not services.can_curate(request.user):
        raise Denied("Building releases", NEED_CURATE)


def _options() -> dict:
    return {
        "subsets": [(s, builder.SUBSET_TITLES[s]) for s in SUBSETS],
        "levels": [1, 2, 3],
        "categories": list(Task.objects.order_by("category").values_list("category", flat=True).distinct()),
        "runs": list(Run.objects.select_related("model").order_by("-created_at")[:200]),
        "review_states": REVIEW_STATES,
    }


@login_required
@require_GET
def index(request):
    return render(request, "releases/index.html", {"releases": selectors.releases()[:200],
                                                   "can_curate": services.can_curate(request.user)})


@login_required
@require_http_methods(["GET", "POST"])
def new(request):
    _require_curator(request)
    errors: dict[str, str] = {}
    values = request.POST if request.method == "POST" else None
    if request.method == "POST":
        try:
            release = services.release_create(user=request.user, data=_data(request.POST),
                                              title=request.POST.get("title", ""))
        except FilterError as exc:
            errors = exc.fields
        else:
            messages.success(request, f"Release v{release.number} queued; it builds in a worker.")
            return redirect("releases:detail", number=release.number)
    defaults = parse_filters({}).canonical()
    chosen = {
        "title": (values or {}).get("title", ""),
        "subsets": values.getlist("subsets") if values else list(defaults["subsets"]),
        "levels": values.getlist("levels") if values else [],
        "categories": values.getlist("categories") if values else [],
        "runs": values.getlist("runs") if values else [],
        "since": (values or {}).get("since", ""), "until": (values or {}).get("until", ""),
        "min_review": (values or {}).get("min_review", "approved"),
        "exclude_tasks": (values or {}).get("exclude_tasks", ""),
        "include_eval_tasks": bool(values and values.get("include_eval_tasks")),
        "validation_percent": (values or {}).get("validation_percent", defaults["validation_percent"]),
        "dpo_cap_per_task": (values or {}).get("dpo_cap_per_task", defaults["dpo_cap_per_task"]),
    }
    return render(request, "releases/new.html", {"options": _options(), "chosen": chosen, "errors": errors},
                  status=400 if errors else 200)


@login_required
@require_GET
def preview(request):
    _require_curator(request)
    try:
        p = services.preview(_data(request.GET), per_subset=1)
    except FilterError as exc:
        return render(request, "releases/partials/preview.html", {"errors": exc.fields})
    samples = [(subset, json.dumps(records[0], indent=2, ensure_ascii=False)[:4000])
               for subset, records in p.samples.items() if records]
    return render(request, "releases/partials/preview.html", {"preview": p, "samples": samples})


@login_required
@require_GET
def detail(request, number: int):
    release = _release_or_404(number)
    files = []
    if release.status == ReleaseStatus.READY:
        manifest = services.release_folder(release) / "manifest.json"
        if manifest.exists():
            files = sorted(json.loads(manifest.read_text(encoding="utf-8"))["files"].items())
    filters = [(k, "—" if v in (None, []) else json.dumps(v)) for k, v in (release.filters or {}).items()]
    return render(request, "releases/detail.html", {"release": release, "files": files, "filters": filters,
                                                    "subsets": _subset_rows(release)})


def _subset_rows(release) -> list[dict]:
    counts = (release.counts or {}).get("subsets", {})
    rows = []
    for subset in SUBSETS:
        if subset in counts:
            rows.append({"name": subset, "title": builder.SUBSET_TITLES[subset], **counts[subset],
                         "levels": (release.counts.get("levels") or {}).get(subset, {}),
                         "review": (release.counts.get("review") or {}).get(subset, {})})
    return rows


@login_required
@require_GET
def progress(request, number: int):
    release = _release_or_404(number)
    response = render(request, "releases/partials/progress.html", {"release": release})
    if release.is_finished and request.GET.get("was") not in (None, "ready", "failed"):
        response["HX-Refresh"] = "true"  # the finished page shows files and counts
    return response


@login_required
@require_GET
def download(request, number: int):
    release = _release_or_404(number)
    path = services.release_zip(release)
    if release.status != ReleaseStatus.READY or not path.exists():
        raise Http404("This release is not ready.")
    response = FileResponse(path.open("rb"), content_type="application/zip", as_attachment=True, filename=path.name)
    response["X-Checksum-SHA256"] = release.sha256
    return response


@login_required
@require_GET
def browse(request, number: int, subset: str, split: str):
    release = _release_or_404(number)
    raw = request.GET.get("offset", "0")
    offset = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else 0
    page = selectors.record_page(release, subset, split, offset=offset, limit=PAGE)
    if page is None:
        raise Http404("No such subset or split in this release.")
    records = [(n, record, json.dumps(record.get("meta"), indent=2, ensure_ascii=False)) for n, record in page.records]
    context = {"release": release, "page": page, "records": records, "subsets": _subset_rows(release)}
    if request.htmx:
        return render(request, "releases/partials/records.html", context)
    return render(request, "releases/browse.html", context)



"""The model owner's parts of the profile page: accounts renders the page, these are
submissions' (pending evaluations and size limits, models and runs with their forms), so the
page loads them here instead of accounts importing submissions."""

from __future__ import annotations

import json

from django import template
from django.conf import settings

from accounts import tiers
from bench_runner.contracts import MAX_SOURCE_BYTES
from submissions.forms import ModelForm, RunForm
from submissions.intake import budget_of, max_pending
from submissions.selectors import llms_of, pending_count, runs_of

register = template.Library()


@register.inclusion_tag("submissions/partials/owner_limits.html")
def owner_limits(user) -> dict:
    """The limits cards that are submissions': evaluations pending against the cap, and sizes."""
    return {
        "pending": pending_count(user),
        "max_pending": max_pending(user),
        "budget": budget_of(user),
        "allowance": tiers.allowance(user),
        "batch_max": settings.AKGEN_API_BATCH_MAX,
        "max_source_kib": MAX_SOURCE_BYTES // 1024,
        "max_request_mib": round(settings.DATA_UPLOAD_MAX_MEMORY_SIZE / (1024 * 1024), 1),
    }


@register.inclusion_tag("submissions/partials/owner_models_and_runs.html")
def owner_models_and_runs(user, model_form=None, run_form=None) -> dict:
    """The Models and Runs sections; a form with errors (re-rendered by submissions.views) is
    passed in, otherwise empty forms are shown."""
    runs = list(runs_of(user).order_by("-id")[:50])
    for run in runs:
        run.decoding_text = json.dumps(run.decoding, sort_keys=True) if run.decoding else "{}"
    return {
        "models": llms_of(user).order_by("name"),
        "runs": runs,
        "model_form": model_form if model_form is not None else ModelForm(),
        "run_form": run_form if run_form is not None else RunForm(owner=user),
    }

"""Small template helpers of the workspace pages (all output escaped by Django)."""

from __future__ import annotations

from django import template

from annotations.models import Status
from bench_runner.taxonomy import title_of

register = template.Library()

TONES = {Status.DRAFT: "draft", Status.SUBMITTED: "submitted", Status.CHANGES_REQUESTED: "changes",
         Status.APPROVED: "approved", Status.SUPERSEDED: "superseded"}


@register.inclusion_tag("annotations/partials/status_chip.html")
def status_chip(status: str):
    label = dict(Status.choices).get(status, status)
    return {"status": status, "label": label, "tone": TONES.get(status, "draft")}


@register.filter
def duration(seconds) -> str:
    """Active time: "45 s", "12 min", "1 h 05 min"."""
    try:
        seconds = int(seconds or 0)
    except (TypeError, ValueError):
        return "—"
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


@register.filter
def category_title(code: str) -> str:
    """The category's label as every other page shows it (bench_runner.taxonomy.title_of)."""
    return title_of(code)


@register.filter
def kappa(value) -> str:
    return "—" if value is None else f"{value:.2f}"

"""Formatting of leaderboard numbers (a rate with its bootstrap interval on hover), and the parts
of other apps' pages that the leaderboard owns: a submission's review state."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from leaderboard.metrics import Cell
from leaderboard.selectors import submission_review

register = template.Library()


@register.simple_tag
def rate(row, column: str):
    """`42.0%` with the 95% interval and the task count in a tooltip; an em dash when undefined."""
    metrics = row.metrics if hasattr(row, "metrics") else row
    cell = metrics.get(column)
    if not isinstance(cell, Cell) or cell.value is None:
        return format_html('<span class="muted" title="{}">—</span>', "not enough samples for this k")
    value = f"{cell.value * 100:.1f}%"
    if cell.low is None:
        return format_html('<span title="{} tasks">{}</span>', cell.tasks, value)
    interval = f"{cell.low * 100:.1f}–{cell.high * 100:.1f}%"
    return format_html('<span class="has-ci" title="95% bootstrap interval {} over {} tasks">{}</span>',
                       interval, cell.tasks, value)


#: An empty cell.
DASH = mark_safe('<span class="muted">—</span>')  # noqa: S308 (a constant)


@register.simple_tag
def share(row, column: str):
    value = (row.metrics if hasattr(row, "metrics") else row).get(column)
    if value is None:
        return DASH
    return f"{value * 100:.1f}%"


@register.simple_tag
def times(row, column: str):
    value = (row.metrics if hasattr(row, "metrics") else row).get(column)
    if value is None:
        return DASH
    return f"{value:.2f}×"


@register.filter
def level_cell(row, level: int):
    return (row.by_level or {}).get(int(level))


@register.simple_tag(takes_context=True)
def review_of(context, submission) -> dict:
    """{% review_of submission as review %}: review.quarantine (shown to its owner and staff) and
    review.can_report, for the submission page (submissions cannot import the leaderboard)."""
    return submission_review(submission, user=context["request"].user)

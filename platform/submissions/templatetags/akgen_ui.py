"""Template helpers of the site's pages: number formats, verdict badges, markdown.

Every filter returns plain text (escaped by the template engine) except ``markdown``, whose
output is sanitised by nh3 in :func:`submissions.highlight.render_markdown`.
"""

from __future__ import annotations

import math

from django import template

from submissions.highlight import render_markdown
from submissions.presenters import STEPS, submitter_label, verdict_info
from submissions.selectors import submission_list

register = template.Library()


@register.filter
def speedup(value) -> str:
    """1.843 → "1.84×"; nothing recorded → "—"."""
    if value is None or isinstance(value, bool):
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    if not math.isfinite(number):
        return "—"
    return f"{number:.2f}×" if number < 100 else f"{number:.0f}×"


@register.filter
def cycles(value) -> str:
    """12345.0 → "12,345"."""
    if value is None or isinstance(value, bool):
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    if not math.isfinite(number):
        return "—"
    return f"{round(number):,}"


@register.filter
def sci(value) -> str:
    """An error magnitude: 0 → "0", 0.000312 → "3.12e-4", 12.5 → "12.5"."""
    if value is None or isinstance(value, bool):
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    if not math.isfinite(number):
        return str(number)
    if number == 0:
        return "0"
    if 1e-3 <= abs(number) < 1e4:
        return f"{number:.4g}"
    mantissa, exponent = f"{number:.2e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


@register.filter
def micros(value) -> str:
    if value is None:
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{number:.1f} µs" if number < 1000 else f"{number / 1000:.2f} ms"


@register.filter
def seconds(value) -> str:
    if value is None:
        return "—"
    try:
        number = float(value)
    except (TypeError, ValueError):
        return "—"
    return f"{number:.1f} s" if number < 120 else f"{number / 60:.1f} min"


@register.filter
def percent(part, whole) -> str:
    try:
        return f"{100 * float(part) / float(whole):.0f}%" if float(whole) else "—"
    except (TypeError, ValueError):
        return "—"


@register.filter
def ago(moment) -> str:
    """"just now", "3 minutes ago", "2 days ago"."""
    from django.utils import timezone
    from django.utils.timesince import timesince

    if moment is None:
        return ""
    if (timezone.now() - moment).total_seconds() < 60:
        return "just now"
    return f"{timesince(moment).split(', ')[0]} ago"


@register.filter
def verdict_text(submission) -> str:
    """A list row's verdict, or its progress, in words (for <option> labels)."""
    info = verdict_info(getattr(submission, "ev_verdict", ""))
    if info is not None:
        return info.label
    return {"queued": "queued", "running": "being judged", "failed": "system error"}.get(
        getattr(submission, "ev_status", "") or "", "not judged")


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def markdown(text) -> str:
    return render_markdown(text or "")


@register.filter
def submitter(submission) -> str:
    return submitter_label(submission)


@register.filter
def path_label(path: str) -> str:
    return {"device_only": "device only", "host_device": "host + device"}.get(path, path or "")


@register.inclusion_tag("submissions/partials/verdict_badge.html")
def verdict_badge(verdict: str = "", status: str = "", stage: str = "", size: str = ""):
    """A verdict pill, or the evaluation's progress while it has none."""
    info = verdict_info(verdict) if verdict else None
    if info is None and status == "failed":
        info = verdict_info("system_error")
    pending_label = ""
    if info is None:
        if status == "running":
            pending_label = dict(STEPS).get("compiling" if (stage or "").startswith(("prepar", "compil")) else "running")
        elif status == "queued":
            pending_label = "Queued"
        else:
            pending_label = "Not judged"
    return {"info": info, "pending_label": pending_label, "size": size}


@register.inclusion_tag("submissions/partials/recent.html", takes_context=True)
def recent_submissions(context, count: int = 8):
    """The latest submissions the viewer may see, for the landing page."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return {"rows": list(submission_list(user=user)[:count])}

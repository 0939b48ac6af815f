"""Server-rendered SVG charts: readable without JavaScript, in screenshots and in exports.

Every text that reaches the SVG passes through escape(); the markup is then marked safe.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

SERIES_COLOURS = ("#2563eb", "#ea580c", "#16a34a", "#9333ea", "#dc2626", "#0891b2", "#ca8a04", "#4b5563")


def _svg(width: int, height: int, body: list[str], label: str) -> SafeString:
    return mark_safe(  # noqa: S308 (every interpolated text below is escaped)
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" '
        f'font-size="12">{"".join(body)}</svg>'
    )


def bar_chart(rows: Sequence[tuple[str, Sequence[int]]], series: Sequence[str], *, label: str,
              links: Sequence[str | None] | None = None, width: int = 760) -> SafeString:
    """Horizontal bars, one group per row and one bar per series (two series: a side-by-side compare)."""
    if not rows:
        return _svg(width, 40, ['<text x="8" y="24" fill="#6b7280">No failures recorded.</text>'], label)
    label_w, pad, bar_h, gap = 300, 8, 14, 8
    group_h = bar_h * len(series) + gap
    legend_h = 24 if len(series) > 1 else 0
    height = legend_h + group_h * len(rows) + 24
    top = max((max(v) for _, v in rows), default=1) or 1
    plot_w = width - label_w - 70
    body = []
    for i, name in enumerate(series if len(series) > 1 else []):
        x = label_w + i * 180
        body.append(f'<rect x="{x}" y="4" width="12" height="12" fill="{SERIES_COLOURS[i % 8]}"/>'
                    f'<text x="{x + 18}" y="14">{escape(name)}</text>')
    for r, (name, values) in enumerate(rows):
        y0 = legend_h + r * group_h
        text = escape(_short(name, 42))
        link = links[r] if links else None
        label_el = (f'<text x="{label_w - pad}" y="{y0 + group_h / 2 + 2:.0f}" text-anchor="end">'
                    f'<title>{escape(name)}</title>{text}</text>')
        if link:
            label_el = f'<a href="{escape(link)}">{label_el}</a>'
        body.append(label_el)
        for s, value in enumerate(values):
            w = max(1.0, plot_w * value / top) if value else 0
            y = y0 + s * bar_h
            body.append(f'<rect x="{label_w}" y="{y}" width="{w:.1f}" height="{bar_h - 2}" '
                        f'fill="{SERIES_COLOURS[s % 8]}"><title>{escape(series[s])}: {value}</title></rect>'
                        f'<text x="{label_w + w + 4:.1f}" y="{y + bar_h - 4}" fill="#374151">{value}</text>')
    return _svg(width, height, body, label)


def _heat_colour(value: float) -> str:
    """Pale → deep blue by pass rate (one hue, so it reads in grey-scale and for colour-blind eyes)."""
    t = max(0.0, min(1.0, value))
    lo, hi = (239, 246, 255), (30, 58, 138)
    r, g, b = (round(a + (z - a) * t) for a, z in zip(lo, hi, strict=True))
    return f"rgb({r},{g},{b})"


def heatmap(runs: Sequence[str], tasks: Sequence[str], cells: dict[tuple[int, int], float], *,
            label: str, cell: int | None = None) -> SafeString:
    """Runs as rows, tasks as columns, colour = exec pass@1; grey where a run did not try a task."""
    left, top_h = 230, 110
    if cell is None:  # big cells for a few tasks, down to 6 px for a few hundred
        cell = max(6, min(28, 900 // max(1, len(tasks))))
    width = max(left + cell * len(tasks) + 20, left + 440)
    height = top_h + cell * len(runs) + 40
    body = []
    for j, slug in enumerate(tasks):
        x = left + j * cell + cell / 2
        body.append(f'<text transform="translate({x:.1f},{top_h - 6}) rotate(-60)" font-size="10">'
                    f'{escape(_short(slug, 22))}</text>')
    for i, name in enumerate(runs):
        y = top_h + i * cell
        body.append(f'<text x="{left - 6}" y="{y + cell - 3}" text-anchor="end" font-size="11">{escape(name)}</text>')
        for j, slug in enumerate(tasks):
            v = cells.get((i, j))
            fill = "#e5e7eb" if v is None else _heat_colour(v)
            tip = f"{name} · {slug}: " + ("not tried" if v is None else f"pass@1 {v:.0%}")
            body.append(f'<rect x="{left + j * cell}" y="{y}" width="{cell - 1}" height="{cell - 1}" fill="{fill}">'
                        f'<title>{escape(tip)}</title></rect>')
    legend_y = top_h + cell * len(runs) + 14
    for k, v in enumerate((0.0, 0.25, 0.5, 0.75, 1.0)):
        x = left + k * 60
        body.append(f'<rect x="{x}" y="{legend_y}" width="14" height="14" fill="{_heat_colour(v)}" stroke="#d1d5db"/>'
                    f'<text x="{x + 18}" y="{legend_y + 11}" font-size="11">{v:.0%}</text>')
    body.append(f'<rect x="{left + 320}" y="{legend_y}" width="14" height="14" fill="#e5e7eb"/>'
                f'<text x="{left + 338}" y="{legend_y + 11}" font-size="11">not tried</text>')
    return _svg(width, height, body, label)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def line_chart(series: Sequence[tuple[str, Sequence[tuple[int, float | None]]]], *, label: str,
               x_label: str = "k", y_label: str = "exec pass@k", width: int = 760, height: int = 320) -> SafeString:
    """pass@k curves: one line per run, y from 0 to 1."""
    left, right, top, bottom = 56, 270, 16, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    k_max = max((k for _, pts in series for k, v in pts if v is not None), default=1)
    body = [f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="#9ca3af"/>',
            f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="#9ca3af"/>']
    for t in range(0, 11, 2):
        y = top + plot_h - plot_h * t / 10
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#f3f4f6"/>'
                    f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">{t * 10}%</text>')
    ticks = sorted({1, k_max, *range(5, k_max + 1, 5)}) if k_max > 1 else [1]
    for k in ticks:
        x = left + (plot_w * (k - 1) / (k_max - 1) if k_max > 1 else 0)
        body.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle" font-size="11">{k}</text>')
    body.append(f'<text x="{left + plot_w / 2:.0f}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>')
    body.append(f'<text transform="translate(14,{top + plot_h / 2:.0f}) rotate(-90)" text-anchor="middle">'
                f'{escape(y_label)}</text>')
    for s, (name, pts) in enumerate(series):
        colour = SERIES_COLOURS[s % 8]
        coords = [(left + (plot_w * (k - 1) / (k_max - 1) if k_max > 1 else 0), top + plot_h - plot_h * v)
                  for k, v in pts if v is not None]
        if coords:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
            body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2">'
                        f'<title>{escape(name)}</title></polyline>')
            for (x, y), (k, v) in zip(coords, [p for p in pts if p[1] is not None], strict=True):
                body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}">'
                            f'<title>{escape(name)}: pass@{k} = {v:.1%}</title></circle>')
        ly = top + 8 + s * 18
        body.append(f'<rect x="{left + plot_w + 14}" y="{ly}" width="12" height="3" fill="{colour}"/>'
                    f'<text x="{left + plot_w + 30}" y="{ly + 5}" font-size="11">{escape(_short(name, 38))}</text>')
    return _svg(width, height, body, label)

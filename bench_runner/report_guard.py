"""Read the emulator's report as untrusted input: bounded in size, depth and shape.

The report is written by a process that also runs the submitted kernel, so its bytes are the
kernel's to forge. Nothing here decides a verdict or a speedup by itself (the evaluator floors
every time at the task's traffic and flags bytes written outside the model), but what is read
back must never crash the evaluator (a deeply nested document made ``json`` raise
``RecursionError``, which surfaced as a ``system_error`` and three retries) and never grow a
stored result (a 14 MB string in a report became a 14 MB result served by the API). So:

* a report over :data:`MAX_REPORT_BYTES`, not JSON, nested deeper than :data:`MAX_DEPTH` or not
  an object is *unreadable* (:class:`ReportError`), which the caller turns into the kernel's
  ``runtime_error``;
* a readable one is rebuilt from the known keys only, each coerced to its type, strings cut to
  :data:`MAX_TEXT` characters and lists to a fixed length.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_REPORT_BYTES = 16 * 1024 * 1024
MAX_DEPTH = 16
MAX_TEXT = 2000
MAX_CORES = 256
MAX_TIMELINE = 2000
MAX_FINDINGS = 200
MAX_LAUNCHES = 64

_INT_KEYS = ("block_dim", "total_cycles", "core_bound_cycles", "hbm_bound_cycles", "l2_bound_cycles", "gm_bytes",
             "cube_macs", "unaccounted_gm_bytes")
_FLOAT_KEYS = ("est_us", "freq_mhz")
_TEXT_KEYS = ("soc", "kernel")


class ReportError(ValueError):
    """The report cannot be read (too large, not JSON, too deep, not an object)."""


def load(raw: bytes | None, *, timeline: bool = True) -> dict[str, Any] | None:
    """The sanitised report, or None when there is none; raises :class:`ReportError` if unreadable.

    ``timeline=False`` leaves the pipe timeline out (``[]``; ``timeline_truncated`` still says
    whether there was one over the limit): callers that read only the totals skip rebuilding
    thousands of events.
    """
    if not raw:
        return None
    if len(raw) > MAX_REPORT_BYTES:
        raise ReportError(f"the emulator report is {len(raw)} bytes (limit {MAX_REPORT_BYTES})")
    try:
        data = json.loads(raw.decode("utf-8", errors="replace"))
    except RecursionError as exc:
        raise ReportError("the emulator report is nested too deeply") from exc
    except ValueError as exc:
        raise ReportError(f"the emulator report is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ReportError("the emulator report is not a JSON object")
    if _depth(data) > MAX_DEPTH:
        raise ReportError(f"the emulator report is nested deeper than {MAX_DEPTH} levels")
    return _clean(data, timeline=timeline)


def _depth(value: Any) -> int:
    """Nesting depth of a parsed document, without recursion (level by level, containers only).

    Only dicts and lists are carried to the next level, so a report's thousands of scalar fields
    cost one type test each: this runs on every report of every trial.
    """
    level: list[Any] = [value]
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return depth
        nxt: list[Any] = []
        for item in level:
            nxt += [v for v in (item.values() if type(item) is dict else item)
                    if type(v) is dict or type(v) is list]
        level = nxt
    return depth


def _int(value: Any) -> int | None:
    # type() is int: json gives exact ints, and a bool is not one
    return value if type(value) is int and 0 <= value < 1 << 63 else None


def _float(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    v = float(value)
    return v if math.isfinite(v) and v >= 0 else None


def _text(value: Any) -> str | None:
    return value[:MAX_TEXT] if isinstance(value, str) else None


def _ints(d: Any, limit: int = 16) -> dict[str, int]:
    if not isinstance(d, dict):
        return {}
    pairs = ((str(k)[:16], _int(v)) for k, v in list(d.items())[:limit])
    return {k: v for k, v in pairs if v is not None}


def _core(c: Any) -> dict[str, Any] | None:
    if not isinstance(c, dict):
        return None
    out: dict[str, Any] = {k: _int(c.get(k)) for k in ("block_idx", "phys_core", "cycles", "gm_read_bytes",
                                                        "gm_write_bytes", "l1_load_bytes")}
    out["pipes"] = _ints(c.get("pipes"))
    out["scalar"] = _ints(c.get("scalar"))
    out["core_type"] = (_text(c.get("core_type")) or "")[:8]
    return out


def _event(e: Any) -> dict[str, Any] | None:
    if type(e) is not dict:
        return None
    get = e.get
    pipe, op = get("pipe"), get("op")
    return {"core": _int(get("core")), "start": _int(get("start")), "end": _int(get("end")),
            "line": _int(get("line")), "pipe": pipe[:8] if type(pipe) is str else "",
            "op": op[:64] if type(op) is str else ""}


def _finding(f: Any) -> dict[str, Any] | None:
    if not isinstance(f, dict):
        return None
    out: dict[str, Any] = {k: _text(f.get(k)) for k in ("severity", "code", "message", "file", "api")}
    line, core = f.get("line"), f.get("core")
    out["line"] = line if isinstance(line, int) and not isinstance(line, bool) and 0 <= line < 1 << 31 else None
    out["core"] = core if isinstance(core, int) and not isinstance(core, bool) and -1 <= core < 1 << 20 else None
    return out


def _launch(x: Any) -> dict[str, Any] | None:
    if not isinstance(x, dict):
        return None
    return {"kernel": _text(x.get("kernel")), "block_dim": _int(x.get("block_dim")),
            "total_cycles": _int(x.get("total_cycles")), "est_us": _float(x.get("est_us"))}


def _list(value: Any, limit: int, item: Any) -> list[Any]:
    if not isinstance(value, list):
        return []
    return [v for v in (item(x) for x in value[:limit]) if v is not None]


def _clean(d: dict[str, Any], *, timeline: bool = True) -> dict[str, Any]:
    out: dict[str, Any] = {k: _int(d.get(k)) for k in _INT_KEYS if k in d}
    out.update({k: _float(d.get(k)) for k in _FLOAT_KEYS if k in d})
    out.update({k: _text(d.get(k)) for k in _TEXT_KEYS if k in d})
    out["cores"] = _list(d.get("cores"), MAX_CORES, _core)
    out["timeline"] = _list(d.get("timeline"), MAX_TIMELINE, _event) if timeline else []
    out["timeline_truncated"] = d.get("timeline_truncated") is True or (
        isinstance(d.get("timeline"), list) and len(d["timeline"]) > MAX_TIMELINE)
    if isinstance(d.get("findings"), list):
        out["findings"] = _list(d["findings"], MAX_FINDINGS, _finding)
    out["launches"] = _list(d.get("launches"), MAX_LAUNCHES, _launch)
    return out

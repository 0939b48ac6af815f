"""How the pages show a task version: its specification as tables, its description without a
repeated title. Pure functions over the stored spec (no queries)."""

from __future__ import annotations

import re

from tasks.models import Task


def spec_view(spec, dtypes=()) -> dict:
    """The parts of a task's spec the page shows, tolerant of older or partial specs.
    Tolerances are listed for the task's own dtypes when it names any."""
    spec = spec if isinstance(spec, dict) else {}

    def tensors(key):
        out = []
        for item in spec.get(key) or []:
            if isinstance(item, dict):
                shape = item.get("shape") or []
                out.append({"name": item.get("name", ""), "dtype": item.get("dtype", ""),
                            "shape": " × ".join(str(d) for d in shape) if isinstance(shape, list) else str(shape),
                            "alias": item.get("alias", "")})
        return out

    cases = []
    for item in spec.get("cases") or []:
        if isinstance(item, dict):
            dims = item.get("dims") if isinstance(item.get("dims"), dict) else {}
            attributes = item.get("attributes") if isinstance(item.get("attributes"), dict) else {}
            limits = item.get("limits") if isinstance(item.get("limits"), dict) else {}
            wall = limits.get("run_wall_s")
            cases.append({"name": item.get("name", ""), "dims": list(dims.items()),
                          "seed": item.get("seed", ""), "attributes": list(attributes.items()),
                          "run_wall_s": wall if isinstance(wall, int | float) else None})
    tolerances = []
    raw_tol = spec.get("tolerances") if isinstance(spec.get("tolerances"), dict) else {}
    for dtype, tol in raw_tol.items():
        if isinstance(tol, dict) and (not dtypes or dtype in dtypes or not set(dtypes) & set(raw_tol)):
            tolerances.append({"dtype": dtype, "rtol": tol.get("rtol"), "atol": tol.get("atol")})
    attributes = spec.get("attributes") if isinstance(spec.get("attributes"), dict) else {}
    return {
        "entry": spec.get("entry", ""),
        "block_dim": spec.get("block_dim", ""),
        "kernel_args": [str(a) for a in spec.get("kernel_args") or []],
        "inputs": tensors("inputs"),
        "outputs": tensors("outputs"),
        "attributes": list(attributes.items()),
        "cases": cases,
        "tolerances": tolerances,
    }


def api_desc_body(version, task: Task) -> str:
    """The description without a leading "# <title>" (or "# <slug>") heading: the page shows it."""
    text = (version.api_desc if version else "") or ""
    first, _, rest = text.lstrip().partition("\n")
    if first.startswith("# ") and first[2:].strip().lower() in (task.title.strip().lower(), task.slug):
        return rest.lstrip("\n")
    return text


def desc_lists_tensors(api_desc: str, spec: dict) -> bool:
    """Whether the description already has a table row for every input and output (NPUKernelBench-
    style api_desc.md files do): the page then shows one table, the author's, not two."""
    names = [t.get("name") for t in (spec.get("inputs") or []) + (spec.get("outputs") or []) if t.get("name")]
    return bool(names) and all(re.search(rf"^\|\s*`?{re.escape(n)}`?\s*\|", api_desc, re.M) for n in names)

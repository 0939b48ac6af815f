"""Short notes on the AscendC APIs a compile log names, for api_fix records.

The emulator's headers (bench_runner/ascend_sim/include) declare the API surface cpu-sim
accepts; a name from a diagnostic is either one of them or, when it is not, the closest names
are suggested (a typo like ``SetGlobalBufer`` is the common api_fix case). Pure: no Django.
"""

from __future__ import annotations

import difflib
import re
from functools import lru_cache
from pathlib import Path

_IDENT = re.compile(r"\b([A-Z][A-Za-z0-9_]{2,})\s*\(")
_DECL = re.compile(r"\b(?:class|struct|enum(?:\s+class)?)\s+([A-Z][A-Za-z0-9_]{2,})")
_QUOTED = re.compile(r"['‘`\"]([A-Za-z_][A-Za-z0-9_:<>]*)['’`\"]")
_SKIP = {"kernel", "kernel.cpp", "host.cpp", "error", "const", "int", "void", "class", "struct"}


@lru_cache(maxsize=1)
def api_names() -> frozenset[str]:
    root = Path(__file__).resolve().parents[2] / "bench_runner" / "ascend_sim" / "include"
    names: set[str] = set()
    for header in sorted(root.rglob("*.h")):
        text = header.read_text(encoding="utf-8", errors="replace")
        names.update(_IDENT.findall(text))
        names.update(_DECL.findall(text))
    return frozenset(names)


def _names_in(message: str) -> list[str]:
    out = []
    for raw in _QUOTED.findall(message):
        name = raw.split("<", 1)[0].rsplit("::", 1)[-1]
        if name and name not in _SKIP and name[0].isalpha():
            out.append(name)
    return out


@lru_cache(maxsize=4096)
def _note(name: str) -> str:
    known = api_names()
    if name in known:
        return f"- `{name}` is an AscendC API; check its signature and argument types."
    close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.75)
    if close:
        return f"- `{name}` is not an AscendC API; did you mean " + ", ".join(f"`{c}`" for c in close) + "?"
    return f"- `{name}` is not declared by the AscendC headers."


def api_notes(diagnostics: list[dict] | None, *, limit: int = 5) -> str:
    """A markdown list, one line per API name found in the error diagnostics ("" when none)."""
    seen: list[str] = []
    for diag in diagnostics or []:
        if not isinstance(diag, dict) or (diag.get("severity") or "error") != "error":
            continue
        for name in _names_in(str(diag.get("message") or "")):
            if name not in seen:
                seen.append(name)
    return "\n".join(_note(name) for name in seen[:limit])

"""Notes on the AscendC APIs a compile log names, for api_fix records: their declarations.

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
_QUOTED = re.compile(r"['‘`\"]([A-Za-z_][A-Za-z0-9_:]*)[^'’`\"\n]*['’`\"]")
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


_SPACES = re.compile(r"\s+")
#: Overloads quoted per API name: enough to show the argument forms, short enough for a prompt.
MAX_DECLARATIONS = 4


@lru_cache(maxsize=1)
def _header_texts() -> tuple[str, ...]:
    root = Path(__file__).resolve().parents[2] / "bench_runner" / "ascend_sim" / "include"
    return tuple(h.read_text(encoding="utf-8", errors="replace") for h in sorted(root.rglob("*.h")))


_MACRO = re.compile(r"#define (ASCEND_SIM_\w+)\(NAME\b[^)]*\)((?:[^\n]*\\\n)*[^\n]*)")
_LOC = re.compile(r",\s*ASCEND_SIM_LOC\b")  # the emulator's hidden source-location parameter


def _decl_pattern(name: str) -> re.Pattern:
    return re.compile(r"(?:template\s*<[^;{}]*?>\s*)?__aicore__\s+(?:inline\s+)?[\w:<>,*& ]*?\b"
                      + re.escape(name) + r"\s*\([^;{}]*\)")


def _clean(decl: str) -> str:
    decl = _LOC.sub("", _SPACES.sub(" ", decl))
    return decl.replace("__aicore__ ", "").replace("inline ", "").strip()


@lru_cache(maxsize=1)
def _macro_decls() -> dict[str, list[str]]:
    """Declaration templates (``NAME`` as the placeholder) of the macros that stamp out API families."""
    out: dict[str, list[str]] = {}
    for text in _header_texts():
        for m in _MACRO.finditer(text):
            body = m.group(2).replace("\\\n", " ")
            out.setdefault(m.group(1), []).extend(_clean(d.group(0)) for d in _decl_pattern("NAME").finditer(body))
    return out


@lru_cache(maxsize=4096)
def declarations(name: str) -> tuple[str, ...]:
    """The declarations of ``name`` in the emulator's headers (which declare the API surface the
    judge accepts): ``__aicore__`` functions with their parameter lists, written out or stamped
    by a family macro (then with the dtypes the family accepts)."""
    found: list[str] = []
    macros = _macro_decls()
    use = re.compile(r"\b(ASCEND_SIM_\w+)\(\s*" + re.escape(name) + r'\s*,[^"\n]*(?:"([^"]*)")?')
    for text in _header_texts():
        decls = [_clean(m.group(0)) for m in _decl_pattern(name).finditer(text)]
        for m in use.finditer(text):
            types = f"  (dtypes: {m.group(2)})" if m.group(2) else ""
            decls += [d.replace("NAME", name) + types for d in macros.get(m.group(1), [])]
        for decl in decls:
            if decl not in found:
                found.append(decl)
            if len(found) >= MAX_DECLARATIONS:
                return tuple(found)
    return tuple(found)


@lru_cache(maxsize=4096)
def _note(name: str) -> str:
    known = api_names()
    if name in known:
        decls = declarations(name)
        if decls:
            return (f"- `{name}` is an AscendC API; it is declared as:\n"
                    + "\n".join(f"  - `{d}`" for d in decls))
        return f"- `{name}` is an AscendC type or API; check its members and argument types."
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

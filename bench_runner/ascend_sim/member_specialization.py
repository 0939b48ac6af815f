"""Explicit specialisations of member function templates inside their class, as g++ accepts them.

Why: Catlass (the GEMM library every NPUKernelBench L3 answer carries) specialises member function
templates in class scope::

    template <int32_t CORE_TYPE = g_coreType>
    void operator()(Params const &params);

    template <>
    void operator()<AscendC::AIC>(Params const &params) { ... }

C++17 allows that since CWG 727 and bisheng (clang) compiles it; g++ 12 refuses it ("explicit
specialization in non-namespace scope"). The rewrite turns the primary and each specialisation
into overloads that exactly one template argument value selects::

    template <int32_t CORE_TYPE = g_coreType, ::std::enable_if_t<!((CORE_TYPE) == (AscendC::AIC)), int> = 0>
    void operator()(Params const &params);

    template <int32_t akgen_spec_ = g_coreType, ::std::enable_if_t<(akgen_spec_) == (AscendC::AIC), int> = 0>
    void operator()               (Params const &params) { ... }

so ``op(params)`` and ``op.template operator()<AscendC::AIC>(params)`` pick the body the
specialisation gave, as with bisheng. Only primaries with one non-type template parameter are
rewritten (the form Catlass uses); anything else is left for the compiler to report.

A member class template's explicit specialisation (``template <> struct LayoutHelper<void>``)
becomes a partial specialisation, which g++ accepts in class scope, over one more defaulted
parameter: the primary ``template <class T> struct LayoutHelper`` gets ``, class akgen_spec_ =
void`` and the specialisation ``template <class akgen_spec_> struct LayoutHelper<void,
akgen_spec_>``. Edits keep every newline (source_rewrite's contract).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SPEC = re.compile(r"\btemplate\s*<\s*>")
#: A specialisation's declarator: specifiers, then NAME<ARGS>( — ARGS with one nesting level.
_DECLARATOR = re.compile(
    r"(?P<specs>[^;{}()<>]*?)"
    r"(?P<name>\boperator\s*\(\s*\)|\boperator\s*[^\s\w(<]{1,3}|\b[A-Za-z_]\w*)\s*"
    r"(?P<args><(?:[^<>;{}()]|<[^<>;{}()]*>)*>)\s*\(")
_CLASS_HEAD = re.compile(r"\b(?:class|struct|union)\b")
#: A member class specialisation's head: struct NAME<ARGS> followed by its body or bases.
_CLASS_SPEC = re.compile(r"\s*(?:struct|class)\s+(?P<name>[A-Za-z_]\w*)\s*"
                         r"(?P<args><(?:[^<>;{}()]|<[^<>;{}()]*>)*>)\s*[{:]")
_NON_TYPE_PARAM = re.compile(
    r"\A\s*(?P<type>(?:const\s+)?(?:unsigned\s+|signed\s+)?[A-Za-z_][\w:]*)\s+(?P<param>[A-Za-z_]\w*)"
    r"\s*(?:=\s*(?P<default>.+?))?\s*\Z", re.S)
_SPEC_PARAM = "akgen_spec_"


@dataclass(frozen=True)
class _Spec:
    start: int  # of `template <>`
    end: int
    name: str
    args_start: int
    args_end: int
    args: str


def edits(code: str) -> list[tuple[int, int, str]]:
    """Edits (start, end, replacement) of ``code`` (comments and literals blanked: source_rewrite.
    code_mask) that rewrite every in-class explicit member specialisation whose primary can be
    found; none when the text has no ``template <>``."""
    if not _SPEC.search(code):
        return []
    scopes = _class_scopes(code)
    groups: dict[tuple[int, str], list[_Spec]] = {}
    class_groups: dict[tuple[int, str], list[_Spec]] = {}
    for m in _SPEC.finditer(code):
        scope = _innermost(scopes, m.start())
        if scope is None:
            continue  # namespace scope: valid C++, g++ accepts it
        c = _CLASS_SPEC.match(code, m.end())
        if c is not None:
            class_groups.setdefault((scope[0], c["name"]), []).append(
                _Spec(m.start(), m.end(), c["name"], c.start("args"), c.end("args"), c["args"][1:-1].strip()))
            continue
        d = _DECLARATOR.match(code, m.end())
        if d is None or _CLASS_HEAD.search(d["specs"]):
            continue
        name = re.sub(r"\s+", "", d["name"])
        groups.setdefault((scope[0], name), []).append(
            _Spec(m.start(), m.end(), name, d.start("args"), d.end("args"), d["args"][1:-1].strip()))
    out: list[tuple[int, int, str]] = []
    for (open_brace, name), specs in groups.items():
        close = matching_brace(code, open_brace)
        primary = _primary(code, open_brace + 1, close, name, {s.start for s in specs})
        if primary is None:
            continue
        head_start, head_close, ptype, param, default = primary
        values = [s.args for s in specs]
        excluded = " || ".join(f"({param}) == ({v})" for v in values)
        out.append((head_close, head_close + 1, f", ::std::enable_if_t<!({excluded}), int> = 0>"))
        dflt = f" = {default}" if default else ""
        for s in specs:
            head = (f"template <{ptype} {_SPEC_PARAM}{dflt}, "
                    f"::std::enable_if_t<({_SPEC_PARAM}) == ({s.args}), int> = 0>")
            out.append((s.start, s.end, head))
            out.append((s.args_start, s.args_end, _blank(code[s.args_start:s.args_end])))
    for (open_brace, name), specs in class_groups.items():
        head_close = _class_primary(code, open_brace + 1, matching_brace(code, open_brace), name,
                                    {s.start for s in specs})
        if head_close is None:
            continue
        out.append((head_close, head_close + 1, f", class {_SPEC_PARAM} = void>"))
        for s in specs:
            out.append((s.start, s.end, f"template <class {_SPEC_PARAM}>"))
            out.append((s.args_end - 1, s.args_end, f", {_SPEC_PARAM}>"))
    return out


def _class_primary(code: str, start: int, end: int, name: str, specs: set[int]) -> int | None:
    """Offset of the closing '>' of member class template ``name``'s head in the class body
    [start, end); None when it is not there or ends in a parameter pack."""
    body = code[start:end]
    pattern = re.compile(r"\btemplate\s*<(?P<params>[^<>]*(?:<[^<>]*>[^<>]*)*)>\s*(?:struct|class)\s+"
                         + re.escape(name) + r"\s*[{:;]")
    for m in pattern.finditer(body):
        if start + m.start() in specs or _depth(body, m.start()) != 0:
            continue
        if "..." in m["params"] or not m["params"].strip():
            return None
        return start + m.end("params")
    return None


def _blank(s: str) -> str:
    return "".join(c if c == "\n" else " " for c in s)


def _class_scopes(code: str) -> list[tuple[int, int]]:
    """(open, close) offsets of every class, struct or union body."""
    scopes = []
    stack: list[tuple[int, bool]] = []
    last_stop = -1
    for i, c in enumerate(code):
        if c == "{":
            stack.append((i, _is_class_head(code[last_stop + 1:i])))
            last_stop = i
        elif c == "}":
            if stack:
                start, is_class = stack.pop()
                if is_class:
                    scopes.append((start, i))
            last_stop = i
        elif c == ";":
            last_stop = i
    return scopes


def _is_class_head(segment: str) -> bool:
    """Whether the text before a ``{`` (since the last ``;``, ``{`` or ``}``) opens a class body:
    its last class-key is followed by no parenthesis or ``=`` (a function, an initialiser) and is
    not ``enum class``."""
    keys = list(_CLASS_HEAD.finditer(segment))
    if not keys:
        return False
    last = keys[-1]
    rest = segment[last.end():]
    if "(" in rest or "=" in rest:
        return False
    return not re.search(r"\benum\s*$", segment[:last.start()])


def _innermost(scopes: list[tuple[int, int]], pos: int) -> tuple[int, int] | None:
    """The class body that directly encloses ``pos`` (None when a function body or namespace is
    nearer, or there is none)."""
    best = None
    for start, end in scopes:
        if start < pos < end and (best is None or start > best[0]):
            best = (start, end)
    return best


def matching_brace(code: str, open_brace: int) -> int:
    """The offset of the ``}`` closing the ``{`` at ``open_brace`` in ``code`` (a code_mask, so no
    brace in a comment or literal counts); ``len(code)`` when it is never closed."""
    depth = 0
    for i in range(open_brace, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code)


def _primary(code: str, start: int, end: int, name: str,
             specs: set[int]) -> tuple[int, int, str, str, str | None] | None:
    """(head start, offset of the head's closing '>', parameter type, name, default) of the
    primary template ``name`` declared directly in the class body [start, end)."""
    body = code[start:end]
    name_re = r"operator\s*\(\s*\)" if name == "operator()" else re.escape(name)
    pattern = re.compile(r"\btemplate\s*<(?P<params>[^<>]*(?:<[^<>]*>[^<>]*)*)>(?P<specs>[^;{}()<>]*?)\b"
                         + name_re + r"\s*\(")
    for m in pattern.finditer(body):
        head_start = start + m.start()
        if head_start in specs or _depth(body, m.start()) != 0:
            continue
        p = _NON_TYPE_PARAM.match(m["params"])
        if p is None or p["type"] in ("typename", "class") or "," in m["params"].split("=")[0]:
            return None
        return head_start, start + m.end("params"), p["type"], p["param"], p["default"]
    return None


def _depth(body: str, pos: int) -> int:
    """Brace depth of ``pos`` inside a class body (0: the body itself)."""
    return body.count("{", 0, pos) - body.count("}", 0, pos)

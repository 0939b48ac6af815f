"""Members a ``constexpr`` constructor leaves to its body get an initializer, as clang lets them.

Why: Catlass (the GEMM library of NPUKernelBench's L3 answers) writes constexpr constructors that
fill an array member in their body::

    struct Coord {
        constexpr explicit Coord(Index value = Index(0)) { for (...) idx[i] = value; }
        Index idx[RANK];
    };

and uses them in constant expressions (``static constexpr auto L1A_LAYOUT = MakeLayout(...)``).
C++17 wants every member of such a constructor's class initialised before the body runs; C++20
dropped the rule, and bisheng (clang) accepts it in C++17 mode as an extension. g++ 12 refuses it
("member must be initialized by mem-initializer in 'constexpr' constructor"), and compiling those
files as C++20 breaks their aggregates instead. The rewrite gives each data member without an
initializer, in a class that defines a constexpr constructor, a ``{}`` default member
initializer: value-initialised first, then assigned by the body (or its mem-initializer, which
takes precedence) as before. Static members, references, bit-fields (whose initializers are C++20)
and classes without such a constructor are left alone. Text in, text out, every newline kept
(source_rewrite's contract).
"""

from __future__ import annotations

import re

from bench_runner.ascend_sim import member_specialization

_CLASS = re.compile(r"\b(?:class|struct)\s+(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\b")
_SKIP_WORDS = re.compile(r"^\s*(?:static|using|typedef|friend|template|enum|class|struct|union|public|private|"
                         r"protected|return)\b")
_MEMBER = re.compile(r"^[\w:<>,\s*&]*?[\w>*&\]]\s+\**\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*$")


def edits(code: str) -> list[tuple[int, int, str]]:
    """Insertions (offset, offset, ``"{}"``) into ``code`` (source_rewrite.code_mask's output)."""
    if "constexpr" not in code:
        return []
    out: list[tuple[int, int, str]] = []
    for m in _CLASS.finditer(code):
        k = m.start() - 1
        while k >= 0 and code[k] in " \t\r\n":
            k -= 1
        if k >= 0 and code[k] in "<,(":  # a template parameter or an elaborated type
            continue
        head = re.match(r"[^;{}()=]*\{", code[m.end():])
        if head is None:  # a declaration, a friend, a variable of class type
            continue
        body_start = m.end() + head.end()
        body_end = _matching_brace(code, body_start - 1)
        if body_end is None:
            continue
        statements = list(_top_level_statements(code, body_start, body_end))
        if not any(not semi and _constexpr_ctor(code[s:e], m[1]) for s, e, semi in statements):
            continue
        for s, e, ended_by_semicolon in statements:
            if ended_by_semicolon and _uninitialised_member(code[s:e]):
                out.append((e, e, "{}"))
    return out


def _matching_brace(code: str, open_at: int) -> int | None:
    close = member_specialization.matching_brace(code, open_at)
    return close if close < len(code) else None


def _top_level_statements(code: str, start: int, end: int):
    """(start, end, ends with ';') of each statement at the class body's own level: a member
    declaration ends at its ``;`` (end is that offset), a function definition at its body's ``}``."""
    depth_paren, s, i = 0, start, start
    while i < end:
        ch = code[i]
        if ch in "([":
            depth_paren += 1
        elif ch in ")]":
            depth_paren -= 1
        elif ch == "{" and depth_paren == 0:
            close = _matching_brace(code, i)
            if close is None:
                return
            # `T x{...};` is a declaration with a brace initializer: it goes on to its ';'
            after = close + 1
            while after < end and code[after] in " \t\r\n":
                after += 1
            if after < end and code[after] in ";,":
                i = close + 1
                continue
            yield s, close + 1, False
            s = i = close + 1
            continue
        elif ch == ";" and depth_paren == 0:
            yield s, i, True
            s = i + 1
        elif ch == ":" and depth_paren == 0 and re.search(r"\b(?:public|private|protected)\s*$", code[s:i]):
            s = i + 1  # an access specifier
        i += 1


def _constexpr_ctor(stmt: str, name: str) -> bool:
    """A constexpr constructor defined here (its members need initialising before its body,
    whether or not it has a mem-initializer list: the list may name only some)."""
    return re.search(rf"\bconstexpr\b[^;{{}}]*?(?<![\w~:]){re.escape(name)}\s*\(", stmt) is not None


def _uninitialised_member(stmt: str) -> bool:
    text = " ".join(stmt.split())
    if not text or _SKIP_WORDS.match(text) or "(" in text or "=" in text or "{" in text or "operator" in text:
        return False
    if re.search(r"(?<!:):(?!:)", text):  # a bit-field
        return False
    if re.match(r"^(?:const|constexpr)\b", text) or "&" in text.split()[-1]:
        return False
    return _MEMBER.match(text) is not None

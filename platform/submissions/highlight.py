"""Safe HTML for code and task text: per-line syntax highlighting and sanitised markdown.

Everything here returns HTML whose text content has been escaped (``html.escape`` for code,
markdown-it with raw HTML disabled followed by nh3 for markdown), so templates may mark it safe.
Nothing else in the site may mark user text safe.
"""

from __future__ import annotations

import html
from functools import lru_cache

import nh3
from django.utils.safestring import SafeString
from markdown_it import MarkdownIt
from pygments.lexers import CppLexer, get_lexer_by_name
from pygments.token import STANDARD_TYPES, Token
from pygments.util import ClassNotFound

#: The biggest source we highlight; bigger text is shown plain (the service caps sources at 64 KiB).
MAX_HIGHLIGHT_CHARS = 256 * 1024


def _css_class(ttype) -> str:
    while ttype not in STANDARD_TYPES and ttype.parent is not None:
        ttype = ttype.parent
    return STANDARD_TYPES.get(ttype, "")


@lru_cache(maxsize=8)
def _lexer(language: str):
    if language in ("cpp", "c++", ""):
        return CppLexer(stripnl=False, ensurenl=True, stripall=False)
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


def split_source(source: str | None) -> list[str]:
    """Lines of a source as listings number them: "\n", "\r\n" or "\r" end a line; a final
    newline does not start another one; an empty source has no lines."""
    text = (source or "").replace("\r\n", "\n").replace("\r", "\n")
    if not text:
        return []
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


Tokens = list[tuple[str, str]]  # (css class, text) pieces of one line


def token_lines(source: str | None, language: str = "cpp") -> list[Tokens]:
    """The lexer's tokens of each line of ``source``, split at newlines so none spans two lines."""
    plain = split_source(source)
    if not plain:
        return []
    text = "\n".join(plain)
    lexer = _lexer(language)
    if lexer is None or len(text) > MAX_HIGHLIGHT_CHARS:
        return [[("", line)] if line else [] for line in plain]
    lines: list[Tokens] = [[]]
    for ttype, value in lexer.get_tokens(text):
        css = _css_class(ttype) if ttype is not Token.Text else ""
        for i, piece in enumerate(value.split("\n")):
            if i:
                lines.append([])
            if piece:
                lines[-1].append(("" if css == "w" else css, piece))
    # The lexer appends a final newline; keep exactly one entry per source line.
    return (lines + [[] for _ in plain])[: len(plain)]


def render_tokens(tokens: Tokens, marks: list[tuple[int, int]] | None = None) -> SafeString:
    """One line as HTML; character ranges in ``marks`` are wrapped in ``<span class="x">`` (the
    words a diff changed). Every piece of text goes through html.escape, hence SafeString."""
    out: list[str] = []
    pos = 0
    for css, text in tokens:
        pieces = _split_marks(text, pos, marks) if marks else [(text, False)]
        inner = "".join(f'<span class="x">{html.escape(t)}</span>' if marked else html.escape(t)
                        for t, marked in pieces)
        out.append(f'<span class="{css}">{inner}</span>' if css else inner)
        pos += len(text)
    return SafeString("".join(out))


def _split_marks(text: str, offset: int, marks: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    cuts = {0, len(text)}
    for start, end in marks:
        for edge in (start - offset, end - offset):
            if 0 < edge < len(text):
                cuts.add(edge)
    edges = sorted(cuts)
    pieces = []
    for a, b in zip(edges, edges[1:], strict=False):
        middle = offset + a
        marked = any(start <= middle < end for start, end in marks)
        pieces.append((text[a:b], marked))
    return pieces


def highlight_lines(source: str, language: str = "cpp") -> list[SafeString]:
    """One escaped, highlighted HTML fragment per line of ``source`` (no trailing newline).

    Tokens that span lines (block comments, raw strings) are split so that every fragment is
    balanced HTML, which is what listings and diffs need to place each line in its own row.
    """
    return [render_tokens(tokens) for tokens in token_lines(source, language)]


# --- markdown --------------------------------------------------------------------------------

_ALLOWED_TAGS = {
    "a", "p", "br", "hr", "em", "strong", "code", "pre", "span", "blockquote", "ul", "ol", "li",
    "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "del", "sup", "sub",
}
_ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "span": {"class"},
    "code": {"class"},
    "pre": {"class"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
}


def _fence(code: str, lang: str, _attrs) -> str:
    if lang.lower() not in ("c", "cpp", "c++", "cc", "cxx", "ascendc"):
        return ""  # markdown-it escapes it as a plain block
    body = "\n".join(highlight_lines(code, "cpp"))
    return f'<pre class="hl"><code>{body}</code></pre>\n'


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False,
                                   "highlight": _fence})
    md.enable("table")
    md.enable("strikethrough")
    return md


def render_markdown(text: str) -> SafeString:
    """Task descriptions as HTML: raw HTML disabled in the parser, then sanitised by nh3."""
    rendered = _markdown().render(text or "")
    return SafeString(nh3.clean(rendered, tags=_ALLOWED_TAGS, attributes=_ALLOWED_ATTRIBUTES,
                     url_schemes={"http", "https", "mailto"}, link_rel="noopener noreferrer nofollow"))

"""Line diffs of kernel sources, highlighted, for side-by-side and unified views.

Plain functions over strings; nothing here knows about submissions or requests. Each rendered
line carries HTML from :func:`submissions.highlight.highlight_lines`, escaped there.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from submissions.highlight import render_tokens, split_source, token_lines

SAME, ADDED, REMOVED, EMPTY = "same", "add", "del", "empty"


@dataclass(frozen=True, slots=True)
class Cell:
    """One side of a side-by-side row; ``number`` is None on the blank side of an insertion."""

    number: int | None
    html: str
    kind: str


@dataclass(frozen=True, slots=True)
class SplitRow:
    left: Cell
    right: Cell


@dataclass(frozen=True, slots=True)
class UnifiedRow:
    kind: str
    old_number: int | None
    new_number: int | None
    html: str


@dataclass(slots=True)
class Hunk:
    old_start: int
    old_count: int
    new_start: int
    new_count: int
    rows: list = field(default_factory=list)

    @property
    def header(self) -> str:
        return f"@@ -{self.old_start},{self.old_count} +{self.new_start},{self.new_count} @@"


@dataclass(slots=True)
class FileDiff:
    """Everything a page needs to show one file's diff in either layout."""

    name: str
    layout: str
    added: int
    removed: int
    hunks: list[Hunk]

    @property
    def identical(self) -> bool:
        return self.added == 0 and self.removed == 0


def _groups(old: list[str], new: list[str], context: int | None):
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    if context is None:
        opcodes = matcher.get_opcodes()
        return [opcodes] if opcodes else []
    groups = list(matcher.get_grouped_opcodes(context))
    if len(groups) == 1 and all(tag == "equal" for tag, *_ in groups[0]):
        return []
    return groups


def _hunk(group) -> Hunk:
    first, last = group[0], group[-1]
    old_count = last[2] - first[1]
    new_count = last[4] - first[3]
    # Unified-diff convention: an empty range names the line before it.
    old_start = first[1] + 1 if old_count else first[1]
    new_start = first[3] + 1 if new_count else first[3]
    return Hunk(old_start, old_count, new_start, new_count)


_WORD = re.compile(r"\w+|\s+|[^\w\s]")
#: Paired lines less similar than this are shown as wholly changed, without word marks.
MIN_SIMILARITY = 0.5


def changed_words(old: str, new: str) -> tuple[list[tuple[int, int]], list[tuple[int, int]]] | None:
    """Character ranges of the words that differ between two versions of a line, for each side;
    None when the lines have too little in common for word marks to help."""
    a, b = _WORD.findall(old), _WORD.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < MIN_SIMILARITY:
        return None

    def offsets(words):
        out, pos = [0], 0
        for word in words:
            pos += len(word)
            out.append(pos)
        return out

    oa, ob = offsets(a), offsets(b)
    old_marks, new_marks = [], []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            old_marks.append((oa[i1], oa[i2]))
        if j2 > j1:
            new_marks.append((ob[j1], ob[j2]))
    return old_marks, new_marks


class _Side:
    """One file's lines, rendered on demand with optional word marks."""

    def __init__(self, text: str | None, language: str) -> None:
        self.plain = split_source(text)
        self.tokens = token_lines(text, language)

    def html(self, index: int, marks=None):
        return render_tokens(self.tokens[index], marks)


def _pair_marks(a: _Side, b: _Side, i: int, j: int):
    found = changed_words(a.plain[i], b.plain[j])
    return found if found is not None else (None, None)


def change_counts(old: str | None, new: str | None) -> tuple[int, int]:
    """(lines added, lines removed) going from ``old`` to ``new``."""
    a, b = split_source(old), split_source(new)
    added = removed = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            removed += i2 - i1
        if tag in ("replace", "insert"):
            added += j2 - j1
    return added, removed


def side_by_side(old: str | None, new: str | None, *, context: int | None = 3,
                 language: str = "cpp") -> list[Hunk]:
    """Hunks of :class:`SplitRow`; a replaced block pairs lines and pads the shorter side."""
    a, b = _Side(old, language), _Side(new, language)
    hunks = []
    for group in _groups(a.plain, b.plain, context):
        hunk = _hunk(group)
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                hunk.rows.extend(
                    SplitRow(Cell(i + 1, a.html(i), SAME), Cell(j + 1, b.html(j), SAME))
                    for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
                )
                continue
            for k in range(max(i2 - i1, j2 - j1)):
                i, j = i1 + k, j1 + k
                old_marks, new_marks = _pair_marks(a, b, i, j) if i < i2 and j < j2 else (None, None)
                left = Cell(i + 1, a.html(i, old_marks), REMOVED) if i < i2 else Cell(None, "", EMPTY)
                right = Cell(j + 1, b.html(j, new_marks), ADDED) if j < j2 else Cell(None, "", EMPTY)
                hunk.rows.append(SplitRow(left, right))
        hunks.append(hunk)
    return hunks


def unified(old: str | None, new: str | None, *, context: int | None = 3,
            language: str = "cpp") -> list[Hunk]:
    """Hunks of :class:`UnifiedRow`: removed lines of a block come before the added ones."""
    a, b = _Side(old, language), _Side(new, language)
    hunks = []
    for group in _groups(a.plain, b.plain, context):
        hunk = _hunk(group)
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                hunk.rows.extend(UnifiedRow(SAME, i + 1, j + 1, a.html(i))
                                 for i, j in zip(range(i1, i2), range(j1, j2), strict=True))
                continue
            pairs = {k: _pair_marks(a, b, i1 + k, j1 + k) for k in range(min(i2 - i1, j2 - j1))}
            hunk.rows.extend(UnifiedRow(REMOVED, i + 1, None, a.html(i, pairs.get(i - i1, (None,))[0]))
                             for i in range(i1, i2))
            hunk.rows.extend(UnifiedRow(ADDED, None, j + 1, b.html(j, pairs.get(j - j1, (None, None))[1]))
                             for j in range(j1, j2))
        hunks.append(hunk)
    return hunks


LAYOUTS = ("split", "unified")


def file_diff(name: str, old: str | None, new: str | None, *, layout: str = "split",
              context: int | None = 3) -> FileDiff:
    """One file's diff in ``layout`` ("split" or "unified"); ``context=None`` shows every line."""
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, not {layout!r}")
    added, removed = change_counts(old, new)
    render = side_by_side if layout == "split" else unified
    return FileDiff(name=name, layout=layout, added=added, removed=removed,
                    hunks=render(old, new, context=context))


def patch_text(old: str | None, new: str | None, *, old_name: str, new_name: str,
               context: int = 3) -> str:
    """A plain unified diff (``git apply``-able) of the two sources."""
    a = [line + "\n" for line in split_source(old)]
    b = [line + "\n" for line in split_source(new)]
    return "".join(difflib.unified_diff(a, b, fromfile=old_name, tofile=new_name, n=context))

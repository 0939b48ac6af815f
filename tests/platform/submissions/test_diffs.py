"""submissions.diffs and the highlighting under it: plain functions over strings."""

from __future__ import annotations

import re

import pytest

from submissions import diffs
from submissions.highlight import highlight_lines, render_markdown, split_source

OLD = "int a = 1;\nint b = 2;\nint c = 3;\n"
NEW = "int a = 1;\nint b = 20;\nint c = 3;\nint d;\n"


def _text(fragment: str) -> str:
    """What a browser shows for an HTML fragment."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_split_source_counts_lines_like_an_editor():
    assert split_source("") == []
    assert split_source(None) == []
    assert split_source("a") == ["a"]
    assert split_source("a\n") == ["a"]
    assert split_source("a\n\n") == ["a", ""]
    assert split_source("a\r\nb\rc") == ["a", "b", "c"]
    # Form feeds and Unicode line separators are not line ends in C++ (str.splitlines would split).
    assert split_source("a\x0cb\u2028c") == ["a\x0cb\u2028c"]


def test_highlight_lines_gives_one_balanced_escaped_fragment_per_line():
    source = '#include "kernel_operator.h"\n/* a <b>\n   c */ int x = 1; // <script>\nchar s[] = "</td>";\n'
    lines = highlight_lines(source)
    assert len(lines) == len(split_source(source)) == 4
    for line in lines:
        assert line.count("<span") == line.count("</span>")
        assert "<script" not in line and "<b>" not in line and "</td>" not in line
    assert [_text(line) for line in lines] == split_source(source)
    assert '<span class="cm">   c */</span>' in lines[2]  # the block comment is split per line
    assert '<span class="kt">int</span>' in lines[2]
    assert '<span class="c1">// &lt;script&gt;</span>' in lines[2]


def test_side_by_side_pairs_changed_lines_and_pads_insertions():
    hunks = diffs.side_by_side(OLD, NEW)
    assert len(hunks) == 1
    assert hunks[0].header == "@@ -1,3 +1,4 @@"
    rows = hunks[0].rows
    assert [(r.left.number, r.left.kind, r.right.number, r.right.kind) for r in rows] == [
        (1, "same", 1, "same"),
        (2, "del", 2, "add"),
        (3, "same", 3, "same"),
        (None, "empty", 4, "add"),
    ]
    assert _text(rows[1].left.html) == "int b = 2;" and _text(rows[1].right.html) == "int b = 20;"


def test_unified_lists_removals_before_additions_with_both_line_numbers():
    rows = diffs.unified(OLD, NEW, context=0)
    assert [h.header for h in rows] == ["@@ -2,1 +2,1 @@", "@@ -3,0 +4,1 @@"]
    flat = [(r.kind, r.old_number, r.new_number, _text(r.html)) for h in rows for r in h.rows]
    assert flat == [("del", 2, None, "int b = 2;"), ("add", None, 2, "int b = 20;"), ("add", None, 4, "int d;")]


def test_changed_words_are_marked_inside_a_changed_line():
    old = "    AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);"
    new = "    AscendC::Add(zLocal, xLocal, yLokal, TILE_LENGTH);"
    row = diffs.side_by_side(old, new)[0].rows[0]
    assert re.findall(r'<span class="x">([^<]*)</span>', row.left.html) == ["yLocal"]
    assert re.findall(r'<span class="x">([^<]*)</span>', row.right.html) == ["yLokal"]
    assert _text(row.right.html) == new  # marks change the markup, not the text
    # Lines with little in common are shown as wholly changed, without word marks.
    unrelated = diffs.unified("int a = 1;", "for (;;) { work(); }")[0].rows
    assert all('class="x"' not in r.html for r in unrelated)


def test_identical_sources_have_no_hunks_and_full_context_shows_every_line():
    assert diffs.side_by_side(OLD, OLD) == [] and diffs.unified(OLD, OLD) == []
    assert diffs.file_diff("kernel.cpp", OLD, OLD).identical
    full = diffs.unified(OLD, NEW, context=None)
    assert len(full) == 1 and len(full[0].rows) == 5


def test_far_apart_changes_make_separate_hunks():
    old = "".join(f"line {i};\n" for i in range(40))
    new = old.replace("line 2;", "line two;").replace("line 35;", "line thirty-five;")
    hunks = diffs.unified(old, new)
    assert [h.header for h in hunks] == ["@@ -1,6 +1,6 @@", "@@ -33,7 +33,7 @@"]


@pytest.mark.parametrize(
    "old, new, counts",
    [("", "", (0, 0)), ("", "a\nb\n", (2, 0)), ("a\nb\n", "", (0, 2)), (OLD, NEW, (2, 1)), (None, "x", (1, 0))],
)
def test_change_counts(old, new, counts):
    assert diffs.change_counts(old, new) == counts


def test_from_nothing_and_to_nothing():
    added = diffs.side_by_side("", "a\nb\n")
    assert added[0].header == "@@ -0,0 +1,2 @@"
    assert all(r.left.kind == "empty" and r.right.kind == "add" for r in added[0].rows)
    removed = diffs.unified("a\n", None)
    assert removed[0].header == "@@ -1,1 +0,0 @@"


def test_file_diff_layouts():
    assert diffs.file_diff("kernel.cpp", OLD, NEW, layout="split").hunks[0].rows[0].left.number == 1
    assert diffs.file_diff("kernel.cpp", OLD, NEW, layout="unified").hunks[0].rows[0].kind == "same"
    with pytest.raises(ValueError, match="layout"):
        diffs.file_diff("kernel.cpp", OLD, NEW, layout="sideways")


def test_patch_text_is_a_standard_unified_diff():
    patch = diffs.patch_text(OLD, NEW, old_name="a/kernel.cpp", new_name="b/kernel.cpp")
    assert patch.splitlines() == [
        "--- a/kernel.cpp", "+++ b/kernel.cpp", "@@ -1,3 +1,4 @@",
        " int a = 1;", "-int b = 2;", "+int b = 20;", " int c = 3;", "+int d;",
    ]
    assert diffs.patch_text(OLD, OLD, old_name="a", new_name="b") == ""


def test_markdown_disables_raw_html_and_sanitises_links():
    html = render_markdown(
        "# T\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
        "[bad](javascript:alert(1)) [good](https://example.com)\n\n"
        "```cpp\nint x; // <b>\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert "<script" not in html and "<img" not in html and "onerror=alert(1)>" not in html
    assert "&lt;script&gt;" in html
    assert 'href="javascript' not in html
    assert '<a href="https://example.com" rel="noopener noreferrer nofollow">good</a>' in html
    assert '<pre class="hl"><code><span class="kt">int</span>' in html
    assert "<table>" in html and "<td>2</td>" in html

"""How an explanation's sections read in a release: each heading says the lines it is about."""

from __future__ import annotations

from releases.formats import sections_markdown

TITLES = {"pipeline": "Pipeline"}


def test_headings_name_every_linked_range():
    def heading(lines) -> str:
        return sections_markdown([{"kind": "pipeline", "text": "x", "lines": lines}], TITLES).split("\n")[0]

    assert heading([[6, 9], [14, 14]]) == "## Pipeline (lines 6–9, 14)"
    assert heading([[3, 3]]) == "## Pipeline (line 3)"
    assert heading([7, 8]) == "## Pipeline (lines 7–8)"  # stored before sections linked several ranges
    assert heading(None) == heading([]) == heading("junk") == "## Pipeline"

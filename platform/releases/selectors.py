"""Read side of releases: lists, one release, and pages of records for the browser."""

from __future__ import annotations

import json
from dataclasses import dataclass

from releases import builder
from releases.filters import SUBSETS
from releases.models import Release, ReleaseStatus
from releases.services import release_folder


def releases():
    return Release.objects.select_related("created_by").order_by("-number")


def release_get(number: int) -> Release | None:
    return Release.objects.filter(number=number).first()


@dataclass
class RecordPage:
    subset: str
    split: str
    offset: int
    limit: int
    total: int
    records: list[tuple[int, dict]]

    @property
    def has_next(self) -> bool:
        return self.offset + self.limit < self.total

    @property
    def has_previous(self) -> bool:
        return self.offset > 0

    @property
    def next_offset(self) -> int:
        return self.offset + self.limit

    @property
    def previous_offset(self) -> int:
        return max(0, self.offset - self.limit)


def record_page(release: Release, subset: str, split: str, *, offset: int = 0, limit: int = 10) -> RecordPage | None:
    """Records ``offset``…``offset+limit`` of one split file of a ready release (None if absent)."""
    if release.status != ReleaseStatus.READY or subset not in SUBSETS or split not in builder.SPLITS:
        return None
    path = release_folder(release) / subset / f"{split}.jsonl"
    if not path.exists():
        return None
    total = int(((release.counts or {}).get("subsets", {}).get(subset) or {}).get(split, 0))
    rows = [(n, json.loads(line)) for n, line in builder.iter_lines(path, offset=offset, limit=limit)]
    return RecordPage(subset, split, offset, limit, total, rows)

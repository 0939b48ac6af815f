"""Decontamination: does training code overlap the benchmark's evaluation tasks?

Code is normalised (comments and whitespace dropped, one statement-ish line per line), then
matched two ways against a small reference set (the evaluation tasks' expert kernels):

* exact: sha256 of the normalised text;
* near-duplicate: Jaccard similarity of the sets of 2-line shingles >= ``threshold``, found
  through an inverted index from shingle to reference, so each record costs one pass over its
  own lines whatever the size of the reference.

Train records are also checked against validation records for exact overlap (the same kernel
in both splits). Pure Python, streaming: the report keeps counts and the first ``keep`` hits.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field

_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(r"//[^\n]*")
_SPACE = re.compile(r"\s+")
SHINGLE = 2


def normalise(code: str) -> list[str]:
    code = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", code))
    lines = (_SPACE.sub("", line) for line in code.split("\n"))
    return [line for line in lines if line]


def digest(lines: list[str]) -> bytes:
    return hashlib.sha256("\n".join(lines).encode()).digest()[:16]


def shingles(lines: list[str]) -> set[int]:
    ids = [zlib.crc32(line.encode()) for line in lines]
    if len(ids) < SHINGLE:
        return {hash(tuple(ids))} if ids else set()
    return {hash(tuple(ids[i:i + SHINGLE])) for i in range(len(ids) - SHINGLE + 1)}


@dataclass
class Reference:
    label: str  # e.g. "expert:softmax_fp32"
    task: str
    size: int


@dataclass
class Decontaminator:
    threshold: float = 0.8
    keep: int = 200
    refs: list[Reference] = field(default_factory=list)
    exact: dict[bytes, int] = field(default_factory=dict)
    index: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    hits: list[dict] = field(default_factory=list)
    hit_count: Counter = field(default_factory=Counter)
    checked: int = 0
    split_digests: dict[str, set[bytes]] = field(default_factory=lambda: {"train": set(), "validation": set()})

    def add_reference(self, *, label: str, task: str, code: str) -> None:
        lines = normalise(code)
        if not lines:
            return
        ref_id = len(self.refs)
        sh = shingles(lines)
        self.refs.append(Reference(label=label, task=task, size=len(sh)))
        self.exact.setdefault(digest(lines), ref_id)
        for s in sh:
            self.index[s].append(ref_id)

    def check(self, *, subset: str, split: str, line: int, task: str | None, role: str, code: str) -> None:
        """Check one piece of code of one record (``line``: its 1-based line in the split file)."""
        lines = normalise(code)
        if not lines:
            return
        self.checked += 1
        d = digest(lines)
        self.split_digests.setdefault(split, set()).add(d)
        ref_id = self.exact.get(d)
        match, similarity = ("exact", 1.0) if ref_id is not None else (None, 0.0)
        if ref_id is None and self.index:
            sh = shingles(lines)
            shared: Counter = Counter()
            for s in sh:
                for r in self.index.get(s, ()):
                    shared[r] += 1
            for r, n in sorted(shared.items()):
                union = len(sh) + self.refs[r].size - n
                jaccard = n / union if union else 0.0
                if jaccard >= self.threshold and jaccard > similarity:
                    ref_id, match, similarity = r, "near", jaccard
        if ref_id is None:
            return
        self.hit_count[(subset, match)] += 1
        if len(self.hits) < self.keep:
            ref = self.refs[ref_id]
            self.hits.append({"subset": subset, "split": split, "line": line, "task": task, "field": role,
                              "match": match, "similarity": round(similarity, 3), "reference": ref.label,
                              "reference_task": ref.task})

    def report(self, *, eval_tasks: list[str], included: bool, excluded: dict[str, int]) -> dict:
        both = self.split_digests.get("train", set()) & self.split_digests.get("validation", set())
        by_subset: dict[str, dict[str, int]] = defaultdict(dict)
        for (subset, match), n in sorted(self.hit_count.items()):
            by_subset[subset][match] = n
        return {
            "method": {"normalisation": "comments and whitespace removed, empty lines dropped",
                       "exact": "sha256 of the normalised code",
                       "near_duplicate": f"Jaccard similarity of {SHINGLE}-line shingles >= {self.threshold}"},
            "eval_tasks": sorted(eval_tasks),
            "eval_tasks_included": included,
            "excluded_records": dict(sorted(excluded.items())),
            "references": len(self.refs),
            "code_checked": self.checked,
            "overlaps": {"count": sum(self.hit_count.values()), "by_subset": dict(sorted(by_subset.items())),
                         "first": self.hits},
            "train_validation_exact_overlap": len(both),
        }

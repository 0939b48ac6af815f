"""Decontamination: does training code overlap the benchmark's evaluation tasks?

Code is normalised (comments and whitespace dropped, one statement-ish line per line), then
matched two ways against a small reference set (the evaluation tasks' expert kernels):

* exact: sha256 of the normalised text;
* near-duplicate: Jaccard similarity of the sets of 2-line shingles >= ``threshold``. Each
  reference is indexed under its rarest shingles only, enough of them (more than the
  ``1 - threshold`` share a near-duplicate may lack) that every near-duplicate shares at least
  one: candidates are few, none is missed, and each is then scored exactly.

Unless a release includes the evaluation tasks on request, a record any of whose code matches
is *removed* (every removal is listed in the report with what it duplicates); the threshold is
``THRESHOLD``. Train records are also checked against validation records for exact overlap (the
same kernel in both splits). Pure Python, streaming: the report keeps counts, every removal and
the first ``keep`` overlaps of the records it kept.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field

_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_LINE_COMMENT = re.compile(rb"//[^\n]*")
_SPACE = b" \t\r\f\v"
SHINGLE = 2
CACHE = 50_000  # results remembered per distinct piece of code (dpo reuses kernels across pairs)


def normalise(code: str) -> list[bytes]:
    """The code's lines without comments and whitespace, empty lines dropped (as UTF-8 bytes)."""
    data = code.encode("utf-8", "replace")
    if b"/*" in data:
        data = _BLOCK_COMMENT.sub(b"", data)
    if b"//" in data:
        data = _LINE_COMMENT.sub(b"", data)
    return [line for line in data.translate(None, _SPACE).split(b"\n") if line]


def digest(lines: list[bytes]) -> bytes:
    return hashlib.sha256(b"\n".join(lines)).digest()[:16]


def shingles(lines: list[bytes]) -> set:
    """The set of 2-line shingles (pairs of line checksums); a 1-line code is its own shingle."""
    ids = list(map(zlib.crc32, lines))
    if len(ids) < SHINGLE:
        return {(ids[0], 0)} if ids else set()
    return set(zip(ids, ids[1:], strict=False))


@dataclass
class Reference:
    label: str  # e.g. "expert:softmax_fp32"
    task: str
    shingles: frozenset


#: Jaccard similarity of shingle sets from which code counts as a near-duplicate (docs/releases.md).
THRESHOLD = 0.8


@dataclass
class Decontaminator:
    threshold: float = THRESHOLD
    keep: int = 200
    refs: list[Reference] = field(default_factory=list)
    exact: dict[bytes, int] = field(default_factory=dict)
    index: dict | None = None  # shingle -> reference ids, built on the first check
    hits: list[dict] = field(default_factory=list)
    hit_count: Counter = field(default_factory=Counter)
    checked: int = 0
    split_digests: dict[str, set[bytes]] = field(default_factory=lambda: {"train": set(), "validation": set()})
    removed: list[dict] = field(default_factory=list)  # every record left out, with what it duplicates
    removed_count: Counter = field(default_factory=Counter)
    _seen: dict[bytes, tuple] = field(default_factory=dict)

    def add_reference(self, *, label: str, task: str, code: str) -> None:
        lines = normalise(code)
        if not lines:
            return
        ref_id = len(self.refs)
        self.refs.append(Reference(label=label, task=task, shingles=frozenset(shingles(lines))))
        self.exact.setdefault(digest(lines), ref_id)
        self.index = None

    def _build_index(self) -> dict:
        df: Counter = Counter()
        for ref in self.refs:
            df.update(ref.shingles)
        index: dict = defaultdict(list)
        for ref_id, ref in enumerate(self.refs):
            # A near-duplicate lacks at most (1 - threshold) of the reference's shingles, so it
            # holds at least one of any (1 - threshold) * n + 1 of them: index the rarest ones.
            keep = int((1 - self.threshold) * len(ref.shingles)) + 1
            for s in sorted(ref.shingles, key=lambda s: (df[s], s))[:keep]:
                index[s].append(ref_id)
        return dict(index)

    def _known(self, code: str) -> tuple:
        key = hashlib.sha1(code.encode()).digest()
        known = self._seen.get(key)
        if known is None:
            known = self._match(code)
            if len(self._seen) >= CACHE:
                self._seen.clear()
            self._seen[key] = known
        return known

    def contamination(self, code: str) -> dict | None:
        """What ``code`` duplicates (exactly or nearly) among the references, or None if nothing."""
        _, ref_id, match, similarity = self._known(code)
        if ref_id is None:
            return None
        ref = self.refs[ref_id]
        return {"match": match, "similarity": round(similarity, 3), "reference": ref.label, "reference_task": ref.task}

    def remove(self, *, subset: str, meta: dict, role: str, hit: dict) -> None:
        """Note a record left out because its ``role`` code duplicates evaluation-task material."""
        self.removed_count[(subset, hit["match"])] += 1
        source = {k: v for k, v in meta.items() if k.endswith("_id") and v is not None}
        self.removed.append({"subset": subset, "task": meta.get("task"), "field": role, **hit, "source": source})

    def check(self, *, subset: str, split: str, line: int, task: str | None, role: str, code: str) -> None:
        """Check one piece of code of one record (``line``: its 1-based line in the split file)."""
        d, ref_id, match, similarity = self._known(code)
        if d is None:
            return
        self.checked += 1
        self.split_digests.setdefault(split, set()).add(d)
        if ref_id is None:
            return
        self.hit_count[(subset, match)] += 1
        if len(self.hits) < self.keep:
            ref = self.refs[ref_id]
            self.hits.append({"subset": subset, "split": split, "line": line, "task": task, "field": role,
                              "match": match, "similarity": round(similarity, 3), "reference": ref.label,
                              "reference_task": ref.task})

    def _match(self, code: str) -> tuple:
        """(digest, reference id or None, "exact" | "near" | None, similarity) of one piece of code."""
        lines = normalise(code)
        if not lines:
            return None, None, None, 0.0
        d = digest(lines)
        ref_id = self.exact.get(d)
        match, similarity = ("exact", 1.0) if ref_id is not None else (None, 0.0)
        if ref_id is None and self.refs:
            if self.index is None:
                self.index = self._build_index()
            sh = shingles(lines)
            candidates = set()
            for s in sh:
                hit = self.index.get(s)
                if hit:
                    candidates.update(hit)
            for r in sorted(candidates):
                ref_sh = self.refs[r].shingles
                n = len(sh & ref_sh)
                union = len(sh) + len(ref_sh) - n
                jaccard = n / union if union else 0.0
                if jaccard >= self.threshold and jaccard > similarity:
                    ref_id, match, similarity = r, "near", jaccard
        return d, ref_id, match, similarity

    def report(self, *, eval_tasks: list[str], included: bool, excluded: dict[str, int]) -> dict:
        both = self.split_digests.get("train", set()) & self.split_digests.get("validation", set())
        by_subset: dict[str, dict[str, int]] = defaultdict(dict)
        for (subset, match), n in sorted(self.hit_count.items()):
            by_subset[subset][match] = n
        removed: dict[str, dict[str, int]] = defaultdict(dict)
        for (subset, match), n in sorted(self.removed_count.items()):
            removed[subset][match] = n
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
            "removed": {"count": len(self.removed), "by_subset": dict(sorted(removed.items())),
                        "records": self.removed},
        }

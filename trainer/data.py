"""Ascend-CoT releases: open one, check it, and turn its subsets into TRL datasets.

A release folder holds ``<subset>/train.jsonl`` and ``<subset>/validation.jsonl`` (an absent
subset has no records), ``README.md`` and ``manifest.json`` (``version``, ``subsets`` with record
counts per split, and the files' sha256). Conversational subsets (``code_cot``, ``doc_qa``,
``api_fix``, ``kernel_fix``) hold ``{"messages": [...], "meta": {...}}`` where the assistant
message carries its reasoning under ``reasoning``; ``dpo`` holds ``{"prompt", "chosen",
"rejected", "meta"}`` in TRL's conversational preference format.

Everything here runs before a model is loaded, so bad input costs seconds, not a GPU hour:
each problem raises :class:`TrainerInputError` naming the file, the line and what was expected.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trainer.errors import TrainerInputError

CONVERSATIONAL = ("code_cot", "doc_qa", "api_fix", "kernel_fix")
PREFERENCE = ("dpo",)
SUBSETS = CONVERSATIONAL + PREFERENCE
ROLES = ("system", "user", "assistant")
#: The key a release stores an assistant message's reasoning under.
RELEASE_REASONING_KEY = "reasoning"


@dataclass
class Release:
    root: Path
    manifest: dict[str, Any]

    @property
    def version(self) -> str:
        return str(self.manifest.get("version", ""))

    def split_file(self, subset: str, split: str) -> Path:
        return self.root / subset / f"{split}.jsonl"

    def available(self) -> list[str]:
        return sorted(p.parent.name for p in self.root.glob("*/train.jsonl"))

    def summary(self) -> dict[str, Any]:
        digest = hashlib.sha256((self.root / "manifest.json").read_bytes()).hexdigest()
        return {"path": str(self.root.resolve()), "version": self.manifest.get("version"),
                "format": self.manifest.get("format"), "manifest_sha256": digest}


def open_release(path: str | Path | None, *, verify_hashes: bool = True) -> Release:
    if not path:
        raise TrainerInputError("no release given: set `release:` in the config or pass --release DIR")
    root = Path(path).expanduser()
    if not root.is_dir():
        raise TrainerInputError(f"release folder {root} does not exist")
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        raise TrainerInputError(f"{root} is not a release: it has no manifest.json")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TrainerInputError(f"{manifest_path}: not valid JSON ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("version") in (None, ""):
        raise TrainerInputError(f"{manifest_path}: expected an object with a \"version\"")
    release = Release(root, manifest)
    if verify_hashes:
        for rel, expected in _manifest_hashes(manifest).items():
            file = root / rel
            if file.is_file() and hashlib.sha256(file.read_bytes()).hexdigest() != expected:
                raise TrainerInputError(f"{file}: sha256 differs from manifest.json (the release was modified)")
    return release


def _manifest_hashes(manifest: Mapping[str, Any]) -> dict[str, str]:
    """{relative path: sha256} from the manifest's ``files`` (a mapping, or a list of objects)."""
    files = manifest.get("files")
    out: dict[str, str] = {}
    if isinstance(files, Mapping):
        for rel, value in files.items():
            sha = value.get("sha256") if isinstance(value, Mapping) else value
            if isinstance(sha, str):
                out[str(rel)] = sha
    elif isinstance(files, list):
        for item in files:
            if isinstance(item, Mapping) and isinstance(item.get("path"), str) and isinstance(item.get("sha256"), str):
                out[item["path"]] = item["sha256"]
    return out


# --- records -------------------------------------------------------------------------------------


def read_split(release: Release, subset: str, split: str, *, required: bool = True) -> list[dict[str, Any]]:
    """The records of one subset's split, each checked; [] for an absent split when not required."""
    if subset not in SUBSETS:
        raise TrainerInputError(f"unknown subset {subset!r}; a release has {', '.join(SUBSETS)}")
    path = release.split_file(subset, split)
    if not path.is_file():
        if not required:
            return []
        if not (release.root / subset).is_dir():
            raise TrainerInputError(
                f"release {release.version} at {release.root} has no subset {subset!r} "
                f"(subsets present: {', '.join(release.available()) or 'none'})")
        raise TrainerInputError(f"{path} is missing: subset {subset!r} has no {split} split")
    records = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise TrainerInputError(f"{path}:{lineno}: not valid JSON ({exc.msg})") from None
            where = f"{path}:{lineno}"
            if subset in PREFERENCE:
                check_preference(rec, where)
            else:
                check_conversational(rec, where)
            records.append(rec)
    if not records and required:
        raise TrainerInputError(f"{path}: the {split} split of subset {subset!r} is empty")
    return records


def _check_messages(messages: Any, where: str, column: str) -> None:
    if not isinstance(messages, list) or not messages:
        raise TrainerInputError(f"{where}: `{column}` must be a non-empty list of messages")
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ROLES or not isinstance(m.get("content"), str):
            raise TrainerInputError(f"{where}: {column}[{i}] must be {{\"role\": one of {'/'.join(ROLES)}, "
                                    f"\"content\": text}}, got {str(m)[:120]!r}")
        reasoning = m.get(RELEASE_REASONING_KEY)
        if reasoning is not None and not isinstance(reasoning, str):
            raise TrainerInputError(f"{where}: {column}[{i}].reasoning must be text")


def check_conversational(rec: Any, where: str) -> None:
    if not isinstance(rec, dict) or "messages" not in rec:
        got = sorted(rec) if isinstance(rec, dict) else type(rec).__name__
        raise TrainerInputError(f"{where}: expected a record with a `messages` column, got {got}")
    _check_messages(rec["messages"], where, "messages")
    last = rec["messages"][-1]
    if last["role"] != "assistant" or not last["content"].strip():
        raise TrainerInputError(f"{where}: the last message must be the assistant's answer (non-empty)")


def check_preference(rec: Any, where: str) -> None:
    missing = [c for c in ("prompt", "chosen", "rejected") if not isinstance(rec, dict) or c not in rec]
    if missing:
        raise TrainerInputError(f"{where}: a dpo record needs `prompt`, `chosen` and `rejected`; "
                                f"missing {', '.join(missing)}")
    _check_messages(rec["prompt"], where, "prompt")
    for column in ("chosen", "rejected"):
        _check_messages(rec[column], where, column)
        if rec[column][-1]["role"] != "assistant":
            raise TrainerInputError(f"{where}: `{column}` must end with an assistant message")
    if rec["prompt"][-1]["role"] != "user":
        raise TrainerInputError(f"{where}: `prompt` must end with a user message")


def map_reasoning(messages: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """Messages with the release's ``reasoning`` moved to the chat template's key (``key``)."""
    out = []
    for m in messages:
        mapped = {k: v for k, v in m.items() if k != RELEASE_REASONING_KEY}
        if m.get(RELEASE_REASONING_KEY):
            mapped[key] = m[RELEASE_REASONING_KEY]
        out.append(mapped)
    return out


# --- weights and mixing ----------------------------------------------------------------------------


def parse_weights(value: Any, *, default: Mapping[str, float]) -> dict[str, float]:
    """Subset weights from YAML (a mapping), JSON text, ``a=1,b=0.5`` text, or a list of names."""
    if value in (None, "", {}):
        return dict(default)
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("{"):
            try:
                value = json.loads(text)
            except json.JSONDecodeError as exc:
                raise TrainerInputError(f"subsets: not valid JSON ({exc.msg})") from None
        else:
            value = {}
            for part in filter(None, (p.strip() for p in text.split(","))):
                name, _, weight = part.partition("=")
                value[name.strip()] = weight or 1.0
    if isinstance(value, list | tuple):
        value = {str(name): 1.0 for name in value}
    if not isinstance(value, Mapping):
        raise TrainerInputError(f"subsets: expected a mapping of subset to weight, got {value!r}")
    weights = {}
    for name, weight in value.items():
        if name not in SUBSETS:
            raise TrainerInputError(f"subsets: unknown subset {name!r}; a release has {', '.join(SUBSETS)}")
        try:
            weights[str(name)] = float(weight)
        except (TypeError, ValueError):
            raise TrainerInputError(f"subsets: the weight of {name} must be a number, got {weight!r}") from None
        if weights[name] < 0:
            raise TrainerInputError(f"subsets: the weight of {name} must be >= 0")
    if not any(w > 0 for w in weights.values()):
        raise TrainerInputError("subsets: every weight is 0, nothing to train on")
    return weights


def mix(records_by_subset: Mapping[str, list[Any]], weights: Mapping[str, float], seed: int) -> list[Any]:
    """Each subset repeated ``floor(w)`` times plus a ``w - floor(w)`` random share, then shuffled.

    A weight of 1 takes every record once, 0.5 a random half, 2 every record twice.
    """
    rng = random.Random(seed)
    out: list[Any] = []
    for name in sorted(records_by_subset):
        records, weight = records_by_subset[name], weights.get(name, 0.0)
        whole, frac = int(weight), weight - int(weight)
        out.extend(records * whole)
        if frac > 0:
            out.extend(rng.sample(records, max(1, round(len(records) * frac))))
    rng.shuffle(out)
    return out


@dataclass
class Prepared:
    """Datasets ready for a TRL trainer, plus what the checks and the metadata need."""

    train: Any
    eval: Any | None
    #: One mapped record per subset, for the template checks.
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)
    counts: dict[str, dict[str, int]] = field(default_factory=dict)


def prepare(release: Release, weights: Mapping[str, float], *, kind: str, reasoning_key: str,
            seed: int = 42, eval_split: str | None = "validation", need_eval: bool = False,
            max_records_per_subset: int | None = None) -> Prepared:
    """Read, check, map and mix the chosen subsets into ``datasets.Dataset`` objects.

    ``kind`` is ``sft`` (conversational subsets, a ``messages`` column) or ``dpo`` (the ``dpo``
    subset: ``prompt``/``chosen``/``rejected`` columns).
    """
    from datasets import Dataset

    chosen = [name for name, w in weights.items() if w > 0]
    allowed = CONVERSATIONAL if kind == "sft" else PREFERENCE
    wrong = [n for n in chosen if n not in allowed]
    if wrong:
        other = "dpo" if kind == "sft" else "sft"
        raise TrainerInputError(f"subset(s) {', '.join(wrong)} cannot be used for {kind} "
                                f"(use `akgen train {other}`); {kind} takes {', '.join(allowed)}")
    train_by, eval_by, samples, counts = {}, {}, {}, {}
    for name in chosen:
        train = read_split(release, name, "train")[:max_records_per_subset]
        val = read_split(release, name, eval_split, required=False) if eval_split else []
        train_by[name] = [_row(r, kind, reasoning_key) for r in train]
        eval_by[name] = [_row(r, kind, reasoning_key) for r in val[:max_records_per_subset]]
        samples[name] = train_by[name][0]
        counts[name] = {"train": len(train), "validation": len(val)}
    mixed = mix(train_by, weights, seed)
    for name in chosen:
        counts[name]["weight"] = weights[name]
    counts["_mixed"] = {"train": len(mixed)}
    eval_rows = [r for name in sorted(eval_by) for r in eval_by[name]]
    if need_eval and not eval_rows:
        raise TrainerInputError(f"evaluation is on (eval_strategy) but the {eval_split} split of "
                                f"{', '.join(chosen)} is empty or absent; set eval_strategy: \"no\"")
    return Prepared(train=Dataset.from_list(mixed), eval=Dataset.from_list(eval_rows) if eval_rows else None,
                    samples=samples, counts=counts)


def _row(rec: dict[str, Any], kind: str, reasoning_key: str) -> dict[str, Any]:
    if kind == "sft":
        return {"messages": map_reasoning(rec["messages"], reasoning_key)}
    return {c: map_reasoning(rec[c], reasoning_key) for c in ("prompt", "chosen", "rejected")}

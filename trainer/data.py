"""Ascend-CoT releases: open one, check it, and turn its subsets into TRL datasets.

A release folder holds ``<subset>/train.jsonl`` and ``<subset>/validation.jsonl`` (an absent
subset has no records), ``README.md`` and ``manifest.json`` (``version``, ``subsets`` with record
counts per split, and the files' sha256). Conversational subsets (``code_cot``, ``doc_qa``,
``api_fix``, ``kernel_fix``) hold ``{"messages": [...], "meta": {...}}`` where the assistant
message carries its reasoning under ``reasoning``; ``dpo`` holds ``{"prompt", "chosen",
"rejected", "meta"}`` in TRL's conversational preference format.

A recipe may mix in outside datasets (``extra_datasets``: local JSONL/Parquet files, a folder of
them, or a folder written by ``datasets``' ``save_to_disk``), read with ``datasets`` itself and
checked with the same validators; they are train-only and never enter the evaluation split.

Everything here runs before a model is loaded, so bad input costs seconds, not a GPU hour:
each problem raises :class:`TrainerInputError` naming the file, the line and what was expected.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_runner.release_format import CONVERSATIONAL, PREFERENCE, SUBSETS  # noqa: F401 (re-exported)
from trainer.errors import TrainerInputError

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


def parse_weights(value: Any, *, default: Mapping[str, float], others: bool = False) -> dict[str, float]:
    """Subset weights from YAML (a mapping), JSON text, ``a=1,b=0.5`` text, or a list of names.

    ``others``: outside datasets are mixed in too, so every subset at weight 0 is allowed.
    """
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
            raise TrainerInputError(f"subsets: unknown subset {name!r}; a release has {', '.join(SUBSETS)} "
                                    "(an outside dataset goes in `extra_datasets`, with a path and a weight)")
        try:
            weights[str(name)] = float(weight)
        except (TypeError, ValueError):
            raise TrainerInputError(f"subsets: the weight of {name} must be a number, got {weight!r}") from None
        if weights[name] < 0:
            raise TrainerInputError(f"subsets: the weight of {name} must be >= 0")
    if not others and not any(w > 0 for w in weights.values()):
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


# --- outside datasets ------------------------------------------------------------------------------

#: The keys of one ``extra_datasets`` entry.
EXTRA_KEYS = ("path", "weight", "split", "name")
#: File names ``datasets`` reads with its packaged json / parquet builders.
EXTRA_FILE_BUILDERS = {".jsonl": "json", ".json": "json", ".jsonl.gz": "json", ".json.gz": "json",
                       ".parquet": "parquet"}
#: The prefix of an outside dataset's key in ``Prepared.counts`` (``extra:<name>``).
EXTRA_PREFIX = "extra:"


@dataclass(frozen=True)
class ExtraDataset:
    """An outside dataset mixed into the training split with a weight (same semantics as a subset).

    ``split`` picks one split of a ``DatasetDict`` saved with ``save_to_disk`` or of a folder whose
    file names name splits (``train.jsonl``, ``validation-00000.parquet``); a single file is all train.
    """

    path: Path
    weight: float = 1.0
    split: str = "train"
    name: str = ""

    @property
    def key(self) -> str:
        return EXTRA_PREFIX + self.name


def parse_extra_datasets(value: Any) -> list[ExtraDataset]:
    """``extra_datasets`` from YAML (a list of ``{path, weight, split, name}`` or of paths), JSON text,
    or a plain path (weight 1).

    A name defaults to the file or folder name without its extension; names must be unique
    because they key the counts and the metadata.
    """
    if value in (None, "", [], {}):
        return []
    if isinstance(value, str) and value.lstrip().startswith(("[", "{")):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise TrainerInputError(f"extra_datasets: not valid JSON ({exc.msg}); expected a list of "
                                    '{"path": ..., "weight": ...}') from None
    if isinstance(value, Mapping | str):  # one entry, or one path at weight 1
        value = [value]
    if not isinstance(value, list | tuple):
        raise TrainerInputError(f"extra_datasets: expected a list of {{path, weight, split, name}}, got {value!r}")
    extras = [_extra_entry(item, i) for i, item in enumerate(value)]
    seen: dict[str, Path] = {}
    for extra in extras:
        if extra.name in seen:
            raise TrainerInputError(f"extra_datasets: {seen[extra.name]} and {extra.path} are both named "
                                    f"{extra.name!r}; give one a `name`")
        seen[extra.name] = extra.path
    return extras


def _extra_entry(item: Any, index: int) -> ExtraDataset:
    where = f"extra_datasets[{index}]"
    if isinstance(item, str):
        item = {"path": item}
    if not isinstance(item, Mapping) or not item.get("path"):
        raise TrainerInputError(f"{where}: expected {{path, weight, split, name}} with a path, got {item!r}")
    unknown = sorted(set(item) - set(EXTRA_KEYS))
    if unknown:
        raise TrainerInputError(f"{where}: unknown key(s) {', '.join(unknown)}; an entry has {', '.join(EXTRA_KEYS)}")
    path = Path(str(item["path"])).expanduser()
    if not path.exists():
        raise TrainerInputError(f"{where}: {path} does not exist")
    if path.is_file() and _file_builder(path) is None:
        raise TrainerInputError(f"{where}: {path} is neither JSON Lines nor Parquet "
                                f"({', '.join(EXTRA_FILE_BUILDERS)}) nor a dataset folder")
    try:
        weight = float(item.get("weight", 1.0))
    except (TypeError, ValueError):
        raise TrainerInputError(f"{where}: the weight must be a number, got {item.get('weight')!r}") from None
    if weight < 0:
        raise TrainerInputError(f"{where}: the weight must be >= 0")
    split = str(item.get("split") or "train")
    if path.is_file() and split != "train":
        raise TrainerInputError(f"{where}: {path} is one file, so it has only a train split (split: {split!r} "
                                "applies to folders)")
    name = str(item.get("name") or _stem(path))
    if not name or name in SUBSETS:
        raise TrainerInputError(f"{where}: the name {name!r} is empty or a release subset's; set another `name`")
    return ExtraDataset(path=path, weight=weight, split=split, name=name)


def _file_builder(path: Path) -> str | None:
    return next((b for suffix, b in EXTRA_FILE_BUILDERS.items() if path.name.endswith(suffix)), None)


def _stem(path: Path) -> str:
    suffix = next((s for s in EXTRA_FILE_BUILDERS if path.name.endswith(s)), "")
    return path.name[: len(path.name) - len(suffix)] if suffix else path.name


def _saved_with_datasets(folder: Path) -> bool:
    """A folder written by ``Dataset.save_to_disk`` (state.json) or ``DatasetDict.save_to_disk``."""
    return (folder / "state.json").is_file() or (folder / "dataset_dict.json").is_file()


def open_extra(extra: ExtraDataset) -> Any:
    """The ``datasets.Dataset`` behind an entry, read by ``datasets`` (no parsing of our own)."""
    from datasets import DatasetDict, load_dataset, load_from_disk

    path, split = extra.path, extra.split
    try:
        if path.is_dir() and _saved_with_datasets(path):
            loaded = load_from_disk(str(path))
            if isinstance(loaded, DatasetDict):
                if split not in loaded:
                    raise TrainerInputError(f"{path}: no split {split!r} (splits: {', '.join(loaded)}); "
                                            "set `split` in its extra_datasets entry")
                return loaded[split]
            return loaded
        if path.is_dir():
            return load_dataset(str(path), split=split)
        return load_dataset(_file_builder(path), data_files=str(path), split="train")
    except TrainerInputError:
        raise
    except Exception as exc:  # noqa: BLE001 (datasets and pyarrow raise many types; all mean "unreadable")
        raise TrainerInputError(f"{path}: `datasets` could not read it as a dataset ({type(exc).__name__}: "
                                f"{str(exc)[:300]})") from None


def read_extra(extra: ExtraDataset, *, kind: str, reasoning_key: str) -> list[dict[str, Any]]:
    """The entry's records as plain dicts, each checked like a release record of ``kind``.

    Arrow fills keys a message lacks with null; those are dropped so a record looks exactly like
    the JSON it came from. For sft, TRL's conversational ``prompt``/``completion`` pair becomes one
    ``messages`` list (the loss then follows ``assistant_only_loss``, as for release records).
    """
    dataset = open_extra(extra)
    records = []
    for i, raw in enumerate(dataset.to_list()):
        where = f"{extra.path} row {i + 1}"
        rec = _plain_record(raw, kind)
        if kind == "sft":
            check_conversational(rec, where)
        else:
            check_preference(rec, where)
        for column in ("messages",) if kind == "sft" else ("prompt", "chosen", "rejected"):
            for j, m in enumerate(rec[column]):
                if m.get(reasoning_key) is not None and not isinstance(m[reasoning_key], str):
                    raise TrainerInputError(f"{where}: {column}[{j}].{reasoning_key} must be text")
        records.append(rec)
    if not records:
        raise TrainerInputError(f"{extra.path}: the {extra.split} split is empty")
    return records


def _plain_record(raw: dict[str, Any], kind: str) -> dict[str, Any]:
    rec = {k: _without_nulls(v) if isinstance(v, list) else v for k, v in raw.items() if v is not None}
    if kind == "sft" and "messages" not in rec and isinstance(rec.get("prompt"), list) \
            and isinstance(rec.get("completion"), list):
        rec["messages"] = rec.pop("prompt") + rec.pop("completion")
    return rec


def _without_nulls(messages: list[Any]) -> list[Any]:
    return [{k: v for k, v in m.items() if v is not None} if isinstance(m, dict) else m for m in messages]


def describe_extra(extra: ExtraDataset, records: int) -> dict[str, Any]:
    """What the run metadata says about an outside dataset: enough to find and verify it again."""
    return {"name": extra.name, "path": str(extra.path.resolve()), "split": extra.split, "weight": extra.weight,
            "records": records, "sha256": _content_sha256(extra.path)}


def _content_sha256(path: Path) -> str:
    """sha256 of a file, or of a folder's files (relative path and contents, in sorted order)."""
    digest = hashlib.sha256()
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
    for file in files:
        if file != path:
            digest.update(file.relative_to(path).as_posix().encode() + b"\0")
        with file.open("rb") as fh:
            for block in iter(lambda fh=fh: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


# --- preparing ----------------------------------------------------------------------------------------


@dataclass
class Prepared:
    """Datasets ready for a TRL trainer, plus what the checks and the metadata need."""

    train: Any
    eval: Any | None
    #: One mapped record per subset or outside dataset, for the template checks.
    samples: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: Per source (a subset, or ``extra:<name>``): records read, and ``weight``; ``_mixed``: after mixing.
    counts: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: The mapped records of each source before mixing (each once), for the length check.
    train_by_source: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    eval_by_source: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    #: ``describe_extra`` of every outside dataset used, for the run metadata.
    extras: list[dict[str, Any]] = field(default_factory=list)


def prepare(release: Release, weights: Mapping[str, float], *, kind: str, reasoning_key: str,
            seed: int = 42, eval_split: str | None = "validation", need_eval: bool = False,
            max_records_per_subset: int | None = None,
            extra: Sequence[ExtraDataset] = ()) -> Prepared:
    """Read, check, map and mix the chosen subsets and outside datasets into ``datasets.Dataset``s.

    ``kind`` is ``sft`` (conversational subsets, a ``messages`` column) or ``dpo`` (the ``dpo``
    subset: ``prompt``/``chosen``/``rejected`` columns). Outside datasets (``extra``) join the
    training mix only: evaluation stays on the release's own held-out split.
    """
    from datasets import Dataset

    chosen = [name for name, w in weights.items() if w > 0]
    allowed = CONVERSATIONAL if kind == "sft" else PREFERENCE
    wrong = [n for n in chosen if n not in allowed]
    if wrong:
        other = "dpo" if kind == "sft" else "sft"
        raise TrainerInputError(f"subset(s) {', '.join(wrong)} cannot be used for {kind} "
                                f"(use `akgen train {other}`); {kind} takes {', '.join(allowed)}")
    out = Prepared(train=None, eval=None)
    for name in chosen:
        train = read_split(release, name, "train")[:max_records_per_subset]
        val = read_split(release, name, eval_split, required=False) if eval_split else []
        out.train_by_source[name] = [_row(r, kind, reasoning_key) for r in train]
        out.eval_by_source[name] = [_row(r, kind, reasoning_key) for r in val[:max_records_per_subset]]
        out.counts[name] = {"train": len(train), "validation": len(val), "weight": weights[name]}
    mix_weights = {name: weights[name] for name in chosen}
    for entry in (e for e in extra if e.weight > 0):
        records = read_extra(entry, kind=kind, reasoning_key=reasoning_key)[:max_records_per_subset]
        out.train_by_source[entry.key] = [_row(r, kind, reasoning_key) for r in records]
        out.counts[entry.key] = {"train": len(records), "weight": entry.weight}
        out.extras.append(describe_extra(entry, len(records)))
        mix_weights[entry.key] = entry.weight
    if not mix_weights:
        raise TrainerInputError("every subset and outside dataset has weight 0, nothing to train on")
    out.samples = {name: rows[0] for name, rows in out.train_by_source.items()}
    mixed = mix(out.train_by_source, mix_weights, seed)
    out.counts["_mixed"] = {"train": len(mixed)}
    eval_rows = [r for name in sorted(out.eval_by_source) for r in out.eval_by_source[name]]
    if need_eval and not eval_rows:
        raise TrainerInputError(f"evaluation is on (eval_strategy) but the {eval_split} split of "
                                f"{', '.join(chosen) or 'the release'} is empty or absent; set eval_strategy: \"no\"")
    out.train = Dataset.from_list(mixed)
    out.eval = Dataset.from_list(eval_rows) if eval_rows else None
    return out


def _row(rec: dict[str, Any], kind: str, reasoning_key: str) -> dict[str, Any]:
    if kind == "sft":
        return {"messages": map_reasoning(rec["messages"], reasoning_key)}
    return {c: map_reasoning(rec[c], reasoning_key) for c in ("prompt", "chosen", "rejected")}

"""The streaming release builder: examples in, JSONL + dataset card + manifest + zip out.

Pure Python (no Django): the platform feeds it iterators of :class:`Example`, already in a
deterministic order, and it writes each record straight to its split file, keeping only
counters and the decontamination index in memory. Nothing in the output depends on the clock
or the machine: the same inputs give byte-identical files and zip.

Splits are by operator, never by record or slug: ``split_of(task)`` hashes the task's operator
(bench_runner.splits.operator_of), so every record of an operator's tasks (dtype variants and
``_static`` twins included) lands in the same split in every release built with the same
percentage. Records duplicating evaluation-task material are removed before they are written.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench_runner.release_format import PREFERENCE
from bench_runner.splits import operator_of
from releases.decontam import THRESHOLD, Decontaminator
from releases.filters import PERF_MARGIN, SUBSETS
from releases.formats import FORMAT_VERSION, dumps

SPLITS = ("train", "validation")
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
SUBSET_TITLES = {
    "code_cot": "Task prompt → reasoning + kernel (expert explanations)",
    "doc_qa": "AscendC documentation questions with reasoning",
    "api_fix": "Compile failure (task + kernel + log + API declarations) → root cause + passing kernel",
    "kernel_fix": "Wrong or crashing kernel (task + kernel + verifier evidence) → root cause + passing kernel",
    "dpo": "Preference pairs: chosen passed, rejected compiled but failed (same task and prompt)",
    "dpo_perf": "Performance pairs: both passed, chosen modelled faster (both speedups in meta)",
}
SUBSET_KIND = {s: "preference" if s in PREFERENCE else "messages" for s in SUBSETS}


@dataclass(slots=True)
class Example:
    record: dict  # the JSON object of one line (formats.*), its "meta" included
    split_key: str  # the task slug (or "question:<id>" for doc_qa): the unit of splitting
    codes: tuple[tuple[str, str], ...] = ()  # (field, code) pairs checked for contamination


@dataclass
class BuildInput:
    version: int
    filters: dict
    git_revision: str
    subsets: dict[str, Iterable[Example]]
    references: Iterable[tuple[str, str, str]] = ()  # (label, task, code) of evaluation tasks
    eval_tasks: list[str] = field(default_factory=list)
    split: dict = field(default_factory=dict)  # the evaluation split used: {suite: version}
    excluded: dict[str, int] | Callable[[], dict[str, int]] = field(default_factory=dict)
    validation_percent: int = 10
    title: str = ""
    license: str = "cc-by-4.0"
    built_from: str = ""  # a sentence for the card: where the data came from


@dataclass
class BuildResult:
    out_dir: Path
    counts: dict
    files: dict[str, dict]
    records: int


def split_unit(split_key: str) -> str:
    """What is split: a task's operator (its ``_static`` twin and dtype variants go with it), or
    a documentation question as itself."""
    return split_key if split_key.startswith("question:") else operator_of(split_key)


def split_of(split_key: str, validation_percent: int) -> str:
    bucket = int(hashlib.sha256(f"akgen-split:{split_unit(split_key)}".encode()).hexdigest()[:8], 16) % 100
    return "validation" if bucket < validation_percent else "train"


def _contaminated(decon: Decontaminator, subset: str, example: Example, meta: dict) -> bool:
    """Whether the example duplicates evaluation-task material (and is then noted as removed)."""
    for role, code in example.codes:
        hit = decon.contamination(code)
        if hit is not None:
            decon.remove(subset=subset, meta=meta, role=role, hit=hit)
            return True
    return False


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class _HashingWriter:
    """A split file written in binary, hashed as it is written (no second read for the manifest)."""

    def __init__(self, path: Path):
        self.file = path.open("wb")
        self.hash = hashlib.sha256()
        self.bytes = 0

    def write(self, text: str) -> None:
        data = text.encode("utf-8")
        self.file.write(data)
        self.hash.update(data)
        self.bytes += len(data)

    def close(self) -> None:
        self.file.close()


class _Stats:
    def __init__(self) -> None:
        self.splits: dict[str, Counter] = defaultdict(Counter)
        self.levels: dict[str, Counter] = defaultdict(Counter)
        self.categories: dict[str, Counter] = defaultdict(Counter)
        self.review: dict[str, Counter] = defaultdict(Counter)
        self.tasks: dict[str, set] = defaultdict(set)

    def add(self, subset: str, split: str, example: Example) -> None:
        meta = example.record.get("meta") or {}
        self.splits[subset][split] += 1
        self.levels[subset][str(meta.get("level") if meta.get("level") is not None else "none")] += 1
        self.categories[subset][str(meta.get("category") or "none")] += 1
        self.review[subset][str(meta.get("review_state") or "machine-judged")] += 1
        self.tasks[split].add(split_unit(example.split_key))

    def counts(self) -> dict:
        return {
            "subsets": {s: {sp: self.splits[s][sp] for sp in SPLITS} for s in SUBSETS if self.splits[s]},
            "levels": {s: dict(sorted(c.items())) for s, c in sorted(self.levels.items())},
            "categories": {s: dict(sorted(c.items())) for s, c in sorted(self.categories.items())},
            "review": {s: dict(sorted(c.items())) for s, c in sorted(self.review.items())},
            "split_units": {sp: len(self.tasks[sp]) for sp in SPLITS},
        }


def _size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M")):
        if n < limit:
            return label
    return "1M<n<10M"


def build(inp: BuildInput, out_dir: Path, *, progress: Callable[[str, int], None] | None = None,
          every: int = 2000) -> BuildResult:
    """Write the release into ``out_dir`` (created; must not exist) and return its counts."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True)
    decon = Decontaminator()
    for label, task, code in inp.references:
        decon.add_reference(label=label, task=task, code=code)
    stats = _Stats()
    include_eval = bool(inp.filters.get("include_eval_tasks"))
    files: dict[str, dict] = {}
    done = 0
    for subset in SUBSETS:
        if subset not in inp.subsets:
            continue
        if progress:
            progress(subset, done)
        handles: dict[str, _HashingWriter] = {}
        lines = Counter()
        try:
            for example in inp.subsets[subset]:
                meta = example.record.setdefault("meta", {})
                if not include_eval and _contaminated(decon, subset, example, meta):
                    continue
                split = split_of(example.split_key, inp.validation_percent)
                meta["split"] = split
                if not handles:
                    (out_dir / subset).mkdir()
                    for sp in SPLITS:
                        handles[sp] = _HashingWriter(out_dir / subset / f"{sp}.jsonl")
                handles[split].write(dumps(example.record))
                lines[split] += 1
                stats.add(subset, split, example)
                for role, code in example.codes:
                    decon.check(subset=subset, split=split, line=lines[split], task=meta.get("task"), role=role,
                                code=code)
                done += 1
                if progress and done % every == 0:
                    progress(subset, done)
        finally:
            for handle in handles.values():
                handle.close()
        for sp, handle in handles.items():
            files[f"{subset}/{sp}.jsonl"] = {"records": lines[sp], "bytes": handle.bytes,
                                             "sha256": handle.hash.hexdigest()}
    if progress:
        progress("card", done)
    counts = stats.counts()
    excluded = inp.excluded() if callable(inp.excluded) else inp.excluded
    report = decon.report(eval_tasks=inp.eval_tasks, included=include_eval, excluded=excluded)
    report["split"] = inp.split
    counts["decontamination"] = {"overlaps": report["overlaps"]["count"], "removed": report["removed"]["count"],
                                 "train_validation_exact_overlap": report["train_validation_exact_overlap"],
                                 "excluded_records": sum(excluded.values())}
    (out_dir / "decontamination.json").write_text(json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False)
                                                  + "\n", encoding="utf-8")
    (out_dir / "README.md").write_text(dataset_card(inp, counts, report), encoding="utf-8")
    for rel in ("README.md", "decontamination.json"):
        path = out_dir / rel
        files[rel] = {"bytes": path.stat().st_size, "sha256": sha256_file(path)}
    manifest = {
        "name": "ascend-cot",
        "version": inp.version,
        "format": FORMAT_VERSION,
        "filters": inp.filters,
        "git_revision": inp.git_revision,
        "subsets": {s: counts["subsets"].get(s, {"train": 0, "validation": 0}) for s in SUBSETS
                    if s in inp.subsets},
        "empty_subsets": [s for s in SUBSETS if s in inp.subsets and s not in counts["subsets"]],
        "eval_tasks_included": bool(inp.filters.get("include_eval_tasks")),
        "files": dict(sorted(files.items())),
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, sort_keys=True, indent=2, ensure_ascii=False) + "\n",
                                           encoding="utf-8")
    return BuildResult(out_dir=out_dir, counts=counts, files=manifest["files"], records=done)


def _split_text(split: dict) -> str:
    return ", ".join(f"`{version}` ({suite})" for suite, version in sorted(split.items()))


def _yaml_str(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid YAML scalar


def dataset_card(inp: BuildInput, counts: dict, report: dict) -> str:
    subsets = counts["subsets"]
    total = sum(sum(v.values()) for v in subsets.values())
    title = inp.title or f"Ascend-CoT v{inp.version}"
    y = ["---", f"pretty_name: {_yaml_str(title)}", f"license: {inp.license}", "language:", "- en",
         "task_categories:", "- text-generation", "tags:", "- ascendc", "- ascend", "- npu", "- kernels", "- code",
         "- chain-of-thought", "size_categories:", f"- {_size_category(total)}",
         "configs:" if subsets else "configs: []"]
    first = True
    for subset in SUBSETS:
        if subset not in subsets:
            continue
        y += [f"- config_name: {subset}", "  data_files:"]
        for sp in SPLITS:
            if subsets[subset][sp]:
                y += [f"  - split: {sp}", f"    path: {subset}/{sp}.jsonl"]
        if first:
            y.append("  default: true")
            first = False
    y.append("dataset_info:" if subsets else "dataset_info: []")
    for subset in SUBSETS:
        if subset not in subsets:
            continue
        y += [f"- config_name: {subset}", "  splits:"]
        for sp in SPLITS:
            if subsets[subset][sp]:
                y += [f"  - name: {sp}", f"    num_examples: {subsets[subset][sp]}"]
    y.append("---")
    body = [f"# {title}", "",
            "Ascend-CoT: AscendC kernel-writing data from the akgen platform, in TRL's conversational formats "
            "(`messages` with the assistant's reasoning in its own `reasoning` field; `prompt`/`chosen`/`rejected` "
            "for preferences). Load a subset with `datasets.load_dataset(\"json\", data_files=...)` or "
            "`load_dataset(<folder>, \"<subset>\")`.", "",
            "## Subsets", "", "| subset | format | train | validation | what |", "|---|---|---:|---:|---|"]
    for subset in SUBSETS:
        if subset in subsets:
            body.append(f"| `{subset}` | {SUBSET_KIND[subset]} | {subsets[subset]['train']} | "
                        f"{subsets[subset]['validation']} | {SUBSET_TITLES[subset]} |")
    empty = [s for s in SUBSETS if s in inp.subsets and s not in subsets]
    if empty:
        body += ["", "Empty (no records matched, no files): " + ", ".join(f"`{s}`" for s in empty) + "."]
    body += ["", f"Total: {total} records. Split by operator ({inp.validation_percent}% of operators in "
             f"validation; a task's dtype variants and static twin go with it): "
             f"{counts['split_units']['train']} operators/questions in train, "
             f"{counts['split_units']['validation']} in validation; none is in both.", ""]
    body += ["## Records per level and category", "", "| subset | levels | categories |", "|---|---|---|"]
    for subset in SUBSETS:
        if subset in subsets:
            levels = ", ".join(f"L{k}: {v}" if k != "none" else f"none: {v}"
                               for k, v in counts["levels"].get(subset, {}).items())
            cats = ", ".join(f"{k}: {v}" for k, v in counts["categories"].get(subset, {}).items())
            body.append(f"| `{subset}` | {levels} | {cats} |")
    body += ["", "## Review coverage", "", "| subset | review state of the source | records |", "|---|---|---:|"]
    for subset in SUBSETS:
        for state, n in counts["review"].get(subset, {}).items():
            body.append(f"| `{subset}` | {state} | {n} |")
    body += ["", "Annotation records (code_cot, doc_qa, and api_fix / kernel_fix with `source: fix`) come from the "
             "expert workspace and carry the annotation's review state; they take precedence over automatic "
             "records of the same failing kernel. Automatic correction records (`source: auto`, machine-judged) "
             "pair a run's failing sample and the evaluator's evidence with a passing kernel: the same model's "
             "passing sample of the task, or, for training tasks only, the expert kernel (`meta.target`). "
             "Every fixed kernel was judged passing by the evaluator. Preference pairs are machine-judged: "
             "chosen compiled and passed, rejected compiled and failed, for the same task version and prompt; "
             "performance pairs (dpo_perf) have both passed with unflagged timings, the chosen at least "
             f"{PERF_MARGIN}x faster. Answers keep the reasoning their model sent (`reasoning`).", ""]
    body += ["## Decontamination", "",
             f"Evaluation tasks of the benchmark: {len(report['eval_tasks'])}; "
             + ("**included on request**" if report["eval_tasks_included"] else "excluded from every subset")
             + f" ({sum(report['excluded_records'].values())} records left out)"
             + (f", held out by operator with split list {_split_text(inp.split)}. " if inp.split else ". ")
             + "Code of every other record was checked against their expert kernels (exact, and near-duplicate "
             f"at Jaccard similarity >= {THRESHOLD} of 2-line shingles): "
             + (f"{report['overlaps']['count']} overlaps found and kept (included on request)"
                if report["eval_tasks_included"] else f"{report['removed']['count']} records removed")
             + f"; same kernel in train and validation: {report['train_validation_exact_overlap']}. "
             "Every removal is listed in `decontamination.json`.", ""]
    filters = ", ".join(f"{k}={json.dumps(v)}" for k, v in inp.filters.items())
    body += ["## How it was built", "",
             (inp.built_from + " " if inp.built_from else "")
             + f"Built by akgen at git revision `{inp.git_revision}` with filters: {filters}. "
             "`manifest.json` lists the sha256 of every file; rebuilding with the same filters from the same data "
             "gives byte-identical files.", "",
             "Every record has a `meta` object: subset, task and task version, level, category, split, the source "
             "ids (annotation, item, submissions, runs), pseudonymised annotator and reviewer (keyed hashes, stable "
             "within one platform), verdicts, toolchain and creation time.", ""]
    return "\n".join(y) + "\n\n" + "\n".join(body)


ZIP_LEVEL = 1  # JSONL repeats prompts: level 1 already shrinks it ~10x, at several times level 6's speed


def zip_release(out_dir: Path, zip_path: Path, *, prefix: str) -> str:
    """A deterministic zip of ``out_dir`` (sorted names, fixed dates and modes); returns its sha256."""
    tmp = zip_path.with_name(zip_path.name + f".tmp{os.getpid()}")
    names = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*") if p.is_file())
    with zipfile.ZipFile(tmp, "w", compresslevel=ZIP_LEVEL) as zf:
        for name in names:
            info = zipfile.ZipInfo(f"{prefix}/{name}", date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            with (out_dir / name).open("rb") as src, zf.open(info, "w", force_zip64=True) as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    os.replace(tmp, zip_path)
    return sha256_file(zip_path)


def iter_lines(path: Path, *, offset: int = 0, limit: int = 20) -> Iterator[tuple[int, str]]:
    """(1-based line number, text) of ``limit`` lines of a JSONL file from line ``offset``."""
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            if n < offset:
                continue
            if n >= offset + limit:
                break
            yield n + 1, line

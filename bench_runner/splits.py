"""Which tasks are held out: the benchmark's evaluation split, by operator, never by slug.

A suite's tasks come in families that share a specification and an expert kernel: a dynamic
task and its derived ``_static`` variant, and the dtype variants of one operator
(``softmax_fp16_rows`` / ``softmax_fp32_rows``). Splitting by slug put one member of a family
in evaluation and its twin, with a byte-identical expert, in training. The unit here is the
*operator* (:func:`operator_of`): every task of an operator is in the same split.

A suite may carry its evaluation operators as a versioned list (``splits.toml`` at the suite's
root: ``version`` and ``eval``); without one, a stable hash of the operator name holds out
``DEFAULT_EVAL_PERCENT`` per cent. Releases, ``akgen generate --tasks eval`` and the platform's
benchmark mode all ask this module, so there is one answer to "is this task held out".
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from bench_runner.errors import TaskFormatError

#: The derived static variant's suffix (bench_runner.tasks.STATIC_SUFFIX, which imports it).
STATIC_SUFFIX = "_static"
#: The file a suite lists its evaluation operators in.
SPLIT_FILE = "splits.toml"
#: Share of operators held out when a suite has no list (and the platform sets none).
DEFAULT_EVAL_PERCENT = 20
SPLITS = ("eval", "train")
#: Dtype spellings that appear as words of task slugs; a dtype variant is the same operator.
_DTYPE_WORDS = frozenset({"fp16", "fp32", "fp64", "bf16", "half", "float", "int4", "int8", "int16", "int32",
                          "int64", "uint8", "uint16", "uint32", "bool"})


def operator_of(slug: str) -> str:
    """The operator a task slug belongs to: ``_static`` and dtype words removed.

    ``add_fp16_static`` and ``add_bf16`` are both ``add``; ``cast_fp16_to_fp32`` is ``cast_to``
    (every cast is one family: their kernels differ only in the conversion call).
    """
    base = slug.removesuffix(STATIC_SUFFIX)
    words = [w for w in re.split(r"_+", base) if w and w not in _DTYPE_WORDS]
    return "_".join(words) or base


def hashed_is_eval(operator: str, percent: int = DEFAULT_EVAL_PERCENT) -> bool:
    """The fallback rule: a stable ``percent`` per cent of operator names, by sha256."""
    return int(hashlib.sha256(f"akgen-eval:{operator}".encode()).hexdigest()[:8], 16) % 100 < percent


@dataclass(frozen=True, slots=True)
class SplitList:
    """A suite's evaluation operators as its ``splits.toml`` states them."""

    version: str
    eval: frozenset[str]
    source: str  # the file, or "hash:<percent>" for the fallback rule

    def is_eval(self, slug: str) -> bool:
        return operator_of(slug) in self.eval

    def split_of(self, slug: str) -> str:
        return "eval" if self.is_eval(slug) else "train"


def read_split_list(root: Path) -> SplitList | None:
    """The suite's ``splits.toml``, or None when it has none; a malformed file is an error."""
    path = Path(root) / SPLIT_FILE
    if not path.is_file():
        return None
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise TaskFormatError(str(path), "toml", "a valid TOML file", str(exc)) from None
    version, names = data.get("version"), data.get("eval")
    if not isinstance(version, str) or not version.strip():
        raise TaskFormatError(str(path), "version", "a non-empty string naming this list's version", version)
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise TaskFormatError(str(path), "eval", "a list of operator names", names)
    return SplitList(version=version.strip(), eval=frozenset(names), source=str(path))


def split_list(root: Path | None, slugs: Iterable[str], *, percent: int = DEFAULT_EVAL_PERCENT) -> SplitList:
    """The suite's list if it has one, else the hash rule over the operators of ``slugs``."""
    listed = read_split_list(root) if root is not None else None
    if listed is not None:
        return listed
    ops = {operator_of(s) for s in slugs}
    return SplitList(version=f"hash-{percent}", eval=frozenset(o for o in ops if hashed_is_eval(o, percent)),
                     source=f"hash:{percent}")


def select(slugs: Iterable[str], which: str, split: SplitList) -> list[str]:
    """``slugs`` restricted to ``which`` (eval, train or all), order kept."""
    if which == "all":
        return list(slugs)
    if which not in SPLITS:
        raise ValueError(f"unknown split {which!r}: expected eval, train or all")
    return [s for s in slugs if split.split_of(s) == which]

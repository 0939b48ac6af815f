"""Token lengths of every record, measured before a model is loaded, so TRL drops nothing silently.

TRL cuts a record longer than ``max_length`` without a word: SFT truncates it and then drops it
if no loss token is left (a long prompt with assistant-only loss), DPO truncates prompt+chosen and
prompt+rejected and drops the pair when the prompt alone fills ``max_length``. A release of real
records (2-5k tokens) under a 256-token limit once trained on 2 records of 22 and crashed DPO with
``num_samples=0``. So every train and eval record is tokenized here with the recipe's tokenizer
and chat template, the way TRL 1.16 will (``apply_chat_template(..., tokenize=True,
return_dict=True)`` on the whole conversation; for DPO prompt+chosen and prompt+rejected, the
prompt rendered with the generation prompt), and training stops with the counts when any record
would lose tokens, unless ``max_truncated_fraction`` allows a share of them.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from trainer.errors import TrainerInputError

#: Conversations rendered and tokenized per ``apply_chat_template`` call.
BATCH = 64


@dataclass
class SourceLengths:
    """The token lengths of one source's records in one split, against the limits."""

    source: str
    split: str
    lengths: list[int]
    #: Indexes of records longer than a limit: TRL would cut their end.
    over: list[int] = field(default_factory=list)
    #: Indexes (among ``over``) of records that TRL would drop: no token of the loss survives the cut.
    dropped: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return self.source if self.split == "train" else f"{self.source}/{self.split}"

    def stats(self) -> str:
        if not self.lengths:
            return f"{self.label} 0"
        return (f"{self.label} {len(self.lengths)} × median {int(statistics.median(self.lengths))}, "
                f"max {max(self.lengths)}")


@dataclass
class LengthReport:
    """Lengths of every source and split, and the limit TRL applies (``None``: no cut)."""

    limits: dict[str, int]
    sources: list[SourceLengths]

    @property
    def records(self) -> int:
        return sum(len(s.lengths) for s in self.sources)

    @property
    def over(self) -> int:
        return sum(len(s.over) for s in self.sources)

    def summary_line(self) -> str:
        limits = ", ".join(f"{k} {v}" for k, v in self.limits.items()) or "no length limit"
        return f"tokens per record ({limits}): " + "; ".join(s.stats() for s in self.sources)

    def as_dict(self) -> dict[str, Any]:
        """For akgen_run.json: per source and split, records, median, max, over the limit, dropped."""
        return {"limits": dict(self.limits), "sources": {
            s.label: {"records": len(s.lengths), "median": int(statistics.median(s.lengths)) if s.lengths else 0,
                      "max": max(s.lengths, default=0), "over_limit": len(s.over), "dropped": len(s.dropped)}
            for s in self.sources}}


def _batches(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), BATCH):
        yield items[start:start + BATCH]


def _input_ids(tokenizer: Any, conversations: Sequence[list[dict[str, Any]]], **kwargs: Any) -> list[list[int]]:
    """``input_ids`` of each conversation, exactly as TRL's ``_tokenize`` gets them (batched here)."""
    out: list[list[int]] = []
    for batch in _batches(conversations):
        encoded = tokenizer.apply_chat_template(list(batch), tokenize=True, return_dict=True, **kwargs)
        out.extend(list(ids) for ids in encoded["input_ids"])
    return out


# --- SFT -----------------------------------------------------------------------------------------


def sft_limit(train_args: Any) -> int | None:
    """The length past which SFTTrainer cuts a record, or None when it cuts nothing.

    Without packing it truncates at ``max_length``, except with ``padding_free``, where TRL does
    not enforce it. Packing with ``bfd`` truncates what does not fit; ``bfd_split`` and
    ``wrapped`` carry the overflow into the next block, so no token is lost.
    """
    max_length = getattr(train_args, "max_length", None)
    if not max_length:
        return None
    if getattr(train_args, "packing", False):
        return max_length if getattr(train_args, "packing_strategy", "bfd") == "bfd" else None
    return None if getattr(train_args, "padding_free", False) else max_length


def measure_sft(tokenizer: Any, template: str, rows_by_source: Mapping[str, Sequence[dict[str, Any]]], *,
                split: str, max_length: int | None, assistant_only_loss: bool,
                truncation_mode: str = "keep_start") -> list[SourceLengths]:
    """Lengths of the ``messages`` of each source's rows rendered with ``template``.

    With assistant-only loss, an over-long record whose kept part (the first ``max_length`` tokens,
    or the last with ``keep_end``) holds no assistant token keeps no loss token, and TRL drops it;
    without, every token is in the loss and a cut record is only truncated.
    """
    out = []
    for source, rows in rows_by_source.items():
        conversations = [r["messages"] for r in rows]
        lengths = [len(ids) for ids in _input_ids(tokenizer, conversations, chat_template=template)]
        measured = SourceLengths(source, split, lengths)
        if max_length:
            measured.over = [i for i, n in enumerate(lengths) if n > max_length]
        for i in measured.over if assistant_only_loss else ():
            mask = list(tokenizer.apply_chat_template(conversations[i], tokenize=True, return_dict=True,
                                                      chat_template=template,
                                                      return_assistant_tokens_mask=True)["assistant_masks"])
            kept = mask[-max_length:] if truncation_mode == "keep_end" else mask[:max_length]
            if 1 not in kept:
                measured.dropped.append(i)
        out.append(measured)
    return out


# --- DPO -----------------------------------------------------------------------------------------


def dpo_limits(train_args: Any) -> dict[str, int]:
    """The DPOConfig length fields the installed TRL has and the recipe sets.

    TRL 1.16 has only ``max_length`` (prompt + completion, cut by the collator); older versions
    also cut the prompt at ``max_prompt_length`` and the answer at ``max_completion_length``.
    """
    names = ("max_length", "max_prompt_length", "max_completion_length")
    return {n: int(getattr(train_args, n)) for n in names if getattr(train_args, n, None)}


def measure_dpo(tokenizer: Any, rows_by_source: Mapping[str, Sequence[dict[str, Any]]], *, split: str,
                limits: Mapping[str, int], keep_start: bool = True) -> list[SourceLengths]:
    """Length of each pair's longer side (prompt+chosen or prompt+rejected), with the tokenizer's
    own chat template as DPOTrainer uses it. With ``keep_start`` truncation (the default) TRL drops
    a pair whose prompt alone reaches ``max_length``."""
    from trl.data_utils import common_prefix_length

    out = []
    for source, rows in rows_by_source.items():
        prompt = _input_ids(tokenizer, [r["prompt"] for r in rows], add_generation_prompt=True)
        chosen = _input_ids(tokenizer, [r["prompt"] + r["chosen"] for r in rows])
        rejected = _input_ids(tokenizer, [r["prompt"] + r["rejected"] for r in rows])
        measured = SourceLengths(source, split, [max(len(c), len(r)) for c, r in zip(chosen, rejected, strict=True)])
        max_length = limits.get("max_length")
        for i, (p, c, r) in enumerate(zip(prompt, chosen, rejected, strict=True)):
            prompt_len = min(common_prefix_length(p, c), common_prefix_length(p, r))
            sizes = {"max_length": measured.lengths[i], "max_prompt_length": prompt_len,
                     "max_completion_length": measured.lengths[i] - prompt_len}
            if any(sizes[name] > limit for name, limit in limits.items()):
                measured.over.append(i)
                if max_length and keep_start and prompt_len >= max_length:
                    measured.dropped.append(i)
        out.append(measured)
    return out


# --- the verdict ---------------------------------------------------------------------------------


def enforce(report: LengthReport, *, max_truncated_fraction: float) -> str | None:
    """Raise when more records would be cut than ``max_truncated_fraction`` of them allows (0: none);
    return a warning line when some are cut within it, else None."""
    if not 0 <= max_truncated_fraction <= 1:
        raise TrainerInputError(f"max_truncated_fraction must be between 0 and 1, got {max_truncated_fraction}")
    if not report.over:
        return None
    limit = ", ".join(f"{k} {v}" for k, v in report.limits.items())
    detail = "; ".join(
        f"{s.label}: {len(s.over)} of {len(s.lengths)} (longest {max(s.lengths)} tokens"
        + (f", {len(s.dropped)} dropped entirely: the prompt alone fills the limit" if s.dropped else "") + ")"
        for s in report.sources if s.over)
    share = report.over / max(report.records, 1)
    all_dropped = any(s.lengths and len(s.dropped) == len(s.lengths) for s in report.sources)
    if share > max_truncated_fraction or all_dropped:
        longest = max(max(s.lengths) for s in report.sources if s.over)
        raise TrainerInputError(
            f"{report.over} of {report.records} records are longer than {limit} and TRL would truncate or drop "
            f"them silently — {detail}. Raise max_length to at least {longest} (the model's context permitting), "
            "filter the long records out of the data, or allow a share of cut records with "
            f"max_truncated_fraction (now {max_truncated_fraction:g})")
    return (f"warning: {report.over} of {report.records} records ({share:.1%}, within max_truncated_fraction "
            f"{max_truncated_fraction:g}) are longer than {limit} and lose their end — {detail}")


def check_kept(what: str, expected: int, kept: int, *, cut_allowed: bool) -> str | None:
    """After the trainer prepared its dataset: stop if TRL dropped records the length check did not
    foresee (``cut_allowed`` False), else return a line saying how many it kept."""
    if kept == expected:
        return None
    message = f"TRL kept {kept} of the {expected} {what} records"
    if not cut_allowed:
        raise TrainerInputError(message + " although none is longer than the limit; please report this "
                                "(chat template or TRL version mismatch) and check the records' token lengths")
    return message + " (the rest were cut entirely, within max_truncated_fraction)"


# --- one call per trainer ------------------------------------------------------------------------


def _splits(prepared: Any, eval_split: str | None) -> list[tuple[str, Mapping[str, Sequence[dict[str, Any]]]]]:
    """(split name, rows by source) for the train rows and, when evaluation is on, the eval rows."""
    evals = {name: rows for name, rows in prepared.eval_by_source.items() if rows}
    return [("train", prepared.train_by_source)] + ([(eval_split or "eval", evals)] if evals else [])


def report_sft(tokenizer: Any, template: str, prepared: Any, train_args: Any,
               eval_split: str | None = None) -> LengthReport:
    """The lengths of every SFT record (each source's records once, before mixing) against the limit
    SFTTrainer applies with ``train_args``."""
    limit = sft_limit(train_args)
    sources = [m for split, rows in _splits(prepared, eval_split)
               for m in measure_sft(tokenizer, template, rows, split=split, max_length=limit,
                                    assistant_only_loss=bool(train_args.assistant_only_loss),
                                    truncation_mode=str(getattr(train_args, "truncation_mode", "keep_start")))]
    return LengthReport({"max_length": limit} if limit else {}, sources)


def report_dpo(tokenizer: Any, prepared: Any, train_args: Any, eval_split: str | None = None) -> LengthReport:
    """The lengths of every DPO pair against the DPOConfig limits (see :func:`dpo_limits`)."""
    limits = dpo_limits(train_args)
    keep_start = str(getattr(train_args, "truncation_mode", "keep_start")) == "keep_start"
    sources = [m for split, rows in _splits(prepared, eval_split)
               for m in measure_dpo(tokenizer, rows, split=split, limits=limits, keep_start=keep_start)]
    return LengthReport(limits, sources)

"""The structured sections of an annotation, per queue kind.

Explanations mirror how an AscendC expert reasons about a kernel, one section per concern, so
that exported chain-of-thought has the same shape for every kernel. Section kinds are part of
the export format: add new ones, never rename one.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotations.models import QueueKind


@dataclass(frozen=True, slots=True)
class SectionKind:
    key: str
    title: str
    hint: str
    linkable: bool = True  # may point at a line range of the code


EXPLAIN_SECTIONS = (
    SectionKind("partitioning", "Data partitioning across cores and tiles",
                "How is the data split over block_dim cores, and each core's share into tiles? Why these sizes?"),
    SectionKind("pipeline", "Pipeline and queue design",
                "CopyIn / Compute / CopyOut stages, TQue positions and depth (BUFFER_NUM), double buffering."),
    SectionKind("sync", "Synchronisation",
                "EnQue/DeQue hand-offs, flags or barriers between pipes and cores; what would race without them."),
    SectionKind("tail", "Boundary and tail handling",
                "Lengths that do not divide evenly, the last tile, 32-byte alignment of copies."),
    SectionKind("layout", "Layout",
                "How tensors are laid out in global and local memory; strides, transposes, padding."),
    SectionKind("dtype", "Dtype and precision",
                "Input/compute/output dtypes, casts, accumulation precision, where rounding happens."),
    SectionKind("perf", "Performance reasoning",
                "Which pipe bounds the kernel, what overlaps, what the next optimisation would be."),
)

FIX_SECTIONS = (
    SectionKind("fix", "What the fix changes and why",
                "The change in the fixed kernel, and why it removes the root cause.", linkable=False),
)

DOCQA_SECTIONS = (
    SectionKind("reasoning", "Reasoning", "How the programming model leads to the answer.", linkable=False),
    SectionKind("answer", "Answer", "The answer itself, as a reader should quote it.", linkable=False),
)

SECTIONS: dict[str, tuple[SectionKind, ...]] = {
    QueueKind.EXPLAIN: EXPLAIN_SECTIONS,
    QueueKind.FIX: FIX_SECTIONS,
    QueueKind.DOCQA: DOCQA_SECTIONS,
}

MAX_SECTION_CHARS = 20_000
MAX_DIAGNOSIS_CHARS = 20_000


def section_kinds(queue_kind: str) -> tuple[SectionKind, ...]:
    return SECTIONS.get(queue_kind, ())


def section_title(queue_kind: str, key: str) -> str:
    for kind in section_kinds(queue_kind):
        if kind.key == key:
            return kind.title
    return key.replace("_", " ").capitalize()


def category_choices() -> list[tuple[str, str]]:
    """The evaluator's taxonomy (bench_runner.taxonomy), code and title."""
    try:
        from bench_runner.taxonomy import TITLES
    except ImportError:  # the evaluator is optional for the site's read side
        return [("other", "other (unclassified)")]
    return [(str(code), title) for code, title in TITLES.items()]

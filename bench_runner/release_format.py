"""The subsets an Ascend-CoT release holds, and their record shape: the one list the platform's
builder writes, `akgen export` offers and `akgen train` reads (docs/releases.md).

Conversational subsets hold ``{"messages": [...], "meta": {...}}``; preference subsets hold
``{"prompt", "chosen", "rejected", "meta"}`` (TRL's conversational preference format).
"""

from __future__ import annotations

CONVERSATIONAL: tuple[str, ...] = ("code_cot", "doc_qa", "api_fix", "kernel_fix")
#: ``dpo``: passed over compiled-but-wrong; ``dpo_perf``: passed and faster over passed and slower.
PREFERENCE: tuple[str, ...] = ("dpo", "dpo_perf")
SUBSETS: tuple[str, ...] = CONVERSATIONAL + PREFERENCE

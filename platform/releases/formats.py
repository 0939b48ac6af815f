"""The record format of Ascend-CoT (docs/releases.md): TRL's conversational formats.

Pure functions from plain values to the JSON objects written one per line; no Django, so the
trainer side and the tests can rely on exactly this shape. Conversational subsets:
``{"messages": [system, user, assistant{content, reasoning}], "meta": {...}}``; dpo:
``{"prompt": [system, user], "chosen": [assistant], "rejected": [assistant], "meta": {...}}``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime

FORMAT_VERSION = 1

SYSTEM_KERNEL = ("You are an expert AscendC kernel engineer for Huawei Ascend NPUs. Think through the "
                 "tiling, the pipeline and the hardware rules, then answer with complete, compilable code.")
SYSTEM_FIX = ("You are an expert AscendC kernel engineer for Huawei Ascend NPUs. You are given a kernel that "
              "failed to compile or to produce correct results, with its log. Find the root cause, explain it, "
              "and answer with the corrected kernel.")
SYSTEM_DOC = ("You are an expert on AscendC programming and the Ascend NPU architecture. Answer the question "
              "accurately and concisely.")


def dumps(record: dict) -> str:
    """One JSONL line: keys sorted, UTF-8 (no ASCII escaping), compact, ending in a newline."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def timestamp(value: datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def pseudonym(key: bytes, user_id: int | None) -> str | None:
    """A stable, keyed, irreversible name for a platform user id (HMAC-SHA256, 16 hex digits)."""
    if user_id is None:
        return None
    return "u_" + hmac.new(key, f"user:{user_id}".encode(), hashlib.sha256).hexdigest()[:16]


def _block(code: str) -> str:
    return "```cpp\n" + code.rstrip("\n") + "\n```"


def _tagged(code: str, name: str) -> str:
    first = code.split("\n", 1)[0].strip().replace(" ", "")
    if first == f"//file:{name}":
        return code
    return f"// file: {name}\n" + code


def answer_code(kernel: str, host: str | None, path: str) -> str:
    """The kernel as bench_runner.prompt's format rules ask: one ```cpp block (device_only) or two
    blocks tagged ``// file: kernel.cpp`` and ``// file: host.cpp`` (host_device)."""
    if path == "host_device":
        return _block(_tagged(kernel, "kernel.cpp")) + "\n\n" + _block(_tagged(host or "", "host.cpp"))
    return _block(kernel)


def _where(lines) -> str:
    """" (lines 6–9, 14)" for a section's linked ranges ([[a, b], ...], or one [a, b] pair as
    sections stored before several ranges were possible)."""
    if isinstance(lines, list | tuple) and len(lines) == 2 and all(isinstance(n, int) for n in lines):
        lines = [lines]
    if not isinstance(lines, list | tuple):
        return ""
    ranges = [r for r in lines if isinstance(r, list | tuple) and len(r) == 2 and all(isinstance(n, int) for n in r)]
    if not ranges:
        return ""
    text = ", ".join(f"{a}" if a == b else f"{a}–{b}" for a, b in ranges)
    single = len(ranges) == 1 and ranges[0][0] == ranges[0][1]
    return f" (line {text})" if single else f" (lines {text})"


def sections_markdown(sections: list[dict], titles: dict[str, str]) -> str:
    """An annotation's sections as markdown, a ``##`` heading per section (empty ones left out)."""
    parts = []
    for section in sections:
        text = str(section.get("text") or "").strip()
        if not text:
            continue
        kind = str(section.get("kind") or "")
        title = titles.get(kind) or kind.replace("_", " ").capitalize() or "Notes"
        where = _where(section.get("lines"))
        parts.append(f"## {title}{where}\n\n{text}")
    return "\n\n".join(parts)


def conversation(system: str, user: str, answer: str, reasoning: str, meta: dict) -> dict:
    return {
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": user},
            {"role": "assistant", "content": answer, "reasoning": reasoning},
        ],
        "meta": meta,
    }


def code_cot(*, prompt: str, kernel: str, host: str | None, path: str, reasoning: str, meta: dict) -> dict:
    return conversation(SYSTEM_KERNEL, prompt, answer_code(kernel, host, path), reasoning, meta)


def fix_user(*, title: str, kernel: str, log: str, api_notes: str = "", spec: str = "") -> str:
    """The user turn of a correction record: the task as its author was given it (spec and
    signature), the failing kernel, its log and the notes on the APIs the log names."""
    parts = [f"Task: {title}"]
    if spec.strip():
        parts += ["The task, as it was given:", spec.strip()]
    parts += ["This AscendC kernel fails:", _block(kernel),
              "Log:", "```text\n" + (log.rstrip("\n") or "(no log)") + "\n```"]
    if api_notes.strip():
        parts += ["Relevant API notes:", api_notes.strip()]
    parts.append("Diagnose the root cause and give the corrected kernel.")
    return "\n\n".join(parts)


def fix(*, title: str, kernel: str, log: str, api_notes: str, diagnosis: str, fixed_kernel: str,
        reasoning: str, meta: dict, spec: str = "", fixed_host: str | None = None, path: str = "device_only") -> dict:
    answer = (diagnosis.strip() + "\n\n" if diagnosis.strip() else "") + answer_code(fixed_kernel, fixed_host, path)
    return conversation(SYSTEM_FIX, fix_user(title=title, kernel=kernel, log=log, api_notes=api_notes, spec=spec),
                        answer, reasoning, meta)


def doc_qa(*, question: str, answer: str, reasoning: str, meta: dict) -> dict:
    return conversation(SYSTEM_DOC, question.strip(), answer.strip(), reasoning.strip(), meta)


def _assistant(content: str, reasoning: str) -> dict:
    message = {"role": "assistant", "content": content}
    if reasoning.strip():
        message["reasoning"] = reasoning.strip()
    return message


def dpo(*, prompt: str, chosen: str, rejected: str, meta: dict, chosen_reasoning: str = "",
        rejected_reasoning: str = "") -> dict:
    """A preference pair; each answer keeps the reasoning its model sent with it (when it did)."""
    return {
        "prompt": [{"role": "system", "content": SYSTEM_KERNEL}, {"role": "user", "content": prompt}],
        "chosen": [_assistant(chosen, chosen_reasoning)],
        "rejected": [_assistant(rejected, rejected_reasoning)],
        "meta": meta,
    }

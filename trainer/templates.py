"""Chat-template checks run before training: the reasoning must reach the model.

A chat template can drop reasoning without any error (stock Qwen3 drops it from assistant turns
before the last user turn; DeepSeek-R1-distill drops everything before ``</think>``), and an
assistant-only loss needs ``{% generation %}`` markers or it trains on nothing. So the trainer
renders one sample of every subset with the template TRL will use and stops with a clear error
when the reasoning or the answer is missing from the text, or, with assistant-only loss, when
the loss mask is empty or leaves the reasoning out.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trainer.errors import TrainerInputError

#: How much of a reasoning or answer text must appear verbatim in the rendering.
PROBE_CHARS = 160


@dataclass
class RenderCheck:
    subset: str
    tokens: int
    loss_tokens: int | None
    rendered: str

    def line(self) -> str:
        loss = "" if self.loss_tokens is None else f", {self.loss_tokens} in the loss"
        return f"{self.subset}: {self.tokens} tokens{loss}, reasoning and answer present"


def load_template_file(path: str | None) -> str | None:
    if not path:
        return None
    file = Path(path).expanduser()
    if not file.is_file() or file.suffix not in (".jinja", ".j2"):
        raise TrainerInputError(f"chat_template_path must be an existing .jinja file, got {path}")
    return file.read_text(encoding="utf-8")


def training_template(tokenizer: Any, *, assistant_only_loss: bool, override: str | None = None) -> str:
    """The chat template training will use: ``override`` or the tokenizer's, and for
    assistant-only loss one with ``{% generation %}`` markers (TRL's training variant of a known
    family when the template has none)."""
    from trl.chat_template_utils import get_training_chat_template, has_generation_markers

    template = override or tokenizer.chat_template
    if not template:
        raise TrainerInputError("the tokenizer has no chat template; set chat_template_path to a .jinja file")
    if assistant_only_loss and not has_generation_markers(template):
        saved = tokenizer.chat_template
        tokenizer.chat_template = template
        try:
            patched = get_training_chat_template(tokenizer)
        except ValueError as exc:
            raise TrainerInputError(
                "assistant_only_loss needs {% generation %} markers in the chat template and TRL has no "
                f"training variant of this one ({exc}); give one with chat_template_path") from None
        finally:
            tokenizer.chat_template = saved
        if patched:
            template = patched
    return template


def _probe(text: str) -> str:
    text = text.strip()
    return text[:PROBE_CHARS].strip() if len(text) <= PROBE_CHARS else text[:PROBE_CHARS].rsplit(None, 1)[0]


def check_conversation(tokenizer: Any, template: str, messages: list[dict[str, Any]], *, subset: str,
                       reasoning_key: str, assistant_only_loss: bool) -> RenderCheck:
    """Render one conversation; raise if its reasoning or answer is lost, or the loss mask is empty."""
    rendered = tokenizer.apply_chat_template(messages, tokenize=False, chat_template=template)
    _require_turns(rendered, messages, subset=subset, reasoning_key=reasoning_key)
    encoded = tokenizer.apply_chat_template(messages, tokenize=True, return_dict=True, chat_template=template,
                                            return_assistant_tokens_mask=assistant_only_loss)
    ids = list(encoded["input_ids"])
    loss_tokens = None
    if assistant_only_loss:
        mask = list(encoded.get("assistant_masks") or [])
        loss_tokens = sum(mask)
        if not loss_tokens:
            raise TrainerInputError(
                f"subset {subset}: the assistant-only loss mask is empty with this chat template (no "
                "{% generation %} block covers the assistant turn), so training would learn nothing")
        trained = tokenizer.decode([t for t, m in zip(ids, mask, strict=False) if m])
        for m in messages:
            if m["role"] == "assistant" and m.get(reasoning_key) and _probe(m[reasoning_key]) not in trained:
                raise TrainerInputError(
                    f"subset {subset}: the reasoning is rendered but falls outside the assistant-only "
                    "loss mask; move it inside the template's {% generation %} block")
    return RenderCheck(subset, len(ids), loss_tokens, rendered)


def check_preference(tokenizer: Any, template: str, row: dict[str, Any], *, subset: str,
                     reasoning_key: str) -> RenderCheck:
    """Render prompt + chosen and prompt + rejected the way DPO will; raise if anything is lost.

    ``loss_tokens`` is the longer completion: what DPO's loss covers, the tokens after the prompt
    rendered with the generation prompt (TRL takes their common prefix).
    """
    from trl.data_utils import common_prefix_length

    prompt_ids = list(tokenizer.apply_chat_template(row["prompt"], tokenize=True, return_dict=True,
                                                    add_generation_prompt=True, chat_template=template)["input_ids"])
    tokens, completion_tokens, rendered = 0, 0, ""
    for column in ("chosen", "rejected"):
        messages = row["prompt"] + row[column]
        rendered = tokenizer.apply_chat_template(messages, tokenize=False, chat_template=template)
        _require_turns(rendered, messages, subset=f"{subset}/{column}", reasoning_key=reasoning_key)
        ids = list(tokenizer.apply_chat_template(messages, tokenize=True, return_dict=True,
                                                 chat_template=template)["input_ids"])
        tokens = max(tokens, len(ids))
        completion_tokens = max(completion_tokens, len(ids) - common_prefix_length(prompt_ids, ids))
    return RenderCheck(subset, tokens, completion_tokens, rendered)


def _require_turns(rendered: str, messages: list[dict[str, Any]], *, subset: str, reasoning_key: str) -> None:
    for i, m in enumerate(messages):
        reasoning = m.get(reasoning_key)
        if m["role"] == "assistant" and reasoning and _probe(reasoning) not in rendered:
            raise TrainerInputError(
                f"subset {subset}: the chat template drops the reasoning of message {i} (its "
                f"`{reasoning_key}` is not in the rendered text). The model would never see it: use a "
                "template that renders it (e.g. Qwen3's <think> block) or set reasoning_key to the key "
                "the template reads")
        if m["content"].strip() and _probe(m["content"]) not in rendered:
            raise TrainerInputError(f"subset {subset}: the chat template drops the content of message {i} "
                                    f"({m['role']})")


def check_samples(tokenizer: Any, template: str, samples: dict[str, dict[str, Any]], *, kind: str,
                  reasoning_key: str, assistant_only_loss: bool = False) -> list[RenderCheck]:
    checks = []
    for subset, row in samples.items():
        if kind == "sft":
            checks.append(check_conversation(tokenizer, template, row["messages"], subset=subset,
                                             reasoning_key=reasoning_key,
                                             assistant_only_loss=assistant_only_loss))
        else:
            checks.append(check_preference(tokenizer, template, row, subset=subset, reasoning_key=reasoning_key))
    return checks

"""The reasoning reaches the model where it belongs: inside ``<think>…</think>`` of the final
assistant turn, and inside what the loss covers (SFT with the tiny recipe's assistant-only loss,
DPO's completion), while the prompt stays outside — checked on TRL's own tokenization."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.trainer.conftest import tiny_args
from tests.trainer.release_fixture import SYSTEM, write_release
from trainer import config as cfg

REASONING = "DPO-REASONING: two cores, one tile each, then the vector Add."


@pytest.fixture(scope="module")
def reasoned_release(tmp_path_factory) -> Path:
    """The fixture release with reasoning on every dpo answer (chosen and rejected)."""
    root = write_release(tmp_path_factory.mktemp("reasoned") / "release")
    path = root / "dpo" / "train.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        row["chosen"][0]["reasoning"] = REASONING
        row["rejected"][0]["reasoning"] = "a guess"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return root


def _final_assistant_turn(rendered: str) -> str:
    return rendered.rsplit("<|im_start|>assistant\n", 1)[1]


def test_sft_reasoning_is_in_the_think_block_and_in_the_loss(tiny_model, release, tmp_path):
    from trainer.sft import build_sft_trainer, prepare_sft

    release_args, train_args, model_args = cfg.parse("sft", tiny_args("tiny-cpu-sft", release, tiny_model,
                                                                      tmp_path / "out"))
    assert train_args.assistant_only_loss and not train_args.completion_only_loss  # what the recipe trains on
    ready = prepare_sft(release_args, train_args, model_args)
    messages = ready["prepared"].samples["code_cot"]["messages"]
    reasoning, answer = messages[-1]["reasoning_content"], messages[-1]["content"]
    tokenizer, template = ready["tokenizer"], ready["template"]

    rendered = tokenizer.apply_chat_template(messages, tokenize=False, chat_template=template)
    assert _final_assistant_turn(rendered) == f"<think>\n{reasoning}\n</think>\n\n{answer}<|im_end|>\n"

    encoded = tokenizer.apply_chat_template(messages, tokenize=True, return_dict=True, chat_template=template,
                                            return_assistant_tokens_mask=True)
    ids, mask = encoded["input_ids"], encoded["assistant_masks"]
    in_loss = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if m])
    outside = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if not m])
    assert in_loss == f"<think>\n{reasoning}\n</think>\n\n{answer}<|im_end|>\n"
    assert messages[1]["content"] in outside and SYSTEM in outside and reasoning not in outside

    # TRL's own tokenization of the mixed dataset: the labels it trains on, row by row.
    trainer = build_sft_trainer(ready, train_args, model_args)
    for row in trainer.train_dataset.select(range(8)):
        trained = tokenizer.decode([t for t, label in zip(row["input_ids"], row["labels"], strict=True)
                                    if label != -100])
        prompt = tokenizer.decode([t for t, label in zip(row["input_ids"], row["labels"], strict=True)
                                   if label == -100])
        assert trained.startswith("<think>\nREASONING-") and "</think>\n\n" in trained
        assert "REASONING-" not in prompt and SYSTEM in prompt and prompt.endswith("<|im_start|>assistant\n")


def test_dpo_chosen_reasoning_is_in_the_think_block_and_the_completion(tiny_model, reasoned_release, tmp_path):
    from trainer.dpo import build_dpo_trainer, prepare_dpo

    parsed = cfg.parse("dpo", tiny_args("tiny-cpu-dpo", reasoned_release, tiny_model, tmp_path / "out",
                                        "--verify_hashes", "false"))
    ready = prepare_dpo(*parsed)
    row = ready["prepared"].samples["dpo"]
    tokenizer = ready["tokenizer"]
    rendered = tokenizer.apply_chat_template(row["prompt"] + row["chosen"], tokenize=False)
    assert _final_assistant_turn(rendered) == f"<think>\n{REASONING}\n</think>\n\n{row['chosen'][0]['content']}" \
                                              "<|im_end|>\n"
    assert ready["checks"][0].loss_tokens > 0

    trainer = build_dpo_trainer(ready, *parsed)
    example = trainer.train_dataset[0]
    assert tokenizer.decode(example["chosen_ids"]).startswith(f"<think>\n{REASONING}\n</think>")
    assert REASONING not in tokenizer.decode(example["prompt_ids"])
    assert tokenizer.decode(example["prompt_ids"]).endswith("<|im_start|>assistant\n")

"""The chat-template checks: the reasoning must reach the model and the loss."""

from __future__ import annotations

import pytest

from tests.trainer.conftest import tiny_args
from trainer import templates
from trainer.errors import TrainerInputError

# Renders the answer, not the reasoning: what a careless template does without any error.
DROPPING = """{%- for message in messages %}<|im_start|>{{ message.role }}
{% if message.role == 'assistant' %}{% generation %}{{ message.content }}<|im_end|>{% endgeneration %}
{% else %}{{ message.content }}<|im_end|>
{% endif %}{%- endfor %}{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}"""

# Renders everything but marks nothing for the assistant-only loss.
NO_MASK = DROPPING.replace("{{ message.content }}<|im_end|>{% endgeneration %}",
                           "{% endgeneration %}<think>{{ message.reasoning_content }}</think>"
                           "{{ message.content }}<|im_end|>")

MESSAGES = [{"role": "system", "content": "You write AscendC."}, {"role": "user", "content": "Write add."},
            {"role": "assistant", "content": "```cpp\nint x;\n```", "reasoning_content": "Tile it by 32 bytes."}]


@pytest.fixture(scope="module")
def tokenizer(tiny_model):
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(tiny_model)


def test_stock_qwen3_gets_trls_training_variant_and_passes(tokenizer):
    template = templates.training_template(tokenizer, assistant_only_loss=True)
    assert "{% generation %}" in template.replace("{%- generation %}", "{% generation %}")
    check = templates.check_conversation(tokenizer, template, MESSAGES, subset="code_cot",
                                         reasoning_key="reasoning_content", assistant_only_loss=True)
    assert 0 < check.loss_tokens < check.tokens
    assert "<think>\nTile it by 32 bytes.\n</think>" in check.rendered


def test_reasoning_dropping_template_is_rejected(tokenizer):
    with pytest.raises(TrainerInputError, match="drops the reasoning of message 2"):
        templates.check_conversation(tokenizer, DROPPING, MESSAGES, subset="code_cot",
                                     reasoning_key="reasoning_content", assistant_only_loss=True)


def test_wrong_reasoning_key_is_rejected(tokenizer):
    messages = [dict(m) for m in MESSAGES]
    messages[-1]["scratchpad"] = messages[-1].pop("reasoning_content")
    template = templates.training_template(tokenizer, assistant_only_loss=False)
    with pytest.raises(TrainerInputError, match="`scratchpad` is not in the rendered text"):
        templates.check_conversation(tokenizer, template, messages, subset="doc_qa", reasoning_key="scratchpad",
                                     assistant_only_loss=False)


def test_empty_assistant_mask_is_rejected(tokenizer):
    with pytest.raises(TrainerInputError, match="assistant-only loss mask is empty"):
        templates.check_conversation(tokenizer, NO_MASK, MESSAGES, subset="api_fix",
                                     reasoning_key="reasoning_content", assistant_only_loss=True)


def test_sft_stops_before_training_on_a_dropping_template(tiny_model, release, tmp_path, capsys):
    from trainer.sft import main

    bad = tmp_path / "drops.jinja"
    bad.write_text(DROPPING)
    out = tmp_path / "out"
    rc = main(tiny_args("tiny-cpu-sft", release, tiny_model, out, "--chat_template_path", str(bad)))
    assert rc == 2
    assert "the chat template drops the reasoning" in capsys.readouterr().err
    assert not out.exists()

"""`akgen train make-tiny-model DIR`: a tiny Qwen3-architecture model and tokenizer, built here.

No downloads: a byte-level BPE tokenizer is trained with `tokenizers` on text that ships with
the project (the task suite's specifications and expert kernels), it gets the stock Qwen3 chat
template from TRL's package data (so TRL recognises it and swaps in its training template for
assistant-only loss), and a randomly initialised ``Qwen3ForCausalLM`` of about 100k parameters
is saved beside it. The tests and the ``tiny-cpu`` recipes train it for a few steps on a CPU.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"]

EXTRA_TEXT = """\
You are an expert AscendC kernel engineer. Answer with exactly one ```cpp code block.
<think>
The input is split over the cores with GetBlockIdx() and GetBlockNum(); each core copies a tile
into the Unified Buffer with DataCopy, computes with the vector unit and copies the result out.
</think>
"""


def _corpus(max_tasks: int = 40) -> Iterator[str]:
    yield EXTRA_TEXT
    try:
        from bench_runner.tasks import list_task_dirs

        folders = list_task_dirs()[:max_tasks]
    except Exception:  # noqa: BLE001 (the suite is a nicety: the tokenizer trains on any text)
        folders = []
    for folder in folders:
        for rel in ("api_desc.md", "expert/kernel.cpp", "template/kernel.cpp"):
            path = folder / rel
            if path.is_file():
                yield path.read_text(encoding="utf-8", errors="replace")


def qwen3_chat_template() -> str:
    """TRL's stock Qwen3 template, byte for byte (so TRL recognises it and has a training variant);
    without TRL (the vLLM environment), the copy in trainer/chat_templates/ minus its header."""
    from importlib.resources import files
    from importlib.util import find_spec

    if find_spec("trl") is not None:
        return (files("trl") / "chat_templates" / "qwen3.jinja").read_text(encoding="utf-8")
    text = (Path(__file__).parent / "chat_templates" / "qwen3.jinja").read_text(encoding="utf-8")
    return text.split("-#}\n", 1)[1]


def make_tiny_model(out_dir: str | Path, *, vocab_size: int = 800, hidden_size: int = 64,
                    num_layers: int = 2, num_heads: int = 4, num_kv_heads: int = 2, head_dim: int = 16,
                    max_positions: int = 8192, seed: int = 0) -> Path:
    """Write a tiny Qwen3 model + tokenizer to ``out_dir`` and return it.

    vLLM needs ``head_dim`` 64 (``--head-dim 64 --hidden-size 128 --heads 2``); the default is
    smaller so that CPU tests stay fast. ``max_positions`` (8192) covers the ``max_length`` of the
    tiny recipes, so a release of real records (2-5k tokens) trains whole; rotary positions have no
    weights, so a longer context costs nothing.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIALS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(_corpus(), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   model_max_length=max_positions)
    fast.chat_template = qwen3_chat_template()
    fast.save_pretrained(out)

    torch.manual_seed(seed)
    config = Qwen3Config(
        vocab_size=len(fast), hidden_size=hidden_size, intermediate_size=hidden_size * 2,
        num_hidden_layers=num_layers, num_attention_heads=num_heads, num_key_value_heads=num_kv_heads,
        head_dim=head_dim, max_position_embeddings=max_positions, tie_word_embeddings=True,
        eos_token_id=fast.eos_token_id, pad_token_id=fast.pad_token_id, bos_token_id=None,
    )
    model = Qwen3ForCausalLM(config)
    model.generation_config.eos_token_id = fast.eos_token_id
    model.generation_config.pad_token_id = fast.pad_token_id
    model.save_pretrained(out)
    (out / "akgen_tiny.json").write_text(json.dumps({
        "made_by": "akgen train make-tiny-model", "parameters": sum(p.numel() for p in model.parameters()),
        "vocab_size": len(fast), "hidden_size": hidden_size, "layers": num_layers, "head_dim": head_dim,
    }, indent=2) + "\n")
    return out

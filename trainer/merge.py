"""`akgen train merge-lora ADAPTER_DIR [--out DIR]`: fold a LoRA adapter into its base model.

LoRA SFT saves ``merged/`` by itself, except under ZeRO-3 (the weights are sharded across
ranks); run this afterwards on one machine with enough CPU memory for the bf16 model.
"""

from __future__ import annotations

import json
from pathlib import Path

from trainer.errors import TrainerInputError


def merge_lora(adapter_dir: str | Path, out_dir: str | Path | None = None, *, dtype: str = "bfloat16") -> Path:
    adapter = Path(adapter_dir)
    config_file = adapter / "adapter_config.json"
    if not config_file.is_file():
        raise TrainerInputError(f"{adapter} is not a LoRA adapter folder (no adapter_config.json)")
    base = json.loads(config_file.read_text()).get("base_model_name_or_path")
    if not base:
        raise TrainerInputError(f"{config_file} names no base_model_name_or_path")
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(base, dtype=getattr(torch, dtype))
    merged = PeftModel.from_pretrained(model, adapter).merge_and_unload()
    out = Path(out_dir) if out_dir else adapter / "merged"
    merged.save_pretrained(out)
    AutoTokenizer.from_pretrained(adapter if (adapter / "tokenizer_config.json").is_file() else base).save_pretrained(out)
    return out

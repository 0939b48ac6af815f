"""Every shipped recipe parses with TRL's parser, and command-line flags override its fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer import config as cfg

CONFIGS = sorted((Path(cfg.__file__).parent / "configs").glob("*.yaml"))


def test_the_recipes_the_issue_asks_for_are_shipped():
    names = {p.stem for p in CONFIGS}
    for size in ("8b", "32b"):
        for kind in ("sft", "dpo"):
            for form in ("full", "lora"):
                assert f"qwen3-{size}-{kind}-{form}" in names
    assert {"tiny-cpu-sft", "tiny-cpu-dpo"} <= names


@pytest.mark.parametrize("recipe", CONFIGS, ids=lambda p: p.stem)
def test_recipe_parses(recipe, release):
    pytest.importorskip("trl")
    kind = "dpo" if "-dpo" in recipe.stem else "sft"
    gpu = [] if recipe.stem.startswith("tiny") else ["--bf16", "false"]  # bf16 needs a GPU to parse
    release_args, train_args, model_args = cfg.parse(kind, ["--config", str(recipe), "--release", str(release),
                                                             "--learning_rate", "3e-4", *gpu])
    assert release_args.release == str(release) and train_args.learning_rate == 3e-4
    assert model_args.model_name_or_path and train_args.output_dir
    assert ("lora" in recipe.stem) == bool(model_args.use_peft)
    if kind == "sft":
        assert train_args.assistant_only_loss


def test_model_path_checks(tmp_path, monkeypatch):
    from trainer.errors import TrainerInputError

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(TrainerInputError, match="neither a local folder nor in the hub cache"):
        cfg.check_model_path("akgen-test/no-such-model")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "runs").mkdir()
    with pytest.raises(TrainerInputError, match="runs/sft does not exist"):
        cfg.check_model_path("runs/sft")
    (tmp_path / "adapter").mkdir()
    (tmp_path / "adapter" / "adapter_config.json").write_text("{}")
    with pytest.raises(TrainerInputError, match="LoRA adapter: start from its merged/ folder"):
        cfg.check_model_path(str(tmp_path / "adapter"))
    monkeypatch.delenv("HF_HUB_OFFLINE")
    cfg.check_model_path("Qwen/Qwen3-8B")  # a hub id is left to the loader when online

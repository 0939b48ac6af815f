"""Every shipped recipe parses with TRL's parser, and command-line flags override its fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer import config as cfg

CONFIGS = sorted(p for p in (Path(cfg.__file__).parent / "configs").glob("*.yaml")
                 if not p.stem.endswith("-grpo"))  # GRPO recipes: tests/trainer/test_grpo.py::test_grpo_recipes_parse


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


def test_tiny_recipes_fit_real_records_and_the_tiny_models_context(tiny_model, release):
    """Real release records are 2-5k tokens: the tiny recipes take 8192, which the tiny model allows,
    and cut nothing by default."""
    from transformers import AutoConfig

    context = AutoConfig.from_pretrained(tiny_model).max_position_embeddings
    for kind in ("sft", "dpo"):
        release_args, train_args, _ = cfg.parse(kind, ["--config", f"tiny-cpu-{kind}", "--release", str(release)])
        assert train_args.max_length == 8192 <= context
        assert release_args.max_truncated_fraction == 0.0 and release_args.extra_datasets is None


def test_extra_datasets_from_a_recipe_file_and_the_command_line(release, tmp_path):
    pytest.importorskip("trl")
    import json

    import yaml

    from trainer import data

    mine = tmp_path / "mine.jsonl"
    mine.write_text("")
    recipe = yaml.safe_load((CONFIGS[0].parent / "tiny-cpu-sft.yaml").read_text())
    recipe["extra_datasets"] = [{"path": str(mine), "weight": 0.25, "name": "ours"}]
    (tmp_path / "r.yaml").write_text(yaml.safe_dump(recipe))
    release_args, _, _ = cfg.parse("sft", ["--config", str(tmp_path / "r.yaml"), "--release", str(release)])
    [extra] = data.parse_extra_datasets(release_args.extra_datasets)
    assert (extra.path, extra.weight, extra.key) == (mine, 0.25, "extra:ours")
    flag = json.dumps([{"path": str(mine)}])
    release_args, _, _ = cfg.parse("sft", ["--config", str(tmp_path / "r.yaml"), "--extra_datasets", flag])
    assert data.parse_extra_datasets(release_args.extra_datasets)[0].name == "mine"  # the flag wins

"""No silent drops: every record's token length is measured before a model is loaded, and a record
TRL would truncate or drop stops the run with the counts — and what TRL then really keeps matches."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench_runner.cli import main as akgen
from tests.trainer.conftest import tiny_args
from tests.trainer.release_fixture import write_release
from trainer import config as cfg
from trainer import lengths
from trainer.errors import TrainerInputError

#: Far more than the tiny recipes' max_length (8192) in tiny-tokenizer tokens.
LONG = "split the tensor over GetBlockNum() cores and copy 32-byte tiles; " * 1200
ALL_SFT = "code_cot=1,doc_qa=1,api_fix=1,kernel_fix=1"


def _append(path: Path, record: dict) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")


@pytest.fixture(scope="module")
def long_release(tmp_path_factory) -> Path:
    """The fixture release plus, in train: a code_cot record with a huge reasoning (TRL would
    truncate it), an api_fix record with a huge prompt (TRL would drop it: no answer token left)
    and a dpo pair with a huge prompt (dropped by DPOTrainer)."""
    root = write_release(tmp_path_factory.mktemp("long") / "release")
    conv = json.loads((root / "code_cot" / "train.jsonl").read_text().splitlines()[0])
    conv["messages"][-1]["reasoning"] = LONG
    _append(root / "code_cot" / "train.jsonl", conv)
    conv = json.loads((root / "api_fix" / "train.jsonl").read_text().splitlines()[0])
    conv["messages"][1]["content"] = "This log is long: " + LONG
    _append(root / "api_fix" / "train.jsonl", conv)
    pair = json.loads((root / "dpo" / "train.jsonl").read_text().splitlines()[0])
    pair["prompt"][-1]["content"] = LONG
    _append(root / "dpo" / "train.jsonl", pair)
    return root


def _parsed(kind: str, release: Path, model: Path, out: Path, *extra: str):
    recipe = "tiny-cpu-sft" if kind == "sft" else "tiny-cpu-dpo"
    return cfg.parse(kind, tiny_args(recipe, release, model, out, "--verify_hashes", "false", *extra))


def test_a_record_longer_than_max_length_stops_sft_with_the_counts(tiny_model, long_release, tmp_path, capsys):
    args = tiny_args("tiny-cpu-sft", long_release, tiny_model, tmp_path / "out", "--verify_hashes", "false",
                     "--subsets", ALL_SFT, "--check_only", "true")
    assert akgen(["train", "sft", *args]) == 2
    err = capsys.readouterr().err
    assert "tokens per record (max_length 8192): code_cot 13 × median" in err  # the summary comes first
    message = err.split("akgen train sft: ", 1)[1]
    assert message.startswith("2 of 50 records are longer than max_length 8192 and TRL would truncate or drop")
    assert re.search(r"code_cot: 1 of 13 \(longest \d{4,} tokens\);", message)  # truncated, kept
    assert re.search(r"api_fix: 1 of 13 \(longest \d{4,} tokens, 1 dropped entirely", message)  # no answer left
    assert "doc_qa" not in message and "Raise max_length to at least " in message
    assert "max_truncated_fraction (now 0)" in message
    assert not (tmp_path / "out").exists()


def test_a_long_dpo_prompt_stops_dpo(tiny_model, long_release, tmp_path, capsys):
    args = tiny_args("tiny-cpu-dpo", long_release, tiny_model, tmp_path / "out", "--verify_hashes", "false",
                     "--check_only", "true")
    assert akgen(["train", "dpo", *args]) == 2
    message = capsys.readouterr().err.split("akgen train dpo: ", 1)[1]
    assert message.startswith("1 of 13 records are longer than max_length 8192")
    assert "dpo: 1 of 13 (longest" in message and "1 dropped entirely" in message


def test_the_check_foresees_what_trl_drops(tiny_model, long_release, tmp_path, capsys):
    """Within max_truncated_fraction the run goes on; SFTTrainer and DPOTrainer then keep exactly
    the records the check said they would."""
    from trainer.dpo import build_dpo_trainer, prepare_dpo
    from trainer.sft import build_sft_trainer, prepare_sft

    sft_args = _parsed("sft", long_release, tiny_model, tmp_path / "sft", "--subsets", ALL_SFT,
                       "--max_truncated_fraction", "0.05")
    ready = prepare_sft(*sft_args)
    assert "warning: 2 of 50 records (4.0%, within max_truncated_fraction 0.05)" in capsys.readouterr().err
    measured = ready["prepared"].counts["_lengths"]["sources"]
    assert {k: measured["api_fix"][k] for k in ("records", "over_limit", "dropped")} == {
        "records": 13, "over_limit": 1, "dropped": 1}
    assert measured["code_cot"]["over_limit"] == 1 and measured["code_cot"]["dropped"] == 0
    assert measured["code_cot"]["max"] > 8192 > measured["code_cot"]["median"]
    trainer = build_sft_trainer(ready, sft_args[1], sft_args[2])
    assert len(trainer.train_dataset) == 50 - 1  # the truncated code_cot record stays, the api_fix one goes
    assert "TRL kept 49 of the 50 training records" in capsys.readouterr().err
    assert max(len(ids) for ids in trainer.train_dataset["input_ids"]) == 8192

    dpo_args = _parsed("dpo", long_release, tiny_model, tmp_path / "dpo", "--max_truncated_fraction", "0.1",
                       "--precompute_ref_log_probs", "false")
    ready = prepare_dpo(*dpo_args)
    trainer = build_dpo_trainer(ready, *dpo_args)
    assert len(trainer.train_dataset) == 13 - 1


def test_the_normal_path_trains_on_every_record(tiny_model, release, tmp_path, capsys):
    from trainer.sft import build_sft_trainer, prepare_sft

    parsed = _parsed("sft", release, tiny_model, tmp_path / "sft")
    ready = prepare_sft(*parsed)
    err = capsys.readouterr().err
    assert "tokens per record (max_length 8192): code_cot 12 × median" in err and "warning" not in err
    trainer = build_sft_trainer(ready, parsed[1], parsed[2])
    assert ready["prepared"].counts["_mixed"]["train"] == 42
    assert len(trainer.train_dataset) == 42  # 12 + 6 + 12 + 12: nothing truncated, nothing dropped
    assert "TRL kept" not in capsys.readouterr().err


def test_trl_dropping_what_the_check_let_through_stops_the_run():
    with pytest.raises(TrainerInputError, match="TRL kept 40 of the 42 training records although none is longer"):
        lengths.check_kept("training", 42, 40, cut_allowed=False)
    assert lengths.check_kept("training", 42, 42, cut_allowed=False) is None


def test_enforce_tolerance_bounds():
    report = lengths.LengthReport({"max_length": 10}, [lengths.SourceLengths("code_cot", "train", [5, 12, 8, 9],
                                                                             over=[1])])
    with pytest.raises(TrainerInputError, match=r"1 of 4 records .* code_cot: 1 of 4 \(longest 12 tokens\)"):
        lengths.enforce(report, max_truncated_fraction=0.2)
    assert "1 of 4 records (25.0%" in lengths.enforce(report, max_truncated_fraction=0.25)
    with pytest.raises(TrainerInputError, match="between 0 and 1"):
        lengths.enforce(report, max_truncated_fraction=1.5)
    every = lengths.LengthReport({"max_length": 4}, [lengths.SourceLengths("dpo", "train", [9], over=[0], dropped=[0])])
    with pytest.raises(TrainerInputError, match="dropped entirely"):  # TRL would be left with no record at all
        lengths.enforce(every, max_truncated_fraction=1.0)


@pytest.mark.parametrize("settings, limit", [
    ({"max_length": 512}, 512),
    ({"max_length": None}, None),
    ({"max_length": 512, "padding_free": True}, None),  # TRL does not enforce max_length there
    ({"max_length": 512, "packing": True, "packing_strategy": "bfd"}, 512),  # bfd truncates the overflow
    ({"max_length": 512, "packing": True, "packing_strategy": "bfd_split"}, None),  # the overflow is split off
])
def test_sft_limit_follows_trls_settings(settings, limit):
    assert lengths.sft_limit(SimpleNamespace(**settings)) == limit


def test_dpo_limits_take_the_fields_the_installed_trl_has():
    pytest.importorskip("trl")
    from trl import DPOConfig

    fields = set(DPOConfig.__dataclass_fields__)
    args = SimpleNamespace(**{name: 100 for name in ("max_length", "max_prompt_length", "max_completion_length")
                              if name in fields})
    assert lengths.dpo_limits(args) == {name: 100 for name in vars(args)}
    assert "max_length" in lengths.dpo_limits(args)

"""Release loading and validation: bad input is caught with a message naming file and field."""

from __future__ import annotations

import json

import pytest

from tests.trainer.release_fixture import write_release
from trainer import data
from trainer.errors import TrainerInputError


def test_open_and_prepare_maps_reasoning(release):
    pytest.importorskip("datasets")
    rel = data.open_release(release)
    assert rel.version == "2026.12.0-test"
    weights = data.parse_weights({"code_cot": 1, "doc_qa": 0.5}, default={})
    prepared = data.prepare(rel, weights, kind="sft", reasoning_key="reasoning_content", seed=1)
    assert prepared.counts["code_cot"] == {"train": 12, "validation": 4, "weight": 1.0}
    assert len(prepared.train) == 12 + 6
    assistant = prepared.samples["code_cot"]["messages"][-1]
    assert assistant["reasoning_content"].startswith("REASONING-code_cot-")
    assert "reasoning" not in assistant
    row = prepared.train[0]["messages"]
    assert row[-1]["reasoning_content"] and row[0].get("reasoning_content") is None


def test_dpo_prepare_and_kind_mismatch(release):
    pytest.importorskip("datasets")
    rel = data.open_release(release)
    prepared = data.prepare(rel, {"dpo": 1.0}, kind="dpo", reasoning_key="reasoning_content")
    assert set(prepared.train.column_names) == {"prompt", "chosen", "rejected"}
    with pytest.raises(TrainerInputError, match="cannot be used for dpo"):
        data.prepare(rel, {"code_cot": 1.0}, kind="dpo", reasoning_key="reasoning_content")


def test_missing_subset_names_what_is_there(tmp_path):
    rel = data.open_release(write_release(tmp_path / "r", subsets=("code_cot",)))
    with pytest.raises(TrainerInputError, match=r"no subset 'api_fix' \(subsets present: code_cot\)"):
        data.read_split(rel, "api_fix", "train")
    assert data.read_split(rel, "api_fix", "validation", required=False) == []


def test_empty_split(tmp_path):
    root = write_release(tmp_path / "r", subsets=("doc_qa",))
    (root / "doc_qa" / "train.jsonl").write_text("\n")
    rel = data.open_release(root, verify_hashes=False)
    with pytest.raises(TrainerInputError, match="train split of subset 'doc_qa' is empty"):
        data.read_split(rel, "doc_qa", "train")


@pytest.mark.parametrize("record, message", [
    ({"text": "hi"}, "expected a record with a `messages` column"),
    ({"messages": [{"role": "user", "content": "q"}]}, "last message must be the assistant"),
    ({"messages": [{"role": "robot", "content": "q"}]}, r"messages\[0\] must be"),
    ({"messages": [{"role": "assistant", "content": "a", "reasoning": 3}]}, "reasoning must be text"),
])
def test_records_without_the_expected_columns(tmp_path, record, message):
    root = write_release(tmp_path / "r", subsets=("code_cot",))
    (root / "code_cot" / "train.jsonl").write_text(json.dumps(record) + "\n")
    rel = data.open_release(root, verify_hashes=False)
    with pytest.raises(TrainerInputError, match=message) as exc:
        data.read_split(rel, "code_cot", "train")
    assert "code_cot/train.jsonl:1" in str(exc.value)


def test_dpo_record_checks(tmp_path):
    root = write_release(tmp_path / "r", subsets=("dpo",))
    (root / "dpo" / "train.jsonl").write_text(json.dumps({"prompt": [{"role": "user", "content": "q"}],
                                                          "chosen": [{"role": "assistant", "content": "a"}]}) + "\n")
    rel = data.open_release(root, verify_hashes=False)
    with pytest.raises(TrainerInputError, match="missing rejected"):
        data.read_split(rel, "dpo", "train")


def test_manifest_and_hash_checks(tmp_path):
    with pytest.raises(TrainerInputError, match="does not exist"):
        data.open_release(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(TrainerInputError, match="no manifest.json"):
        data.open_release(tmp_path / "empty")
    root = write_release(tmp_path / "r", subsets=("code_cot",))
    with (root / "code_cot" / "train.jsonl").open("a") as fh:
        fh.write("\n")
    with pytest.raises(TrainerInputError, match="sha256 differs"):
        data.open_release(root)
    data.open_release(root, verify_hashes=False)


def test_bad_json_line(tmp_path):
    root = write_release(tmp_path / "r", subsets=("code_cot",))
    (root / "code_cot" / "train.jsonl").write_text("{not json\n")
    with pytest.raises(TrainerInputError, match=r"train.jsonl:1: not valid JSON"):
        data.read_split(data.open_release(root, verify_hashes=False), "code_cot", "train")


def test_weights_and_mixing():
    assert data.parse_weights("code_cot=1,doc_qa=0.5", default={}) == {"code_cot": 1.0, "doc_qa": 0.5}
    assert data.parse_weights('{"api_fix": 2}', default={}) == {"api_fix": 2.0}
    assert data.parse_weights(None, default={"dpo": 1.0}) == {"dpo": 1.0}
    with pytest.raises(TrainerInputError, match="unknown subset 'code'"):
        data.parse_weights({"code": 1}, default={})
    with pytest.raises(TrainerInputError, match="every weight is 0"):
        data.parse_weights({"code_cot": 0}, default={})
    assert data.parse_weights({"code_cot": 0}, default={}, others=True) == {"code_cot": 0.0}  # extra_datasets
    with pytest.raises(TrainerInputError, match="an outside dataset goes in `extra_datasets`"):
        data.parse_weights("mine.jsonl=1", default={})
    mixed = data.mix({"a": list(range(10)), "b": list(range(100, 104))}, {"a": 0.5, "b": 2}, seed=3)
    assert len(mixed) == 5 + 8
    assert sorted(x for x in mixed if x >= 100) == [100, 100, 101, 101, 102, 102, 103, 103]
    assert mixed == data.mix({"a": list(range(10)), "b": list(range(100, 104))}, {"a": 0.5, "b": 2}, seed=3)

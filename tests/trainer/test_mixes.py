"""Outside datasets mixed into a release (``extra_datasets``): read by `datasets` from JSONL, Parquet,
a folder of files or a ``save_to_disk`` folder, checked like release records (file and row named),
weighted like subsets, train-only, and listed in the run metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_runner.cli import main as akgen
from tests.trainer.conftest import tiny_args
from tests.trainer.release_fixture import SYSTEM
from trainer import data
from trainer.errors import TrainerInputError

datasets = pytest.importorskip("datasets")


@pytest.fixture(autouse=True)
def _datasets_cache(tmp_path, monkeypatch):
    """Keep `load_dataset`'s Arrow cache inside the test's folder."""
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")


def conversation(i: int, *, key: str = "reasoning") -> dict:
    assistant = {"role": "assistant", "content": f"```cpp\n// outside kernel {i}\n```", key: f"OUTSIDE-{i}: tile it."}
    return {"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": f"Outside task {i}."},
                         assistant], "meta": {"source": "outside"}}


def pair(i: int) -> dict:
    return {"prompt": [{"role": "user", "content": f"Outside pair {i}."}],
            "chosen": [{"role": "assistant", "content": f"good {i}", "reasoning": f"OUTSIDE-WHY-{i}"}],
            "rejected": [{"role": "assistant", "content": f"bad {i}"}]}


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# --- parsing the field ------------------------------------------------------------------------------


def test_entries_from_yaml_json_and_plain_paths(tmp_path):
    file = write_jsonl(tmp_path / "mine.jsonl", [conversation(0)])
    extras = data.parse_extra_datasets([{"path": str(file), "weight": 0.5}, {"path": str(tmp_path), "name": "dir"}])
    assert [(e.name, e.weight, e.split, e.key) for e in extras] == [("mine", 0.5, "train", "extra:mine"),
                                                                     ("dir", 1.0, "train", "extra:dir")]
    assert data.parse_extra_datasets(json.dumps([{"path": str(file), "weight": 2}]))[0].weight == 2.0
    assert data.parse_extra_datasets(json.dumps([str(file)]))[0].path == file
    assert data.parse_extra_datasets(str(file))[0].weight == 1.0  # --extra_datasets data/mine.jsonl
    assert data.parse_extra_datasets(None) == [] and data.parse_extra_datasets("") == []


@pytest.mark.parametrize("value, message", [
    ([{"path": "nope.jsonl"}], r"extra_datasets\[0\]: nope.jsonl does not exist"),
    ([{"path": "{file}", "weights": 1}], "unknown key.*weights; an entry has path, weight, split, name"),
    ([{"path": "{file}", "weight": "lots"}], "the weight must be a number"),
    ([{"path": "{file}", "weight": -1}], "must be >= 0"),
    ([{"path": "{file}", "split": "test"}], "is one file, so it has only a train split"),
    ([{"path": "{file}"}, {"path": "{file}"}], "are both named 'mine'; give one a `name`"),
    ([{"path": "{file}", "name": "code_cot"}], "the name 'code_cot' is empty or a release subset's"),
    ([{"path": "{csv}"}], "neither JSON Lines nor Parquet"),
    ("[{not json", "extra_datasets: not valid JSON"),
])
def test_bad_entries_are_refused(tmp_path, value, message):
    file = write_jsonl(tmp_path / "mine.jsonl", [conversation(0)])
    (tmp_path / "rows.csv").write_text("a,b\n")
    if isinstance(value, list):
        value = [{k: str(v).format(file=file, csv=tmp_path / "rows.csv") if k == "path" else v
                  for k, v in entry.items()} for entry in value]
    with pytest.raises(TrainerInputError, match=message):
        data.parse_extra_datasets(value)


# --- reading and mixing -----------------------------------------------------------------------------


def test_jsonl_parquet_folder_and_save_to_disk_mix_into_the_train_split(release, tmp_path):
    jsonl = write_jsonl(tmp_path / "a.jsonl", [conversation(i) for i in range(4)])
    parquet = tmp_path / "b.parquet"
    datasets.Dataset.from_list([conversation(10 + i, key="reasoning_content") for i in range(3)]).to_parquet(parquet)
    folder = tmp_path / "c"
    write_jsonl(folder / "train.jsonl", [conversation(20 + i) for i in range(2)])
    write_jsonl(folder / "validation.jsonl", [conversation(30)])
    saved = tmp_path / "d"
    datasets.DatasetDict({"train": datasets.Dataset.from_list([conversation(40)]),
                          "extra": datasets.Dataset.from_list([conversation(50 + i) for i in range(5)])}
                         ).save_to_disk(saved)
    extras = data.parse_extra_datasets([
        {"path": str(jsonl), "weight": 0.5}, {"path": str(parquet), "weight": 2},
        {"path": str(folder)}, {"path": str(saved), "split": "extra", "name": "saved"}])

    prepared = data.prepare(data.open_release(release), {"code_cot": 1.0}, kind="sft",
                            reasoning_key="reasoning_content", seed=1, need_eval=True, extra=extras)

    assert prepared.counts["extra:a"] == {"train": 4, "weight": 0.5}
    assert prepared.counts["extra:b"] == {"train": 3, "weight": 2.0}
    assert prepared.counts["extra:c"]["train"] == 2  # train.jsonl only: validation.jsonl is another split
    assert prepared.counts["extra:saved"]["train"] == 5
    assert len(prepared.train) == prepared.counts["_mixed"]["train"] == 12 + 2 + 6 + 2 + 5
    assert len(prepared.eval) == 4  # the release's validation split only: outside data is train-only
    assert not any("OUTSIDE" in (m.get("reasoning_content") or "") for row in prepared.eval["messages"] for m in row)
    # `reasoning` and the template's own key both end up under reasoning_content; Arrow's nulls are gone.
    assert prepared.samples["extra:a"]["messages"][-1] == {
        "role": "assistant", "content": "```cpp\n// outside kernel 0\n```", "reasoning_content": "OUTSIDE-0: tile it."}
    assert prepared.samples["extra:b"]["messages"][-1]["reasoning_content"] == "OUTSIDE-10: tile it."
    assert "reasoning_content" not in prepared.samples["extra:b"]["messages"][0]
    names = {e["name"]: e for e in prepared.extras}
    assert names["b"]["records"] == 3 and names["b"]["path"] == str(parquet.resolve())
    assert len(names["c"]["sha256"]) == 64 and names["saved"]["split"] == "extra"


def test_prompt_completion_rows_become_messages(release, tmp_path):
    rows = [{"prompt": [{"role": "user", "content": "Write relu."}],
             "completion": [{"role": "assistant", "content": "```cpp\nrelu\n```", "reasoning": "max(x, 0)"}]}]
    extras = data.parse_extra_datasets([str(write_jsonl(tmp_path / "pc.jsonl", rows))])
    prepared = data.prepare(data.open_release(release), {"doc_qa": 1.0}, kind="sft",
                            reasoning_key="reasoning_content", extra=extras)
    assert prepared.samples["extra:pc"] == {"messages": [
        {"role": "user", "content": "Write relu."},
        {"role": "assistant", "content": "```cpp\nrelu\n```", "reasoning_content": "max(x, 0)"}]}


def test_dpo_pairs_from_parquet_and_only_outside_data(release, tmp_path):
    parquet = tmp_path / "pairs.parquet"
    datasets.Dataset.from_list([pair(i) for i in range(6)]).to_parquet(parquet)
    extras = data.parse_extra_datasets([{"path": str(parquet)}])
    weights = data.parse_weights({"dpo": 0}, default={}, others=True)
    prepared = data.prepare(data.open_release(release), weights, kind="dpo",
                            reasoning_key="reasoning_content", extra=extras)
    assert prepared.counts["_mixed"]["train"] == 6 and "dpo" not in prepared.counts
    assert prepared.train[0]["chosen"][0]["reasoning_content"].startswith("OUTSIDE-WHY-")


def test_bad_rows_are_named_by_file_and_row(release, tmp_path):
    rows = [conversation(0), conversation(1), {"messages": [{"role": "user", "content": "no answer"}]}]
    extras = data.parse_extra_datasets([str(write_jsonl(tmp_path / "bad.jsonl", rows))])
    rel = data.open_release(release)
    with pytest.raises(TrainerInputError, match=r"bad.jsonl row 3: the last message must be the assistant"):
        data.prepare(rel, {"code_cot": 1.0}, kind="sft", reasoning_key="reasoning_content", extra=extras)
    with pytest.raises(TrainerInputError, match=r"bad.jsonl row 1: a dpo record needs `prompt`, `chosen`"):
        data.prepare(rel, {"dpo": 1.0}, kind="dpo", reasoning_key="reasoning_content", extra=extras)
    (tmp_path / "broken.jsonl").write_text('{"messages": [\n')
    extras = data.parse_extra_datasets([str(tmp_path / "broken.jsonl")])
    with pytest.raises(TrainerInputError, match=r"broken.jsonl: `datasets` could not read it"):
        data.prepare(rel, {"code_cot": 1.0}, kind="sft", reasoning_key="reasoning_content", extra=extras)
    datasets.DatasetDict({"train": datasets.Dataset.from_list([conversation(0)])}).save_to_disk(tmp_path / "saved")
    extras = data.parse_extra_datasets([{"path": str(tmp_path / "saved"), "split": "test"}])
    with pytest.raises(TrainerInputError, match=r"no split 'test' \(splits: train\)"):
        data.prepare(rel, {"code_cot": 1.0}, kind="sft", reasoning_key="reasoning_content", extra=extras)


# --- the command line -------------------------------------------------------------------------------


def test_unknown_subsets_are_still_refused(tiny_model, release, tmp_path, capsys):
    args = tiny_args("tiny-cpu-sft", release, tiny_model, tmp_path / "out", "--subsets", "mine=1")
    assert akgen(["train", "sft", *args]) == 2
    assert "unknown subset 'mine'" in (err := capsys.readouterr().err) and "extra_datasets" in err


def test_sft_with_an_outside_dataset_records_it_beside_the_checkpoint(tiny_model, release, tmp_path, capsys):
    mine = write_jsonl(tmp_path / "mine.jsonl", [conversation(i) for i in range(6)])
    out = tmp_path / "out"
    extra = json.dumps([{"path": str(mine), "weight": 2}])
    args = tiny_args("tiny-cpu-sft", release, tiny_model, out, "--extra_datasets", extra, "--max_steps", "2")
    assert akgen(["train", "sft", *args]) == 0
    err = capsys.readouterr().err
    assert "template check: extra:mine:" in err and "extra:mine 6×2" in err and "→ 54 training records" in err
    run = json.loads((out / "akgen_run.json").read_text())
    assert run["data"]["extra:mine"] == {"train": 6, "weight": 2.0}
    assert run["data"]["_mixed"]["train"] == 42 + 12
    assert run["data"]["_lengths"]["sources"]["extra:mine"]["records"] == 6
    [listed] = run["extra_datasets"]
    assert listed["name"] == "mine" and listed["records"] == 6 and listed["path"] == str(mine.resolve())
    assert listed["sha256"] == data._content_sha256(mine)
    assert run["config"]["extra_datasets"] == extra

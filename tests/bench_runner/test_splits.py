"""The benchmark's held-out split: by operator, from the suite's versioned list, never leaking a
twin (a `_static` variant or a dtype variant with the same expert) into training."""

from __future__ import annotations

import pytest

from bench_runner import splits, tasks
from bench_runner.errors import TaskFormatError


@pytest.mark.parametrize(("slug", "operator"), [
    ("add_fp16_static", "add"), ("add_bf16", "add"), ("softmax_fp32_rows", "softmax_rows"),
    ("softmax_fp16_rows", "softmax_rows"), ("relu_fp32_dynamic", "relu_dynamic"),
    ("cast_fp16_to_fp32", "cast_to"), ("logical_and_bool", "logical_and"), ("fp16", "fp16"),
])
def test_operator_of_drops_static_and_dtype_words(slug, operator):
    assert splits.operator_of(slug) == operator


def test_the_bundled_suite_lists_its_evaluation_operators():
    suite = tasks.load_suite().tasks
    listed = splits.read_split_list(tasks.suite_dir())
    assert listed is not None and listed.version == "ops-v1"
    operators = {splits.operator_of(t.slug) for t in suite}
    assert listed.eval <= operators, f"not operators of the suite: {sorted(listed.eval - operators)}"
    held = [t for t in suite if listed.is_eval(t.slug)]
    assert 0.1 * len(suite) < len(held) < 0.3 * len(suite)
    for level in (1, 2, 3):  # every level is held out
        assert any(t.level == level for t in held)


def test_no_training_task_shares_an_evaluation_tasks_expert():
    """The leak the slug hash had: a `_static` twin or a dtype variant in training with the held-out
    task's expert kernel, byte for byte."""
    suite = tasks.load_suite().tasks
    listed = splits.split_list(tasks.suite_dir(), [t.slug for t in suite])
    eval_experts = {t.expert_kernel.read_text(): t.slug for t in suite if listed.is_eval(t.slug)}
    for t in suite:
        if not listed.is_eval(t.slug):
            assert t.expert_kernel.read_text() not in eval_experts, (t.slug, eval_experts.get(t.expert_kernel.read_text()))
    for t in suite:  # a task and its static twin are always in one split
        if t.variant_of:
            assert listed.split_of(t.slug) == listed.split_of(t.variant_of)


def test_a_suite_without_a_list_holds_out_hashed_operators(tmp_path):
    slugs = [f"op{i}_fp16" for i in range(200)] + [f"op{i}_fp32_static" for i in range(200)]
    listed = splits.split_list(tmp_path, slugs, percent=20)
    assert listed.source == "hash:20" and listed.version == "hash-20"
    assert 20 <= len(listed.eval) <= 60
    for i in range(200):  # both dtype variants of an operator land together
        assert listed.split_of(f"op{i}_fp16") == listed.split_of(f"op{i}_fp32_static")
    assert splits.select(slugs, "all", listed) == slugs
    assert set(splits.select(slugs, "eval", listed)) | set(splits.select(slugs, "train", listed)) == set(slugs)
    with pytest.raises(ValueError, match="eval, train or all"):
        splits.select(slugs, "test", listed)


@pytest.mark.parametrize(("text", "field"), [
    ("version = 'v1'\neval = 'abs'\n", "eval"), ("eval = ['abs']\n", "version"), ("version = [\n", "toml"),
])
def test_a_malformed_list_is_a_clear_error(tmp_path, text, field):
    (tmp_path / splits.SPLIT_FILE).write_text(text)
    with pytest.raises(TaskFormatError) as err:
        splits.read_split_list(tmp_path)
    assert err.value.field == field and str(tmp_path / splits.SPLIT_FILE) in str(err.value)

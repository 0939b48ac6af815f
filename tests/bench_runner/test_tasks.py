"""Task loading: a valid task loads; every malformed one is named by file, field and expectation."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_runner import tasks
from bench_runner.errors import SubmissionError, TaskFormatError, UnknownTaskError
from tests.bench_runner.conftest import VALID_TOML, write_task


def test_valid_task_loads_with_its_interface(suite: Path) -> None:
    task = tasks.load_task(write_task(suite))
    assert task.slug == "vadd" and task.level == 1
    assert task.kernel_args == ("x", "y", "z", "tiling")
    assert task.block_dim is None and task.needs_host
    assert [c.shape_of(task.inputs[0]) for c in task.cases] == [(100,), (1000,)]
    assert task.tolerance_for("float32", task.cases[0]) == tasks.Tolerance(1e-4, 1e-5)
    assert len(task.version) == 64


def test_version_changes_with_any_file(suite: Path) -> None:
    folder = write_task(suite)
    before = tasks.load_task(folder).version
    (folder / "expert" / "kernel.cpp").write_text("// changed\n")
    assert tasks.load_task(folder).version != before


@pytest.mark.parametrize(
    ("old", "new", "field", "expected"),
    [
        ('level = 1', 'level = 4', "level", "1, 2 or 3"),
        ('level = 1', 'level = "one"', "level", "1, 2 or 3"),
        ('shape_mode = "dynamic"', 'shape_mode = "fluid"', "shape_mode", "'static' or 'dynamic'"),
        ('entry = "vadd"', 'entry = "v-add"', "entry", "a C identifier"),
        ('paths = ["device_only", "host_device"]', 'paths = ["gpu"]', "paths", "drawn from"),
        ('block_dim = "host"', 'block_dim = 0', "block_dim", "1..65535"),
        ('dtype = "float32"\nshape = ["N"]\n\n[[inputs]]', 'dtype = "float64"\nshape = ["N"]\n\n[[inputs]]',
         "inputs[0].dtype", "one of float16"),
        ('shape = ["N"]\n\n[[outputs]]', 'shape = ["N**2"]\n\n[[outputs]]', "inputs[1].shape[0]", "expression"),
        ('dims = { N = 100 }', 'dims = { M = 100 }', "cases[0].dims", "every dim the shapes use"),
        ('name = "big"', 'name = "small"', "cases[1].name", "unique"),
        ('tiling = true', 'tiling = false', "tiling", "true for a dynamic task"),
        ('title = "Vector add"', 'title = "Vector add"\ncolour = "red"', "colour", "known fields"),
        ('format = 1', 'format = 2', "format", "format version 1"),
    ],
)
def test_malformed_field_is_reported_precisely(suite: Path, old: str, new: str, field: str, expected: str) -> None:
    toml = VALID_TOML.replace(old, new, 1)
    assert toml != VALID_TOML, "the test's replacement did not apply"
    folder = write_task(suite, toml=toml)
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(folder)
    err = info.value
    assert err.file.endswith("task.toml")
    assert err.field == field
    assert expected in str(err)


def test_toml_syntax_error_is_a_format_error_not_a_traceback(suite: Path) -> None:
    folder = write_task(suite, toml="format = 1\nslug = \n")
    with pytest.raises(TaskFormatError, match="valid UTF-8 TOML"):
        tasks.load_task(folder)


def test_slug_must_match_folder(suite: Path) -> None:
    folder = write_task(suite, slug="other", toml=VALID_TOML.replace('slug = "{slug}"', 'slug = "vadd"'))
    with pytest.raises(TaskFormatError, match="folder name 'other'"):
        tasks.load_task(folder)


def test_missing_files_are_named(suite: Path) -> None:
    with pytest.raises(TaskFormatError, match="expert/kernel.cpp"):
        tasks.load_task(write_task(suite, files={"expert/kernel.cpp": None}))
    with pytest.raises(TaskFormatError, match="template/host.cpp") as info:
        tasks.load_task(write_task(suite, slug="nohost", files={"template/host.cpp": None}))
    assert info.value.slug == "nohost"


def test_reference_is_checked_without_running_it(suite: Path) -> None:
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, files={"reference.py": "def gold(inputs, attrs):\n    pass\n"}))
    assert info.value.field == "golden" and info.value.file.endswith("reference.py")
    with pytest.raises(TaskFormatError, match="valid Python"):
        tasks.load_task(write_task(suite, slug="broken", files={"reference.py": "def golden(:\n"}))
    # Running is deferred: a module that fails at import is reported when it is first used.
    task = tasks.load_task(write_task(suite, slug="late", files={
        "reference.py": "raise RuntimeError('boom')\ndef golden(inputs, attrs):\n    return {}\n"}))
    from bench_runner import reference

    with pytest.raises(TaskFormatError, match="RuntimeError: boom"):
        reference.make_inputs(task, task.cases[0], 1)


def test_static_task_needs_equal_dims_in_every_case(suite: Path) -> None:
    toml = VALID_TOML.replace('shape_mode = "dynamic"', 'shape_mode = "static"')
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, toml=toml))
    assert info.value.field == "cases[1].dims"


def test_alias_must_match_an_input(suite: Path) -> None:
    toml = VALID_TOML.replace('name = "z"\ndtype = "float32"', 'name = "z"\nalias = "w"\ndtype = "float32"')
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, toml=toml))
    assert info.value.field == "outputs[0].alias"
    ok = tasks.load_task(write_task(suite, slug="inplace", toml=toml.replace('alias = "w"', 'alias = "x"')))
    assert ok.kernel_args == ("x", "y", "tiling")


def test_an_in_place_output_may_still_be_a_kernel_argument(suite: Path) -> None:
    """A CANN "ref" output (issue #31): the kernel gets it as an argument of its own, pointing at
    its input's buffer; ``argument`` without ``alias`` says nothing and is refused."""
    toml = VALID_TOML.replace('name = "z"\ndtype = "float32"', 'name = "z"\nalias = "x"\nargument = true\ndtype = "float32"')
    ref = tasks.load_task(write_task(suite, slug="ref", toml=toml))
    assert ref.kernel_args == ("x", "y", "z", "tiling")
    assert ref.kernel_buffers == ("x", "y", "x", "tiling")
    assert ref.summary()["outputs"][0]["argument"] is True
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, slug="bad", toml=toml.replace('alias = "x"\n', "")))
    assert info.value.field == "outputs[0].argument"


def test_an_output_may_be_left_unjudged_but_not_every_output(suite: Path) -> None:
    toml = VALID_TOML.replace('name = "z"\ndtype = "float32"', 'name = "z"\njudged = false\ndtype = "float32"')
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, slug="none_judged", toml=toml))
    assert info.value.field == "outputs" and "at least one judged output" in str(info.value)
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, slug="bad_judged", toml=toml.replace("judged = false", 'judged = "no"')))
    assert info.value.field == "outputs[0].judged"


def test_shape_expressions_and_reduce_dim_tolerance_scaling(suite: Path) -> None:
    toml = VALID_TOML.replace('shape = ["N"]\n\n[[cases]]', 'shape = ["N*2"]\n\n[[cases]]').replace(
        '[[cases]]', '[tolerance]\nreduce_dim = "N"\nreduce_base = 25\nfloat32 = { rtol = 1e-3, atol = 1e-3 }\n\n[[cases]]', 1)
    task = tasks.load_task(write_task(suite, toml=toml))
    assert task.cases[1].shape_of(task.outputs[0]) == (2000,)
    small, big = (task.tolerance_for("float32", c) for c in task.cases)
    assert small.rtol == pytest.approx(2e-3) and big.rtol == pytest.approx(1e-3 * (1000 / 25) ** 0.5)


def test_suite_load_collects_errors_and_get_task_lists_known(suite: Path) -> None:
    write_task(suite, slug="good")
    write_task(suite, slug="bad", toml=VALID_TOML.replace("level = 1", "level = 9"))
    loaded = tasks.load_suite(suite)
    assert [t.slug for t in loaded.tasks] == ["good"]
    assert len(loaded.errors) == 1 and loaded.errors[0].field == "level"
    assert tasks.get_task("good", suite).slug == "good"
    with pytest.raises(UnknownTaskError, match="good"):
        tasks.get_task("nope", suite)


def test_packaged_suite_is_valid() -> None:
    loaded = tasks.load_suite()
    assert not loaded.errors, [str(e) for e in loaded.errors]
    assert len(loaded.tasks) >= 3


STATIC_TOML = VALID_TOML + '\n[extra]\nstatic_case = "big"\n'


def test_dynamic_task_with_static_case_gets_a_derived_static_variant(suite: Path) -> None:
    write_task(suite, slug="vadd", toml=STATIC_TOML)
    loaded = tasks.load_suite(suite)
    assert not loaded.errors
    dynamic, static = loaded.tasks
    assert (dynamic.slug, static.slug) == ("vadd", "vadd_static")
    assert static.shape_mode == "static" and static.variant_of == "vadd"
    assert [c.name for c in static.cases] == ["big"] and len(dynamic.cases) == 2
    assert static.version != dynamic.version and static.root == dynamic.root
    assert "Static variant of `vadd`" in static.api_desc and "`x` [1000]" in static.api_desc
    assert static.summary()["variant_of"] == "vadd" and dynamic.summary()["variant_of"] is None
    assert tasks.get_task("vadd_static", suite) == static
    # Editing the folder makes new versions of both.
    (suite / "vadd" / "api_desc.md").write_text("# vadd\nz = x + y, edited\n")
    again = tasks.get_task("vadd_static", suite)
    assert again.version != static.version


def test_static_case_must_name_a_case_and_variants_cannot_collide(suite: Path) -> None:
    write_task(suite, slug="vadd", toml=STATIC_TOML.replace('static_case = "big"', 'static_case = "huge"'))
    with pytest.raises(TaskFormatError) as err:
        tasks.load_task(suite / "vadd")
    assert err.value.field == "extra.static_case"
    write_task(suite, slug="vadd", toml=STATIC_TOML)
    write_task(suite, slug="vadd_static", toml=STATIC_TOML.replace("[extra]\n", "").replace(
        'static_case = "big"\n', ""))
    loaded = tasks.load_suite(suite)
    assert [t.slug for t in loaded.tasks].count("vadd_static") == 1
    assert any("static variant of 'vadd'" in str(e) for e in loaded.errors)


def test_tasks_without_static_case_have_no_variant(suite: Path) -> None:
    write_task(suite, slug="vadd")
    assert [t.slug for t in tasks.load_suite(suite).tasks] == ["vadd"]
    with pytest.raises(UnknownTaskError):
        tasks.get_task("vadd_static", suite)


def test_a_case_may_raise_its_own_run_limits_over_the_tasks(suite: Path) -> None:
    toml = VALID_TOML.replace('dims = { N = 100 }', 'dims = { N = 100 }\nlimits = { run_wall_s = 180, run_memory_mb = 8192 }')
    toml += '\n[limits]\nrun_wall_s = 40\nrun_cpu_s = 90\ncompile_wall_s = 200\n'
    task = tasks.load_task(write_task(suite, toml=toml))
    small, big = task.cases
    assert small.limits == {"run_wall_s": 180.0, "run_cpu_s": 90.0, "run_memory_mb": 8192.0}
    assert big.limits == {"run_wall_s": 40.0, "run_cpu_s": 90.0}  # compilation is the task's
    assert task.limits["compile_wall_s"] == 200.0


@pytest.mark.parametrize(("limits", "field", "expected"), [
    ("{ compile_wall_s = 300 }", "cases[0].limits.compile_wall_s", "known fields"),
    ("{ run_wall_s = 0 }", "cases[0].limits.run_wall_s", "a positive number"),
    ("{ run_wall_s = \"long\" }", "cases[0].limits.run_wall_s", "a positive number"),
])
def test_a_case_limit_outside_the_run_limits_is_refused(suite: Path, limits: str, field: str, expected: str) -> None:
    toml = VALID_TOML.replace('dims = { N = 100 }', f'dims = {{ N = 100 }}\nlimits = {limits}')
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, toml=toml))
    assert info.value.field == field and expected in str(info.value)


def test_a_task_may_raise_its_source_limit_within_the_ceiling(suite: Path) -> None:
    """An imported suite whose answers are longer than 64 KiB carries its own limit; the
    evaluator and the platform (through the summary) both read it from the task."""
    from bench_runner.contracts import MAX_SOURCE_BYTES, MAX_TASK_SOURCE_BYTES
    from bench_runner.evaluate import evaluate

    assert tasks.load_task(write_task(suite, slug="plain")).source_limit == MAX_SOURCE_BYTES
    task = tasks.load_task(write_task(suite, toml=VALID_TOML + "\n[limits]\nsource_bytes = 262144\n"))
    assert task.source_limit == 262144 and task.summary()["source_bytes"] == 262144
    long = "// padding\n" * (MAX_SOURCE_BYTES // 10)  # past 64 KiB: judged (a compile error), not refused
    assert evaluate(task, long, use_cache=False, baseline=False).verdict == "compile_error"
    with pytest.raises(SubmissionError, match="the limit is 262144 bytes"):
        evaluate(task, "x" * 262145, use_cache=False, baseline=False)
    for bad in (MAX_TASK_SOURCE_BYTES + 1, 1.5):
        with pytest.raises(TaskFormatError) as info:
            tasks.load_task(write_task(suite, toml=VALID_TOML + f"\n[limits]\nsource_bytes = {bad}\n"))
        assert info.value.field == "limits.source_bytes"


def _list_toml(small: str, big: str) -> str:
    """VALID_TOML with x a tensor list and each case's list shapes."""
    toml = VALID_TOML.replace('name = "x"\ndtype = "float32"\nshape = ["N"]',
                              'name = "x"\ndtype = "float32"\nshape = ["N"]\nlist = true', 1)
    toml = toml.replace('dims = { N = 100 }', f"dims = {{ N = 100 }}\nlists = {{ x = {small} }}", 1)
    return toml.replace('dims = { N = 1000 }', f"dims = {{ N = 1000 }}\nlists = {{ x = {big} }}", 1)


def test_a_tensor_list_gives_each_case_its_tensors_shapes(suite: Path) -> None:
    """Issue #31: a list = true tensor holds its tensors flat; each case says their shapes."""
    task = tasks.load_task(write_task(suite, toml=_list_toml("[[100]]", "[[10, 50], [500]]")))
    assert [t.list for t in task.inputs] == [True, False]
    assert task.cases[1].lists == {"x": ((10, 50), (500,))} and task.cases[1].shape_of(task.inputs[0]) == (1000,)
    assert task.summary()["cases"][1]["lists"] == {"x": [[10, 50], [500]]}


@pytest.mark.parametrize(("small", "big", "field", "expected"), [
    ("[[100]]", "[[10, 50], [499]]", "cases[1].lists.x", "1000 elements in all"),
    ("[[100]]", "[]", "cases[1].lists.x", "a non-empty list of shapes"),
    ("[[100]]", "[[-1]]", "cases[1].lists.x", "a non-empty list of shapes"),
])
def test_a_tensor_lists_shapes_must_add_up(suite: Path, small: str, big: str, field: str, expected: str) -> None:
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, toml=_list_toml(small, big)))
    assert info.value.field == field and expected in str(info.value)


def test_every_case_names_the_shapes_of_every_list(suite: Path) -> None:
    toml = _list_toml("[[100]]", "[[1000]]").replace("lists = { x = [[1000]] }\n", "", 1)
    with pytest.raises(TaskFormatError) as info:
        tasks.load_task(write_task(suite, toml=toml))
    assert info.value.field == "cases[1].lists"

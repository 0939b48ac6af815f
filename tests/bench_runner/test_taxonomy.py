"""The taxonomy classifier on real g++ and emulator output (fixtures) and on edge cases.

Fixtures come from ``fixtures/make_taxonomy_fixtures.py``: real compiles and runs of mutated
sample kernels. Replaying them here needs no compiler, so these tests are fast and pin the
classification of each message the toolchain actually prints.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench_runner import launcher, taxonomy
from bench_runner.taxonomy import Category

FIXTURES = sorted((Path(__file__).parent / "fixtures" / "taxonomy").glob("*.json"))
USER = {"kernel.cpp": "kernel.cpp", "host.cpp": "host.cpp"}
GENERATED = (launcher.SIGNATURE_FILE, "host_tu.cpp", "main.cpp")


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_fixtures_exist_for_every_category_cpu_sim_produces() -> None:
    covered = {_load(p)["category"] for p in FIXTURES}
    compile_side = {"syntax", "undeclared", "api_mismatch", "dtype_conversion", "template_deduction",
                    "include_link", "tiling_host"}
    runtime_side = {"ub_capacity", "queue_sync", "gm_oob", "alignment", "local_oob", "api_param"}
    assert compile_side | runtime_side <= covered


@pytest.mark.parametrize("path", [p for p in FIXTURES if _load(p)["kind"] == "compile"], ids=lambda p: p.stem)
def test_compile_fixture(path: Path) -> None:
    fx = _load(path)
    diags = taxonomy.parse_compile_log(fx["log"], user_files=USER, generated=GENERATED, entry=fx["entry"])
    assert diags, fx["log"]
    first = diags[0]
    assert first.category == fx["category"], (first, fx["log"][:2000])
    if fx["line"] is not None:
        assert (first.file, first.line) == (fx["file"], fx["line"]), first
    assert all(d.category is not Category.OTHER for d in diags[:1])


@pytest.mark.parametrize("path", [p for p in FIXTURES if _load(p)["kind"] == "runtime"], ids=lambda p: p.stem)
def test_runtime_fixture(path: Path) -> None:
    fx = _load(path)
    assert fx["verdict"] == "runtime_error"
    from_report = taxonomy.findings_to_diagnostics(fx["findings"], USER)
    assert from_report[0].category == fx["category"] and from_report[0].file == "kernel.cpp"
    # The stderr lines alone (a run that died before writing its report) give the same answer.
    from_stderr = taxonomy.findings_to_diagnostics(taxonomy.parse_emulator_stderr(fx["stderr"], USER), USER)
    assert from_stderr[0].category == fx["category"]
    assert from_stderr[0].line == from_report[0].line


def test_unknown_text_is_counted_as_other() -> None:
    log = "kernel.cpp:3:1: error: the flux capacitor is misaligned with the moon\n"
    diags = taxonomy.parse_compile_log(log, user_files=USER)
    assert [d.category for d in diags] == [Category.OTHER]
    assert taxonomy.summarize(diags) == {"other": 1}


def test_typographic_quotes_and_linker_lines() -> None:
    log = ("kernel.cpp:9:5: error: \u2018Foo\u2019 was not declared in this scope\n"
           "/usr/bin/ld: /tmp/cc1.o: in function `main':\n"
           "main.cpp:(.text+0x1c): undefined reference to `add_custom'\n"
           "/usr/bin/ld: kernel.o: undefined reference to `helper()'\n"
           "collect2: error: ld returned 1 exit status\n")
    diags = taxonomy.parse_compile_log(log, user_files=USER, generated=GENERATED, entry="add_custom")
    assert [(d.category, d.file, d.line) for d in diags] == [
        (Category.UNDECLARED, "kernel.cpp", 9), (Category.TILING_HOST, None, None), (Category.INCLUDE_LINK, None, None)]


def test_error_inside_a_header_is_located_at_the_users_line() -> None:
    log = ("In file included from kernel.cpp:1:\n"
           "/inc/ascend_sim/vec_ops.h: In instantiation of 'void AscendC::Add(...) [with T = int8_t]':\n"
           "kernel.cpp:42:8:   required from here\n"
           "/inc/ascend_sim/vec_ops.h:77:19: error: static assertion failed: Failed to check dtype in Add, "
           "current api support dtype combination is src and dst both: half / float\n")
    d = taxonomy.parse_compile_log(log, user_files=USER)[0]
    assert (d.category, d.file, d.line) == (Category.DTYPE_CONVERSION, "kernel.cpp", 42)


@pytest.mark.parametrize(("message", "category"), [
    ("static assertion failed: The size of localTensor must be align to 32Bytes", Category.ALIGNMENT),
    ("static assertion failed: TPipe::InitBuffer(T& que, uint8_t num, uint32_t len) not supports T as TBuf",
     Category.QUEUE_SYNC),
    ("expected ';' before '}' token", Category.SYNTAX),
    ("'class AscendC::LocalTensor<float>' has no member named 'Size'", Category.UNDECLARED),
    ("invalid conversion from 'int*' to 'float*'", Category.DTYPE_CONVERSION),
    ("call of overloaded 'Add(...)' is ambiguous", Category.API_MISMATCH),
    ("wrong number of template arguments (0, should be 1)", Category.TEMPLATE_DEDUCTION),
])
def test_message_rules(message: str, category: Category) -> None:
    assert taxonomy.classify_compile_message(message) is category


def test_every_category_has_a_title_and_codes_are_stable() -> None:
    assert set(taxonomy.TITLES) == set(Category)
    assert {c.value for c in Category} >= {"api_mismatch", "dtype_conversion", "undeclared", "syntax",
                                           "template_deduction", "tiling_host", "include_link", "ub_capacity",
                                           "alignment", "queue_sync", "gm_oob", "numerical_mismatch", "nan_inf",
                                           "timeout", "sandbox_violation", "infrastructure", "other"}
    assert set(taxonomy.FINDING_CATEGORIES) == {"UB_OVERFLOW", "BUF_OVERFLOW", "QUE_DEPTH", "QUE_ORDER", "USE_AFTER_FREE",
                                                "DEADLOCK", "GM_OOB", "LOCAL_OOB", "COPY_ALIGN", "ADDR_ALIGN",
                                                "UNINIT_READ", "BAD_PARAM", "CRASH", "SIM_TIMEOUT", "UNSUPPORTED",
                                                "SYNC_MISMATCH", "UNMODELLED_WRITE", "STRAY_ACCESS", "GM_PAD_WRITE",
                                                "CPU_DEBUG_ASSERT", "INT_DIV_ZERO"}


def test_a_generator_format_failure_is_its_own_category() -> None:
    from bench_runner.taxonomy import FORMAT_MARK, Category, classify_compile_message

    message = f"#error {FORMAT_MARK}: the completion holds no answer in the format the prompt demands"
    assert classify_compile_message(message) is Category.FORMAT
    assert classify_compile_message("#error something else") is Category.OTHER

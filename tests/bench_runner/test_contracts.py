"""The result contract (bench_runner.contracts): strict JSON, typed records, the judge's rules.

The first tests evaluate real kernels on cpu-sim (about a second each): outputs that are never
written (the poison is NaN), that are NaN and that are infinite must all come back as a
verdict in strict JSON. The rest are unit tests of the contract itself.
"""

from __future__ import annotations

import json
import math
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bench_runner import cache as cache_mod
from bench_runner import contracts, evaluate, tasks
from bench_runner.contracts import (
    MAX_SOURCE_BYTES,
    SCHEMA_VERSION,
    SUSPICIOUS_SPEEDUP,
    VERDICTS,
    CaseResult,
    EvaluationResult,
    ResultFormatError,
    SourceRejected,
    Verdict,
    check_source,
    failure_category,
    json_safe,
    number,
)
from bench_runner.taxonomy import TITLES, Category, Diagnostic
from bench_runner.toolchains import cpu_sim

ROOT = Path(__file__).resolve().parents[2]
SIM_OK = cpu_sim.CpuSim().availability().ok
needs_sim = pytest.mark.skipif(not SIM_OK, reason="cpu-sim is not available here")


def _mutate(slug: str, old: str, new: str) -> tuple[tasks.Task, str]:
    """The task's expert kernel with ``old`` replaced by ``new`` (which must be there)."""
    task = tasks.get_task(slug)
    src = task.expert_kernel.read_text()
    assert src.count(old) == 1, (slug, old)
    return task, src.replace(old, new)


def _kernels() -> dict[str, tuple[tasks.Task, str]]:
    abs_task = tasks.get_task("abs_fp16")
    return {
        # The unmodified template writes nothing: every element still holds the NaN poison.
        "template": (abs_task, abs_task.template_kernel.read_text()),
        # ln of negative numbers: NaN where the golden is finite.
        "nan": _mutate("log_fp32", "Ln(yLocal, xLocal, cnt);",
                       "Muls(xLocal, xLocal, -1.0f, cnt); Ln(yLocal, xLocal, cnt);"),
        # 1 / 0: infinities where the golden is finite.
        "inf": _mutate("reciprocal_fp32", "Reciprocal(yLocal, xLocal, cnt);",
                       "Muls(xLocal, xLocal, 0.0f, cnt); Reciprocal(yLocal, xLocal, cnt);"),
        # Copies out only the first half of every tile: the rest of the output is never written.
        "half": _mutate("abs_fp16",
                        "DataCopyPad(yGm_[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(half)), "
                        "0, 0, 0});",
                        "DataCopyPad(yGm_[offset], yLocal, DataCopyExtParams{1, static_cast<uint32_t>((n + 1) / 2 * "
                        "sizeof(half)), 0, 0, 0});"),
    }


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("contracts-cache")


@pytest.fixture(scope="module")
def real(cache_dir: Path) -> dict[str, EvaluationResult]:
    if not SIM_OK:
        pytest.skip("cpu-sim is not available here")
    kernels = _kernels()

    def run(name: str) -> EvaluationResult:
        task, source = kernels[name]
        return evaluate.evaluate(task, source, cache_dir=cache_dir, baseline=False)

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(kernels, pool.map(run, kernels), strict=True))


def _strict_round_trip(r: EvaluationResult) -> dict[str, Any]:
    payload = json.dumps(r.to_dict(), allow_nan=False)
    data = json.loads(payload)
    assert EvaluationResult.from_dict(data) == r
    return data


@needs_sim
def test_unmodified_template_is_a_wrong_answer_with_unwritten_output(real: dict[str, EvaluationResult]) -> None:
    r = real["template"]
    assert r.verdict is Verdict.WRONG_ANSWER and r.compiled and not r.passed
    assert r.failure_category == "unwritten_output"
    assert r.diagnostics[0].category is Category.UNWRITTEN_OUTPUT and "never written" in r.diagnostics[0].message
    data = _strict_round_trip(r)
    assert data["failure_category"] == "unwritten_output" and data["passed"] is False and data["compiled"] is True
    assert data["schema_version"] == SCHEMA_VERSION == 2
    # The poison read back is NaN: written as a string, readable as a number.
    check = data["cases"][0]["trials"][0]["checks"][0]
    assert check["got"] == "NaN" and math.isnan(number(check["got"]))
    assert r.cases[0].trials[0]["checks"][0]["got"] == "NaN"  # the record holds the JSON form


@needs_sim
@pytest.mark.parametrize(("name", "category"), [("nan", "nan_inf"), ("inf", "nan_inf"), ("half", "unwritten_output")])
def test_non_finite_and_partial_outputs_are_classified(real: dict[str, EvaluationResult], name: str,
                                                      category: str) -> None:
    r = real[name]
    assert r.verdict == "wrong_answer" and r.compiled, (r.reason, r.diagnostics[:2])
    assert r.failure_category == category, r.diagnostics[:2]
    _strict_round_trip(r)


@needs_sim
def test_the_inf_kernel_really_wrote_infinities(real: dict[str, EvaluationResult]) -> None:
    failing = next(c for c in real["inf"].cases if not c.passed)
    check = next(t for t in failing.trials if not t["passed"])["checks"][0]
    assert check["nan_inf_count"] > 0 and check["unwritten_count"] == 0
    assert check["got"] in ("Infinity", "-Infinity")


@needs_sim
def test_a_cached_result_reads_back_whole(real: dict[str, EvaluationResult], cache_dir: Path) -> None:
    task, source = _kernels()["nan"]
    again = evaluate.evaluate(task, source, cache_dir=cache_dir, baseline=False)
    assert again.cache["hit"] is True
    assert again == real["nan"].with_cache(True, real["nan"].cache["key"])


@needs_sim
def test_compile_only_is_strict_json() -> None:
    task = tasks.get_task("abs_fp16")
    built = evaluate.compile_only(task, task.template_kernel.read_text())
    assert built["compiled"] is True
    json.dumps(built, allow_nan=False)


# ---------------------------------------------------------------------------------------------
# The cache


def _minimal(verdict: str = "wrong_answer", **extra: Any) -> EvaluationResult:
    return EvaluationResult(verdict=Verdict(verdict), compiled=True, stage="verify", cache={"hit": False, "key": "k"},
                            **extra)


def test_cache_misses_other_schema_versions_and_system_errors(tmp_path: Path) -> None:
    store = cache_mod.Cache(tmp_path)
    stored = _minimal().to_dict()
    store.put("results", "a" * 64, stored)
    hit = evaluate._cached_result(store, "a" * 64)
    assert hit is not None and hit.cache == {"hit": True, "key": "a" * 64}
    assert hit == _minimal().with_cache(True, "a" * 64)
    store.put("results", "b" * 64, {**stored, "schema_version": 1})
    assert evaluate._cached_result(store, "b" * 64) is None
    store.put("results", "c" * 64, _minimal("system_error").to_dict())
    assert evaluate._cached_result(store, "c" * 64) is None
    store.put("results", "d" * 64, {**stored, "verdict": "exploded"})
    assert evaluate._cached_result(store, "d" * 64) is None


def test_the_cache_writes_strict_json(tmp_path: Path) -> None:
    store = cache_mod.Cache(tmp_path)
    store.put("baselines", "e" * 64, {"est_us": math.nan, "per_case": [{"cycles": math.inf}]})
    assert store.get("baselines", "e" * 64) == {"est_us": "NaN", "per_case": [{"cycles": "Infinity"}]}


# ---------------------------------------------------------------------------------------------
# Sources

TOO_BIG = "x" * (MAX_SOURCE_BYTES + 1)


@pytest.mark.parametrize(("text", "required", "code", "words"), [
    (None, True, "missing_source", "missing"),
    ("", True, "missing_source", "missing"),
    (b"int x;", True, "invalid_source", "bytes"),
    (123, False, "invalid_source", "int"),
    (TOO_BIG, True, "source_too_large", f"{MAX_SOURCE_BYTES} bytes"),
    ("é" * (MAX_SOURCE_BYTES // 2 + 1), True, "source_too_large", "64 KiB"),  # 2 UTF-8 bytes each
    ("int x;\n\x00", True, "invalid_source", "NUL character (line 2)"),
    ("// \ud800\n", False, "invalid_source", "U+D800"),
])
@pytest.mark.parametrize("field", ["kernel", "host"])
def test_check_source_rejects(field: str, text: object, required: bool, code: str, words: str) -> None:
    with pytest.raises(SourceRejected) as caught:
        check_source(field, text, required=required)
    assert (caught.value.field, caught.value.code) == (field, code)
    assert code in contracts.SOURCE_REJECTION_CODES
    assert field in str(caught.value) and words in str(caught.value)


def test_check_source_accepts() -> None:
    check_source("host", None, required=False)
    check_source("host", "", required=False)
    check_source("kernel", "x" * MAX_SOURCE_BYTES, required=True)  # the limit itself is fine
    check_source("kernel", TOO_BIG, required=True, limit=2 * MAX_SOURCE_BYTES)  # a task's own, higher limit
    check_source("kernel", "// 注释 ✓\nint main() {}\n", required=True)
    assert MAX_SOURCE_BYTES == 64 * 1024


@pytest.mark.parametrize(("kernel", "host", "field", "code"), [
    ("", None, "kernel", "missing_source"),
    (TOO_BIG, None, "kernel", "source_too_large"),
    ("int\x00", None, "kernel", "invalid_source"),
    ("// \udc80", None, "kernel", "invalid_source"),
    ("int x;", None, "host", "missing_source"),
    ("int x;", "", "host", "missing_source"),
    ("int x;", TOO_BIG, "host", "source_too_large"),
    ("int x;", "int\x00", "host", "invalid_source"),
])
def test_the_evaluator_rejects_the_same_sources(kernel: str, host: str | None, field: str, code: str) -> None:
    with pytest.raises(SourceRejected) as caught:
        evaluate.evaluate("relu_fp32_dynamic", kernel, host, path="host_device" if field == "host" else "device_only")
    assert (caught.value.field, caught.value.code) == (field, code)


# ---------------------------------------------------------------------------------------------
# The failure category

BY_VERDICT = {
    "passed": "",
    "wrong_answer": "numerical_mismatch",
    "compile_error": "other",
    "runtime_error": "crash",
    "timeout": "timeout",
    "sandbox_violation": "sandbox_violation",
    "system_error": "infrastructure",
}


def test_verdicts_are_exactly_these() -> None:
    assert tuple(BY_VERDICT) == VERDICTS
    assert tuple(Verdict) == tuple(BY_VERDICT)
    assert evaluate.VERDICTS is VERDICTS


@pytest.mark.parametrize("verdict", VERDICTS)
def test_failure_category_without_diagnostics_follows_the_verdict(verdict: str) -> None:
    assert failure_category(verdict, []) == BY_VERDICT[verdict]
    assert failure_category(Verdict(verdict)) == BY_VERDICT[verdict]
    warning_only = [Diagnostic(Category.UNINIT_READ, "read before write", severity="warning")]
    assert failure_category(verdict, warning_only) == BY_VERDICT[verdict]


@pytest.mark.parametrize("verdict", VERDICTS)
def test_failure_category_is_the_first_error_diagnostics(verdict: str) -> None:
    diags = [Diagnostic(Category.UNINIT_READ, "w", severity="warning"), Diagnostic(Category.GM_OOB, "e"),
             Diagnostic(Category.CRASH, "later")]
    expected = "" if verdict == "passed" else "gm_oob"
    assert failure_category(verdict, diags) == expected
    as_dicts = [{"category": "uninit_read", "severity": "warning"}, {"category": ""}, {"message": "no category"},
                "not a diagnostic", {"category": "gm_oob"}, {"category": "crash", "severity": "error"}]
    assert failure_category(verdict, as_dicts) == expected  # a missing severity is an error


def test_failure_category_of_an_unknown_category_is_other_and_unknown_verdicts_raise() -> None:
    assert failure_category("runtime_error", [{"category": "from_the_future", "severity": "error"}]) == "other"
    with pytest.raises(ValueError):
        failure_category("exploded", [])


def test_every_failure_category_is_a_taxonomy_code() -> None:
    assert {c for c in BY_VERDICT.values() if c} <= {c.value for c in Category}
    assert Category.UNWRITTEN_OUTPUT.value == "unwritten_output"
    assert TITLES[Category.UNWRITTEN_OUTPUT] == "output never written"


# ---------------------------------------------------------------------------------------------
# Strict JSON


def test_json_safe_and_number() -> None:
    value = {"a": math.nan, "b": [math.inf, (-math.inf, 1.5)], "c": {"d": 2, "e": None, "f": "NaN"}, "g": True}
    safe = json_safe(value)
    assert safe == {"a": "NaN", "b": ["Infinity", ["-Infinity", 1.5]], "c": {"d": 2, "e": None, "f": "NaN"}, "g": True}
    json.dumps(safe, allow_nan=False)
    assert json_safe(safe) == safe
    assert math.isnan(number("NaN")) and number("Infinity") == math.inf and number("-Infinity") == -math.inf
    assert number(3) == 3.0 and number(2.5) == 2.5 and number(10 ** 400) == math.inf
    for other in (None, True, False, "3", "nan", [], {}):
        assert number(other) is None


def test_non_finite_typed_fields_are_written_as_strings_and_read_back() -> None:
    case = CaseResult(name="c", max_abs_err=math.inf, max_rel_err=math.nan, trials=({"got": math.nan},))
    r = _minimal(cases=(case,), speedup=math.inf)
    data = json.loads(json.dumps(r.to_dict(), allow_nan=False))
    assert data["cases"][0]["max_abs_err"] == "Infinity" and data["cases"][0]["max_rel_err"] == "NaN"
    assert data["speedup"] == "Infinity" and data["suspicious"] is True
    back = EvaluationResult.from_dict(data)
    assert back.cases[0].max_abs_err == math.inf and math.isnan(back.cases[0].max_rel_err)
    assert back.cases[0].trials == ({"got": "NaN"},) and back.speedup == math.inf


# ---------------------------------------------------------------------------------------------
# Records


def test_derived_keys_are_written_and_recomputed_on_reading() -> None:
    r = _minimal(speedup=SUSPICIOUS_SPEEDUP + 0.5, diagnostics=(Diagnostic(Category.NAN_INF, "NaN"),))
    data = r.to_dict()
    assert (data["passed"], data["suspicious"], data["failure_category"]) == (False, True, "nan_inf")
    lying = {**data, "passed": True, "suspicious": False, "failure_category": "other"}
    back = EvaluationResult.from_dict(lying)
    assert (back.passed, back.suspicious, back.failure_category) == (False, True, "nan_inf")
    assert back == r
    assert not _minimal(speedup=SUSPICIOUS_SPEEDUP).suspicious and not _minimal().suspicious
    assert _minimal("system_error").is_infrastructure_failure and not r.is_infrastructure_failure


#: A result exactly as schema 1's evaluate._result wrote it (a failing process's case lacks the
#: error keys; a passing one has them).
SCHEMA_1 = {
    "schema_version": 1, "evaluator_version": "1.0.0", "verdict": "runtime_error", "passed": False,
    "compiled": True, "stage": "run", "reason": "GM_OOB: write past the end of z",
    "task": {"slug": "add_fp16_static", "version": "ab" * 32, "level": 1}, "path": "device_only",
    "toolchain": {"name": "cpu-sim", "version": "ascend_sim-0123456789ab", "soc": "Ascend910B2"},
    "compile_log": "",
    "diagnostics": [
        {"category": "gm_oob", "message": "write past the end of z", "file": "kernel.cpp", "line": 48, "column": None,
         "source": "emulator", "severity": "error", "code": "GM_OOB", "notes": ["core 3"]},
        {"category": "uninit_read", "message": "read before write", "file": None, "line": None, "column": None,
         "source": "emulator", "severity": "warning", "code": "UNINIT_READ", "notes": []},
    ],
    "cases": [
        {"name": "n16384", "passed": True, "trials": [{"seed": 7, "listed": True, "passed": True,
                                                       "inputs_unchanged": True, "checks": [], "tiling": None,
                                                       "summary": "", "max_abs_err": 0.0, "max_rel_err": 0.0,
                                                       "mismatch_count": 0}],
         "exit_code": 0, "signal": None, "wall_s": 0.05, "perf": {"cycles": 100, "est_us": 0.1, "block_dim": 8,
                                                                   "pipes": None, "name": "n16384"},
         "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatch_count": 0},
        {"name": "n32", "passed": False, "trials": [], "exit_code": 1, "signal": None, "wall_s": 0.02,
         "stdout_tail": "", "stderr_tail": "GM_OOB ..."},
    ],
    "perf": None, "baseline": None, "speedup": None, "suspicious": False, "flags": [],
    "source_sha256": "cd" * 32, "host_sha256": None,
    "seeds": {"master": 42, "trials": {"n16384": [7, 1, 2, 3], "n32": [9, 4, 5, 6]}},
    "sandbox": {"backend": "bwrap", "note": ""}, "cache": {"hit": False, "key": "ef" * 32},
    "stage_durations_s": {"static_check": 0.001, "compile": 0.5, "run": 0.1, "verify": 0.01}, "duration_s": 0.7,
    "created_at": "2026-11-30T12:00:00+00:00",
}


def test_a_schema_1_result_loads() -> None:
    r = EvaluationResult.from_dict(json.loads(json.dumps(SCHEMA_1)))
    assert r.schema_version == 1 and r.evaluator_version == "1.0.0"
    assert r.verdict is Verdict.RUNTIME_ERROR and r.compiled and r.failure_category == "gm_oob"
    first = r.diagnostics[0]
    assert (first.category, first.severity, first.message, first.file, first.line, first.code) == (
        Category.GM_OOB, "error", "write past the end of z", "kernel.cpp", 48, "GM_OOB")
    assert r.diagnostics[1].severity == "warning"
    ok, crashed = r.cases
    assert ok.passed and ok.mismatch_count == 0 and ok.perf["cycles"] == 100 and ok.trials[0]["seed"] == 7
    assert not crashed.passed and crashed.max_abs_err is None and crashed.stderr_tail == "GM_OOB ..."
    assert r.seeds["master"] == 42 and r.cache["key"] == "ef" * 32 and r.duration_s == 0.7
    again = EvaluationResult.from_dict(json.loads(json.dumps(r.to_dict(), allow_nan=False)))
    assert again == r


def test_missing_keys_take_defaults() -> None:
    r = EvaluationResult.from_dict({"verdict": "passed"})
    assert r.passed and r.compiled and r.schema_version == 1 and r.cases == () and r.speedup is None
    assert not EvaluationResult.from_dict({"verdict": "compile_error"}).compiled
    odd = EvaluationResult.from_dict({"verdict": "wrong_answer", "diagnostics": [{"category": "new_code"}],
                                      "cases": [{}], "speedup": "fast", "task": "abs"})
    assert odd.diagnostics[0].category is Category.OTHER and odd.cases[0].name == ""
    assert odd.speedup is None and odd.task == {}


@pytest.mark.parametrize("garbage", [
    None, [], "passed", 3, {}, {"verdict": "exploded"}, {"verdict": None}, {"verdict": "passed", "cases": "n16"},
    {"verdict": "passed", "cases": [1]}, {"verdict": "passed", "diagnostics": {"category": "x"}},
    {"verdict": "passed", "diagnostics": ["x"]}, {"verdict": "passed", "cases": [{"trials": [1]}]},
])
def test_garbage_is_a_result_format_error(garbage: object) -> None:
    with pytest.raises(ResultFormatError):
        EvaluationResult.from_dict(garbage)
    assert issubclass(ResultFormatError, ValueError)


def test_records_are_frozen() -> None:
    r = _minimal()
    with pytest.raises(AttributeError):
        r.verdict = Verdict.PASSED  # type: ignore[misc]
    assert r.with_cache(True, "z").cache == {"hit": True, "key": "z"} and r.cache == {"hit": False, "key": "k"}


# ---------------------------------------------------------------------------------------------
# One definition of each rule

SINGLE = ("SUSPICIOUS_SPEEDUP", "MAX_SOURCE_BYTES", "DEFAULT_SOC", "SCHEMA_VERSION", "EVALUATOR_VERSION", "VERDICTS")
_ASSIGN = re.compile(rf"^\s*(?:{'|'.join(SINGLE)})\s*(?::[^=\n]*)?=(?!=)", re.MULTILINE)


def test_the_judges_constants_are_defined_only_in_contracts() -> None:
    """A second copy of a rule (a new `SUSPICIOUS_SPEEDUP = 8.0` somewhere) fails here."""
    offenders = []
    for folder in ("bench_runner", "trainer"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "bench_runner" / "contracts.py":
                continue
            for m in _ASSIGN.finditer(path.read_text(encoding="utf-8")):
                offenders.append(f"{path.relative_to(ROOT)}: {m.group(0).strip()}")
    assert not offenders, offenders
    assert len(_ASSIGN.findall((ROOT / "bench_runner" / "contracts.py").read_text())) == len(SINGLE)


def test_no_literal_default_soc_outside_contracts() -> None:
    """`soc: str = "Ascend910B2"` (a default spelled out again) is a second copy too."""
    literal = re.compile(r"=\s*[\"']Ascend\w+[\"']")
    offenders = [str(p.relative_to(ROOT)) for folder in ("bench_runner", "trainer") for p in (ROOT / folder).rglob("*.py")
                 if p.name != "contracts.py" and literal.search(p.read_text(encoding="utf-8"))]
    assert not offenders, offenders


# ---------------------------------------------------------------------------------------------
# Size bound


def _huge() -> EvaluationResult:
    """A result a hostile kernel could make large everywhere it has a say."""
    big_case = CaseResult(name="n1", passed=False, stdout_tail="o" * 300_000, stderr_tail="e" * 300_000,
                          trials=tuple({"seed": i, "summary": "s" * 5_000} for i in range(50)),
                          perf={"cycles": 10, "timeline": [{"pipe": "V", "t": i} for i in range(20_000)]})
    return _minimal(
        "wrong_answer", speedup=3.5, flags=("unmodelled_write",), compile_log="w" * 400_000,
        diagnostics=tuple(Diagnostic(Category.NAN_INF, "d" * 2_000) for _ in range(400)),
        cases=(big_case,) * 3, perf={"cycles": 99, "report": {"x": "y" * 200_000}},
    )


def test_a_huge_result_is_cut_to_the_limit_with_its_judgement_intact() -> None:
    r = _huge()
    assert contracts.result_bytes(r) > contracts.MAX_RESULT_BYTES
    b = contracts.bounded(r)
    assert contracts.result_bytes(b) <= contracts.MAX_RESULT_BYTES
    assert contracts.TRUNCATED_FLAG in b.flags and "unmodelled_write" in b.flags
    for name in ("verdict", "compiled", "stage", "reason", "speedup", "task", "seeds", "failure_category",
                 "suspicious", "passed"):
        assert getattr(b, name) == getattr(r, name), name
    assert b.perf == {"cycles": 99} and b.diagnostics[0] == r.diagnostics[0]
    assert EvaluationResult.from_dict(json.loads(json.dumps(b.to_dict()))) == b


def test_a_normal_result_is_not_touched() -> None:
    r = _minimal(speedup=1.2, compile_log="warning: x\n" * 100)
    assert contracts.bounded(r) is r


def test_the_evaluator_and_the_platform_both_bound_results() -> None:
    """One rule, applied where a record is made and where one is stored (found by name)."""
    for rel in ("bench_runner/evaluate.py", "platform/workers/pipeline.py"):
        assert re.search(r"\bbounded\(", (ROOT / rel).read_text()), rel

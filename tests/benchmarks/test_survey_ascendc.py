"""benchmarks/survey_ascendc.py on a tiny corpus of its own fixtures, and its g++ error parser.

Why: the survey's counts and blocker ranking steer what cpu-sim implements next; a parser that
misses a name, or a cascade counted as a blocker, would rank the wrong work first.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from bench_runner import op_project

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "survey_fixtures"


def _load():
    spec = importlib.util.spec_from_file_location("survey_ascendc", ROOT / "benchmarks" / "survey_ascendc.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules["survey_ascendc"] = mod
    spec.loader.exec_module(mod)
    return mod


survey = _load()

LOG = """\
k.cpp:8:14: error: 'SurveyNoSuchApi' is not a member of 'AscendC'
k.cpp:9:5: error: 'SurveyUndeclaredHelper' was not declared in this scope; did you mean 'Helper'?
k.cpp:10:11: error: 'class AscendC::LocalTensor<float>' has no member named 'SurveyNoSuchMember'
k.cpp:11:5: error: no matching function for call to 'DataCopy(AscendC::LocalTensor<half>&, int)'
k.cpp:12:5: error: 'xLocal' was not declared in this scope
k.cpp:1:10: fatal error: acl/acl.h: No such file or directory
k.cpp:13:5: error: attempt to use poisoned "memcpy"
k.cpp:14:5: error: 'LocalMemAllocator' in namespace 'AscendC' does not name a template type
k.cpp:15:5: error: 'SurveyNoSuchApi' is not a member of 'AscendC'
ld: k.o: in function `f': undefined reference to `aclrtMalloc(void**, unsigned long, int)'
k.cpp:16:3: error: expected ';' before '}' token
"""


def test_parse_blockers_names_each_kind_once() -> None:
    own = "AscendC::LocalTensor<half> xLocal = q.AllocTensor<half>();\n"
    assert survey.parse_blockers(LOG, own) == [
        "AscendC::SurveyNoSuchApi",
        "SurveyUndeclaredHelper",
        "AscendC::LocalTensor::SurveyNoSuchMember",
        "DataCopy(...)",
        "#include acl/acl.h",
        "poisoned memcpy",
        "AscendC::LocalMemAllocator",
        "undefined aclrtMalloc",
        "other: expected '_' before '_' token",
    ]
    # without the item's own code, the cascade name is kept
    assert "xLocal" in survey.parse_blockers(LOG)


def test_declared_in_tells_cascades_from_missing_names() -> None:
    text = "GlobalTensor<half> xGm, yGm, zGm;\nTQue<VECIN, 2> inQueueX;\nDataCopy(a, b, EVENT_ID0);\n"
    assert survey.declared_in("yGm", text) and survey.declared_in("inQueueX", text)
    assert not survey.declared_in("EVENT_ID0", text)


def test_opdef_dtypes_take_the_first_listed_type() -> None:
    text = (FIXTURES / "fam" / "op_scale" / "op_host" / "op_scale.cpp").read_text()
    assert survey.opdef_dtypes(text) == [("x", "half"), ("y", "half")]
    assert survey.dtype_defines([("x1", "half")])[-2:] == ["-DDTYPE_X1=half", "-DORIG_DTYPE_X1=DT_FLOAT16"]
    assert "-DDT_FLOAT16=1" in survey.dtype_defines([("x1", "half")])


def test_the_op_build_rules_are_cpu_sims_not_a_copy() -> None:
    """The survey builds op kernels with bench_runner.op_project's rules (dtype names, OpDef
    parsing, tiling header), the ones `akgen eval` uses: no second table in the script."""
    for name in ("_GE_TYPES", "_OPDEF_TENSOR", "_OPDEF_TYPES"):
        assert not hasattr(survey, name), name
    text = 'this->Input("q").DataType({ge::DT_BF16, ge::DT_FLOAT});'
    assert survey.opdef_dtypes(text) == [("q", op_project.GE_CTYPES["DT_BF16"])]


def test_kernel_entries() -> None:
    src = 'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {}'
    assert survey.kernel_entries(src) == [("add_custom", 3)]


def test_discover_finds_each_layout() -> None:
    kinds = {Path(i.name).name: i.kind for i in survey.discover(FIXTURES)}
    assert kinds == {"negate.cpp": "kernel", "broken.cpp": "kernel", "op_scale": "op_project",
                     "sample_add": "sample"}
    op = next(i for i in survey.discover(FIXTURES) if i.kind == "op_project")
    assert op.force_includes == ["op_scale_tiling.h"] and "-DDTYPE_X=half" in op.defines
    sample = next(i for i in survey.discover(FIXTURES) if i.kind == "sample")
    assert sample.run and sample.run.verify == ["scripts/verify_result.py", "output/z.bin", "output/golden.bin"]


@pytest.mark.slow
def test_survey_counts_and_blockers(tmp_path: Path) -> None:
    out = tmp_path / "survey.json"
    assert survey.main([str(FIXTURES), "--jobs", "2", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    fam = data["families"]["fam"]
    by_name = {Path(i["name"]).name: i for i in data["items"]}
    assert (fam["items"], fam["compiled"]) == (4, 3), {k: v["log_tail"] for k, v in by_name.items()}
    assert by_name["sample_add"]["ran"] is True and by_name["sample_add"]["correct"] is True
    assert (fam["runnable"], fam["ran"], fam["correct"]) == (1, 1, 1)
    broken = by_name["broken.cpp"]
    assert not broken["compiled"]
    assert broken["blockers"] == ["AscendC::SurveyNoSuchApi", "SurveyUndeclaredHelper",
                                  "AscendC::LocalTensor::SurveyNoSuchMember"]
    assert dict(fam["top_blockers"])["SurveyUndeclaredHelper"] == 1
    assert fam["first_blockers"] == [["AscendC::SurveyNoSuchApi", 1]]

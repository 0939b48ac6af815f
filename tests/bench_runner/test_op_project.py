"""CANN op projects through the evaluator (issue #19): a fixture op project of our own
(fixtures/op_projects/scale_add: an OpDef with two dtype combinations and a float attribute, a
TilingFunc that sets a tiling key and a user workspace, a BEGIN_TILING_DATA_DEF header, a kernel
reading DTYPE_X and GET_TILING_DATA without including either) built and run unchanged by
`akgen eval --project` on the host_device path, once per dtype combination; and the bundle rules.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bench_runner import op_project, tasks
from bench_runner.ascend_sim import build
from bench_runner.contracts import SourceRejected, check_source
from bench_runner.evaluate import evaluate
from bench_runner.toolchains import cpu_sim

PROJECT = Path(__file__).parent / "fixtures" / "op_projects" / "scale_add"
REPO = Path(__file__).resolve().parents[2]
COMBINATIONS = {"float16": "half", "float32": "float"}

needs_sim = pytest.mark.skipif(not cpu_sim.CpuSim().availability().ok,
                               reason="cpu-sim is not available here: " + cpu_sim.CpuSim().availability().reason)

_TASK = """\
format = 1
slug = "scale_add_{short}"
title = "z = x * alpha + y, {dtype}, as a CANN op project"
level = 1
category = "elementwise"
shape_mode = "dynamic"
entry = "scale_add"
paths = ["host_device", "device_only"]
block_dim = "host"
tiling = true
workspace = true

[[inputs]]
name = "x"
dtype = "{dtype}"
shape = ["N"]

[[inputs]]
name = "y"
dtype = "{dtype}"
shape = ["N"]

[[outputs]]
name = "z"
dtype = "{dtype}"
shape = ["N"]

[attributes]
alpha = 0.75

[tolerance]
{dtype} = {{ rtol = {tol}, atol = {tol} }}

[[cases]]
name = "aligned_many_tiles"
dims = {{ N = 40960 }}
seed = 1

[[cases]]
name = "unaligned_tail"
dims = {{ N = 1001 }}
seed = 2
attributes = {{ alpha = -1.5 }}

[[cases]]
name = "tiny"
dims = {{ N = 7 }}
seed = 3
"""

_REFERENCE = """\
import numpy as np


def make_inputs(case, rng):
    n = case.shapes["x"]
    return {"x": rng.uniform(-4, 4, n).astype(np.DTYPE), "y": rng.uniform(-4, 4, n).astype(np.DTYPE)}


def golden(inputs, attrs):
    # the kernel's two rounding steps: w = x * alpha in the tensor's dtype, then z = w + y
    x, y = inputs["x"], inputs["y"]
    w = (x.astype(np.float32) * np.float32(attrs["alpha"])).astype(x.dtype)
    return {"z": (w.astype(np.float32) + y.astype(np.float32)).astype(x.dtype)}
"""

_TEMPLATE_KERNEL = """\
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
}
"""


def _write_suite(root: Path) -> Path:
    project = op_project.read_project(PROJECT)
    for dtype in COMBINATIONS:
        short = {"float16": "fp16", "float32": "fp32"}[dtype]
        folder = root / f"scale_add_{short}"
        (folder / "template").mkdir(parents=True)
        (folder / "expert").mkdir()
        # float16: a few ulps, as the hardware's half arithmetic may round the product differently
        tol = {"float16": "4e-3", "float32": "1e-6"}[dtype]
        (folder / "task.toml").write_text(_TASK.format(short=short, dtype=dtype, tol=tol), encoding="utf-8")
        (folder / "reference.py").write_text(_REFERENCE.replace("DTYPE", dtype), encoding="utf-8")
        (folder / "api_desc.md").write_text("z = x * alpha + y, as the ScaleAdd op project.\n", encoding="utf-8")
        (folder / "template" / "kernel.cpp").write_text(_TEMPLATE_KERNEL, encoding="utf-8")
        (folder / "template" / "host.cpp").write_text(project.host, encoding="utf-8")  # the fixed op_host
        (folder / "expert" / "kernel.cpp").write_text(project.kernel, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write_suite(tmp_path_factory.mktemp("op_suite"))


def _akgen(suite: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AKGEN_SUITE_DIR": str(suite)}
    return subprocess.run([sys.executable, "-m", "bench_runner.cli", *args], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600, check=False)


# ---------------------------------------------------------------------------------------------
# The op project end to end


@needs_sim
@pytest.mark.parametrize("dtype", list(COMBINATIONS))
def test_the_op_project_passes_unchanged_through_akgen_eval(suite: Path, dtype: str, tmp_path: Path) -> None:
    short = {"float16": "fp16", "float32": "fp32"}[dtype]
    proc = _akgen(suite, "eval", "--task", f"scale_add_{short}", "--project", str(PROJECT), "--json",
                  "--no-cache", "--keep", str(tmp_path / "box"))
    result = json.loads(proc.stdout) if proc.stdout.strip() else {}
    assert proc.returncode == 0 and result.get("verdict") == "passed", (proc.stderr[-3000:], result)
    assert result["path"] == "host_device"
    assert [c["name"] for c in result["cases"]] == ["aligned_many_tiles", "unaligned_tail", "tiny"]
    # The op build's view of the kernel: this combination's DTYPE macros and the tiling header.
    kernel = next((tmp_path / "box").rglob("kernel.cpp")).read_text(encoding="utf-8")
    assert f"#define DTYPE_X {COMBINATIONS[dtype]}" in kernel and '#include "scale_add_tiling.h"' in kernel


@needs_sim
def test_both_tiling_keys_and_the_user_workspace_are_exercised(suite: Path) -> None:
    """Key 1 (aligned lengths) and key 2 (a tail: DataCopyPad) both run: a kernel that takes the
    key-1 path for key 2 fails the unaligned case only; and the second pass really reads the
    user workspace (reading x again instead gives wrong answers)."""
    task = tasks.get_task("scale_add_fp32", suite)
    project = op_project.read_project(PROJECT)
    broken_pad = project.kernel.replace("op.template Process<true>();", "op.template Process<false>();")
    assert broken_pad != project.kernel
    r = evaluate(task, broken_pad, project.host, path="host_device", use_cache=False)
    failed = {c.name for c in r.cases if not c.passed}
    assert r.verdict != "passed" and "unaligned_tail" in failed and "aligned_many_tiles" not in failed, r.reason
    wrong_read = project.kernel.replace("CopyIn<PAD>(a, wGm[offset], n);", "CopyIn<PAD>(a, xGm[offset], n);")
    assert wrong_read != project.kernel
    r = evaluate(task, wrong_read, project.host, path="host_device", use_cache=False)
    assert r.verdict == "wrong_answer", r.reason


@needs_sim
def test_the_kernel_alone_runs_on_the_device_only_path_with_the_tasks_op_host(suite: Path) -> None:
    task = tasks.get_task("scale_add_fp16", suite)
    r = evaluate(task, op_project.read_project(PROJECT).kernel, None, path="device_only", use_cache=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics)


@needs_sim
def test_the_kernel_sees_the_tiling_structs_not_the_hosts_other_names(suite: Path) -> None:
    """Issue #31 (NPUKernelBench's StridedSliceAssignV2): the tiling header and the kernel each
    define a MAX_DIM_NUM. CANN's op build hands the kernel the tiling struct only, so the kernel's
    own constant is no ambiguity; a host name the kernel uses without defining it is undeclared."""
    task = tasks.get_task("scale_add_fp32", suite)
    project = op_project.read_project(PROJECT)
    host = project.host.replace("namespace optiling {", "namespace optiling {\nconstexpr size_t MAX_DIM_NUM = 8;", 1)
    assert host != project.host
    kernel = project.kernel.replace('#include "kernel_operator.h"',
                                    '#include "kernel_operator.h"\nconstexpr uint32_t MAX_DIM_NUM = 8;', 1)
    r = evaluate(task, kernel.replace("}\n", "}\nstatic_assert(MAX_DIM_NUM == 8, \"own\");\n", 1), host,
                 path="host_device", use_cache=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics[:3])
    assert op_project.optiling_structs(host.split("```cpp", 2)[2]) == ["ScaleAddTilingData"]


@needs_sim
def test_a_bundle_that_registers_no_tiling_says_so(suite: Path) -> None:
    task = tasks.get_task("scale_add_fp32", suite)
    project = op_project.read_project(PROJECT)
    host = project.host.replace("this->AICore().SetTiling(optiling::TilingFunc);", "") \
        .replace("static ge::graphStatus TilingFunc(", "static ge::graphStatus MyTiling(")
    r = evaluate(task, project.kernel, host, path="host_device", use_cache=False)
    assert r.verdict == "runtime_error", r.reason
    assert any("no tiling function" in d.message for d in r.diagnostics), r.diagnostics


@needs_sim
def test_a_compile_error_in_a_bundled_header_names_the_submitted_line(suite: Path) -> None:
    task = tasks.get_task("scale_add_fp32", suite)
    project = op_project.read_project(PROJECT)
    host = project.host.replace("TILING_DATA_FIELD_DEF(float, alpha);", "TILING_DATA_FIELD_DEF(float, alpha)\nint oops = ;")
    r = evaluate(task, project.kernel, host, path="host_device", use_cache=False)
    assert r.verdict == "compile_error"
    want = host.splitlines().index("int oops = ;") + 1
    assert any(d.file == "host.cpp" and d.line == want for d in r.diagnostics), (want, r.diagnostics)


@needs_sim
def test_op_host_code_spread_over_two_cpp_files_builds_as_one_unit(suite: Path) -> None:
    """CANN op projects often keep the TilingFunc and the OpDef in separate .cpp files."""
    task = tasks.get_task("scale_add_fp32", suite)
    project = op_project.read_project(PROJECT)
    host = op_project.split_host(project.host)
    main = host.sources["scale_add.cpp"]
    start, end = main.index("namespace optiling {"), main.index("}  // namespace optiling") + 24
    files = {"scale_add_tiling.h": host.headers["scale_add_tiling.h"],
             "scale_add_tiling.cpp": main[:start] + main[start:end],  # includes + TilingFunc
             "scale_add.cpp": '#include "scale_add_tiling.h"\n#include "register/op_def_registry.h"\n' + main[end:]}
    r = evaluate(task, project.kernel, op_project.make_bundle(files), path="host_device", use_cache=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics)


@needs_sim
def test_a_kernel_named_like_a_math_function_builds(suite: Path, tmp_path: Path) -> None:
    """NPUKernelBench's Sqrt kernel is `extern "C" ... void sqrt(...)`: fine for the NPU compiler,
    a clash with <cmath>'s ::sqrt in a g++ build, so cpu-sim builds it under another name."""
    import shutil

    root = tmp_path / "suite"
    shutil.copytree(suite / "scale_add_fp32", root / "sqrt_named")
    toml = (root / "sqrt_named" / "task.toml").read_text()
    (root / "sqrt_named" / "task.toml").write_text(
        toml.replace('slug = "scale_add_fp32"', 'slug = "sqrt_named"').replace('entry = "scale_add"', 'entry = "sqrt"'))
    kernel = op_project.read_project(PROJECT).kernel.replace("void scale_add(", "void sqrt(")
    task = tasks.get_task("sqrt_named", root)
    r = evaluate(task, kernel, op_project.read_project(PROJECT).host, path="host_device", use_cache=False)
    assert r.verdict == "passed", (r.reason, r.diagnostics)


# ---------------------------------------------------------------------------------------------
# Bundle rules (no compiler needed)


@pytest.mark.parametrize(("ctype", "branch"), [("float", "other"), ("half", "other"), ("bfloat16_t", "bf16")])
def test_orig_dtype_compares_in_the_preprocessor_as_the_op_build_defines_it(ctype: str, branch: str,
                                                                           tmp_path: Path) -> None:
    """The op build defines ORIG_DTYPE_<NAME> as a ge::DataType name (DT_FLOAT16), and answers
    test it in #if (NPUKernelBench's NonFiniteCheckOp: ``#if ORIG_DTYPE_TENSOR_LIST == DT_BF16``).
    With C types there, both sides were unknown identifiers, 0 == 0, and every fp32 build took
    the bf16 branch. Host enums (graph/types.h) still compile after the prelude."""
    prelude = op_project.kernel_prelude(op_project.dtype_macros([("tensor_list", ctype)]), None, "")
    src = tmp_path / "k.cpp"
    src.write_text(prelude + "#if ORIG_DTYPE_TENSOR_LIST == DT_BF16\nint bf16;\n#else\nint other;\n#endif\n"
                   '#include "graph/types.h"\n#include "tiling/tiling_api.h"\n'
                   'ge::DataType t = ge::DataType(ORIG_DTYPE_TENSOR_LIST);\n'
                   'static_assert(DT_BF16 == 27 && DT_FLOAT == 0);\n')  # ge::DataType's numbers
    out = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-I", str(build.include_dir()), str(src)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    pre = subprocess.run(["g++", "-E", "-P", "-I", str(build.include_dir()), str(src)],
                         capture_output=True, text=True, timeout=120).stdout
    assert f"int {branch};" in pre


def test_the_emulator_sets_aside_exactly_the_dt_names_the_prelude_defines() -> None:
    """The DT_ names are a second list in C++ (the headers that declare ge's enumerators set the
    prelude's macros aside): it must name every one the prelude defines, and restore each."""
    inc = build.include_dir() / "ascend_sim"
    aside = re.findall(r'push_macro\("(DT_\w+)"\)', (inc / "dt_macros_set_aside.h").read_text())
    back = re.findall(r'pop_macro\("(DT_\w+)"\)', (inc / "dt_macros_restore.h").read_text())
    assert sorted(aside) == sorted(back) == sorted(op_project.ge_dtype_values())


def test_the_op_api_layer_is_left_out_of_the_host_build(tmp_path: Path) -> None:
    """CANN compiles an answer's aclnn layer (aclnn_<op>.cpp, level-0 wrappers, proto files that
    log through opdev) into another library, against framework headers akgen has not got; the
    driver calls the TilingFunc itself. NPUKernelBench's FeedsRepeat and MseLossGradV2 failed to
    compile on exactly those files. The layer and the headers only it includes are left out; a
    header the op's own sources also include stays."""
    project = tmp_path / "scale_add"
    shutil.copytree(PROJECT, project)
    host = project / "op_host"
    (host / "aclnn_scale_add.cpp").write_text(
        '#include "opdev/op_executor.h"\n#include "aclnn_util.h"\n#include "scale_add_tiling.h"\n')
    (host / "aclnn_util.h").write_text('#include "level0/ops.h"\n#include "only_util.h"\n')
    (host / "only_util.h").write_text("// a helper only the layer uses\n")
    (host / "scale_add_proto.cpp").write_text('#include "register/op_def_registry.h"\n#include "aclnn/opdev/op_log.h"\n')
    (host / "unrelated.h").write_text("// included by nothing, kept as before\n")
    got = op_project.split_host(op_project.read_project(project).host)
    assert sorted([*got.sources, *got.headers]) == ["scale_add.cpp", "scale_add_tiling.h", "unrelated.h"]
    files = {p.name: p.read_text() for p in host.iterdir()}
    assert op_project.op_build_files({n: t for n, t in files.items() if "aclnn" not in n and "proto" not in n}) \
        == {n: t for n, t in files.items() if "aclnn" not in n and "proto" not in n}  # no layer: all kept


def test_split_host_reads_npukernelbench_banners_with_and_without_fences() -> None:
    text = textwrap.dedent("""\
        ================== op_host/foo_tiling.h ==================
        ```cpp
        #pragma once
        struct T {};
        ```
        ================== op_host/foo.cpp ==================
        #include "foo_tiling.h"
        int f() { return 1; }
        """)
    files = op_project.split_host(text)
    assert list(files.sources) == ["foo.cpp"] and files.main.startswith('#include "foo_tiling.h"')
    assert files.headers == {"foo_tiling.h": "#pragma once\nstruct T {};\n"}
    # first_lines point at each file's first code line in the submitted text
    lines = text.splitlines()
    assert lines[files.first_lines["foo_tiling.h"] - 1] == "#pragma once"
    assert lines[files.first_lines["foo.cpp"] - 1] == '#include "foo_tiling.h"'
    assert op_project.split_host("int plain;\n") == op_project.HostFiles(main="int plain;\n")


@pytest.mark.parametrize(("text", "words"), [
    ("junk\n=== op_host/a.cpp ===\nint a;\n", "before its first file banner"),
    ("=== op_host/a.h ===\nint a;\n", "needs an op_host .cpp"),
    ("=== op_host/../etc/passwd ===\nx\n", "letters, digits"),
    ("=== op_host/host_tu.cpp ===\nx\n", "the evaluator uses itself"),
    ("=== a.h ===\nx\n=== op_host/a.h ===\ny\n=== a.cpp ===\nz\n", "names a.h twice"),
    ("=== op_host/a.py ===\nx\n", "one .cpp and headers"),
    ("".join(f"=== op_host/h{i}.h ===\nx\n" for i in range(9)), "at most 8"),
])
def test_a_bundle_that_breaks_the_rules_is_refused_before_any_compile(text: str, words: str) -> None:
    with pytest.raises(op_project.BundleError, match=words):
        op_project.split_host(text)
    with pytest.raises(SourceRejected) as info:
        check_source("host", text, required=True)
    assert info.value.code == "invalid_source" and words in str(info.value)


def test_kernel_prelude_defines_the_combination_and_brings_the_tiling_header_once() -> None:
    pairs = op_project.combination_pairs([("x", "half"), ("y", "half"), ("z", "half")],
                                         'this->Input("self").DataType({ge::DT_FLOAT16});'
                                         'this->Input("other").DataType({ge::DT_FLOAT16});'
                                         'this->Output("out").DataType({ge::DT_FLOAT16});')
    macros = op_project.dtype_macros(pairs)
    assert macros["DTYPE_X"] == macros["DTYPE_SELF"] == macros["DTYPE_OUT"] == "half"
    assert macros["ORIG_DTYPE_OUT"] == "DT_FLOAT16"
    prelude = op_project.kernel_prelude(macros, "foo_tiling.h", "int k;\n")
    assert '#include "foo_tiling.h"' in prelude and "using namespace optiling;" in prelude
    assert prelude.endswith('#line 1 "kernel.cpp"\n')
    # a kernel that includes the header itself gets only the macros
    own = op_project.kernel_prelude(macros, "foo_tiling.h", '#include "../op_host/foo_tiling.h"\n')
    assert "#include" not in own and "#define DTYPE_X half" in own
    # OpDef names that do not line up with the task's tensors are not guessed
    assert op_project.combination_pairs([("x", "float")], 'this->Input("a");this->Input("b");') == [("x", "float")]


def test_an_answer_in_npukernelbench_layout_gives_kernel_and_op_host_bundle() -> None:
    from bench_runner.errors import SubmissionError
    from bench_runner.prompt import extract_sources

    project = op_project.read_project(PROJECT)
    host = op_project.split_host(project.host)
    answer = ("Here is the op.\n"
              f"================== op_host/scale_add_tiling.h ==================\n```cpp\n"
              f"{host.headers['scale_add_tiling.h']}```\n"
              f"================== op_host/scale_add.cpp ==================\n```cpp\n{host.main}```\n"
              f"================== op_kernel/scale_add.cpp ==================\n```cpp\n{project.kernel}```\n")
    kernel, bundle = extract_sources(answer, "host_device")
    assert kernel.strip() == project.kernel.strip()
    got = op_project.split_host(bundle)
    assert got.main.strip() == host.main.strip() and set(got.headers) == {"scale_add_tiling.h"}
    with pytest.raises(SubmissionError, match="op_kernel files"):
        extract_sources(answer + "================== op_kernel/b.cpp ==================\nint b;\n", "host_device")

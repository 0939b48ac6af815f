"""CANN op_host headers on cpu-sim: OpDef registration, the op registry, and TilingFunc runs.

Why: NPUKernelBench tasks are CANN op projects whose op_host files register an OpDef with
OP_ADD and bind a TilingFunc; the evaluator must compile them unchanged and run their tiling.
Each fixture under op_host/ is compiled with g++ against the emulator's include dir and linked
with op_host/driver.cpp, which prints the registry and runs the registered tiling on a context
built from its arguments. The expected tiling bytes are computed here with numpy.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from bench_runner.ascend_sim import build

HERE = Path(__file__).parent / "op_host"

OPTIONAL, REQUIRED, DYNAMIC = 1, 2, 3


@pytest.fixture(scope="module")
def binaries(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("op_host")
    exes = {}
    for op in ("add_scaled", "concat_list"):
        exe = out / op
        cmd = ["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", f"-I{build.include_dir()}",
               f"-I{HERE / op}", str(HERE / op / f"{op}.cpp"), str(HERE / "driver.cpp"), "-o", str(exe)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        exes[op] = exe
    return exes


def run(exe: Path, *args: str) -> dict:
    r = subprocess.run([str(exe), *args], capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def op_of(result: dict, name: str) -> dict:
    return next(o for o in result["ops"] if o["name"] == name)


ADD_STRUCT = np.dtype([("totalLength", "<u4"), ("tileLength", "<u4"), ("alpha", "<f4"), ("usedCores", "<u4")])


@pytest.mark.parametrize(("dtype", "key"), [("DT_FLOAT", 1), ("DT_FLOAT16", 2)])
@pytest.mark.parametrize(("shape", "tile", "alpha"), [((4, 1000), 128, 0.5), ((3, 7), 16, -2.25), ((64, 4096), 256, 1.0)])
def test_add_scaled_tiling(binaries, dtype, key, shape, tile, alpha) -> None:
    dims = ",".join(map(str, shape))
    res = run(binaries["add_scaled"], "AddScaled", "in", dtype, dims, "in", dtype, dims, "out", dtype, dims,
              "attr", "f", str(alpha), "attr", "i", str(tile))["run"]
    total = int(np.prod(shape))
    used = min(48, max(1, -(-total // tile)))
    assert res["status"] == 0
    assert res["block_dim"] == used
    assert res["tiling_key"] == key
    assert res["workspace"] == [16 * 1024 * 1024 + used * 64]
    got = np.frombuffer(bytes.fromhex(res["tiling"]), dtype=ADD_STRUCT)
    want = np.array([(total, tile, alpha, used)], dtype=ADD_STRUCT)
    assert got.tobytes() == want.tobytes()


def test_add_scaled_failure_status(binaries) -> None:
    res = run(binaries["add_scaled"], "AddScaled", "in", "DT_FLOAT", "8", "attr", "f", "1", "attr", "i", "0")
    assert res["run"]["status"] == 0xFFFFFFFF  # GRAPH_FAILED from the TilingFunc
    assert run(binaries["add_scaled"], "NoSuchOp")["run"]["status"] == 0xFFFFFFFF


def test_add_scaled_registry(binaries) -> None:
    op = op_of(run(binaries["add_scaled"], "NoSuchOp"), "AddScaled")
    assert [(p["name"], p["param_type"], p["dtypes"]) for p in op["inputs"]] == [
        ("x", REQUIRED, ["DT_FLOAT", "DT_FLOAT16"]), ("y", REQUIRED, ["DT_FLOAT", "DT_FLOAT16"])]
    assert [(p["name"], p["dtypes"]) for p in op["outputs"]] == [("z", ["DT_FLOAT", "DT_FLOAT16"])]
    assert [(a["name"], a["attr_type"], a["kind"]) for a in op["attrs"]] == [
        ("alpha", OPTIONAL, "Float"), ("tile", REQUIRED, "Int")]
    assert float(op["attrs"][0]["default"]) == 1.0 and op["attrs"][1]["default"] is None
    assert op["combos"] == [["DT_FLOAT"] * 3, ["DT_FLOAT16"] * 3]
    assert op["configs"] == ["ascend910b"]
    assert op["has_tiling"] and op["has_infer_shape"] and not op["has_parse"]


CONCAT_STRUCT = np.dtype([("tensorNum", "<u4"), ("hasBias", "<u4"), ("lengths", "<i8", 8), ("biasLength", "<i8")])


@pytest.mark.parametrize("with_bias", [False, True])
@pytest.mark.parametrize(("dtype", "base"), [("DT_INT32", 100), ("DT_FLOAT", 200)])
def test_concat_list_dynamic_and_optional(binaries, with_bias, dtype, base) -> None:
    shapes = [(3, 4), (5,), (2, 2, 2)]
    args = ["ConcatList"]
    for s in shapes:
        args += ["in", dtype, ",".join(map(str, s))]
    args += ["ir", "0", str(len(shapes))]
    if with_bias:
        args += ["in", "DT_FLOAT", "7", "ir", "3", "1"]
    else:
        args += ["ir", "3", "0"]
    args += ["attr", "li", "2,5"]
    res = run(binaries["concat_list"], *args)["run"]
    assert res["status"] == 0
    assert res["block_dim"] == len(shapes)
    assert res["tiling_key"] == base + 20 + int(with_bias)
    # TilingParse saw the platform: UB size (192 KiB on the driver's 910B2) reaches the TilingFunc.
    assert res["workspace"] == [192 * 1024, len(shapes) * 32]
    lengths = np.zeros(8, np.int64)
    lengths[: len(shapes)] = [np.prod(s) for s in shapes]
    want = np.zeros(1, CONCAT_STRUCT)
    want[0] = (len(shapes), int(with_bias), lengths, 7 if with_bias else -1)
    assert bytes.fromhex(res["tiling"]) == want.tobytes()


def test_concat_list_registry(binaries) -> None:
    op = op_of(run(binaries["concat_list"], "NoSuchOp"), "ConcatList")
    assert [(p["name"], p["param_type"], p["list"], p["dtypes"]) for p in op["inputs"]] == [
        ("xs", DYNAMIC, False, ["DT_FLOAT", "DT_INT32"]), ("bias", OPTIONAL, True, ["DT_FLOAT"])]
    assert op["combos"] == [["DT_FLOAT", "DT_FLOAT", "DT_FLOAT"], ["DT_INT32", "DT_FLOAT", "DT_INT32"]]
    assert op["attrs"] == [{"name": "axes", "attr_type": OPTIONAL, "kind": "ListInt", "default": "0"}]
    assert op["configs"] == ["ascend310p", "ascend910b"]
    assert op["has_tiling"] and op["has_parse"] and op["compile_info_size"] == 16


def test_op_host_headers_are_host_only() -> None:
    """The op_host headers are ordinary C++: they compile on their own, without device_code.h."""
    inc = build.include_dir()
    for h in ("register/op_def_registry.h", "register/op_impl_registry.h", "exe_graph/runtime/tiling_context.h",
              "graph/utils/type_utils.h", "platform/platform_info.h", "graph/types.h"):
        src = f'#include "{h}"\n#include <cstdlib>\nint main() {{ return std::abs(0); }}\n'
        r = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", f"-I{inc}", "-x", "c++", "-"],
                           input=src, capture_output=True, text=True)
        assert r.returncode == 0, (h, r.stderr)


def test_ge_shape_is_defined_once():
    """ge::Shape serves the adv-API tiling helpers and the graph API: one definition (ascend_sim/ge_shape.h)."""
    import re

    from bench_runner.ascend_sim import build

    root = build.include_dir()
    homes = [str(p.relative_to(root)) for p in root.rglob("*.h")
             if re.search(r"namespace ge \{\s*class Shape\b", p.read_text(encoding="utf-8"))]
    assert homes == ["ascend_sim/ge_shape.h"], homes

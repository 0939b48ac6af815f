"""npukb_pybind + npukb_plan: an NPUKernelBench binding compiled against akgen's torch shim, run
on the call a ModelNew makes, and the routing read from it (bindings written here, in the
benchmark's style; never its files)."""

from __future__ import annotations

import shutil
import types
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the import runs NPUKernelBench's torch references (train extra)")

from bench_runner import npukb_plan, npukb_pybind  # noqa: E402
from bench_runner.op_project import OpDefTensor  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")

# A norm as NPUKernelBench binds it: a constant of its own, a string attribute, a scratch output
# (rstd) in a shape it computes, an optional input, and only y returned.
_NORM = """\
#include <torch/library.h>
#include "pytorch_npu_helper.hpp"

std::vector<at::Tensor> norm_api(at::Tensor x, at::Tensor gamma, c10::optional<at::Tensor> beta,
                                 double eps, std::string mode)
{
    TORCH_CHECK(x.dim() >= gamma.dim(), "gamma has more dims than x");
    std::vector<int64_t> rstdShape = x.sizes().vec();
    for (size_t i = 0; i < gamma.sizes().size(); i++) {
        rstdShape[rstdShape.size() - i - 1] = 1;
    }
    auto options = torch::TensorOptions().dtype(torch::kFloat).device(x.device());
    at::Tensor rstd = torch::empty(rstdShape, options);
    at::Tensor y = torch::empty_like(x);
    at::Tensor b = beta.has_value() ? beta.value() : at::Tensor();
    int64_t axis = -1;
    const char* mode_ = mode.c_str();
    EXEC_NPU_CMD(aclnnNorm, x, gamma, b, eps, axis, mode_, y, rstd);
    return {y};
}

PYBIND11_MODULE(kernel_gen_ops, m) {
    m.def("norm_api", &norm_api, "");
}
"""


@pytest.fixture(scope="module")
def norm(tmp_path_factory: pytest.TempPathFactory) -> npukb_pybind.CompiledBinding:
    src = tmp_path_factory.mktemp("pybind") / "pybind.cpp"
    src.write_text(_NORM, encoding="utf-8")
    return npukb_pybind.CompiledBinding(src, tmp_path_factory.mktemp("build"))


def test_the_shim_records_operands_constants_scratch_outputs_and_returns(norm) -> None:
    x, gamma, beta = torch.randn(4, 6, 8), torch.randn(8), torch.randn(8)
    call = npukb_pybind.Call("norm_api", (x, gamma, beta, 1e-5, "rms"))
    b = norm.run(call)
    assert b.op == "aclnnNorm"
    kinds = [o.kind for o in b.operands]
    assert kinds == ["tensor", "tensor", "tensor", "float", "int", "str", "tensor", "tensor"]
    x_op, _, beta_op, eps, axis, mode, y, rstd = b.operands
    assert (x_op.source, x_op.shape, x_op.dtype) == ("a0", (4, 6, 8), "float32") and beta_op.source == "a2"
    assert eps.value == pytest.approx(1e-5) and axis.value == -1 and mode.value == "rms"
    assert y.source.startswith("n") and y.shape == (4, 6, 8)
    assert rstd.shape == (4, 6, 1) and rstd.dtype == "float32"
    assert b.returns == (y.source,)
    # an absent optional input is an undefined tensor
    none = norm.run(npukb_pybind.Call("norm_api", (x, gamma, None, 1e-5, "rms")))
    assert none.operands[2].kind == "none"


def test_the_plan_judges_only_what_the_binding_returns(norm) -> None:
    x, gamma, beta = torch.randn(4, 8), torch.randn(8), torch.randn(8)
    forward, init = [x, beta], [gamma, 1e-5]
    call = npukb_pybind.Call("norm_api", (x, gamma, beta, 1e-5, "rms"))
    ins = [OpDefTensor("Input", n, ("DT_FLOAT",), False) for n in ("x", "gamma", "beta")]
    outs = [OpDefTensor("Output", n, ("DT_FLOAT",), False) for n in ("y", "rstd")]
    attrs = [("epsilon", "Float"), ("axis", "Int"), ("mode", "String")]
    plan = npukb_plan.binding_plan(ins, attrs, outs, outs, {}, forward, init, call, norm.run(call), 1, torch)
    assert plan.inputs == (0, 2, 1)  # x is forward[0], gamma init[0] (value 2), beta forward[1]
    assert plan.attrs == {"epsilon": pytest.approx(1e-5), "axis": -1, "mode": "rms"}
    assert plan.results == {"y": 0, "rstd": None} and plan.out_shapes == {"y": (4, 8), "rstd": (4, 1)}
    assert plan.sources == (("input", "x"), ("input", "beta"), ("input", "gamma"), ("value",))
    assert plan.values == {3: 1e-5} and plan.n_forward == 2
    with pytest.raises(npukb_plan.PlanSkip, match="optional input"):
        none = npukb_pybind.Call("norm_api", (x, gamma, None, 1e-5, "rms"))
        npukb_plan.binding_plan(ins, attrs, outs, outs, {}, [x, None], init, none, norm.run(none), 1, torch)
    with pytest.raises(npukb_plan.PlanSkip, match="8 operands to aclnnNorm; the OpDef has 3 inputs, 2 attributes"):
        npukb_plan.binding_plan(ins, attrs[:2], outs, outs, {}, forward, init, call, norm.run(call), 1, torch)


def test_the_call_is_recorded_from_model_new_and_matched_to_the_cases_values() -> None:
    module = types.ModuleType("npukb_module_test")
    exec(
        "class ModelNew:\n"
        "    def __init__(self, gamma, eps):\n"
        "        self.gamma, self.eps = gamma, eps\n"
        "    def __call__(self, x, beta):\n"
        "        return kernel_gen_ops.norm_api(x.contiguous(), self.gamma, beta, self.eps, 'rms')\n",
        module.__dict__)
    x, gamma, beta = torch.randn(2, 8), torch.randn(8), torch.randn(8)
    call = npukb_pybind.record_call(module, [gamma, 1e-5], [x, beta])
    assert call.function == "norm_api" and call.args[0] is x and call.args[1] is gamma and call.args[4] == "rms"
    assert not hasattr(module, "kernel_gen_ops")  # the recorder does not stay behind


def test_a_binding_the_shim_cannot_build_says_where(tmp_path: Path) -> None:
    src = tmp_path / "pybind.cpp"
    src.write_text(_NORM.replace("x.sizes().vec()", "x.sym_sizes().vec()"), encoding="utf-8")
    with pytest.raises(npukb_pybind.PybindError, match="does not compile with akgen's torch shim: .*sym_sizes"):
        npukb_pybind.CompiledBinding(src, tmp_path / "build")


def test_a_binding_is_built_in_the_users_own_cache_and_never_taken_from_a_shared_dir(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A built binding is run as found; where others can write, someone else chooses it."""
    src = tmp_path / "pybind.cpp"
    src.write_text(_NORM, encoding="utf-8")
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    built = npukb_pybind.CompiledBinding(src)
    assert built.program.is_relative_to(tmp_path / "cache" / "npukb-pybind") and built.program.is_file()

    shared = tmp_path / "shared"
    shared.mkdir()
    marker = tmp_path / "planted-ran"
    key_dir = shared / built.program.parent.name  # where a planted program would be picked up
    key_dir.mkdir()
    (key_dir / "binding").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (key_dir / "binding").chmod(0o755)
    shared.chmod(0o777)
    with pytest.raises(npukb_pybind.PybindError, match="can be written by others"):
        npukb_pybind.CompiledBinding(src, shared).run(npukb_pybind.Call("norm_api", ()))
    shared.chmod(0o755)
    (shared / "link").symlink_to(key_dir)
    with pytest.raises(npukb_pybind.PybindError, match="is a symbolic link"):
        npukb_pybind.CompiledBinding(src, shared / "link")
    assert not marker.exists()


def test_a_binding_check_that_fails_stops_with_its_message(norm) -> None:
    x = torch.randn(2, 8)
    with pytest.raises(npukb_pybind.PybindError, match="TORCH_CHECK failed: x.dim"):
        norm.run(npukb_pybind.Call("norm_api", (x, torch.randn(2, 2, 8), None, 1e-5, "rms")))
    with pytest.raises(npukb_pybind.PybindError, match="the call gives 2 arguments; the binding takes 5"):
        norm.run(npukb_pybind.Call("norm_api", (x, x)))

"""Each golden model is checked against an independent formulation: the torch CPU operator.

The goldens are numpy code written for this suite; torch is a second implementation of the same
semantics (it comes with the `train` extra). Every listed case of each task is compared in
float64 on the inputs the evaluator would draw for it.
"""

from __future__ import annotations

import numpy as np
import pytest

from bench_runner import dtypes
from bench_runner.reference import load_module, make_inputs
from bench_runner.tasks import get_task

torch = pytest.importorskip("torch", reason="torch comes with the train extra")
F = torch.nn.functional


def _t(arr: np.ndarray):
    return torch.from_numpy(np.ascontiguousarray(arr))


def _pool(a):
    return {"kernel_size": a["kernel_size"], "stride": a["stride"], "padding": a["padding"]}


TORCH = {
    "softmax_fp32_rows": lambda i, a: {"y": F.softmax(_t(i["x"]), dim=-1)},
    "log_softmax_fp32_rows": lambda i, a: {"y": F.log_softmax(_t(i["x"]), dim=-1)},
    "layer_norm_fp32": lambda i, a: {"y": F.layer_norm(
        _t(i["x"]), (i["x"].shape[-1],), _t(i["gamma"]), _t(i["beta"]), eps=a["eps"])},
    "gelu_erf_fp32": lambda i, a: {"y": F.gelu(_t(i["x"]))},
    "softplus_fp32": lambda i, a: {"y": F.softplus(_t(i["x"]), beta=a["beta"], threshold=a["threshold"])},
    "maxpool2d_fp16": lambda i, a: {"y": F.max_pool2d(_t(i["x"]), **_pool(a))},
    "avgpool2d_fp32": lambda i, a: {"y": F.avg_pool2d(
        _t(i["x"]), **_pool(a), count_include_pad=a["count_include_pad"])},
    "interpolate_bilinear_fp32": lambda i, a: {"y": F.interpolate(
        _t(i["x"]), size=(a["out_h"], a["out_w"]), mode="bilinear", align_corners=a["align_corners"])},
    "cross_entropy_fp32": lambda i, a: {"loss": F.cross_entropy(
        _t(i["logits"]), _t(i["target"].astype(np.int64)), ignore_index=a["ignore_index"]).reshape(1)},
    "cumsum_fp32_lastdim": lambda i, a: {"y": torch.cumsum(_t(i["x"]), dim=-1)},
    "topk_largest_fp32": lambda i, a: _topk_stable(_t(i["x"]), a["k"]),
}


def _topk_stable(x, k):
    """torch.topk leaves the order of ties open; the task puts the smaller index first, which is
    what a stable descending sort gives."""
    values, indices = torch.sort(x, dim=-1, descending=True, stable=True)
    return {"values": values[..., :k], "indices": indices[..., :k]}


def _wide(task, inputs):
    by_name = {t.name: t for t in task.inputs}
    return {name: dtypes.to_float64(arr, by_name[name].dtype) if by_name[name].dtype.is_float else arr
            for name, arr in inputs.items()}


@pytest.mark.parametrize("slug", sorted(TORCH))
def test_golden_matches_torch(slug):
    task = get_task(slug)
    module = load_module(task)
    for case in task.cases:
        inputs = _wide(task, make_inputs(task, case, case.seed))
        ours = module.golden({k: v.copy() for k, v in inputs.items()}, dict(case.attributes))
        theirs = TORCH[slug](inputs, dict(case.attributes))
        for name, expected in theirs.items():
            got = np.asarray(ours[name], dtype=np.float64).reshape(tuple(expected.shape))
            np.testing.assert_allclose(
                got, expected.double().numpy(), rtol=1e-9, atol=1e-9,
                err_msg=f"{slug}, case {case.name}, output {name}",
            )

"""A host written the CANN way (user workspace + GetLibApiWorkSpaceSize) and a kernel that uses
GetUserWorkspace must agree: the system part the kernel skips is what the host added."""

from __future__ import annotations

import pytest

from bench_runner.evaluate import evaluate
from bench_runner.tasks import load_task
from tests.bench_runner.conftest import write_task

TOML = """\
format = 1
slug = "wsprobe"
title = "Copy through the user workspace"
level = 1
category = "elementwise"
shape_mode = "dynamic"
entry = "wsprobe"
paths = ["device_only"]
block_dim = "host"
tiling = true
workspace = true

[[inputs]]
name = "x"
dtype = "float32"
shape = ["N"]

[[outputs]]
name = "y"
dtype = "float32"
shape = ["N"]

[[cases]]
name = "n64"
dims = { N = 64 }
seed = 1
"""

TILING_H = """\
#pragma once
#include <cstdint>
struct WsTiling { uint32_t n; };
"""

HOST = """\
#include "akgen_host.h"
#include "ws_tiling.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    const uint32_t n = static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    platform_ascendc::PlatformAscendC platform(context->GetPlatformInfo());
    context->GetTilingData<WsTiling>()->n = n;
    context->GetWorkspaceSizes(1)[0] = n * sizeof(float) + platform.GetLibApiWorkSpaceSize();
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
"""

KERNEL = """\
#include "kernel_operator.h"
#include "ws_tiling.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void wsprobe(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {
    GET_TILING_DATA_WITH_STRUCT(WsTiling, t, tiling);
    GlobalTensor<float> xGm, yGm, usrGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.n);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.n);
    usrGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), t.n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.n * sizeof(float));
    LocalTensor<float> local = buf.Get<float>();
    DataCopy(local, xGm, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(usrGm, local, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(local, usrGm, t.n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, local, t.n);
}
"""

REFERENCE = "def golden(inputs, attrs):\n    return {'y': inputs['x']}\n"


@pytest.mark.parametrize("soc", ["Ascend910B2", "Ascend310P3"])
def test_user_workspace_lies_inside_what_the_host_asked_for(suite, tmp_path, soc):
    folder = write_task(suite, "wsprobe", TOML, {
        "reference.py": REFERENCE,
        "template/include/ws_tiling.h": TILING_H,
        "template/host.cpp": HOST,
        "template/kernel.cpp": KERNEL,
        "expert/kernel.cpp": KERNEL,
    })
    task = load_task(folder)
    result = evaluate(task, KERNEL, None, path="device_only", soc=soc, cache_dir=tmp_path / "cache",
                      baseline=False)
    assert result.passed, result.diagnostics

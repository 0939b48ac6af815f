"""Misuse must fail to compile the way the real API does: a dtype the instruction does not
support, an overload that does not exist, an API that does not exist.

Why: a kernel that compiles here must compile on the NPU toolchain and vice versa for these
classes of mistakes; otherwise cpu-sim would pass kernels the NPU rejects.
"""

from __future__ import annotations

import pytest

PRELUDE = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBuffer(tb, 4096);
    LocalTensor<half> h = tb.Get<half>();
    LocalTensor<float> f = tb.Get<float>();
    LocalTensor<int8_t> i8 = tb.Get<int8_t>();
    LocalTensor<int32_t> i32 = tb.Get<int32_t>();
    LocalTensor<uint8_t> u8 = tb.Get<uint8_t>();
    GlobalTensor<half> gh;
    gh.SetGlobalBuffer((__gm__ half *)x, 64);
"""

CASES = {
    "dtype_add_int8": ("Add(i8, i8, i8, 64);", "Failed to check dtype in Add"),
    "dtype_exp_int32": ("Exp(i32, i32, 64);", "Failed to check dtype in Exp"),
    "dtype_div_int32": ("Div(i32, i32, i32, 64);", "Failed to check dtype in Div"),
    "dtype_whole_reduce_int32": (
        "WholeReduceSum(i32, i32, 64, 1, 1, 1, 8);",
        "Failed to check dtype in WholeReduceSum",
    ),
    "dtype_cast_pair": (
        "LocalTensor<int64_t> d = tb.Get<int64_t>(); Cast(d, h, RoundMode::CAST_RINT, 64);",
        "Failed to check dtype in Cast",
    ),
    "dtype_compare_dst": (
        "Compare(f, h, h, CMPMODE::LT, 128);",
        "Failed to check dtype in Compare",
    ),
    "dtype_select": (
        "Select(u8, u8, u8, u8, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);",  # vsel has no 8-bit lanes
        "Failed to check dtype in Select",
    ),
    "scalar_type_mismatch": ("Adds(h, h, 2.0f, 64);", "no matching function for call to 'Adds("),
    "mixed_tensor_types": ("Add(h, f, f, 64);", "no matching function for call to 'Add("),
    "missing_count": ("Add(h, h, h);", "no matching function for call to 'Add("),
    "level0_missing_params": ("Add(h, h, h, 128, 1);", "no matching function for call to 'Add("),
    "datacopy_gm_to_gm": ("DataCopy(gh, gh, 64);", "no matching function for call to 'DataCopy("),
    "datacopy_type_mismatch": (
        "DataCopy(f, gh, 64);",
        "no matching function for call to 'DataCopy(",
    ),
    "unknown_api": (
        "AscendC::AddReluFoo(h, h, h, 64);",
        "'AddReluFoo' is not a member of 'AscendC'",
    ),
    "element_via_operator_brackets": ("half m = 0; if (h[3] > m) { }", "no match for 'operator>'"),
    "initbuffer_tbuf_with_num": (
        "TBuf<TPosition::VECCALC> t2; pipe.InitBuffer(t2, 2, 1024);",
        "not supports T as TBuf",
    ),
    "tque_without_depth": ("TQue<TPosition::VECIN> q;", "template argument"),
    "alloc_on_depth0_queue": (
        "TQue<TPosition::VECIN, 0> q; pipe.InitBuffer(q, 1, 64); auto t = q.AllocTensor<half>();",
        "needs a queue with depth != 0",
    ),
    "axpy_wrong_pair": ("Axpy(h, f, 1.0f, 64);", "Failed to check dtype in Axpy"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_misuse_fails_to_compile(sim, name):
    body, message = CASES[name]
    proc, _ = sim.compile(PRELUDE + "    " + body + "\n}\n", args=2)
    assert proc.returncode != 0, f"{name} compiled but must not"
    assert message in proc.stderr, proc.stderr[-3000:]


def test_correct_use_of_the_same_apis_compiles(sim):
    body = """
    Add(h, h, h, 64);
    Adds(h, h, (half)2.0, 64);
    Adds<half>(h, h, 2.0f, 64);
    Cast(f, h, RoundMode::CAST_NONE, 64);
    Compare(u8, h, h, CMPMODE::LT, 128);
    Axpy(f, h, (half)1.0, 64);
    half m = h.GetValue(3);
    (void)m;
"""
    proc, _ = sim.compile(PRELUDE + body + "\n}\n", args=2)
    assert proc.returncode == 0, proc.stderr[-3000:]

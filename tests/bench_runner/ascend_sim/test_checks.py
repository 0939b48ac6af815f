"""Every hardware-rule check: it fires with a stable code, names the kernel's own file and line,
exits with status 3 (errors) or 0 (warnings), and lands in the JSON report.

Why: these diagnostics are what a model (or a person) gets back instead of an NPU hang or a
silently wrong result, so each one must point at the offending line.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

FINDING = re.compile(
    r"^\[(ERROR|WARNING)\]\[Core_(\d+)\]\[([^\]]+):(\d+)\]\[([\w:]+)\] ([A-Z_]+): (.+)$", re.M
)

PRELUDE = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z) {
    GlobalTensor<half> gx, gz;
    gx.SetGlobalBuffer((__gm__ half *)x, 1024);
    gz.SetGlobalBuffer((__gm__ half *)z, 1024);
    TPipe pipe;
"""


def kernel(body: str) -> str:
    return PRELUDE + body + "\n}\n"


def marked_line(src: str) -> int:
    for i, line in enumerate(src.splitlines(), 1):
        if "/*HERE*/" in line:
            return i
    raise AssertionError("no /*HERE*/ marker")


def check(
    sim,
    body: str,
    code: str,
    *,
    severity: str = "ERROR",
    api: str | None = None,
    cores: int = 1,
    env: dict | None = None,
    text: str | None = None,
):
    src = kernel(body)
    exe = sim.build(src, args=2)
    run = sim.run(exe, cores, [np.ones(1024, np.float16), np.zeros(1024, np.float16)], env=env)
    coded = [m for m in FINDING.finditer(run.stderr) if m.group(6) == code]
    found = [m for m in coded if m.group(1) == severity]  # a code may also come as the other severity
    assert found, run.stderr
    m = found[0]
    assert m.group(3).endswith("kernel.cpp"), m.group(0)
    assert int(m.group(4)) == marked_line(src), m.group(0)
    if api:
        assert m.group(5) == api, m.group(0)
    if text:
        assert text in m.group(7), m.group(0)
    rep = [f for f in run.report["findings"] if f["code"] == code and f["severity"] == severity.lower()]
    assert rep and rep[0]["severity"] == severity.lower() and rep[0]["line"] == marked_line(src)
    assert rep[0]["file"].endswith("kernel.cpp")
    assert run.returncode == (3 if severity == "ERROR" else 0), run.stderr
    return run


def test_buffers_past_the_ub_are_placed_with_a_warning_as_on_the_npu(sim):
    """On the NPU InitBuffer only computes addresses (CANN's size check is a CPU-debug assert):
    buffers past the physical UB are placed, and a kernel that never touches them runs."""
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 100 * 1024);  /*HERE*/
    LocalTensor<half> t = q.AllocTensor<half>();
    Duplicate(t, (half)1.0, 1024);
    q.FreeTensor(t);
""",
        "UB_OVERFLOW",
        severity="WARNING",
        api="InitBuffer",
        text="more than the 196608-byte Unified Buffer of Ascend910B2",
    )


def test_an_access_past_the_end_of_the_ub_fails(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> spare;
    pipe.InitBuffer(q, 1, 100 * 1024);
    pipe.InitBuffer(spare, 100 * 1024);
    LocalTensor<half> t = spare.Get<half>();
    Duplicate(t, (half)1.0, 40 * 1024);  // the first 92 KiB of the buffer are inside the UB
    Duplicate(t, (half)1.0, 48 * 1024);  /*HERE*/
""",
        "UB_OVERFLOW",
        api="Duplicate",
        text="past the end of the 196608-byte UB of Ascend910B2",
    )


def test_a_scalar_access_past_the_end_of_the_ub_fails(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> low, high;
    pipe.InitBuffer(low, 190 * 1024);
    pipe.InitBuffer(high, 8 * 1024);
    LocalTensor<half> t = high.Get<half>();
    t.SetValue(0, (half)1.0);  // byte 194560: inside
    t.SetValue(2048, (half)1.0);  /*HERE*/
""",
        "UB_OVERFLOW",
        text="past the end of the 196608-byte UB",
    )


def test_a_raw_pointer_access_past_the_end_of_the_ub_fails(sim):
    """The address space past the UB holds placed buffers only: the kernel's own loads and stores
    there through GetPhyAddr fault as on the NPU (no free scratch memory beyond 192 KiB). The
    access hook cannot unwind, so the run ends at once with the finding on stderr (the evaluator
    reads findings from there when the report is missing)."""
    src = kernel("""
    TBuf<TPosition::VECCALC> low, high;
    pipe.InitBuffer(low, 190 * 1024);
    pipe.InitBuffer(high, 8 * 1024);
    LocalTensor<half> t = high.Get<half>();
    __ubuf__ half* p = (__ubuf__ half*)t.GetPhyAddr();
    p[0] = (half)1.0;  // byte 194560: inside
    p[%s] = (half)1.0;
""")
    inside = sim.run(sim.build(src % "1023", args=2), 1, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
    assert inside.returncode == 0, inside.stderr
    past = sim.run(sim.build(src % "1024", args=2), 1, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
    errors = [m for m in FINDING.finditer(past.stderr) if m.group(1) == "ERROR"]
    assert past.returncode == 3 and errors and errors[0].group(6) == "UB_OVERFLOW", past.stderr
    assert "stored 2 byte(s) at Unified Buffer byte 196608" in errors[0].group(7)


def test_buffers_past_the_modelled_address_space_fail_at_initbuffer(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 400 * 1024);  /*HERE*/
""",
        "UB_OVERFLOW",
        api="InitBuffer",
        text="exceeds the 196608-byte Unified Buffer of Ascend910B2",
    )


def test_ub_overflow_depends_on_soc(sim):
    body = """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 100 * 1024);  /*HERE*/
    LocalTensor<half> t = q.AllocTensor<half>();
    q.FreeTensor(t);
"""
    exe = sim.build(kernel(body), args=2)
    ok = sim.run(
        exe,
        1,
        [np.ones(1024, np.float16), np.zeros(1024, np.float16)],
        env={"ASCEND_SIM_SOC": "Ascend310P3"},
    )
    assert ok.returncode == 0, ok.stderr  # 256 KiB of UB on 310P3


def test_too_many_buffers_per_position(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> a, b, c;
    pipe.InitBuffer(a, 3, 1024);
    pipe.InitBuffer(b, 3, 1024);
    pipe.InitBuffer(c, 3, 1024);  /*HERE*/
""",
        "QUE_DEPTH",
        text="at most 8 queue buffers",
    )


def test_enque_beyond_depth(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 2, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> b = q.AllocTensor<half>();
    DataCopy(a, gx, 512);
    DataCopy(b, gx, 512);
    q.EnQue(a);
    q.EnQue(b);  /*HERE*/
""",
        "QUE_DEPTH",
        api="EnQue",
    )


def test_alloc_beyond_buffers(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> b = q.AllocTensor<half>();
    LocalTensor<half> c = q.AllocTensor<half>();  /*HERE*/
""",
        "QUE_DEPTH",
        api="AllocTensor",
        text="would wait forever",
    )


def test_double_free(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    q.FreeTensor(a);
    q.FreeTensor(a);  /*HERE*/
""",
        "QUE_ORDER",
        api="FreeTensor",
        text="double free",
    )


def test_deque_empty(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<half> a = q.DeQue<half>();  /*HERE*/
""",
        "QUE_ORDER",
        api="DeQue",
        text="empty queue",
    )


def test_free_while_enqueued(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    DataCopy(a, gx, 512);
    q.EnQue(a);
    q.FreeTensor(a);  /*HERE*/
""",
        "QUE_ORDER",
        api="FreeTensor",
        text="still in the queue",
    )


def test_enque_foreign_tensor(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q1, q2;
    pipe.InitBuffer(q1, 1, 1024);
    pipe.InitBuffer(q2, 1, 1024);
    LocalTensor<half> a = q1.AllocTensor<half>();
    q2.EnQue(a);  /*HERE*/
""",
        "QUE_ORDER",
        api="EnQue",
        text="does not belong to this queue",
    )


def test_enqueued_but_never_dequeued_warns(sim):
    check(
        sim,
        """
    TQue<TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 1, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    Duplicate(a, (half)1.0, 512);
    q.EnQue(a);  /*HERE*/
""",
        "QUE_ORDER",
        severity="WARNING",
    )


def test_use_after_free(sim):
    check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(q, 1, 1024);
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> o = t.Get<half>();
    DataCopy(a, gx, 512);
    q.FreeTensor(a);
    Add(o, a, a, 512);  /*HERE*/
""",
        "USE_AFTER_FREE",
        api="Add",
    )


_STALE_VECOUT = """
    TQue<TPosition::VECOUT, 1> q;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(q, 1, 1024);
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> o = t.Get<half>();
    Duplicate(a, (half)2.0, 512);
    q.EnQue(a);
    LocalTensor<half> b = q.DeQue<half>();
    DataCopy(gz, b, 512);
    q.FreeTensor(b);
"""


def test_a_vector_read_of_a_freed_vecout_buffer_no_one_reused_is_allowed(sim):
    """The vector pipe is a VECOUT buffer's only writer and runs in order: reading the freed
    buffer before anyone takes it again sees its data (NPUKernelBench's RmsNorm broadcasts rstd
    after copying it out). A DMA of it, or a read after the buffer was taken again, is refused."""
    src = kernel(_STALE_VECOUT + "    Adds(o, a, (half)1.0, 512);\n    DataCopy(gz, o, 512);\n")
    run = sim.run(sim.build(src, args=2), 1, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
    assert run.returncode == 0, run.stderr
    np.testing.assert_array_equal(run.outputs[1][:512], np.full(512, 3.0, np.float16))
    check(sim, _STALE_VECOUT + "    DataCopy(gz, a, 512);  /*HERE*/\n", "USE_AFTER_FREE", api="DataCopy")
    check(sim, _STALE_VECOUT + "    LocalTensor<half> c = q.AllocTensor<half>();\n"
          "    Adds(o, a, (half)1.0, 512);  /*HERE*/\n", "USE_AFTER_FREE", api="Adds")


def test_gm_out_of_bounds_read(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 4096);
    LocalTensor<half> a = t.Get<half>();
    DataCopy(a, gx[1000], 64);  /*HERE*/
""",
        "GM_OOB",
        api="DataCopy",
        text="past the end of the GmAlloc'd buffer",
    )


def test_an_access_into_the_last_blocks_padding_is_allowed_a_block_further_is_not(sim):
    """One half element in GM read and written as one whole 32-byte block passes, as on the NPU
    (allocations are whole blocks); a write a block further is GM_OOB. Reads may run to the end of
    torch_npu's 512-byte allocation block (Catlass reads a bias row as 512-byte bursts), not past."""
    body = """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 4096);
    LocalTensor<half> a = t.Get<half>();
    GlobalTensor<half> one;
    one.SetGlobalBuffer((__gm__ half*)x, 1);
    DataCopy(a, one, %d);  /*HERE*/
    %s
"""
    for count, then, oob in [(16, "", False), (256, "", False), (272, "", True), (16, "DataCopy(one, a, 16);", False),
                             (16, "DataCopy(one, a, 32);", True)]:
        exe = sim.build(kernel(body % (count, then)), args=2)
        run = sim.run(exe, 1, [np.ones(1, np.float16), np.zeros(1024, np.float16)])
        assert ("GM_OOB" in run.codes()) is oob, (count, then, run.stderr)
        assert oob or run.returncode == 0, run.stderr


def test_a_write_into_the_padding_is_reported_as_a_warning(sim):
    """Issue #30, logical bounds: a full-block copy into a one-element output still passes (the
    buffer's own allocation is whole blocks, and NPUKernelBench's answers do it), but the write past
    the tensor's logical end is reported: where outputs are packed or views, it clobbers the
    neighbour on the NPU. A read of the same padding is not reported."""
    body = """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 4096);
    LocalTensor<half> a = t.Get<half>();
    GlobalTensor<half> one;
    one.SetGlobalBuffer((__gm__ half*)x, 1);
    DataCopy(a, one, 16);
    %s
"""
    write = body % "DataCopy(one, a, 16);  /*HERE*/"
    exe = sim.build(kernel(write), args=2)
    run = sim.run(exe, 1, [np.ones(1, np.float16), np.zeros(1024, np.float16)])
    assert run.returncode == 0, run.stderr
    pad = [f for f in run.report["findings"] if f["code"] == "GM_PAD_WRITE"]
    assert pad and pad[0]["severity"] == "warning" and pad[0]["line"] == marked_line(kernel(write)), run.stderr
    assert "30 byte" in pad[0]["message"] or "past the end" in pad[0]["message"]
    read_only = sim.run(sim.build(kernel(body % ""), args=2), 1, [np.ones(1, np.float16), np.zeros(1024, np.float16)])
    assert "GM_PAD_WRITE" not in read_only.codes(), read_only.stderr


def test_gm_out_of_bounds_write(sim):
    check(
        sim,
        """
    gz.SetValue(1024, (half)1.0);  /*HERE*/
""",
        "GM_OOB",
        api="GlobalTensor::SetValue",
    )


def test_local_out_of_bounds_count(sim):
    """Past the physical Unified Buffer the NPU faults: an error."""
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)0, 512);
    Add(a, a, a, 100000);  /*HERE*/
""",
        "LOCAL_OOB",
        api="Add",
        text="holds only 1024 bytes",
    )


def test_local_out_of_bounds_index(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 64);
    LocalTensor<half> a = t.Get<half>();
    a.SetValue(100000, (half)1.0);  /*HERE*/
""",
        "LOCAL_OOB",
        api="SetValue",
    )


def test_a_tensor_from_an_uninitialised_tbuf_fails_where_it_is_used(sim):
    """Get on a TBuf InitBuffer never set up hands out a tensor without a buffer, as the NPU hands
    out an address (NPUKernelBench's TanhMath gets a scratch tensor it uses only for half): a
    warning there, and an error at the first API that touches it."""
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> unused, t;
    pipe.InitBuffer(t, 256);
    LocalTensor<half> never = unused.Get<half>();
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)0, 128);
    Adds(never, a, (half)1, 128);  /*HERE*/
""",
        "BAD_PARAM",
        api="Adds",
        text="never allocated",
    )


def test_an_access_past_its_tensor_inside_the_ub_does_what_the_npu_does(sim):
    """The NPU bounds no access by its LocalTensor: inside the Unified Buffer a vector write past
    a 32-byte TBuf lands in the next buffer (NPUKernelBench's FeedsRepeat casts 32 int64 into
    one), and a scalar read past a tensor reads what lies there. Both are carried out, with a
    LOCAL_OOB warning at the line; the values decide, as on the NPU."""
    src = kernel("""
    TBuf<TPosition::VECCALC> small, next;
    pipe.InitBuffer(small, 32);
    pipe.InitBuffer(next, 256);
    LocalTensor<half> a = small.Get<half>();
    LocalTensor<half> b = next.Get<half>();
    Duplicate(b, (half)2.0, 128);
    Duplicate(a, (half)1.0, 48);  /*HERE*/
    event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    half past = a.GetValue(40);
    Muls(b, b, past, 128);
    event_t vm = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(vm);
    WaitFlag<HardEvent::V_MTE3>(vm);
    DataCopy(gz, b, 128);
""")
    exe = sim.build(src, args=2)
    run = sim.run(exe, 1, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
    assert run.returncode == 0, run.stderr
    warned = [m for m in FINDING.finditer(run.stderr) if m.group(6) == "LOCAL_OOB"]
    assert warned and all(m.group(1) == "WARNING" for m in warned), run.stderr
    assert int(warned[0].group(4)) == marked_line(src)
    # 16 halves of b were overwritten with 1.0 by the spill, the rest stayed 2.0; all scaled by 1.0
    got = run.outputs[1][:128]
    np.testing.assert_array_equal(got, np.r_[np.ones(32), np.full(96, 2.0)].astype(np.float16))


def test_copy_length_not_whole_blocks(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = t.Get<half>();
    DataCopy(a, gx, 15);  /*HERE*/
""",
        "COPY_ALIGN",
        api="DataCopy",
        text="rounds it down to 0 bytes",
    )


def test_unaligned_local_address(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 2048);
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)1, 1024);
    Add(a[3], a[16], a[32], 64);  /*HERE*/
""",
        "ADDR_ALIGN",
        api="Add",
        text="not 32-byte aligned",
    )


def test_uninitialised_read_warns(sim):
    run = check(
        sim,
        """
    TQue<TPosition::VECIN, 1> q;
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(q, 1, 1024);
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> o = t.Get<half>();
    Exp(o, a, 512);  /*HERE*/
    q.FreeTensor(a);
    DataCopy(gz, o, 512);
""",
        "UNINIT_READ",
        severity="WARNING",
        api="Exp",
    )
    assert run.codes("error") == []


def test_mask_out_of_range(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 2048);
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)1, 1024);
    Add(a, a, a, 200, 1, BinaryRepeatParams());  /*HERE*/
""",
        "BAD_PARAM",
        api="Add",
        text="valid range is 1 ~ 128",
    )


def test_repeat_out_of_range(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 2048);
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)1, 1024);
    WholeReduceSum(a, a, 128, 300, 1, 1, 8);  /*HERE*/
""",
        "BAD_PARAM",
        api="WholeReduceSum",
        text="repeatTime",
    )


def test_zero_length_buffer(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 0);  /*HERE*/
""",
        "BAD_PARAM",
        api="InitBuffer",
    )


def test_co2_is_global_memory_on_910b(sim):
    check(
        sim,
        """
    TQue<TPosition::CO2, 1> q;
    pipe.InitBuffer(q, 1, 1024);  /*HERE*/
""",
        "BAD_PARAM",
        api="InitBuffer",
    )


def test_datacopypad_unsupported_on_310p(sim):
    check(
        sim,
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = t.Get<half>();
    DataCopyExtParams p(1, 10, 0, 0, 0);
    DataCopyPad(a, gx, p, DataCopyPadExtParams<half>());  /*HERE*/
""",
        "UNSUPPORTED",
        env={"ASCEND_SIM_SOC": "Ascend310P3"},
    )


def test_error_in_one_core_names_that_core(sim):
    run = check(
        sim,
        """
    if (GetBlockIdx() == 2) {
        gz.SetValue(5000, (half)1.0);  /*HERE*/
    }
""",
        "GM_OOB",
        cores=4,
    )
    assert "[ERROR][Core_2]" in run.stderr
    assert run.report["findings"][0]["core"] == 2


@pytest.mark.parametrize(
    "body,signal",
    [
        ("volatile int* p = nullptr;\n    *p = 1;", 11),
        # (an integer division by zero no longer crashes: the NPU does not trap, test_mechanics.py)
        ("__builtin_trap();", 4),
    ],
    ids=["SIGSEGV", "SIGILL"],
)
def test_crash_is_reported_and_reraised(sim, body, signal):
    src = kernel(
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)1, 512);  /*HERE*/
    """
        + body
    )
    exe = sim.build(src, args=2)
    run = sim.run(exe, 1, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
    assert run.returncode == -signal, run.stderr
    m = [m for m in FINDING.finditer(run.stderr) if m.group(6) == "CRASH"]
    assert m and int(m[0].group(4)) == marked_line(src)  # the last API call before the crash
    # The crash happens on a core thread, whose system-call filter (kernel_seccomp.h) forbids
    # opening files: the report file is not written, stderr carries the finding.
    findings = (run.report or {}).get("findings") or [{"code": "CRASH"}]
    assert findings[0]["code"] == "CRASH"


def test_cores_crashing_together_still_report_the_crash(sim):
    """Every core faults at once: the first to fault reports, the others wait for it instead of
    ending the process first (which lost the finding, now and then, under load)."""
    src = kernel(
        """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);
    LocalTensor<half> a = t.Get<half>();
    Duplicate(a, (half)1, 512);
    SyncAll();  // every core leaves the barrier together and faults at once
    volatile int* p = nullptr;
    *p = 1;
    """
    )
    exe = sim.build(src, args=2)
    for _ in range(40):  # lost about one time in eight before the fix
        run = sim.run(exe, 16, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
        assert run.returncode == -11, run.stderr
        assert any(m.group(6) == "CRASH" for m in FINDING.finditer(run.stderr)), run.stderr


def test_sim_timeout(sim):
    src = kernel("""
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 1024);  /*HERE*/
    volatile bool forever = true;
    while (forever) {
    }
""")
    exe = sim.build(src, args=2)
    run = sim.run(
        exe,
        2,
        [np.ones(1024, np.float16), np.zeros(1024, np.float16)],
        env={"ASCEND_SIM_TIMEOUT_S": "1"},
        timeout=30,
    )
    assert run.returncode == 3, run.stderr
    assert "SIM_TIMEOUT" in run.codes("error")
    m = [m for m in FINDING.finditer(run.stderr) if m.group(6) == "SIM_TIMEOUT"]
    assert m and int(m[0].group(4)) == marked_line(src)


def test_kernel_argument_not_from_gmalloc(sim):
    host = r"""
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z);
int main() {
    static uint8_t not_gm[64];
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(64);
    ICPU_RUN_KF(k, 1, not_gm, z);
    return 0;
}
"""
    import tempfile
    from pathlib import Path

    d = Path(tempfile.mkdtemp())
    (d / "host.cpp").write_text(host)
    proc, exe = sim.compile(kernel("gz.SetValue(0, (half)1);"), args=2, host=d / "host.cpp")
    assert proc.returncode == 0, proc.stderr
    import subprocess

    r = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 3
    assert "GM_OOB" in r.stderr and "not allocated with AscendC::GmAlloc" in r.stderr


HOST_TWO_LAUNCHES = r"""
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z);
int main() {
    uint8_t* x = (uint8_t*)AscendC::GmAlloc(2048);
    uint8_t* z = (uint8_t*)AscendC::GmAlloc(2048);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(k, 2, x, z);
    ICPU_RUN_KF(k, 4, x, z);
    AscendC::GmFree(x);
    AscendC::GmFree(x);
    return 0;
}
"""


def test_two_launches_and_double_gmfree(sim, tmp_path):
    import json
    import os
    import subprocess

    (tmp_path / "host.cpp").write_text(HOST_TWO_LAUNCHES)
    proc, exe = sim.compile(
        kernel("gz.SetValue(GetBlockIdx(), (half)1);"), args=2, host=tmp_path / "host.cpp"
    )
    assert proc.returncode == 0, proc.stderr
    report = tmp_path / "r.json"
    r = subprocess.run(
        [str(exe)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "ASCEND_SIM_REPORT": str(report)},
    )
    assert r.returncode == 3
    assert "[ERROR][Host]" in r.stderr and "BAD_PARAM" in r.stderr and "GmFree" in r.stderr
    rep = json.loads(report.read_text())
    assert [launch["block_dim"] for launch in rep["launches"]] == [2, 4]
    assert rep["block_dim"] == 4 and len(rep["cores"]) == 4
    assert rep["findings"][-1]["code"] == "BAD_PARAM" and rep["findings"][-1]["core"] == -1


def test_clean_kernel_has_no_findings(sim):
    """Common correct patterns (level-0 Duplicate into a fresh buffer, queues, DataCopyPad,
    reductions into a tensor) must not produce false warnings."""
    src = kernel("""
    TQue<TPosition::VECOUT, 1> q;
    TBuf<TPosition::VECCALC> tmp;
    pipe.InitBuffer(q, 2, 1024);
    pipe.InitBuffer(tmp, 1024);
    for (int i = 0; i < 2; ++i) {
        LocalTensor<half> a = q.AllocTensor<half>();
        Duplicate(a, (half)2.0, 128, 4, 1, 8);
        LocalTensor<half> t = tmp.Get<half>();
        DataCopyPad(t, gx, DataCopyExtParams(1, 100, 0, 0, 0), DataCopyPadExtParams<half>(false, 0, 0, (half)0));
        Add(a, a, t, 50);  // the 50 halves DataCopyPad brought in (the row's tail is padding)
        q.EnQue(a);
        LocalTensor<half> b = q.DeQue<half>();
        DataCopy(gz[i * 512], b, 512);
        q.FreeTensor(b);
    }
""")
    exe = sim.build(src, args=2)
    run = sim.run(exe, 2, [np.ones(1024, np.float16), np.zeros(1024, np.float16)])
    assert run.returncode == 0, run.stderr
    assert run.stderr == "" and run.report["findings"] == []
    for half_ in (run.outputs[1][:512], run.outputs[1][512:]):
        assert (half_[:50] == 3).all() and (half_[50:] == 2).all()


def test_select_runs_the_dtypes_the_npu_runs_with_a_cpu_debug_warning(sim):
    """Issue #31: CANN checks Select's dtypes with ASCENDC_ASSERT, evaluated by its CPU-debug build
    only; on the NPU vsel selects 32-bit lanes by the mask's bits whatever the C++ types (an int8_t
    mask, int32 data: NPUKernelBench's Less answer). It runs, selects by the bits, and warns."""
    body = """
    TBuf<TPosition::VECCALC> t;
    pipe.InitBuffer(t, 4096);
    LocalTensor<int32_t> a = t.GetWithOffset<int32_t>(64, 0);
    LocalTensor<int32_t> d = t.GetWithOffset<int32_t>(64, 256);
    LocalTensor<int8_t> m = t.GetWithOffset<int8_t>(32, 512);
    Duplicate(a, 7, 64);
    Duplicate(m.ReinterpretCast<int16_t>(), (int16_t)0x0F0F, 16);
    Select(d, m, a, 0, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);  /*HERE*/
    for (int i = 0; i < 16; ++i) gz.SetValue(i, (half)(float)d.GetValue(i));
"""
    run = check(sim, body, "CPU_DEBUG_ASSERT", severity="WARNING", api="Select", text="runs on the NPU")
    assert list(run.outputs[1][:16]) == [7, 7, 7, 7, 0, 0, 0, 0] * 2, run.outputs[1][:16]

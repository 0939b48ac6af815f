"""A realistic task and evaluator results for page tests (no evaluator needed).

The result objects follow the evaluator's contract in shared design (verdict, stage, compile_log,
diagnostics, cases, perf with a per-pipe timeline, baseline, speedup, toolchain, duration_s).
Rows are moved through the same service calls a worker makes: claim, stages, finish.
"""

from __future__ import annotations

import copy

from bench_runner.contracts import EvaluationResult
from submissions.models import Evaluation
from tasks.models import Task, TaskVersion
from workers import pipeline

API_DESC = """\
# Add

Element-wise sum of two tensors: `z = x + y`.

## Shapes and dtypes

| tensor | dtype | shape |
|---|---|---|
| x | float16 | [N] |
| y | float16 | [N] |
| z | float16 | [N] |

`N` is a multiple of 256 elements; the kernel runs on `block_dim = 8` cores, each taking
`N / 8` elements in tiles of `TILE_LENGTH`.

## Kernel signature

```cpp
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z);
```

<script>alert("not rendered")</script>
"""

TEMPLATE = """\
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 8 * 2048;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    // TODO: copy x and y in tiles, add them, copy z out.
}
"""

EXPERT = """\
#include "kernel_operator.h"

constexpr int32_t TOTAL_LENGTH = 8 * 2048;
constexpr int32_t USE_CORE_NUM = 8;
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_NUM = 8;
constexpr int32_t BUFFER_NUM = 2;
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ half *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ half *)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm;
    AscendC::GlobalTensor<half> yGm;
    AscendC::GlobalTensor<half> zGm;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
"""

#: The expert kernel with the vector add dropped: compiles, runs, writes garbage.
WRONG = EXPERT.replace("        AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);\n",
                       "        AscendC::Muls(zLocal, xLocal, (half)2.0, TILE_LENGTH);\n")
#: A typo on the Add line (line 44): does not compile.
BROKEN = EXPERT.replace("AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);",
                        "AscendC::Add(zLocal, xLocal, yLokal, TILE_LENGTH);")
ADD_LINE = EXPERT.split("\n").index("        AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);") + 1

SPEC = {
    "slug": "add",
    "title": "Add",
    "level": 1,
    "category": "elementwise",
    "shape_mode": "static",
    "entry": "add_custom",
    "paths": ["device_only", "host_device"],
    "block_dim": 8,
    "tiling": {},
    "workspace": 0,
    "kernel_args": ["x", "y", "z"],
    "inputs": [{"name": "x", "dtype": "float16", "shape": ["N"]},
               {"name": "y", "dtype": "float16", "shape": ["N"]}],
    "outputs": [{"name": "z", "dtype": "float16", "shape": ["N"]}],
    "attributes": {},
    "cases": [
        {"name": "small", "dims": {"N": 2048}, "seed": 1, "attributes": {}},
        {"name": "medium", "dims": {"N": 16384}, "seed": 2, "attributes": {}},
        {"name": "large", "dims": {"N": 131072}, "seed": 3, "attributes": {}},
    ],
    "tolerances": {"float16": {"rtol": 0.001, "atol": 0.001}},
    "reduce_dim": None,
    "version": "add-v1",
}


def make_add_task(slug: str = "add", *, title: str = "Add", level: int = 1, category: str = "elementwise",
                  shape_mode: str = "static", dtypes=("float16",)) -> Task:
    task = Task.objects.create(slug=slug, title=title, level=level, category=category, shape_mode=shape_mode,
                               dtypes=list(dtypes), paths=["device_only", "host_device"])
    version = TaskVersion.objects.create(
        task=task, content_hash=f"{slug}-v1".ljust(64, "0"), spec={**SPEC, "slug": slug, "title": title},
        api_desc=API_DESC.replace("# Add", f"# {title}", 1), template_kernel=TEMPLATE,
        template_host="// host template\nint main() { return 0; }\n", expert_kernel=EXPERT,
    )
    task.current_version = version
    task.save()
    return task


def _timeline(cores: int = 8, tiles: int = 16, core_skew: int = 40) -> list[dict]:
    events = []
    for core in range(cores):
        t_in = t_v = t_out = core * core_skew
        for tile in range(tiles):
            t_in += 20
            events.append({"core": core, "pipe": "MTE2", "op": "DataCopy GM->UB", "start": t_in, "end": t_in + 180,
                           "line": 33})
            t_in += 180
            start_v = max(t_in, t_v)
            events.append({"core": core, "pipe": "V", "op": "Add", "start": start_v, "end": start_v + 60,
                           "line": ADD_LINE})
            t_v = start_v + 60
            start_o = max(t_v, t_out)
            events.append({"core": core, "pipe": "MTE3", "op": "DataCopy UB->GM", "start": start_o,
                           "end": start_o + 150, "line": 51})
            t_out = start_o + 150
            if tile % 4 == 0:
                events.append({"core": core, "pipe": "S", "op": "loop", "start": t_in - 200, "end": t_in - 190,
                               "line": 27})
    return events


def _perf(per_case: list[int], events: list[dict]) -> dict:
    """As the evaluator reports it: cycles summed over cases; pipes (slowest core) and timeline
    of the first case."""
    names = [c["name"] for c in SPEC["cases"]]
    return {
        "cycles": sum(per_case), "est_us": round(sum(per_case) / 1850.0, 3),
        "pipes": {"MTE2": 2880, "MTE1": 0, "V": 960, "M": 0, "FIX": 0, "MTE3": 2400, "S": 40},
        "per_case": [{"name": n, "cycles": c, "est_us": round(c / 1850.0, 3), "block_dim": 8,
                      "pipes": {"MTE2": 2880, "V": 960, "MTE3": 2400, "S": 40}} for n, c in zip(names, per_case, strict=False)],
        "timeline": events,
    }


TOOLCHAIN = {"name": "cpu-sim", "version": "0.1.0", "soc": "Ascend910B2"}

PASSED = {
    "verdict": "passed",
    "stage": "done",
    "compile_log": "",
    "diagnostics": [],
    "cases": [{"name": c["name"], "passed": True, "max_abs_err": 0.0, "max_rel_err": 0.0, "mismatch_count": 0,
               "trials": [{}, {}, {}, {}], "perf": {"cycles": cycles}}
              for c, cycles in zip(SPEC["cases"], (3690, 9030, 58200), strict=True)],
    "perf": _perf([3690, 9030, 58200], _timeline()),
    "baseline": {"source": "expert", "cycles": 74330, "per_case": []},
    "speedup": 1.0481,
    "toolchain": TOOLCHAIN,
    "source_sha256": "0" * 64,
    "duration_s": 2.4,
}

WRONG_ANSWER = {
    "verdict": "wrong_answer",
    "stage": "verify",
    "compile_log": "kernel.cpp: In member function 'void KernelAdd::Compute(int32_t)':\n"
                   f"kernel.cpp:{ADD_LINE}:9: warning: unused variable 'yLocal' [-Wunused-variable]\n",
    "reason": "case small, seed 1: z: 2048 of 2048 elements differ (max abs err 2.871 at [17])",
    "diagnostics": [
        {"category": "other", "message": "unused variable 'yLocal' [-Wunused-variable]", "file": "kernel.cpp",
         "line": ADD_LINE, "column": 9, "source": "compiler", "severity": "warning", "code": None, "notes": []},
        {"category": "numerical_mismatch", "message": "z: 2048 of 2048 elements differ (max abs err 2.871 at [17])",
         "file": None, "line": None, "column": None, "source": "verifier", "severity": "error", "code": None,
         "notes": []},
    ],
    "cases": [
        {"name": "small", "passed": False, "max_abs_err": 2.871, "max_rel_err": 1.0, "mismatch_count": 2048,
         "trials": [{"seed": 1, "listed": True, "passed": False,
                     "summary": "z: 2048 of 2048 elements differ (max abs err 2.871 at [17])"}, {}, {}, {}],
         "perf": {"cycles": 3650}},
    ],
    "perf": None,
    "baseline": {"source": "expert", "cycles": 74330, "per_case": []},
    "speedup": None,
    "toolchain": TOOLCHAIN,
    "duration_s": 2.1,
}

COMPILE_ERROR = {
    "verdict": "compile_error",
    "stage": "compile",
    "compile_log": (
        "kernel.cpp: In member function 'void KernelAdd::Compute(int32_t)':\n"
        f"kernel.cpp:{ADD_LINE}:42: error: 'yLokal' was not declared in this scope; did you mean 'yLocal'?\n"
        f"   {ADD_LINE} |         AscendC::Add(zLocal, xLocal, yLokal, TILE_LENGTH);\n"
        "      |                                          ^~~~~~\n"
        "      |                                          yLocal\n"
        "/opt/akgen/ascend_sim/include/kernel_operator.h:812:6: note: candidate: 'template<class T> void Add(...)'\n"
        "compilation terminated due to -Wfatal-errors.\n"
    ),
    "reason": "'yLokal' was not declared in this scope; did you mean 'yLocal'?",
    "diagnostics": [{"category": "undeclared", "message": "'yLokal' was not declared in this scope; did you mean 'yLocal'?",
                     "file": "kernel.cpp", "line": ADD_LINE, "column": 42, "source": "compiler", "severity": "error",
                     "code": None, "notes": []}],
    "cases": [],
    "perf": None,
    "baseline": None,
    "speedup": None,
    "toolchain": TOOLCHAIN,
    "duration_s": 0.8,
}


def judge_row(evaluation: Evaluation, result: dict, *, stages=("compile", "run", "verify", "measure")) -> Evaluation:
    """Walk an evaluation through what a worker does (claim, stages, finish) with ``result``."""
    claim = pipeline.evaluation_claim(evaluation_id=evaluation.pk, worker="test-worker/1")
    assert claim is not None
    for stage in stages:
        pipeline.evaluation_set_stage(claim, stage)
    assert pipeline.evaluation_finish(claim, EvaluationResult.from_dict(copy.deepcopy(result)))
    evaluation.refresh_from_db()
    return evaluation

"""The exact prompt a model is given for a task, and the parser for its answer.

Both live here so the rules the prompt states and the parser that enforces them cannot drift
apart. The prompt is deterministic (no dates, no random examples): a task version yields one
prompt text, which datasets can hash.
"""

from __future__ import annotations

import re

from bench_runner import op_project, tasks
from bench_runner.contracts import DEFAULT_SOC
from bench_runner.errors import SubmissionError
from bench_runner.launcher import kernel_declaration

RULES_COMMON = [
    "Write AscendC for the vector/cube cores: include \"kernel_operator.h\" and use the AscendC API "
    "(TPipe, TQue/TBuf, LocalTensor, GlobalTensor, DataCopy/DataCopyPad, vector instructions).",
    "Use `half` for float16 and `bfloat16_t` for bfloat16 elements.",
    "DataCopy moves whole 32-byte blocks: lengths and Unified Buffer offsets must be multiples of 32 bytes; "
    "use DataCopyPad (or pad the tile) for tails that are not.",
    "Pair every AllocTensor/EnQue with DeQue/FreeTensor; stay within the Unified Buffer capacity.",
    "Spread the work over every launched core with GetBlockIdx()/GetBlockNum().",
    "Do not use files, processes, threads, sockets, the environment, clocks or the emulator's internals; "
    "such submissions are rejected.",
]


def build_prompt(task: tasks.Task, path: str, *, soc: str = DEFAULT_SOC, aiv_cores: int = 48,
                 ub_bytes: int = 196608) -> str:
    """The prompt for ``task`` on ``path`` (device_only: kernel only; host_device: kernel + host)."""
    if path not in task.paths:
        raise SubmissionError(f"task {task.slug} does not offer the {path} path (it offers {', '.join(task.paths)})")
    parts = [
        f"You are an expert AscendC kernel engineer. Task: {task.title} "
        f"(level {task.level}, {task.category}, {task.shape_mode} shapes).",
        "## Specification\n\n" + task.api_desc.strip(),
        "## Kernel entry point\n\n```cpp\n" + kernel_declaration(task) + ";\n```\n"
        + _args_text(task),
        f"## Hardware\n\n{soc}: {aiv_cores} vector (AIV) cores, Unified Buffer {ub_bytes} bytes per core, "
        "32-byte data blocks, 256-byte vector repeats.",
        "## Test cases\n\n" + _cases_text(task),
    ]
    for name, header in task.shared_headers():
        parts.append(f"## Shared header `{name}` (given; include it, do not submit it)\n\n```cpp\n"
                     + header.read_text(encoding="utf-8").strip() + "\n```")
    parts.append("## Kernel template\n\n```cpp\n" + task.template_kernel.read_text(encoding="utf-8").strip()
                 + "\n```")
    if task.host_template is not None:
        host_text = task.host_template.read_text(encoding="utf-8").strip()
        if path == "device_only":
            parts.append("## Host tiling (fixed: it runs before your kernel and fills the tiling data it reads)"
                         "\n\n```cpp\n" + host_text + "\n```")
        else:
            parts.append("## Host tiling template (you write this file too)\n\n```cpp\n" + host_text + "\n```\n"
                         "The host file includes \"akgen_host.h\" and defines "
                         "`ge::graphStatus optiling::TilingFunc(gert::TilingContext* context)`: read shapes with "
                         "`context->GetInputShape(i)->GetOriginShape()`, set the launch width with "
                         "`context->SetBlockDim(n)`, write your tiling struct with "
                         "`context->GetTilingData<YourTiling>()`, request workspace with "
                         "`context->GetWorkspaceSizes(1)[0] = bytes`. The kernel receives the same bytes "
                         "through its `tiling` argument: declare the same plain struct in both files.")
    rules = RULES_COMMON + _format_rules(path)
    parts.append("## Rules\n\n" + "\n".join(f"{i}. {r}" for i, r in enumerate(rules, 1)))
    return "\n\n".join(parts) + "\n"


def _args_text(task: tasks.Task) -> str:
    lines = []
    for t in task.inputs:
        lines.append(f"- `{t.name}`: input, {t.dtype.name} ({t.dtype.cpp}), shape [{', '.join(map(str, t.shape))}]")
    for t in task.outputs:
        where = f" (written in place into `{t.alias}`)" if t.alias else ""
        where += "" if t.judged else " (the op writes it; the task does not compare it)"
        lines.append(f"- `{t.name}`: output, {t.dtype.name} ({t.dtype.cpp}), shape "
                     f"[{', '.join(map(str, t.shape))}]{where}")
    if task.workspace:
        lines.append("- `workspace`: global-memory scratch of the size the host tiling requests")
    if task.tiling:
        lines.append("- `tiling`: the tiling data the host tiling wrote")
    if task.block_dim is not None:
        lines.append(f"The kernel is launched on {task.block_dim} cores ({task.kernel_mode.upper()} mode).")
    else:
        lines.append(f"The host tiling chooses the number of cores ({task.kernel_mode.upper()} mode).")
    if task.attributes:
        lines.append("Attributes: " + ", ".join(f"`{k}` = {v!r}" for k, v in task.attributes.items()))
    return "\n".join(lines)


def _cases_text(task: tasks.Task) -> str:
    rows = []
    for c in task.cases:
        shapes = "; ".join(f"{t.name} {list(c.shape_of(t))}" for t in task.inputs)
        extra = {k: v for k, v in c.attributes.items() if task.attributes.get(k) != v}
        rows.append(f"- {c.name}: {shapes}" + (f" (attributes {extra})" if extra else ""))
    note = ("Every case must pass with the same kernel; shapes reach the kernel through the tiling data."
            if task.shape_mode == "dynamic" else "Shapes are fixed: constants may be hard-coded in the kernel.")
    return "\n".join(rows) + "\n" + note + " Random inputs are drawn afresh for every evaluation."


def _format_rules(path: str) -> list[str]:
    if path == "device_only":
        return ["Answer with exactly one ```cpp code block holding the complete kernel file "
                "(kernel.cpp); nothing outside the block is compiled."]
    return ["Answer with exactly two ```cpp code blocks: the first line of one is `// file: kernel.cpp`, "
            "of the other `// file: host.cpp`; nothing outside the blocks is compiled. A CANN op project is "
            "accepted too, each file under a banner line `================== op_host/<op>.cpp ==================` "
            "(also `op_host/<op>_tiling.h`, `op_kernel/<op>.cpp`) followed by its ```cpp block: the op_host "
            "file registers the OpDef (OP_ADD) whose TilingFunc runs, and the kernel reads DTYPE_<NAME> and "
            "GET_TILING_DATA as CANN's op build provides them."]


_BLOCK = re.compile(r"```(?:cpp|c\+\+|cc|c)?[ \t]*\n(.*?)```", re.S)
_FILE_TAG = re.compile(r"^\s*//\s*file:\s*(\S+)\s*$", re.M)


def extract_sources(answer: str, path: str) -> tuple[str, str | None]:
    """(kernel, host) from a model's answer, following the format rules above (for host_device,
    a CANN op project under file banners gives the kernel and the op_host bundle:
    bench_runner/op_project.py)."""
    if path == "host_device":
        try:
            project = op_project.split_answer(answer)
        except op_project.BundleError as exc:
            raise SubmissionError(str(exc)) from None
        if project is not None:
            return project
    blocks = [b.strip("\n") + "\n" for b in _BLOCK.findall(answer)]
    if path == "device_only":
        if len(blocks) != 1:
            raise SubmissionError(f"expected exactly one ```cpp block, found {len(blocks)}")
        return blocks[0], None
    named: dict[str, str] = {}
    for b in blocks:
        m = _FILE_TAG.search(b.split("\n", 1)[0])
        if m:
            named[m[1]] = b
    if set(named) != {"kernel.cpp", "host.cpp"}:
        raise SubmissionError("expected two ```cpp blocks starting with `// file: kernel.cpp` and "
                              f"`// file: host.cpp`, found {sorted(named) or 'none'}")
    return named["kernel.cpp"], named["host.cpp"]

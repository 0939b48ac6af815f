"""The prompt a model is given for a task.

bench_runner owns prompt building (`akgen prompt`); while it offers no builder, the prompt is the
task's specification followed by the skeleton(s) to complete.
"""

from __future__ import annotations

from tasks.models import Task


def task_prompt(task: Task) -> str:
    version = task.current_version
    if version is None:
        return ""
    parts = [
        "You are writing an AscendC kernel for a Huawei Ascend NPU.",
        "",
        version.api_desc.strip(),
    ]
    if version.template_kernel.strip():
        parts += ["", "Complete this kernel (kernel.cpp):", "```cpp", version.template_kernel.rstrip(), "```"]
    if version.template_host.strip():
        parts += ["", "Host-side template (host.cpp, for the host_device path):", "```cpp",
                  version.template_host.rstrip(), "```"]
    parts += ["", "Answer with the complete kernel source in one ```cpp block."]
    return "\n".join(parts) + "\n"

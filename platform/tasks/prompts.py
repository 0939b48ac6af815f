"""The prompt a model is given for a task: bench_runner's prompt builder (`akgen prompt`) when the
task on disk is the version the database holds, else a plain fallback (specification + templates),
e.g. for an old version or a task whose folder is gone."""

from __future__ import annotations

import logging

from tasks.models import Task
from tasks.suites import task_on_disk

logger = logging.getLogger(__name__)


def task_prompts(task: Task) -> dict[str, str]:
    """One prompt per path the task offers ({"device_only": …, "host_device": …})."""
    version = task.current_version
    if version is None:
        return {}
    paths = list(task.paths or ["device_only"])
    try:
        from bench_runner import prompt as builder

        on_disk = task_on_disk(task.slug, task.suite)
        if on_disk.version == version.content_hash:
            return {path: builder.build_prompt(on_disk, path) for path in paths}
    except Exception:  # the suite may be elsewhere or malformed; the fallback still helps
        logger.info("no prompt builder result for %s; using the fallback", task.slug, exc_info=True)
    return {path: fallback_prompt(version, path) for path in paths}


def default_path(task: Task) -> str:
    paths = task.paths or ["device_only"]
    return "device_only" if "device_only" in paths else paths[0]


def fallback_prompt(version, path: str) -> str:
    """The prompt built from what the database holds of a version (releases use it too)."""
    parts = ["You are writing an AscendC kernel for a Huawei Ascend NPU.", "", version.api_desc.strip()]
    if version.template_kernel.strip():
        parts += ["", "Complete this kernel:", "```cpp", version.template_kernel.rstrip(), "```"]
    if version.template_host.strip():
        title = "Host tiling template (you write this file too):" if path == "host_device" else \
            "Host tiling (fixed; it fills the tiling data your kernel reads):"
        parts += ["", title, "```cpp", version.template_host.rstrip(), "```"]
    parts += ["", "Answer with the complete source in ```cpp blocks."]
    return "\n".join(parts) + "\n"

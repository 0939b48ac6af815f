"""A small Ascend-CoT release written in exactly the exporter's format (issue #9), for tests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

SYSTEM = "You are an expert AscendC kernel engineer."
KERNEL = ("```cpp\n#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void add(GM_ADDR x) {}\n"
          "```")


def _conv(subset: str, i: int) -> dict:
    user = {
        "code_cot": f"Write the add kernel number {i} for half inputs.",
        "doc_qa": f"What does DataCopy move, question {i}?",
        "api_fix": f"This kernel fails to compile (error {i}): no matching function for call to Add.",
        "kernel_fix": f"This kernel gives wrong answers on case {i}; the ground truth is x + y.",
    }[subset]
    reasoning = (f"REASONING-{subset}-{i}: split the tensor over GetBlockNum() cores, copy tiles of 32-byte "
                 "blocks into the Unified Buffer, add them with the vector unit and copy out.")
    answer = KERNEL if subset != "doc_qa" else f"DataCopy moves whole 32-byte blocks ({i})."
    return {"messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user},
                         {"role": "assistant", "content": answer, "reasoning": reasoning}],
            "meta": {"task": f"add_{i}", "subset": subset, "source": "fixture"}}


def _pref(i: int) -> dict:
    return {"prompt": [{"role": "system", "content": SYSTEM},
                       {"role": "user", "content": f"Write the add kernel number {i}."}],
            "chosen": [{"role": "assistant", "content": KERNEL}],
            "rejected": [{"role": "assistant", "content": f"```cpp\nint broken_{i} = ;\n```"}],
            "meta": {"task": f"add_{i}", "chosen_verdict": "passed", "rejected_verdict": "wrong_answer"}}


def write_release(root: Path, *, n_train: int = 12, n_val: int = 4, version: str = "2026.12.0-test",
                  subsets: tuple[str, ...] = ("code_cot", "doc_qa", "api_fix", "kernel_fix", "dpo")) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    counts, files = {}, {}
    for subset in subsets:
        (root / subset).mkdir(exist_ok=True)
        counts[subset] = {}
        for split, n, offset in (("train", n_train, 0), ("validation", n_val, 1000)):
            rows = [_pref(offset + i) if subset == "dpo" else _conv(subset, offset + i) for i in range(n)]
            path = root / subset / f"{split}.jsonl"
            path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
            counts[subset][split] = n
            files[f"{subset}/{split}.jsonl"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (root / "README.md").write_text("---\npretty_name: Ascend-CoT (test)\n---\n# Ascend-CoT test release\n")
    files["README.md"] = hashlib.sha256((root / "README.md").read_bytes()).hexdigest()
    manifest = {"version": version, "subsets": counts, "files": files}
    (root / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return root

"""The `akgen` command line: evaluate kernels and inspect the task suite without the web site.

Exit statuses: 0 success (for ``eval``: the kernel passed), 1 the kernel did not pass or a
check failed, 2 the input was unusable (unknown task, missing file, wrong path, malformed task),
3 the evaluator could not run here (toolchain or sandbox missing).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bench_runner.contracts import number
from bench_runner.errors import (
    AkgenError,
    InfrastructureError,
    InputError,
    TaskFormatError,
)

if TYPE_CHECKING:
    from bench_runner.contracts import EvaluationResult
    from bench_runner.tasks import SuiteLoad

EXIT_OK, EXIT_FAIL, EXIT_INPUT, EXIT_INFRA = 0, 1, 2, 3


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="akgen",
        description="akgen: evaluate AscendC kernels against the NPUKernelBench-style task suite.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    suite = sub.add_parser("suite", help="list, show and validate the tasks")
    ssub = suite.add_subparsers(dest="suite_command", metavar="SUBCOMMAND", required=True)
    p = ssub.add_parser("list", help="list tasks")
    p.add_argument("--level", type=int, choices=(1, 2, 3))
    p.add_argument("--json", action="store_true")
    p.add_argument("--markdown", action="store_true", help="the table of docs/suite.md")
    p = ssub.add_parser("show", help="show one task")
    p.add_argument("slug")
    p.add_argument("--json", action="store_true")
    p = ssub.add_parser("import-npukb", help="import NPUKernelBench's tasks (a checkout) as an akgen suite")
    p.add_argument("npukb", type=Path, nargs="?", metavar="DIR",
                   help="an NPUKernelBench checkout (default: $AKGEN_NPUKB_DIR)")
    p.add_argument("--out", type=Path, required=True, metavar="SUITE", help="folder to write the tasks into")
    p.add_argument("--only", nargs="*", default=[], metavar="NAME", help="only these tasks (e.g. Equal Muls)")
    p.add_argument("--limit", type=int, default=0, help="at most this many NPUKernelBench tasks")
    p.add_argument("--max-case-elements", type=int, default=None, metavar="N",
                   help="drop cases of more than N elements in all (default: none of the benchmark's is dropped; "
                        "its 2^28-element Foreach cases take about a minute each to judge on one core)")
    p.add_argument("--eval", action="store_true", help="then evaluate each expert on cpu-sim and count per level")
    p.add_argument("--json", action="store_true")
    p = ssub.add_parser("validate", help="check task formats, expert kernels (every case) and templates (compile)")
    p.add_argument("slugs", nargs="*", metavar="SLUG")
    p.add_argument("--toolchain", default="cpu-sim")
    p.add_argument("--soc")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("prompt", help="print the exact prompt a model is given")
    p.add_argument("--task", required=True, metavar="SLUG")
    p.add_argument("--path", required=True, choices=("device_only", "host_device"))

    p = sub.add_parser("eval", help="evaluate one kernel")
    p.add_argument("--task", required=True, metavar="SLUG")
    p.add_argument("--kernel", type=Path, metavar="FILE", help="the kernel source (or give --project)")
    p.add_argument("--host", type=Path, metavar="FILE",
                   help="host tiling file or op_host bundle (host_device path; docs/evaluator.md)")
    p.add_argument("--project", type=Path, metavar="DIR",
                   help="a CANN op project folder (op_kernel/<op>.cpp, op_host/<op>.cpp + headers): "
                        "its kernel, and its op_host as the host (host_device path)")
    p.add_argument("--path", choices=("device_only", "host_device"),
                   help="default: host_device when --host is given, else the task's first path")
    p.add_argument("--toolchain", default="cpu-sim", choices=("cpu-sim", "cann"))
    p.add_argument("--soc")
    p.add_argument("--json", action="store_true", help="print the result object")
    p.add_argument("--keep", type=Path, metavar="DIR", help="copy the scratch directory here")
    p.add_argument("--seed", type=int, help="replay the random trials of an earlier result (no cache)")
    p.add_argument("--trials", type=int, default=3, metavar="N", help="random trials per case (>= 3)")
    p.add_argument("--no-cache", action="store_true")
    p.add_argument("--cache-dir", type=Path)

    sample = sub.add_parser("sample", help="build and run a CANN CPU-debug sample folder on cpu-sim")
    sample_sub = sample.add_subparsers(dest="sample_command", metavar="SUBCOMMAND", required=True)
    p = sample_sub.add_parser("run", help="gen_data.py, build (sandboxed), run, verify_result.py")
    p.add_argument("dir", type=Path, metavar="DIR", help="the sample folder (main.cpp, kernel .cpp, scripts/)")
    p.add_argument("--soc", help="SoC profile (default: cpu-sim's default)")
    p.add_argument("--verify-args", metavar="ARGS",
                   help="arguments of scripts/verify_result.py (default: as run.sh passes them)")
    p.add_argument("--timeout", type=float, default=120.0, metavar="S", help="wall-clock limit of the program run")
    p.add_argument("--keep", type=Path, metavar="DIR", help="copy the build box (sources, binary, data) here")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("doctor", help="which toolchains and SoCs this host can serve")
    p.add_argument("--json", action="store_true")

    # trainer/ (imported only when these run; `train` needs the `train` extra: torch, TRL, PEFT)
    train = sub.add_parser("train", help="SFT / DPO on an Ascend-CoT release, GRPO on the task suite "
                           "(the `train` extra)")
    tsub = train.add_subparsers(dest="train_command", metavar="SUBCOMMAND", required=True)
    for kind in TRL_COMMANDS:
        p = tsub.add_parser(kind, add_help=False, help=f"{kind.upper()} with TRL: --config FILE|RECIPE, any "
                            "field as --flag (akgen train sft --help lists them)")
        p.set_defaults(trl_args=[])  # main() hands everything after `train sft|dpo|grpo` to TRL's parser
    p = tsub.add_parser("make-tiny-model", help="a tiny Qwen3 model + tokenizer for CPU tests (no downloads)")
    p.add_argument("dir", type=Path)
    p.add_argument("--hidden-size", type=int, default=64)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--kv-heads", type=int, default=2)
    p.add_argument("--head-dim", type=int, default=16, help="vLLM needs 64")
    p.add_argument("--vocab-size", type=int, default=800)
    p = tsub.add_parser("merge-lora", help="fold a LoRA adapter into its base model (after ZeRO-3 LoRA SFT)")
    p.add_argument("adapter", type=Path)
    p.add_argument("--out", type=Path, help="default: ADAPTER/merged")
    p.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16", "float32"))

    p = sub.add_parser("generate", help="sample k kernels per task from a model and submit them to a run")
    from trainer.generate import add_arguments

    add_arguments(p)
    p = sub.add_parser("export", help="build an Ascend-CoT release on the platform and unpack it into --out")
    from bench_runner.export_client import add_arguments as export_arguments

    export_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    trl_args = None
    if len(argv) >= 2 and argv[0] == "train" and argv[1] in TRL_COMMANDS:
        argv, trl_args = argv[:2], argv[2:]
    args = parser.parse_args(argv)
    if trl_args is not None:
        args.trl_args = trl_args
    if args.command is None:
        parser.print_help()
        return EXIT_OK
    handler = {"suite": _suite, "prompt": _prompt, "eval": _eval, "doctor": _doctor, "train": _train,
               "generate": _generate, "export": _export, "sample": _sample}[args.command]
    try:
        return handler(args, sys.stdout)
    except InfrastructureError as exc:
        print(f"akgen: cannot evaluate here: {exc}", file=sys.stderr)
        return EXIT_INFRA
    except (InputError, AkgenError) as exc:
        print(f"akgen: {exc}", file=sys.stderr)
        return EXIT_INPUT


def _dump(obj: Any, out: TextIO) -> None:
    """Strict JSON: no bare NaN/Infinity (the evaluator writes those as strings)."""
    json.dump(obj, out, indent=2, sort_keys=False, allow_nan=False)
    out.write("\n")


# ---------------------------------------------------------------------------------------------
# suite


def _suite(args: argparse.Namespace, out: TextIO) -> int:
    from bench_runner import tasks

    if args.suite_command == "show":
        task = tasks.get_task(args.slug)
        if args.json:
            _dump(task.summary(), out)
        else:
            s = task.summary()
            out.write(f"{task.slug}: {task.title}\n  level {task.level}, {task.category}, {task.shape_mode}, "
                      f"paths {', '.join(task.paths)}, block_dim {s['block_dim']}\n"
                      f"  kernel: {task.entry}({', '.join(task.kernel_args)})\n")
            for t in s["inputs"] + s["outputs"]:
                out.write(f"  {t['name']}: {t['dtype']} {t['shape']}\n")
            for c in s["cases"]:
                wall = c["limits"].get("run_wall_s")
                out.write(f"  case {c['name']}: {c['dims']}" + (f" (run limit {wall:g} s)" if wall else "") + "\n")
            out.write(f"  version {task.version[:16]}\n  folder {task.root}\n")
        return EXIT_OK
    if args.suite_command == "import-npukb":
        return _import_npukb(args, out)
    loaded = tasks.load_suite()
    if args.suite_command == "list":
        rows = [t for t in loaded.tasks if args.level is None or t.level == args.level]
        if args.markdown:
            from bench_runner.suite_doc import suite_markdown

            out.write(suite_markdown(rows))
        elif args.json:
            _dump([{k: t.summary()[k] for k in ("slug", "title", "level", "category", "shape_mode", "paths")}
                   for t in rows], out)
        else:
            for t in rows:
                out.write(f"{t.slug:32} L{t.level}  {t.category:14} {t.shape_mode:8} {t.title}\n")
        for err in loaded.errors:
            print(f"akgen: malformed task: {err}", file=sys.stderr)
        return EXIT_OK if not loaded.errors else EXIT_INPUT
    return _validate(args, loaded, out)


def _import_npukb(args: argparse.Namespace, out: TextIO) -> int:
    """Import (bench_runner/npukb_import.py), then optionally evaluate every imported expert."""
    import os

    from bench_runner import npukb_import

    root = args.npukb or (Path(os.environ["AKGEN_NPUKB_DIR"]) if os.environ.get("AKGEN_NPUKB_DIR") else None)
    if root is None or not root.is_dir():
        raise InputError("give an NPUKernelBench checkout: akgen suite import-npukb DIR --out SUITE "
                         "(or set AKGEN_NPUKB_DIR)")
    if not any(npukb_import.find_tasks(root)):
        raise InputError(f"{root}: no NPUKernelBench tasks (tasks/level*/<Category>/<Name>/answer) found")
    try:
        import torch  # noqa: F401
    except ImportError:
        raise InputError("the import runs NPUKernelBench's torch references: install torch "
                         "(scripts/setup.sh train, or pip install torch)") from None

    def show(rec: npukb_import.TaskImport) -> None:
        if not args.json:
            what = ", ".join(rec.slugs) if rec.slugs else f"skipped: {rec.skipped}"
            out.write(f"L{rec.level} {rec.name:28} {what}\n")
            out.flush()

    report = npukb_import.import_suite(root, args.out, only=args.only, limit=args.limit, on_task=show,
                                       max_case_elements=args.max_case_elements)
    summary: dict[str, Any] = {"levels": report.by_level(), "skipped": report.skip_reasons()}
    if args.eval:
        summary["evaluation"] = _evaluate_imported(report, args.out, out, quiet=args.json)
    full = {**summary, "tasks": [vars(t) for t in report.tasks], "checkout": _checkout_of(root),
            "max_case_elements": args.max_case_elements or npukb_import.MAX_CASE_ELEMENTS}
    # The suite keeps its own import report (scripts/serve --npukb reads it to skip a re-import).
    (args.out / npukb_import.REPORT_FILE).write_text(json.dumps(full, indent=1, default=str), encoding="utf-8")
    if args.json:
        _dump(full, out)
        return EXIT_OK
    out.write("\nlevel  tasks  imported  akgen tasks\n")
    for level, row in summary["levels"].items():
        out.write(f"L{level}     {row['tasks']:5}  {row['imported']:8}  {row['akgen_tasks']:11}\n")
    for reason, n in summary["skipped"].items():
        out.write(f"  skipped {n:3}: {reason}\n")
    if args.eval:
        out.write("\nexperts on cpu-sim (host_device)\nlevel  tasks  compiled  ran  passed\n")
        for level, row in summary["evaluation"]["levels"].items():
            out.write(f"L{level}     {row['tasks']:5}  {row['compiled']:8}  {row['ran']:3}  {row['passed']:6}\n")
        for reason, n in summary["evaluation"]["blockers"][:25]:
            out.write(f"  {n:3} x {reason}\n")
        sc = summary["evaluation"]["npukb_score"]
        per = "  ".join(f"L{k} {v:.1f}" for k, v in sc["levels"].items())
        out.write(f"NPUKernelBench score of its own answers: {sc['total']:.1f} ({per}; skipped tasks and "
                  "dropped cases count as failed)\n")
    out.write(f"suite written to {args.out} (use it with AKGEN_SUITE_DIR={args.out})\n")
    return EXIT_OK


def _checkout_of(root: Path) -> dict[str, str | None]:
    """Where the tasks came from: the checkout's path and git commit (None outside git)."""
    import subprocess

    try:
        proc = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=False)
        commit = proc.stdout.strip() if proc.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        commit = None
    return {"path": str(root.resolve()), "commit": commit}


def _evaluate_imported(report: Any, suite: Path, out: TextIO, *, quiet: bool) -> dict[str, Any]:
    """Each imported expert through `evaluate` on host_device, on all cores (suite_eval.py);
    counts per level, blockers ranked, every task's and case's verdict, and the benchmark's own
    score of its answers (npukb_score.py: skipped tasks and dropped cases count as failed)."""
    from collections import Counter, defaultdict

    from bench_runner import npukb_score, suite_eval

    def show(o: suite_eval.ExpertOutcome) -> None:
        if not quiet:
            out.write(f"  {o.slug:36} {o.verdict}{'' if o.passed else '  ' + o.reason[:110]}\n")
            out.flush()

    slugs = [slug for rec in report.tasks for slug in rec.slugs]
    outcomes = {o.slug: o for o in suite_eval.judge_experts(slugs, suite, on_done=show)}
    levels: dict[int, dict[str, int]] = defaultdict(lambda: {"tasks": 0, "compiled": 0, "ran": 0, "passed": 0})
    blockers: Counter[str] = Counter()
    scored = []
    for rec in report.tasks:
        passed = total = 0
        for slug in rec.slugs:
            o = outcomes[slug]
            row = levels[o.level]
            row["tasks"] += 1
            row["compiled"] += o.compiled
            row["ran"] += o.ran
            row["passed"] += o.passed
            if o.blocker:
                blockers[o.blocker] += 1
            passed += sum(o.cases.values())
            total += len(o.cases)
        scored.append(npukb_score.TaskCases(rec.name, rec.level, passed, total + len(rec.dropped_cases)))
    score = npukb_score.score(scored)
    return {"levels": dict(sorted(levels.items())), "blockers": blockers.most_common(),
            "npukb_score": score.to_dict(), "tasks": [outcomes[s].to_dict() for s in slugs]}


def _validate(args: argparse.Namespace, loaded: SuiteLoad, out: TextIO) -> int:
    from bench_runner.evaluate import compile_only, evaluate

    wanted = set(args.slugs)
    known = {t.slug for t in loaded.tasks} | {e.slug for e in loaded.errors}
    missing = sorted(wanted - known)
    if missing:
        raise InputError(f"unknown task(s): {', '.join(missing)}")
    report: list[dict[str, Any]] = []
    ok = True
    for err in loaded.errors:
        if not wanted or err.slug in wanted:
            ok = False
            report.append({"task": err.slug, "check": "format", "ok": False, "detail": str(err)})
    for task in loaded.tasks:
        if wanted and task.slug not in wanted:
            continue
        for path in task.paths:
            host = task.expert_host.read_text() if path == "host_device" and task.expert_host else None
            try:
                res = evaluate(task, task.expert_kernel.read_text(), host, path=path, toolchain=args.toolchain,
                               soc=args.soc, use_cache=False, baseline=False)
            except TaskFormatError as exc:  # reference.py fails when it runs
                ok = False
                report.append({"task": task.slug, "check": f"expert/{path}", "ok": False, "detail": str(exc)})
                continue
            ok &= res.passed
            report.append({"task": task.slug, "check": f"expert/{path}", "ok": res.passed,
                           "detail": res.reason or f"{len(task.cases)} cases passed"})
            tmpl_host = task.host_template.read_text() if path == "host_device" and task.host_template else None
            built = compile_only(task, task.template_kernel.read_text(), tmpl_host, path=path,
                                 toolchain=args.toolchain, soc=args.soc)
            ok &= built["compiled"]
            detail = "compiles" if built["compiled"] else (built["diagnostics"][:1] or [{"message": built["compile_log"][-300:]}])[0]["message"]
            report.append({"task": task.slug, "check": f"template/{path}", "ok": built["compiled"], "detail": detail})
    if args.json:
        _dump({"ok": ok, "checks": report}, out)
    else:
        for r in report:
            out.write(f"{'ok  ' if r['ok'] else 'FAIL'} {r['task']:28} {r['check']:22} {r['detail']}\n")
        out.write(f"{'all checks passed' if ok else 'some checks FAILED'} ({len(report)} checks)\n")
    return EXIT_OK if ok else EXIT_FAIL


# ---------------------------------------------------------------------------------------------
# prompt, eval, doctor


def _prompt(args: argparse.Namespace, out: TextIO) -> int:
    from bench_runner import tasks
    from bench_runner.prompt import build_prompt

    out.write(build_prompt(tasks.get_task(args.task), args.path))
    return EXIT_OK


def _read_source(path: Path, what: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{what} file not found: {path}") from None
    except (UnicodeDecodeError, IsADirectoryError, PermissionError) as exc:
        raise InputError(f"cannot read {what} file {path}: {exc}") from None


def _eval(args: argparse.Namespace, out: TextIO) -> int:
    from bench_runner.evaluate import evaluate

    if args.project is not None:
        if args.kernel is not None or args.host is not None:
            raise InputError("give either --project or --kernel/--host, not both")
        from bench_runner import op_project

        try:
            project = op_project.read_project(args.project)
        except (OSError, UnicodeDecodeError, op_project.BundleError) as exc:
            raise InputError(f"cannot read op project {args.project}: {exc}") from None
        kernel, host = project.kernel, project.host
    elif args.kernel is None:
        raise InputError("give --kernel FILE (and --host FILE for host_device), or --project DIR")
    else:
        kernel = _read_source(args.kernel, "kernel")
        host = _read_source(args.host, "host") if args.host else None
    progress = None if args.json else _progress_printer()
    result = evaluate(args.task, kernel, host, path=args.path, toolchain=args.toolchain, soc=args.soc,
                      cache_dir=args.cache_dir, use_cache=not args.no_cache, seed=args.seed,
                      trials_per_case=args.trials, keep_dir=args.keep, on_stage=progress)
    if args.json:
        _dump(result.to_dict(), out)
    else:
        _print_result(result, out)
    return EXIT_OK if result.passed else EXIT_FAIL


def _progress_printer() -> Any:
    seen: set[str] = set()

    def show(stage: str) -> None:
        if stage not in seen:
            seen.add(stage)
            print(f"… {stage}", file=sys.stderr, flush=True)

    return show


def _print_result(r: EvaluationResult, out: TextIO) -> None:
    head = f"{r.verdict.upper()}  {r.task.get('slug')} [{r.path}] on {r.toolchain.get('name')}/{r.toolchain.get('soc')}"
    out.write(head + ("  (cached)" if r.cache.get("hit") else "") + "\n")
    if r.reason:
        out.write(f"  reason: {r.reason}\n")
    for d in r.diagnostics[:20]:
        where = f"{d.file}:{d.line}" if d.file and d.line else (d.file or "-")
        out.write(f"  [{d.category}] {where}: {d.message}\n")
    for c in r.cases:
        detail = f", max abs err {c.max_abs_err:.3g}" if c.passed and c.max_abs_err is not None else ""
        if not c.passed and c.mismatch_count:
            detail = f", {c.mismatch_count} mismatched elements"
        out.write(f"  case {c.name}: {'passed' if c.passed else 'FAILED'} ({len(c.trials)} trials{detail})\n")
    if r.perf:
        p = r.perf
        cycles = f"{p['cycles']} cycles, " if p.get("cycles") else ""
        est = number(p.get("est_us"))
        out.write(f"  perf: {cycles}{est:.2f} us\n" if est is not None else f"  perf: {cycles}(no time)\n")
    if r.speedup is not None:
        source = (r.baseline or {}).get("source", "baseline")
        out.write(f"  speedup vs {source}: {r.speedup:.3f}x"
                  + ("  SUSPICIOUS (flagged for review)" if r.suspicious else "") + "\n")
    elif r.baseline and r.baseline.get("error"):
        out.write(f"  baseline: {r.baseline['error']}\n")
    out.write(f"  seed {r.seeds.get('master')} (replay with --seed); {r.duration_s:.2f}s\n")


def _sample(args: argparse.Namespace, out: TextIO) -> int:
    import shlex

    from bench_runner.cann_sample import format_result, run_sample

    verify = shlex.split(args.verify_args) if args.verify_args is not None else None
    result = run_sample(args.dir, soc=args.soc, keep=args.keep, run_wall_s=args.timeout, verify=verify)
    if args.json:
        _dump(result.to_dict(), out)
    else:
        out.write(format_result(result))
    return EXIT_OK if result.ok else EXIT_FAIL


def _doctor(args: argparse.Namespace, out: TextIO) -> int:
    from bench_runner import sandbox, toolchains

    try:
        be = sandbox.backend()
        sb = {"backend": be.name, "note": be.reason, "uid": be.drop_uid}
    except InfrastructureError as exc:
        sb = {"backend": None, "note": str(exc), "uid": None}
    rows = []
    for name in toolchains.names():
        try:
            a = toolchains.get(name).availability()
            rows.append({"toolchain": name, "ok": a.ok, "socs": list(a.socs), "reason": a.reason})
        except AkgenError as exc:
            rows.append({"toolchain": name, "ok": False, "socs": [], "reason": str(exc)})
    if args.json:
        _dump({"sandbox": sb, "toolchains": rows}, out)
    else:
        out.write(f"sandbox: {sb['backend'] or 'NONE'} ({sb['note']})\n")
        for r in rows:
            out.write(f"{r['toolchain']:8} {'yes' if r['ok'] else 'no ':3}  {', '.join(r['socs']) or '-'}\n"
                      f"         {r['reason']}\n")
    return EXIT_OK if any(r["ok"] for r in rows) else EXIT_INFRA


# ---------------------------------------------------------------------------------------------
# train, generate (trainer/)

#: `akgen train` subcommands whose arguments go to TRL's parser (trainer/sft.py, dpo.py, grpo.py).
TRL_COMMANDS = ("sft", "dpo", "grpo")
TRAIN_EXTRA = ("torch", "transformers", "trl", "peft", "datasets", "accelerate", "tokenizers")


def _missing(modules: Sequence[str]) -> list[str]:
    from importlib.util import find_spec

    return [m for m in modules if find_spec(m) is None]


def _train(args: argparse.Namespace, out: TextIO) -> int:
    missing = _missing(TRAIN_EXTRA)
    if missing:
        print(f"akgen train needs the `train` extra (missing: {', '.join(missing)}): "
              ".venv/bin/pip install -c requirements/constraints.txt -e '.[train]'", file=sys.stderr)
        return EXIT_INFRA
    from trainer.errors import TrainerInputError

    try:
        if args.train_command == "make-tiny-model":
            from trainer.tiny import make_tiny_model

            folder = make_tiny_model(args.dir, hidden_size=args.hidden_size, num_layers=args.layers,
                                     num_heads=args.heads, num_kv_heads=args.kv_heads, head_dim=args.head_dim,
                                     vocab_size=args.vocab_size)
            out.write(f"tiny Qwen3 model and tokenizer written to {folder}\n")
            return EXIT_OK
        if args.train_command == "merge-lora":
            from trainer.merge import merge_lora

            out.write(f"merged model written to {merge_lora(args.adapter, args.out, dtype=args.dtype)}\n")
            return EXIT_OK
        if args.train_command == "sft":
            from trainer.sft import main as train_main
        elif args.train_command == "grpo":
            from trainer.grpo import main as train_main
        else:
            from trainer.dpo import main as train_main
        return train_main(list(args.trl_args))
    except TrainerInputError as exc:
        print(f"akgen train: {exc}", file=sys.stderr)
        return EXIT_INPUT


def _generate(args: argparse.Namespace, out: TextIO) -> int:
    if args.backend == "transformers" and _missing(("torch", "transformers")):
        print("akgen generate --backend transformers needs torch and transformers (the `train` extra)",
              file=sys.stderr)
        return EXIT_INFRA
    from trainer.generate import run_cli

    return run_cli(args, out)


def _export(args: argparse.Namespace, out: TextIO) -> int:
    from bench_runner.export_client import run_cli

    return run_cli(args, out)


if __name__ == "__main__":
    sys.exit(main())

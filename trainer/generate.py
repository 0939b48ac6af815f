"""`akgen generate`: sample k kernels per task from a model and submit them to the platform.

    akgen generate --run RUN_ID --model PATH_OR_NAME --backend vllm|openai|transformers --k 10 \
        [--tasks eval|train|all|a,b] [--temperature 0.8] [--submit] [--wait]

For each task the prompt (the platform's, which is ``bench_runner.prompt.build_prompt`` of the
task version it serves) goes to the model as one user message; k completions come back from

* ``vllm``: offline ``LLM.chat`` with ``SamplingParams(n=k)`` (imported only when chosen; vLLM
  pins its own torch and transformers, so it lives in its own environment: docs/training.md);
* ``openai``: any OpenAI-compatible ``/v1/chat/completions`` endpoint (``--base-url``), with
  ``n`` and a loop for endpoints that return fewer choices, retries on 429/5xx;
* ``transformers``: ``model.generate(num_return_sequences=k)`` for small models.

The kernel (and, on the host_device path, the host file) is extracted by the format rules the
prompt states (``bench_runner.prompt.extract_sources``). A completion without it is still
submitted, as a kernel that stops at ``#error akgen-format: …``, so it counts as a compile
failure instead of vanishing from pass@k. Every raw completion is saved under ``--out`` in
``samples.jsonl``; samples are submitted in one batch per ``--batch-size`` to
``POST /api/v1/submissions/batch/`` with ``run`` and ``sample_index``. Re-running skips
samples the platform already has for the run (and reuses completions saved locally).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bench_runner import platform_access
from bench_runner.taxonomy import FORMAT_MARK  # the judge's classifier files these under "format"
from trainer.progress import Counter


class GenerateError(Exception):
    """The generator cannot go on (platform or model endpoint refused, bad arguments)."""


# --- completions and their parsing ------------------------------------------------------------------


@dataclass
class Completion:
    #: The answer (reasoning split off).
    text: str
    reasoning: str | None = None
    finish_reason: str | None = None
    #: What the backend returned, unparsed.
    raw: str = ""


def split_reasoning(raw: str) -> tuple[str | None, str]:
    """(reasoning, answer) of a raw completion with an inline ``<think>…</think>`` block."""
    if "</think>" in raw:
        head, _, tail = raw.partition("</think>")
        return head.split("<think>")[-1].strip() or None, tail.lstrip("\n")
    return None, raw


def format_failure_source(reason: str) -> str:
    reason = " ".join(reason.split())[:300]
    return (f"#error {FORMAT_MARK}: the completion holds no answer in the format the prompt demands "
            f"({reason})\n")


def extract(answer: str, path: str) -> tuple[str, str | None, str | None]:
    """(kernel, host, format error) for ``answer``; on a format error, sources that fail to compile."""
    from bench_runner.errors import SubmissionError
    from bench_runner.prompt import extract_sources

    try:
        kernel, host = extract_sources(answer, path)
        return kernel, host, None
    except SubmissionError as exc:
        placeholder = format_failure_source(str(exc))
        return placeholder, placeholder if path == "host_device" else None, str(exc)


# --- backends ----------------------------------------------------------------------------------------


@dataclass
class Decoding:
    temperature: float = 0.8
    top_p: float = 0.95
    max_tokens: int = 4096
    seed: int | None = None
    enable_thinking: bool | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


class OpenAIBackend:
    """Any OpenAI-compatible chat endpoint, over http.client (no extra dependency)."""

    name = "openai"

    def __init__(self, base_url: str, model: str, decoding: Decoding, *, api_key: str | None = None,
                 timeout: float = 600.0, retries: int = 4, max_n: int = 16, concurrency: int = 4) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model, self.decoding = model, decoding
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self.timeout, self.retries, self.max_n, self.concurrency = timeout, retries, max_n, concurrency

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(body).encode()
        delay = 1.0
        for attempt in range(self.retries + 1):
            req = urllib.request.Request(self.url, data=data, method="POST", headers={
                "Content-Type": "application/json", "Authorization": f"Bearer {self.api_key}"})
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read())
            except urllib.error.HTTPError as exc:
                detail = exc.read()[:500].decode(errors="replace")
                if exc.code not in (408, 409, 429) and exc.code < 500 or attempt == self.retries:
                    raise GenerateError(f"{self.url} answered {exc.code}: {detail}") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt == self.retries:
                    raise GenerateError(f"cannot reach {self.url}: {exc}") from None
            time.sleep(delay)
            delay = min(delay * 2, 30.0)
        raise AssertionError("unreachable")

    def _one(self, messages: list[dict[str, Any]], n: int) -> list[Completion]:
        out: list[Completion] = []
        d = self.decoding
        while len(out) < n:
            body: dict[str, Any] = {"model": self.model, "messages": messages, "n": min(n - len(out), self.max_n),
                                    "temperature": d.temperature, "top_p": d.top_p, "max_tokens": d.max_tokens}
            if d.seed is not None:
                body["seed"] = d.seed + len(out)
            if d.enable_thinking is not None:
                body["chat_template_kwargs"] = {"enable_thinking": d.enable_thinking}
            choices = self._post(body).get("choices") or []
            if not choices:
                raise GenerateError(f"{self.url} returned no choices")
            for choice in choices:
                message = choice.get("message") or {}
                content = message.get("content") or ""
                reasoning = message.get("reasoning") or message.get("reasoning_content")
                inline, answer = split_reasoning(content)
                out.append(Completion(text=answer, reasoning=reasoning or inline,
                                      finish_reason=choice.get("finish_reason"), raw=content))
        return out[:n]

    def sample(self, conversations: Sequence[list[dict[str, Any]]], n: int) -> list[list[Completion]]:
        with ThreadPoolExecutor(max_workers=max(1, self.concurrency)) as pool:
            return list(pool.map(lambda conv: self._one(conv, n), conversations))


class TransformersBackend:
    """``generate`` with sampling on a local model: for small models and tests."""

    name = "transformers"

    def __init__(self, model: str, decoding: Decoding, *, device: str | None = None) -> None:
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(model)
        self.model = AutoModelForCausalLM.from_pretrained(model)
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model.to(self.device).eval()
        self.decoding = decoding

    def sample(self, conversations: Sequence[list[dict[str, Any]]], n: int) -> list[list[Completion]]:
        d = self.decoding
        if d.seed is not None:
            self.torch.manual_seed(d.seed)
        tok = self.tokenizer
        extra = {"enable_thinking": d.enable_thinking} if d.enable_thinking is not None else {}
        results = []
        for conv in conversations:
            enc = tok.apply_chat_template(conv, add_generation_prompt=True, return_tensors="pt", return_dict=True,
                                          **extra).to(self.device)
            with self.torch.no_grad():
                out = self.model.generate(**enc, do_sample=d.temperature > 0, temperature=d.temperature or None,
                                          top_p=d.top_p, max_new_tokens=d.max_tokens, num_return_sequences=n,
                                          pad_token_id=tok.pad_token_id)
            start = enc["input_ids"].shape[1]
            batch = []
            for row in out:
                ids = row[start:].tolist()
                stop = [tok.eos_token_id, tok.pad_token_id]
                finish = "length"
                for i, t in enumerate(ids):
                    if t in stop:
                        ids, finish = ids[:i], "stop"
                        break
                raw = tok.decode(ids, skip_special_tokens=False)
                reasoning, answer = split_reasoning(raw)
                batch.append(Completion(text=answer, reasoning=reasoning, finish_reason=finish, raw=raw))
            results.append(batch)
        return results


class VLLMBackend:
    """vLLM's offline engine; ``import vllm`` happens here, never at module import."""

    name = "vllm"

    def __init__(self, model: str, decoding: Decoding, *, tensor_parallel_size: int = 1,
                 max_model_len: int | None = None, dtype: str = "auto", gpu_memory_utilization: float = 0.9) -> None:
        try:
            import vllm
        except ImportError as exc:
            raise GenerateError("the vllm backend needs vLLM, which lives in its own environment "
                                "(docs/training.md: python -m venv .venv-generate && "
                                ".venv-generate/bin/pip install -e '.[generate]')") from exc
        self.vllm = vllm
        kwargs: dict[str, Any] = {"model": model, "tensor_parallel_size": tensor_parallel_size, "dtype": dtype,
                                  "gpu_memory_utilization": gpu_memory_utilization}
        if decoding.seed is not None:
            kwargs["seed"] = decoding.seed
        if max_model_len:
            kwargs["max_model_len"] = max_model_len
        self.llm = vllm.LLM(**kwargs)
        self.decoding = decoding

    def sample(self, conversations: Sequence[list[dict[str, Any]]], n: int) -> list[list[Completion]]:
        d = self.decoding
        params = self.vllm.SamplingParams(n=n, temperature=d.temperature, top_p=d.top_p, max_tokens=d.max_tokens,
                                          seed=d.seed)
        kwargs = {}
        if d.enable_thinking is not None:
            kwargs["chat_template_kwargs"] = {"enable_thinking": d.enable_thinking}
        outputs = self.llm.chat(list(conversations), params, use_tqdm=False, **kwargs)
        results = []
        for request in outputs:
            batch = []
            for o in request.outputs:
                reasoning, answer = split_reasoning(o.text)
                batch.append(Completion(text=answer, reasoning=reasoning, finish_reason=o.finish_reason, raw=o.text))
            results.append(batch)
        return results


def make_backend(args: argparse.Namespace, decoding: Decoding) -> Any:
    if args.backend == "openai":
        base = args.base_url or os.environ.get("OPENAI_BASE_URL")
        if not base:
            raise GenerateError("the openai backend needs --base-url (or OPENAI_BASE_URL), e.g. http://127.0.0.1:8001/v1")
        return OpenAIBackend(base, args.model, decoding, api_key=args.api_key, concurrency=args.concurrency,
                             timeout=args.request_timeout)
    if args.backend == "transformers":
        return TransformersBackend(args.model, decoding)
    if args.backend == "vllm":
        return VLLMBackend(args.model, decoding, tensor_parallel_size=args.tensor_parallel_size,
                           max_model_len=args.max_model_len)
    raise GenerateError(f"unknown backend {args.backend}")


# --- the platform --------------------------------------------------------------------------------------


class Platform:
    """The platform's /api/v1/ with an API key (scopes read and submit)."""

    def __init__(self, base_url: str, token: str | None, timeout: float = 60.0) -> None:
        self.base = base_url.rstrip("/")
        self.token, self.timeout = token, timeout

    def request(self, method: str, path: str, body: Any = None, params: dict[str, Any] | None = None) -> Any:
        url = f"{self.base}/api/v1/{path.lstrip('/')}"
        if params:
            url += "?" + urllib.parse.urlencode(params)
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        delay = 1.0
        for attempt in range(5):
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    return json.loads(resp.read() or b"null")
            except urllib.error.HTTPError as exc:
                text = exc.read()[:1000].decode(errors="replace")
                if exc.code == 429 and attempt < 4:
                    time.sleep(float(exc.headers.get("Retry-After") or delay))
                    delay *= 2
                    continue
                try:
                    message = json.loads(text).get("message") or text
                except (json.JSONDecodeError, AttributeError):
                    message = text
                raise GenerateError(f"{method} {url} answered {exc.code}: {message}") from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt == 4:
                    raise GenerateError(f"cannot reach the platform at {self.base}: {exc}") from None
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def paged(self, path: str, params: dict[str, Any] | None = None) -> Iterable[dict[str, Any]]:
        offset = 0
        while True:
            page = self.request("GET", path, params={**(params or {}), "limit": 1000, "offset": offset})
            yield from page["results"]
            offset += len(page["results"])
            if not page.get("next") or not page["results"]:
                return

    def run(self, run_id: int) -> dict[str, Any]:
        return self.request("GET", f"runs/{run_id}/")

    def submitted(self, run_id: int) -> set[tuple[str, int]]:
        return {(s["task"], s["sample_index"]) for s in self.paged("submissions/", {"run": run_id, "brief": "true"})
                if s.get("sample_index") is not None}


# --- the loop ----------------------------------------------------------------------------------------------


@dataclass
class Sample:
    task: str
    path: str
    sample_index: int
    raw: str
    answer: str
    reasoning: str | None
    finish_reason: str | None
    kernel: str
    host: str | None
    format_error: str | None
    submission: int | None = None
    submitted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)


class Store:
    """``samples.jsonl`` under the output folder: every raw completion, and what was submitted."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "samples.jsonl"
        self.samples: dict[tuple[str, int], Sample] = {}
        if self.path.is_file():
            for line in self.path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    s = Sample(**json.loads(line))
                    self.samples[(s.task, s.sample_index)] = s

    def save(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        rows = sorted(self.samples.values(), key=lambda s: (s.task, s.sample_index))
        tmp.write_text("".join(json.dumps(asdict(s), ensure_ascii=False) + "\n" for s in rows), encoding="utf-8")
        tmp.replace(self.path)


#: ``--tasks`` values that name a split of the benchmark instead of slugs (bench_runner.splits).
TASK_SPLITS = ("eval", "train", "all")


def task_prompts(platform: Platform | None, slugs: Sequence[str] | None, path: str,
                 suite: str | None = None, split: str = "all") -> dict[str, str]:
    """{slug: prompt} from the platform (or, offline, from the local suite: AKGEN_SUITE_DIR).
    ``suite``: only that suite's tasks (the platform's; e.g. an imported NPUKernelBench);
    ``split``: eval (the held-out evaluation tasks), train (the others) or all."""
    if platform is None:
        from bench_runner import splits, tasks
        from bench_runner.prompt import build_prompt

        if not slugs:
            offered = [t.slug for t in tasks.load_suite().tasks if path in t.paths]
            slugs = splits.select(offered, split, splits.split_list(tasks.suite_dir(), offered))
        return {slug: build_prompt(tasks.get_task(slug), path) for slug in slugs}
    if not slugs:
        query = {k: v for k, v in (("suite", suite), ("split", split if split != "all" else None)) if v}
        listed = platform.paged("tasks/", query or None)
        slugs = [t["slug"] for t in listed if path in t.get("paths", [])]
    prompts = {}
    for slug in slugs:
        detail = platform.request("GET", f"tasks/{slug}/")
        prompt = (detail.get("prompts") or {}).get(path)
        if not prompt:
            raise GenerateError(f"task {slug} offers no {path} prompt (paths: {', '.join(detail.get('paths', []))})")
        prompts[slug] = prompt
    return prompts


def generate(args: argparse.Namespace, *, backend: Any = None, out: TextIO | None = None) -> dict[str, Any]:
    out = out or sys.stdout
    platform_access.resolve(args)
    token = args.token
    platform = Platform(args.url, token) if token else None
    if (args.submit or args.wait) and platform is None:
        raise GenerateError(f"--submit/--wait need an API key: --token or ${platform_access.TOKEN_ENV} "
                            "(manage.py create_api_token)")
    run = platform.run(args.run) if platform is not None else None
    path = args.path or (run or {}).get("path") or "device_only"
    k = args.k or (run or {}).get("samples_per_task") or 1
    if run is not None and k > run["samples_per_task"]:
        raise GenerateError(f"run {args.run} takes {run['samples_per_task']} samples per task, not {k}")
    split = args.tasks.strip() if args.tasks and args.tasks.strip() in TASK_SPLITS else "all"
    slugs = ([s.strip() for s in args.tasks.split(",") if s.strip()] if args.tasks and args.tasks.strip()
             not in TASK_SPLITS else None)
    prompts = task_prompts(platform, slugs, path, args.suite, split)
    if not prompts:
        raise GenerateError(f"no task offers the {path} path in split {split!r}"
                            + (f" of suite {args.suite!r}" if args.suite else ""))
    folder = Path(args.out or Path("var") / "generate" / f"run-{args.run}")
    store = Store(folder)
    already = platform.submitted(args.run) if platform is not None else set()
    for key in already:
        if key in store.samples:
            store.samples[key].submitted = True

    wanted = [(slug, i) for slug in prompts for i in range(k)]
    todo: dict[str, list[int]] = {}
    for slug, i in wanted:
        if (slug, i) not in already and (slug, i) not in store.samples:
            todo.setdefault(slug, []).append(i)
    print(f"[akgen generate] run {args.run}: {len(prompts)} task(s) × k={k} on {path}; "
          f"{len(already & set(wanted))} already submitted, {sum(map(len, todo.values()))} to sample "
          f"with {args.backend} ({args.model})", file=sys.stderr, flush=True)
    if todo:
        decoding = Decoding(temperature=args.temperature, top_p=args.top_p, max_tokens=args.max_tokens,
                            seed=args.seed, enable_thinking=args.enable_thinking)
        backend = backend or make_backend(args, decoding)
        counter = Counter("tasks sampled", len(todo), quiet=args.quiet)
        slugs_todo = list(todo)
        for start in range(0, len(slugs_todo), args.tasks_per_call):
            chunk = slugs_todo[start:start + args.tasks_per_call]
            # Sample as many as the task misses (n = the largest gap in the chunk), keep what fits.
            n = max(len(todo[s]) for s in chunk)
            results = backend.sample([[{"role": "user", "content": prompts[s]}] for s in chunk], n)
            for slug, completions in zip(chunk, results, strict=True):
                for index, c in zip(todo[slug], completions, strict=False):
                    kernel, host, error = extract(c.text, path)
                    store.samples[(slug, index)] = Sample(
                        task=slug, path=path, sample_index=index, raw=c.raw, answer=c.text, reasoning=c.reasoning,
                        finish_reason=c.finish_reason, kernel=kernel, host=host, format_error=error)
                bad = sum(1 for i in todo[slug] if store.samples[(slug, i)].format_error)
                counter.step(note=f"{slug}: {len(completions)} sampled" + (f", {bad} without the format" if bad else ""))
            store.save()

    pending = [s for (slug, i), s in sorted(store.samples.items())
               if slug in prompts and i < k and not s.submitted and (slug, i) not in already]
    summary: dict[str, Any] = {"run": args.run, "path": path, "k": k, "tasks": len(prompts), "split": split,
                               "sampled": len([1 for key in wanted if key in store.samples]),
                               "format_errors": sum(1 for key in wanted if key in store.samples
                                                    and store.samples[key].format_error),
                               "submitted": 0, "skipped": len(already & set(wanted)), "out": str(folder)}
    if args.submit and pending:
        summary["submitted"] = submit(platform, args.run, pending, store, batch_size=args.batch_size)
    elif pending and not args.submit:
        print(f"[akgen generate] {len(pending)} sample(s) saved to {store.path}; not submitted (no --submit)",
              file=sys.stderr)
    if args.wait:
        summary["progress"] = wait(platform, args.run, timeout=args.wait_timeout, out=out, quiet=args.quiet)
    return summary


#: What a reasoning text cut to the platform's limit starts with (its end is kept: the conclusion).
TRIMMED_MARK = "[… reasoning shortened to the platform's limit …]\n"


def trim_reasoning(text: str | None, max_bytes: int | None) -> str | None:
    """``text`` within ``max_bytes`` UTF-8 bytes (the platform's ``max_reasoning_bytes``), its
    beginning cut: the last part of a think block is the plan the kernel follows."""
    if not text or not max_bytes or len(text.encode("utf-8")) <= max_bytes:
        return text
    room = max_bytes - len(TRIMMED_MARK.encode("utf-8"))
    tail = text.encode("utf-8")[-room:].decode("utf-8", "ignore")
    return TRIMMED_MARK + tail


def submit(platform: Platform, run_id: int, samples: list[Sample], store: Store, *, batch_size: int) -> int:
    """Send the samples with their reasoning (trimmed to what the platform stores), in batches."""
    done = 0
    limit = platform.request("GET", "me/").get("max_reasoning_bytes")
    for start in range(0, len(samples), batch_size):
        chunk = samples[start:start + batch_size]
        body = {"submissions": [{"task": s.task, "path": s.path, "kernel": s.kernel, "host": s.host,
                                 "reasoning": trim_reasoning(s.reasoning, limit),
                                 "run": run_id, "sample_index": s.sample_index} for s in chunk]}
        reply = platform.request("POST", "submissions/batch/", body)
        failures = []
        for row in reply["results"]:
            sample = chunk[row["index"]]
            if row["ok"]:
                sample.submission, sample.submitted = row["id"], True
                done += 1
            else:
                failures.append(f"{sample.task}#{sample.sample_index}: {row['error'].get('message')}")
        store.save()
        print(f"[akgen generate] submitted {done}/{len(samples)}", file=sys.stderr, flush=True)
        if failures:
            raise GenerateError(f"{len(failures)} sample(s) were refused: " + "; ".join(failures[:5]))
    return done


def pass_table(progress: dict[str, Any], k: int) -> str:
    def pct(v: float | None) -> str:
        return "-" if v is None else f"{100 * v:5.1f}%"

    lines = [f"{'task':32} {'n':>4} {'comp':>5} {'pass':>5} {'pass@1':>7} {'pass@' + str(k):>7}"]
    for t in progress.get("tasks", []):
        lines.append(f"{t['task']:32} {t['evaluated']:>4} {t['compiled']:>5} {t['passed']:>5} "
                     f"{pct(t['pass_at_1']):>7} {pct(t['pass_at_k']):>7}")
    lines.append(f"{'all':32} {progress['evaluated']:>4} {progress['compiled']:>5} {progress['passed']:>5} "
                 f"{pct(progress.get('pass_at_1')):>7} {pct(progress.get('pass_at_k')):>7}"
                 f"   pending {progress['pending']}, failed {progress['failed']}")
    return "\n".join(lines)


def wait(platform: Platform, run_id: int, *, timeout: float, out: TextIO, quiet: bool = False,
         poll: float = 2.0) -> dict[str, Any]:
    """Poll the run until nothing is pending, printing the pass@k table when it changes."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        run = platform.run(run_id)
        progress = run["progress"]
        table = pass_table(progress, run["samples_per_task"])
        if table != last and not quiet:
            out.write(table + "\n\n")
            out.flush()
            last = table
        if progress["pending"] == 0 and progress["submitted"] > 0:
            return progress
        if time.monotonic() > deadline:
            raise GenerateError(f"run {run_id}: {progress['pending']} evaluation(s) still pending after {timeout:.0f}s")
        time.sleep(poll)


# --- command line ------------------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", type=int, required=True, help="the platform run the samples belong to")
    p.add_argument("--model", required=True, help="model path or name (served name for --backend openai)")
    p.add_argument("--backend", choices=("vllm", "openai", "transformers"), default="vllm")
    p.add_argument("--k", type=int, help="samples per task (default: the run's samples_per_task)")
    p.add_argument("--tasks", help="eval (the benchmark's held-out evaluation tasks: benchmark mode), train, all, "
                                   "or comma-separated task slugs (default: all tasks offering the path)")
    p.add_argument("--suite", help="only this suite's tasks (the platform's suite name, e.g. npukb; default: all)")
    p.add_argument("--path", choices=("device_only", "host_device"), help="default: the run's path")
    p.add_argument("--temperature", type=float, default=0.8)
    p.add_argument("--top-p", type=float, default=0.95)
    p.add_argument("--max-tokens", type=int, default=4096)
    p.add_argument("--seed", type=int)
    think = p.add_mutually_exclusive_group()
    think.add_argument("--enable-thinking", dest="enable_thinking", action="store_const", const=True)
    think.add_argument("--no-thinking", dest="enable_thinking", action="store_const", const=False)
    p.add_argument("--submit", action="store_true", help="submit the samples to the platform")
    p.add_argument("--wait", action="store_true", help="then show the pass@k table as verdicts arrive")
    p.add_argument("--wait-timeout", type=float, default=3600.0)
    platform_access.add_arguments(p, scopes="read and submit")
    p.add_argument("--out", help="folder for samples.jsonl (default: var/generate/run-RUN_ID)")
    p.add_argument("--batch-size", type=int, default=256, help="submissions per batch request")
    p.add_argument("--tasks-per-call", type=int, default=64, help="prompts per backend call")
    p.add_argument("--base-url", help="openai backend: the endpoint, e.g. http://127.0.0.1:8001/v1")
    p.add_argument("--api-key", help="openai backend: the key (default: $OPENAI_API_KEY)")
    p.add_argument("--concurrency", type=int, default=4, help="openai backend: requests in flight")
    p.add_argument("--request-timeout", type=float, default=600.0)
    p.add_argument("--tensor-parallel-size", type=int, default=1, help="vllm backend")
    p.add_argument("--max-model-len", type=int, help="vllm backend")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--quiet", action="store_true")


def run_cli(args: argparse.Namespace, out: TextIO) -> int:
    try:
        summary = generate(args, out=out)
    except GenerateError as exc:
        print(f"akgen generate: {exc}", file=sys.stderr)
        return 1
    if args.json:
        json.dump(summary, out, indent=2)
        out.write("\n")
    else:
        out.write(f"run {summary['run']}: {summary['sampled']} sampled ({summary['format_errors']} without the "
                  f"answer format), {summary['submitted']} submitted now, {summary['skipped']} submitted "
                  f"earlier; raw completions in {summary['out']}/samples.jsonl\n")
    return 0

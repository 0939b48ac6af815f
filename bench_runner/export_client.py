"""`akgen export`: build an Ascend-CoT release on the platform and unpack it into a folder.

Talks to ``/api/v1/releases/`` over HTTP with the standard library only (no Django, no
requests): start a build with the filters (or pick an existing release with ``--release``),
poll its progress, download the zip, check its sha256 and every file's sha256 against
``manifest.json``, and unpack it into ``--out``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any, TextIO

from bench_runner import platform_access
from bench_runner.release_format import SUBSETS

EXIT_OK, EXIT_FAIL, EXIT_INPUT, EXIT_INFRA = 0, 1, 2, 3


class ExportError(Exception):
    def __init__(self, message: str, code: int = EXIT_INFRA):
        super().__init__(message)
        self.code = code


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", type=Path, help="folder to unpack the release into (new or empty; needed unless --preview)")
    platform_access.add_arguments(p, scopes="export")
    p.add_argument("--release", type=int, help="download this existing release instead of building one")
    p.add_argument("--title", default="", help="the release's title")
    p.add_argument("--subsets", help=f"comma-separated, from {', '.join(SUBSETS)} (default: all)")
    p.add_argument("--levels", help="comma-separated task levels, e.g. 1,2 (default: all)")
    p.add_argument("--categories", help="comma-separated task categories (default: all)")
    p.add_argument("--since", help="annotations reviewed / samples submitted on or after YYYY-MM-DD")
    p.add_argument("--until", help="... on or before YYYY-MM-DD")
    p.add_argument("--min-review", choices=("approved", "submitted"), help="minimum review state (approved)")
    p.add_argument("--runs", help="comma-separated run ids to draw preference pairs from (default: every run)")
    p.add_argument("--exclude-tasks", help="comma-separated task slugs to leave out")
    p.add_argument("--include-eval-tasks", action="store_true",
                   help="include the benchmark's evaluation tasks in training data")
    p.add_argument("--validation-percent", type=int, help="share of tasks in the validation split (10)")
    p.add_argument("--dpo-cap-per-task", type=int, help="at most this many preference pairs per task (50)")
    p.add_argument("--preview", action="store_true", help="print the record counts these filters give; build nothing")
    p.add_argument("--force", action="store_true", help="replace a non-empty --out folder")
    p.add_argument("--timeout", type=float, default=3600, help="seconds to wait for the build (3600)")
    p.add_argument("--poll", type=float, default=2.0, help="seconds between progress checks (2)")


def filters_from(args: argparse.Namespace) -> dict[str, Any]:
    def items(text: str | None) -> list[str] | None:
        return [t.strip() for t in text.split(",") if t.strip()] if text else None

    def numbers(text: str | None, name: str) -> list[int] | None:
        try:
            return [int(t) for t in items(text)] if text else None
        except ValueError:
            raise ExportError(f"--{name} takes comma-separated integers", EXIT_INPUT) from None

    filters: dict[str, Any] = {
        "subsets": items(args.subsets), "levels": numbers(args.levels, "levels"),
        "categories": items(args.categories), "since": args.since, "until": args.until,
        "min_review": args.min_review, "runs": numbers(args.runs, "runs"),
        "exclude_tasks": items(args.exclude_tasks), "validation_percent": args.validation_percent,
        "dpo_cap_per_task": args.dpo_cap_per_task,
    }
    if args.include_eval_tasks:
        filters["include_eval_tasks"] = True
    return {k: v for k, v in filters.items() if v is not None}


class Client:
    def __init__(self, url: str, token: str, timeout: float = 60.0):
        self.base = url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def _request(self, method: str, url: str, body: dict | None = None):
        if not url.startswith("http"):
            url = self.base + url
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, method=method, headers={
            "Authorization": f"Token {self.token}", "Accept": "application/json",
            **({"Content-Type": "application/json"} if data is not None else {})})
        try:
            return urllib.request.urlopen(req, timeout=self.timeout)  # noqa: S310 (the user's own platform URL)
        except urllib.error.HTTPError as exc:
            try:
                payload = json.loads(exc.read().decode("utf-8", "replace"))
                message = payload.get("message") or str(payload)
                if payload.get("fields"):
                    message += " " + json.dumps(payload["fields"])
            except (ValueError, AttributeError):
                message = exc.reason
            code = EXIT_INPUT if exc.code in (400, 401, 403, 404, 409, 413) else EXIT_INFRA
            raise ExportError(f"{method} {url}: HTTP {exc.code}: {message}", code) from None
        except (urllib.error.URLError, OSError) as exc:
            raise ExportError(f"cannot reach {url}: {getattr(exc, 'reason', exc)}") from None

    def json(self, method: str, url: str, body: dict | None = None) -> dict:
        with self._request(method, url, body) as response:
            return json.loads(response.read().decode("utf-8"))

    def download(self, url: str, dest: Path) -> str:
        h = hashlib.sha256()
        with self._request("GET", url) as response, dest.open("wb") as f:
            while chunk := response.read(1 << 20):
                h.update(chunk)
                f.write(chunk)
        return h.hexdigest()


def _progress(release: dict, err: TextIO) -> None:
    expected = release.get("records_expected") or 0
    done = release.get("records_done") or 0
    tail = f" {done}/{expected} records ({release.get('percent', 0)}%)" if expected else f" {done} records"
    print(f"akgen export: v{release['number']} {release['status']} {release.get('stage') or ''}{tail}",
          file=err, flush=True)


def wait(client: Client, release: dict, *, timeout: float, poll: float, err: TextIO) -> dict:
    deadline = time.monotonic() + timeout
    last = None
    while release["status"] not in ("ready", "failed"):
        state = (release["status"], release.get("stage"), release.get("records_done"))
        if state != last:
            _progress(release, err)
            last = state
        if time.monotonic() > deadline:
            raise ExportError(f"release v{release['number']} is still {release['status']} after {timeout:.0f} s; "
                              f"run again with --release {release['number']} to fetch it later")
        time.sleep(poll)
        release = client.json("GET", release["url"])
    return release


def unpack(zip_path: Path, out: Path, *, force: bool) -> dict:
    if out.exists() and any(out.iterdir()):
        if not force:
            raise ExportError(f"{out} is not empty (use --force to replace it)", EXIT_INPUT)
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(zip_path) as zf:
        for info in zf.infolist():
            parts = Path(info.filename).parts
            if info.is_dir() or len(parts) < 2 or any(p in ("..", "") for p in parts) or info.filename.startswith("/"):
                continue
            target = out.joinpath(*parts[1:])  # drop the ascend-cot-vN/ folder
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, target.open("wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    for rel, info in manifest.get("files", {}).items():
        h = hashlib.sha256()
        with (out / rel).open("rb") as f:
            for chunk in iter(lambda f=f: f.read(1 << 20), b""):
                h.update(chunk)
        if h.hexdigest() != info.get("sha256"):
            raise ExportError(f"{out / rel}: sha256 differs from manifest.json", EXIT_FAIL)
    return manifest


def run_cli(args: argparse.Namespace, out: TextIO, err: TextIO | None = None) -> int:
    err = err or sys.stderr
    try:
        return _run(args, out, err)
    except ExportError as exc:
        print(f"akgen export: {exc}", file=err)
        return exc.code


def _run(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    platform_access.resolve(args)
    if not args.token:
        raise ExportError(f"an API key with the export scope is needed: --token or ${platform_access.TOKEN_ENV}",
                          EXIT_INPUT)
    if args.out is None and not args.preview:
        raise ExportError("--out DIR is needed (where to unpack the release)", EXIT_INPUT)
    client = Client(args.url, args.token)
    body = {"title": args.title, "filters": filters_from(args)}
    if args.preview:
        preview = client.json("POST", "/api/v1/releases/preview/", body)
        for subset, n in preview["counts"].items():
            print(f"{subset:<11} {n:>8}", file=out)
        print(f"{'total':<11} {preview['total']:>8}", file=out)
        return EXIT_OK
    if args.release:
        release = client.json("GET", f"/api/v1/releases/{args.release}/")
    else:
        release = client.json("POST", "/api/v1/releases/", body)
        print(f"akgen export: release v{release['number']} queued", file=err, flush=True)
    release = wait(client, release, timeout=args.timeout, poll=args.poll, err=err)
    if release["status"] != "ready":
        raise ExportError(f"release v{release['number']} failed: {(release.get('error') or '').strip()[:2000]}",
                          EXIT_FAIL)
    _progress(release, err)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=args.out.parent, prefix=".akgen-export-") as tmp:
        zip_path = Path(tmp) / f"ascend-cot-v{release['number']}.zip"
        sha = client.download(release["download_url"], zip_path)
        if sha != release["sha256"]:
            raise ExportError(f"the downloaded zip's sha256 {sha} is not the release's {release['sha256']}", EXIT_FAIL)
        manifest = unpack(zip_path, args.out, force=args.force)
    total = 0
    for subset, splits in manifest.get("subsets", {}).items():
        n = sum(splits.values())
        total += n
        print(f"{subset:<11} train {splits.get('train', 0):>8}  validation {splits.get('validation', 0):>8}", file=out)
    print(f"release v{manifest['version']}: {total} records in {args.out} (sha256 {sha[:16]}…)", file=out)
    return EXIT_OK

"""Rewards judged by the platform's workers: the batch API instead of a local process pool.

Why: a GRPO step on a large model samples hundreds of kernels, and one host's cores bound how
fast a local pool scores them. Sent to the platform (``POST /api/v1/submissions/batch/``), each
completion is judged by whichever Dramatiq worker takes it, so reward throughput grows with
worker hosts, and the workers' result cache answers repeats. The verdicts come back as the
same typed record (``EvaluationResult``) the local path gets, so the reward components, their
order and the infrastructure rule are the ones of trainer.rewards: an evaluation the platform
could not judge (``failed``), a refused submission or a wait past ``timeout_s`` stops the step.

Submissions are private one-off samples of the key's owner (they are training rollouts, not
benchmark results); give the key a tier whose pending cap holds a whole batch.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from bench_runner.contracts import EvaluationResult, ResultFormatError
from trainer.generate import GenerateError, Platform
from trainer.rewards import BatchEvaluator, RewardInfrastructureError, Submission

#: Seconds between two polls of the pending verdicts.
POLL_S = 0.5
#: Waiting longer than this for one batch's verdicts is an infrastructure failure (per batch).
DEFAULT_TIMEOUT_S = 1800.0


@dataclass
class PlatformBatchEvaluator(BatchEvaluator):
    """A :class:`trainer.rewards.BatchEvaluator` whose evaluations run on the platform's workers."""

    api_url: str = "http://127.0.0.1:8000"
    token: str | None = None
    poll_s: float = POLL_S
    _platform: Platform | None = field(default=None, repr=False)
    _batch_max: int = field(default=0, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.token:
            raise RewardInfrastructureError("the platform reward backend needs an API key with the read and submit "
                                            "scopes (AKGEN_TOKEN)")
        if self.timeout_s is None:
            self.timeout_s = DEFAULT_TIMEOUT_S

    def _client(self) -> Platform:
        if self._platform is None:
            self._platform = Platform(self.api_url, self.token)
            self._batch_max = int(self._call("GET", "me/").get("batch_max") or 100)
        return self._platform

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        try:
            return (self._platform or Platform(self.api_url, self.token)).request(method, path, body)
        except GenerateError as exc:
            raise RewardInfrastructureError(f"the platform at {self.api_url} failed: {exc}; the step is stopped") from exc

    def _run(self, unique: list[Submission]) -> dict[Submission, EvaluationResult]:
        if not unique:
            return {}
        self._client()
        ids = self._submit(unique)
        return self._wait(ids)

    def _submit(self, unique: list[Submission]) -> dict[Submission, int]:
        ids: dict[Submission, int] = {}
        for start in range(0, len(unique), self._batch_max):
            chunk = unique[start:start + self._batch_max]
            body = {"submissions": [{"task": s.task, "path": s.path, "kernel": s.kernel, "host": s.host,
                                     "visibility": "private"} for s in chunk]}
            reply = self._call("POST", "submissions/batch/", body)
            for row in reply["results"]:
                sub = chunk[row["index"]]
                if not row["ok"]:
                    error = row.get("error") or {}
                    raise RewardInfrastructureError(
                        f"the platform refused a rollout of task {sub.task}: {error.get('code')}: "
                        f"{error.get('message')}; the step is stopped (a pending cap? give the key's account a "
                        "higher tier)")
                ids[sub] = row["id"]
        return ids

    def _wait(self, ids: dict[Submission, int]) -> dict[Submission, EvaluationResult]:
        deadline = time.monotonic() + float(self.timeout_s or DEFAULT_TIMEOUT_S)
        done: dict[Submission, EvaluationResult] = {}
        while True:
            for sub, pk in ids.items():
                if sub in done:
                    continue
                row = self._call("GET", f"submissions/{pk}/")
                if row["status"] == "failed":
                    raise RewardInfrastructureError(
                        f"the platform could not judge submission {pk} (task {sub.task}): every worker attempt "
                        "failed; the step is stopped rather than scored 0")
                if row["status"] == "done":
                    done[sub] = _result(row, pk)
            if len(done) == len(ids):
                return done
            if time.monotonic() > deadline:
                raise RewardInfrastructureError(
                    f"{len(ids) - len(done)} of {len(ids)} rollouts still unjudged after {self.timeout_s:.0f} s "
                    "(reward_timeout_s): are the platform's workers running? the step is stopped")
            time.sleep(self.poll_s)

    def close(self) -> None:
        self._platform = None


def _result(row: dict[str, Any], pk: int) -> EvaluationResult:
    try:
        return EvaluationResult.from_dict(row["result"])
    except (ResultFormatError, KeyError, TypeError) as exc:
        raise RewardInfrastructureError(f"submission {pk}: the platform's stored result is unreadable: {exc}") from exc

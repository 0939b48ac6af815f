"""Releases: create (validate, number, enqueue after commit), build (in a worker), preview.

The request never builds: ``release_create`` saves a queued row and sends its id to the
``releases`` queue once the transaction commits; ``release_build`` (the actor's body) claims the
row, streams the records into a temporary folder, zips it deterministically, and only then
moves it into place and marks the row ready. A failed build leaves no files and says why.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import traceback
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone

from annotations.roles import CURATE
from core.messages import message_send
from releases import builder, conf, sources
from releases.filters import Filters, parse_filters
from releases.models import Release, ReleaseStatus

logger = logging.getLogger(__name__)

#: The builder's queue (its own, so long builds never hold up evaluations) and actor name.
QUEUE = "releases"
BUILD_ACTOR = "build_release"


class ReleaseError(Exception):
    pass


def releases_dir() -> Path:
    return Path(conf.get("AKGEN_RELEASES_DIR") or Path(settings.VAR_DIR) / "releases")


def release_folder(release: Release) -> Path:
    return releases_dir() / f"v{release.number}"


def release_zip(release: Release) -> Path:
    return releases_dir() / f"ascend-cot-v{release.number}.zip"


def can_curate(user) -> bool:
    return bool(user and user.is_authenticated and (user.is_staff or user.has_perm(CURATE)))


def git_revision() -> str:
    explicit = os.environ.get("AKGEN_GIT_REVISION")
    if explicit:
        return explicit
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=settings.BASE_DIR, capture_output=True, text=True,
                             timeout=5, check=False)
        return out.stdout.strip() or "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


# --- create --------------------------------------------------------------------------------------


def release_create(*, user, data: dict, title: str = "") -> Release:
    """Validate ``data`` (raises FilterError), number the release and queue its build."""
    filters = parse_filters(data)
    for _ in range(5):
        try:
            with transaction.atomic():
                number = (Release.objects.aggregate(n=Max("number"))["n"] or 0) + 1
                release = Release.objects.create(number=number, title=title.strip()[:200],
                                                 filters=filters.canonical(), created_by=user)
                transaction.on_commit(lambda pk=release.pk: release_send(pk))
            return release
        except IntegrityError:  # two curators numbered at once; take the next number
            continue
    raise ReleaseError("could not number the release; try again")


def release_send(release_id: int) -> None:
    """Send the release's id to the builder (by actor name: releases.actors is worker code)."""
    try:
        message_send(actor_name=BUILD_ACTOR, queue_name=QUEUE, args=(release_id,))
    except Exception:
        logger.warning("could not send release %s to the queue; `manage.py build_release` builds it",
                       release_id, exc_info=True)


# --- build ---------------------------------------------------------------------------------------


def _claim(release_id: int) -> bool:
    now = timezone.now()
    return bool(Release.objects.filter(pk=release_id, status=ReleaseStatus.QUEUED).update(
        status=ReleaseStatus.BUILDING, started_at=now, stage="starting", error=""))


def release_build(release_id: int, *, force: bool = False) -> Release | None:
    """Build a queued release (``force``: also one left ``building`` by a dead worker). Idempotent:
    a ready or failed release, or one another worker holds, is left alone."""
    if force:
        Release.objects.filter(pk=release_id, status=ReleaseStatus.BUILDING).update(status=ReleaseStatus.QUEUED)
    if not _claim(release_id):
        logger.info("release %s is not queued; nothing to build", release_id)
        return None
    release = Release.objects.get(pk=release_id)
    folder, zip_path = release_folder(release), release_zip(release)
    tmp = folder.with_name(f".{folder.name}.building-{os.getpid()}")
    try:
        filters = parse_filters(release.filters)
        ctx = sources.Context.load(filters)
        expected = sum(sources.estimate(ctx).values())
        revision = git_revision()
        Release.objects.filter(pk=release_id).update(records_expected=expected, git_revision=revision)

        def progress(stage: str, done: int) -> None:
            Release.objects.filter(pk=release_id).update(stage=stage, records_done=done)

        shutil.rmtree(tmp, ignore_errors=True)
        result = builder.build(_build_input(release, filters, ctx, revision), tmp, progress=progress)
        progress("zip", result.records)
        releases_dir().mkdir(parents=True, exist_ok=True)
        sha = builder.zip_release(tmp, zip_path, prefix=f"ascend-cot-v{release.number}")
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(tmp, folder)
        Release.objects.filter(pk=release_id).update(
            status=ReleaseStatus.READY, stage="done", counts=result.counts, records_done=result.records,
            sha256=sha, zip_bytes=zip_path.stat().st_size, finished_at=timezone.now())
    except Exception as exc:
        logger.exception("release %s failed", release_id)
        shutil.rmtree(tmp, ignore_errors=True)
        Release.objects.filter(pk=release_id).update(
            status=ReleaseStatus.FAILED, stage="failed", finished_at=timezone.now(),
            error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}"[:4000])
    return Release.objects.get(pk=release_id)


def _build_input(release: Release, filters: Filters, ctx: sources.Context, revision: str) -> builder.BuildInput:
    return builder.BuildInput(
        version=release.number, filters=filters.canonical(), git_revision=revision,
        subsets=sources.examples(ctx), references=sources.references(ctx), eval_tasks=sorted(ctx.eval_slugs),
        split=ctx.split_versions, excluded=lambda: dict(ctx.excluded), validation_percent=filters.validation_percent,
        title=release.title or f"Ascend-CoT v{release.number}",
        license=conf.get("AKGEN_RELEASE_LICENSE", "cc-by-4.0"),
        built_from="Built from the akgen platform's approved expert annotations and judged model runs.",
    )


def build_into(out_dir: Path, *, number: int, data: dict, title: str = "") -> builder.BuildResult:
    """Build without a Release row (tests, benchmarks): the same files ``release_build`` writes."""
    filters = parse_filters(data)
    ctx = sources.Context.load(filters)
    fake = Release(number=number, title=title, filters=filters.canonical())
    return builder.build(_build_input(fake, filters, ctx, git_revision()), Path(out_dir))


# --- preview -------------------------------------------------------------------------------------


@dataclass
class Preview:
    filters: Filters
    counts: dict[str, int]
    samples: dict[str, list[dict]]
    eval_tasks: list[str]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def preview(data: dict, *, per_subset: int = 2) -> Preview:
    filters = parse_filters(data)
    ctx = sources.Context.load(filters)
    counts = sources.estimate(ctx)
    samples = sources.sample(ctx, per_subset)
    return Preview(filters=filters, counts=counts, samples=samples, eval_tasks=sorted(ctx.eval_slugs))


def release_resend_unfinished(*, building_older_than_s: float | None = 0) -> int:
    """Re-send queued releases, and re-queue those left ``building`` (started more than
    ``building_older_than_s`` ago; None leaves them) by a worker that died. Returns how many."""
    if building_older_than_s is not None:
        cutoff = timezone.now() - timedelta(seconds=building_older_than_s)
        stale = Q(started_at__lte=cutoff) | Q(started_at__isnull=True)
        Release.objects.filter(stale, status=ReleaseStatus.BUILDING).update(
            status=ReleaseStatus.QUEUED, stage="re-queued")
    ids = list(Release.objects.filter(status=ReleaseStatus.QUEUED).order_by("number").values_list("pk", flat=True))
    for pk in ids:
        release_send(pk)
    return len(ids)

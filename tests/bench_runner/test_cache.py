"""The result cache: stable keys, atomic JSON entries, a disabled cache that never answers."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench_runner import cache


def test_key_is_stable_and_sensitive_to_every_part() -> None:
    base = dict(kernel="a", host=None, task="v1", toolchain={"name": "cpu-sim", "soc": "S"})
    assert cache.key_of(**base) == cache.key_of(**dict(reversed(list(base.items()))))
    for part, value in [("kernel", "b"), ("host", "h"), ("task", "v2"), ("toolchain", {"name": "cann"})]:
        assert cache.key_of(**{**base, part: value}) != cache.key_of(**base)


def test_put_get_round_trip_and_disabled_cache(tmp_path: Path) -> None:
    store = cache.Cache(tmp_path)
    key = cache.key_of(x=1)
    assert store.get("results", key) is None
    store.put("results", key, {"verdict": "passed"})
    assert store.get("results", key) == {"verdict": "passed"}
    assert not list((tmp_path / "results").rglob(".tmp-*"))
    off = cache.Cache(tmp_path, enabled=False)
    assert off.get("results", key) is None


def test_corrupt_entry_is_a_miss(tmp_path: Path) -> None:
    store = cache.Cache(tmp_path)
    key = cache.key_of(x=2)
    store.put("results", key, {"a": 1})
    next((tmp_path / "results").rglob("*.json")).write_text("{not json")
    assert store.get("results", key) is None


def test_default_dir_honours_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "c"))
    assert cache.default_dir() == tmp_path / "c"
    monkeypatch.delenv("AKGEN_CACHE_DIR")
    assert cache.default_dir() == Path.home() / ".cache" / "akgen"


def test_a_cache_others_can_write_is_neither_trusted_nor_written(tmp_path: Path) -> None:
    """A verdict the cache holds is returned as found, and its objects (the driver) are linked into
    programs: in a directory another user can write, they could plant either. Such a cache is a
    miss for results and a clear error for objects; a directory of this user's alone works."""
    root = tmp_path / "shared"
    store = cache.Cache(root)
    key = cache.key_of(x=3)
    store.put("results", key, {"verdict": "passed"})
    assert store.get("results", key) == {"verdict": "passed"} and store.unsafe() is None
    root.chmod(0o777)
    planted = cache.Cache(root)  # a new evaluation reads the directory afresh
    assert "can be written by others" in (planted.unsafe() or "")
    assert planted.get("results", key) is None
    planted.put("results", cache.key_of(x=4), {"verdict": "passed"})
    assert not list(root.rglob(f"{cache.key_of(x=4)}.json"))
    with pytest.raises(cache.UnsafeDirectoryError, match="can be written by others"):
        planted.object_path(key, ".o")
    root.chmod(0o755)
    assert cache.Cache(root).get("results", key) == {"verdict": "passed"}


def test_a_group_writable_cache_is_refused_only_where_the_group_has_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """umask 002 systems make a user's directories group-writable for the user's private group,
    which gives no one else access: such a cache is used; a group with other users is not."""
    root = tmp_path / "c"
    root.mkdir()
    root.chmod(0o775)
    monkeypatch.setattr(cache, "_group_has_others", lambda gid: False)
    assert cache.unsafe_reason(root) is None
    monkeypatch.setattr(cache, "_group_has_others", lambda gid: True)
    assert "can be written by others" in (cache.unsafe_reason(root) or "")

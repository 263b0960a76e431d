"""Crash-resumable results: subtask outputs persisted under a URL by their deterministic keys.

``t.execute(checkpoint="file:///path")`` (or any URL fsspec opens: ``s3://``, ``gcs://``,
``memory://``, or a plain path) makes every subtask also write its outputs there as
``<key>.chunk``; a later run of the same graph (same keys) loads what is there instead of
computing it and everything only it needed. A chunk is written to a temporary name and renamed
when complete, so a crash mid-write leaves no file a later run would read. The files are
pickles: point a checkpoint only at storage you trust.
"""
from __future__ import annotations

import pickle
import posixpath
import uuid
from typing import Callable

import ray

SUFFIX = ".chunk"
#: name prefix of a file being written (readers skip names starting with ".")
TMP_PREFIX = ".tmp-"


def write_atomically(fs, path: str, data: bytes | Callable) -> None:
    """Write ``data`` (bytes, or a function writing to an open binary file) to ``path`` so that
    no reader ever sees part of it: a temporary ``.tmp-*`` file in the same folder, then a move
    onto the final name (a rename on local disks; object stores publish an object whole)."""
    folder, base = posixpath.split(path)
    tmp = posixpath.join(folder, f"{TMP_PREFIX}{uuid.uuid4().hex}-{base}")
    try:
        with fs.open(tmp, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data)
        fs.mv(tmp, path)
    except BaseException:
        try:
            fs.rm(tmp)
        except Exception:
            pass
        raise


def _filesystem(url: str):
    import fsspec

    return fsspec.core.url_to_fs(url)


def check_url(url: str) -> None:
    """Create the checkpoint folder and write a probe in it; ValueError saying why not."""
    if not isinstance(url, str) or not url:
        raise ValueError(f"checkpoint must be a URL or path string, not {url!r}")
    try:
        fs, root = _filesystem(url)
        fs.makedirs(root, exist_ok=True)
        probe = f"{root}/.probe-{uuid.uuid4().hex}"
        with fs.open(probe, "wb") as f:
            f.write(b"")
        fs.rm(probe)
    except (OSError, ValueError, ImportError) as exc:
        raise ValueError(f"checkpoint {url!r} cannot be written: {exc}") from None


def persisted_keys(url: str) -> set[str]:
    """Keys of the chunks completely written under ``url`` (one listing)."""
    fs, root = _filesystem(url)
    try:
        names = fs.ls(root, detail=False)
    except FileNotFoundError:
        return set()
    keys = set()
    for name in names:
        base = name.rstrip("/").rsplit("/", 1)[-1]
        if base.endswith(SUFFIX) and not base.startswith("."):
            keys.add(base[: -len(SUFFIX)])
    return keys


def save_chunk(url: str, key: str, value) -> None:
    """Write ``value`` as chunk ``key``: to a temporary name first, renamed when complete."""
    fs, root = _filesystem(url)
    final = f"{root}/{key}{SUFFIX}"
    if fs.exists(final):  # a deterministic key: the same value is already there
        return
    fs.makedirs(root, exist_ok=True)
    write_atomically(fs, final, lambda f: pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL))


def load_chunk(url: str, key: str):
    fs, root = _filesystem(url)
    with fs.open(f"{root}/{key}{SUFFIX}", "rb") as f:
        return pickle.load(f)


def _load_task(url: str, key: str):
    from ..core.execution import value_meta

    value = load_chunk(url, key)
    return value_meta(value), value


load_task = ray.remote(num_returns=2)(_load_task)


def resumable(chunks: list, known: set[str], persisted: set[str]) -> list[str]:
    """Keys to load instead of computing so that ``chunks`` exist: persisted chunks reached
    from ``chunks`` without passing through one already known or persisted."""
    from ..core.graph import topo_order

    reached = topo_order(chunks, stop=lambda c: c.key in known or c.key in persisted)
    return [c.key for c in reached if c.key in persisted and c.key not in known]

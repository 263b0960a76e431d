"""Paths for readers and writers: local files, URLs of any fsspec filesystem, globs, directories.

Local paths use the operating system directly (pyarrow's native filesystem for parquet);
anything with a protocol (``memory://``, ``s3://``, ...) goes through fsspec with the user's
``storage_options``. The filesystem object is pickled into the chunk operands, so every worker
opens the same files.
"""
from __future__ import annotations

import os
import posixpath
from typing import Iterable

import fsspec
from fsspec.implementations.local import LocalFileSystem

_GLOB_CHARS = frozenset("*?[")


def filesystem(path: str, storage_options: dict | None = None):
    """The fsspec filesystem of ``path`` and the path as that filesystem names it."""
    path = os.fspath(path)
    if "://" not in path and not path.startswith("file:"):
        if storage_options:
            raise ValueError("storage_options passed with file object or non-fsspec file path")
        return LocalFileSystem(), os.path.abspath(os.path.expanduser(path))
    fs, resolved = fsspec.core.url_to_fs(path, **(storage_options or {}))
    return fs, resolved


def is_local(fs) -> bool:
    return isinstance(fs, LocalFileSystem)


def check_shared(fs, what: str) -> None:
    """Raise if ``fs`` (fsspec, or pyarrow wrapping fsspec; None: no files) lives only in
    this process."""
    from fsspec.implementations.memory import MemoryFileSystem

    inner = getattr(getattr(fs, "handler", None), "fs", fs)
    if isinstance(inner, MemoryFileSystem):
        raise ValueError(f"{what}: a memory:// filesystem exists only in this process and the "
                         "cluster's workers cannot see it; use a local path or an object store")


def _hidden(path: str) -> bool:
    name = posixpath.basename(path.rstrip("/"))
    return name.startswith((".", "_"))


def expand(path_or_paths, storage_options: dict | None = None, *, directories: bool = True):
    """``(fs, files)``: the files named by a path, a glob, a directory (its files, sorted, hidden
    ``.``/``_`` names skipped) or a list of those. Missing files raise FileNotFoundError."""
    items = [path_or_paths] if isinstance(path_or_paths, (str, os.PathLike)) else list(path_or_paths)
    if not items:
        raise ValueError("no path given")
    fs, files = None, []
    for item in items:
        item_fs, path = filesystem(item, storage_options)
        fs = fs or item_fs
        if type(item_fs) is not type(fs):
            raise ValueError("all paths must be on one filesystem")
        if _GLOB_CHARS & set(path):
            found = sorted(p for p in fs.glob(path) if fs.isfile(p))
            if not found:
                raise FileNotFoundError(f"no files match {item!r}")
            files.extend(found)
        elif directories and fs.isdir(path):
            found = sorted(p for p in fs.find(path)
                           if not any(_hidden(part) for part in posixpath.relpath(p, path).split("/")))
            if not found:
                raise FileNotFoundError(f"directory {item!r} holds no files")
            files.extend(found)
        elif fs.isfile(path):
            files.append(path)
        else:
            raise FileNotFoundError(f"[Errno 2] No such file or directory: {os.fspath(item)!r}")
    return fs, files


def sizes(fs, files: Iterable[str]) -> list[int]:
    """Byte sizes of ``files``."""
    return [int(fs.size(f)) for f in files]


def compression_of(path: str, compression) -> str | None:
    """The compression pandas would infer for ``path`` (``'infer'``: from the extension)."""
    if compression != "infer":
        return compression if not isinstance(compression, dict) else compression.get("method")
    from pandas.io.common import infer_compression

    return infer_compression(path, "infer")

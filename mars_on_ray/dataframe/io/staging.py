"""Staging files next to their final place, invisible to readers, then moving them in."""
from __future__ import annotations

import posixpath
import uuid


def new_job() -> str:
    """A name part unique to one ``to_xxx`` call (its staging never meets another's)."""
    return uuid.uuid4().hex[:12]


def staging_dir(target: str, job: str) -> str:
    """A hidden directory beside (for a file) or inside (for a directory) ``target``: readers of
    parquet datasets and our CSV globs skip names starting with '.'."""
    parent, name = posixpath.split(target.rstrip("/"))
    return posixpath.join(parent, f".{name.replace('*', '_')}.mars-staging-{job}")


def remove(fs, path: str) -> None:
    if fs.exists(path):
        fs.rm(path, recursive=True)

"""A job's store of finished task results on any filesystem fsspec opens (a local folder too).

Layout under ``<url>/<job_name>/``: ``job.json`` (the job's identity), ``results/<key>.pkl``
(one pickled result a task input), ``status.json`` / ``status.html`` (progress, see
``status.py``). A result is written to a temporary name and then moved to its final name, so a
reader never sees a half-written result: a file under its final name is complete. The key of a
result hashes the job name with the input, so one job's results never answer another's inputs.
"""
from __future__ import annotations

import hashlib
import json
import pickle
import posixpath
from typing import Any, Iterable

import cloudpickle
import fsspec

from ..core.tokenize import tokenize
from ..storage.checkpoint import TMP_PREFIX, write_atomically



class JobStore:
    """The results of one job (``job_name``) under the checkpoint ``url``; picklable, so the
    Ray tasks write their own results (large outputs never pass through the driver twice)."""

    def __init__(self, url: str, job_name: str):
        if not job_name or "/" in job_name or job_name.startswith("."):
            raise ValueError(f"job_name must be a non-empty name without '/': {job_name!r}")
        self.url = url
        self.job_name = job_name
        self._fs = None
        self._root = None

    def __getstate__(self):
        return {"url": self.url, "job_name": self.job_name}

    def __setstate__(self, state):
        self.__init__(state["url"], state["job_name"])

    @property
    def fs(self) -> fsspec.AbstractFileSystem:
        if self._fs is None:
            self._fs, root = fsspec.core.url_to_fs(self.url)
            self._root = posixpath.join(root.rstrip("/") or "/", self.job_name)
        return self._fs

    @property
    def root(self) -> str:
        self.fs  # noqa: B018  (resolves the root)
        return self._root

    def path(self, *parts: str) -> str:
        return posixpath.join(self.root, *parts)

    # -- keys ------------------------------------------------------------------------------
    def key(self, item: Any) -> str:
        """The key of a task input: a hash of the job name and the input's content."""
        try:
            token = tokenize(item)
        except Exception:  # a content token must exist: pickled bytes are the fallback
            token = hashlib.blake2b(cloudpickle.dumps(item), digest_size=16).hexdigest()
        return hashlib.blake2b(f"{self.job_name}|{token}".encode(), digest_size=16).hexdigest()

    # -- the job ---------------------------------------------------------------------------
    def open_job(self, description: dict) -> None:
        """Create the job's folder and record what it is; a folder written by another job
        name (copied or renamed) is refused rather than served."""
        self.fs.makedirs(self.path("results"), exist_ok=True)
        marker = self.path("job.json")
        if self.fs.exists(marker):
            with self.fs.open(marker, "r") as f:
                found = json.load(f).get("job_name")
            if found != self.job_name:
                raise ValueError(f"{self.root} holds job {found!r}, not {self.job_name!r}")
            return
        self.write_bytes("job.json", json.dumps({"job_name": self.job_name, **description},
                                                indent=1).encode())

    def stored_keys(self) -> set[str]:
        """The keys with a complete result (one listing, not one lookup a task)."""
        try:
            names = self.fs.ls(self.path("results"), detail=False)
        except FileNotFoundError:
            return set()
        keys = set()
        for name in names:
            base = posixpath.basename(name.rstrip("/"))
            if base.endswith(".pkl") and not base.startswith(TMP_PREFIX):
                keys.add(base[:-4])
        return keys

    # -- results ---------------------------------------------------------------------------
    def save(self, key: str, value: Any) -> None:
        self.write_bytes(posixpath.join("results", f"{key}.pkl"),
                         pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))

    def load(self, key: str) -> Any:
        with self.fs.open(self.path("results", f"{key}.pkl"), "rb") as f:
            return pickle.load(f)

    def write_bytes(self, name: str, data: bytes) -> None:
        """Write ``name`` (relative to the job folder) atomically."""
        write_atomically(self.fs, self.path(name), data)

    def remove_temporaries(self) -> None:
        """Remove temporary files left by writers that died (run when no writer is left)."""
        for folder in (self.root, self.path("results")):
            try:
                names: Iterable[str] = self.fs.ls(folder, detail=False)
            except FileNotFoundError:
                continue
            for name in names:
                if posixpath.basename(name.rstrip("/")).startswith(TMP_PREFIX):
                    try:
                        self.fs.rm(name)
                    except FileNotFoundError:
                        pass

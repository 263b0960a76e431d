"""``to_parquet``: a directory of parts, one per chunk, written in parallel (or hive partitions).

Parts are written into a hidden staging directory inside the target (pyarrow skips names that
start with '.' or '_'), then the commit moves them in and removes parts of an earlier write of
the same layout, so readers see either the old dataset or the new one's complete parts.
"""
from __future__ import annotations

import posixpath

from ...core import paths
from .staging import new_job, remove
from .writer import Write, write_node


class ToParquet(Write):
    _params = ("fs", "path", "kwargs", "partition_cols", "job")
    label = "md.to_parquet"

    def describe(self) -> str:
        return f"{self.name}({self.path!r})"

    def _staging(self) -> str:
        return posixpath.join(self.path, f".mars-staging-{self.job}")

    def write_part(self, frame, index):
        staging = self._staging()
        self.fs.makedirs(staging, exist_ok=True)
        if self.partition_cols:
            frame.to_parquet(staging, filesystem=self.fs, partition_cols=list(self.partition_cols),
                             basename_template=f"part.{index:0{self.width}d}.{{i}}.parquet", **self.kwargs)
            return index
        part = posixpath.join(staging, self.part_name(index))
        if paths.is_local(self.fs):  # pyarrow's own file: faster than a Python file object
            frame.to_parquet(part, **self.kwargs)
        else:
            with self.fs.open(part, "wb") as f:
                frame.to_parquet(f, **self.kwargs)
        return index

    @property
    def width(self) -> int:
        return len(str(max(self.n_parts - 1, 0)))

    def part_name(self, index: int) -> str:
        return f"part.{index:0{self.width}d}.parquet"

    def abort(self) -> None:
        remove(self.fs, self._staging())

    def commit(self, parts):
        staging = self._staging()
        if not self.partition_cols:  # parts of an earlier write would mix with ours
            for old in self.fs.glob(posixpath.join(self.path, "part.*.parquet")):
                self.fs.rm(old)
        for staged in sorted(self.fs.find(staging)):
            final = posixpath.join(self.path, posixpath.relpath(staged, staging))
            self.fs.makedirs(posixpath.dirname(final), exist_ok=True)
            self.fs.mv(staged, final)
        remove(self.fs, staging)


def to_parquet(df, path, engine="auto", compression="snappy", index=None, partition_cols=None,
               storage_options=None, **kwargs):
    """Write a directory of parquet parts (``part.<i>.parquet``, one per chunk) or, with
    ``partition_cols``, a hive-partitioned dataset. Lazy: ``.execute()`` writes. Read it back
    with ``md.read_parquet(path)`` or ``pandas.read_parquet(path)``."""
    if engine not in ("auto", "pyarrow"):
        raise ValueError("engine must be 'auto' or 'pyarrow'")
    fs, target = paths.filesystem(path, storage_options)
    if partition_cols is not None:
        partition_cols = [partition_cols] if isinstance(partition_cols, str) else list(partition_cols)
        missing = [c for c in partition_cols if c not in df.data.meta.columns]
        if missing:
            raise KeyError(f"partition columns {missing} are not columns of the DataFrame")
    fs.makedirs(target, exist_ok=True)
    op = ToParquet(fs=fs, path=target, kwargs=dict(kwargs, compression=compression, index=index),
                   partition_cols=partition_cols, job=new_job(), label="md.to_parquet")
    return write_node(op, df)

"""``to_csv``: chunks written in parallel, to one file per chunk (``*`` in the path) or one file.

Every chunk writes its text to a part in a hidden staging directory (for one file, only the
first part has the header). The commit renames the parts to their final names, or joins them,
compressed as asked, into a hidden temporary file renamed to the final name: a failure never
leaves a half-written file under a final name, and the staging is removed.
"""
from __future__ import annotations

import posixpath

from ...core import paths
from .staging import new_job, remove, staging_dir
from .writer import Write, write_node

_COPY_BLOCK = 1 << 22


class ToCSV(Write):
    _params = ("fs", "path", "kwargs", "compression", "job", "per_chunk")
    label = "md.to_csv"

    def describe(self) -> str:
        return f"{self.name}({self.path!r})"

    def write_part(self, frame, index):
        kwargs = {k: v for k, v in self.kwargs.items() if k != "mode"}
        if index > 0 and not self.per_chunk:
            kwargs["header"] = False
        staged = staging_dir(self.path, self.job)
        self.fs.makedirs(staged, exist_ok=True)
        part = posixpath.join(staged, f"part-{index}.csv")
        with self.fs.open(part, "wb", compression=self.compression if self.per_chunk else None) as f:
            frame.to_csv(f, **kwargs)
        return part

    def abort(self) -> None:
        remove(self.fs, staging_dir(self.path, self.job))

    def commit(self, parts):
        staged = staging_dir(self.path, self.job)
        if self.per_chunk:
            for index, part in enumerate(parts):
                self.fs.mv(part, self.path.replace("*", str(index)))
        else:
            self._join(parts)
        remove(self.fs, staged)

    def _join(self, parts):
        append = self.kwargs.get("mode", "w").startswith("a") and self.fs.exists(self.path)
        target = self.path if append else _temporary(self.path, self.job)
        with self.fs.open(target, "ab" if append else "wb", compression=self.compression) as out:
            for part in parts:
                with self.fs.open(part, "rb") as f:
                    while block := f.read(_COPY_BLOCK):
                        out.write(block)
        if not append:
            self.fs.mv(target, self.path)


def _temporary(final: str, job: str) -> str:
    parent, name = posixpath.split(final)
    return posixpath.join(parent, f".{name}.mars-tmp-{job}")


def to_csv(df, path_or_buf=None, *, storage_options=None, compression="infer", **kwargs):
    """Write CSV: one file, or one per chunk when the path holds ``*`` (``out-*.csv``).

    Lazy as in Mars: ``df.to_csv(path).execute()`` writes. Other keywords are pandas'.
    Without a path, the CSV text is computed and returned at once, as pandas does.
    """
    if path_or_buf is None:
        return df.fetch().to_csv(compression=compression, **kwargs)
    if hasattr(path_or_buf, "write"):
        return df.fetch().to_csv(path_or_buf, compression=compression, **kwargs)
    kwargs.pop("chunksize", None)
    fs, path = paths.filesystem(path_or_buf, storage_options)
    method = paths.compression_of(path, compression)
    fs.makedirs(posixpath.dirname(path) or ".", exist_ok=True)
    df.data.meta.to_csv(**{k: v for k, v in kwargs.items() if k not in ("mode", "encoding")})  # pandas' errors now
    op = ToCSV(fs=fs, path=path, kwargs=kwargs, compression=method, job=new_job(),
               per_chunk="*" in posixpath.basename(path), label="md.to_csv")
    return write_node(op, df)


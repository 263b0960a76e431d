"""Ray Data interop: a ``ray.data.Dataset`` as a DataFrame and back, data staying in Ray.

``read_ray_dataset`` makes one chunk of each block: the blocks' pandas forms (Ray's
``to_pandas_refs``, converted by Ray tasks) become the chunks' stored values as they are, so
no block passes through this process; small Ray tasks report each block's length and columns.
The rows are numbered 0..n-1 across blocks, as ``Dataset.to_pandas()`` numbers them.
``to_ray_dataset`` hands the executed chunks' ObjectRefs to ``ray.data.from_pandas_refs``.
"""
from __future__ import annotations

import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..core.user import ClientData
from .blockwise import chunk_shape, map_chunks, rows_grid
from .core import DataFrame, Series, methods, new_frame
from .reshape import renumber

__all__ = ["read_ray_dataset", "read_raydataset", "to_ray_dataset", "read_ray_mldataset",
           "to_ray_mldataset"]


class RayBlocks(ClientData, Operand):
    """The pandas blocks of a Ray Dataset: chunk ``i``'s stored value is block ``i``'s ref."""

    _params = ("block_ids", "nrows")
    data_meta = None

    def tile(self, ctx, out):
        chunks = []
        for i, n in enumerate(self.nrows):
            op = self.new()
            if self.data is not None:
                op.data, op.data_meta = self.data[i], self.data_meta[i]
            chunks.append(ChunkData(op, [], chunk_shape(out.meta, n), out.meta, (i, 0)))
        return rows_grid(chunks, out.meta)

    def execute(self):
        """In this process (no session): the block fetched from Ray."""
        import ray

        return ray.get(super().execute())


def _describe(frame):
    return len(frame), int(frame.memory_usage(index=True, deep=False).sum()), frame.iloc[:0]


def read_ray_dataset(ds, columns=None, incremental_index=True):
    """A DataFrame over a ``ray.data.Dataset``: one chunk per block, read where it is.

    Rows are numbered 0..n-1 as ``ds.to_pandas()`` numbers them (``incremental_index`` is
    accepted for Mars' signature; the index is always incremental)."""
    import ray

    refs = list(ds.to_pandas_refs())
    if not refs:
        return _empty(ds, columns)
    describe = ray.remote(num_cpus=0)(_describe)
    facts = ray.get([describe.remote(r) for r in refs])
    meta = facts[0][2]
    op = RayBlocks(block_ids=tuple(r.hex() for r in refs), nrows=tuple(int(f[0]) for f in facts),
                   label="md.read_ray_dataset")
    op.data = refs
    op.data_meta = [((int(f[0]), len(meta.columns)), int(f[1])) for f in facts]
    blocks = new_frame(op, [], int(sum(f[0] for f in facts)), meta)
    frame = renumber(blocks, "md.read_ray_dataset")
    return frame if columns is None else frame[list(columns)]


read_raydataset = read_ray_dataset


def _empty(ds, columns):
    from .datasource import from_pandas

    schema = ds.schema()
    names = list(schema.names) if schema is not None else []
    frame = from_pandas(pd.DataFrame(columns=names, index=pd.RangeIndex(0)))
    return frame if columns is None else frame[list(columns)]


def _as_frame(series):
    return series.to_frame()


@methods(DataFrame, Series)
def to_ray_dataset(df, num_shards=None, session=None):
    """A ``ray.data.Dataset`` of the computed chunks (``num_shards``: rebalanced first)."""
    import ray.data

    from .. import session as session_mod

    if isinstance(df, Series):
        df = map_chunks(_as_frame, (df,), label="md.to_ray_dataset")
    if not isinstance(df, DataFrame):
        raise TypeError(f"to_ray_dataset expects a DataFrame, got {type(df).__name__}")
    if num_shards is not None:
        df = df.rebalance(num_partitions=num_shards)
    sess = session or session_mod.get_default_session(create=True)
    return ray.data.from_pandas_refs(sess.chunk_refs(df))


def read_ray_mldataset(*args, **kwargs):
    """Ray removed MLDataset (ray.util.data); use ``read_ray_dataset`` on a ray.data.Dataset."""
    raise NotImplementedError("Ray removed MLDataset (ray.util.data); use ray.data.Dataset with "
                              "md.read_ray_dataset instead")


def to_ray_mldataset(*args, **kwargs):
    """Ray removed MLDataset (ray.util.data); use ``to_ray_dataset`` for a ray.data.Dataset."""
    raise NotImplementedError("Ray removed MLDataset (ray.util.data); use md.to_ray_dataset, "
                              "which returns a ray.data.Dataset, instead")


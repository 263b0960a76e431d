"""TileDB dense arrays as tensors: ``from_tiledb`` reads blocks, ``to_tiledb`` writes them.

TileDB takes concurrent writers natively (each write is its own fragment), so parts write
their subarrays without a lock. ``ctx`` is a ``tiledb.Ctx`` or its config as a dict; a dict is
what travels to the workers (a Ctx does not pickle), so a Ctx is turned into its config.
"""
from __future__ import annotations

import numpy as np

from .store import StoreRead, StoreWrite, block, read_node, require, write_node

__all__ = ["from_tiledb", "to_tiledb", "totiledb"]


def _config(ctx) -> dict | None:
    if ctx is None or isinstance(ctx, dict):
        return ctx
    return dict(ctx.config().items())


def _ctx(config):
    tiledb = require("tiledb")
    return tiledb.Ctx(tiledb.Config(config)) if config else tiledb.default_ctx()


class TileDBRead(StoreRead):
    _params = ("uri", "config", "key", "timestamp", "attr")
    label = "mt.from_tiledb"

    def read(self, extents):
        tiledb = require("tiledb")
        with tiledb.open(self.uri, "r", ctx=_ctx(self.config), key=self.key,
                         timestamp=self.timestamp, attr=self.attr) as array:
            return array[block(extents)]


def from_tiledb(uri, ctx=None, key=None, timestamp=None, gpu=None, chunk_size=None):
    """A tensor of a dense TileDB array with one attribute (its tiles set the default chunks)."""
    tiledb = require("tiledb")
    if gpu:
        raise NotImplementedError("mars_on_ray runs chunks on CPUs only (gpu=True)")
    config = _config(ctx)
    schema = tiledb.ArraySchema.load(uri, ctx=_ctx(config), key=key)
    if schema.sparse:
        raise NotImplementedError("mt.from_tiledb reads dense arrays; this one is sparse")
    if schema.nattr != 1:
        raise ValueError(f"mt.from_tiledb reads arrays with one attribute; {uri!r} has {schema.nattr}")
    dims = [schema.domain.dim(i) for i in range(schema.domain.ndim)]
    if any(int(d.domain[0]) != 0 for d in dims):
        raise NotImplementedError("mt.from_tiledb reads arrays whose dimensions start at 0")
    shape = tuple(int(d.domain[1]) + 1 for d in dims)
    if chunk_size is None:
        chunk_size = tuple(int(d.tile) for d in dims)
    attr = schema.attr(0)
    op = TileDBRead(uri=uri, config=config, key=key, timestamp=timestamp, attr=attr.name)
    return read_node(op, shape, attr.dtype, chunk_size)


class TileDBWrite(StoreWrite):
    _params = ("uri", "config", "key", "timestamp", "shape", "tiles")
    label = "mt.to_tiledb"

    def create(self):
        tiledb = require("tiledb")
        ctx = _ctx(self.config)
        dims = [tiledb.Dim(name=f"d{i}", domain=(0, max(s, 1) - 1), tile=t, dtype=np.int64, ctx=ctx)
                for i, (s, t) in enumerate(zip(self.shape, self.tiles))]
        schema = tiledb.ArraySchema(domain=tiledb.Domain(*dims, ctx=ctx), sparse=False, ctx=ctx,
                                    attrs=[tiledb.Attr(dtype=self.dtype, ctx=ctx)])
        if tiledb.object_type(self.uri, ctx=ctx) == "array":
            tiledb.remove(self.uri, ctx=ctx)
        tiledb.Array.create(self.uri, schema, key=self.key, ctx=ctx)

    def write(self, values, extents):
        tiledb = require("tiledb")
        with tiledb.open(self.uri, "w", ctx=_ctx(self.config), key=self.key,
                         timestamp=self.timestamp) as array:
            array[block(extents)] = values

    def remove(self):
        tiledb = require("tiledb")
        ctx = _ctx(self.config)
        if tiledb.object_type(self.uri, ctx=ctx) == "array":
            tiledb.remove(self.uri, ctx=ctx)


def to_tiledb(uri, x, ctx=None, key=None, timestamp=None):
    """Write tensor ``x`` as a dense TileDB array at ``uri`` (replacing one there), tiled like
    the tensor's first chunks. Lazy: ``.execute()`` writes."""
    from ..core import as_tensor
    from .zarr import _first_chunks

    require("tiledb")
    x = as_tensor(x)
    if any(s != s for s in x.shape):
        raise ValueError("mt.to_tiledb needs a tensor of known shape (execute it first)")
    if x.ndim == 0:
        raise ValueError("mt.to_tiledb needs a tensor of at least one dimension")
    shape = tuple(int(s) for s in x.shape)
    tiles = tuple(max(1, int(c)) for c in _first_chunks(x))
    op = TileDBWrite(uri=str(uri), config=_config(ctx), key=key, timestamp=timestamp, shape=shape,
                     tiles=tiles)
    return write_node(op, x)


totiledb = to_tiledb

"""Zarr arrays as tensors: ``from_zarr`` reads blocks, ``to_zarr`` writes them.

Zarr writes whole storage chunks, so two subtasks writing parts of one storage chunk would
lose one another's data: ``to_zarr`` first re-splits the tensor onto the array's chunk grid
(a no-op when they already agree), after which every part owns its storage chunks.
Paths are local or any fsspec URL (``storage_options`` go to the store).
"""
from __future__ import annotations

from ...core import paths
from .store import StoreRead, StoreWrite, block, read_node, require, write_node

__all__ = ["from_zarr", "to_zarr"]


def _open(url, group, dataset, storage_options, mode="r"):
    zarr = require("zarr")
    name = "/".join(p for p in (group, dataset) if p) or None
    root = zarr.open(store=url, mode=mode, storage_options=storage_options or None) if mode == "r" else None
    if root is None:
        return zarr, name
    node = root[name] if name else root
    if not hasattr(node, "shape"):
        raise TypeError(f"{name or url!r} is a zarr group, not an array: pass dataset=")
    return node, name


class ZarrRead(StoreRead):
    _params = ("url", "array_path", "storage_options")
    label = "mt.from_zarr"

    def read(self, extents):
        array, _ = _open(self.url, None, self.array_path, self.storage_options)
        return array[block(extents)]

    def check_distributable(self) -> None:
        paths.check_shared(paths.filesystem(self.url, self.storage_options)[0], self.name)


def from_zarr(path, group=None, dataset=None, chunk_size=None, storage_options=None):
    """A tensor of a zarr array (at ``path``, or ``group``/``dataset`` inside it). Chunks
    default to the array's own chunks when they are not tiny, else the automatic size."""
    array, name = _open(path, group, dataset, storage_options)
    if chunk_size is None and array.nbytes and array.dtype.itemsize * _size(array.chunks) >= 1 << 20:
        chunk_size = tuple(array.chunks)
    op = ZarrRead(url=path, array_path=name, storage_options=storage_options)
    return read_node(op, array.shape, array.dtype, chunk_size)


def _size(shape) -> int:
    out = 1
    for s in shape:
        out *= int(s)
    return out


class ZarrWrite(StoreWrite):
    _params = ("url", "array_path", "shape", "chunks", "storage_options", "kwargs")
    label = "mt.to_zarr"

    def _root(self, mode):
        zarr = require("zarr")
        return zarr.open_group(store=self.url, mode=mode, storage_options=self.storage_options or None)

    def create(self):
        zarr = require("zarr")
        opts = dict(shape=self.shape, chunks=self.chunks, dtype=self.dtype, **self.kwargs)
        if self.array_path:
            self._root("a").create_array(self.array_path, overwrite=True, **opts)
        else:
            zarr.create_array(store=self.url, overwrite=True, storage_options=self.storage_options or None, **opts)

    def _array(self):
        zarr = require("zarr")
        return zarr.open_array(store=self.url, path=self.array_path or "", mode="r+",
                               storage_options=self.storage_options or None)

    def write(self, values, extents):
        self._array()[block(extents)] = values

    def remove(self):
        fs, root = paths.filesystem(self.url, self.storage_options)
        target = root.rstrip("/") + ("/" + self.array_path if self.array_path else "")
        if fs.exists(target):
            fs.rm(target, recursive=True)


def to_zarr(path, x, group=None, dataset=None, chunks=None, storage_options=None, **kwargs):
    """Write tensor ``x`` as a zarr array at ``path`` (or ``group``/``dataset`` inside it),
    replacing one that is there. Lazy: ``.execute()`` writes. ``chunks`` is the array's chunk
    shape (default: the tensor's first chunk along each axis)."""
    from ..core import as_tensor

    require("zarr")
    x = as_tensor(x)
    if any(s != s for s in x.shape):
        raise ValueError("mt.to_zarr needs a tensor of known shape (execute it first)")
    shape = tuple(int(s) for s in x.shape)
    if chunks is None:
        chunks = _first_chunks(x)
    chunks = tuple(max(1, min(int(c), s or 1)) for c, s in zip(chunks, shape))
    name = "/".join(p for p in (group, dataset) if p) or None
    op = ZarrWrite(url=path, array_path=name, shape=shape, chunks=chunks, storage_options=storage_options,
                   kwargs=kwargs)
    return write_node(op, x.rechunk(chunks))


def _first_chunks(x) -> tuple:
    from ...core.chunk_sizes import normalize_chunks

    nsplits = normalize_chunks(x.data.chunk_size, x.shape, x.dtype.itemsize)
    return tuple(s[0] if s else 1 for s in nsplits)

"""HDF5 datasets as tensors (h5py): ``from_hdf5`` reads blocks, ``to_hdf5`` writes them.

HDF5 has no concurrent writers without MPI, so parts take an exclusive ``flock`` on the file
around their write (HDF5's own locking is off for those opens: it would refuse, not wait).
Writing needs a filesystem every worker shares; reading also takes fsspec URLs.
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import posixpath

from ...core import paths
from .store import StoreRead, StoreWrite, block, read_node, require, write_node

__all__ = ["from_hdf5", "to_hdf5"]


def _dataset_path(group, dataset) -> str:
    if dataset is None:
        raise ValueError("dataset must be given (the name of the HDF5 dataset)")
    return posixpath.join(group or "/", dataset)


class HDF5Read(StoreRead):
    _params = ("fs", "path", "dataset")
    label = "mt.from_hdf5"

    def read(self, extents):
        h5py = require("h5py")
        with self.fs.open(self.path, "rb") as f, h5py.File(f, "r") as h5:
            return h5[self.dataset][block(extents)]

    def check_distributable(self) -> None:
        paths.check_shared(self.fs, self.name)


def from_hdf5(filename, group=None, dataset=None, chunk_size=None, storage_options=None):
    """A tensor of an HDF5 dataset (``group``/``dataset``, or ``dataset`` as a full path)."""
    h5py = require("h5py")
    fs, path = paths.filesystem(filename, storage_options)
    name = _dataset_path(group, dataset)
    with fs.open(path, "rb") as f, h5py.File(f, "r") as h5:
        if name not in h5:
            raise KeyError(f"no dataset {name!r} in {filename!r}")
        node = h5[name]
        if not isinstance(node, h5py.Dataset):
            raise TypeError(f"{name!r} in {filename!r} is a group, not a dataset")
        shape, dtype = node.shape, node.dtype
    return read_node(HDF5Read(fs=fs, path=path, dataset=name), shape, dtype, chunk_size)


@contextlib.contextmanager
def _exclusive(path: str):
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


class HDF5Write(StoreWrite):
    _params = ("path", "dataset", "shape", "kwargs")
    label = "mt.to_hdf5"

    def create(self):
        h5py = require("h5py")
        if not os.path.exists(self.path):
            h5py.File(self.path, "a").close()
        with _exclusive(self.path), h5py.File(self.path, "a", locking=False) as h5:
            h5.create_dataset(self.dataset, shape=self.shape, dtype=self.dtype, **self.kwargs)

    def write(self, values, extents):
        h5py = require("h5py")
        with _exclusive(self.path), h5py.File(self.path, "r+", locking=False) as h5:
            h5[self.dataset][block(extents)] = values

    def remove(self):
        h5py = require("h5py")
        if os.path.exists(self.path):
            with _exclusive(self.path), h5py.File(self.path, "r+", locking=False) as h5:
                if self.dataset in h5:
                    del h5[self.dataset]


def to_hdf5(filename, x, group=None, dataset=None, **kwds):
    """Write tensor ``x`` to dataset ``group``/``dataset`` of HDF5 file ``filename`` (created
    if missing). Lazy: ``.execute()`` writes. ``kwds`` go to h5py's ``create_dataset``
    (``compression``, ``chunks``, ...)."""
    from ..core import as_tensor

    h5py = require("h5py")
    x = as_tensor(x)
    name = _dataset_path(group, dataset)
    path = os.path.abspath(os.path.expanduser(os.fspath(filename)))
    if not os.path.isdir(os.path.dirname(path)):
        raise FileNotFoundError(f"no directory {os.path.dirname(path)!r} for {filename!r}")
    if os.path.exists(path):
        with h5py.File(path, "r") as h5:
            if name in h5:
                raise ValueError(f"dataset {name!r} already exists in {filename!r}")
    if any(s != s for s in x.shape):
        raise ValueError("mt.to_hdf5 needs a tensor of known shape (execute it first)")
    op = HDF5Write(path=path, dataset=name, shape=tuple(int(s) for s in x.shape), kwargs=kwds)
    return write_node(op, x)

"""``imread``: image files as a tensor (Pillow), one file or a stack of many along axis 0."""
from __future__ import annotations

import numpy as np

from ...core import paths
from .store import StoreRead, block, read_node, require

__all__ = ["imread"]


def _read_image(fs, path) -> np.ndarray:
    image = require("PIL.Image", "io")
    with fs.open(path, "rb") as f:
        return np.asarray(image.open(f))


class ImageRead(StoreRead):
    _params = ("fs", "files", "stacked", "image_shape", "dtype")
    label = "mt.imread"

    def read(self, extents):
        if not self.stacked:
            return _read_image(self.fs, self.files[0])[block(extents)]
        (start, stop), rest = extents[0], extents[1:]
        images = []
        for path in self.files[start:stop]:
            image = _read_image(self.fs, path)
            if image.shape != self.image_shape or image.dtype != self.dtype:
                raise ValueError(f"mt.imread: {path!r} is {image.shape} {image.dtype}, the first "
                                 f"image is {self.image_shape} {self.dtype}; images must agree")
            images.append(image[block(rest)])
        return np.stack(images) if images else np.empty((0,) + self.image_shape, self.dtype)

    def check_distributable(self) -> None:
        paths.check_shared(self.fs, self.name)


def imread(path, chunk_size=None, storage_options=None):
    """Image file(s) as a tensor: one file gives its (height, width[, bands]) array; a glob,
    directory or list of files gives them stacked along a new first axis, in sorted order."""
    fs, files = paths.expand(path, storage_options)
    single = isinstance(path, str) and len(files) == 1 and not any(c in path for c in "*?[") \
        and not fs.isdir(paths.filesystem(path, storage_options)[1])
    first = _read_image(fs, files[0])
    shape = first.shape if single else (len(files),) + first.shape
    op = ImageRead(fs=fs, files=tuple(files), stacked=not single, image_shape=first.shape,
                   dtype=first.dtype)
    return read_node(op, shape, first.dtype, chunk_size)

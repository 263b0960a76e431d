"""Tensors from and to array stores: HDF5, Zarr, TileDB, image files (optional libraries:
``pip install mars_on_ray[io]``)."""
from .hdf5 import from_hdf5, to_hdf5
from .image import imread
from .tiledb import from_tiledb, to_tiledb, totiledb
from .zarr import from_zarr, to_zarr

__all__ = ["from_hdf5", "to_hdf5", "from_zarr", "to_zarr", "from_tiledb", "to_tiledb", "totiledb",
           "imread"]

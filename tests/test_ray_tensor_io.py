"""Tensor I/O on Ray: parts written by several worker processes at once, read back by blocks."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

h5py = pytest.importorskip("h5py")
zarr = pytest.importorskip("zarr")
tiledb = pytest.importorskip("tiledb")

pytestmark = pytest.mark.usefixtures("session")

X = np.random.default_rng(1).standard_normal((23, 17))


def test_hdf5_parts_written_concurrently_on_ray(tmp_path):
    path = str(tmp_path / "x.h5")
    mt.to_hdf5(path, mt.tensor(X, chunk_size=(5, 4)) + 1, dataset="x").execute()
    with h5py.File(path, "r") as f:
        np.testing.assert_array_equal(f["x"][...], X + 1)
    assert_eq(mt.from_hdf5(path, dataset="x", chunk_size=(6, 7)).sum(axis=0), (X + 1).sum(axis=0))


def test_zarr_and_tiledb_round_trips_on_ray(tmp_path):
    z, t = str(tmp_path / "z"), str(tmp_path / "t")
    mt.to_zarr(z, mt.tensor(X, chunk_size=(5, 4)) * 3, chunks=(4, 4)).execute()
    np.testing.assert_array_equal(zarr.open_array(store=z, mode="r")[...], X * 3)
    assert_eq(mt.from_zarr(z, chunk_size=(7, 5)), X * 3)
    mt.tensor(X, chunk_size=(5, 4)).totiledb(t).execute()
    assert_eq(mt.from_tiledb(t, chunk_size=(6, 9)), X)


def test_from_dataframe_on_ray():
    pdf = pd.DataFrame({"a": np.arange(11), "b": np.linspace(0, 1, 11)})
    assert_eq(mt.from_dataframe(md.DataFrame(pdf, chunk_size=4)), pdf.to_numpy())

"""Tensor I/O against h5py / zarr / tiledb / Pillow reading and writing the same arrays."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

h5py = pytest.importorskip("h5py")
zarr = pytest.importorskip("zarr")
tiledb = pytest.importorskip("tiledb")
Image = pytest.importorskip("PIL.Image")

A = np.arange(7 * 11, dtype=np.float64).reshape(7, 11) / 3
B = (np.arange(5 * 6 * 4) % 251).astype(np.uint8).reshape(5, 6, 4)


def _run(t):
    return LocalExecutor().compute(t.data)[0]


def test_from_hdf5_reads_blocks_that_do_not_divide(tmp_path):
    path = tmp_path / "a.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("grp/x", data=A)
        f.create_dataset("y", data=B, chunks=(2, 3, 4))
    assert_eq(mt.from_hdf5(str(path), group="grp", dataset="x", chunk_size=(3, 4)), A)
    assert_eq(mt.from_hdf5(str(path), dataset="/grp/x", chunk_size=5), A)
    assert_eq(mt.from_hdf5(str(path), dataset="y", chunk_size=(2, 4, 3)), B)


def test_from_hdf5_errors(tmp_path):
    path = tmp_path / "a.h5"
    with h5py.File(path, "w") as f:
        f.create_dataset("grp/x", data=A)
    with pytest.raises(KeyError):
        mt.from_hdf5(str(path), dataset="missing")
    with pytest.raises(TypeError):
        mt.from_hdf5(str(path), dataset="grp")
    with pytest.raises(ValueError):
        mt.from_hdf5(str(path))
    with pytest.raises(FileNotFoundError):
        mt.from_hdf5(str(tmp_path / "nope.h5"), dataset="x")


def test_to_hdf5_writes_every_block_and_is_lazy(tmp_path):
    path = str(tmp_path / "out.h5")
    node = mt.to_hdf5(path, mt.tensor(A, chunk_size=(3, 4)) * 2, group="g", dataset="d",
                      compression="gzip")
    assert not os.path.exists(path)  # nothing written before execution
    result = _run(node)
    assert result.shape == (0, 0) and result.dtype == A.dtype
    with h5py.File(path, "r") as f:
        np.testing.assert_array_equal(f["g/d"][...], A * 2)
        assert f["g/d"].compression == "gzip"
    with pytest.raises(ValueError, match="already exists"):
        mt.to_hdf5(path, mt.tensor(A), group="g", dataset="d")
    _run(mt.to_hdf5(path, mt.tensor(B, chunk_size=2), dataset="second"))
    assert_eq(mt.from_hdf5(path, dataset="second", chunk_size=4), B)


def test_to_hdf5_failure_leaves_no_dataset(tmp_path):
    path = str(tmp_path / "out.h5")
    bad = mt.tensor(A, chunk_size=3).map_chunk(_fail_on_last_rows, elementwise=True, dtype=A.dtype)
    with pytest.raises(RuntimeError, match="boom"):
        _run(mt.to_hdf5(path, bad, dataset="d"))
    with h5py.File(path, "r") as f:
        assert "d" not in f


def _fail_on_last_rows(block):
    if block.shape[0] < 3:
        raise RuntimeError("boom")
    return block


def test_zarr_round_trip_and_group(tmp_path):
    path = str(tmp_path / "z")
    zarr.create_array(store=path, shape=A.shape, chunks=(2, 5), dtype=A.dtype)[...] = A
    assert_eq(mt.from_zarr(path, chunk_size=(3, 4)), A)
    assert_eq(mt.from_zarr(path), A)
    out = str(tmp_path / "out")
    _run(mt.to_zarr(out, mt.tensor(B, chunk_size=(2, 4, 3)) + 1, group="g", dataset="b"))
    np.testing.assert_array_equal(zarr.open_array(store=out, path="g/b", mode="r")[...], B + 1)
    assert_eq(mt.from_zarr(out, group="g", dataset="b", chunk_size=3), B + 1)
    # irregular chunks are re-split onto the array's chunk grid: no two parts share a storage chunk
    irregular = mt.concatenate([mt.tensor(A[:2], chunk_size=1), mt.tensor(A[2:], chunk_size=4)])
    _run(mt.to_zarr(str(tmp_path / "irr"), irregular, chunks=(3, 3)))
    np.testing.assert_array_equal(zarr.open_array(store=str(tmp_path / "irr"), mode="r")[...], A)


def test_zarr_group_without_dataset_is_a_type_error(tmp_path):
    path = str(tmp_path / "z")
    zarr.open_group(store=path, mode="w").create_array("x", shape=(3,), dtype="i8")
    with pytest.raises(TypeError):
        mt.from_zarr(path)


def test_tiledb_round_trip(tmp_path):
    uri = str(tmp_path / "t")
    _run(mt.to_tiledb(uri, mt.tensor(A, chunk_size=(3, 4))))
    with tiledb.open(uri) as arr:
        np.testing.assert_array_equal(arr[:], A)
    assert_eq(mt.from_tiledb(uri), A)
    assert_eq(mt.from_tiledb(uri, chunk_size=(5, 2)), A)
    _run(mt.tensor(B, chunk_size=2).totiledb(uri))  # replaces the array
    assert_eq(mt.from_tiledb(uri), B)
    with pytest.raises(NotImplementedError):
        mt.from_tiledb(uri, gpu=True)


def test_imread_single_stack_and_mismatch(tmp_path):
    images = [(np.arange(4 * 5 * 3) * (i + 1) % 256).astype(np.uint8).reshape(4, 5, 3) for i in range(5)]
    for i, image in enumerate(images):
        Image.fromarray(image).save(tmp_path / f"img{i}.png")
    assert_eq(mt.imread(str(tmp_path / "img2.png"), chunk_size=(3, 2, 3)), images[2])
    assert_eq(mt.imread(str(tmp_path / "img*.png"), chunk_size=(2, 3, 5, 3)), np.stack(images))
    assert_eq(mt.imread(str(tmp_path)), np.stack(images))
    Image.fromarray(np.zeros((2, 2, 3), np.uint8)).save(tmp_path / "img9.png")
    with pytest.raises(ValueError, match="must agree"):
        _run(mt.imread(str(tmp_path / "img*.png"), chunk_size=2))
    with pytest.raises(FileNotFoundError):
        mt.imread(str(tmp_path / "none*.png"))


def test_from_dataframe_common_dtype_and_rows():
    pdf = pd.DataFrame({"a": np.arange(10), "b": np.arange(10) * 1.5, "c": np.arange(10, dtype="i2")})
    df = md.DataFrame(pdf, chunk_size=3)
    assert_eq(mt.from_dataframe(df), pdf.to_numpy())
    assert_eq(mt.from_dataframe(df[["a", "c"]]), pdf[["a", "c"]].to_numpy())
    assert_eq(mt.from_dataframe(df, dtype="f4"), pdf.to_numpy(dtype="f4"))
    assert_eq(mt.from_dataframe(df[df["a"] > 4]), pdf[pdf["a"] > 4].to_numpy())
    with pytest.raises(TypeError):
        mt.from_dataframe(pdf)

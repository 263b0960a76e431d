"""mt.linalg.qr in every mode against NumPy's (LAPACK's) factors, signs included."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(3)
MODES = ["reduced", "complete", "r", "raw"]


def _v(t):
    return LocalExecutor().compute(t.data)[0]


def _parts(x):
    return list(x) if isinstance(x, tuple) else [x]


def _complex(shape):
    return RS.rand(*shape) + 1j * RS.rand(*shape)


@pytest.mark.parametrize("a,chunks", [
    (RS.rand(23, 5), (7, 2)), (RS.rand(13, 7), 4), (RS.rand(40, 3), (6, 3)), (RS.rand(6, 6), 4),
    (RS.rand(4, 9), 3), (_complex((17, 4)), 5), (_complex((5, 5)), 2), (_complex((3, 7)), 2),
    (RS.rand(13, 7).astype("f4"), 4), (RS.randint(-9, 9, (11, 4)), 3), (RS.rand(7, 1), 3), (RS.rand(1, 6), 4),
])
@pytest.mark.parametrize("mode", MODES)
def test_qr_equals_numpy_in_every_mode(a, chunks, mode):
    got, want = mt.linalg.qr(mt.tensor(a, chunk_size=chunks), mode=mode), np.linalg.qr(a, mode=mode)
    assert len(_parts(got)) == len(_parts(want))
    tol = 1e-5 if a.dtype == np.float32 else 1e-10
    for g, w in zip(_parts(got), _parts(want)):
        assert_eq(g, w, atol=tol)


def test_complete_q_of_a_tall_matrix_stays_in_row_blocks():
    """Q (m x m) is I - Y T Y^H block by block: neither it nor Y is gathered in one chunk."""
    a = RS.rand(40, 3)
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(6, 3)), mode="complete")
    tiled = LocalExecutor(small_data=False).tile(q.data)
    assert len(tiled.nsplits[0]) > 1 and len(tiled.nsplits[1]) > 1
    np.testing.assert_allclose(_v(q), np.linalg.qr(a, mode="complete")[0], atol=1e-12)


@pytest.mark.parametrize("a", [np.ones((5, 3)), np.arange(30.0).reshape(10, 3), np.zeros((4, 2))])
def test_qr_of_a_rank_deficient_matrix_is_a_qr(a):
    """Beyond the rank, Q's columns are any orthonormal completion (LAPACK's depend on its
    rounding): checked as a factorisation, and raw's reflectors must rebuild it."""
    t = mt.tensor(a, chunk_size=2)
    for mode in ("reduced", "complete"):
        q, r = (_v(x) for x in mt.linalg.qr(t, mode=mode))
        assert q.shape == np.linalg.qr(a, mode=mode)[0].shape
        np.testing.assert_allclose(q @ r, a, atol=1e-10)
        np.testing.assert_allclose(q.T @ q, np.eye(q.shape[1]), atol=1e-10)
        assert np.allclose(np.tril(r, -1), 0)
    h, tau = (_v(x) for x in mt.linalg.qr(t, mode="raw"))
    q = np.eye(a.shape[0])
    for j in range(len(tau)):
        v = np.concatenate([np.zeros(j), [1.0], h[j, j + 1:]])
        q = q @ (np.eye(len(v)) - tau[j] * np.outer(v, v))
    np.testing.assert_allclose(q[:, :a.shape[1]] @ np.triu(h.T[:a.shape[1]]), a, atol=1e-10)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
@pytest.mark.parametrize("mode", MODES)
def test_qr_of_empty_matrices(shape, mode):
    got, want = mt.linalg.qr(mt.tensor(np.empty(shape)), mode=mode), np.linalg.qr(np.empty(shape), mode=mode)
    for g, w in zip(_parts(got), _parts(want)):
        assert_eq(g, w)


def test_qr_with_nan_propagates_like_numpy():
    a = np.array([[np.nan, 1.0], [2.0, 3.0], [4.0, 5.0]])
    for mode in MODES:
        for g, w in zip(_parts(mt.linalg.qr(mt.tensor(a, chunk_size=2), mode=mode)),
                        _parts(np.linalg.qr(a, mode=mode))):
            assert_eq(g, w)


def test_qr_of_unknown_rows():
    a = RS.rand(13, 4)
    t = mt.tensor(a, chunk_size=3)
    sel = t[t[:, 0] > 0.3]
    want = np.linalg.qr(a[a[:, 0] > 0.3])
    q, r = mt.linalg.qr(sel)
    assert_eq(q, want.Q, atol=1e-10)
    assert_eq(r, want.R, atol=1e-10)
    assert_eq(mt.linalg.qr(sel, mode="r"), want.R, atol=1e-10)
    for mode in ("complete", "raw"):
        with pytest.raises(NotImplementedError, match=mode):
            mt.linalg.qr(sel, mode=mode)
    wide = t[t[:, 0] > 2][:, :4]  # no rows at all: fewer rows than columns, known only when tiled
    with pytest.raises(NotImplementedError, match="fewer rows than columns"):
        _v(mt.linalg.qr(wide)[0])


def test_qr_errors_like_numpy():
    with pytest.raises(ValueError, match="Unrecognized mode"):
        mt.linalg.qr(mt.tensor(np.ones((3, 3))), mode="full")
    with pytest.raises(np.linalg.LinAlgError):
        mt.linalg.qr(mt.tensor(np.ones(3)))
    with pytest.raises(TypeError):
        mt.linalg.qr(mt.tensor(np.ones((3, 3), dtype="f2")))

"""mt.linalg qr / svd (TSQR), cholesky (blocked), norm against NumPy on uneven chunks."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(7)
TALL = RS.rand(23, 5)
WIDE = RS.rand(4, 9)
B = RS.rand(11, 11)
SPD = B @ B.T + 11 * np.eye(11)


def _v(t):
    return LocalExecutor().compute(t.data)[0]


@pytest.mark.parametrize("a,chunks", [(TALL, (7, 2)), (TALL, 23), (WIDE, 3), (TALL.astype("f4"), 6)])
def test_qr_factors_like_numpy(a, chunks):
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=chunks))
    eq, er = np.linalg.qr(a)
    Q, R = _v(q), _v(r)
    assert Q.shape == eq.shape and R.shape == er.shape and Q.dtype == eq.dtype and R.dtype == er.dtype
    tol = 1e-4 if a.dtype == np.float32 else 1e-10
    np.testing.assert_allclose(Q @ R, a, atol=tol)
    np.testing.assert_allclose(Q.T @ Q, np.eye(Q.shape[1]), atol=tol)
    np.testing.assert_allclose(np.abs(R), np.abs(er), atol=tol)  # unique up to row signs
    assert np.allclose(np.tril(R, -1), 0)
    np.testing.assert_allclose(np.abs(_v(mt.linalg.qr(mt.tensor(a, chunk_size=chunks), mode="r"))),
                               np.abs(er), atol=tol)


def test_svd_like_numpy():
    t = mt.tensor(TALL, chunk_size=(6, 5))
    u, s, vh = mt.linalg.svd(t)
    eu, es, evh = np.linalg.svd(TALL, full_matrices=False)
    assert_eq(s, es)
    U, VH = _v(u), _v(vh)
    assert U.shape == eu.shape and VH.shape == evh.shape
    np.testing.assert_allclose((U * es) @ VH, TALL, atol=1e-10)
    np.testing.assert_allclose(np.abs(U), np.abs(eu), atol=1e-8)
    assert_eq(mt.linalg.svd(t, compute_uv=False), es)


@pytest.mark.parametrize("chunks", [4, 11, (3, 3)])
def test_cholesky_lower_factor(chunks):
    assert_eq(mt.linalg.cholesky(mt.tensor(SPD, chunk_size=chunks)), np.linalg.cholesky(SPD))


def test_cholesky_errors():
    with pytest.raises(np.linalg.LinAlgError):
        mt.linalg.cholesky(mt.tensor(TALL))
    with pytest.raises(np.linalg.LinAlgError):
        mt.linalg.cholesky(mt.tensor(np.ones(3)))
    with pytest.raises(np.linalg.LinAlgError):  # not positive definite: found when it runs
        _v(mt.linalg.cholesky(mt.tensor(-SPD, chunk_size=4)))


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
def test_matrix_norms(ord):
    assert_eq(mt.linalg.norm(mt.tensor(TALL, chunk_size=(7, 2)), ord), np.linalg.norm(TALL, ord))


@pytest.mark.parametrize("ord", [None, 0, 1, 2, 3, -1, np.inf, -np.inf])
@pytest.mark.parametrize("axis", [0, 1])
def test_vector_norms(ord, axis):
    with np.errstate(divide="ignore"):
        assert_eq(mt.linalg.norm(mt.tensor(TALL, chunk_size=(7, 2)), ord, axis=axis),
                  np.linalg.norm(TALL, ord, axis=axis))
        assert_eq(mt.linalg.norm(mt.tensor(TALL, chunk_size=(7, 2)), ord, axis=axis, keepdims=True),
                  np.linalg.norm(TALL, ord, axis=axis, keepdims=True))


@pytest.mark.parametrize("ord", [2, -2, "nuc", "fro", 1, np.inf])
@pytest.mark.parametrize("axis", [(1, 2), (2, 0), (-1, -3)])
def test_norms_of_stacked_matrices(ord, axis):
    stack = np.random.RandomState(4).rand(5, 4, 6)
    t = mt.tensor(stack, chunk_size=(2, 3, 4))
    assert_eq(mt.linalg.norm(t, ord, axis=axis), np.linalg.norm(stack, ord, axis=axis), rtol=1e-10)
    assert_eq(mt.linalg.norm(t, ord, axis=axis, keepdims=True),
              np.linalg.norm(stack, ord, axis=axis, keepdims=True), rtol=1e-10)


def test_norm_of_ints_complex_and_errors():
    v = np.arange(-5, 8)
    assert_eq(mt.linalg.norm(mt.tensor(v, chunk_size=4)), np.linalg.norm(v))
    z = TALL[:, 0] + 1j * TALL[:, 1]
    assert_eq(mt.linalg.norm(mt.tensor(z, chunk_size=5)), np.linalg.norm(z))
    with pytest.raises(ValueError):
        np.linalg.norm(TALL, "bogus")
    with pytest.raises(ValueError):
        mt.linalg.norm(mt.tensor(TALL), "bogus")


def test_qr_factors_each_block_once_for_q_and_r():
    """Q and R are two tileables over the same factorisations: one QR per row block plus
    one of the stacked Rs (each block was factored twice, once for Q and once for R)."""
    from mars_on_ray.core.fusion import build_steps
    from mars_on_ray.tensor.decompositions import _Factor

    x = np.random.default_rng(0).standard_normal((70, 4))
    q, r = mt.linalg.qr(mt.tensor(x, chunk_size=(15, 4)))
    executor = LocalExecutor(small_data=False)
    chunks = list(executor.tile(q.data).flat) + list(executor.tile(r.data).flat)
    factors = [s for s in build_steps(chunks, set()) if isinstance(s.op, _Factor)]
    assert len(factors) == 5 + 1
    got_q, got_r = LocalExecutor(small_data=False).compute(q.data, r.data)
    np.testing.assert_allclose(got_q @ got_r, x, atol=1e-10)
    np.testing.assert_allclose(got_q.T @ got_q, np.eye(4), atol=1e-10)


@pytest.mark.parametrize("shape, dtype", [((50_000, 20), "float64"), ((40_001, 7), "float32"),
                                          ((30_000, 3), "complex128"), ((9_000, 200), "float64")])
def test_tall_qr_in_cache_blocks_is_a_qr_of_numpy_signs_aside(shape, dtype):
    from mars_on_ray.tensor.decompositions import BLOCK_BYTES, tall_qr

    rs = np.random.RandomState(0)
    a = rs.rand(*shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rs.rand(*shape)
    assert shape[0] > 2 * BLOCK_BYTES // (a.itemsize * shape[1])  # the blocked path
    q, r = tall_qr(a)
    q0, r0 = np.linalg.qr(a)
    assert q.shape == q0.shape and r.shape == r0.shape and q.dtype == q0.dtype and r.dtype == r0.dtype
    tol = 1e-4 if dtype == "float32" else 1e-9
    np.testing.assert_allclose(q @ r, a, atol=tol * shape[1])
    np.testing.assert_allclose(q.conj().T @ q, np.eye(shape[1]), atol=tol * 10)
    np.testing.assert_allclose(np.abs(r), np.abs(r0), rtol=tol * 10, atol=tol * 10)
    assert np.allclose(np.tril(r, -1), 0)

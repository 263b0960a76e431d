"""mt.linalg.eig / eigvals against NumPy: real results when every eigenvalue is real."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(1)
SYM = RS.rand(6, 6) + RS.rand(6, 6).T
SYM = SYM + SYM.T


@pytest.mark.parametrize("a,chunks", [
    (SYM, 4), (RS.rand(7, 7), 3), (np.triu(RS.rand(5, 5)), 2), (RS.rand(3, 4, 4), (2, 3, 3)),
    (np.stack([SYM[:4, :4], RS.rand(4, 4)]), 1), (np.array([[0, 1], [-1, 0]], "f4"), 1),
    (np.triu(RS.rand(4, 4)).astype("f4"), 3), (RS.rand(4, 4) + 1j * RS.rand(4, 4), 3),
    (np.diag([1.0, 2.0, 3.0]).astype(complex), 2), (np.eye(3, dtype=int), 2), (np.eye(3, dtype=bool), 2),
    (np.zeros((0, 0)), 1), (np.zeros((2, 0, 0)), 1),
])
def test_eig_and_eigvals_equal_numpy_with_its_dtype(a, chunks):
    t = mt.tensor(a, chunk_size=chunks)
    w, v = mt.linalg.eig(t)
    ew, ev = np.linalg.eig(a)
    tol = dict(rtol=1e-4, atol=1e-5) if a.dtype == np.float32 else dict(rtol=1e-10, atol=1e-12)
    assert_eq(w, ew, **tol)
    assert_eq(v, ev, **tol)
    assert_eq(mt.linalg.eigvals(t), np.linalg.eigvals(a), **tol)


def test_eig_of_a_stack_is_complex_when_one_matrix_has_complex_eigenvalues():
    """NumPy decides the dtype over the whole stack; each chunk of matrices alone would not."""
    a = np.stack([SYM[:3, :3], np.array([[0.0, 1, 0], [-1, 0, 0], [0, 0, 1]])])
    w, v = mt.linalg.eig(mt.tensor(a, chunk_size=(1, 3, 3)))
    assert w.dtype == np.complex128 and v.dtype == np.complex128
    assert_eq(w, np.linalg.eig(a)[0], rtol=1e-10)
    assert_eq(v, np.linalg.eig(a)[1], rtol=1e-10)


def test_eig_of_unknown_shape():
    a = RS.rand(9, 9)
    keep = a[:, 0] > 0.4
    t = mt.tensor(a, chunk_size=4)
    sub = t[t[:, 0] > 0.4][:, t[:, 0] > 0.4]
    assert_eq(mt.linalg.eigvals(sub), np.linalg.eigvals(a[keep][:, keep]), rtol=1e-10)


@pytest.mark.parametrize("func", ["eig", "eigvals"])
def test_eig_errors_like_numpy(func):
    f = getattr(mt.linalg, func)
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        f(mt.tensor(np.ones(3)))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        f(mt.tensor(np.ones((2, 3))))
    with pytest.raises(TypeError):
        f(mt.tensor(np.ones((2, 2), "f2")))
    with pytest.raises(np.linalg.LinAlgError, match="infs or NaNs"):
        f(mt.tensor(np.array([[np.nan, 1], [1, 1]])))

"""mt.linalg lu / solve_triangular / solve / inv / det / slogdet / matrix_power / lstsq / pinv /
matrix_rank / cond / eigh against NumPy and SciPy, on chunks that do not divide the shape."""
from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(11)
GENERAL = RS.rand(13, 13)
SPD = GENERAL @ GENERAL.T + 13 * np.eye(13)
BIG = RS.rand(50, 50) - 0.5
TALL, WIDE = RS.rand(13, 7), RS.rand(7, 13)


def _v(t):
    return LocalExecutor().compute(t.data)[0]


def test_linalg_namespace_holds_only_linalg_functions():
    public = {name for name in dir(mt.linalg) if not name.startswith("_")}
    assert {"solve", "inv", "lstsq", "det", "slogdet", "lu", "matrix_power", "qr", "svd", "cholesky",
            "norm", "pinv", "matrix_rank", "cond", "eigh", "eigvalsh", "solve_triangular", "eig", "eigvals",
            "vecdot", "diagonal", "trace", "cross"} <= public
    assert not public & {"np", "math", "itertools", "Operand", "options", "ChunkData", "annotations"}
    assert public == set(mt.linalg.__all__)
    assert all(callable(getattr(mt.linalg, name)) for name in public)
    assert mt.linalg.LinAlgError is np.linalg.LinAlgError
    assert mt.matmul is mt.linalg.matmul and mt.tensordot is mt.linalg.tensordot


def test_numpy_linalg_functions_on_tensors_stay_lazy():
    t = mt.tensor(SPD, chunk_size=4)
    for got, want in [(np.linalg.solve(t, GENERAL[0]), np.linalg.solve(SPD, GENERAL[0])),
                      (np.linalg.inv(t), np.linalg.inv(SPD)), (np.linalg.det(t), np.linalg.det(SPD)),
                      (np.linalg.matrix_power(t, 2), np.linalg.matrix_power(SPD, 2))]:
        assert isinstance(got, mt.Tensor)
        assert_eq(got, want, rtol=1e-9)


@pytest.mark.parametrize("a,chunks", [(GENERAL, 4), (BIG, 16), (TALL, 4), (WIDE, 4), (TALL, (5, 3)),
                                      (GENERAL.astype("f4"), 5), (np.ones((4, 4)), 3)])
def test_lu_factors_are_scipys(a, chunks):
    t = mt.tensor(a, chunk_size=chunks)
    expected = scipy.linalg.lu(a)
    tol = 1e-5 if a.dtype == np.float32 else 1e-10
    for got, want in zip(mt.linalg.lu(t), expected):
        assert_eq(got, want, rtol=tol, atol=tol)
    p, lower, upper = (_v(x) for x in mt.linalg.lu(t))
    np.testing.assert_allclose(p @ lower @ upper, a, atol=tol)
    assert np.allclose(np.diagonal(lower), 1) and np.allclose(np.triu(lower, 1), 0)
    assert np.allclose(np.tril(upper, -1), 0)
    for got, want in zip(mt.linalg.lu(t, permute_l=True), scipy.linalg.lu(a, permute_l=True)):
        assert_eq(got, want, rtol=tol, atol=tol)
    assert_eq(mt.linalg.lu(t, p_indices=True)[0], scipy.linalg.lu(a, p_indices=True)[0])


@pytest.mark.parametrize("shape", [(3, 4, 4), (2, 5, 3), (2, 3, 5)])
def test_lu_of_stacked_matrices_is_scipys_batched_lu(shape):
    a = RS.rand(*shape)
    t = mt.tensor(a, chunk_size=2)
    for kwargs in ({}, {"permute_l": True}, {"p_indices": True}):
        for got, want in zip(mt.linalg.lu(t, **kwargs), scipy.linalg.lu(a, **kwargs)):
            assert_eq(got, want, rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
def test_lu_of_empty_matrices_has_scipys_shapes(shape):
    for got, want in zip(mt.linalg.lu(np.ones(shape)), scipy.linalg.lu(np.ones(shape))):
        assert_eq(got, want)


def test_lu_of_unknown_shape_after_boolean_selection():
    keep = np.ones(13, bool)
    keep[[3, 8]] = False
    t = mt.tensor(GENERAL, chunk_size=4)[mt.tensor(keep)]
    for got, want in zip(mt.linalg.lu(t), scipy.linalg.lu(GENERAL[keep])):
        assert_eq(got, want, rtol=1e-10, atol=1e-12)


def test_lu_checks_finite_values_like_scipy():
    with pytest.raises(ValueError, match="infs or NaNs"):
        _v(mt.linalg.lu(mt.tensor(np.where(np.eye(5) > 0, np.nan, 1), chunk_size=2))[1])
    with pytest.raises(ValueError, match="at least two-dimensional"):
        mt.linalg.lu(np.ones(3))


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("trans", [0, "T", 2])
def test_solve_triangular_is_scipys(lower, trans):
    tri = np.tril(SPD) if lower else np.triu(SPD)
    t = mt.tensor(tri + 1j * np.tril(GENERAL) if trans == 2 else tri, chunk_size=4)
    a = tri + 1j * np.tril(GENERAL) if trans == 2 else tri
    for b, chunks in [(GENERAL[:, :3], (5, 2)), (GENERAL[0], 6)]:
        expected = scipy.linalg.solve_triangular(a, b, lower=lower, trans=trans)
        assert_eq(mt.linalg.solve_triangular(t, mt.tensor(b, chunk_size=chunks), lower=lower, trans=trans),
                  expected, rtol=1e-10)
    unit = scipy.linalg.solve_triangular(tri, GENERAL[0], lower=lower, unit_diagonal=True)
    assert_eq(mt.linalg.solve_triangular(t.real if trans == 2 else t, GENERAL[0], lower=lower,
                                         unit_diagonal=True), unit, rtol=1e-8)


def test_solve_triangular_errors_are_scipys():
    zero = np.triu(SPD)
    zero[6, 6] = 0
    with pytest.raises(np.linalg.LinAlgError, match="resolution failed at diagonal 6"):
        _v(mt.linalg.solve_triangular(mt.tensor(zero, chunk_size=4), np.ones(13)))
    with pytest.raises(ValueError, match="expected square matrix"):
        mt.linalg.solve_triangular(TALL, np.ones(13))
    with pytest.raises(ValueError, match="incompatible"):
        mt.linalg.solve_triangular(SPD, np.ones(12))
    assert_eq(mt.linalg.solve_triangular(np.triu(SPD).astype("f4"), np.ones(13, "f4")),
              scipy.linalg.solve_triangular(np.triu(SPD).astype("f4"), np.ones(13, "f4")), rtol=1e-5)


@pytest.mark.parametrize("a,chunks", [(SPD, 4), (GENERAL, 4), (BIG, 16), (GENERAL, (13, 3))])
def test_solve_is_numpys_for_vectors_and_matrices(a, chunks):
    t = mt.tensor(a, chunk_size=chunks)
    n = a.shape[0]
    for b, b_chunks in [(RS.rand(n), 5), (RS.rand(n, 1), 4), (RS.rand(n, 7), (6, 3))]:
        assert_eq(mt.linalg.solve(t, mt.tensor(b, chunk_size=b_chunks)), np.linalg.solve(a, b), rtol=1e-9)


def test_solve_keeps_float32_and_promotes_like_numpy():
    a32, b32 = SPD.astype("f4"), GENERAL[:, :2].astype("f4")
    assert_eq(mt.linalg.solve(mt.tensor(a32, chunk_size=4), b32), np.linalg.solve(a32, b32), rtol=1e-4)
    assert_eq(mt.linalg.solve(mt.tensor(a32, chunk_size=4), GENERAL[:, 0]), np.linalg.solve(a32, GENERAL[:, 0]),
              rtol=1e-5)
    ints = (RS.rand(6, 6) * 10).astype(int) + 10 * np.eye(6, dtype=int)
    assert_eq(mt.linalg.solve(mt.tensor(ints, chunk_size=4), np.arange(6)), np.linalg.solve(ints, np.arange(6)))
    cplx = GENERAL + 1j * SPD
    assert_eq(mt.linalg.solve(mt.tensor(cplx, chunk_size=4), GENERAL[0]), np.linalg.solve(cplx, GENERAL[0]))


def test_solve_with_right_hand_sides_of_unknown_length():
    b = mt.tensor(GENERAL[:, :3], chunk_size=4)[mt.tensor(np.ones(13, bool))]
    assert b.shape[0] != b.shape[0]  # nan: unknown until executed
    assert_eq(mt.linalg.solve(mt.tensor(SPD, chunk_size=5), b), np.linalg.solve(SPD, GENERAL[:, :3]))
    short = mt.tensor(np.ones(12))[mt.tensor(np.ones(12, bool))]
    with pytest.raises(ValueError, match="mismatch in its core dimension"):
        _v(mt.linalg.solve(mt.tensor(SPD, chunk_size=5), short))


def test_solve_of_stacked_matrices_broadcasts_like_numpy():
    a = RS.rand(3, 1, 4, 4) + 4 * np.eye(4)
    t = mt.tensor(a, chunk_size=2)
    for b in (RS.rand(4), RS.rand(4, 2), RS.rand(2, 4, 3), RS.rand(3, 2, 4, 1)):
        assert_eq(mt.linalg.solve(t, mt.tensor(b, chunk_size=3)), np.linalg.solve(a, b), rtol=1e-10)
    b = RS.rand(2, 4, 3)
    assert_eq(mt.linalg.solve(a[0, 0], b), np.linalg.solve(a[0, 0], b), rtol=1e-10)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        mt.linalg.solve(t, np.ones((2, 5, 3)))
    with pytest.raises(ValueError):
        mt.linalg.solve(t, np.ones((2, 2, 4, 3)))


def test_solve_of_a_singular_matrix_raises_at_execution():
    singular = np.ones((5, 5))
    t = mt.linalg.solve(mt.tensor(singular, chunk_size=2), np.ones(5))  # builds
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        _v(t)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        _v(mt.linalg.inv(mt.tensor(np.diag([1.0, 2, 0, 3, 4, 5]), chunk_size=4)))


def test_solve_errors_at_build_time_are_numpys():
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        mt.linalg.solve(TALL, np.ones(13))
    with pytest.raises(np.linalg.LinAlgError, match="1-dimensional array given"):
        mt.linalg.solve(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        mt.linalg.solve(SPD, np.ones(12))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        mt.linalg.solve(SPD, np.ones((12, 2)))


def test_solve_with_nan_and_empty_inputs_is_numpys():
    nan = GENERAL.copy()
    nan[2, 3] = np.nan
    assert_eq(mt.linalg.solve(mt.tensor(nan, chunk_size=4), GENERAL[0]), np.linalg.solve(nan, GENERAL[0]))
    assert_eq(mt.linalg.solve(np.ones((0, 0)), np.ones(0)), np.linalg.solve(np.ones((0, 0)), np.ones(0)))
    assert_eq(mt.linalg.solve(SPD, np.ones((13, 0))), np.linalg.solve(SPD, np.ones((13, 0))))


@pytest.mark.parametrize("a,chunks", [(SPD, 4), (GENERAL, 4), (BIG, 16), (GENERAL.astype("f4"), 5),
                                      ((GENERAL * 10).astype(int), 4), (GENERAL + 2j * SPD, 6)])
def test_inv_is_numpys(a, chunks):
    tol = 1e-4 if a.dtype == np.float32 else 1e-8
    assert_eq(mt.linalg.inv(mt.tensor(a, chunk_size=chunks)), np.linalg.inv(a), rtol=tol, atol=tol)


def test_inv_of_unknown_shape_stacked_and_empty():
    t = mt.tensor(GENERAL, chunk_size=4)[mt.tensor(np.ones(13, bool))]
    assert_eq(mt.linalg.inv(t), np.linalg.inv(GENERAL), rtol=1e-8)
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        _v(mt.linalg.inv(mt.tensor(TALL, chunk_size=4)[mt.tensor(np.ones(13, bool))]))
    stack = RS.rand(3, 4, 4) + 4 * np.eye(4)
    assert_eq(mt.linalg.inv(mt.tensor(stack, chunk_size=2)), np.linalg.inv(stack))
    assert_eq(mt.linalg.inv(np.ones((0, 0))), np.linalg.inv(np.ones((0, 0))))


@pytest.mark.parametrize("a,chunks", [(SPD, 4), (GENERAL, 4), (BIG, 16), (GENERAL.astype("f4"), 5),
                                      ((GENERAL * 10).astype(int), 4), (GENERAL + 2j * SPD, 6),
                                      (np.diag([1.0, 2, 0, 3]), 3), (-np.eye(5)[[1, 0, 2, 4, 3]], 2)])
def test_det_and_slogdet_are_numpys(a, chunks):
    t = mt.tensor(a, chunk_size=chunks)
    tol = 1e-4 if a.dtype == np.float32 else 1e-9
    assert_eq(mt.linalg.det(t), np.linalg.det(a), rtol=tol)
    sign, log = mt.linalg.slogdet(t)
    want = np.linalg.slogdet(a)
    assert_eq(sign, want.sign, rtol=tol)
    assert_eq(log, want.logabsdet, rtol=tol)


def test_det_and_matrix_power_of_unknown_shape():
    t = mt.tensor(GENERAL, chunk_size=4)[mt.tensor(np.ones(13, bool))]
    assert_eq(mt.linalg.det(t), np.linalg.det(GENERAL), rtol=1e-9)
    assert_eq(mt.linalg.slogdet(t)[1], np.linalg.slogdet(GENERAL)[1], rtol=1e-9)
    assert_eq(mt.linalg.matrix_power(t, 3), np.linalg.matrix_power(GENERAL, 3), rtol=1e-9)
    assert_eq(mt.linalg.matrix_power(t, 0), np.linalg.matrix_power(GENERAL, 0))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        _v(mt.linalg.det(mt.tensor(TALL, chunk_size=4)[mt.tensor(np.ones(13, bool))]))


def test_det_of_stacked_empty_nan_and_bad_input():
    stack = RS.rand(2, 3, 5, 5)
    assert_eq(mt.linalg.det(mt.tensor(stack, chunk_size=2)), np.linalg.det(stack))
    assert_eq(mt.linalg.slogdet(mt.tensor(stack, chunk_size=2))[1], np.linalg.slogdet(stack)[1])
    for empty in (np.ones((0, 0)), np.ones((2, 0, 0)), np.ones((0, 3, 3))):
        assert_eq(mt.linalg.det(empty), np.linalg.det(empty))
        assert_eq(mt.linalg.slogdet(empty)[0], np.linalg.slogdet(empty)[0])
        assert_eq(mt.linalg.inv(empty), np.linalg.inv(empty))
    nan = GENERAL.copy()
    nan[5, 5] = np.nan
    with np.errstate(invalid="ignore"):
        assert_eq(mt.linalg.det(mt.tensor(nan, chunk_size=4)), np.linalg.det(nan))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        mt.linalg.det(TALL)
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        mt.linalg.slogdet(np.ones(3))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 6, -1, -3])
def test_matrix_power_is_numpys(n):
    assert_eq(mt.linalg.matrix_power(mt.tensor(SPD / 13, chunk_size=4), n), np.linalg.matrix_power(SPD / 13, n),
              rtol=1e-8)
    ints = (GENERAL[:5, :5] * 4).astype(int)
    if n >= 0:
        assert_eq(mt.linalg.matrix_power(mt.tensor(ints, chunk_size=2), n), np.linalg.matrix_power(ints, n))
    stack = RS.rand(2, 3, 3) + 3 * np.eye(3)
    assert_eq(mt.linalg.matrix_power(mt.tensor(stack, chunk_size=2), n), np.linalg.matrix_power(stack, n),
              rtol=1e-8)


def test_matrix_power_errors_are_numpys():
    with pytest.raises(TypeError, match="exponent must be an integer"):
        mt.linalg.matrix_power(SPD, 1.5)
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        mt.linalg.matrix_power(TALL, 2)
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        mt.linalg.matrix_power(np.ones(3), 2)
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        _v(mt.linalg.matrix_power(mt.tensor(np.ones((4, 4)), chunk_size=3), -1))


@pytest.mark.parametrize("a,chunks", [(RS.rand(23, 5), (7, 5)), (RS.rand(23, 5), (7, 2)), (RS.rand(5, 23), (5, 7)),
                                      (RS.rand(9, 9), 4), (RS.rand(23, 5).astype("f4"), 6)])
def test_lstsq_is_numpys(a, chunks):
    tol = 1e-4 if a.dtype == np.float32 else 1e-9
    for b in (RS.rand(a.shape[0]), RS.rand(a.shape[0], 3)):
        got = mt.linalg.lstsq(mt.tensor(a, chunk_size=chunks), mt.tensor(b, chunk_size=4))
        want = np.linalg.lstsq(a, b)
        for g, w in zip(got, want):
            assert_eq(g, w, rtol=tol, atol=tol)


def test_lstsq_rank_deficient_has_no_residuals_and_numpys_minimum_norm_solution():
    a = RS.rand(23, 5)
    a[:, 4] = a[:, 0] + a[:, 1]
    b = RS.rand(23, 2)
    got, want = mt.linalg.lstsq(mt.tensor(a, chunk_size=(7, 5)), b), np.linalg.lstsq(a, b)
    assert int(_v(got[2])) == want[2] == 4
    assert _v(got[1]).shape == (0,)
    assert_eq(got[0], want[0], rtol=1e-8)
    assert_eq(got[3], want[3], rtol=1e-8, atol=1e-12)
    x, _, rank, _ = mt.linalg.lstsq(mt.tensor(a, chunk_size=(7, 5)), b, rcond=0.5)
    ex, _, erank, _ = np.linalg.lstsq(a, b, rcond=0.5)
    assert int(_v(rank)) == erank
    assert_eq(x, ex, rtol=1e-8)


def test_lstsq_and_pinv_of_complex_matrices_and_unknown_lengths():
    a = RS.rand(23, 5) + 1j * RS.rand(23, 5)
    b = RS.rand(23, 2) - 1j * RS.rand(23, 2)
    for g, w in zip(mt.linalg.lstsq(mt.tensor(a, chunk_size=(7, 5)), b), np.linalg.lstsq(a, b)):
        assert_eq(g, w, rtol=1e-9, atol=1e-12)
    assert_eq(mt.linalg.pinv(mt.tensor(a, chunk_size=(7, 5))), np.linalg.pinv(a), rtol=1e-9)
    assert_eq(mt.linalg.pinv(mt.tensor(a.T, chunk_size=(5, 7))), np.linalg.pinv(a.T), rtol=1e-9)
    unknown = mt.tensor(b.real, chunk_size=5)[mt.tensor(np.ones(23, bool))]
    for g, w in zip(mt.linalg.lstsq(mt.tensor(a.real, chunk_size=(7, 5)), unknown), np.linalg.lstsq(a.real, b.real)):
        assert_eq(g, w, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("a,b", [(np.ones((0, 3)), np.ones(0)), (np.ones((3, 0)), np.ones(3)),
                                 (np.ones((3, 0)), np.ones((3, 2))), (RS.rand(4, 2), np.ones((4, 0)))])
def test_lstsq_of_empty_inputs_is_numpys(a, b):
    for got, want in zip(mt.linalg.lstsq(a, b), np.linalg.lstsq(a, b)):
        assert_eq(got, want, rtol=1e-10, atol=1e-12)


def test_lstsq_errors_are_numpys():
    with pytest.raises(np.linalg.LinAlgError, match="Incompatible dimensions"):
        mt.linalg.lstsq(TALL, np.ones(12))
    with pytest.raises(np.linalg.LinAlgError, match="1-dimensional array given"):
        mt.linalg.lstsq(np.ones(3), np.ones(3))


@pytest.mark.parametrize("a,chunks", [(TALL, (4, 7)), (WIDE, (7, 4)), (GENERAL, 4), (TALL.astype("f4"), 5)])
def test_pinv_and_matrix_rank_are_numpys(a, chunks):
    tol = 1e-4 if a.dtype == np.float32 else 1e-9
    t = mt.tensor(a, chunk_size=chunks)
    assert_eq(mt.linalg.pinv(t), np.linalg.pinv(a), rtol=tol, atol=tol)
    assert_eq(mt.linalg.matrix_rank(t), np.asarray(np.linalg.matrix_rank(a)))
    deficient = np.concatenate([a, a[:, :1] * 2], axis=1)
    assert_eq(mt.linalg.matrix_rank(mt.tensor(deficient, chunk_size=chunks)),
              np.asarray(np.linalg.matrix_rank(deficient)))
    assert_eq(mt.linalg.pinv(mt.tensor(deficient, chunk_size=chunks)), np.linalg.pinv(deficient), rtol=1e-4,
              atol=tol)


def test_matrix_rank_of_vectors_and_stacks():
    assert_eq(mt.linalg.matrix_rank(np.zeros(4)), np.asarray(np.linalg.matrix_rank(np.zeros(4))))
    assert_eq(mt.linalg.matrix_rank(np.arange(4)), np.asarray(np.linalg.matrix_rank(np.arange(4))))
    stack = RS.rand(3, 4, 4)
    stack[1, :, 0] = stack[1, :, 1]
    assert_eq(mt.linalg.matrix_rank(mt.tensor(stack, chunk_size=2)), np.linalg.matrix_rank(stack))
    assert_eq(mt.linalg.pinv(mt.tensor(stack, chunk_size=2)), np.linalg.pinv(stack))


@pytest.mark.parametrize("p", [None, 2, -2, 1, -1, np.inf, -np.inf, "fro", "nuc"])
def test_cond_is_numpys(p):
    assert_eq(mt.linalg.cond(mt.tensor(GENERAL, chunk_size=4), p), np.linalg.cond(GENERAL, p), rtol=1e-8)
    singular = np.diag([1.0, 2, 0, 3])
    if p == "nuc":  # NumPy's SVD of inv's NaNs raises, and so does ours
        with pytest.raises(np.linalg.LinAlgError):
            np.linalg.cond(singular, p)
        with pytest.raises(np.linalg.LinAlgError):
            _v(mt.linalg.cond(mt.tensor(singular, chunk_size=3), p))
    else:
        assert_eq(mt.linalg.cond(mt.tensor(singular, chunk_size=3), p), np.linalg.cond(singular, p))
    if p not in (None, 2, -2, "nuc"):  # NumPy's SVD of a NaN matrix raises
        nan = singular.copy()
        nan[0, 1] = np.nan
        assert_eq(mt.linalg.cond(mt.tensor(nan, chunk_size=3), p), np.linalg.cond(nan, p))
    assert_eq(mt.linalg.cond(mt.tensor(GENERAL.astype("f4"), chunk_size=5), p),
              np.linalg.cond(GENERAL.astype("f4"), p), rtol=1e-3)


def test_cond_errors_and_stacks():
    with pytest.raises(np.linalg.LinAlgError, match="cond is not defined on empty arrays"):
        mt.linalg.cond(np.ones((0, 0)))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        mt.linalg.cond(TALL, 1)
    assert_eq(mt.linalg.cond(mt.tensor(TALL, chunk_size=4)), np.linalg.cond(TALL), rtol=1e-9)
    stack = RS.rand(3, 4, 4)
    assert_eq(mt.linalg.cond(mt.tensor(stack, chunk_size=2), "fro"), np.linalg.cond(stack, "fro"))


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_and_eigvalsh_are_numpys(uplo):
    a = GENERAL + GENERAL.T
    w, v = mt.linalg.eigh(mt.tensor(a, chunk_size=4), UPLO=uplo)
    ew, ev = np.linalg.eigh(a, UPLO=uplo)
    assert_eq(w, ew)
    assert_eq(v, ev)
    assert_eq(mt.linalg.eigvalsh(mt.tensor(np.triu(a), chunk_size=4), UPLO=uplo), np.linalg.eigvalsh(np.triu(a), uplo))
    stack = RS.rand(3, 4, 4)
    assert_eq(mt.linalg.eigvalsh(mt.tensor(stack, chunk_size=2)), np.linalg.eigvalsh(stack))
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        mt.linalg.eigh(TALL)
    with pytest.raises(ValueError, match="UPLO"):
        mt.linalg.eigvalsh(a, UPLO="X")


def test_array_api_names_are_numpys():
    stack = RS.rand(2, 5, 3)
    t = mt.tensor(stack, chunk_size=2)
    assert_eq(mt.linalg.matrix_transpose(t), np.linalg.matrix_transpose(stack))
    assert_eq(mt.linalg.svdvals(mt.tensor(TALL, chunk_size=4)), np.linalg.svdvals(TALL))
    assert_eq(mt.linalg.svdvals(t), np.linalg.svdvals(stack))
    for ord in ("fro", "nuc", 1, np.inf, 2):
        assert_eq(mt.linalg.matrix_norm(t, ord=ord), np.linalg.matrix_norm(stack, ord=ord), rtol=1e-10)
    assert_eq(mt.linalg.matrix_norm(t, keepdims=True), np.linalg.matrix_norm(stack, keepdims=True))
    for axis in (None, 1, (0, 2), (-1, 0)):
        for ord in (2, 1, np.inf, 0, 3):
            for keepdims in (False, True):
                assert_eq(mt.linalg.vector_norm(t, axis=axis, ord=ord, keepdims=keepdims),
                          np.linalg.vector_norm(stack, axis=axis, ord=ord, keepdims=keepdims), rtol=1e-10)
    with pytest.raises(ValueError):
        mt.linalg.matrix_transpose(np.ones(3))


def test_multi_dot_is_numpys_in_the_cheapest_order():
    a, b, c, d = RS.rand(10, 3), RS.rand(3, 12), RS.rand(12, 2), RS.rand(2, 7)
    ts = [mt.tensor(x, chunk_size=4) for x in (a, b, c, d)]
    assert_eq(mt.linalg.multi_dot(ts), np.linalg.multi_dot([a, b, c, d]), rtol=1e-12)
    v, w = RS.rand(10), RS.rand(7)
    assert_eq(mt.linalg.multi_dot([v, *ts, w]), np.linalg.multi_dot([v, a, b, c, d, w]), rtol=1e-12)
    assert_eq(mt.linalg.multi_dot([v, *ts]), np.linalg.multi_dot([v, a, b, c, d]), rtol=1e-12)
    assert_eq(mt.linalg.multi_dot(ts[:2]), np.linalg.multi_dot([a, b]))
    with pytest.raises(ValueError, match="at least two"):
        mt.linalg.multi_dot([a])


def test_tensorsolve_and_tensorinv_are_numpys():
    a = RS.rand(6, 4, 2, 3, 4) + np.eye(24).reshape(6, 4, 2, 3, 4) * 5
    b = RS.rand(6, 4)
    assert_eq(mt.linalg.tensorsolve(mt.tensor(a, chunk_size=3), b), np.linalg.tensorsolve(a, b), rtol=1e-9)
    moved = np.moveaxis(a, 2, 0)
    assert_eq(mt.linalg.tensorsolve(mt.tensor(moved, chunk_size=3), b, axes=(0,)),
              np.linalg.tensorsolve(moved, b, axes=(0,)), rtol=1e-9)
    inv_in = RS.rand(24, 8, 3) + np.eye(24).reshape(24, 8, 3) * 5
    assert_eq(mt.linalg.tensorinv(mt.tensor(inv_in, chunk_size=5), ind=1), np.linalg.tensorinv(inv_in, ind=1),
              rtol=1e-9)
    with pytest.raises(np.linalg.LinAlgError, match="prod"):
        mt.linalg.tensorsolve(np.ones((2, 3, 4)), np.ones(2))
    with pytest.raises(ValueError, match="Invalid ind"):
        mt.linalg.tensorinv(inv_in, ind=0)

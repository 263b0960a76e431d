"""Tensor breadth on Ray: SciPy kernels resolved by name in the workers, joins and splits."""
import numpy as np
import pytest
import scipy.special as ss

import mars_on_ray.tensor as mt


def test_special_functions_on_ray(session):
    x = np.linspace(0.1, 3.0, 23)
    t = mt.tensor(x, chunk_size=6)
    np.testing.assert_allclose(mt.special.jv(1, t).execute().fetch(), ss.jv(1, x))
    ai, aip, bi, bip = mt.special.airy(t)
    np.testing.assert_allclose(bi.execute().fetch(), ss.airy(x)[2])
    np.testing.assert_allclose((mt.special.erf(t) + mt.special.gammaln(t)).execute().fetch(),
                               ss.erf(x) + ss.gammaln(x))


def test_concatenate_and_split_on_ray(session):
    a = np.arange(35.0).reshape(5, 7)
    t = mt.tensor(a, chunk_size=(2, 3))
    joined = mt.concatenate([t, mt.tensor(a[:2], chunk_size=1)], axis=0)
    np.testing.assert_array_equal(joined.execute().fetch(), np.concatenate([a, a[:2]]))
    parts = mt.array_split(t, 3, axis=1)
    for got, want in zip(parts, np.array_split(a, 3, axis=1)):
        np.testing.assert_array_equal(got.execute().fetch(), want)


def test_manipulation_on_ray(session):
    a = np.arange(35.0).reshape(5, 7)
    t = mt.tensor(a, chunk_size=(2, 3))
    np.testing.assert_array_equal(mt.roll(mt.flip(t, 0), 3, 1).execute().fetch(), np.roll(np.flip(a, 0), 3, 1))
    np.testing.assert_array_equal(mt.tril(t, -1).execute().fetch(), np.tril(a, -1))
    np.testing.assert_array_equal(mt.diag(t, 2).execute().fetch(), np.diag(a, 2))
    np.testing.assert_array_equal(mt.repeat(t, 2, axis=1).execute().fetch(), np.repeat(a, 2, axis=1))


def test_linalg_decompositions_on_ray(session):
    rs = np.random.RandomState(1)
    a = rs.rand(40, 6)
    q, r = mt.linalg.qr(mt.tensor(a, chunk_size=(9, 6)))
    np.testing.assert_allclose(q.execute().fetch() @ r.execute().fetch(), a, atol=1e-10)
    b = rs.rand(9, 9)
    spd = b @ b.T + 9 * np.eye(9)
    np.testing.assert_allclose(mt.linalg.cholesky(mt.tensor(spd, chunk_size=4)).execute().fetch(),
                               np.linalg.cholesky(spd))
    assert np.isclose(mt.linalg.norm(mt.tensor(a, chunk_size=7), 2).execute().fetch(), np.linalg.norm(a, 2))


def test_numeric_helpers_on_ray(session):
    rs = np.random.RandomState(2)
    a = rs.rand(4, 9)
    t = mt.tensor(a, chunk_size=3)
    np.testing.assert_allclose(mt.corrcoef(t).execute().fetch(), np.corrcoef(a))
    np.testing.assert_array_equal(mt.insert(t, [1, 3], 5.0, axis=1).execute().fetch(),
                                  np.insert(a, [1, 3], 5.0, axis=1))
    coords = mt.unravel_index(mt.tensor([3, 7, 11], chunk_size=2), (3, 4))
    np.testing.assert_array_equal(coords[1].execute().fetch(), np.unravel_index([3, 7, 11], (3, 4))[1])


def test_stats_on_ray(session):
    from scipy import stats

    rs = np.random.RandomState(3)
    a, b = rs.randn(60), rs.randn(45) + 0.3
    got = mt.stats.ttest_ind(mt.tensor(a, chunk_size=7), mt.tensor(b, chunk_size=8))
    want = stats.ttest_ind(a, b)
    assert np.isclose(got.pvalue.execute().fetch(), want.pvalue)
    ks = mt.stats.ks_2samp(mt.tensor(a, chunk_size=7), mt.tensor(b, chunk_size=8))
    assert np.isclose(ks.pvalue.execute().fetch(), stats.ks_2samp(a, b).pvalue)


def test_fancy_indexing_and_assignment_on_ray(session):
    a = np.arange(60.0).reshape(6, 10)
    t = mt.tensor(a, chunk_size=(4, 3))
    rows = mt.tensor(np.array([5, 0, -1]), chunk_size=2)  # a lazy index: fetched when tiling
    np.testing.assert_array_equal(t[rows, [[1], [9]]].execute().fetch(), a[[5, 0, -1], [[1], [9]]])
    t[[0, 3], 2:9:3] = mt.tensor(np.arange(6.0).reshape(2, 3), chunk_size=1)
    t[t > 50] = -1.0
    expected = a.copy()
    expected[[0, 3], 2:9:3] = np.arange(6.0).reshape(2, 3)
    expected[expected > 50] = -1.0
    np.testing.assert_array_equal(t.execute().fetch(), expected)


def test_two_broadcast_constants_over_a_reshaped_range_on_ray(session):
    """Fused subtasks once claimed each other's broadcast constant: a cycle of subtasks."""
    t = mt.arange(7, chunk_size=3).reshape(-1, 1) * np.array([1.0, 2.0]) + np.array([0.0, 1.0])
    expected = np.arange(7.0).reshape(-1, 1) * np.array([1.0, 2.0]) + np.array([0.0, 1.0])
    np.testing.assert_array_equal(t.execute().fetch(), expected)
    np.testing.assert_array_equal(mt.linspace([0, 1], [10, 5], 7, chunk_size=3).execute().fetch(),
                                  np.linspace([0, 1], [10, 5], 7))


def test_linear_solvers_on_ray(session):
    import scipy.linalg

    rs = np.random.RandomState(3)
    a = rs.rand(13, 13) + 13 * np.eye(13)
    b = rs.rand(13, 2)
    ta = mt.tensor(a, chunk_size=4)
    p, lower, upper = mt.linalg.lu(ta)
    sp, sl, su = scipy.linalg.lu(a)
    np.testing.assert_allclose(p.execute().fetch(), sp)
    np.testing.assert_allclose((mt.tensor(sl) @ upper).execute().fetch(), sl @ su, rtol=1e-10)
    np.testing.assert_allclose(mt.linalg.solve(ta, mt.tensor(b, chunk_size=5)).execute().fetch(),
                               np.linalg.solve(a, b), rtol=1e-10)
    np.testing.assert_allclose(mt.linalg.inv(ta).execute().fetch(), np.linalg.inv(a), rtol=1e-10)
    assert np.isclose(mt.linalg.det(ta).execute().fetch(), np.linalg.det(a))
    tall = rs.rand(40, 5)
    x, res, rank, s = mt.linalg.lstsq(mt.tensor(tall, chunk_size=(9, 5)), tall[:, 0] * 2 + 1)
    ref = np.linalg.lstsq(tall, tall[:, 0] * 2 + 1, rcond=None)
    np.testing.assert_allclose(x.execute().fetch(), ref[0], rtol=1e-8)
    assert int(rank.execute().fetch()) == ref[2]
    with pytest.raises(np.linalg.LinAlgError):
        mt.linalg.inv(mt.tensor(np.ones((6, 6)), chunk_size=4)).execute()


def test_ufunc_methods_nanquantiles_and_padding_on_ray(session):
    rs = np.random.RandomState(4)
    a = rs.rand(13, 7)
    a[2, 3] = np.nan
    t = mt.tensor(a, chunk_size=4)
    np.testing.assert_allclose(mt.add.accumulate(t, axis=0).execute().fetch(), np.add.accumulate(a, axis=0))
    np.testing.assert_allclose(mt.maximum.reduce(mt.nan_to_num(t), axis=1).execute().fetch(),
                               np.maximum.reduce(np.nan_to_num(a), axis=1))
    np.testing.assert_allclose(mt.nanmedian(t, axis=0).execute().fetch(), np.nanmedian(a, axis=0))
    np.testing.assert_allclose(mt.pad(t, ((1, 2), (3, 0)), mode="reflect").execute().fetch(),
                               np.pad(a, ((1, 2), (3, 0)), mode="reflect"))
    x = np.nan_to_num(a[:, 0])
    np.testing.assert_allclose(mt.convolve(mt.tensor(x, chunk_size=4), [1.0, 2.0, 0.5]).execute().fetch(),
                               np.convolve(x, [1.0, 2.0, 0.5]))
    np.testing.assert_array_equal(mt.lexsort((t[:, 1], mt.tensor(a[:, 0] > 0.5))).execute().fetch(),
                                  np.lexsort((a[:, 1], a[:, 0] > 0.5)))
    np.testing.assert_allclose(mt.sum(t, where=~mt.isnan(t), axis=0).execute().fetch(),
                               np.sum(a, where=~np.isnan(a), axis=0))

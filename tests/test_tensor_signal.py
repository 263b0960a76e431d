"""convolve / correlate across chunk boundaries vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(4)
SIZES = [(13, 4), (13, 1), (4, 13), (13, 13), (13, 12), (12, 13), (5, 6), (1, 1), (2, 7)]


@pytest.mark.parametrize("n,m", SIZES)
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("name", ["convolve", "correlate"])
def test_convolve_correlate_like_numpy(n, m, mode, name):
    a, v = RS.rand(n), RS.rand(m)
    ai, vi = RS.randint(-5, 5, n), RS.randint(-3, 3, m).astype(np.int8)
    vc = RS.rand(m) + 1j * RS.rand(m)
    for x, y in ((a, v), (ai, v), (ai, vi), (a, vc), (vc, a[:m] if m <= n else RS.rand(n))):
        assert_eq(getattr(mt, name)(mt.tensor(x, chunk_size=4), mt.tensor(y, chunk_size=3), mode),
                  getattr(np, name)(x, y, mode))


def test_convolve_reads_only_neighbouring_chunks():
    a, v = RS.rand(40), RS.rand(3)
    a[17] = np.nan  # NaN spreads to the m outputs that read it, as in NumPy
    t = mt.convolve(mt.tensor(a, chunk_size=8), v)
    assert_eq(t, np.convolve(a, v))
    tiled = LocalExecutor().tile(t.data)
    # a result block reads its own chunk, the one before it (the m - 1 halo) and the kernel
    assert max(len(c.inputs) for c in tiled.flat) <= 3
    assert len(tiled.flat) == 6  # five blocks of a and the tail of m - 1 outputs


def test_convolve_unknown_length_and_errors():
    a = RS.rand(13)
    t = mt.tensor(a, chunk_size=4)
    assert_eq(mt.convolve(t[t > 0.3], [1.0, -1.0]), np.convolve(a[a > 0.3], [1.0, -1.0]))
    with pytest.raises(ValueError):
        mt.convolve(t, [])
    with pytest.raises(ValueError):
        mt.convolve(mt.tensor(np.zeros(0)), [1.0])
    with pytest.raises(ValueError):
        mt.convolve(t, np.ones((2, 2)))
    with pytest.raises(ValueError):
        mt.correlate(t, [1.0], mode="bogus")

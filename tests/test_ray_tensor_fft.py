"""mt.fft and mt.random distributions on Ray: NumPy's values; Ray draws what the local executor draws."""
from __future__ import annotations

import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq

pytestmark = pytest.mark.usefixtures("session")


def test_fft_on_ray():
    x = np.random.default_rng(0).standard_normal((13, 10))
    t = mt.tensor(x, chunk_size=(4, 3))
    assert_eq(mt.fft.rfft2(t, s=(9, 12)), np.fft.rfft2(x, s=(9, 12)), rtol=1e-10, atol=1e-10)
    assert_eq(mt.fft.fftshift(mt.fft.fft(t, axis=0), axes=0), np.fft.fftshift(np.fft.fft(x, axis=0), axes=0),
              rtol=1e-10, atol=1e-10)
    assert_eq(mt.fft.fftfreq(11, 0.5, chunk_size=4), np.fft.fftfreq(11, 0.5))


def test_random_distributions_on_ray_match_local():
    for t in [mt.random.gamma([1.0, 5.0], 2.0, size=(9, 2), chunk_size=(4, 1), seed=3),
              mt.random.multinomial(10, [0.5, 0.5], size=7, chunk_size=3, seed=3),
              mt.random.choice(20, size=9, replace=False, chunk_size=4, seed=3),
              mt.random.poisson(mt.tensor([1.0, 50.0], chunk_size=1) * 2, size=(5, 2), chunk_size=(2, 2), seed=3)]:
        assert_eq(t, LocalExecutor().compute(t.data)[0])

"""``mt.special`` on Ray: the SciPy kernels are resolved by name inside the workers."""
import numpy as np
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

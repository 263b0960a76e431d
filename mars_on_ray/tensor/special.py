"""``mars_on_ray.tensor.special``: SciPy's special functions, elementwise over tensors.

Each is the blockwise elementwise operand with a ``scipy.special`` kernel, so broadcasting,
chunk alignment and fusion are those of NumPy's ufuncs. Functions with several outputs
(``airy``, ``fresnel``, ...) return a tuple of tensors, as SciPy returns a tuple of arrays.
"""
from __future__ import annotations

import numpy as np

from .arithmetic import elementwise
from .core import as_tensor

#: name -> number of outputs
_FUNCTIONS = {
    **dict.fromkeys(
        "beta betainc betaincinv betaln dawsn digamma ellipe ellipeinc ellipk ellipkinc ellipkm1 "
        "elliprc elliprf elliprg elliprj entr erf erfc erfcinv erfcx erfi erfinv gamma gammainc "
        "gammaincc gammainccinv gammaincinv gammaln gammasgn hankel1 hankel1e hankel2 hankel2e iv "
        "ive jv jve kn kv kve loggamma poch psi rel_entr rgamma wofz xlogy yn yv yve polygamma "
        "ellip_harm ellip_harm_2 ellip_normal".split(), 1),
    **dict.fromkeys("airy airye itairy".split(), 4),
    **dict.fromkeys("fresnel modfresnelm modfresnelp".split(), 2),
}

__all__ = sorted(_FUNCTIONS) + ["multigammaln"]


def _sample(arg):
    """A one-element stand-in of ``arg`` away from the poles and domain edges of most functions."""
    if isinstance(arg, (int, float, complex, np.generic, bool)) or arg is None:
        return arg
    return np.full(1, 0.5, dtype=as_tensor(arg).dtype)


def _result_dtype(func, args, kwargs):
    """SciPy's output dtype for these input dtypes (float64 when the samples are outside the
    function's domain: the dtype rules of special functions do not depend on values)."""
    with np.errstate(all="ignore"):
        try:
            out = func(*map(_sample, args), **kwargs)
        except (ValueError, TypeError, ZeroDivisionError):
            return None
    first = out[0] if isinstance(out, tuple) else out
    return np.asarray(first).dtype


def _special(name: str, nout: int):
    def func(*args, **kwargs):
        import scipy.special

        kernel = getattr(scipy.special, name)
        dtype = _result_dtype(kernel, args, kwargs)
        if nout == 1:
            return elementwise(f"scipy.special:{name}", args, label=f"mt.special.{name}",
                               result_dtype=dtype, **kwargs)
        return tuple(elementwise(f"scipy.special:{name}#{k}", args, label=f"mt.special.{name}",
                                 result_dtype=dtype, **kwargs) for k in range(nout))

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"Elementwise ``scipy.special.{name}`` over tensors, arrays and scalars."
    return func


globals().update({name: _special(name, nout) for name, nout in _FUNCTIONS.items()})


def multigammaln(a, d):
    """``scipy.special.multigammaln(a, d)``: the log of the multivariate gamma function of
    dimension ``d`` (an int), elementwise over ``a``."""
    if np.floor(d) != d:  # checked by SciPy before any value is looked at
        raise ValueError("d should be a positive integer (dimension)")
    return elementwise("scipy.special:multigammaln", (a, d), label="mt.special.multigammaln",
                       result_dtype=np.result_type(as_tensor(a).dtype, np.float64))

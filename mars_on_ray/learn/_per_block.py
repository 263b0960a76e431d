"""A fitted scikit-learn object applied row block by row block (transform, predict, ...)."""
from __future__ import annotations

import numpy as np

from ._blocks import row_map
from ._convert import to_tensor


def _plain(value):
    """``value`` with estimators replaced by their content, for a deterministic token."""
    if hasattr(value, "get_params") and hasattr(value, "__dict__"):
        return (type(value).__module__, type(value).__qualname__,
                [(k, _plain(v)) for k, v in sorted(vars(value).items())])
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return [(k, _plain(v)) for k, v in value.items()]
    if isinstance(value, np.ndarray) and value.dtype.hasobject:
        return ("object-array", value.shape, [_plain(v) for v in value.ravel().tolist()])
    return value


class Est:
    """A fitted estimator as an operand parameter: its token is its content (type,
    hyper-parameters and learned attributes), the same in every process."""

    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj

    def __getstate__(self):
        return self.obj

    def __setstate__(self, obj):
        self.obj = obj

    def __mars_token__(self):
        return ("estimator", _plain(self.obj))


def _call(block, est, method, kwargs):
    return getattr(est.obj, method)(block, **kwargs)


def sample_output(est, method: str, n_features, dtype, kwargs=None):
    """What ``est.<method>`` gives for one row of zeros: (trailing shape, dtype)."""
    rows = np.zeros((1,) + tuple(n_features), dtype=dtype)
    out = np.asarray(getattr(est, method)(rows, **(kwargs or {})))
    return out.shape[1:], out.dtype


def per_block(est, method: str, X, *, rest_shape=None, dtype=None, kwargs=None, label=None):
    """Lazy ``est.<method>(X)``, computed per row block of X (rows keep their blocks)."""
    t = to_tensor(X)
    if rest_shape is None or dtype is None:
        rest_shape, dtype = sample_output(est, method, t.shape[1:], t.dtype, kwargs)
    return row_map(_call, [t], shape=(t.shape[0],) + tuple(rest_shape), dtype=dtype,
                   kwargs={"est": Est(est), "method": method, "kwargs": dict(kwargs or {})},
                   label=label or f"{type(est).__name__}.{method}")

"""DataFrame.plot / Series.plot, ``hist`` and ``boxplot``: compute, then pandas draws.

The object is computed (on ``session``, the default session, or in this process when there
is none) and pandas' own plotting runs on the result; what pandas returns (matplotlib axes,
arrays of axes) is returned. The plotting backend is looked up first, so a missing
matplotlib raises pandas' ImportError before anything is computed.
"""
from __future__ import annotations

from .core import DataFrame, Series, methods

__all__: list[str] = []

#: the kinds Mars documents; pandas decides which apply to a Series
KINDS = ("area", "bar", "barh", "box", "density", "hexbin", "hist", "kde", "line", "pie", "scatter")


def _backend(backend=None):
    """pandas' plotting backend (ImportError, pandas' message, when it is not installed)."""
    from pandas.plotting._core import _get_plot_backend

    return _get_plot_backend(backend)


def _computed(obj, session=None):
    if session is not None:
        return obj.fetch(session=session)
    from .reshape import compute_now

    return compute_now(obj)


class PlotAccessor:
    """``obj.plot(...)`` and ``obj.plot.<kind>(...)`` as in pandas, on the computed data."""

    def __init__(self, obj):
        self._obj = obj

    def __call__(self, *args, session=None, **kwargs):
        _backend(kwargs.get("backend"))
        return _computed(self._obj, session).plot(*args, **kwargs)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(KINDS))


def _kind_method(kind: str):
    def plot_kind(self, *args, session=None, **kwargs):
        _backend(kwargs.get("backend"))
        return getattr(_computed(self._obj, session).plot, kind)(*args, **kwargs)

    plot_kind.__name__ = kind
    plot_kind.__doc__ = f"``{kind}`` plot of the computed data (pandas' ``plot.{kind}``)."
    return plot_kind


for _kind in KINDS:
    setattr(PlotAccessor, _kind, _kind_method(_kind))
del _kind


@methods(DataFrame, Series, prop=True)
def plot(obj) -> PlotAccessor:
    """pandas' plotting accessor over the computed data."""
    return PlotAccessor(obj)


@methods(DataFrame, Series)
def hist(obj, *args, session=None, **kwargs):
    """Histograms of the computed data (pandas' ``hist``)."""
    _backend(kwargs.get("backend"))
    return _computed(obj, session).hist(*args, **kwargs)


@methods(DataFrame)
def boxplot(obj, *args, session=None, **kwargs):
    """Box plot of the computed columns (pandas' ``boxplot``)."""
    _backend(kwargs.get("backend"))
    return _computed(obj, session).boxplot(*args, **kwargs)


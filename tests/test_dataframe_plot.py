"""DataFrame.plot / Series.plot, hist and boxplot: the computed data goes to pandas' plotting.

A recording plotting backend (pandas' ``backend=`` hook) checks that pandas receives the whole
computed object and the arguments; with matplotlib installed, the Agg backend draws the same
as pandas; without it, pandas' ImportError is raised before anything is computed.
"""
import importlib.util
import sys
import types

import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.dataframe.plotting import KINDS

HAS_MPL = importlib.util.find_spec("matplotlib") is not None
SERIES_KINDS = [k for k in KINDS if k not in ("hexbin", "scatter")]


@pytest.fixture
def df():
    rs = np.random.RandomState(0)
    return pd.DataFrame({"a": rs.rand(41), "b": rs.randint(0, 9, 41), "c": rs.rand(41) + 1},
                        index=[f"r{i}" for i in range(41)])


@pytest.fixture
def recorder(monkeypatch):
    """A pandas plotting backend module that records what it is asked to draw."""
    calls = []
    module = types.ModuleType("mars_test_plot_backend")

    def record(name):
        def draw(data, *args, **kwargs):
            calls.append((name, data, args, kwargs))
            return f"drawn by {name}"
        return draw

    for name in ("plot", "hist_frame", "hist_series", "boxplot_frame"):
        setattr(module, name, record(name))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    from pandas.plotting import _core  # pandas caches backends by name: forget ours

    monkeypatch.delitem(_core._backends, module.__name__, raising=False)
    return module.__name__, calls


def _check_received(calls, expected, pandas_call=None):
    """One drawing of ``expected``; with ``pandas_call``, asked of the backend exactly as
    pandas asks for it on ``expected``."""
    assert len(calls) == 1
    name, data, args, kwargs = calls.pop()
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(data, expected)
    else:
        pd.testing.assert_series_equal(data, expected)
    if pandas_call is not None:
        pandas_call(expected)
        theirs = calls.pop()
        assert (name, args, kwargs) == (theirs[0], theirs[2], theirs[3])


@pytest.mark.parametrize("kind", KINDS)
def test_frame_plot_kinds_draw_the_computed_data(df, recorder, kind):
    backend, calls = recorder
    m = md.DataFrame(df, chunk_size=7)
    lazy = m[m["a"] > 0.3] * 2
    expected = df[df["a"] > 0.3] * 2
    kwargs = {"x": "a", "y": "c"} if kind in ("scatter", "hexbin") else {"y": "a"} if kind == "pie" else {}
    assert getattr(lazy.plot, kind)(backend=backend, **kwargs) == "drawn by plot"
    _check_received(calls, expected, lambda e: getattr(e.plot, kind)(backend=backend, **kwargs))
    assert lazy.plot(kind=kind, backend=backend, **kwargs) == "drawn by plot"
    _check_received(calls, expected, lambda e: e.plot(kind=kind, backend=backend, **kwargs))


@pytest.mark.parametrize("kind", SERIES_KINDS)
def test_series_plot_kinds_draw_the_computed_data(df, recorder, kind):
    backend, calls = recorder
    s = md.Series(df["a"], chunk_size=6)
    assert getattr((s + 1).plot, kind)(backend=backend, title="t") == "drawn by plot"
    _check_received(calls, df["a"] + 1, lambda e: getattr(e.plot, kind)(backend=backend, title="t"))


def test_hist_and_boxplot_draw_the_computed_data(df, recorder):
    backend, calls = recorder
    m = md.DataFrame(df, chunk_size=7)
    assert m.hist(column=["a"], bins=5, backend=backend) == "drawn by hist_frame"
    _check_received(calls, df, lambda e: e.hist(column=["a"], bins=5, backend=backend))
    assert m["b"].hist(backend=backend) == "drawn by hist_series"
    _check_received(calls, df["b"], lambda e: e.hist(backend=backend))
    assert m.boxplot(column=["a", "c"], backend=backend) == "drawn by boxplot_frame"
    _check_received(calls, df, lambda e: e.boxplot(column=["a", "c"], backend=backend))


def test_plot_accessor_lists_the_kinds(df):
    m = md.DataFrame(df)
    assert set(KINDS) <= set(dir(m.plot))
    assert set(SERIES_KINDS) <= set(dir(m["a"].plot))


@pytest.mark.skipif(HAS_MPL, reason="matplotlib is installed")
def test_missing_matplotlib_raises_pandas_import_error_before_computing(df, monkeypatch):
    m = md.DataFrame(df, chunk_size=7)
    with pytest.raises(ImportError) as expected:
        df.plot()
    import mars_on_ray.dataframe.reshape as reshape

    def fail(obj):
        raise AssertionError("computed although nothing can be drawn")

    monkeypatch.setattr(reshape, "compute_now", fail)
    for draw in (m.plot, m.plot.line, m["a"].plot.hist, m.hist, m.boxplot, m["a"].hist):
        with pytest.raises(ImportError) as got:
            draw()
        assert str(got.value) == str(expected.value)


@pytest.fixture
def agg():
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


@pytest.mark.parametrize("kind", ["line", "bar", "barh", "area", "hist", "box"])
def test_matplotlib_draws_what_pandas_draws(df, agg, kind):
    m = md.DataFrame(df, chunk_size=7)
    _, (mine, pandas_ax) = agg.subplots(1, 2)
    ours = getattr(m.plot, kind)(ax=mine)
    theirs = getattr(df.plot, kind)(ax=pandas_ax)
    assert ours is mine and theirs is pandas_ax
    assert len(ours.get_lines()) == len(theirs.get_lines())
    assert len(ours.patches) == len(theirs.patches)
    for a, b in zip(ours.get_lines(), theirs.get_lines()):
        np.testing.assert_allclose(np.asarray(a.get_ydata(), dtype=float),
                                   np.asarray(b.get_ydata(), dtype=float))
    for a, b in zip(ours.patches, theirs.patches):
        assert a.get_height() == pytest.approx(b.get_height())


def test_matplotlib_scatter_hexbin_pie_hist_boxplot(df, agg):
    m = md.DataFrame(df, chunk_size=7)
    for draw in [lambda o, ax: o.plot.scatter(x="a", y="c", ax=ax),
                 lambda o, ax: o.plot.hexbin(x="a", y="c", gridsize=5, ax=ax),
                 lambda o, ax: o["b"].plot.pie(ax=ax),
                 lambda o, ax: o["a"].hist(ax=ax, bins=6),
                 lambda o, ax: o.boxplot(column=["a"], ax=ax)]:
        _, (mine, pandas_ax) = agg.subplots(1, 2)
        ours, theirs = draw(m, mine), draw(df, pandas_ax)
        assert type(ours) is type(theirs)
        assert len(mine.get_children()) == len(pandas_ax.get_children())
    assert np.shape(m.hist(bins=4)) == np.shape(df.hist(bins=4))

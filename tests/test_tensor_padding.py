"""pad in every mode that needs only neighbouring data vs NumPy."""
import numpy as np
import pytest

import mars_on_ray.tensor as mt
from mars_on_ray.testing import assert_eq

RS = np.random.RandomState(2)
X = RS.rand(13, 7)
X[2, 3] = np.nan
XI = RS.randint(-50, 50, (13, 7))
MODES = [("constant", {}), ("constant", {"constant_values": ((1, 2), (3, 4))}), ("edge", {}),
         ("reflect", {}), ("reflect", {"reflect_type": "odd"}), ("symmetric", {}),
         ("symmetric", {"reflect_type": "odd"}), ("wrap", {}),
         ("linear_ramp", {"end_values": (5, -3)}), ("maximum", {}), ("minimum", {"stat_length": 2}),
         ("mean", {"stat_length": ((2, 20), (1, 3))}), ("median", {"stat_length": 4}), ("mean", {}),
         ("median", {})]


@pytest.mark.parametrize("mode,kw", MODES)
@pytest.mark.parametrize("width", [2, (1, 3), ((3, 0), (2, 5)), ((20, 17), (9, 15))])
@pytest.mark.parametrize("data", [X, XI])
def test_pad_like_numpy(mode, kw, width, data):
    assert_eq(mt.pad(mt.tensor(data, chunk_size=4), width, mode, **kw), np.pad(data, width, mode, **kw))


@pytest.mark.parametrize("mode,kw", MODES)
def test_pad_one_and_three_dimensional(mode, kw):
    x1 = X[:, 0]
    kw1 = {k: 7 if k == "constant_values" else v for k, v in kw.items()
           if k != "stat_length" or np.ndim(v) == 0}  # the 2-D pairs do not fit one axis
    assert_eq(mt.pad(mt.tensor(x1, chunk_size=5), (4, 11), mode, **kw1), np.pad(x1, (4, 11), mode, **kw1))
    x3 = RS.rand(4, 5, 6)
    assert_eq(mt.pad(mt.tensor(x3, chunk_size=3), {0: 2, 2: (1, 4)}, mode),
              np.pad(x3, {0: 2, 2: (1, 4)}, mode))
    one = np.array([[3.5, 1.0]])  # an axis of length 1 reflects as its edge
    assert_eq(mt.pad(mt.tensor(one), 2, mode), np.pad(one, 2, mode))


def test_pad_changes_only_the_boundary_chunks():
    t = mt.tensor(X, chunk_size=4)
    padded = mt.pad(t, ((2, 3), (0, 0)), "reflect")
    assert_eq(padded, np.pad(X, ((2, 3), (0, 0)), "reflect"))
    # each input chunk is read by one padded chunk on its own: only the pad blocks are new
    from mars_on_ray.core.local import LocalExecutor

    inner = {c.key for c in LocalExecutor().tile(t.data).flat}
    outer = LocalExecutor().tile(padded.data).flat
    direct = [c for c in outer if [i.key for i in c.inputs] in ([k] for k in inner)]
    assert len(direct) == len(inner) and len(outer) == len(inner) + 4


def test_pad_casts_values_like_numpy_and_edge_inputs():
    ti = mt.tensor(XI.astype(np.uint8), chunk_size=4)
    assert_eq(mt.pad(ti, 2, constant_values=2.7), np.pad(XI.astype(np.uint8), 2, constant_values=2.7))
    assert_eq(mt.pad(ti, 3, "linear_ramp", end_values=200), np.pad(XI.astype(np.uint8), 3, "linear_ramp", end_values=200))
    assert_eq(mt.pad(mt.tensor(np.float64(2)), 3), np.pad(np.float64(2), 3))
    empty = np.zeros((0, 3))
    assert_eq(mt.pad(mt.tensor(empty), ((2, 1), (1, 1))), np.pad(empty, ((2, 1), (1, 1))))
    assert_eq(mt.pad(mt.tensor(empty), ((0, 0), (1, 1)), "edge"), np.pad(empty, ((0, 0), (1, 1)), "edge"))
    b = X > 0.5
    assert_eq(mt.pad(mt.tensor(b, chunk_size=4), 2, "reflect", reflect_type="odd"),
              np.pad(b, 2, "reflect", reflect_type="odd"))
    # NumPy's pairs of values are int64 arrays: -1 wraps around in uint8
    assert_eq(mt.pad(ti, 1, constant_values=-1), np.pad(XI.astype(np.uint8), 1, constant_values=-1))


def test_pad_errors_like_numpy():
    t = mt.tensor(X, chunk_size=4)
    with pytest.raises(ValueError):
        mt.pad(t, -1)
    with pytest.raises(ValueError):
        mt.pad(t, 1, "bogus")
    with pytest.raises(ValueError):
        mt.pad(t, 1, "edge", constant_values=3)
    with pytest.raises(TypeError):
        mt.pad(t, 1.5)
    with pytest.raises(ValueError):
        mt.pad(t, ((1, 2, 3),))
    with pytest.raises(ValueError):
        mt.pad(mt.tensor(np.zeros((0, 3))), 1, "edge")
    with pytest.raises(ValueError):
        mt.pad(t, 1, "maximum", stat_length=0)
    with pytest.raises(NotImplementedError):
        mt.pad(t, 1, lambda *a: None)

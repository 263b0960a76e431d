"""merge, label alignment and concat on a real local Ray."""
import numpy as np
import pandas as pd

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.dataframe.positional import PANDAS3
from mars_on_ray.testing import assert_eq


def _frames():
    rs = np.random.RandomState(7)
    left = pd.DataFrame({"k": rs.randint(0, 50, 400), "k2": rs.choice(list("ab"), 400), "a": rs.rand(400)})
    right = pd.DataFrame({"k": rs.randint(20, 80, 150), "k2": rs.choice(list("abc"), 150),
                          "b": rs.randint(0, 9, 150)})
    return left, right


def test_merge_strategies_on_ray(session):
    left, right = _frames()
    ml, mr = md.DataFrame(left, chunk_size=90), md.DataFrame(right, chunk_size=40)
    old = options.merge_broadcast_bytes
    try:
        for threshold in (0, 10**12):  # hash shuffle, then broadcast of the small side
            options.merge_broadcast_bytes = threshold
            for how in ("inner", "left", "right"):
                assert_eq(ml.merge(mr, on=["k", "k2"], how=how), left.merge(right, on=["k", "k2"], how=how))
    finally:
        options.merge_broadcast_bytes = old
    assert_eq(ml.merge(mr, on="k", how="outer"), left.merge(right, on="k", how="outer"))
    assert_eq(ml.merge(mr, on="k", sort=True), left.merge(right, on="k", sort=True))
    if PANDAS3:  # anti joins are new in pandas 3
        assert_eq(ml.merge(mr, on="k", how="left_anti"), left.merge(right, on="k", how="left_anti"))
    lk, rk = left.set_index("k"), right.set_index("k")[["b"]]
    assert_eq(md.DataFrame(lk, chunk_size=70).join(md.DataFrame(rk, chunk_size=30), how="inner"),
              lk.join(rk, how="inner"))
    filtered = ml[ml["a"] > 0.5]
    assert_eq(filtered.merge(mr, on="k").groupby("k2_x")["b"].sum(),
              left[left["a"] > 0.5].merge(right, on="k").groupby("k2_x")["b"].sum())


def test_alignment_and_concat_on_ray(session):
    left, right = _frames()
    a = left.set_index("k")["a"].groupby(level=0).sum()
    b = right.set_index("k")["b"].groupby(level=0).max()
    ma, mb = md.Series(a, chunk_size=12), md.Series(b, chunk_size=9)
    assert_eq(ma + mb, a + b)
    assert_eq(ma.sub(mb, fill_value=0), a.sub(b, fill_value=0))
    x, y = ma.align(mb, join="left")
    ex, ey = a.align(b, join="left")
    assert_eq(x, ex)
    assert_eq(y, ey)
    assert_eq(ma.reindex([3, 99, 25, 0]), a.reindex([3, 99, 25, 0]))
    assert_eq(ma.reindex([3, 99, 25, -4], method="nearest"), a.reindex([3, 99, 25, -4], method="nearest"))
    assert_eq(ma.reindex([-4, 3, 25, 99], method="ffill", limit=1), a.reindex([-4, 3, 25, 99], method="ffill", limit=1))
    ml, mr = md.DataFrame(left, chunk_size=90), md.DataFrame(right, chunk_size=40)
    assert_eq(md.concat([ml, mr], ignore_index=True), pd.concat([left, right], ignore_index=True))
    assert_eq(md.concat([ml, ml["a"] * 2], axis=1), pd.concat([left, left["a"] * 2], axis=1))
    mlk, mrk = md.DataFrame(left, chunk_size=90), md.DataFrame(right, chunk_size=40)
    got = md.concat([mlk.groupby("k")["a"].sum(), mrk.groupby("k")["b"].max()], axis=1, sort=True)
    assert_eq(got, pd.concat([left.groupby("k")["a"].sum(), right.groupby("k")["b"].max()], axis=1, sort=True))

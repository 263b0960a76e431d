"""Lazy scalars (``s.mean()``, ``df["a"].max()``: 0-d tensors) as operands, fill values,
``where`` / ``replace`` values and set values, against pandas with the scalar computed.

Regression: ``s - s.mean()`` and ``s > s.min()`` raised pandas' "Unable to coerce to Series"
(the 0-d tensor was lined up by position like an array), ``s.where(c, s.max())`` and
``df["c"] = s.mean()`` raised "only 1-d and 2-d tensors can be set as columns"."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.dataframe.align import index_relation
from learn_support import local_session  # noqa: F401  (fixture)
from mars_on_ray.testing import assert_eq

FRAME = pd.DataFrame({"v": np.arange(23.0), "w": np.r_[np.nan, np.arange(22.0)] * 1.5,
                      "i": np.arange(23) % 5},
                     index=[f"r{i % 19:02d}" for i in range(23)])  # repeated labels

CASES = {
    "sub mean": lambda d: d["v"] - d["v"].mean(),
    "compare min": lambda d: d["v"] > d["v"].min(),
    "standardize": lambda d: (d["v"] - d["v"].mean()) / d["v"].std(),
    "scalar first": lambda d: d["v"].max() - d["v"],
    "rsub method": lambda d: d["v"].rsub(d["w"].min()),
    "frame by scalar": lambda d: d[["v", "w"]] / d["v"].sum(),
    "int column": lambda d: d["i"] * d["i"].max(),
    "filter by mean": lambda d: d[d["v"] > d["v"].mean()],
    "fillna mean": lambda d: d["w"].fillna(d["w"].mean()),
    "where max": lambda d: d["v"].where(d["v"] > 3, d["v"].max()),
    "mask min": lambda d: d["v"].mask(d["v"] > 3, d["w"].min()),
    "replace by max": lambda d: d["v"].replace(0.0, d["v"].max()),
    "replace the max": lambda d: d["i"].replace(d["i"].max(), -1),
    "between": lambda d: d["v"].between(d["v"].min(), d["v"].mean()),
    "assign": lambda d: d.assign(z=d["v"] - d["v"].mean()),
}


@pytest.mark.parametrize("case", list(CASES), ids=str)
@pytest.mark.parametrize("filtered", [False, True], ids=["known", "unknown extents"])
def test_lazy_scalars_broadcast_like_pandas_scalars(case, filtered):
    frame = FRAME[FRAME["i"] != 2] if filtered else FRAME
    m = md.DataFrame(FRAME, chunk_size=5)
    m = m[m["i"] != 2] if filtered else m
    assert_eq(CASES[case](m), CASES[case](frame))


def test_setting_lazy_scalars():
    m, p = md.DataFrame(FRAME, chunk_size=5), FRAME.copy()
    for obj in (m, p):
        obj["z"] = obj["v"].mean()
        obj.loc[obj["v"] > 5, "w"] = obj["w"].max()
    assert_eq(m, p)


def test_a_scalar_broadcast_keeps_the_rows():
    """``s - s.mean()`` has ``s``'s rows: binary operations with it stay block by block."""
    m = md.DataFrame(FRAME, chunk_size=5)
    centred = m["v"] - m["v"].mean()
    assert index_relation(m["v"], centred) == "same"
    assert_eq(m["v"] + centred, FRAME["v"] + (FRAME["v"] - FRAME["v"].mean()))


def test_len_of_an_object_of_unknown_length_computes_it(local_session):
    """pandas users write ``len(df[mask])`` and expect a number: the length is computed (it
    was a ValueError "the length is unknown until the object is executed")."""
    import mars_on_ray.tensor as mt

    m = md.DataFrame(FRAME, chunk_size=5)
    kept = m[m["i"] > 1]
    assert len(kept) == int((FRAME["i"] > 1).sum())
    assert kept.shape[0] == len(kept)  # the shape is filled in too
    assert len(m["i"].unique()) == FRAME["i"].nunique()
    assert len(mt.flatnonzero(mt.tensor(FRAME["v"].to_numpy(), chunk_size=4) > 10)) == 12

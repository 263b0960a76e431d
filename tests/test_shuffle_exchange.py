"""Shuffles past ``options.shuffle_direct_pieces`` exchange pieces in two rounds
(core/exchange.py): the same answers as pandas with far fewer pieces than mappers x reducers."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.core.exchange import Packed, Regroup
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.testing import assert_eq


def _pieces(obj) -> tuple[int, int]:
    """(pieces leaving mappers, Regroup outputs) in ``obj``'s tiled graph."""
    tiled = LocalExecutor().tile(obj.data)
    seen, stack, packed, regrouped = set(), list(tiled.flat), 0, 0
    while stack:
        c = stack.pop()
        packed += isinstance(c.op, Packed)
        regrouped += isinstance(c.op, Regroup)
        for i in c.inputs:
            if i.key not in seen:
                seen.add(i.key)
                stack.append(i)
    return packed, regrouped


@pytest.fixture
def frames():
    rng = np.random.default_rng(5)
    n = 3001
    left = pd.DataFrame({"k": rng.integers(0, 700, n), "g": rng.integers(0, 2000, n).astype(float),
                         "v": rng.random(n), "s": rng.choice(["x", "y", "z"], n)})
    left.loc[rng.random(n) < 0.03, "g"] = np.nan
    right = pd.DataFrame({"k": rng.permutation(900), "w": rng.random(900)})
    return left, right


@pytest.fixture(params=["direct", "two_rounds"])
def rounds(request, monkeypatch):
    monkeypatch.setattr(options, "shuffle_direct_pieces", 0 if request.param == "two_rounds" else 10**9)
    return request.param


def test_sort_groupby_and_merge_give_pandas_answers_in_both_exchanges(frames, rounds):
    left, right = frames
    ml, mr = md.DataFrame(left, chunk_size=97), md.DataFrame(right, chunk_size=41)
    assert_eq(ml.sort_values(["g", "v"], na_position="first"),
              left.sort_values(["g", "v"], na_position="first"))
    assert_eq(ml.sort_values("k", ignore_index=True, kind="stable"),
              left.sort_values("k", ignore_index=True, kind="stable"))
    spec = {"v": ["sum", "mean"], "k": "max"}
    assert_eq(ml.groupby("g").agg(spec), left.groupby("g").agg(spec))
    assert_eq(ml.groupby("g", sort=False)["v"].sum(), left.groupby("g", sort=False)["v"].sum())
    assert_eq(ml.groupby("k")["v"].cumsum(), left.groupby("k")["v"].cumsum())
    old = options.merge_broadcast_bytes
    options.merge_broadcast_bytes = 0  # hash shuffle of both sides
    try:
        for how in ("inner", "left", "right", "outer"):
            assert_eq(ml.merge(mr, on="k", how=how), left.merge(right, on="k", how=how))
    finally:
        options.merge_broadcast_bytes = old
    packed, regrouped = _pieces(ml.sort_values("k"))
    assert (packed > 0) == (rounds == "two_rounds")


def test_two_rounds_make_far_fewer_pieces_than_mappers_times_reducers(frames, monkeypatch):
    left, _ = frames
    monkeypatch.setattr(options, "shuffle_direct_pieces", 0)
    ml = md.DataFrame(left, chunk_size=31)  # 97 chunks: 9409 pieces directly
    n = 97
    packed, regrouped = _pieces(ml.sort_values("v"))
    group = blocks = 10  # ceil(sqrt(97)) reducers a group, mappers a block
    assert packed == n * -(-n // group)  # each mapper: one object per group of reducers
    assert regrouped == blocks * n  # each reducer: one input per block of mappers
    assert packed + regrouped < n * n / 4


def test_key_statistics_row_groupby_and_pivot_shuffles_in_both_exchanges(frames, rounds, monkeypatch):
    # unique / duplicates / value_counts, groupby transform-like methods and pivot_table
    # exchanged m x n pieces directly whatever their number
    left, _ = frames
    monkeypatch.setattr(options, "groupby_tree_max_groups", 0)  # key statistics by shuffle
    ml = md.DataFrame(left, chunk_size=97)
    assert_eq(ml.drop_duplicates(["k", "s"], keep="last"), left.drop_duplicates(["k", "s"], keep="last"))
    assert_eq(ml.duplicated("g", keep=False), left.duplicated("g", keep=False))
    assert_eq(ml["g"].value_counts(dropna=False), left["g"].value_counts(dropna=False))
    assert_eq(ml["k"].unique(), left["k"].unique())
    assert LocalExecutor().compute(ml["g"].nunique().data)[0] == left["g"].nunique()
    assert_eq(ml.groupby("k")["v"].rank(), left.groupby("k")["v"].rank())
    assert_eq(ml.groupby(["s", "k"]).cumcount(), left.groupby(["s", "k"]).cumcount())
    assert_eq(ml.pivot_table(index="k", columns="s", values="v", aggfunc="sum"),
              left.pivot_table(index="k", columns="s", values="v", aggfunc="sum"))
    packed, _ = _pieces(ml.drop_duplicates("k"))
    assert (packed > 0) == (rounds == "two_rounds")

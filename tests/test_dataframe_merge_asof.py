"""merge_asof against pandas: 23 left rows in chunks of 5, 17 right rows in chunks of 4 (a
left chunk's matches in other chunks, a group's last row many chunks back), filters, empty
sides, unsorted keys."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.merge_asof import AsofChunk
from mars_on_ray.testing import _compute, assert_eq


@pytest.fixture
def sides():
    rs = np.random.RandomState(0)
    left = pd.DataFrame({"t": np.sort(rs.randint(0, 100, 23)), "g": rs.choice(list("ab"), 23), "x": rs.rand(23)},
                        index=[i % 5 for i in range(23)])
    right = pd.DataFrame({"t": np.sort(rs.randint(0, 100, 17)), "g": rs.choice(list("ab"), 17),
                          "y": rs.randint(0, 9, 17), "f": rs.rand(17)})
    right.loc[1, "g"] = "c"  # a group whose only row is far before most left rows
    return left, right


KWARGS = [dict(on="t"), dict(on="t", direction="forward"), dict(on="t", direction="nearest"),
          dict(on="t", by="g"), dict(on="t", by="g", direction="forward"), dict(on="t", by="g", direction="nearest"),
          dict(on="t", tolerance=3), dict(on="t", allow_exact_matches=False),
          dict(on="t", by="g", tolerance=5, direction="nearest"), dict(on="t", suffixes=("_l", "_r"))]


@pytest.mark.parametrize("kwargs", KWARGS, ids=repr)
def test_merge_asof_matches_pandas(sides, kwargs):
    left, right = sides
    L, R = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    assert_eq(md.merge_asof(L, R, **kwargs), pd.merge_asof(left, right, **kwargs))


def test_merge_asof_reads_only_the_right_chunks_a_left_chunk_can_match(sides):
    left, right = sides
    res = md.merge_asof(md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4), on="t")
    tiled = LocalExecutor().tile(res.data)
    merges, todo = [], list(tiled.flat)
    while todo:
        chunk = todo.pop()
        if isinstance(chunk.op, AsofChunk):
            merges.append(chunk)
        todo.extend(chunk.inputs)
    assert len({c.key for c in merges}) == 5
    assert max(len(c.inputs) - 1 for c in merges) < 5  # never every right chunk (5)


def test_merge_asof_of_times_with_left_on_right_on(sides):
    left, right = sides
    left = left.assign(when=pd.Timestamp("2024-01-01") + pd.to_timedelta(left["t"], unit="min"))
    right = right.rename(columns={"t": "u"}).assign(
        at=pd.Timestamp("2024-01-01") + pd.to_timedelta(right["t"], unit="min"))
    L, R = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    kw = dict(left_on="when", right_on="at", by="g", tolerance=pd.Timedelta("4min"))
    assert_eq(md.merge_asof(L, R, **kw), pd.merge_asof(left, right, **kw))


def test_merge_asof_after_a_filter_and_of_empty_sides(sides):
    left, right = sides
    L, R = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    assert_eq(md.merge_asof(L[L["x"] > 0.5], R[R["y"] > 3], on="t", by="g"),
              pd.merge_asof(left[left["x"] > 0.5], right[right["y"] > 3], on="t", by="g"))
    assert_eq(md.merge_asof(L, R[R["y"] > 100], on="t"), pd.merge_asof(left, right[right["y"] > 100], on="t"))
    assert_eq(md.merge_asof(L[L["x"] > 2], R, on="t"), pd.merge_asof(left[left["x"] > 2], right, on="t"))


def test_merge_asof_bad_input_raises_like_pandas(sides):
    left, right = sides
    L, R = md.DataFrame(left, chunk_size=5), md.DataFrame(right, chunk_size=4)
    with pytest.raises(ValueError, match="left keys must be sorted"):
        _compute(md.merge_asof(md.DataFrame(left.iloc[::-1], chunk_size=5), R, on="t"))
    with pytest.raises(ValueError, match="right keys must be sorted"):
        _compute(md.merge_asof(L, md.DataFrame(right.iloc[::-1], chunk_size=4), on="t"))
    with pytest.raises(pd.errors.MergeError):
        md.merge_asof(L, R, left_on="t")
    with pytest.raises(ValueError):
        md.merge_asof(L, R, on="t", direction="sideways")

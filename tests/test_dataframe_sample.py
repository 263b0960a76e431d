"""``sample``: pandas' exact draws cannot be reproduced chunk by chunk, so these tests check the
structure (size, rows taken whole from the data, no repeats without replacement, metadata),
reproducibility (same random_state: same rows, whatever the chunking) and the distribution."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray.dataframe as md
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.dataframe.sampling import uniforms
from mars_on_ray.testing import assert_eq


def _value(obj):
    return LocalExecutor().compute(obj.data)[0]


@pytest.fixture
def df():
    rs = np.random.RandomState(11)
    return pd.DataFrame({"a": rs.randint(0, 100, 41), "w": rs.rand(41), "s": [f"t{i}" for i in range(41)],
                         "n": np.nan}, index=[f"k{i:02d}" for i in range(41)])


def _check_rows(result, df, n, replace=False):
    """``result`` holds ``n`` whole rows of ``df`` (by label), repeats only with replacement."""
    assert len(result) == n
    pd.testing.assert_frame_equal(result, df.loc[result.index]) if isinstance(df, pd.DataFrame) else \
        pd.testing.assert_series_equal(result, df.loc[result.index])
    assert replace or result.index.is_unique


CASES = [dict(n=7), dict(frac=0.5), dict(n=41), dict(n=60, replace=True), dict(frac=2.5, replace=True),
         dict(n=9, weights="w"), dict(n=30, weights="w"), dict(n=12, weights="a"), dict(n=50, weights="w", replace=True),
         dict(n=5, ignore_index=True), dict(frac=1.0, replace=True, ignore_index=True)]


@pytest.mark.parametrize("kwargs", CASES, ids=repr)
def test_sample_is_the_same_for_every_chunking(df, kwargs):
    try:
        expected_size = len(df.sample(random_state=5, **kwargs))
    except ValueError:  # pandas 3: n * the largest normalized weight must stay <= 1
        with pytest.raises(ValueError, match="Weighted sampling cannot"):
            _value(md.DataFrame(df, chunk_size=3).sample(random_state=5, **kwargs))
        return
    results = [_value(md.DataFrame(df, chunk_size=c).sample(random_state=5, **kwargs)) for c in (3, 7, 41)]
    for r in results[1:]:
        pd.testing.assert_frame_equal(r, results[0])
    if kwargs.get("ignore_index"):
        assert results[0].index.equals(pd.RangeIndex(expected_size))
    else:
        _check_rows(results[0], df, expected_size, kwargs.get("replace", False))
    lazy = md.DataFrame(df, chunk_size=4).sample(random_state=5, **kwargs)
    assert_eq(lazy, results[0])  # declared metadata, chunk shapes and keys; the same rows again


def test_sample_reads_each_chunk_twice_and_splits_once(df):
    drawn = md.DataFrame(df, chunk_size=5).sample(n=20, random_state=1)  # 9 chunks, 4 blocks
    unfused = LocalExecutor(fusion=False)
    unfused.compute(drawn.data)
    assert unfused.subtask_count == 9 + 9 + 9 + 4  # read, histogram, split, block


def test_sample_metadata_and_series(df):
    m = md.DataFrame(df, chunk_size=6)
    result = m.sample(n=4, random_state=1)
    assert result.shape == (4, 4)
    assert list(result.dtypes) == list(df.sample(n=4).dtypes)
    s = md.Series(df["w"], chunk_size=5)
    drawn = _value(s.sample(frac=0.3, random_state=2))
    _check_rows(drawn, df["w"], round(0.3 * 41))
    pd.testing.assert_series_equal(drawn, _value(md.Series(df["w"], chunk_size=9).sample(frac=0.3, random_state=2)))
    assert_eq(m.sample(n=0, random_state=1), df.sample(n=0, random_state=1))
    assert_eq(s.sample(n=0), df["w"].sample(n=0))


def test_sample_after_a_filter_and_of_empty_frames(df):
    m = md.DataFrame(df, chunk_size=5)
    flt, expected = m[m["a"] > 30], df[df["a"] > 30]
    drawn = _value(flt.sample(n=6, random_state=3))
    _check_rows(drawn, expected, 6)
    with pytest.raises(ValueError, match="larger sample"):
        _value(flt.sample(n=len(expected) + 1))
    empty = df.iloc[:0]
    assert_eq(md.DataFrame(empty, chunk_size=2).sample(frac=0.5), empty.sample(frac=0.5))


def test_sample_random_states(df):
    m = md.DataFrame(df, chunk_size=6)
    a = _value(m.sample(n=10, random_state=np.random.RandomState(4)))
    b = _value(m.sample(n=10, random_state=np.random.RandomState(4)))
    pd.testing.assert_frame_equal(a, b)
    g1 = _value(m.sample(n=10, random_state=np.random.default_rng(8)))
    g2 = _value(m.sample(n=10, random_state=np.random.default_rng(8)))
    pd.testing.assert_frame_equal(g1, g2)
    fresh = m.sample(n=10)  # a seed drawn now: this object always gives the same rows
    pd.testing.assert_frame_equal(_value(fresh), _value(fresh))
    others = {tuple(_value(m.sample(n=10)).index) for _ in range(3)}
    assert len(others) > 1
    assert not _value(m.sample(n=10, random_state=1)).index.equals(_value(m.sample(n=10, random_state=2)).index)
    with pytest.raises(ValueError, match="random_state"):
        m.sample(n=1, random_state="seed")


def test_sample_weights_of_every_kind(df):
    m = md.DataFrame(df, chunk_size=7)
    by_column = _value(m.sample(n=8, weights="w", random_state=9))
    by_series = _value(m.sample(n=8, weights=m["w"], random_state=9))
    by_pandas = _value(m.sample(n=8, weights=df["w"], random_state=9))
    by_array = _value(md.DataFrame(df, chunk_size=3).sample(n=8, weights=df["w"].to_numpy(), random_state=9))
    for other in (by_series, by_pandas, by_array):
        pd.testing.assert_frame_equal(other, by_column)
    zero_first = df["w"].to_numpy().copy()
    zero_first[:20] = 0
    drawn = _value(m.sample(n=4, weights=zero_first, random_state=1))
    assert (drawn.index >= "k20").all()  # zero weights are never drawn
    drawn = _value(m.sample(n=100, weights=zero_first, replace=True, random_state=1))
    assert (drawn.index >= "k20").all()


def test_sample_errors_follow_pandas(df):
    m = md.DataFrame(df, chunk_size=5)
    for kwargs in (dict(n=2, frac=0.5), dict(n=-1), dict(n=1.5), dict(frac=1.5), dict(frac=-0.1),
                   dict(n=42), dict(n=1, weights="zz"), dict(n=1, weights=[1.0, 2.0]),
                   dict(n=1, axis=2)):
        with pytest.raises(Exception) as raised:
            df.sample(**kwargs)
        with pytest.raises(type(raised.value)):
            m.sample(**kwargs)
    with pytest.raises(ValueError):
        md.Series(df["w"]).sample(n=1, weights="w")
    for weights, message in ((-df["w"], "negative"), (df["w"] * np.inf, "inf"), (df["w"] * 0, "sum to zero")):
        with pytest.raises(ValueError, match=message):
            df.sample(n=1, weights=weights)
        with pytest.raises(ValueError, match=message):
            _value(m.sample(n=1, weights=weights))
    few = np.r_[np.ones(2), np.zeros(39)]  # pandas 3 refuses n * max(p) > 1, numpy fewer non-zero p
    with pytest.raises(ValueError) as raised:
        df.sample(n=3, weights=few)
    with pytest.raises(ValueError, match=str(raised.value)[:20]):
        _value(m.sample(n=3, weights=few))


def test_sample_columns(df):
    m = md.DataFrame(df, chunk_size=5)
    picked = m.sample(n=2, axis=1, random_state=3)
    assert picked.shape == (41, 2) and set(picked.columns) <= set(df.columns)
    assert_eq(picked, df[list(picked.columns)])
    assert list(m.sample(n=2, axis=1, random_state=3).columns) == list(picked.columns)


def test_random_numbers_are_uniform_and_positional():
    u = uniforms(12345, np.arange(200_000))
    assert 0 < u.min() and u.max() < 1
    counts = np.histogram(u, bins=20, range=(0, 1))[0]
    assert np.all(np.abs(counts - 10_000) < 500)  # about 5 standard deviations
    assert np.array_equal(uniforms(12345, np.arange(100, 200)), u[100:200])
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 0.01


def test_sample_frequencies(df):
    small = pd.DataFrame({"v": np.arange(6)})
    m = md.DataFrame(small, chunk_size=4)
    counts = np.zeros(6)
    for seed in range(300):
        counts[_value(m.sample(n=2, random_state=seed))["v"].to_numpy()] += 1
    assert np.all(np.abs(counts - 100) < 35)  # each row drawn in a third of the samples
    weighted = np.zeros(4)
    frame = md.DataFrame(pd.DataFrame({"v": np.arange(4), "w": [1.0, 2.0, 3.0, 4.0]}), chunk_size=3)
    for seed in range(400):
        weighted[_value(frame.sample(n=1, weights="w", random_state=seed))["v"].to_numpy()] += 1
    assert np.all(np.abs(weighted - np.array([40, 80, 120, 160])) < 35)  # proportional to weight

"""Issue 6's memory bound: with 1000x more rows than one chunk holds, no shuffle reducer gets
more than about two chunks of data for uniform keys. Peak chunk bytes are what the meta
service recorded on Ray (``peak_chunk_nbytes``, every chunk any subtask made)."""
import numpy as np
import pandas as pd
import pytest
import ray

import mars_on_ray.dataframe as md
from mars_on_ray.config import options
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.services import get_service


def _peak(session) -> int:
    return ray.get(get_service("meta").stats.remote())[session.session_id]["peak_chunk_nbytes"]


@pytest.mark.slow
def test_shuffle_reducers_of_a_thousand_chunks_hold_about_two_chunks(session, monkeypatch):
    monkeypatch.setattr(options, "chunk_store_limit", 8 * 1024)
    rng = np.random.default_rng(0)
    n = 250_000  # 32 bytes a row with its index: about 1000 chunks of 8 KiB
    pdf = pd.DataFrame({"k": rng.integers(0, 10**9, n), "v": rng.random(n), "g": rng.integers(0, 10**8, n)},
                       index=rng.permutation(n))
    m = md.DataFrame(pdf)
    m.execute()
    chunk = _peak(session)
    assert len(LocalExecutor().tile(m.data).nsplits[0]) >= 700
    assert chunk <= options.chunk_store_limit
    ordered = m.sort_values("k")
    ordered.execute()
    assert _peak(session) <= 2.2 * chunk  # uniform keys, ranges from 16 samples a chunk
    assert ordered["k"].fetch().is_monotonic_increasing
    sums = m.groupby("g")["v"].sum()  # about 250,000 groups: a range shuffle of partials
    sums.execute()
    assert _peak(session) <= 2.2 * chunk
    expected = pdf.groupby("g")["v"].sum()
    got = sums.fetch()
    assert got.index.equals(expected.index) and np.allclose(got.to_numpy(), expected.to_numpy())
    unsorted = m.groupby("g", sort=False)["v"].sum()  # hash shuffle, then first-appearance ranges
    unsorted.execute()
    assert _peak(session) <= 2.2 * chunk
    pd.testing.assert_series_equal(unsorted.fetch(), pdf.groupby("g", sort=False)["v"].sum())

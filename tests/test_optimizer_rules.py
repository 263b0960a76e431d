"""Column pruning, predicate pushdown and limit pushdown into readers, and ``mr.explain``."""
import numpy as np
import pandas as pd
import pytest

import mars_on_ray as mr
import mars_on_ray.dataframe as md
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor
from mars_on_ray.core.optimizer import optimize
from mars_on_ray.dataframe.io.csv import ReadCSV
from mars_on_ray.dataframe.io.parquet import ReadParquet
from mars_on_ray.testing import assert_eq


@pytest.fixture
def dataset(tmp_path):
    """Ten columns in row groups of 100 rows, ``c1`` increasing so statistics can exclude."""
    n = 1000
    rs = np.random.RandomState(0)
    df = pd.DataFrame({f"c{i}": rs.rand(n) for i in range(10)})
    df["c1"] = np.linspace(0, 1, n)
    df["k"] = rs.randint(0, 20, n)
    df["s"] = [f"s{i % 5}" for i in range(n)]
    path = tmp_path / "dir"
    path.mkdir()
    df.iloc[:600].to_parquet(path / "a.parquet", row_group_size=100)
    df.iloc[600:].to_parquet(path / "b.parquet", row_group_size=100)
    return df, str(path)


def _reader(obj, kind=ReadParquet):
    """The (single) reader node of ``obj``'s optimized plan."""
    (node,) = [n for n in optimize([obj.data]).order if isinstance(n.op, kind)]
    return node.op


def _row_groups_read(obj) -> int:
    tiled = LocalExecutor().tile(obj.data)
    return sum(len(c.op.row_groups) for c in topo_order(tiled.flat) if isinstance(c.op, ReadParquet))


def test_the_issue_example_reads_three_columns_and_skips_row_groups(dataset):
    df, path = dataset
    m = md.read_parquet(path, chunk_bytes=1)
    out = m[m["c1"] > 0.5].groupby("k")["c2"].sum()
    explained = mr.explain(out, show=False)
    (reader,) = explained.nodes("md.read_parquet")
    assert reader.op.columns == ["c1", "c2", "k"]
    assert reader.op.pushed_filters == [[("c1", ">", 0.5)]]
    assert "filters=[c1 > 0.5]" in str(explained) and "columns=[c1, c2, k]" in str(explained)
    assert _row_groups_read(out) == 5  # of 10: the statistics exclude c1 <= 0.5
    assert_eq(out, df[df["c1"] > 0.5].groupby("k")["c2"].sum())


def test_lazy_column_selection_prunes_like_explicit_columns(dataset):
    df, path = dataset
    explicit = md.read_parquet(path, columns=["c1", "c3", "k"])
    lazy = md.read_parquet(path)[["c1", "c3", "k"]]
    assert _reader(lazy).columns == ["c1", "c3", "k"]
    for m in (explicit, lazy):
        out = m[m.c1 < 0.2].groupby("k").sum()
        assert_eq(out, df[["c1", "c3", "k"]][df.c1 < 0.2].groupby("k").sum())


def test_pruning_passes_through_arithmetic_missing_values_head_and_groupby(dataset):
    df, path = dataset
    m = md.read_parquet(path)
    cases = [
        ((m * 2)["c4"], (df.drop(columns="s") * 2)["c4"], ["c4"]),
        ((m[["c2", "c3"]] + 1).sum(), (df[["c2", "c3"]] + 1).sum(), ["c2", "c3"]),
        (m.fillna(0)[["c5"]], df.fillna(0)[["c5"]], ["c5"]),
        (m.isna()["c6"], df.isna()["c6"], ["c6"]),
        (m.head(7)["c7"], df.head(7)["c7"], ["c7"]),
        (m.groupby("s").agg({"c8": "max"}), df.groupby("s").agg({"c8": "max"}), ["c8", "s"]),
        (m.groupby("k").size(), df.groupby("k").size(), ["k"]),
        (m.dropna(subset=["c9"])["c0"], df.dropna(subset=["c9"])["c0"], ["c0", "c9"]),
        (m.index, df.index, ["c0"]),
    ]
    for lazy, expected, columns in cases:
        assert _reader(lazy).columns == columns, lazy
        assert_eq(lazy, expected)


def test_no_pruning_where_every_column_matters(dataset):
    df, path = dataset
    m = md.read_parquet(path)
    for lazy, expected in ((m.count(), df.count()),
                           (m.dropna()["c1"], df.dropna()["c1"]),
                           (m[m.c1 > 0.9], df[df.c1 > 0.9])):
        assert _reader(lazy).columns is None
        assert_eq(lazy, expected)


def test_predicate_pushdown_forms(dataset):
    df, path = dataset
    m = md.read_parquet(path, chunk_bytes=1)
    both = m[(m.c1 >= 0.25) & (m.c1 < 0.45)]
    assert _reader(both).pushed_filters == [[("c1", ">=", 0.25), ("c1", "<", 0.45)]]
    assert _row_groups_read(both) == 3
    assert_eq(both, df[(df.c1 >= 0.25) & (df.c1 < 0.45)])
    either = m[(m.c1 < 0.05) | (m.c1 > 0.95)]
    assert _reader(either).pushed_filters == [[("c1", "<", 0.05)], [("c1", ">", 0.95)]]
    assert _row_groups_read(either) == 2
    assert_eq(either, df[(df.c1 < 0.05) | (df.c1 > 0.95)])
    # an AND keeps the side it can push; the plan's own filter still applies the rest
    partly = m[(m.c1 > 0.85) & (m.c2 > m.c3)]
    assert _reader(partly).pushed_filters == [[("c1", ">", 0.85)]]
    assert_eq(partly, df[(df.c1 > 0.85) & (df.c2 > df.c3)])
    on_strings = m[m.s == "s3"]
    assert _reader(on_strings).pushed_filters == [[("s", "==", "s3")]]
    assert_eq(on_strings, df[df.s == "s3"])


def test_predicate_not_pushed_where_rows_matter_elsewhere(dataset):
    df, path = dataset
    m = md.read_parquet(path, chunk_bytes=1)
    # != keeps missing values in pandas but drops them in a reader; ~ likewise
    for lazy, expected in ((m[m.c1 != 0.5], df[df.c1 != 0.5]), (m[~(m.c1 > 0.5)], df[~(df.c1 > 0.5)])):
        assert _reader(lazy).pushed_filters is None
        assert_eq(lazy, expected)
    # the same reader also feeds a reduction over all rows, or the user asks for it whole
    filtered, total = m[m.c1 > 0.9]["c2"].sum(), m["c2"].sum()
    for roots in ([filtered.data, total.data], [m[m.c1 > 0.9].data, m.data]):
        plan = optimize(roots)
        assert all(n.op.pushed_filters is None for n in plan.order if isinstance(n.op, ReadParquet))
    got = LocalExecutor().compute(filtered.data, total.data)
    np.testing.assert_allclose(got, [df[df.c1 > 0.9]["c2"].sum(), df["c2"].sum()])
    # a mask computed from another reader cannot skip rows of that reader alone
    other = md.read_parquet(path, columns=["c1"], chunk_bytes=1)
    crossed = m[other.c1 > 0.5]
    plan = optimize([crossed.data])
    assert all(n.op.pushed_filters is None for n in plan.order if isinstance(n.op, ReadParquet))
    assert_eq(crossed, df[df.c1 > 0.5])


def test_csv_head_reads_only_what_it_needs(tmp_path):
    df = pd.DataFrame({"a": np.arange(5000), "b": np.arange(5000) * 0.5})
    path = tmp_path / "big.csv"
    df.to_csv(path, index=False)
    m = md.read_csv(str(path), chunk_bytes=2000)
    head = m.head(10)
    assert _reader(head, ReadCSV).limit == 10
    explained = mr.explain(head, show=False)
    assert "limit=10" in str(explained)
    executor = LocalExecutor()
    assert_eq(head, df.head(10))
    executor.compute(head.data)
    assert executor.subtask_count <= 3
    assert _reader(m[["b"]], ReadCSV).columns == ["b"]
    assert_eq(m[["b"]], df[["b"]])


def test_explain_of_a_plan_without_readers_and_of_staged_tiling(dataset):
    import mars_on_ray.tensor as mt

    explained = mr.explain(mt.ones((10, 10), chunk_size=3).sum(), show=False)
    assert explained.stopped is None and explained.stages[0].subtasks
    assert "stage 1" in str(explained)
    _, path = dataset
    m = md.read_parquet(path, chunk_bytes=1)
    staged = mr.explain(m[m.c1 > 0.5].head(3), show=False)
    assert staged.stopped and "real shapes" in staged.stopped


def _frame_for_pruning():
    rng = np.random.default_rng(5)
    n = 997
    return pd.DataFrame({"k": rng.integers(0, 7, n), "a": rng.random(n), "b": rng.random(n),
                         "s": [f"t{i % 13}" for i in range(n)], "i": rng.integers(0, 9, n).astype("int32")})


def test_an_in_memory_frame_is_pruned_to_the_columns_its_consumers_use():
    pdf = _frame_for_pruning()
    df = md.DataFrame(pdf, chunk_size=211)
    kept = df[df["b"] > 0.5]
    out = kept.assign(x=kept["a"] * 2).groupby("k")["x"].sum()
    plan = optimize([out.data])
    source = [n for n in plan.order if not n.inputs]
    readers = [n for n in plan.order if source[0] in n.inputs]
    assert [list(n.meta.columns) for n in readers] == [["k", "a", "b"]]
    kept_p = pdf[pdf["b"] > 0.5]
    assert_eq(out, kept_p.assign(x=kept_p["a"] * 2).groupby("k")["x"].sum())


def test_assigning_over_a_column_of_another_dtype_after_pruning_keeps_pandas_dtypes():
    # the assignment's declared metadata holds every column; after pruning, its dtypes are
    # applied by label (they were applied by position: the wrong columns were cast)
    pdf = _frame_for_pruning()
    df = md.DataFrame(pdf, chunk_size=211)
    kept, kept_p = df[df["b"] > 0.1], pdf[pdf["b"] > 0.1]
    assert_eq(kept.assign(i=kept["a"] > 0.5)[["i", "k"]], kept_p.assign(i=kept_p["a"] > 0.5)[["i", "k"]])
    assert_eq(kept.assign(z=kept["i"] * 2)[["z", "s"]], kept_p.assign(z=kept_p["i"] * 2)[["z", "s"]])


def test_cumulative_along_rows_after_pruning_keeps_its_sampled_metadata():
    # a rebuilt node whose inputs' metadata did not change keeps its own (taken from samples:
    # inferring it again on empty frames gave object columns)
    pdf = _frame_for_pruning().assign(c=lambda f: f["a"] > 0.5)
    df = md.DataFrame(pdf, chunk_size=211)
    kept, kept_p = df[df["b"] > 0.2], pdf[pdf["b"] > 0.2]
    cols = ["a", "i", "c"]
    assert_eq(kept[cols].cumsum(axis=1), kept_p[cols].cumsum(axis=1))

"""read_sql_table / read_sql_query / read_sql / to_sql against pandas on the same databases:
a SQLite file, a throwaway PostgreSQL server (skipped without its binaries), and on Ray."""
import sqlite3

import numpy as np
import pandas as pd
import pytest
import sqlalchemy as sa

import mars_on_ray as mr
import mars_on_ray.dataframe as md
import postgres
from mars_on_ray.core.graph import topo_order
from mars_on_ray.core.local import LocalExecutor, compute_locally
from mars_on_ray.dataframe.io.sql import ReadSQL
from mars_on_ray.testing import assert_eq

N = 263  # no chunk size below divides it


def _items(n=N) -> pd.DataFrame:
    """Rows whose NULLs start after the first 100 (the sample): ints, bools and text change type."""
    k = np.arange(n)
    return pd.DataFrame({
        "id": k + 1,
        "i": np.where((k > 150) & (k % 11 == 0), np.nan, k * 3 - 40.0),
        "skew": (k * k) // 40,  # increasing and skewed: uneven value ranges
        "f": np.where(k % 7 == 0, np.nan, k / 3),
        "s": [f"s{j % 5}" for j in k],
        "late": [None if j < 120 else f"v{j}" for j in k],
        "flag": [None if j == 200 else bool(j % 2) for j in k],
        "d": pd.Timestamp("2021-01-01") + pd.to_timedelta(k * 7, unit="h"),
    })


def _create(engine):
    """``items`` with a primary key and typed columns, and ``loose``: the same rows, no key."""
    meta = sa.MetaData()
    table = sa.Table("items", meta, sa.Column("id", sa.Integer, primary_key=True), sa.Column("i", sa.BigInteger),
                     sa.Column("skew", sa.Integer), sa.Column("f", sa.Float), sa.Column("s", sa.Text),
                     sa.Column("late", sa.Text), sa.Column("flag", sa.Boolean), sa.Column("d", sa.DateTime))
    frame = _items()
    rows = frame.astype(object).where(frame.notna(), None).to_dict("records")
    for row in rows:
        row["i"] = None if row["i"] is None else int(row["i"])
        row["d"] = row["d"].to_pydatetime()
    with engine.begin() as conn:
        meta.drop_all(conn)
        meta.create_all(conn)
        conn.execute(table.insert(), rows)
        frame.drop(columns=["flag"]).to_sql("loose", conn, index=False, if_exists="replace")


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('sql') / 'test.db'}"
    engine = sa.create_engine(url)
    _create(engine)
    engine.dispose()
    return url


def _read_ops(obj) -> list:
    """The read_sql chunk operands a plan reads (after the optimizer's rules)."""
    tiled = LocalExecutor().tile(obj.data)
    return [c.op for c in topo_order(tiled.flat) if isinstance(c.op, ReadSQL)]


def _sql(op, url) -> str:
    """The SELECT a chunk operand sends."""
    return str(op.statement(op.piece, op.limit).compile(dialect=sa.engine.make_url(url).get_dialect()()))


# -- read_sql_table -------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [
    {}, {"chunk_size": 37}, {"chunk_size": 1000}, {"partition_col": "id", "num_partitions": 4},
    {"partition_col": "skew", "num_partitions": 5}, {"partition_col": "d", "num_partitions": 3},
    {"index_col": "id", "chunk_size": 50}, {"index_col": ["s", "id"], "partition_col": "id", "num_partitions": 2},
    {"columns": ["s", "f"], "chunk_size": 40}, {"columns": ["f"], "index_col": "id"},
])
def test_read_sql_table_equals_pandas(url, kwargs):
    expected = pd.read_sql_table("items", url, index_col=kwargs.get("index_col"), columns=kwargs.get("columns"))
    assert_eq(md.read_sql_table("items", url, **kwargs), expected)


def test_automatic_chunks_are_byte_bounded(url, monkeypatch):
    monkeypatch.setattr(mr.options, "chunk_store_limit", 4000)
    m = md.read_sql_table("items", url)
    assert len(_read_ops(m)) > 3
    assert_eq(m, pd.read_sql_table("items", url))
    unordered = md.read_sql_query("SELECT * FROM items", url)
    assert len(_read_ops(unordered)) == 1  # no deterministic order: one chunk
    assert_eq(unordered, pd.read_sql_query("SELECT * FROM items", url))


def test_chunks_follow_partitions_and_chunk_sizes(url):
    skewed = _read_ops(md.read_sql_table("items", url, partition_col="skew", num_partitions=5))
    assert len(skewed) == 5
    sizes = [len(op.execute()) for op in skewed]
    assert sum(sizes) == N and len(set(sizes)) > 1  # value ranges of a skewed column: uneven
    windows = _read_ops(md.read_sql_table("items", url, chunk_size=37))
    assert [op.piece for op in windows][-1] == ("rows", 259, 4)
    assert all("ORDER BY items.id" in _sql(op, url) for op in windows)
    assert len(_read_ops(md.read_sql_table("items", url))) == 1  # small: one chunk
    with pytest.warns(UserWarning, match="deterministic row order"):
        m = md.read_sql_table("loose", url, chunk_size=37)  # no primary key: no OFFSET windows
    assert len(_read_ops(m)) == 1
    assert_eq(m, pd.read_sql_table("loose", url))


def test_partition_ranges_keep_nulls_and_outliers(url):
    m = md.read_sql_table("items", url, partition_col="f", num_partitions=4, index_col="id")
    assert len(_read_ops(m)) == 4
    got = compute_locally(m)[0]
    assert got["f"].isna().sum() == 38 and got["f"].iloc[-1] == got["f"].max()  # in range order
    pd.testing.assert_frame_equal(got.sort_index(), pd.read_sql_table("items", url, index_col="id"))


def test_dtypes_follow_nulls_beyond_the_sample(url):
    m = md.read_sql_table("items", url, chunk_size=30)
    expected = pd.read_sql_table("items", url)
    assert expected.dtypes["i"] == np.float64 and expected.dtypes["flag"] == object
    assert_eq(m, expected)
    query = "SELECT id, i, late, flag FROM items ORDER BY id"
    assert_eq(md.read_sql_query(query, url, chunk_size=45), pd.read_sql_query(query, url))
    assert_eq(md.read_sql_table("items", url, dtype_backend="numpy_nullable", chunk_size=70),
              pd.read_sql_table("items", url, dtype_backend="numpy_nullable"))


def test_parse_dates_and_dtype(url):
    assert_eq(md.read_sql_table("loose", url, parse_dates=["d"]), pd.read_sql_table("loose", url, parse_dates=["d"]))
    query = "SELECT id, d, skew FROM loose ORDER BY id"
    for kwargs in ({"parse_dates": ["d"]}, {"parse_dates": {"d": {"format": "%Y-%m-%d %H:%M:%S.%f"}}},
                   {"dtype": {"skew": "float32"}}, {"dtype": {"id": "Int64"}, "parse_dates": ["d"]}):
        assert_eq(md.read_sql_query(query, url, chunk_size=60, **kwargs), pd.read_sql_query(query, url, **kwargs))


# -- read_sql_query / read_sql --------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [
    {}, {"chunk_size": 41}, {"index_col": "id", "chunk_size": 41},
    {"partition_col": "id", "num_partitions": 3}, {"partition_col": "d", "num_partitions": 4},
])
def test_read_sql_query_equals_pandas(url, kwargs):
    query = "SELECT id, s, f, i, d FROM items WHERE id > 5 ORDER BY id"
    expected = pd.read_sql_query(query, url, index_col=kwargs.get("index_col"))
    assert_eq(md.read_sql_query(query, url, **kwargs), expected)


def test_query_params_percent_signs_and_unordered_queries(url):
    query = "SELECT id, s FROM items WHERE s LIKE 's1%' AND id > ? ORDER BY id"
    assert_eq(md.read_sql_query(query, url, params=(20,), chunk_size=9),
              pd.read_sql_query(query, url, params=(20,)))
    named = "SELECT id, s FROM items WHERE id > :low ORDER BY id"  # the driver's other style
    assert_eq(md.read_sql_query(named, url, params={"low": 200}, chunk_size=9),
              pd.read_sql_query(named, url, params={"low": 200}))
    query = "SELECT s, count(*) AS n FROM items WHERE s LIKE '%1' GROUP BY s"
    assert_eq(md.read_sql_query(query, url), pd.read_sql_query(query, url))
    unordered = "SELECT * FROM items WHERE id IN (SELECT id FROM items ORDER BY id DESC)"
    with pytest.warns(UserWarning):
        m = md.read_sql_query(unordered, url, chunk_size=10)
    assert len(_read_ops(m)) == 1
    assert_eq(m, pd.read_sql_query(unordered, url))
    statement = sa.text("SELECT id, s FROM items WHERE id < :top ORDER BY id")
    assert_eq(md.read_sql_query(statement, url, params={"top": 90}, chunk_size=20),
              pd.read_sql_query(statement, url, params={"top": 90}))


def test_read_sql_dispatches_like_pandas(url):
    assert_eq(md.read_sql("items", url, chunk_size=100), pd.read_sql("items", url))
    assert_eq(md.read_sql("loose", url, columns=["s"]), pd.read_sql("loose", url, columns=["s"]))
    query = "SELECT s, f FROM items ORDER BY f DESC, id"
    assert_eq(md.read_sql(query, url, chunk_size=64), pd.read_sql(query, url))
    engine = sa.create_engine(url)
    with engine.connect() as conn:  # an Engine or Connection: its URL goes to the workers
        assert_eq(md.read_sql("items", conn, index_col="id"), pd.read_sql("items", url, index_col="id"))
    assert_eq(md.read_sql_table("items", engine), pd.read_sql_table("items", engine))
    engine.dispose()


def test_errors_are_pandas_errors(url, tmp_path):
    with pytest.raises(ValueError, match="Table nope not found"):
        md.read_sql_table("nope", url)
    with pytest.raises(KeyError):
        pd.read_sql_table("items", url, columns=["s", "nope"])
    with pytest.raises(KeyError):
        md.read_sql_table("items", url, columns=["s", "nope"])
    with pytest.raises(KeyError):
        md.read_sql_table("items", url, index_col="nope")
    with pytest.raises(Exception) as pandas_error:  # pandas 3 wraps SQLAlchemy's error, 2.2 not
        pd.read_sql_query("SELEC nothing", url)
    with pytest.raises(pandas_error.type, match="SELEC"):
        md.read_sql_query("SELEC nothing", url)
    dbapi = sqlite3.connect(str(tmp_path / "x.db"))
    with pytest.raises(TypeError, match="URL"):
        md.read_sql_query("SELECT 1", dbapi)
    dbapi.close()
    with pytest.raises(ValueError, match="in-memory"):
        md.read_sql_query("SELECT 1", "sqlite://")
    with pytest.raises(ValueError, match="dtype_backend"):
        md.read_sql_table("items", url, dtype_backend="nope")


def test_values_the_sample_did_not_foresee_raise_naming_the_column(url):
    query = "SELECT id, CASE WHEN id > 150 THEN 'x' ELSE id END AS v FROM items ORDER BY id"
    m = md.read_sql_query(query, url, chunk_size=50)
    assert m.data.meta.dtypes["v"] == np.int64  # what the first rows say
    with pytest.raises(ValueError, match=r"'v'.*dtype="):
        compute_locally(m)
    assert_eq(md.read_sql_query(query, url, chunk_size=50, dtype={"v": "str"}),
              pd.read_sql_query(query, url, dtype={"v": "str"}))


# -- the optimizer ----------------------------------------------------------------------------------
def test_filters_and_columns_pushed_with_index_col(url):
    m = md.read_sql_table("items", url, index_col="id", chunk_size=60)
    out = m[(m.i > 3) & (m.s == "s2")][["f"]]
    explained = mr.explain(out, show=False)
    (reader,) = explained.nodes("md.read_sql")
    assert reader.op.columns == ["i", "f", "s"]
    assert reader.op.pushed_filters == [[("i", ">", 3), ("s", "==", "s2")]]
    assert "columns=[i, f, s]" in str(explained) and "filters=[i > 3 and s == 's2']" in str(explained)
    ops = _read_ops(out)
    assert all("WHERE" in _sql(op, url) and "skew" not in _sql(op, url) for op in ops)
    assert sum(len(op.execute()) for op in ops) < N  # the database skipped rows
    pdf = pd.read_sql_table("items", url, index_col="id")
    assert_eq(out, pdf[(pdf.i > 3) & (pdf.s == "s2")][["f"]])
    either = m[(m.f < 10) | (m.f > 80)]
    assert_eq(either, pdf[(pdf.f < 10) | (pdf.f > 80)])


def test_no_filter_pushdown_without_index_col(url):
    m = md.read_sql_table("items", url, chunk_size=60)
    out = m[m.i > 3][["s"]]
    (reader,) = mr.explain(out, show=False).nodes("md.read_sql")
    assert reader.op.columns == ["i", "s"] and not reader.op.pushed_filters
    pdf = pd.read_sql_table("items", url)
    assert_eq(out, pdf[pdf.i > 3][["s"]])
    query = md.read_sql_query("SELECT * FROM items ORDER BY id", url, chunk_size=60)
    out = query[query.f > 20]["late"]
    assert all("SELECT f, late" in _sql(op, url) for op in _read_ops(out))
    pdf = pd.read_sql_query("SELECT * FROM items ORDER BY id", url)
    assert_eq(out, pdf[pdf.f > 20]["late"])


def test_unsafe_filters_stay_in_pandas(url):
    m = md.read_sql_table("items", url, index_col="id")
    for mask in (m.s > "s2", m.d > pd.Timestamp("2021-02-01")):  # collation; SQLite's text dates
        (reader,) = mr.explain(m[mask], show=False).nodes("md.read_sql")
        assert not reader.op.pushed_filters
    pdf = pd.read_sql_table("items", url, index_col="id")
    assert_eq(m[m.s > "s2"], pdf[pdf.s > "s2"])
    mixed = m[(m.s > "s2") & (m["skew"] >= 100)]  # the safe half of an AND is pushed
    (reader,) = mr.explain(mixed, show=False).nodes("md.read_sql")
    assert reader.op.pushed_filters == [[("skew", ">=", 100)]]
    assert_eq(mixed, pdf[(pdf.s > "s2") & (pdf["skew"] >= 100)])


@pytest.mark.parametrize("kwargs", [{}, {"chunk_size": 30}, {"partition_col": "skew", "num_partitions": 6},
                                    {"index_col": "id", "chunk_size": 30}])
def test_head_becomes_a_limit(url, kwargs):
    m = md.read_sql_table("items", url, **kwargs)
    for n in (0, 5, 70):
        explained = mr.explain(m.head(n), show=False)
        (reader,) = explained.nodes("md.read_sql")
        assert reader.op.limit == n and f"limit={n}" in str(explained)
        ops = _read_ops(m.head(n))
        assert sum(len(op.execute()) for op in ops) <= n  # LIMITs on the first chunks only
        assert_eq(m.head(n), pd.read_sql_table("items", url, index_col=kwargs.get("index_col")).head(n))
    windows = _read_ops(md.read_sql_table("items", url, chunk_size=30).head(70))
    assert [op.piece for op in windows] == [("rows", 0, 30), ("rows", 30, 30), ("rows", 60, 10)]


# -- to_sql ---------------------------------------------------------------------------------------
def _frame(n=150) -> pd.DataFrame:
    rs = np.random.RandomState(1)
    return pd.DataFrame({"x": rs.randint(0, 100, n), "y": rs.rand(n), "z": [f"z{i}" for i in range(n)],
                         "t": pd.date_range("2022-01-01", periods=n, freq="h")},
                        index=pd.RangeIndex(1000, 1000 + 2 * n, 2, name="key"))


def _tables(url) -> set:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


@pytest.mark.parametrize("kwargs", [{}, {"index": False}, {"index_label": "k"}, {"chunksize": 7, "method": "multi"},
                                    {"dtype": {"z": sa.String(10)}}])
def test_to_sql_equals_pandas(tmp_path, kwargs):
    url = f"sqlite:///{tmp_path / 'w.db'}"
    df = _frame().sample(frac=1, random_state=0)  # an index out of order: rows keep their order
    written = compute_locally(md.DataFrame(df, chunk_size=40).to_sql("ours", url, **kwargs))[0]
    pd.testing.assert_frame_equal(written, df.iloc[:0])
    df.to_sql("theirs", url, **kwargs)
    pd.testing.assert_frame_equal(pd.read_sql_table("ours", url), pd.read_sql_table("theirs", url))
    assert _tables(url) == {"ours", "theirs"}  # the staging table is gone


def test_to_sql_if_exists(tmp_path):
    url = f"sqlite:///{tmp_path / 'w.db'}"
    df = _frame(90)
    m = md.DataFrame(df, chunk_size=25)
    compute_locally(m.to_sql("t", url))
    with pytest.raises(ValueError, match="Table 't' already exists."):
        compute_locally(m.to_sql("t", url))
    compute_locally(m.to_sql("t", url, if_exists="append"))
    df.to_sql("p", url)
    df.to_sql("p", url, if_exists="append")
    pd.testing.assert_frame_equal(pd.read_sql_table("t", url), pd.read_sql_table("p", url))
    compute_locally(md.DataFrame(df.iloc[:10], chunk_size=3).to_sql("t", url, if_exists="replace"))
    pd.testing.assert_frame_equal(pd.read_sql_table("t", url), pd.read_sql_table("p", url).iloc[:10])
    if int(pd.__version__.split(".")[0]) >= 3:  # if_exists="delete_rows" came with pandas 3
        compute_locally(md.DataFrame(df.iloc[5:9], chunk_size=3).to_sql("t", url, if_exists="delete_rows"))
        expected = pd.read_sql_table("p", url).iloc[5:9].reset_index(drop=True)
        pd.testing.assert_frame_equal(pd.read_sql_table("t", url), expected)
    compute_locally(md.Series(df["y"], chunk_size=40).to_sql("series", url, index=False))
    df["y"].to_sql("pseries", url, index=False)
    pd.testing.assert_frame_equal(pd.read_sql_table("series", url), pd.read_sql_table("pseries", url))
    with pytest.raises(ValueError, match="not valid for if_exists"):
        m.to_sql("t", url, if_exists="upsert")
    with pytest.raises(ValueError, match="index_label"):
        m.to_sql("t", url, index_label=["a", "b"])
    dbapi = sqlite3.connect(str(tmp_path / "w.db"))
    with pytest.raises(TypeError, match="URL"):
        m.to_sql("t", dbapi)
    dbapi.close()
    assert _tables(url) == {"t", "p", "series", "pseries"}


def test_failed_to_sql_leaves_the_target_untouched(tmp_path):
    from mars_on_ray.dataframe.blockwise import map_chunks

    url = f"sqlite:///{tmp_path / 'w.db'}"
    df = _frame(120)

    def fail_late(chunk):
        if len(chunk) and chunk.index[0] >= 1000 + 2 * 60:
            raise ZeroDivisionError("planned")
        return chunk

    m = map_chunks(fail_late, (md.DataFrame(df, chunk_size=35),))
    with pytest.raises(ZeroDivisionError):
        compute_locally(m.to_sql("new", url))
    assert _tables(url) == set()  # no target, no staging table
    df.iloc[:3].to_sql("old", url)
    before = pd.read_sql_table("old", url)
    for if_exists in ("replace", "append"):
        with pytest.raises(ZeroDivisionError):
            compute_locally(m.to_sql("old", url, if_exists=if_exists))
        pd.testing.assert_frame_equal(pd.read_sql_table("old", url), before)
    assert _tables(url) == {"old"}


def test_read_back_what_to_sql_wrote(tmp_path):
    url = f"sqlite:///{tmp_path / 'w.db'}"
    df = _frame(200)
    compute_locally(md.DataFrame(df, chunk_size=33).to_sql("t", url))
    expected = pd.read_sql_table("t", url, index_col="key")
    assert_eq(md.read_sql_table("t", url, index_col="key", partition_col="t", num_partitions=3), expected)
    with pytest.warns(UserWarning):  # no primary key: one chunk
        assert_eq(md.read_sql_table("t", url, chunk_size=45), pd.read_sql_table("t", url))


# -- PostgreSQL -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pg_url():
    reason = postgres.unavailable()
    if reason:
        pytest.skip(reason)
    with postgres.PostgresServer() as server:
        engine = sa.create_engine(server.url)
        _create(engine)
        engine.dispose()
        yield server.url


@pytest.mark.parametrize("kwargs", [{}, {"chunk_size": 37}, {"partition_col": "d", "num_partitions": 4},
                                    {"index_col": "id", "partition_col": "f", "num_partitions": 3}])
def test_postgres_read_equals_pandas(pg_url, kwargs):
    expected = pd.read_sql_table("items", pg_url, index_col=kwargs.get("index_col"))
    m = md.read_sql_table("items", pg_url, **kwargs)
    if kwargs.get("partition_col") == "f":  # ranges of f: NULLs first
        pd.testing.assert_frame_equal(compute_locally(m)[0].sort_index(), expected)
    else:
        assert_eq(m, expected)
    query = "SELECT id, s, d, flag, i FROM items WHERE s <> %(s)s ORDER BY id"
    got = md.read_sql_query(query, pg_url, params={"s": "s3"}, chunk_size=kwargs.get("chunk_size"))
    assert_eq(got, pd.read_sql_query(query, pg_url, params={"s": "s3"}))
    query = "SELECT id, s FROM items WHERE id > %s AND s LIKE 's%%' ORDER BY id"  # positional
    assert_eq(md.read_sql_query(query, pg_url, params=(9,), chunk_size=kwargs.get("chunk_size")),
              pd.read_sql_query(query, pg_url, params=(9,)))


def test_postgres_pushdown_of_dates_and_head(pg_url):
    m = md.read_sql_table("items", pg_url, index_col="id", chunk_size=50)
    when = pd.Timestamp("2021-02-01")
    out = m[(m.d >= when) & ((m.s == "s1") | (m.i < 100))][["f", "late"]]
    (reader,) = mr.explain(out, show=False).nodes("md.read_sql")
    assert reader.op.pushed_filters == [[("d", ">=", when), ("s", "==", "s1")], [("d", ">=", when), ("i", "<", 100)]]
    pdf = pd.read_sql_table("items", pg_url, index_col="id")
    assert_eq(out, pdf[(pdf.d >= when) & ((pdf.s == "s1") | (pdf.i < 100))][["f", "late"]])
    text = "SELECT * FROM items WHERE s LIKE 's%%' ORDER BY id"  # psycopg: '%' doubled, as in pandas
    assert_eq(md.read_sql_query(text, pg_url, chunk_size=40).head(55), pd.read_sql_query(text, pg_url).head(55))


def test_postgres_to_sql_round_trip(pg_url):
    df = _frame(130)
    compute_locally(md.DataFrame(df, chunk_size=40).to_sql("written", pg_url))
    compute_locally(md.DataFrame(df, chunk_size=40).to_sql("written", pg_url, if_exists="append"))
    df.to_sql("pwritten", pg_url)
    df.to_sql("pwritten", pg_url, if_exists="append")
    pd.testing.assert_frame_equal(pd.read_sql_table("written", pg_url), pd.read_sql_table("pwritten", pg_url))
    assert not [t for t in _tables(pg_url) if t.startswith("_mars")]


# -- on Ray (last: the module's Ray starts once, and later tests would run on it) ------------------
def test_read_sql_on_ray(session, url):
    m = md.read_sql_table("items", url, chunk_size=37)
    assert_eq(m, pd.read_sql_table("items", url))
    indexed = md.read_sql_table("items", url, index_col="id", partition_col="skew", num_partitions=4)
    pdf = pd.read_sql_table("items", url, index_col="id")
    assert_eq(indexed[indexed.f > 30][["s"]], pdf[pdf.f > 30][["s"]])
    assert_eq(m.head(40), pdf.reset_index().head(40))


def test_to_sql_on_ray(session, tmp_path):
    url = f"sqlite:///{tmp_path / 'ray.db'}"
    df = _frame(500)
    written = md.DataFrame(df, chunk_size=45).to_sql("t", url).execute()  # parts race for SQLite's lock
    pd.testing.assert_frame_equal(written.fetch(), df.iloc[:0])
    df.to_sql("p", url)
    pd.testing.assert_frame_equal(pd.read_sql_table("t", url), pd.read_sql_table("p", url))
    assert _tables(url) == {"t", "p"}

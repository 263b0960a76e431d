"""``to_sql``: chunks inserted in parallel into a staging table, then one INSERT ... SELECT.

``prepare`` fails early for ``if_exists='fail'`` and creates a uniquely named staging table with
the columns pandas would create (from the empty frame) plus the rows' positions. Parts append
their chunk there in parallel (SQLite: one writer at a time, so each waits for the lock and
retries). The commit applies pandas' ``if_exists`` to the target, copies the staged rows in
their original order and drops the staging table, all in one transaction: a failure anywhere
leaves the target as it was.
"""
from __future__ import annotations

import time

import numpy as np
import pandas as pd

from .sql import connection_url, make_engine
from .staging import new_job
from .writer import Write, write_node

#: staging columns holding each row's chunk and position in it (the target's row order)
PART, ROW = "__mars_part__", "__mars_row__"


class ToSQL(Write):
    _params = ("url", "engine_kwargs", "table", "schema", "if_exists", "index", "index_label",
               "chunksize", "dtype", "method", "job")
    needs_prepare = True
    label = "md.to_sql"

    def describe(self) -> str:
        return f"{self.name}({self.table!r}, if_exists={self.if_exists!r})"

    @property
    def staging(self) -> str:
        return f"_mars_staging_{self.job}"

    def prepare(self):
        import sqlalchemy as sa

        def create(conn):
            if self.if_exists == "fail" and sa.inspect(conn).has_table(self.table, schema=self.schema):
                raise ValueError(f"Table '{self.table}' already exists.")
            self._to_sql(positioned(self.written, 0), conn, self.staging, "fail")

        self._transaction(create)
        return np.empty(0)

    def write_part(self, frame, index):
        staged = positioned(frame, index)
        self._transaction(lambda conn: self._to_sql(staged, conn, self.staging, "append"))
        return index

    def commit(self, parts):
        self._transaction(self._publish)

    def abort(self) -> None:
        import sqlalchemy as sa

        self._transaction(lambda conn: sa.Table(self.staging, sa.MetaData(), schema=self.schema)
                          .drop(conn, checkfirst=True))

    def _publish(self, conn) -> None:
        """In the commit's transaction: pandas' ``if_exists`` on the target, then the rows."""
        import sqlalchemy as sa

        self._to_sql(as_frame(self.written), conn, self.table, self.if_exists)
        staged = sa.Table(self.staging, sa.MetaData(), autoload_with=conn, schema=self.schema)
        names = [c.name for c in staged.columns if c.name not in (PART, ROW)]
        target = sa.table(self.table, *[sa.column(n) for n in names], schema=self.schema)
        rows = sa.select(*[staged.c[n] for n in names]).order_by(staged.c[PART], staged.c[ROW])
        conn.execute(target.insert().from_select(names, rows))
        staged.drop(conn)

    def _to_sql(self, frame, conn, name, if_exists) -> None:
        import sqlalchemy as sa

        dtype = _dtype_dict(self.dtype, as_frame(self.written))
        if PART in frame.columns:
            dtype = {**dtype, PART: sa.BigInteger(), ROW: sa.BigInteger()}
        frame.to_sql(name, conn, schema=self.schema, if_exists=if_exists, index=self.index,
                     index_label=self.index_label, chunksize=self.chunksize, dtype=dtype or None,
                     method=self.method)

    def _transaction(self, work) -> None:
        """``work(connection)`` in one transaction, retried while SQLite is locked by another writer."""
        import sqlalchemy as sa

        engine = writer_engine(self.url, self.engine_kwargs)
        try:
            for attempt in range(10):
                try:
                    with engine.begin() as conn:
                        work(conn)
                    return
                except sa.exc.OperationalError as exc:
                    if attempt == 9 or ("locked" not in str(exc) and "busy" not in str(exc)):
                        raise
                time.sleep(0.05 * 2 ** attempt)
        finally:
            engine.dispose()


def writer_engine(url: str, engine_kwargs: dict | None = None):
    """An engine whose transactions include DDL (pysqlite only begins before DML by itself)."""
    engine = make_engine(url, engine_kwargs)
    if engine.dialect.name == "sqlite":
        from sqlalchemy import event

        @event.listens_for(engine, "connect")
        def _no_implicit_begin(dbapi_conn, record):
            dbapi_conn.isolation_level = None

        @event.listens_for(engine, "begin")
        def _begin(conn):
            conn.exec_driver_sql("BEGIN IMMEDIATE")  # take the write lock now, not mid-way
    return engine


def as_frame(obj) -> pd.DataFrame:
    """A Series as pandas' to_sql writes it."""
    return obj.to_frame() if isinstance(obj, pd.Series) else obj


def positioned(frame, part: int) -> pd.DataFrame:
    """``frame`` with its rows' chunk number and position (the staging table's order)."""
    frame = as_frame(frame)
    return frame.assign(**{PART: np.full(len(frame), part, dtype=np.int64),
                           ROW: np.arange(len(frame), dtype=np.int64)})


def _dtype_dict(dtype, frame) -> dict:
    """pandas applies a single ``dtype`` to every data column: never to our position columns."""
    if dtype is None:
        return {}
    return dict(dtype) if isinstance(dtype, dict) else {c: dtype for c in frame.columns}


def to_sql(df, name, con, schema=None, if_exists="fail", index=True, index_label=None, chunksize=None,
           dtype=None, method=None, engine_kwargs=None):
    """Write ``df`` to table ``name`` as ``pandas.DataFrame.to_sql`` would, chunks in parallel.

    Lazy as in Mars: ``.execute()`` writes. ``con`` is a SQLAlchemy URL, Engine or Connection
    (workers connect with its URL). The target changes only when every chunk was staged, in one
    transaction, with pandas' ``if_exists`` ('fail', 'replace', 'append', 'delete_rows').
    """
    url = connection_url(con, "md.to_sql")
    meta = as_frame(df.data.meta.iloc[:0])
    clash = [c for c in (PART, ROW) if c in meta.columns]
    if clash:
        raise ValueError(f"md.to_sql uses the column names {clash} for staging; rename them")
    _check_like_pandas(meta, if_exists, index, index_label, dtype)
    op = ToSQL(url=url, engine_kwargs=engine_kwargs, table=name, schema=schema, if_exists=if_exists,
               index=index, index_label=index_label, chunksize=chunksize, dtype=dtype, method=method,
               job=new_job(), label="md.to_sql")
    return write_node(op, df)


def _check_like_pandas(meta, if_exists, index, index_label, dtype) -> None:
    """pandas' errors for the frame and options (if_exists, index_label length, dtype,
    unsupported types) now, by letting it create the table in a throwaway in-memory database."""
    import sqlalchemy as sa

    engine = sa.create_engine("sqlite://")
    try:
        meta.to_sql("mars_check", engine, if_exists=if_exists, index=index, index_label=index_label, dtype=dtype)
    except sa.exc.SQLAlchemyError:
        pass  # a type SQLite lacks: the target database decides
    finally:
        engine.dispose()

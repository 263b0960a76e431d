"""``read_sql_table`` / ``read_sql_query`` / ``read_sql``: a table or query read in row chunks.

When the user calls them, the database is asked once for a sample of the first rows (converted
by pandas itself, so columns and dtypes are pandas') and for row and NULL counts (an integer
column with NULLs further down is float64 in pandas' whole result). Chunks are then:

- ``partition_col`` + ``num_partitions``: value ranges of that column between its MIN and MAX
  (the first range also takes NULLs and everything below, the last everything above, so no row
  is lost whatever the database's comparison rules);
- ``chunk_size`` rows, or automatic byte-bounded ones: ``LIMIT/OFFSET`` windows, only where row
  order is deterministic (a table's primary key, a query's own ORDER BY); otherwise one chunk.

Every chunk is converted by pandas and cast to the declared dtypes (losslessly, or it raises).
The optimizer's column pruning becomes the SELECT list, a limit a LIMIT on the first chunks,
and pushed filters (only with ``index_col``: a RangeIndex must count every row) a WHERE with
bound parameters.
"""
from __future__ import annotations

import math
import re
import warnings
from decimal import Decimal

import numpy as np
import pandas as pd

from ...config import options
from ...core.entity import ChunkData
from ..blockwise import chunk_shape, rows_grid
from ..core import new_frame
from .arrow import check_dtype_backend
from .reader import Reader, range_indexed

#: rows fetched at build time to learn columns and dtypes
SAMPLE_ROWS = 100
_SUBQUERY = "_mars_q"


# -- connections ---------------------------------------------------------------------------------
def connection_url(con, who: str = "md.read_sql") -> str:
    """The URL (password included: workers connect with it) of a URL string, Engine or Connection."""
    import sqlalchemy as sa

    if isinstance(con, str):
        url = con
    elif isinstance(con, sa.engine.URL):
        url = con.render_as_string(hide_password=False)
    elif isinstance(con, (sa.engine.Engine, sa.engine.Connection)):
        url = con.engine.url.render_as_string(hide_password=False)
    else:
        raise TypeError(f"{who} needs a SQLAlchemy URL string, Engine or Connection: a "
                        f"{type(con).__module__}.{type(con).__name__} cannot be sent to the workers "
                        "that read the chunks. Pass the database URL instead, e.g. "
                        "'sqlite:///path/to/file.db' or 'postgresql+psycopg://user:pw@host/db'.")
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise ValueError(f"{who}: an in-memory SQLite database lives in one process and the "
                         "workers cannot see it; use a database file ('sqlite:///path/to/file.db')")
    return url


def make_engine(url: str, engine_kwargs: dict | None = None):
    """A pool-less engine (one per chunk; engines do not travel between processes)."""
    import sqlalchemy as sa
    from sqlalchemy.pool import NullPool

    kwargs = dict(engine_kwargs or {})
    if sa.engine.make_url(url).get_backend_name() == "sqlite":
        # a busy timeout: parallel writers take turns on SQLite's single write lock
        kwargs["connect_args"] = {"timeout": 60, **kwargs.get("connect_args", {})}
    return sa.create_engine(url, poolclass=NullPool, **kwargs)


def _backend(url: str) -> str:
    import sqlalchemy as sa

    return sa.engine.make_url(url).get_backend_name()


# -- what is read --------------------------------------------------------------------------------
def _verbatim_class():
    """A FROM element holding the user's SQL text exactly as pandas sends it to the driver: no
    ``:name`` bind parsing, no escaping (placeholders and '%' are the driver's business)."""
    from sqlalchemy.ext.compiler import compiles
    from sqlalchemy.sql.elements import TextClause

    class Verbatim(TextClause):
        __visit_name__ = "mars_verbatim"
        inherit_cache = False

        def __init__(self, text: str):
            super().__init__("")
            self.text = text

    @compiles(Verbatim)
    def _render(element, compiler, **kw):
        return element.text

    return Verbatim


_VERBATIM = None


class Source:
    """A table (name, schema, reflected column types, primary key) or a query (+ its params)."""

    def __init__(self, table=None, schema=None, types=(), primary_key=(), query=None, params=None):
        self.table, self.schema, self.types = table, schema, tuple(types)
        self.primary_key, self.query, self.params = tuple(primary_key), query, params

    def __mars_token__(self):
        query = self.query if self.query is None or isinstance(self.query, str) else str(self.query)
        return ("sql-source", self.table, self.schema, [(n, repr(t)) for n, t in self.types],
                self.primary_key, query, repr(self.params))

    @property
    def driver_params(self) -> bool:
        """True when ``params`` are in the driver's style (a string query, as pandas runs it)."""
        return isinstance(self.query, str) and self.params is not None

    def name(self) -> str:
        if self.table is not None:
            return f"{self.schema}.{self.table}" if self.schema else self.table
        text = " ".join(str(self.query).split())
        return text if len(text) <= 60 else text[:57] + "..."

    def from_clause(self):
        import sqlalchemy as sa

        global _VERBATIM
        if self.table is not None:
            return sa.table(self.table, *[sa.column(n, t) for n, t in self.types], schema=self.schema)
        if isinstance(self.query, str):
            if _VERBATIM is None:
                _VERBATIM = _verbatim_class()
            return _VERBATIM(self.query).columns().subquery(_SUBQUERY)
        if isinstance(self.query, sa.TextClause):
            return self.query.columns().subquery(_SUBQUERY)
        return self.query.subquery(_SUBQUERY)

    def column(self, frm, name):
        import sqlalchemy as sa

        return frm.c[name] if self.table is not None else sa.column(name)

    def select(self, frm, names):
        """SELECT ``names`` (None: every column, in the source's order) FROM ``frm``."""
        import sqlalchemy as sa

        if names is None:
            return sa.select(frm) if self.table is not None else sa.select(sa.literal_column("*")).select_from(frm)
        return sa.select(*[self.column(frm, n) for n in names]).select_from(frm)

    def order(self, frm) -> list:
        """ORDER BY of LIMIT/OFFSET windows: a table's primary key; a query keeps its own."""
        return [self.column(frm, n) for n in self.primary_key]

    def is_ordered(self) -> bool:
        if self.table is not None:
            return bool(self.primary_key)
        if isinstance(self.query, str):
            return has_order_by(self.query)
        if hasattr(self.query, "text"):  # a text() clause
            return has_order_by(self.query.text)
        return bool(getattr(self.query, "_order_by_clauses", ()))


def has_order_by(sql: str) -> bool:
    """Whether the outermost statement of ``sql`` has an ORDER BY (not one in parentheses,
    strings or comments)."""
    text = re.sub(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|--[^\n]*|/\*.*?\*/", " ", sql, flags=re.S)
    depth, outer = 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        outer.append(ch if depth == 0 and ch not in "()" else " ")
    return re.search(r"\border\s+by\b", "".join(outer), re.I) is not None


def _paramstyle_like(default: str, params) -> str:
    """The driver's parameter style that fits ``params`` (drivers take a named and a positional
    style: sqlite3 ? and :name, psycopg and pymysql %s and %(name)s)."""
    named = isinstance(params, dict)
    if named == (default in ("named", "pyformat")):
        return default
    return {"qmark": "named", "numeric": "named", "format": "pyformat", "named": "qmark",
            "pyformat": "format"}[default]


def _merge_params(user):
    """A ``before_cursor_execute`` hook adding the user's driver-style params to ours (the
    user's query comes first in the statement, so its positional params do too)."""

    def hook(conn, cursor, statement, parameters, context, executemany):
        if isinstance(user, dict):
            if parameters and not isinstance(parameters, dict):
                raise TypeError("params given as a dict, but this driver takes positional parameters")
            return statement, {**(parameters or {}), **user}
        if isinstance(parameters, dict) and parameters:
            raise TypeError("params given as a list, but this driver names its parameters: pass a "
                            "dict (e.g. %(name)s placeholders with params={'name': ...})")
        return statement, tuple(user) + tuple(parameters or ())

    return hook


# -- the reader ----------------------------------------------------------------------------------
class ReadSQL(Reader):
    """Rows of a table or query. A chunk reads one ``piece``: ``("all",)``, ``("rows", offset,
    n)`` (an ordered window) or ``("range", lo, hi)`` of ``partition_col`` (None: open end)."""

    _params = ("url", "engine_kwargs", "source", "index_col", "coerce_float", "parse_dates", "dtype",
               "dtype_backend", "empty", "partition_col", "pieces", "piece", "backend")
    accepts_limit = True
    label = "md.read_sql"
    piece = None

    @property
    def accepts_filters(self) -> bool:  # type: ignore[override]
        # with a default RangeIndex, rows skipped by the database would shift every label
        return bool(self.index_col)

    def source_name(self) -> str:
        return self.source.name()

    def filtered(self, node, dnf):
        dnf = self._pushable(dnf)
        return node if dnf is None else super().filtered(node, dnf)

    def _pushable(self, dnf) -> list | None:
        """``dnf`` without the terms SQL could evaluate differently from pandas (dropping an
        AND term only keeps more rows); None when nothing is left to push."""
        kept = []
        for conj in dnf:
            terms = [t for t in conj if self._safe(*t)]
            if not terms:
                return None
            kept.append(terms)
        return kept

    def _safe(self, column, op, value) -> bool:
        if column in _names(self.parse_dates) or column in _dtype_columns(self.dtype, self.empty):
            return False  # pandas converted it: the database holds something else
        dtype = self.empty[column].dtype
        kind = getattr(dtype, "kind", "O")
        if kind in "iuf":
            return True
        if kind == "b":
            return op == "=="
        if kind == "M":  # SQLite keeps dates as text, in whatever format they were written
            return self.backend != "sqlite" and getattr(dtype, "tz", None) is None
        if pd.api.types.is_string_dtype(dtype):
            return op in ("==", "in")  # the order of strings depends on the database's collation
        return False

    # -- planning ------------------------------------------------------------------------------
    def tile(self, ctx, out):
        if self.limit is not None and self.pieces[0][0] == "range":
            chunks, rows = yield from self._tile_limited(out)
        else:
            chunks = [self._chunk(out, p, i, self._piece_limit(p))
                      for i, p in enumerate(_first_rows(self.pieces, self.limit))]
            rows = None
        if self.index_col or len(chunks) == 1:  # one chunk numbers its own rows from 0
            return rows_grid(chunks, out.meta)
        if rows is None:
            rows = [s[0] for s in (yield chunks)]
        chunks = [c.with_shape(chunk_shape(out.meta, n)) for c, n in zip(chunks, rows)]
        return rows_grid(range_indexed(chunks, rows, out.meta, label=self.label), out.meta)

    def _chunk(self, out, piece, i, limit):
        op = self.new(piece=piece, limit=limit)
        return ChunkData(op, [], chunk_shape(out.meta, math.nan), out.meta, (i, 0))

    def _piece_limit(self, piece):
        return None if piece[0] == "rows" else self.limit

    def _tile_limited(self, out):
        """Ranges read one at a time, each with a LIMIT of the rows still missing."""
        chunks, rows, remaining = [], [], self.limit
        for piece in self.pieces:
            if chunks and remaining <= 0:
                break
            chunk = self._chunk(out, piece, len(chunks), max(remaining, 0))
            (shape,) = yield [chunk]
            chunks.append(chunk.with_shape(shape))
            rows.append(shape[0])
            remaining -= shape[0]
        return chunks, rows

    # -- reading -------------------------------------------------------------------------------
    def execute(self):
        engine = self._engine()
        try:
            with engine.connect() as conn:
                frame = self._read(conn, self.statement(self.piece, self.limit), self._flat())
        finally:
            engine.dispose()
        return _set_index(frame, self.index_col)

    def _engine(self):
        engine = make_engine(self.url, self.engine_kwargs)
        if not self.source.driver_params:
            return engine
        from sqlalchemy import event

        style = _paramstyle_like(engine.dialect.paramstyle, self.source.params)
        if style != engine.dialect.paramstyle:  # ours must be in the style of the user's params
            engine.dispose()
            engine = make_engine(self.url, {**(self.engine_kwargs or {}), "paramstyle": style})
        event.listen(engine, "before_cursor_execute", _merge_params(self.source.params), retval=True)
        return engine

    def _flat(self) -> pd.DataFrame:
        """The declared columns before ``set_index``: index columns first, then the data."""
        index = list(self.index_col or [])
        return self.empty[index + [c for c in self.data_columns() if c not in index]]

    def data_columns(self) -> list:
        index = self.index_col or []
        return list(self.columns) if self.columns is not None else [c for c in self.empty.columns if c not in index]

    def user_select(self):
        """The SELECT list before the output is known: the chosen columns (and the index
        columns first), or None for every column."""
        if self.columns is None:
            return None
        index = list(self.index_col or [])
        return index + [c for c in self.columns if c not in index]

    def _read_columns(self):
        """The SELECT list: None (every column) unless pruned or chosen."""
        if self.columns is None and self.source.table is None:
            return None
        return list(self._flat().columns)

    def statement(self, piece, limit=None, names="default", where=None):
        """The SELECT of one piece (with pushed filters, ``where(from clause)`` and ``limit``)."""
        import sqlalchemy as sa

        frm = self.source.from_clause()
        stmt = self.source.select(frm, self._read_columns() if names == "default" else names)
        extra = where(frm) if where is not None else None
        conditions = [c for c in (self._range(frm, piece), self._where(frm), extra) if c is not None]
        if conditions:
            stmt = stmt.where(sa.and_(*conditions))
        if piece[0] == "rows":
            stmt = stmt.order_by(*self.source.order(frm)).limit(piece[2]).offset(piece[1])
        elif limit is not None:
            stmt = stmt.limit(limit)
        return stmt

    def _range(self, frm, piece):
        import sqlalchemy as sa

        if piece[0] != "range":
            return None
        col, (lo, hi) = self.source.column(frm, self.partition_col), piece[1:]
        if lo is None:
            return sa.or_(col < hi, col.is_(None))
        return col >= lo if hi is None else sa.and_(col >= lo, col < hi)

    def _where(self, frm):
        import sqlalchemy as sa

        if not self.pushed_filters:
            return None
        return sa.or_(*[sa.and_(*[_condition(self.source.column(frm, c), op, v) for c, op, v in conj])
                        for conj in self.pushed_filters])

    def _read(self, conn, stmt, declared=None) -> pd.DataFrame:
        """pandas' conversion of ``stmt``'s rows (read_sql_table's rules for a table), cast to
        ``declared`` when given."""
        kwargs = {"coerce_float": self.coerce_float}
        if self.dtype_backend is not None:
            kwargs["dtype_backend"] = self.dtype_backend
        if self.source.table is None:
            kwargs.update(parse_dates=self.parse_dates, dtype=self.dtype)
            if not self.source.driver_params:
                kwargs["params"] = self.source.params
        frame = pd.read_sql_query(stmt, conn, **kwargs)
        if self.source.table is not None:
            frame = _harmonize(frame, self.source.from_clause(), self.parse_dates, self.dtype_backend)
        if declared is not None:
            frame = conform(frame, declared, self.label)
        return frame


def _condition(col, op, value):
    if isinstance(value, pd.Timestamp):
        value = value.to_pydatetime()
    if op == "in":
        return col.in_([v.to_pydatetime() if isinstance(v, pd.Timestamp) else v for v in value])
    return {"==": col.__eq__, "<": col.__lt__, "<=": col.__le__, ">": col.__gt__, ">=": col.__ge__}[op](value)


def _first_rows(pieces, limit) -> list:
    """The pieces holding the first ``limit`` rows (windows shortened to what is needed)."""
    if limit is None:
        return list(pieces)
    if pieces[0][0] != "rows":
        return list(pieces[:1])
    taken = []
    for kind, offset, n in pieces:
        if taken and offset >= limit:
            break
        taken.append((kind, offset, max(0, min(n, limit - offset))))
    return taken


def _harmonize(frame, table, parse_dates, dtype_backend) -> pd.DataFrame:
    """The dtypes read_sql_table gives ``frame``, from the table's SQL column types."""
    # pandas' private helper: exactly its rules (dates parsed, int/bool only without NULLs...)
    from pandas.io.sql import SQLTable

    holder = object.__new__(SQLTable)
    holder.table, holder.frame = table, frame
    holder._harmonize_columns(parse_dates=parse_dates, dtype_backend=dtype_backend or "numpy")
    return holder.frame


def conform(frame: pd.DataFrame, declared: pd.DataFrame, label: str) -> pd.DataFrame:
    """``frame`` with ``declared``'s columns and dtypes; a lossy conversion raises."""
    frame = frame[list(declared.columns)] if list(frame.columns) != list(declared.columns) else frame
    for i, (name, want) in enumerate(declared.dtypes.items()):
        have = frame.iloc[:, i]
        if have.dtype != want:
            frame.isetitem(i, _cast(have, want, name, label))
    return frame


def _cast(column: pd.Series, want, name, label) -> pd.Series:
    have = column.dtype
    try:
        out = column.astype(want)
        lossless = True
        if getattr(have, "kind", "O") in "iufmM" and getattr(want, "kind", "O") in "iufmM":
            back = out.astype(have)
            lossless = bool(((back == column) | (back.isna() & column.isna())).all())
        if lossless:
            return out
        problem: object = "the conversion loses information"
    except (TypeError, ValueError) as exc:
        problem = exc
    raise ValueError(f"{label}: column {name!r} was declared {want} from a sample of the first "
                     f"{SAMPLE_ROWS} rows, but a chunk read it as {have} ({problem}). Pass "
                     f"dtype={{{name!r}: ...}} or parse_dates=[{name!r}] (read_sql_query) to fix "
                     "its type, or cast it in the query.")


def _set_index(frame, index_col):
    if not index_col:
        return frame
    return frame.set_index(index_col[0] if len(index_col) == 1 else list(index_col))


def _names(parse_dates) -> set:
    if not parse_dates:
        return set()
    return {parse_dates} if isinstance(parse_dates, str) else set(parse_dates)


def _dtype_columns(dtype, empty) -> set:
    if dtype is None:
        return set()
    return set(dtype) if isinstance(dtype, dict) else set(empty.columns)


# -- build time: sample, counts and chunk pieces -------------------------------------------------
def _plan(op: ReadSQL, partition_col, num_partitions, chunk_size) -> tuple:
    """(op with its declared columns and pieces, meta): one connection, a few small queries."""
    engine = op._engine()
    try:
        with engine.connect() as conn:
            if op.source.table is not None:
                op.source = _reflect(conn, op.source, op.columns, op.index_col)
            sample = op._read(conn, op.statement(("all",), SAMPLE_ROWS, names=op.user_select()))
            _set_index(sample.iloc[:0], op.index_col)  # pandas' error for a bad index_col
            frm = op.source.from_clause()
            stats = _stats(conn, op, frm, sample, partition_col)
            op.empty = _with_nulls(conn, op, sample, stats)
            op.pieces = _pieces(op, sample, stats, partition_col, num_partitions, chunk_size)
    except Exception as exc:
        exc.add_note(f"while {op.label} read a sample of {op.source.name()!r}")
        raise
    finally:
        engine.dispose()
    op.columns = None  # the chosen columns are now the whole output; pruning may choose fewer
    return op, _set_index(op.empty, op.index_col)


def _reflect(conn, source: Source, columns, index_col) -> Source:
    import sqlalchemy as sa

    if not sa.inspect(conn).has_table(source.table, schema=source.schema):
        raise ValueError(f"Table {source.table} not found")
    table = sa.Table(source.table, sa.MetaData(), autoload_with=conn, schema=source.schema)
    for name in [*(columns or []), *((index_col or []) if columns else [])]:
        table.c[name]  # pandas' KeyError for an unknown column
    return Source(source.table, source.schema, [(c.name, c.type) for c in table.columns],
                  [c.name for c in table.primary_key.columns])


def _stats(conn, op, frm, sample, partition_col) -> dict:
    """Row count, NULL counts of the columns whose dtype NULLs change, partition MIN/MAX."""
    import sqlalchemy as sa

    watched = _null_sensitive(op, sample)
    exprs = [sa.func.count().label("n")]
    exprs += [sa.func.count(op.source.column(frm, c)) for c in watched]
    if partition_col is not None:
        col = op.source.column(frm, partition_col)
        exprs += [sa.func.min(col), sa.func.max(col)]
    params = None if op.source.driver_params else op.source.params  # driver-style ones: the hook
    row = conn.execute(sa.select(*exprs).select_from(frm), params).one()
    found = {"rows": row[0], "non_null": dict(zip(watched, row[1:1 + len(watched)]))}
    if partition_col is not None:
        found["min"], found["max"] = row[-2], row[-1]
    return found


def _null_sensitive(op, sample) -> list:
    """Columns whose pandas dtype changes when NULLs appear: int and bool columns (numpy
    backend), and columns that are all NULL in the sample."""
    fixed = _names(op.parse_dates) | _dtype_columns(op.dtype, sample)
    out = []
    for name, col in sample.items():
        if name in fixed or not isinstance(name, str):
            continue
        if (len(col) and col.isna().all()) or (op.dtype_backend is None and col.dtype.kind in "iub"):
            out.append(name)
    return out


def _with_nulls(conn, op, sample, stats) -> pd.DataFrame:
    """The sample's dtypes as pandas would give them for the whole result (NULLs further down)."""
    empty = sample.iloc[:0].copy()
    rows, unknown = stats["rows"], []
    for name, non_null in stats["non_null"].items():
        col = sample[name]
        if len(col) and col.isna().all():
            if non_null:
                unknown.append(name)
        elif non_null < rows:
            empty[name] = empty[name].astype(_nullable(col.dtype))
    if unknown:  # a sample of the rows that have values there
        import sqlalchemy as sa

        def where(frm):
            return sa.or_(*[op.source.column(frm, c).is_not(None) for c in unknown])

        more = op._read(conn, op.statement(("all",), SAMPLE_ROWS, names=op.user_select(), where=where))
        for name in unknown:
            if more[name].notna().any():
                empty[name] = empty[name].astype(_nullable(more[name].dtype)
                                                 if op.dtype_backend is None else more[name].dtype)
    return empty


def _nullable(dtype):
    """The dtype pandas gives a column of these values plus NULLs."""
    kind = getattr(dtype, "kind", "O")
    if isinstance(dtype, np.dtype) and kind in "iu":
        return np.dtype("float64")
    if isinstance(dtype, np.dtype) and kind == "b":
        return np.dtype(object)
    return dtype


def _pieces(op, sample, stats, partition_col, num_partitions, chunk_size) -> tuple:
    rows = stats["rows"]
    per_row = sample.memory_usage(index=False, deep=True).sum() / max(len(sample), 1)
    if partition_col is not None:
        n = num_partitions or max(1, math.ceil(rows * per_row / options.chunk_store_limit))
        return _ranges(stats["min"], stats["max"], n, partition_col)
    ordered = op.source.is_ordered()
    if chunk_size is not None and not ordered:
        warnings.warn(f"{op.label}: chunk_size needs a deterministic row order (a table's primary "
                      "key, or ORDER BY in the query): reading one chunk", UserWarning, stacklevel=5)
    if chunk_size is None:
        chunk_size = max(1, int(options.chunk_store_limit // max(per_row, 1)))
    if not ordered or rows <= chunk_size:
        return (("all",),)
    return tuple(("rows", start, min(chunk_size, rows - start)) for start in range(0, rows, chunk_size))


def _ranges(lo, hi, n: int, column) -> tuple:
    """Pieces splitting ``[lo, hi]`` into ``n`` ranges, the outer ones open-ended."""
    if lo is None or n <= 1:
        return (("all",),)
    if isinstance(lo, str):  # SQLite returns dates as text
        try:
            lo, hi = pd.Timestamp(lo), pd.Timestamp(hi)
        except ValueError:
            raise TypeError(f"partition_col {column!r} must be numeric or datetime, not text") from None
    if isinstance(lo, (int, np.integer)) and not isinstance(lo, (bool, np.bool_)):
        edges = [int(lo) + (int(hi) - int(lo)) * i // n for i in range(1, n)]
    elif isinstance(lo, (float, np.floating, Decimal)):
        edges = [float(lo) + (float(hi) - float(lo)) * i / n for i in range(1, n)]
    elif hasattr(lo, "year"):  # date, datetime, Timestamp
        lo, hi = pd.Timestamp(lo), pd.Timestamp(hi)
        edges = [lo + (hi - lo) * i / n for i in range(1, n)]
    else:
        raise TypeError(f"partition_col {column!r} must be numeric or datetime, not {type(lo).__name__}")
    edges = [e.to_pydatetime() if isinstance(e, pd.Timestamp) else e for e in sorted(set(edges)) if e > lo]
    bounds = [None, *edges, None]
    return tuple(("range", a, b) for a, b in zip(bounds[:-1], bounds[1:]))


# -- the user API --------------------------------------------------------------------------------
def _new(source, con, index_col, coerce_float, parse_dates, dtype, dtype_backend, columns,
         partition_col, num_partitions, chunk_size, engine_kwargs):
    check_dtype_backend(dtype_backend)
    if num_partitions is not None and partition_col is None:
        raise ValueError("num_partitions needs partition_col")
    if chunk_size is not None and (not isinstance(chunk_size, (int, np.integer)) or chunk_size <= 0):
        raise ValueError(f"chunk_size must be a positive number of rows, got {chunk_size!r}")
    url = connection_url(con)
    index = None if index_col is None else [index_col] if isinstance(index_col, str) else list(index_col)
    op = ReadSQL(url=url, engine_kwargs=engine_kwargs, source=source, index_col=index,
                 coerce_float=coerce_float, parse_dates=parse_dates, dtype=dtype,
                 dtype_backend=dtype_backend, partition_col=partition_col, backend=_backend(url),
                 columns=None if columns is None else list(columns), label="md.read_sql")
    op, meta = _plan(op, partition_col, num_partitions, chunk_size)
    return new_frame(op, [], math.nan, meta)


def read_sql_table(table_name, con, schema=None, index_col=None, coerce_float=True, parse_dates=None,
                   columns=None, dtype_backend=None, partition_col=None, num_partitions=None,
                   chunk_size=None, engine_kwargs=None):
    """A lazy DataFrame of a database table, as ``pandas.read_sql_table`` reads it.

    ``con``: a SQLAlchemy URL, Engine or Connection (workers connect with its URL). Chunks are
    ``num_partitions`` value ranges of ``partition_col``, or windows of ``chunk_size`` rows in
    primary-key order (a table without one is read as one chunk).
    """
    source = Source(table=table_name, schema=schema)
    return _new(source, con, index_col, coerce_float, parse_dates, None, dtype_backend, columns,
                partition_col, num_partitions, chunk_size, engine_kwargs)


def read_sql_query(sql, con, index_col=None, coerce_float=True, params=None, parse_dates=None,
                   dtype=None, dtype_backend=None, partition_col=None, num_partitions=None,
                   chunk_size=None, engine_kwargs=None):
    """A lazy DataFrame of a query's result, as ``pandas.read_sql_query`` reads it.

    ``params`` are in the driver's style for a string query, as in pandas. ``chunk_size`` rows
    per chunk only for a query with ORDER BY (else one chunk); ``partition_col`` splits by
    value ranges of a result column.
    """
    source = Source(query=sql, params=params)
    return _new(source, con, index_col, coerce_float, parse_dates, dtype, dtype_backend, None,
                partition_col, num_partitions, chunk_size, engine_kwargs)


def read_sql(sql, con, index_col=None, coerce_float=True, params=None, parse_dates=None, columns=None,
             dtype_backend=None, dtype=None, partition_col=None, num_partitions=None, chunk_size=None,
             engine_kwargs=None):
    """``read_sql_table`` when ``sql`` names a table, else ``read_sql_query`` (as pandas)."""
    if isinstance(sql, str) and _has_table(sql, con, engine_kwargs):
        return read_sql_table(sql, con, index_col=index_col, coerce_float=coerce_float,
                              parse_dates=parse_dates, columns=columns, dtype_backend=dtype_backend,
                              partition_col=partition_col, num_partitions=num_partitions,
                              chunk_size=chunk_size, engine_kwargs=engine_kwargs)
    return read_sql_query(sql, con, index_col=index_col, coerce_float=coerce_float, params=params,
                          parse_dates=parse_dates, dtype=dtype, dtype_backend=dtype_backend,
                          partition_col=partition_col, num_partitions=num_partitions,
                          chunk_size=chunk_size, engine_kwargs=engine_kwargs)


def _has_table(name: str, con, engine_kwargs) -> bool:
    import sqlalchemy as sa

    engine = make_engine(connection_url(con), engine_kwargs)
    try:
        with engine.connect() as conn:
            return sa.inspect(conn).has_table(name)
    finally:
        engine.dispose()


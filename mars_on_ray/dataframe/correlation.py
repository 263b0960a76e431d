"""``corr``, ``cov``, ``corrwith``, ``Series.corr/cov/autocorr``.

Pearson correlation and covariance are a tree reduction of pairwise sufficient statistics:
for every pair of columns, over the rows where both are finite (pandas' pairwise-complete
observations), the count, the means, the co-moment and both second moments; chunks merge with
Chan's formulas. Spearman and Kendall need global ranks: pandas runs on the gathered data.
"""
from __future__ import annotations


import numpy as np
import pandas as pd

from ..core.entity import ChunkData
from ..core.operand import Operand
from ..tensor.core import new_tensor
from .blockwise import map_chunks, row_chunks, sample_of, whole_chunk
from .core import DataFrame, Series, methods, new_frame
from .groupby import _Meta
from .stats import _KERNELS, Labels, TreeStat, check_axis, quietly, single, tree_stat

__all__: list[str] = []


def _matrix(frame: pd.DataFrame) -> np.ndarray:
    return frame.to_numpy(dtype=np.float64, na_value=np.nan) if frame.shape[1] else np.empty((len(frame), 0))


def pair_stats(x: np.ndarray) -> dict:
    """Pairwise-complete statistics of the columns of ``x`` (k x k arrays), relative to a
    per-column shift (the chunk's column mean) so that sums stay small."""
    valid = np.isfinite(x)
    m = valid.astype(np.float64)
    count = m.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        shift = np.where(count > 0, np.where(valid, x, 0.0).sum(axis=0) / count, 0.0)
        y = np.where(valid, x - shift, 0.0)
        n = m.T @ m
        s = y.T @ m
        co = y.T @ y - np.where(n > 0, s * s.T / n, 0.0)
        m2 = (y * y).T @ m - np.where(n > 0, s * s / n, 0.0)
        mean = np.where(n > 0, s / n, 0.0)
    return {"n": n, "shift": shift, "mean": mean, "co": co, "m2": m2,
            "rows": float(len(x)), "nan": bool(np.isnan(x).any())}


def merge_pair_stats(a: dict, b: dict) -> dict:
    """Chan's merge of two chunks' pairwise statistics."""
    ca, cb = np.diag(a["n"]), np.diag(b["n"])
    shift = np.where(ca > 0, a["shift"], b["shift"])
    ma = a["mean"] + (a["shift"] - shift)[:, None]
    mb = b["mean"] + (b["shift"] - shift)[:, None]
    n = a["n"] + b["n"]
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(n > 0, a["n"] * b["n"] / n, 0.0)
        delta = mb - ma
        mean = np.where(n > 0, ma + delta * np.where(n > 0, b["n"] / n, 0.0), 0.0)
    return {"n": n, "shift": shift, "mean": mean, "co": a["co"] + b["co"] + delta * delta.T * f,
            "m2": a["m2"] + b["m2"] + delta * delta * f, "rows": a["rows"] + b["rows"],
            "nan": a["nan"] or b["nan"]}


def finish_pairs(p: dict, how: str, min_periods, ddof) -> np.ndarray:
    """pandas' corr / cov matrix (or pair results) from merged statistics."""
    n, co, m2 = p["n"], p["co"], p["m2"]
    with np.errstate(divide="ignore", invalid="ignore"):
        if how == "corr":  # DataFrame.corr: libalgos.nancorr
            div = np.sqrt(m2 * m2.T)
            res = np.where(div != 0, co / div, np.nan)
            return np.where(n < (1 if min_periods is None else min_periods), np.nan, res)
        if how == "cov":  # DataFrame.cov: np.cov without missing values, nancorr(cov=True) with
            if not p["nan"]:
                if min_periods is not None and min_periods > p["rows"]:
                    return np.full(n.shape, np.nan)
                fact = p["rows"] - ddof
                return co * (1.0 / fact if fact > 0 else np.inf)
            res = np.where(n - 1 != 0, co / (n - 1), np.nan)
            return np.where(n < (1 if min_periods is None else min_periods), np.nan, res)
        if how == "series_corr":  # nanops' pearson: NaN for constants, clipped
            res = np.clip(co / np.sqrt(m2 * m2.T), -1.0, 1.0)
            res = np.where((m2 == 0) | (m2.T == 0) | (n < 2), np.nan, res)
            return np.where(n < (1 if min_periods is None else min_periods), np.nan, res)
        if how == "series_cov":  # np.cov(a, b, ddof) on the valid pairs
            fact = n - ddof
            res = co * np.where(fact > 0, 1.0 / np.where(fact > 0, fact, 1), np.inf)
            return np.where(n < (1 if min_periods is None else min_periods), np.nan, res)
        # corrwith: demeaned products over (count - 1) * std * std
        res = co / np.sqrt(m2 * m2.T)
        return np.where(n < 2, np.nan, res)


class _Pairs:
    """A TreeStat kernel: pairwise statistics; the result picks ``pick`` pairs or all."""

    @staticmethod
    def map(frame, kw):
        return pair_stats(_matrix(frame))

    @staticmethod
    def combine(parts, kw):
        merged = parts[0]
        for p in parts[1:]:
            merged = merge_pair_stats(merged, p)
        return merged

    @staticmethod
    def finish(part, kw):
        res = finish_pairs(part, kw["how"], kw.get("min_periods"), kw.get("ddof", 1))
        if kw.get("pick") is None:
            return res
        rows, cols = kw["pick"]
        return res[list(rows), list(cols)]


_KERNELS["pairs"] = _Pairs


class PairMatrix(TreeStat):
    """The k x k corr / cov matrix of a frame: one chunk."""

    def execute(self, *values):
        if self.stage != "final":
            return super().execute(*values)
        merged = _Pairs.combine(list(values), self.kw) if len(values) > 1 else values[0]
        res = _Pairs.finish(merged, dict(self.kw))
        labels = self.labels.value
        return pd.DataFrame(res, index=labels.copy(), columns=labels)

    def tile(self, ctx, out):
        level = self.partials(row_chunks(ctx[out.inputs[0]]))
        return single(out, ChunkData(self.new(stage="final"), level, out.shape, out.meta, (0, 0)))


def _numeric_pandas_check(meta, call, kw):
    """pandas' own errors: on the empty meta and on a one-row sample (strings fail there)."""
    getattr(meta, call)(**kw)
    getattr(sample_of(meta), call)(**kw)


class GatherCall(Operand):
    """``getattr(first, call)(*rest, **kwargs)`` on whole inputs gathered into one chunk."""

    _params = ("call", "kwargs", "result_meta")

    def execute(self, *values):
        res = getattr(values[0], self.call)(*values[1:], **dict(self.kwargs))
        return res

    def tile(self, ctx, out):
        chunks = [whole_chunk(ctx[i], i.meta) for i in out.inputs]
        return single(out, ChunkData(self.new(), chunks, out.shape, out.meta, (0,) * out.ndim))


def _gathered(inputs, call, kwargs, result, label):
    op = GatherCall(call=call, kwargs=tuple(kwargs.items()), result_meta=_Meta(result), label=label)
    if isinstance(result, (pd.DataFrame, pd.Series)):
        return new_frame(op, inputs, len(result), result.iloc[:0])
    return new_tensor(op, inputs, (), np.float64)


@methods(DataFrame)
@quietly
def corr(obj, method="pearson", min_periods=1, numeric_only=False):
    """Pairwise correlation of columns (pairwise-complete observations)."""
    kw = {"method": method, "min_periods": min_periods, "numeric_only": numeric_only}
    _numeric_pandas_check(obj.data.meta, "corr", kw)
    frame = obj.data.meta._get_numeric_data() if numeric_only else obj.data.meta
    if list(frame.columns) != list(obj.data.meta.columns):
        obj = obj[list(frame.columns)]
    result = frame.corr(**kw)
    if method != "pearson":
        return _gathered([obj], "corr", kw, result, "md.corr")
    return _matrix_result(obj, result, {"how": "corr", "min_periods": min_periods}, "md.corr")


@methods(DataFrame)
@quietly
def cov(obj, min_periods=None, ddof=1, numeric_only=False):
    """Pairwise covariance of columns (pandas' rules with and without missing values)."""
    kw = {"min_periods": min_periods, "ddof": ddof, "numeric_only": numeric_only}
    _numeric_pandas_check(obj.data.meta, "cov", kw)
    frame = obj.data.meta._get_numeric_data() if numeric_only else obj.data.meta
    if list(frame.columns) != list(obj.data.meta.columns):
        obj = obj[list(frame.columns)]
    return _matrix_result(obj, frame.cov(**kw), {"how": "cov", "min_periods": min_periods, "ddof": ddof},
                          "md.cov")


def _matrix_result(obj, result, kw, label):
    op = PairMatrix(kernel="pairs", kw=kw, labels=Labels(result.columns), dtype=np.dtype(np.float64),
                    result_name=None, label=label)
    return new_frame(op, [obj], len(result), result.iloc[:0])


# --- pairs of columns: Series.corr / cov, autocorr, corrwith --------------------------------

def _floats(v) -> np.ndarray:
    return v.to_numpy(dtype=np.float64, na_value=np.nan)


def join_columns(left, right, check_index: bool):
    """Row blocks of two row-aligned objects side by side, as float columns 0..n-1."""
    if check_index and not left.index.equals(right.index):
        raise NotImplementedError("correlating objects with different indexes (aligning them by label) "
                                  "is not supported; only the same index is")
    parts = [left] if isinstance(left, pd.Series) else [left.iloc[:, i] for i in range(left.shape[1])]
    parts += [right] if isinstance(right, pd.Series) else [right.iloc[:, i] for i in range(right.shape[1])]
    return pd.DataFrame({i: _floats(p) for i, p in enumerate(parts)}, index=pd.RangeIndex(len(left)))


def _joined(left, right, check_index=True):
    from .align import index_relation

    if check_index and index_relation(left, right) != "same":  # pandas pairs rows by label
        left, right = left.align(right, join="inner", axis=0)
    meta = join_columns(left.data.meta, right.data.meta, False)
    return map_chunks(join_columns, (left, right, check_index), label="md.corr", meta=meta)


def _pair_scalar(left, right, kw, label, check_index=True):
    kw = {**kw, "pick": ((0,), (1,))}
    return tree_stat(_joined(left, right, check_index), "pairs", kw, np.float64(0), label)


def _check_numeric_series(obj, other):
    for s in (obj, other):
        if not isinstance(s, Series):
            raise TypeError(f"other must be a Series, not {type(s).__name__}")
    sample = sample_of(obj.data.meta)
    sample.corr(sample_of(other.data.meta).set_axis(sample.index))


@methods(Series, name="corr")
@quietly
def series_corr(obj, other, method="pearson", min_periods=None):
    """Correlation with another Series of the same index (pairwise-complete observations)."""
    obj.data.meta.corr(other.data.meta, method=method, min_periods=min_periods)
    _check_numeric_series(obj, other)
    if method != "pearson":
        return _gathered([obj, other], "corr", {"method": method, "min_periods": min_periods},
                         np.float64(0), "md.corr")
    return _pair_scalar(obj, other, {"how": "series_corr", "min_periods": min_periods}, "md.corr")


@methods(Series, name="cov")
@quietly
def series_cov(obj, other, min_periods=None, ddof=1):
    """Covariance with another Series of the same index."""
    obj.data.meta.cov(other.data.meta, min_periods=min_periods, ddof=ddof)
    _check_numeric_series(obj, other)
    return _pair_scalar(obj, other, {"how": "series_cov", "min_periods": min_periods, "ddof": ddof},
                        "md.cov")


@methods(Series)
@quietly
def autocorr(obj, lag=1):
    """Lag-``lag`` autocorrelation: the correlation of the values with themselves shifted."""
    lag = int(lag)
    _check_numeric_series(obj, obj)
    if lag == 0:
        a, b = obj, obj
    elif lag > 0:
        a, b = obj.iloc[lag:], obj.iloc[:-lag]
    else:
        a, b = obj.iloc[:lag], obj.iloc[-lag:]
    return _pair_scalar(a, b, {"how": "series_corr", "min_periods": None}, "md.autocorr", check_index=False)


@methods(DataFrame)
@quietly
def corrwith(obj, other, axis=0, drop=False, method="pearson", numeric_only=False, min_periods=None):
    """Correlation of each column with a Series or with the same-named column of a frame."""
    meta = obj.data.meta
    if not isinstance(other, (DataFrame, Series)):
        raise TypeError(f"other must be a DataFrame or Series, not {type(other).__name__}")
    kw = {"axis": axis, "drop": drop, "method": method, "numeric_only": numeric_only}
    if min_periods is not None:
        kw["min_periods"] = min_periods
    result = meta.corrwith(other.data.meta, **kw)
    sample = sample_of(meta).corrwith(sample_of(other.data.meta).set_axis(sample_of(meta).index), **kw)
    if check_axis(obj, axis) == 1:  # row by row: block by block (a Series other is whole in each)
        bcast = (other,) if isinstance(other, Series) else ()
        return map_chunks(_corrwith_rows, (obj, other), kw, broadcast=bcast, label="md.corrwith",
                          meta=result.iloc[:0].astype(np.float64))  # (empty inputs give object)
    if method != "pearson":
        return _gathered([obj, other], "corrwith", kw, sample, "md.corrwith")
    this = obj[list(meta._get_numeric_data().columns)] if numeric_only else obj
    if isinstance(other, Series):
        cols = list(this.data.meta.columns)
        k = len(cols)
        pick = (tuple(range(k)), (k,) * k)
        how = "series_corr"
    else:
        right = other.data.meta._get_numeric_data() if numeric_only else other.data.meta
        cols = [c for c in sample.index if c in this.data.meta.columns and c in right.columns]
        this, other = this[cols], other[cols]
        k = len(cols)
        pick = (tuple(range(k)), tuple(range(k, 2 * k)))
        how = "corrwith"
    values = tree_stat(_joined(this, other), "pairs", {"how": how, "min_periods": min_periods, "pick": pick},
                       pd.Series(np.zeros(k), index=pd.Index(cols, dtype=result.index.dtype)), "md.corrwith")
    if len(cols) == len(result):
        return values
    return map_chunks(_reindexed, (values, tuple(result.index)), label="md.corrwith", meta=result.iloc[:0],
                      keep_rows=False)


def _corrwith_rows(left, right, **kw):
    if isinstance(right, pd.DataFrame) and not left.index.equals(right.index):
        raise NotImplementedError("corrwith of frames with different indexes is not supported")
    return left.corrwith(right, **kw)


def _reindexed(series, labels):
    return series.reindex(pd.Index(list(labels)))

"""idxmin / idxmax: the label of the first smallest / largest value, by a tree reduction.

Each chunk keeps, per column, its candidate rows: the first extreme valid value and the first
missing one (both with their labels, in row order). Merged candidates are reduced the same way,
and the last step runs pandas' own ``idxmin`` / ``idxmax`` on each column's few candidates:
the first extreme of the candidates in chunk order is the first extreme of the column, and
pandas' errors and warnings (all missing, missing with ``skipna=False``, empty) are its own.
Along the columns (``axis=1``) each row block is answered by pandas.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..tensor.core import new_tensor
from .core import DataFrame, Series, methods, new_frame
from .scan import sample
from .stats import _KERNELS, Labels, TreeStat, check_axis, rowwise, scalar_dtype

__all__: list[str] = []


def _candidates(s: pd.Series, how: str) -> pd.Series:
    """The first extreme valid value and the first missing value of ``s``, in row order."""
    missing = s.isna().to_numpy()
    picks = []
    if missing.any():
        picks.append(int(np.argmax(missing)))
    valid = np.flatnonzero(~missing)
    if len(valid):
        best = getattr(s.iloc[valid].reset_index(drop=True), how)()
        picks.append(int(valid[best]))
    return s.iloc[sorted(picks)]


class _ArgExtreme:
    """Per column, the candidate rows (a list of small Series) of ``kw['how']``."""

    @staticmethod
    def map(frame, kw):
        return [_candidates(frame.iloc[:, j], kw["how"]) for j in range(frame.shape[1])]

    @staticmethod
    def combine(parts, kw):
        return [_candidates(pd.concat([p[j] for p in parts]), kw["how"]) for j in range(len(parts[0]))]

    @staticmethod
    def finish(part, kw):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # pandas 2.2: NaN for missing values
            return [getattr(c, kw["how"])(skipna=kw["skipna"]) for c in part]


_KERNELS["argextreme"] = _ArgExtreme


class IdxExtreme(TreeStat):
    """TreeStat whose labels keep their type (pandas 2.2 gives NaN for a missing column)."""

    def execute(self, *values):
        if self.stage != "final":
            return super().execute(*values)
        kw = dict(self.kw)
        merged = _ArgExtreme.combine(list(values), kw) if len(values) > 1 else values[0]
        res = _ArgExtreme.finish(merged, kw)
        if self.labels is None:
            return res[0]
        out = pd.Series(res, index=self.labels.value, name=self.result_name)
        if out.isna().any():
            return out.infer_objects()
        return out.astype(self.dtype)


def _idx(obj, how, axis, skipna, numeric_only):
    axis = check_axis(obj, axis)
    kw = {"skipna": skipna}
    if obj.shape[0] == 0 and axis == 0:
        getattr(obj.data.meta, how)(**kw)  # pandas' error for an empty sequence
    if isinstance(obj, DataFrame):
        kw["numeric_only"] = numeric_only
        if axis == 1:
            return rowwise(obj, how, kw)
        meta = obj.data.meta
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            result = getattr(sample(meta), how)(**kw)  # pandas' errors, labels and dtype
        frame = obj[list(result.index)] if numeric_only else obj
        labels = result.index
        result = pd.Series(meta.index[:0], index=labels[:0])  # labels of the index's dtype
        op = IdxExtreme(kernel="argextreme", kw={"how": how, "skipna": skipna}, labels=Labels(labels),
                        dtype=result.dtype, result_name=None, raw=True, label=f"md.{how}")
        return new_frame(op, [frame], len(labels), result)
    getattr(sample(obj.data.meta), how)(**kw)  # pandas' errors
    dtype = scalar_dtype(obj.data.meta.index[:0].to_numpy())
    op = IdxExtreme(kernel="argextreme", kw={"how": how, "skipna": skipna}, labels=None, dtype=dtype,
                    raw=False, label=f"md.{how}")
    return new_tensor(op, [obj], (), dtype)


@methods(DataFrame, Series)
def idxmin(obj, axis=0, skipna=True, numeric_only=False, *args, **kwargs):
    """The label of the first smallest value (of each column, or of each row with ``axis=1``)."""
    return _idx(obj, "idxmin", axis, skipna, numeric_only)


@methods(DataFrame, Series)
def idxmax(obj, axis=0, skipna=True, numeric_only=False, *args, **kwargs):
    """The label of the first largest value (of each column, or of each row with ``axis=1``)."""
    return _idx(obj, "idxmax", axis, skipna, numeric_only)

"""Missing values: isna / notna, fillna with a value, dropna of rows."""
from __future__ import annotations

from .blockwise import map_chunks
from .rules.usage import same_as_output, uses

__all__: list[str] = []


def _isna(obj):
    return obj.isna()


def _notna(obj):
    return obj.notna()


def _fillna(obj, value):
    return obj.fillna(value)


def _dropna(obj, kwargs):
    return obj.dropna(**kwargs)


uses(_isna, rows="same")(same_as_output)
uses(_notna, rows="same")(same_as_output)
uses(_fillna, rows="same")(same_as_output)  # a dict of fill values may name absent columns


@uses(_dropna, rows="subset", passthrough=True)
def _dropna_columns(node, needed):
    subset = node.op.args[1].get("subset")
    if subset is None or needed is None:  # every column decides whether a row is dropped
        return [None]
    return [needed | set([subset] if isinstance(subset, str) else subset)]


def isna(obj):
    """True where a value is missing."""
    return map_chunks(_isna, (obj,), label="md.isna")


def notna(obj):
    """True where a value is present."""
    return map_chunks(_notna, (obj,), label="md.notna")


def fillna(obj, value):
    """Replace missing values with a scalar (or a column -> value dict)."""
    if isinstance(value, (dict,)) or not hasattr(value, "shape"):
        return map_chunks(_fillna, (obj, value), label="md.fillna", validate=True)
    raise NotImplementedError("fillna with a Series / DataFrame value is not supported yet")


def dropna(obj, how="any", subset=None, thresh=None):
    """Drop rows with missing values (``axis=0`` only)."""
    kwargs = {"subset": subset} if subset is not None else {}
    kwargs.update({"thresh": thresh} if thresh is not None else {"how": how})
    return map_chunks(_dropna, (obj, kwargs), keep_rows=False, label="md.dropna")

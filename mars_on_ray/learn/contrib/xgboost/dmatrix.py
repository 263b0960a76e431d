"""MarsDMatrix: XGBoost training data as lazy mars objects, sharded over workers at train."""
from __future__ import annotations

import numpy as np

from ....core.user import Tileable
from .._shards import as_lazy, check_rows, rows_per_block

_FIELDS = ("data", "label", "weight", "base_margin")


class MarsDMatrix:
    """XGBoost's ``DMatrix`` over mars tensors / DataFrames (or NumPy / pandas data).

    Nothing is computed here: :func:`train` executes the inputs and each worker builds an
    ``xgboost.DMatrix`` from the row blocks of its shard.
    """

    def __init__(self, data, label=None, missing=None, weight=None, base_margin=None,
                 feature_names=None, feature_types=None, enable_categorical=False):
        if isinstance(data, MarsDMatrix):
            raise TypeError("data is already a MarsDMatrix")
        rows = None if isinstance(data, Tileable) else rows_per_block(data)
        self.data = as_lazy(data, "data", 2, rows)
        self.label = as_lazy(label, "label", 1, rows)
        self.weight = as_lazy(weight, "weight", 1, rows)
        self.base_margin = as_lazy(base_margin, "base_margin", None, rows)
        check_rows(self.fields())
        self.missing = np.nan if missing is None else missing
        self.feature_names = feature_names
        self.feature_types = feature_types
        self.enable_categorical = enable_categorical

    def fields(self) -> dict:
        return {k: getattr(self, k) for k in _FIELDS if getattr(self, k) is not None}

    def dmatrix_kwargs(self) -> dict:
        return {"missing": self.missing, "feature_names": self.feature_names,
                "feature_types": self.feature_types, "enable_categorical": self.enable_categorical}

    def num_row(self):
        return self.data.shape[0]

    def num_col(self):
        return self.data.shape[1]

    def __repr__(self) -> str:
        return f"MarsDMatrix(shape={self.data.shape}, fields={list(self.fields())})"


def to_dmatrix(data, **kwargs) -> MarsDMatrix:
    """``data`` as a MarsDMatrix (returned as is when it is one)."""
    return data if isinstance(data, MarsDMatrix) else MarsDMatrix(data, **kwargs)

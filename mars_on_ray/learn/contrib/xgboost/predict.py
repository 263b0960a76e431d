"""Lazy XGBoost prediction, chunk by chunk."""
from __future__ import annotations

from .._extras import require
from .._predict import predict_rows


def _load_booster(raw: bytes):
    import xgboost as xgb

    return xgb.Booster(model_file=bytearray(raw))


def _booster_predict(booster, block, **kwargs):
    import xgboost as xgb

    return booster.predict(xgb.DMatrix(block, missing=kwargs.pop("missing"),
                                       enable_categorical=kwargs.pop("enable_categorical")),
                           **kwargs)


def predict(model, data, output_margin: bool = False, validate_features: bool = True,
            iteration_range=None, pred_leaf: bool = False, pred_contribs: bool = False,
            strict_shape: bool = False, missing=None, enable_categorical: bool = False,
            base_margin=None, **kwargs):
    """``model.predict`` (an ``xgboost.Booster``) on ``data`` row block by row block: a lazy
    tensor with ``data``'s rows (``Booster.predict``'s values; execute or fetch it)."""
    import numpy as np

    xgb = require("xgboost", "xgboost")
    kwargs.pop("session", None), kwargs.pop("run_kwargs", None), kwargs.pop("run", None)
    if kwargs:
        raise TypeError(f"predict() got an unexpected keyword argument {next(iter(kwargs))!r}")
    if not isinstance(model, xgb.Booster):
        raise TypeError(f"model has to be a xgboost.Booster, got {type(model).__name__} instead")
    if base_margin is not None:
        raise NotImplementedError("predict with base_margin is not supported; add the margin "
                                  "to output_margin=True predictions instead")
    opts = {"output_margin": output_margin, "validate_features": validate_features,
            "pred_leaf": pred_leaf, "pred_contribs": pred_contribs, "strict_shape": strict_shape,
            "missing": np.nan if missing is None else missing,
            "enable_categorical": enable_categorical}
    if iteration_range is not None:
        opts["iteration_range"] = tuple(iteration_range)
    return predict_rows(_booster_predict, _load_booster, bytes(model.save_raw("ubj")), data,
                        kwargs=opts, label="xgboost.predict")

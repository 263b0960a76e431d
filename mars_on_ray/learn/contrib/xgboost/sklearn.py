"""XGBClassifier / XGBRegressor: XGBoost's scikit-learn estimators trained distributed.

They extend XGBoost's own classes, so parameters, ``get_params`` / ``set_params``,
``sklearn.base.clone`` and the fitted attributes are XGBoost's; ``fit`` trains with
:func:`train` on shards, ``predict`` / ``predict_proba`` return lazy tensors computed block
by block with XGBoost's own single-process method.
"""
from __future__ import annotations

import numpy as np
import xgboost

from .._labels import classes_of
from .._predict import estimator_method, pickled, predict_rows, unpickle
from .dmatrix import MarsDMatrix
from .train import train


def _eval_matrices(est, X, y, sample_weight, base_margin, eval_set, sample_weight_eval_set,
                   base_margin_eval_set):
    """The training MarsDMatrix and the (MarsDMatrix, name) evaluation pairs."""
    dtrain = MarsDMatrix(X, label=y, weight=sample_weight, base_margin=base_margin,
                         missing=est.missing, feature_types=est.feature_types,
                         enable_categorical=est.enable_categorical)
    if eval_set is None:
        if sample_weight_eval_set is not None or base_margin_eval_set is not None:
            raise ValueError("`eval_set` is not set but one of the other evaluation meta info "
                             "is not None.")
        return dtrain, []
    n = len(eval_set)

    def per_eval(meta, name):
        if meta is None:
            return [None] * n
        if len(meta) != n:
            raise ValueError(f"{name}'s length does not equal `eval_set`'s length, expecting "
                             f"{n}, got {len(meta)}")
        return meta

    weights = per_eval(sample_weight_eval_set, "sample_weight_eval_set")
    margins = per_eval(base_margin_eval_set, "base_margin_eval_set")
    evals = []
    for i, (vx, vy) in enumerate(eval_set):
        if vx is X and vy is y and weights[i] is sample_weight and margins[i] is base_margin:
            dm = dtrain
        else:
            dm = MarsDMatrix(vx, label=vy, weight=weights[i], base_margin=margins[i],
                             missing=est.missing, feature_types=est.feature_types,
                             enable_categorical=est.enable_categorical)
        evals.append((dm, f"validation_{i}"))
    return dtrain, evals


class _Distributed:
    """What the two estimators share: distributed fit, lazy block-wise prediction."""

    _local: type  # the XGBoost class whose single-process methods run on each block

    def _fit(self, X, y, params, *, sample_weight, base_margin, eval_set, verbose, xgb_model,
             sample_weight_eval_set, base_margin_eval_set, feature_weights, n_workers, session,
             dtrain=None, evals=None):
        if dtrain is None:
            dtrain, evals = _eval_matrices(self, X, y, sample_weight, base_margin, eval_set,
                                           sample_weight_eval_set, base_margin_eval_set)
        obj = None
        if callable(self.objective):
            from xgboost.sklearn import _objective_decorator

            obj = _objective_decorator(self.objective)
            params["objective"] = "reg:squarederror" if self._local is xgboost.XGBRegressor \
                else "binary:logistic"
        model, metric, params, feature_weights = self._configure_fit(xgb_model, params, feature_weights)
        if feature_weights is not None:
            raise NotImplementedError("feature_weights are not supported in distributed training")
        history: dict = {}
        self._Booster = train(params, dtrain, self.get_num_boosting_rounds(), evals=evals,
                              early_stopping_rounds=self.early_stopping_rounds,
                              evals_result=history, obj=obj, custom_metric=metric,
                              verbose_eval=verbose, xgb_model=model, callbacks=self.callbacks,
                              n_workers=n_workers, session=session)
        if not callable(self.objective):
            self.objective = params["objective"]
        self._set_evaluation_result(history)
        return self

    def _lazy(self, method: str, X, **kwargs):
        return predict_rows(estimator_method, unpickle, pickled(self), X,
                            kwargs={"method": method, "base": self._local, **kwargs},
                            label=f"{type(self).__name__}.{method}")

    def predict(self, X, output_margin: bool = False, validate_features: bool = True,
                iteration_range=None, **kwargs):
        """Predictions for ``X`` as a lazy tensor, computed block by block."""
        _no_session_args(kwargs)
        opts = {"output_margin": output_margin, "validate_features": validate_features}
        if iteration_range is not None:
            opts["iteration_range"] = tuple(iteration_range)
        return self._lazy("predict", X, **opts)

    def apply(self, X, iteration_range=None):
        """The leaf index of each sample in each tree, as a lazy tensor."""
        opts = {} if iteration_range is None else {"iteration_range": tuple(iteration_range)}
        return self._lazy("apply", X, **opts)


def _no_session_args(kwargs: dict) -> None:
    for name in ("session", "run_kwargs", "run"):  # Mars' execution options: nothing to do
        kwargs.pop(name, None)
    if kwargs:
        raise TypeError(f"got an unexpected keyword argument {next(iter(kwargs))!r}")


class XGBRegressor(_Distributed, xgboost.XGBRegressor):
    """XGBoost's regressor trained on Ray workers, one per data shard."""

    _local = xgboost.XGBRegressor

    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None, verbose=True,
            xgb_model=None, sample_weight_eval_set=None, base_margin_eval_set=None,
            feature_weights=None, n_workers=None, session=None, **kwargs):
        """Fit on ``X`` / ``y`` (tensors, DataFrames, NumPy or pandas) distributed."""
        _no_session_args(kwargs)
        return self._fit(X, y, self.get_xgb_params(), sample_weight=sample_weight,
                         base_margin=base_margin, eval_set=eval_set, verbose=verbose,
                         xgb_model=xgb_model, sample_weight_eval_set=sample_weight_eval_set,
                         base_margin_eval_set=base_margin_eval_set,
                         feature_weights=feature_weights, n_workers=n_workers, session=session)


class XGBClassifier(_Distributed, xgboost.XGBClassifier):
    """XGBoost's classifier trained on Ray workers, one per data shard. Labels must be
    0..n_classes-1, as XGBoost requires."""

    _local = xgboost.XGBClassifier

    def fit(self, X, y, *, sample_weight=None, base_margin=None, eval_set=None, verbose=True,
            xgb_model=None, sample_weight_eval_set=None, base_margin_eval_set=None,
            feature_weights=None, n_workers=None, session=None, **kwargs):
        """Fit on ``X`` / ``y`` (tensors, DataFrames, NumPy or pandas) distributed."""
        _no_session_args(kwargs)
        dtrain, evals = _eval_matrices(self, X, y, sample_weight, base_margin, eval_set,
                                       sample_weight_eval_set, base_margin_eval_set)
        classes = classes_of(dtrain.label)
        self.n_classes_ = len(classes)
        expected = np.arange(self.n_classes_)
        if classes.shape != expected.shape or not (classes == expected).all():
            raise ValueError("Invalid classes inferred from unique values of `y`.  "
                             f"Expected: {expected}, got {classes}")
        params = self.get_xgb_params()
        if self.n_classes_ > 2:
            if params.get("objective") != "multi:softmax":
                params["objective"] = "multi:softprob"
            params["num_class"] = self.n_classes_
        return self._fit(X, y, params, sample_weight=sample_weight, base_margin=base_margin,
                         eval_set=eval_set, verbose=verbose, xgb_model=xgb_model,
                         sample_weight_eval_set=sample_weight_eval_set,
                         base_margin_eval_set=base_margin_eval_set,
                         feature_weights=feature_weights, n_workers=n_workers,
                         session=session, dtrain=dtrain, evals=evals)

    def predict_proba(self, X, validate_features: bool = True, iteration_range=None, **kwargs):
        """Class probabilities for ``X`` as a lazy (n_samples, n_classes) tensor."""
        _no_session_args(kwargs)
        opts = {"validate_features": validate_features}
        if iteration_range is not None:
            opts["iteration_range"] = tuple(iteration_range)
        return self._lazy("predict_proba", X, **opts)

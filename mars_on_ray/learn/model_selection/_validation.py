"""``cross_validate`` / ``cross_val_score`` for this package's estimators, fold by fold: each
fold's rows are taken lazily, a clone is fitted on them (its fit runs its own graphs) and
scored by this package's metrics, so no fold is gathered into one place."""
from __future__ import annotations

import numbers
import time
import warnings

import numpy as np
from sklearn.base import ClassifierMixin, RegressorMixin, clone, is_classifier
from sklearn.exceptions import FitFailedWarning

from .._compute import as_lazy, compute_now, n_rows
from .._convert import is_lazy
from ._split import KFold, StratifiedKFold, _rows

__all__ = ["cross_validate", "cross_val_score", "check_cv"]


def _metric(name):
    from .. import metrics

    return getattr(metrics, name)


# scores of the positive class: decision_function, else predict_proba's second column
_THRESHOLDED = ("decision_function", "predict_proba")
# scorer name -> (metric, sign, method(s) giving its second argument[, metric keywords])
_SCORERS = {
    "accuracy": ("accuracy_score", 1, "predict"),
    "balanced_accuracy": ("balanced_accuracy_score", 1, "predict"),
    "f1": ("f1_score", 1, "predict"),
    "f1_macro": ("f1_score", 1, "predict", {"average": "macro"}),
    "f1_micro": ("f1_score", 1, "predict", {"average": "micro"}),
    "f1_weighted": ("f1_score", 1, "predict", {"average": "weighted"}),
    "precision": ("precision_score", 1, "predict"),
    "recall": ("recall_score", 1, "predict"),
    "matthews_corrcoef": ("matthews_corrcoef", 1, "predict"),
    "r2": ("r2_score", 1, "predict"),
    "explained_variance": ("explained_variance_score", 1, "predict"),
    "max_error": ("max_error", -1, "predict"),
    "neg_mean_squared_error": ("mean_squared_error", -1, "predict"),
    "neg_root_mean_squared_error": ("root_mean_squared_error", -1, "predict"),
    "neg_mean_absolute_error": ("mean_absolute_error", -1, "predict"),
    "neg_median_absolute_error": ("median_absolute_error", -1, "predict"),
    "neg_mean_squared_log_error": ("mean_squared_log_error", -1, "predict"),
    "neg_mean_absolute_percentage_error": ("mean_absolute_percentage_error", -1, "predict"),
    "neg_log_loss": ("log_loss", -1, "predict_proba"),
    "roc_auc": ("roc_auc_score", 1, _THRESHOLDED),
    "average_precision": ("average_precision_score", 1, _THRESHOLDED),
    "roc_auc_ovr": ("roc_auc_score", 1, "predict_proba", {"multi_class": "ovr"}),
    "roc_auc_ovo": ("roc_auc_score", 1, "predict_proba", {"multi_class": "ovo"}),
}


def _scorer(scoring):
    """A callable ``(estimator, X, y) -> float`` for a scorer name, a callable or None."""
    if scoring is None:
        return _default_score
    if callable(scoring):
        return scoring
    if scoring not in _SCORERS:
        raise ValueError(f"{scoring!r} is not a valid scoring value (mars_on_ray supports: "
                         f"{sorted(_SCORERS)} or a callable)")
    return _Named(scoring)


class _Named:
    def __init__(self, name):
        self.name = name

    def __call__(self, estimator, X, y):
        metric, sign, method, *kwargs = _SCORERS[self.name]
        thresholded = isinstance(method, tuple)
        if thresholded:  # scikit-learn's response_method order
            method = next((m for m in method if hasattr(estimator, m)), method[-1])
        scores = getattr(estimator, method)(X)
        if thresholded and method == "predict_proba" and scores.ndim == 2 and scores.shape[1] == 2:
            scores = scores[:, 1]  # the positive class's
        value = _metric(metric)(y, scores, **(kwargs[0] if kwargs else {}))
        return sign * _now(value)


def _now(value):
    return float(compute_now(value)) if is_lazy(value) else float(value)


def _default_score(estimator, X, y):
    """``estimator.score``; the mixins' accuracy / R^2 by this package's (lazy) metrics."""
    own = type(estimator).score
    if own is ClassifierMixin.score:
        return _now(_metric("accuracy_score")(y, estimator.predict(X)))
    if own is RegressorMixin.score:
        return _now(_metric("r2_score")(y, estimator.predict(X)))
    return _now(estimator.score(X, y))


def check_cv(cv=5, y=None, *, classifier=False):
    """A cross-validator of this package: ints give (Stratified)KFold as scikit-learn's."""
    cv = 5 if cv is None else cv
    if isinstance(cv, numbers.Integral):
        if classifier and y is not None:
            from ..utils.multiclass import type_of_target

            kind = type_of_target(y)
            if str(compute_now(kind) if is_lazy(kind) else kind) in ("binary", "multiclass"):
                return StratifiedKFold(cv)
        return KFold(cv)
    if not hasattr(cv, "split") and hasattr(cv, "__iter__"):
        return list(cv)
    return cv


def _folds(cv, X, y, groups):
    if isinstance(cv, list):
        return cv
    return list(cv.split(X, y, groups))


def _fold_param(value, train, n):
    """A fit parameter for one fold: per-row values (``sample_weight``) taken at ``train``."""
    if isinstance(value, (list, tuple)):
        value = np.asarray(value)
    if not hasattr(value, "shape") or len(value.shape) == 0 or value.shape[0] != n:
        return value
    return _rows(as_lazy(value), train)


def cross_validate(estimator, X, y=None, *, groups=None, scoring=None, cv=None, n_jobs=None, verbose=0,
                   params=None, pre_dispatch="2*n_jobs", return_train_score=False, return_estimator=False,
                   return_indices=False, error_score=np.nan):
    """Fit and score ``estimator`` on each fold, as scikit-learn's ``cross_validate`` (the
    folds run one after the other; each fit and score runs on the default session)."""
    X = as_lazy(X)
    y = None if y is None else as_lazy(y)
    splitter = check_cv(cv, y, classifier=is_classifier(estimator))
    folds = _folds(splitter, X, y, groups)
    multi = isinstance(scoring, (list, tuple, set, dict))
    if multi:
        names = list(scoring)
        scorers = {n: (_scorer(scoring[n]) if isinstance(scoring, dict) else _scorer(n)) for n in names}
    else:
        scorers = {"score": _scorer(scoring)}
    result = {"fit_time": [], "score_time": []}
    keys = [f"{kind}_{n}" for n in scorers for kind in (("test", "train") if return_train_score else ("test",))]
    result.update({k: [] for k in keys})
    estimators = []
    n_samples = n_rows(X)
    for train, test in folds:
        est = clone(estimator)
        fit_params = {k: _fold_param(v, train, n_samples) for k, v in (params or {}).items()}
        start = time.time()
        try:
            est.fit(_rows(X, train), None if y is None else _rows(y, train), **fit_params)
        except Exception as exc:
            if error_score == "raise":
                raise
            if not isinstance(error_score, numbers.Number):
                raise ValueError("error_score must be the string 'raise' or a numeric value.") from exc
            warnings.warn(f"Estimator fit failed. The score on this train-test partition will be set to "
                          f"{error_score}. Details: \n{type(exc).__name__}: {exc}", FitFailedWarning)
            result["fit_time"].append(time.time() - start)
            result["score_time"].append(0.0)
            for k in keys:
                result[k].append(error_score)
            estimators.append(est)
            continue
        result["fit_time"].append(time.time() - start)
        start = time.time()
        for n, scorer in scorers.items():
            y_test = None if y is None else _rows(y, test)
            result[f"test_{n}"].append(scorer(est, _rows(X, test), y_test))
            if return_train_score:
                result[f"train_{n}"].append(scorer(est, _rows(X, train), None if y is None else _rows(y, train)))
        result["score_time"].append(time.time() - start)
        estimators.append(est)
    out = {k: np.asarray(v) for k, v in result.items()}
    if return_estimator:
        out["estimator"] = estimators
    if return_indices:
        out["indices"] = {"train": [f[0] for f in folds], "test": [f[1] for f in folds]}
    return out


def cross_val_score(estimator, X, y=None, *, groups=None, scoring=None, cv=None, n_jobs=None, verbose=0,
                    params=None, pre_dispatch="2*n_jobs", error_score=np.nan):
    """The test score of each fold, as scikit-learn's ``cross_val_score``."""
    return cross_validate(estimator, X, y, groups=groups, scoring=scoring, cv=cv, params=params,
                          error_score=error_score)["test_score"]

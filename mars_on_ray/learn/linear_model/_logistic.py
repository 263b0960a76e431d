"""LogisticRegression by L-BFGS over chunked data: X and the label codes are executed once,
then every objective evaluation is one graph whose row blocks give scikit-learn's own loss and
gradient (``LinearModelLoss``) weighted by their sample weight, summed by a tree; the small
coefficient vector stays in the driver, where SciPy's L-BFGS-B runs with scikit-learn's
options, so the coefficients are scikit-learn's up to the order of additions."""
from __future__ import annotations

import numpy as np
from scipy import optimize
from sklearn import linear_model as sklm
from sklearn._loss.loss import HalfBinomialLoss, HalfMultinomialLoss
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.linear_model._base import SparseCoefMixin
from sklearn.linear_model._linear_loss import LinearModelLoss
from sklearn.utils.optimize import _check_optimize_result
from sklearn.utils.validation import check_is_fitted

from .._blocks import row_map, row_reduce
from .._compute import compute_now
from .._per_block import per_block
from ..utils.multiclass import type_of_target
from ..utils.validation import (check_consistent_length, check_sample_weight, column_or_1d, require_y,
                                validate_data)

__all__ = ["LogisticRegression"]

_FLOATS = [np.float64, np.float32]


def _model(n_classes, fit_intercept):
    base = HalfBinomialLoss() if n_classes == 2 else HalfMultinomialLoss(n_classes=n_classes)
    return LinearModelLoss(base_loss=base, fit_intercept=fit_intercept)


def _block_loss(X, codes, *w, coef, n_classes, fit_intercept, class_weight):
    """(weight sum x mean loss, weight sum x gradient, weight sum) of one row block."""
    sw = np.ones(len(X)) if not w else np.asarray(w[0], np.float64)
    if class_weight is not None:
        sw = sw * class_weight[codes.astype(np.int64)]
    if len(X) == 0 or sw.sum() == 0:
        return 0.0, np.zeros_like(coef), 0.0
    target = codes.astype(X.dtype)
    loss, grad = _model(n_classes, fit_intercept).loss_gradient(coef, X, target, sw.astype(X.dtype))
    total = float(sw.sum())
    return loss * total, grad * total, total


def _add(parts):
    return sum(p[0] for p in parts), sum(p[1] for p in parts), sum(p[2] for p in parts)


def _identity(x):
    return x


def _codes(block, *, classes):
    return np.searchsorted(classes, block).astype(np.float64)


def _counts(codes, *, n_classes):
    return np.bincount(codes.astype(np.int64), minlength=n_classes)


def _sum(parts):
    return sum(parts)


class LogisticRegression(SparseCoefMixin, ClassifierMixin, BaseEstimator):
    """L2-regularised (or unpenalised, ``C=np.inf``) logistic regression with the 'lbfgs'
    solver, as scikit-learn's: binomial for two classes, multinomial for more."""

    _parameter_constraints = sklm.LogisticRegression._parameter_constraints

    def __init__(self, penalty="deprecated", *, C=1.0, l1_ratio=0.0, dual=False, tol=1e-4, fit_intercept=True,
                 intercept_scaling=1, class_weight=None, random_state=None, solver="lbfgs", max_iter=100,
                 verbose=0, warm_start=False, n_jobs=None):
        self.penalty = penalty
        self.C = C
        self.l1_ratio = l1_ratio
        self.dual = dual
        self.tol = tol
        self.fit_intercept = fit_intercept
        self.intercept_scaling = intercept_scaling
        self.class_weight = class_weight
        self.random_state = random_state
        self.solver = solver
        self.max_iter = max_iter
        self.verbose = verbose
        self.warm_start = warm_start
        self.n_jobs = n_jobs

    def _inverse_strength(self):
        """C (np.inf: no penalty), after scikit-learn's parameter checks."""
        sk = sklm.LogisticRegression(**self.get_params())
        sk._validate_params()
        if self.dual:
            raise ValueError(f"Solver {self.solver} supports only dual=False, got dual=True")
        if self.solver != "lbfgs":
            raise NotImplementedError(f"LogisticRegression(solver={self.solver!r}): only 'lbfgs' is supported "
                                      "on chunked data")
        penalty = self.penalty
        if penalty == "deprecated":
            penalty = "l2" if not self.l1_ratio else ("l1" if self.l1_ratio == 1 else "elasticnet")
        if penalty not in ("l2", None):
            raise NotImplementedError(f"LogisticRegression with an {penalty} penalty: only L2 (l1_ratio=0) or "
                                      "none (C=np.inf) is supported on chunked data")
        return np.inf if penalty is None else self.C

    def _class_weights(self, classes, codes):
        cw = self.class_weight
        if cw is None:
            return None
        if cw == "balanced":
            counts = compute_now(row_reduce(_counts, _sum, _identity, [codes], dtype=object,
                                            kwargs={"n_classes": len(classes)}, label="LogisticRegression.fit"))
            return counts.sum() / (len(classes) * counts.astype(np.float64))
        out = np.ones(len(classes))
        for label, weight in cw.items():
            where = np.flatnonzero(classes == label)
            if not len(where):
                raise ValueError(f"The classes, {list(classes)}, are not in class_weight")
            out[where[0]] = weight
        return out

    def fit(self, X, y, sample_weight=None):
        """Minimise scikit-learn's objective by L-BFGS, one graph per evaluation."""
        C = self._inverse_strength()
        require_y(self, y)
        X = validate_data(self, X, reset=True, dtype=_FLOATS)
        y_t = column_or_1d(y, warn=True)  # a column: scikit-learn's DataConversionWarning, raveled
        check_consistent_length(X, y_t)
        sample_weight = check_sample_weight(sample_weight, X, dtype=_FLOATS)
        kind = type_of_target(y, input_name="y")
        kind = kind if isinstance(kind, str) else str(compute_now(kind))
        if kind not in ("binary", "multiclass"):
            raise ValueError(f"Unknown label type: {kind}. Maybe you are trying to fit a classifier, which "
                             "expects discrete classes on a regression target with continuous values.")
        from ..metrics._log_loss import distinct_labels

        classes = compute_now(distinct_labels(y_t))
        if len(classes) < 2:
            raise ValueError("This solver needs samples of at least 2 classes in the data, but the data contains "
                             f"only one class: {classes[0]!r}")
        X = X.execute()  # read once; every evaluation then starts from the stored blocks
        codes = row_map(_codes, [y_t], shape=y_t.shape, dtype=np.float64, kwargs={"classes": classes},
                        label="LogisticRegression.fit").execute()
        weights = [] if sample_weight is None else [sample_weight.execute()]
        class_weight = self._class_weights(classes, codes)
        K, d, fi = len(classes), int(X.shape[1]), int(self.fit_intercept)
        w0 = np.zeros(d + fi) if K == 2 else np.zeros((K, d + fi), order="F").ravel(order="F")
        if self.warm_start and getattr(self, "coef_", None) is not None and self.coef_.shape == (K if K > 2 else 1, d):
            start = np.column_stack([self.coef_, self.intercept_]) if fi else self.coef_
            w0 = start[0].copy() if K == 2 else np.asfortranarray(start).ravel(order="F")
        model = _model(K, self.fit_intercept)
        totals = {}

        def objective(coef):
            loss, grad, total = compute_now(row_reduce(
                _block_loss, _add, _identity, [X, codes, *weights], dtype=object,
                kwargs={"coef": coef, "n_classes": K, "fit_intercept": self.fit_intercept,
                        "class_weight": class_weight}, label="LogisticRegression.loss_gradient"))
            totals["sw"] = total
            l2 = 0.0 if np.isinf(C) else 1.0 / (C * total)
            w, _ = model.weight_intercept(coef)
            penalty_grad = np.zeros((K if K > 2 else 1, d + fi))
            penalty_grad[:, :d] = l2 * w.reshape(-1, d)
            pg = penalty_grad[0] if K == 2 else penalty_grad.ravel(order="F")
            return loss / total + model.l2_penalty(w, l2), grad / total + pg

        result = optimize.minimize(objective, w0, method="L-BFGS-B", jac=True,
                                   options={"maxiter": self.max_iter, "maxls": 50, "gtol": self.tol,
                                            "ftol": 64 * np.finfo(float).eps})
        n_iter = _check_optimize_result("lbfgs", result, self.max_iter)
        coef = result.x.reshape(1, -1) if K == 2 else result.x.reshape((K, d + fi), order="F")
        self.classes_ = classes
        self.coef_ = np.ascontiguousarray(coef[:, :d])
        self.intercept_ = coef[:, d] if self.fit_intercept else np.zeros(coef.shape[0])
        self.n_iter_ = np.asarray([n_iter], dtype=np.int32)
        self.n_features_in_ = d
        return self

    def _sk(self):
        sk = sklm.LogisticRegression(**self.get_params())
        for name in ("classes_", "coef_", "intercept_", "n_iter_", "n_features_in_"):
            setattr(sk, name, getattr(self, name))
        return sk

    def _per_block(self, method, X, **kwargs):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=_FLOATS)
        return per_block(self._sk(), method, X, label=f"LogisticRegression.{method}", **kwargs)

    def decision_function(self, X):
        """Lazy confidence scores (one column per class, one value for two classes)."""
        return self._per_block("decision_function", X)

    def predict_proba(self, X):
        """Lazy class probabilities."""
        return self._per_block("predict_proba", X)

    def predict_log_proba(self, X):
        """Lazy log class probabilities."""
        return self._per_block("predict_log_proba", X)

    def predict(self, X):
        """Lazy predicted classes."""
        check_is_fitted(self)
        return self._per_block("predict", X, rest_shape=(), dtype=self.classes_.dtype)

    def score(self, X, y, sample_weight=None):
        """Mean accuracy on (X, y), computed now."""
        from ..metrics import accuracy_score

        return float(compute_now(accuracy_score(y, self.predict(X), sample_weight=sample_weight)))

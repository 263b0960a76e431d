"""Ridge regression from the same one pass as LinearRegression: the small regularised normal
equations (X'X + alpha I) w = X'y of the centered (weighted) data, solved in memory."""
from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg
from sklearn import linear_model as sklm
from sklearn.base import BaseEstimator, MultiOutputMixin, RegressorMixin

from .._compute import compute_now
from ._base import linear_predict, nonnegative_solution, normal_equations, set_solution

__all__ = ["Ridge"]


class Ridge(MultiOutputMixin, RegressorMixin, BaseEstimator):
    """Linear least squares with L2 regularisation (scikit-learn's ``Ridge``); every solver
    name is accepted and the regularised normal equations are solved directly (``positive``:
    a non-negative least-squares solve)."""

    _parameter_constraints = sklm.Ridge._parameter_constraints

    def __init__(self, alpha=1.0, *, fit_intercept=True, copy_X=True, max_iter=None, tol=1e-4, solver="auto",
                 positive=False, random_state=None):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.copy_X = copy_X
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.positive = positive
        self.random_state = random_state

    def _check_params(self, n_features, y_ndim, n_targets):
        """scikit-learn's parameter errors (alpha, solver / positive, alpha per target), now."""
        rows = np.zeros((3, n_features))
        rows[np.arange(min(3, n_features)), np.arange(min(3, n_features))] = 1.0
        y = np.zeros(3) if y_ndim == 1 else np.zeros((3, n_targets))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sklm.Ridge(**self.get_params()).fit(rows, y)

    def fit(self, X, y, sample_weight=None):
        """Coefficients from one pass over [X, y] and a small solve."""
        self._validate_params()
        d, y, mean, Sxx, Sxy = normal_equations(self, X, y, sample_weight, "Ridge.fit")
        self._check_params(d, y.ndim, Sxy.shape[1])
        alpha = np.broadcast_to(np.asarray(self.alpha, dtype=np.float64).reshape(-1), (Sxy.shape[1],))
        eye = np.eye(d)
        if self.positive:
            coef = np.column_stack([nonnegative_solution(Sxx, Sxy[:, [j]], a) for j, a in enumerate(alpha)])
        else:
            coef = np.column_stack([scipy.linalg.solve(Sxx + a * eye, Sxy[:, j], assume_a="pos")
                                    for j, a in enumerate(alpha)])
        set_solution(self, coef, mean, d, y.ndim)
        self.n_iter_ = None
        self.solver_ = self.solver if self.solver != "auto" else ("lbfgs" if self.positive else "cholesky")
        return self

    def predict(self, X):
        """A lazy tensor of predictions."""
        return linear_predict(self, X)

    def score(self, X, y, sample_weight=None):
        """R^2 of the prediction on (X, y), computed now."""
        from ..metrics import r2_score

        return float(compute_now(r2_score(y, self.predict(X), sample_weight=sample_weight)))

"""LGBMClassifier / LGBMRegressor / LGBMRanker: LightGBM's scikit-learn estimators trained
distributed, one Ray worker per data shard.

They extend LightGBM's own classes, so parameters, ``get_params`` / ``set_params``,
``sklearn.base.clone`` and the fitted attributes are LightGBM's; ``predict`` and friends
return lazy tensors computed block by block with LightGBM's own single-process method.
"""
from __future__ import annotations

import numpy as np
import lightgbm

from .._fit import run_on_shards, shard
from .._labels import classes_of
from .._predict import estimator_method, pickled, predict_rows, unpickle
from .._shards import as_lazy, check_rows, rows_per_block
from ._train import TIME_OUT, fit_shard


def _fields(X, y, sample_weight=None, init_score=None) -> dict:
    from ....core.user import Tileable

    rows = None if isinstance(X, Tileable) else rows_per_block(X)
    fields = {"data": as_lazy(X, "X", 2, rows), "label": as_lazy(y, "y", 1, rows),
              "weight": as_lazy(sample_weight, "sample_weight", 1, rows),
              "init_score": as_lazy(init_score, "init_score", None, rows)}
    fields = {k: v for k, v in fields.items() if v is not None}
    check_rows(fields)
    return fields


def _group_cuts(group):
    """Row offsets where a query group starts (a shard may only start there)."""
    if group is None:
        return None, None
    sizes = np.asarray(group.fetch() if hasattr(group, "fetch") else group).astype(np.int64)
    return sizes, [int(b) for b in np.cumsum(np.concatenate([[0], sizes]))]


def _groups_between(sizes, bounds, lo: int, hi: int):
    i, j = bounds.index(lo), bounds.index(hi)
    return sizes[i:j]


class _Distributed:
    """What the three estimators share: distributed fit, lazy block-wise prediction."""

    _local: type  # LightGBM's class whose single-process methods run on each block

    def _fit_distributed(self, X, y, *, sample_weight=None, init_score=None, group=None,
                         eval_set=None, eval_names=None, eval_sample_weight=None,
                         eval_init_score=None, eval_group=None, eval_metric=None,
                         callbacks=None, n_workers=None, session=None, train_cls=None,
                         params=None, classes=None, categorical_feature="auto"):
        train = _fields(X, y, sample_weight, init_score)
        evals, eval_sizes = [], []
        for i, (vx, vy) in enumerate(eval_set or ()):
            if vx is X and vy is y:
                evals.append(train)
            else:
                evals.append(_fields(vx, vy, _at(eval_sample_weight, i), _at(eval_init_score, i)))
            eval_sizes.append(_group_cuts(_at(eval_group, i)))
        sizes, bounds = _group_cuts(group)
        if sizes is not None and bounds[-1] != (train["data"].shape[0]):
            raise ValueError(f"sum of group sizes ({bounds[-1]}) != number of samples "
                             f"({train['data'].shape[0]})")
        sharded = shard(session, train, evals, n_workers, allowed_cuts=bounds,
                        eval_allowed=[b for _, b in eval_sizes])
        params = dict(self.get_params() if params is None else params)
        if params.get("tree_learner", "serial") in ("serial", None):
            params["tree_learner"] = "data"
        if params.get("n_jobs") is None or params.get("n_jobs", -1) < 0:
            params["n_jobs"] = 1
        fit_kwargs = {"eval_names": eval_names, "eval_metric": eval_metric,
                      "callbacks": callbacks, "categorical_feature": categorical_feature}

        def member_args(group_):
            addresses = group_.addresses()
            machines = ",".join(f"{ip}:{port}" for ip, port in addresses)
            out = []
            for i, (ip, port) in enumerate(addresses):
                network = {"machines": machines, "local_listen_port": port,
                           "num_machines": sharded.n, "time_out": TIME_OUT}
                spec, ev_specs = sharded.for_worker(i)
                lo, hi = sharded.cuts[i], sharded.cuts[i + 1]
                grp = None if sizes is None else _groups_between(sizes, bounds, lo, hi)
                ev_groups = None
                if eval_group is not None:
                    ev_groups = [_groups_between(s, b, ec[i], ec[i + 1]) if s is not None else None
                                 for (s, b), ec in zip(eval_sizes, sharded.eval_cuts)]
                out.append((train_cls or self._local, params, network, spec, ev_specs, grp,
                            ev_groups, classes, fit_kwargs, i))
            return out

        results = run_on_shards(sharded, fit_shard, member_args)
        return results[0]

    def _adopt(self, fitted) -> None:
        """Take ``fitted``'s fitted state (not its parameters) as this estimator's."""
        params = set(fitted.get_params())
        for name, value in vars(fitted).items():
            if name not in params and name != "_other_params":
                setattr(self, name, value)

    def _lazy(self, method: str, X, **kwargs):
        local = self._local()
        local.__dict__.update({k: v for k, v in vars(self).items()})
        return predict_rows(estimator_method, unpickle, pickled(local), X,
                            kwargs={"method": method, "base": self._local, **kwargs},
                            label=f"{type(self).__name__}.{method}")

    def predict(self, X, raw_score: bool = False, start_iteration: int = 0,
                num_iteration=None, pred_leaf: bool = False, pred_contrib: bool = False,
                validate_features: bool = False, **kwargs):
        """Predictions for ``X`` as a lazy tensor, computed block by block."""
        for name in ("session", "run_kwargs", "run"):
            kwargs.pop(name, None)
        return self._lazy("predict", X, raw_score=raw_score, start_iteration=start_iteration,
                          num_iteration=num_iteration, pred_leaf=pred_leaf,
                          pred_contrib=pred_contrib, validate_features=validate_features,
                          **kwargs)


def _at(seq, i):
    return None if seq is None else seq[i]


class LGBMRegressor(_Distributed, lightgbm.LGBMRegressor):
    """LightGBM's regressor trained on Ray workers, one per data shard."""

    _local = lightgbm.LGBMRegressor

    def fit(self, X, y, sample_weight=None, init_score=None, eval_set=None, eval_names=None,
            eval_sample_weight=None, eval_init_score=None, eval_metric=None,
            categorical_feature="auto", callbacks=None, *, n_workers=None, session=None):
        """Fit on ``X`` / ``y`` (tensors, DataFrames, NumPy or pandas) distributed."""
        fitted = self._fit_distributed(
            X, y, sample_weight=sample_weight, init_score=init_score, eval_set=eval_set,
            eval_names=eval_names, eval_sample_weight=eval_sample_weight,
            eval_init_score=eval_init_score, eval_metric=eval_metric, callbacks=callbacks,
            categorical_feature=categorical_feature, n_workers=n_workers, session=session)
        self._adopt(fitted)
        return self


class LGBMRanker(_Distributed, lightgbm.LGBMRanker):
    """LightGBM's ranker trained on Ray workers; shards never split a query group."""

    _local = lightgbm.LGBMRanker

    def fit(self, X, y, sample_weight=None, init_score=None, group=None, eval_set=None,
            eval_names=None, eval_sample_weight=None, eval_init_score=None, eval_group=None,
            eval_metric=None, eval_at=(1, 2, 3, 4, 5), categorical_feature="auto",
            callbacks=None, *, n_workers=None, session=None):
        """Fit on ``X`` / ``y`` with query ``group`` sizes (in row order) distributed."""
        if group is None:
            raise ValueError("Should set group for ranking task")
        if eval_set is not None and eval_group is None:
            raise ValueError("Eval_group cannot be None when eval_set is not None")
        self._eval_at = eval_at
        fitted = self._fit_distributed(
            X, y, sample_weight=sample_weight, init_score=init_score, group=group,
            eval_set=eval_set, eval_names=eval_names, eval_sample_weight=eval_sample_weight,
            eval_init_score=eval_init_score, eval_group=eval_group, eval_metric=eval_metric,
            callbacks=callbacks, categorical_feature=categorical_feature, n_workers=n_workers,
            session=session)
        self._adopt(fitted)
        return self


class LGBMClassifier(_Distributed, lightgbm.LGBMClassifier):
    """LightGBM's classifier trained on Ray workers, one per data shard. Classes are found
    over all the data first, so a shard missing a class still trains the same model."""

    _local = lightgbm.LGBMClassifier

    def fit(self, X, y, sample_weight=None, init_score=None, eval_set=None, eval_names=None,
            eval_sample_weight=None, eval_class_weight=None, eval_init_score=None,
            eval_metric=None, categorical_feature="auto", callbacks=None, *, n_workers=None,
            session=None):
        """Fit on ``X`` / ``y`` (tensors, DataFrames, NumPy or pandas) distributed."""
        if eval_class_weight is not None:
            raise NotImplementedError("eval_class_weight is not supported in distributed training")
        label = _fields(X, y)["label"]
        classes = classes_of(label)
        if len(classes) < 2:
            raise ValueError(f"y has {len(classes)} class; a classifier needs at least 2")
        # fitted by LightGBM itself on one row per class: the label encoder, objective and
        # class bookkeeping a single-process fit sets
        template = lightgbm.LGBMClassifier(**self.get_params())
        template.set_params(n_estimators=1, verbose=-1, n_jobs=1)
        params = dict(self.get_params())
        params.pop("class_weight", None)
        objective = params.get("objective")
        if objective is None:
            objective = "multiclass" if len(classes) > 2 else "binary"
        params["objective"] = objective
        if len(classes) > 2:
            params["num_class"] = len(classes)
        params["class_weight"] = _class_weight(self.class_weight, classes, label)
        fitted = self._fit_distributed(
            X, y, sample_weight=sample_weight, init_score=init_score, eval_set=eval_set,
            eval_names=eval_names, eval_sample_weight=eval_sample_weight,
            eval_init_score=eval_init_score, eval_metric=_class_metric(eval_metric, classes),
            callbacks=callbacks, categorical_feature=categorical_feature, n_workers=n_workers,
            session=session, train_cls=lightgbm.LGBMModel, params=params, classes=classes)
        template.fit(_one_row_per_class(X, fitted._n_features, len(classes)), classes)
        self._adopt(template)
        for name in ("_Booster", "_evals_result", "_best_score", "_best_iteration",
                     "_n_features", "_n_features_in", "_fitted_with_feature_names"):
            setattr(self, name, getattr(fitted, name))
        return self

    def predict_proba(self, X, raw_score: bool = False, start_iteration: int = 0,
                      num_iteration=None, pred_leaf: bool = False, pred_contrib: bool = False,
                      validate_features: bool = False, **kwargs):
        """Class probabilities for ``X`` as a lazy (n_samples, n_classes) tensor."""
        for name in ("session", "run_kwargs", "run"):
            kwargs.pop(name, None)
        return self._lazy("predict_proba", X, raw_score=raw_score,
                          start_iteration=start_iteration, num_iteration=num_iteration,
                          pred_leaf=pred_leaf, pred_contrib=pred_contrib,
                          validate_features=validate_features, **kwargs)


def _class_weight(class_weight, classes, label):
    """``class_weight`` keyed by encoded label; "balanced" from the counts of all the data."""
    if class_weight is None:
        return None
    if class_weight == "balanced":
        from .._labels import class_counts

        counts = class_counts(label, classes)  # sklearn's n_samples / (n_classes * count)
        return {i: counts.sum() / (len(classes) * c) for i, c in enumerate(counts)}
    return {int(np.searchsorted(classes, k)): v for k, v in class_weight.items()}


def _class_metric(eval_metric, classes):
    """LightGBM's classifier renames logloss / error metrics for binary or multiclass."""
    if callable(eval_metric) or eval_metric is None:
        return eval_metric
    metrics = [eval_metric] if isinstance(eval_metric, str) else list(eval_metric)
    multi = len(classes) > 2
    rename = {"logloss": "multi_logloss" if multi else "binary_logloss",
              "error": "multi_error" if multi else "binary_error"}
    rename.update({"binary_logloss": rename["logloss"], "multi_logloss": rename["logloss"],
                   "binary_error": rename["error"], "multi_error": rename["error"]})
    return [rename.get(m, m) for m in metrics]


def _one_row_per_class(X, n_features: int, k: int):
    """``k`` rows with X's columns and dtypes (the template fit learns only the bookkeeping)."""
    import pandas as pd

    from ....dataframe.blockwise import sample_of
    from ....dataframe.core import DataFrame

    if isinstance(X, DataFrame):
        row = sample_of(X.data.meta)
    elif isinstance(X, pd.DataFrame):
        row = X.iloc[:1]
    else:
        return np.zeros((k, n_features))
    return pd.concat([row] * k, ignore_index=True)

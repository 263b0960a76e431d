"""statsmodels' distributed estimation on mars data: fit per partition as Ray tasks where
the partitions' blocks are, join the small per-partition results on the driver.

The partition fits and the join are statsmodels' own (``DistributedModel``'s estimation
and join methods), so results equal ``DistributedModel.fit`` on the same partitions.
"""
from __future__ import annotations

import math
import pickle

from .._extras import require
from .._fit import get_session
from .._predict import pickled, predict_rows, unpickle
from .._shards import as_lazy, check_rows, even_cuts, layouts, load_all, shard_specs


def _fit_partition(spec: dict, part: int, partitions: int, model_class, init_kwds: dict,
                   estimation_method, estimation_kwds: dict, fit_kwds: dict) -> bytes:
    """Inside a Ray task: statsmodels' estimation method on one partition."""
    parts = load_all(spec)
    model = model_class(parts["endog"], parts["exog"], **init_kwds)
    result = estimation_method(model, part, partitions, fit_kwds=fit_kwds, **estimation_kwds)
    return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)


class MarsDistributedModel:
    """``statsmodels.base.distributed_estimation.DistributedModel`` over mars data.

    ``num_partitions`` (default 10) or ``factor`` x the cluster's CPUs partitions; the other
    arguments are DistributedModel's (defaults: OLS, debiased regularized estimation).
    """

    def __init__(self, factor=None, num_partitions=None, model_class=None, init_kwds=None,
                 estimation_method=None, estimation_kwds=None, join_method=None,
                 join_kwds=None, results_class=None, results_kwds=None):
        require("statsmodels", "statsmodels")
        from statsmodels.base.distributed_estimation import DistributedModel

        if factor is not None and factor <= 0:
            raise ValueError(f"factor must be positive, got {factor}")
        self._factor = factor
        self._sm_model = DistributedModel(
            num_partitions or 10, model_class=model_class, init_kwds=init_kwds,
            estimation_method=estimation_method, estimation_kwds=estimation_kwds,
            join_method=join_method, join_kwds=join_kwds, results_class=results_class,
            results_kwds=results_kwds)

    def _partitions(self) -> int:
        if self._factor is None:
            return int(self._sm_model.partitions)
        import ray

        cpus = ray.cluster_resources().get("CPU", 1)
        return max(1, int(cpus * self._factor))

    def fit(self, endog, exog, session=None, **kwargs) -> "MarsResults":
        """Fit on ``endog`` (1-D) and ``exog`` (2-D); ``kwargs`` are the partition fits'
        ``fit_kwds``. Returns :class:`MarsResults`."""
        import ray

        kwargs.pop("run_kwargs", None)
        sm = self._sm_model
        fields = {"endog": as_lazy(endog, "endog", 1), "exog": as_lazy(exog, "exog", 2)}
        check_rows(fields)
        partitions = self._partitions()
        nrows = fields["exog"].shape[0]
        if not math.isnan(nrows) and partitions > nrows:
            raise ValueError(f"{partitions} partitions for {nrows} rows: every partition needs rows")
        lays = layouts(get_session(session), fields)
        specs = shard_specs(lays, even_cuts(lays["exog"].nrows, partitions))
        task = ray.remote(_fit_partition)
        refs = [task.remote(spec, i, partitions, sm.model_class, sm.init_kwds,
                            sm.estimation_method, sm.estimation_kwds, kwargs)
                for i, spec in enumerate(specs)]
        results = [pickle.loads(r) for r in ray.get(refs)]
        params = sm.join_method(results, **sm.join_kwds)
        dummy = sm.model_class([0], [0], **sm.init_kwds)
        return MarsResults(sm.results_class(dummy, params, **sm.results_kwds))


def _results_predict(results, block, args=(), **kwargs):
    return results.predict(block, *args, **kwargs)


class MarsResults:
    """The joined statsmodels results; attributes are the results'. ``predict`` returns a
    lazy tensor computed block by block."""

    def __init__(self, model):
        self._model = model

    @property
    def model(self):
        return self._model

    def __getattr__(self, item):
        if item == "_model":
            raise AttributeError(item)
        return getattr(self._model, item)

    def predict(self, exog, *args, **kwargs):
        """``results.predict(exog_block, *args, **kwargs)`` on every row block, lazily."""
        for name in ("session", "run_kwargs"):
            kwargs.pop(name, None)
        return predict_rows(_results_predict, unpickle, pickled(self._model), exog,
                            kwargs={"args": tuple(args), **kwargs}, label="MarsResults.predict")

"""Distributed LightGBM on mars data (the ``lightgbm`` extra: ``pip install 'mars_on_ray[lightgbm]'``).

``fit`` runs one Ray worker per data shard joined by LightGBM's network parameters
(``machines`` / ``local_listen_port`` / ``num_machines``, data-parallel tree learner);
``predict`` returns lazy tensors computed chunk by chunk.
"""
from .._extras import optional, unavailable

__all__ = ["LGBMClassifier", "LGBMRegressor", "LGBMRanker"]

if optional("lightgbm") is None:
    LGBMClassifier, LGBMRegressor, LGBMRanker = (
        unavailable(name, "lightgbm", "lightgbm") for name in __all__)
else:
    from .sklearn import LGBMClassifier, LGBMRanker, LGBMRegressor

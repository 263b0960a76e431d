"""Integrations with other learning libraries, each an optional extra of mars_on_ray.

``xgboost`` and ``lightgbm`` train one Ray worker per data shard with the library's own
distributed mode; ``pytorch`` and ``tensorflow`` run a user's training script on Ray workers
with the distributed environment each framework expects; ``statsmodels`` fits per partition
and combines. A submodule imports without its library; using it raises an ``ImportError``
that names the extra to install (``pip install 'mars_on_ray[xgboost]'``).
"""

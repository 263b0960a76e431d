"""``mars_on_ray.learn.linear_model``: linear models over chunked data."""
from ._base import LinearRegression
from ._logistic import LogisticRegression
from ._ridge import Ridge

__all__ = ["LinearRegression", "LogisticRegression", "Ridge"]

"""``mars_on_ray.learn.linear_model``: LinearRegression over chunked data."""
from ._base import LinearRegression

__all__ = ["LinearRegression"]

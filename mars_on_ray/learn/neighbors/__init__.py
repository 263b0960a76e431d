"""``mars_on_ray.learn.neighbors``: nearest neighbours by brute force over chunk pairs."""
from ._base import NearestNeighbors
from ._supervised import KNeighborsClassifier, KNeighborsRegressor

__all__ = ["NearestNeighbors", "KNeighborsClassifier", "KNeighborsRegressor"]

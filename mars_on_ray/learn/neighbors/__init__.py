"""``mars_on_ray.learn.neighbors``: NearestNeighbors by brute force over chunk pairs."""
from ._base import NearestNeighbors

__all__ = ["NearestNeighbors"]

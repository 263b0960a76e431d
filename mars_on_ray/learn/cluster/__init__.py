"""``mars_on_ray.learn.cluster``: KMeans and k_means over chunked data."""
from ._kmeans import KMeans, k_means

__all__ = ["KMeans", "k_means"]

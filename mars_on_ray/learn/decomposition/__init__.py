"""``mars_on_ray.learn.decomposition``: PCA and TruncatedSVD over chunked data."""
from ._pca import PCA, TruncatedSVD

__all__ = ["PCA", "TruncatedSVD"]
